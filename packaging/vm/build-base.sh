#!/usr/bin/env bash
# Builds (or finds in the cache) the Debian 12 root that the SELinux VM tests boot: mmdebstrap of
# bookworm, minbase plus base-packages, without documentation. The root is a directory in the cache,
# named by a hash of this script and base-packages, so a change to either builds a new one and an
# unchanged one is reused. Prints the directory.
#
#   packaging/vm/build-base.sh [CACHE_DIR]     (default $RELABEL_VM_CACHE, else /var/cache/relabel-vm)
set -euo pipefail
here=$(cd -- "$(dirname -- "$0")" && pwd -P)
cache=${1:-${RELABEL_VM_CACHE:-/var/cache/relabel-vm}}
mirror=${RELABEL_VM_MIRROR:-http://deb.debian.org/debian}
key=$(cat "$here/build-base.sh" "$here/base-packages" | sha256sum | cut -c1-16)
root="$cache/base-$key"
if [ -f "$root.done" ]; then
  echo "$root"
  exit 0
fi
mkdir -p "$cache"
rm -rf "$root" "$root.tmp"
packages=$(grep -v '^#' "$here/base-packages" | paste -sd, -)
start=$(date +%s)
# No documentation, man pages or translations: a smaller image that is faster to write.
# openjdk's postinst links its man page into /usr/share/man/man1, which must exist.
mmdebstrap --variant=minbase --include="$packages" \
  --setup-hook='mkdir -p "$1/usr/share/man/man1"' \
  --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
  --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
  --dpkgopt='path-exclude=/usr/share/info/*' \
  bookworm "$root.tmp" "$mirror" >&2
mv "$root.tmp" "$root"
touch "$root.done"
echo "vm: base root built in $(( $(date +%s) - start )) s: $root" >&2
echo "$root"
