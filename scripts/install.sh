#!/usr/bin/env bash
# `make install` / `make uninstall`: puts the staged files (scripts/stage.sh) and the segmentation model
# under DESTDIR/PREFIX, or removes exactly what was put there.
#
#   scripts/install.sh install STAGE MODEL     # MODEL: a folder with both models (u2net.json, u2net.bin, u2netp.json, u2netp.bin)
#   scripts/install.sh uninstall
# Environment: PREFIX (/usr/local), DESTDIR (empty; a staging root), MANIFEST (yes: record the installed
# files in PREFIX/share/sticker-catalog/install-manifest for uninstall; the Debian package says no, dpkg
# keeps its own list). Runs the writes through sudo when the destination is not writable.
#
# Layout (the standard folders each shell and man read):
#   PREFIX/bin/catalog
#   PREFIX/share/bash-completion/completions/catalog
#   PREFIX/share/zsh/vendor-completions/_catalog (PREFIX=/usr, Debian's) or PREFIX/share/zsh/site-functions/_catalog
#   PREFIX/share/fish/vendor_completions.d/catalog.fish
#   PREFIX/share/man/man1/catalog.1.gz, catalog-SUBCOMMAND.1.gz
#   PREFIX/share/sticker-catalog/models/u2net.json, u2net.bin, u2net.LICENSE.txt and the same for u2netp
set -euo pipefail
action=${1:?install or uninstall}
prefix=${PREFIX:-/usr/local}
root=${DESTDIR:-}
datadir=$prefix/share
if [ "$prefix" = /usr ]; then zshdir=$datadir/zsh/vendor-completions; else zshdir=$datadir/zsh/site-functions; fi
manifest=$datadir/sticker-catalog/install-manifest

# sudo only when needed: the nearest existing folder of the destination is not writable.
target=$root$prefix
while [ ! -e "$target" ]; do target=$(dirname "$target"); done
as=()
if [ ! -w "$target" ] && [ "$(id -u)" != 0 ]; then as=(sudo); fi

case $action in
install)
  stage=${2:?STAGE} model=${3:?MODEL}
  [ -x "$stage/bin/catalog" ] || { echo "error: nothing staged in $stage (make install runs scripts/stage.sh first)" >&2; exit 1; }
  for name in u2net u2netp; do
    [ -s "$model/$name.json" ] && [ -s "$model/$name.bin" ] || { echo "error: no segmentation model $name in $model (scripts/install-model.sh $model)" >&2; exit 1; }
  done
  installed=()
  put() { # put MODE SOURCE DEST
    "${as[@]}" install -D -m "$1" "$2" "$root$3"
    installed+=("$3")
  }
  put 0755 "$stage/bin/catalog" "$prefix/bin/catalog"
  put 0644 "$stage/completions/catalog.bash" "$datadir/bash-completion/completions/catalog"
  put 0644 "$stage/completions/_catalog" "$zshdir/_catalog"
  put 0644 "$stage/completions/catalog.fish" "$datadir/fish/vendor_completions.d/catalog.fish"
  for page in "$stage"/man/*.1.gz; do put 0644 "$page" "$datadir/man/man1/$(basename "$page")"; done
  for file in u2net.json u2net.bin u2net.LICENSE.txt u2netp.json u2netp.bin u2netp.LICENSE.txt; do
    if [ -e "$model/$file" ]; then put 0644 "$model/$file" "$datadir/sticker-catalog/models/$file"; fi
  done
  if [ "${MANIFEST:-yes}" = yes ]; then
    # An earlier install's files that this one no longer has (a subcommand's page, say) go.
    if [ -f "$root$manifest" ]; then
      while IFS= read -r file; do
        case " ${installed[*]} " in *" $file "*) ;; *) case $file in "$prefix"/*) "${as[@]}" rm -f "$root$file" ;; esac ;; esac
      done < "$root$manifest"
    fi
    printf '%s\n' "${installed[@]}" | "${as[@]}" tee "$root$manifest" > /dev/null
    "${as[@]}" chmod 0644 "$root$manifest"
  fi
  echo "installed catalog $(cat "$stage/VERSION") in ${root}${prefix} (${#installed[@]} files)"
  ;;
uninstall)
  [ -f "$root$manifest" ] || { echo "error: no installation of catalog in ${root}${prefix} (no $root$manifest)" >&2; exit 1; }
  count=0
  while IFS= read -r file; do
    case $file in "$prefix"/*) ;; *) echo "error: $root$manifest names $file, outside $prefix; not removing it" >&2; exit 1 ;; esac
    "${as[@]}" rm -f "$root$file"
    count=$((count + 1))
  done < "$root$manifest"
  "${as[@]}" rm -f "$root$manifest"
  # Only the folders that are ours; shared ones (man1, the completion folders) stay.
  "${as[@]}" rmdir --ignore-fail-on-non-empty "$root$datadir/sticker-catalog/models" "$root$datadir/sticker-catalog" 2>/dev/null || true
  echo "removed catalog from ${root}${prefix} ($count files)"
  ;;
*) echo "usage: scripts/install.sh install STAGE MODEL | uninstall" >&2; exit 64 ;;
esac
