#!/bin/sh
# Removes what packaging/install.sh installed, with the same PREFIX, UNITDIR and GENERATORDIR, and
# relabel's SELinux policy module when it is loaded.
#
#   packaging/uninstall.sh [PREFIX=/usr] [UNITDIR=/lib/systemd/system]
#                          [GENERATORDIR=/lib/systemd/system-generators]
set -eu
for assignment in "$@"; do
  case $assignment in
    PREFIX=* | UNITDIR=* | GENERATORDIR=*) eval "${assignment%%=*}=\${assignment#*=}" ;;
    *) echo "uninstall.sh: unknown argument: $assignment" >&2; exit 2 ;;
  esac
done
PREFIX=${PREFIX:-/usr}
UNITDIR=${UNITDIR:-/lib/systemd/system}
GENERATORDIR=${GENERATORDIR:-/lib/systemd/system-generators}

if command -v semodule >/dev/null 2>&1 && semodule -l 2>/dev/null | grep -qx 'relabel'; then
  semodule -r relabel
  echo "uninstall.sh: SELinux policy module relabel removed"
fi
rm -f "$PREFIX/bin/relabel" "$GENERATORDIR/relabel-autorelabel-generator" \
  "$UNITDIR/relabel-autorelabel.service" "$UNITDIR/relabel-autorelabel-mark.service" \
  "$UNITDIR/relabel-autorelabel-failed.service" "$UNITDIR/relabel-autorelabel.target" \
  "$PREFIX/share/bash-completion/completions/relabel"
rm -f "$PREFIX"/share/man/man1/relabel.1 "$PREFIX"/share/man/man1/relabel-*.1
rm -rf "$PREFIX/share/relabel" "$PREFIX/lib/relabel"
echo "uninstall.sh: removed relabel from $PREFIX"
