#!/usr/bin/env python3
"""Links the `catalog` binary with the Swift runtime linked statically, from the objects of the
ordinary (dynamic-runtime) build SwiftPM already made in CONFIG, instead of compiling the package a
second time.

    scripts/link-static.py CONFIG OUTPUT [SCRATCH]

SwiftPM writes the link command of each product into SCRATCH/CONFIG.yaml (default scratch: .build).
This takes catalog's, drops the $ORIGIN search path (the packaged binary looks for no library beside
itself), adds -static-stdlib, and names the static Foundation archives after the object list: the
objects were compiled against the dynamic Foundation, whose module autolinks only `-lFoundation`,
while the static one needs the libraries under it spelled out, after the objects that use them.
The objects are the same either way (one toolchain, one ABI); only the runtime's libraries differ.
"""
import json
import os
import re
import subprocess
import sys

# What `import Foundation` pulls in when the runtime is static, in link order (users before used).
STATIC_FOUNDATION = [
    "libFoundation.a", "libFoundationInternationalization.a", "libFoundationEssentials.a",
    "lib_FoundationICU.a", "lib_FoundationCShims.a", "lib_FoundationCollections.a",
    "libCoreFoundation.a",
]


def link_arguments(manifest, product, config):
    """The `args:` of the shell command that links PRODUCT in the llbuild manifest."""
    # The command is named after the product, the target triple and the configuration.
    command = re.compile(rf'^  "C\.{re.escape(product)}-[A-Za-z0-9_]+(-[A-Za-z0-9_]+){{2,3}}-{config}\.exe":$')
    with open(manifest, encoding="utf-8") as lines:
        inside = False
        for line in lines:
            if command.match(line.rstrip("\n")):
                inside = True
            elif inside and line.strip().startswith("args:"):
                return json.loads(line.split("args:", 1)[1])
            elif inside and line.startswith('  "'):
                break
    sys.exit(f"error: no link command for {product} in {manifest}; build it first (swift build --product {product})")


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: scripts/link-static.py CONFIG OUTPUT [SCRATCH]")
    config, output = sys.argv[1], sys.argv[2]
    scratch = sys.argv[3] if len(sys.argv) == 4 else ".build"
    arguments = link_arguments(os.path.join(scratch, f"{config}.yaml"), "catalog", config)
    swiftc = arguments[0]
    runtime = os.path.join(os.path.dirname(os.path.dirname(swiftc)), "lib", "swift_static", "linux")
    linked, skip = [swiftc, "-static-stdlib"], False
    for index, argument in enumerate(arguments[1:], start=1):
        if skip:
            skip = False
        elif argument == "-o":
            linked += ["-o", output]
            skip = True
        elif argument == "-Xlinker" and arguments[index + 1].startswith("-rpath"):
            skip = True
        else:
            linked.append(argument)
            if argument.startswith("@") and argument.endswith("Objects.LinkFileList"):
                linked += [os.path.join(runtime, archive) for archive in STATIC_FOUNDATION]
    missing = [path for path in linked if path.endswith(".a") and not os.path.exists(path)]
    if missing:
        sys.exit(f"error: this toolchain has no {', '.join(missing)}: it cannot link the runtime statically")
    sys.exit(subprocess.run(linked).returncode)


if __name__ == "__main__":
    main()
