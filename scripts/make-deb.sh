#!/usr/bin/env bash
# `make deb`: builds OUTDIR/sticker-catalog_VERSION_ARCH.deb with dpkg-deb from the staged files
# (scripts/stage.sh) and the segmentation model, laid out for /usr by scripts/install.sh, then runs lintian.
#   - VERSION is what the staged `catalog --version` prints (CatalogVersion.swift is its one source);
#   - Depends: is computed from the binary by dpkg-shlibdeps (the libraries it links and the Debian
#     packages that ship them, with their minimum versions), never typed;
#   - the model's licence goes into the copyright file (Debian keeps licences under /usr/share/doc).
#
#   scripts/make-deb.sh STAGE MODEL OUTDIR     (prints the .deb's path last)
# Environment: MAINTAINER ("Name <address>"), SOURCE_DATE_EPOCH (file dates; default the last commit's),
# LINTIAN (yes: run it and fail on any error or warning that packaging/lintian-overrides does not explain).
set -euo pipefail
stage=${1:?STAGE} model=${2:?MODEL} outdir=${3:?OUTDIR}
here=$(cd "$(dirname "$0")/.." && pwd)
package=sticker-catalog
version=$(cat "$stage/VERSION")
arch=$(dpkg --print-architecture)
maintainer=${MAINTAINER:-sticker-catalog maintainers <maintainers@sticker-catalog.invalid>}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$here" log -1 --format=%ct 2>/dev/null || date +%s)}
umask 022

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
PREFIX=/usr DESTDIR=$root MANIFEST=no "$here/scripts/install.sh" install "$stage" "$model" > /dev/null
rm -f "$root/usr/share/sticker-catalog/models/"*.LICENSE.txt

doc=$root/usr/share/doc/$package
mkdir -p "$doc" "$root/usr/share/lintian/overrides"
cp "$here/packaging/copyright" "$doc/copyright"
install -m 0644 "$here/packaging/lintian-overrides" "$root/usr/share/lintian/overrides/$package"
# A native package's changelog: one entry for this version, dated like the files.
{
  echo "$package ($version) unstable; urgency=medium"
  echo
  echo "  * Release $version."
  echo
  echo " -- $maintainer  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} > "$doc/changelog"
gzip -9n "$doc/changelog"

# Depends: from the binary. dpkg-shlibdeps reads debian/control of the folder it runs in.
mkdir -p "$work/shlibs/debian"
printf 'Source: %s\n\nPackage: %s\nArchitecture: any\n' "$package" "$package" > "$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O -e"$root/usr/bin/catalog" 2>"$work/shlibdeps.log" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { cat "$work/shlibdeps.log" >&2; echo "error: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

mkdir -p "$root/DEBIAN"
sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@DEPENDS@|$depends|" -e "s|@MAINTAINER@|$maintainer|" \
    -e "s|@INSTALLED_SIZE@|$(du -sk --exclude=DEBIAN "$root" | cut -f1)|" "$here/packaging/control.in" > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +
find "$root/DEBIAN" -type f -exec chmod 0644 {} +

mkdir -p "$outdir"
deb=$outdir/${package}_${version}_${arch}.deb
# gzip, not xz: the models' weights hardly compress either way (floats), and xz takes minutes over u2net's 176 MB.
# GZIP_LEVEL (default 9, the smallest): `make test` builds its throw-away package at 1, several times faster.
dpkg-deb --root-owner-group -Zgzip -z"${GZIP_LEVEL:-9}" --build "$root" "$deb" > /dev/null
echo "Depends: $depends" >&2
if [ "${LINTIAN:-yes}" = yes ]; then
  # Errors and warnings fail the build; packaging/lintian-overrides gives the reason for each one overridden.
  lintian --fail-on error,warning --tag-display-limit 0 "$deb" >&2
fi
echo "$deb"
