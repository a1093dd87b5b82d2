#!/usr/bin/env bash
# Builds the libFuzzer harnesses of Fuzz/ (JPEG decode, PNG decode, EXIF read, HEIF/AVIF decode,
# WebP decode, ICC profiles, and the animation decoder on GIFs, APNGs and clips) with
# `swiftc -sanitize=fuzzer,address` and runs each for FUZZ_SECONDS seconds, seeded from the corpus.
#
#   scripts/fuzz.sh [TARGET...]        TARGET: jpeg png exif heif webp icc gif apng clip (default: all nine)
#   FUZZ_SECONDS=600 FUZZ_JOBS=1 STICKER_CORPUS=/work/corpus scripts/fuzz.sh png
#
# Processing is compiled once, instrumented, as a static library (outside SwiftPM, which has no
# fuzzer product type); each harness links it. New inputs collect in $FUZZ_DIR/corpus-TARGET,
# crashes in $FUZZ_DIR/crashes-TARGET/ (minimize them and keep them in Fuzz/regressions/, which
# Tests/ProcessingTests/FuzzRegressionTests.swift replays).
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZ_DIR=${FUZZ_DIR:-.build-fuzz}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
CORPUS=${STICKER_CORPUS:-testdata-3p}
SWIFTC=${SWIFTC:-$(command -v swiftc)}
CLANG=${CLANG:-$(dirname "$SWIFTC")/clang}
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(jpeg png exif heif webp icc gif apng clip)
# Processing's own C targets (compiled here, instrumented) and the system libraries it imports.
c_targets=(CPNGWriter CSegmentationKernels CColorMatrix CPNGRows CResampleRows)
system_modules=(CTurboJPEG CPNG CExif CWebP CFFmpeg CHeif CLCMS2 CInflate CDeflate CMalloc)
for module in "${c_targets[@]}"; do mkdir -p "$FUZZ_DIR/modules/$module"; done
mkdir -p "$FUZZ_DIR/obj"
root=$(pwd)

build_library() {
    local stamp="$FUZZ_DIR/libProcessing.a"
    if [ -f "$stamp" ] && [ -z "$(find Sources/Processing "${c_targets[@]/#/Sources/}" -newer "$stamp" -print -quit)" ]; then
        return
    fi
    echo "fuzz: building the instrumented Processing library (a few minutes)"
    rm -f "$FUZZ_DIR/libProcessing.a" "$FUZZ_DIR/Processing.swiftmodule"
    for module in "${c_targets[@]}"; do
        {
            printf 'module %s {\n' "$module"
            for header in "$root/Sources/$module/include/"*.h; do printf '    header "%s"\n' "$header"; done
            printf '    export *\n}\n'
        } > "$FUZZ_DIR/modules/$module/module.modulemap"
    done
    rm -f "$FUZZ_DIR/obj/"*.o
    for module in "${c_targets[@]}"; do
        for source in "Sources/$module/"*.c; do
            "$CLANG" -c -O1 -g -fsanitize=fuzzer-no-link,address -I"Sources/$module/include" $(pkg-config --cflags libpng) \
                "$source" -o "$FUZZ_DIR/obj/$module-$(basename "$source" .c).o"
        done
    done
    local includes=()
    for module in "${system_modules[@]}"; do includes+=(-I "Sources/$module"); done
    for module in "${c_targets[@]}"; do includes+=(-I "$FUZZ_DIR/modules/$module"); done
    "$SWIFTC" -emit-library -static -emit-module -parse-as-library -module-name Processing -O -g \
        -sanitize=fuzzer,address -swift-version 6 -enable-upcoming-feature ExistentialAny \
        "${includes[@]}" -emit-module-path "$FUZZ_DIR/Processing.swiftmodule" \
        $(find Sources/Processing -name '*.swift' | sort) -o "$FUZZ_DIR/libProcessing.a" 2>&1 | grep -v 'Cannot export local symbol' >&2 || true
    [ -f "$FUZZ_DIR/Processing.swiftmodule" ] || { echo "fuzz: the Processing library did not build" >&2; exit 1; }
    ar rcs "$FUZZ_DIR/libProcessing.a" "$FUZZ_DIR/obj/"*.o
}

build_harness() {
    local target=$1 name
    name=$(echo "$target" | tr '[:lower:]' '[:upper:]')
    local includes=()
    for module in "${system_modules[@]}"; do includes+=(-I "Sources/$module"); done
    for module in "${c_targets[@]}"; do includes+=(-I "$FUZZ_DIR/modules/$module"); done
    # The animation harnesses share what they do with an input (FuzzAnimationInput.swift).
    local shared=()
    case $target in gif|apng|clip) shared=(Fuzz/FuzzAnimationInput.swift) ;; esac
    rm -f "$FUZZ_DIR/fuzz-$target"
    "$SWIFTC" -parse-as-library -O -g -sanitize=fuzzer,address -swift-version 6 "${includes[@]}" -I "$FUZZ_DIR" \
        "Fuzz/Fuzz$name.swift" Fuzz/FuzzLimits.swift "${shared[@]}" -L "$FUZZ_DIR" -lProcessing \
        -lturbojpeg -lpng16 -lexif -lwebp -lwebpdemux -lwebpmux -lavformat -lavcodec -lswscale -lavutil -lheif -llcms2 -lz -ldeflate -lm -o "$FUZZ_DIR/fuzz-$target" 2>&1 | grep -v 'Cannot export local symbol' >&2 || true
    [ -x "$FUZZ_DIR/fuzz-$target" ] || { echo "fuzz: the $target harness did not build" >&2; exit 1; }
}

seeds() {
    case $1 in
        jpeg) echo "$CORPUS/jpeg $CORPUS/exif $FUZZ_DIR/seeds-jpeg Fuzz/regressions" ;;
        png) echo "$CORPUS/png $CORPUS/pillow $FUZZ_DIR/seeds-png Fuzz/regressions" ;;
        exif) echo "$CORPUS/exif $FUZZ_DIR/seeds-exif Fuzz/regressions" ;;
        heif) echo "$CORPUS/heif $FUZZ_DIR/seeds-heif Fuzz/regressions" ;;
        webp) echo "$CORPUS/webp $FUZZ_DIR/seeds-webp Fuzz/regressions" ;;
        icc) echo "$FUZZ_DIR/seeds-icc Fuzz/regressions" ;;
        gif|apng|clip) echo "$FUZZ_DIR/seeds-$1 Fuzz/regressions" ;;
    esac
}

# Small seeds for the new formats, made with Debian's encoders from the corpus's PNGs (when there),
# and the ICC profiles colord ships.
make_seeds() {
    local target=$1 made=0
    case $target in
        heif|webp)
            command -v heif-enc >/dev/null && command -v cwebp >/dev/null || return 0
            for png in $(ls "$CORPUS"/png/*.png 2>/dev/null | head -20); do
                [ "$(stat -c %s "$png")" -lt 20000 ] || continue
                local base
                base=$(basename "$png" .png)
                if [ "$target" = heif ]; then
                    heif-enc -q 50 "$png" -o "$FUZZ_DIR/seeds-heif/$base.heic" >/dev/null 2>&1 || true
                    heif-enc -A -q 50 "$png" -o "$FUZZ_DIR/seeds-heif/$base.avif" >/dev/null 2>&1 || true
                else
                    cwebp -quiet -q 50 "$png" -o "$FUZZ_DIR/seeds-webp/$base.webp" 2>/dev/null || true
                    cwebp -quiet -lossless "$png" -o "$FUZZ_DIR/seeds-webp/$base-lossless.webp" 2>/dev/null || true
                fi
                made=$((made + 1))
                [ $made -lt 8 ] || break
            done ;;
        icc)
            cp -n /usr/share/color/icc/colord/*.icc "$FUZZ_DIR/seeds-icc/" 2>/dev/null || true ;;
        gif)
            # The corpus's GIFs (Pillow's test images: loops, disposal, transparency, comments), then
            # a few small animated ones in the shapes import meets.
            find "$CORPUS" -iname '*.gif' -size -64k -exec cp -n {} "$FUZZ_DIR/seeds-gif/" \; 2>/dev/null || true
            make_clip_seeds gif "anim.gif" "-t 0.8" "loop0.gif" "-t 0.5 -loop 0" "small.gif" "-t 1.2 -r 5 -vf scale=32:24" ;;
        apng)
            # The corpus's animated PNGs (those with an acTL chunk), then a few made here.
            for png in $(find "$CORPUS" \( -iname '*.png' -o -iname '*.apng' \) -size -64k 2>/dev/null); do
                grep -q acTL "$png" && cp -n "$png" "$FUZZ_DIR/seeds-apng/"
            done
            make_clip_seeds apng "anim.png" "-t 0.8 -f apng -plays 0" "rgba.png" "-t 0.5 -pix_fmt rgba -f apng -plays 2" ;;
        clip)
            # No clips in the corpus: one tiny file per container and codec import reads.
            make_clip_seeds clip "h264.mp4" "-t 0.5 -c:v libx264 -pix_fmt yuv420p" "h264.mov" "-t 0.5 -c:v libx264 -pix_fmt yuv420p" \
                "mpeg4.mp4" "-t 0.5 -c:v mpeg4" "vp8.webm" "-t 0.5 -c:v libvpx" "vp9.webm" "-t 0.5 -c:v libvpx-vp9" \
                "vp8.mkv" "-t 0.5 -c:v libvpx" "rotated.mp4" "-t 0.5 -c:v libx264 -pix_fmt yuv420p -metadata:s:v rotate=90" ;;
    esac
}

# Small animations made with the ffmpeg CLI when it is there: pairs of a file name in seeds-TARGET
# and the output options (split on spaces), from a 64 x 48 test pattern at 10 frames a second.
make_clip_seeds() {
    local target=$1
    shift
    command -v ffmpeg >/dev/null || return 0
    while [ $# -ge 2 ]; do
        local out="$FUZZ_DIR/seeds-$target/$1"
        # shellcheck disable=SC2086 # the options are meant to be split
        [ -f "$out" ] || ffmpeg -nostdin -loglevel error -y -f lavfi -i testsrc2=size=64x48:rate=10 $2 "$out" 2>/dev/null || true
        shift 2
    done
}

build_library
for target in "${targets[@]}"; do
    build_harness "$target"
done
for target in "${targets[@]}"; do
    mkdir -p "$FUZZ_DIR/corpus-$target" "$FUZZ_DIR/crashes-$target" "$FUZZ_DIR/seeds-$target"
    make_seeds "$target"
    # Seed files of the other kinds also live in these folders; the small camera photos are useful JPEG seeds.
    if [ "$target" = jpeg ] && [ -d "$CORPUS/photos" ]; then cp -n "$CORPUS"/photos/*.jpg "$FUZZ_DIR/seeds-jpeg/" 2>/dev/null || true; fi
    dirs=()
    for dir in $(seeds "$target"); do [ -d "$dir" ] && dirs+=("$dir"); done
    max_len=262144
    [ "$target" = exif ] && max_len=65536   # libexif reads at most 64 KiB of an APP1 segment
    echo "fuzz: $target for ${FUZZ_SECONDS}s (seeds: ${dirs[*]})"
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} nice -n 10 "$FUZZ_DIR/fuzz-$target" \
        -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2560 -max_len=$max_len -print_final_stats=1 \
        -artifact_prefix="$FUZZ_DIR/crashes-$target/" "$FUZZ_DIR/corpus-$target" "${dirs[@]}" \
        2>&1 | tee "$FUZZ_DIR/fuzz-$target.log" | grep -E --line-buffered 'DONE|INITED|stat::|ERROR|SUMMARY|Test unit written|==[0-9]+==' || true
done
