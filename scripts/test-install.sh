#!/usr/bin/env bash
# make install / make uninstall into a staging root (DESTDIR), as a packager would use them:
# every file where shells and man look for it, the model beside the binary found by the installed
# catalog, a second install over the first, then uninstall leaving no file behind.
#
#   scripts/test-install.sh STAGE MODEL    (what scripts/stage.sh staged; a folder with the model)
set -euo pipefail
stage=${1:?STAGE} model=${2:?MODEL}
here=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "test-install: FAIL: $*" >&2; exit 1; }
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
prefix=/opt/sticker-catalog-test

PREFIX=$prefix DESTDIR=$root "$here/scripts/install.sh" install "$stage" "$model" > /dev/null
for file in bin/catalog share/bash-completion/completions/catalog share/zsh/site-functions/_catalog \
    share/fish/vendor_completions.d/catalog.fish share/man/man1/catalog.1.gz share/man/man1/catalog-import.1.gz \
    share/man/man1/catalog-pack-create.1.gz share/sticker-catalog/models/u2netp.json share/sticker-catalog/models/u2netp.bin \
    share/sticker-catalog/models/u2net.json share/sticker-catalog/models/u2net.bin; do
  [ -s "$root$prefix/$file" ] || fail "make install did not install $prefix/$file"
done
[ -x "$root$prefix/bin/catalog" ] || fail "$prefix/bin/catalog is not executable"
pages=$(ls "$root$prefix/share/man/man1" | wc -l)
[ "$pages" -gt 20 ] || fail "only $pages man pages"

# The installed binary finds the installed model (no model of the user's, no STICKER_MODEL_DIR).
home=$root/home
mkdir -p "$home"
printf '\xff\xd8' > "$home/broken.jpg"   # not a photo: refused as such (65), after the model was found (else 69)
status=0
env -i HOME="$home" PATH=/usr/bin:/bin "$root$prefix/bin/catalog" --catalog "$home/c.sqlite" import --quiet "$home/broken.jpg" 2> "$home/err" || status=$?
[ $status = 65 ] || fail "the installed catalog, importing a broken file, exited $status (69: it did not find the installed model): $(cat "$home/err")"

# Again over the first, then uninstall: nothing but empty shared folders is left.
PREFIX=$prefix DESTDIR=$root "$here/scripts/install.sh" install "$stage" "$model" > /dev/null
PREFIX=$prefix DESTDIR=$root "$here/scripts/install.sh" uninstall > /dev/null
rm -rf "$home"
left=$(find "$root" -not -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
[ ! -e "$root$prefix/share/sticker-catalog" ] || fail "make uninstall left $prefix/share/sticker-catalog"
echo "test-install: make install and make uninstall in DESTDIR=$root PREFIX=$prefix: $pages man pages, 3 completions, the model; nothing left"
