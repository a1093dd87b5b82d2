#!/usr/bin/env bash
# The Debian package on this machine, as its users get it (make test runs this; CI runs as root):
#   dpkg -i; the files where shells and man look for them; a binary that needs no Swift toolchain;
#   `catalog --version` giving the package's version; a sample photo imported with the packaged model
#   and found again by colour, run as `nobody` in an empty home with no source tree and no model of
#   its own; then dpkg -r, and nothing of the package left on the disk.
#
#   scripts/test-package.sh DEB SAMPLE_PHOTOS   (SAMPLE_PHOTOS: the built sample-photos program)
set -euo pipefail
deb=$(realpath "${1:?DEB}") samples=$(realpath "${2:?SAMPLE_PHOTOS}")
package=sticker-catalog
fail() { echo "test-package: FAIL: $*" >&2; exit 1; }

if [ "$(id -u)" != 0 ]; then
  echo "test-package: skipped: installing a package needs root (CI runs as root)"
  exit 0
fi
[ -f "$deb" ] || fail "no package $deb"
# Never replace or remove an installation this test did not make.
if [ "$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)" = installed ]; then
  fail "$package is already installed on this machine; remove it (dpkg -r $package) to run this test"
fi
[ ! -e /usr/bin/catalog ] || fail "/usr/bin/catalog exists and is not from $package; not overwriting it"

home=$(mktemp -d)
installed=no
cleanup() {
  if [ $installed = yes ]; then dpkg -r "$package" > /dev/null || true; fi
  rm -rf "$home"
}
trap cleanup EXIT

version=$(dpkg-deb -f "$deb" Version)
echo "test-package: $deb (Depends: $(dpkg-deb -f "$deb" Depends))"
dpkg -i "$deb" > /dev/null
installed=yes
files=$(dpkg -L "$package")

# Where shells and man look.
for file in /usr/bin/catalog /usr/share/man/man1/catalog.1.gz /usr/share/man/man1/catalog-import.1.gz \
    /usr/share/bash-completion/completions/catalog /usr/share/zsh/vendor-completions/_catalog \
    /usr/share/fish/vendor_completions.d/catalog.fish \
    /usr/share/sticker-catalog/models/u2netp.json /usr/share/sticker-catalog/models/u2netp.bin \
    /usr/share/sticker-catalog/models/u2net.json /usr/share/sticker-catalog/models/u2net.bin \
    /usr/share/doc/$package/copyright; do
  [ -s "$file" ] || fail "the package did not install $file"
done
zcat /usr/share/man/man1/catalog-import.1.gz | grep -q '^\.Nm "catalog import"' || fail "catalog-import.1 is not the import page"
bash -c 'source /usr/share/bash-completion/completions/catalog && complete -p catalog' > /dev/null \
  || fail "the bash completion does not register for catalog"
if command -v man > /dev/null; then man -w catalog-import > /dev/null || fail "man does not find catalog-import"; fi

# No toolchain: the Swift runtime is inside, and nothing points into a toolchain.
if ldd /usr/bin/catalog | grep -q 'libswift\|libFoundation\|not found'; then ldd /usr/bin/catalog >&2; fail "catalog needs libraries the package does not depend on"; fi
if readelf -d /usr/bin/catalog | grep -q 'RPATH\|RUNPATH'; then fail "catalog carries a library search path"; fi

# A user with nothing but the package: nobody, an empty home, no model of their own, no source tree.
chown nobody "$home"
cd "$home"
as_user() { setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"; }
reported=$(as_user catalog --version | head -n 1)
[ "$reported" = "$version (pipeline $(echo "$reported" | sed -n 's/.*(pipeline \([0-9]*\))$/\1/p'))" ] \
  || fail "catalog --version says '$reported', the package is $version"
"$samples" "$home/photos" > /dev/null
chown -R nobody "$home/photos"
photo=$(ls "$home"/photos/*.jpg | head -1)
as_user catalog import --quiet "$photo" || fail "catalog import $photo with the packaged model"
colour=$(as_user catalog palette 1 --format json | grep -o '"hex" *: *"#[0-9a-f]*"' | head -1 | grep -o '#[0-9a-f]*')
[ -n "$colour" ] || fail "the imported photo has no palette"
found=$(as_user catalog search --color "$colour" --ids)
[ "$(echo "$found" | head -1)" = 1 ] || fail "search --color $colour did not find the imported photo (got: $found)"
echo "test-package: catalog $reported imported $(basename "$photo") as nobody and found it by its colour $colour"

# Removal leaves nothing of the package behind.
cd /
dpkg -r "$package" > /dev/null
installed=no
# (Shared folders such as /usr/share/man/man1 stay when other packages use them; the package's own go.)
left=$(while IFS= read -r path; do
  if [ -d "$path" ] && [ ! -L "$path" ]; then
    case $path in /usr/share/sticker-catalog*|/usr/share/doc/$package) echo "$path" ;; esac
  elif [ -e "$path" ] || [ -L "$path" ]; then
    echo "$path"
  fi
done <<< "$files")
[ -z "$left" ] || fail "dpkg -r left behind: $left"
status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || echo not-installed)
[ "$status" = not-installed ] || fail "after dpkg -r the package is '$status', not gone"
echo "test-package: dpkg -r removed all $(echo "$files" | wc -l) paths of the package"
