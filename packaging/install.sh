#!/bin/sh
# Installs relabel: the launcher, the jar, JNA's native library, the systemd units and generator,
# and (when built) the man pages and bash completion. Build first: mvn -B -DskipTests package
#
#   packaging/install.sh [DESTDIR=/staging] [PREFIX=/usr] [UNITDIR=/lib/systemd/system]
#                        [GENERATORDIR=/lib/systemd/system-generators] [SELINUX_MODULE=auto|yes|no]
#                        [COMPILE_POLICY=auto|no]
#
# SELINUX_MODULE: relabel's SELinux policy module (packaging/selinux, README "The relabel_t
# domain"), which lets the boot-time relabel run enforcing in a domain of its own. auto (the
# default) builds it with the distribution's policy development files (selinux-policy-dev,
# selinux-policy-devel) and loads it with semodule when SELinux is enabled and no DESTDIR is given;
# yes does so whenever semodule and those files are there (an image built in a chroot), and fails
# if they are not; no skips it. Without the module the boot relabel still works: it switches SELinux
# to permissive for the relabel boot, as Debian's and Fedora's do, and says so on the console. The
# module's source is always installed in PREFIX/share/relabel/selinux for a package to build.
#
# Paths inside the units are PREFIX's and UNITDIR's, without DESTDIR (a package build installs
# into DESTDIR and ships what lands there). Debian's own selinux-autorelabel units stay as they
# are; to use ours instead, mask its generator:
#   ln -s /dev/null /etc/systemd/system-generators/selinux-autorelabel-generator.sh
set -eu

for assignment in "$@"; do
  case $assignment in
    DESTDIR=* | PREFIX=* | UNITDIR=* | GENERATORDIR=* | SELINUX_MODULE=* | COMPILE_POLICY=*) eval "${assignment%%=*}=\${assignment#*=}" ;;
    *) echo "install.sh: unknown argument: $assignment" >&2; exit 2 ;;
  esac
done
DESTDIR=${DESTDIR:-}
PREFIX=${PREFIX:-/usr}
UNITDIR=${UNITDIR:-/lib/systemd/system}
GENERATORDIR=${GENERATORDIR:-/lib/systemd/system-generators}
SELINUX_MODULE=${SELINUX_MODULE:-auto}
COMPILE_POLICY=${COMPILE_POLICY:-auto}
case $SELINUX_MODULE in
  auto | yes | no) ;;
  *) echo "install.sh: SELINUX_MODULE must be auto, yes or no, not: $SELINUX_MODULE" >&2; exit 2 ;;
esac
case $COMPILE_POLICY in
  auto | no) ;;
  *) echo "install.sh: COMPILE_POLICY must be auto or no, not: $COMPILE_POLICY" >&2; exit 2 ;;
esac

top=$(cd -- "$(dirname -- "$0")/.." && pwd -P)
jar="$top/relabel-cli/target/relabel.jar"
if [ ! -f "$jar" ]; then
  echo "install.sh: $jar is not built; run: mvn -B -DskipTests package" >&2
  exit 1
fi

bindir="$PREFIX/bin"
substitute() {
  sed -e "s|@BINDIR@|$bindir|g" -e "s|@UNITDIR@|$UNITDIR|g" -e "s|@LIBDIR@|$PREFIX/lib/relabel|g" "$1"
}

install -d "$DESTDIR$bindir" "$DESTDIR$PREFIX/share/relabel" "$DESTDIR$UNITDIR" "$DESTDIR$GENERATORDIR"
install -m 0644 "$jar" "$DESTDIR$PREFIX/share/relabel/relabel.jar"
install -m 0755 "$top/bin/relabel" "$DESTDIR$bindir/relabel"
# JNA's native library, which bin/relabel points JNA at (PREFIX/lib/relabel/jna/ARCH), and
# relabel's own (librelabel, built for this machine's architecture only), which it loads from there.
for native in "$top"/relabel-cli/target/jna/*/libjnidispatch.so "$top"/relabel-cli/target/jna/*/librelabel.so; do
  [ -f "$native" ] || continue
  arch=$(basename -- "$(dirname -- "$native")")
  install -d "$DESTDIR$PREFIX/lib/relabel/jna/$arch"
  install -m 0644 "$native" "$DESTDIR$PREFIX/lib/relabel/jna/$arch/${native##*/}"
done
install -d "$DESTDIR$PREFIX/lib/relabel"
substitute "$top/packaging/systemd/relabel-autorelabel-failed.in" > "$DESTDIR$PREFIX/lib/relabel/autorelabel-failed"
chmod 0755 "$DESTDIR$PREFIX/lib/relabel/autorelabel-failed"
for unit in relabel-autorelabel.service relabel-autorelabel-mark.service relabel-autorelabel-failed.service; do
  substitute "$top/packaging/systemd/$unit.in" > "$DESTDIR$UNITDIR/$unit"
  chmod 0644 "$DESTDIR$UNITDIR/$unit"
done
install -m 0644 "$top/packaging/systemd/relabel-autorelabel.target" "$DESTDIR$UNITDIR/relabel-autorelabel.target"
substitute "$top/packaging/systemd/relabel-autorelabel-generator.in" > "$DESTDIR$GENERATORDIR/relabel-autorelabel-generator"
chmod 0755 "$DESTDIR$GENERATORDIR/relabel-autorelabel-generator"

# The class data sharing archives (a faster start: every verb's, and the quick path's smaller one)
# are tied to the jar's path and to the java that makes them, so they are made where the jar now
# lies, with the java the launcher will use, by PREFIX/lib/relabel/make-archives from the class
# lists installed beside the jar. A staged install (DESTDIR) cannot: its package runs
# "PREFIX/lib/relabel/make-archives PREFIX/share/relabel" once installed (and after a JDK
# upgrade); without an archive relabel only starts slower.
install -m 0755 "$top/packaging/make-archives" "$DESTDIR$PREFIX/lib/relabel/make-archives"
for classlist in "$top"/relabel-cli/target/relabel.classlist "$top"/relabel-cli/target/relabel-quick.classlist; do
  if [ -f "$classlist" ]; then
    install -m 0644 "$classlist" "$DESTDIR$PREFIX/share/relabel/"
  fi
done
if [ -z "$DESTDIR" ]; then
  "$PREFIX/lib/relabel/make-archives" "$PREFIX/share/relabel" "${JAVA_HOME:+$JAVA_HOME/bin/}java" \
    || echo "install.sh: relabel will start slower" >&2
fi

# The SELinux policy module: its source for packages, and (see SELINUX_MODULE above) built and
# loaded here. semodule adds relabel.fc to the policy's file_contexts; the launcher is then labelled
# relabel_exec_t, the type systemd starts relabel_t from.
module_sources="relabel.te relabel.fc relabel.if"
install -d "$DESTDIR$PREFIX/share/relabel/selinux"
for source in $module_sources; do
  install -m 0644 "$top/packaging/selinux/$source" "$DESTDIR$PREFIX/share/relabel/selinux/$source"
done
devel_makefile=/usr/share/selinux/devel/Makefile
if [ "$SELINUX_MODULE" = auto ]; then
  SELINUX_MODULE=no
  if [ -z "$DESTDIR" ] && command -v selinuxenabled >/dev/null 2>&1 && selinuxenabled; then
    if command -v semodule >/dev/null 2>&1 && [ -f "$devel_makefile" ]; then
      SELINUX_MODULE=yes
    else
      echo "install.sh: SELinux is enabled, but semodule or $devel_makefile (the policy development" \
        "files) is missing: relabel's policy module is not installed, and the boot relabel will switch" \
        "SELinux to permissive while it runs" >&2
    fi
  fi
fi
if [ "$SELINUX_MODULE" = yes ]; then
  build=$(mktemp -d)
  trap 'rm -rf "$build"' EXIT
  for source in $module_sources; do
    cp "$top/packaging/selinux/$source" "$build/"
  done
  if ! make -s -C "$build" -f "$devel_makefile" relabel.pp >"$build/make.log" 2>&1; then
    cat "$build/make.log" >&2
    echo "install.sh: relabel's policy module did not build" >&2
    exit 1
  fi
  semodule -i "$build/relabel.pp"
  if command -v selinuxenabled >/dev/null 2>&1 && selinuxenabled; then
    restorecon "$bindir/relabel"
  fi
  echo "install.sh: SELinux policy module relabel loaded (semodule -l lists it)"
fi

# COMPILE_POLICY: the system policy, compiled (relabel compile, README "Short runs"): every start
# reads it instead of parsing the text. auto: when there is a policy and no DESTDIR; no: never. A
# policy change makes it stale (relabel then warns and reads the text): run 'relabel compile' again
# after semodule or semanage fcontext, as a package hook would.
if [ "$COMPILE_POLICY" = auto ] && [ -z "$DESTDIR" ] && [ -f /etc/selinux/config ]; then
  if ! "$bindir/relabel" compile; then
    echo "install.sh: the system policy could not be compiled (relabel reads its text: a slower start)" >&2
  fi
fi

# Man pages and completion, when the build made them.
if ls "$top"/relabel-cli/target/man/man1/*.1 >/dev/null 2>&1; then
  install -d "$DESTDIR$PREFIX/share/man/man1"
  install -m 0644 "$top"/relabel-cli/target/man/man1/*.1 "$DESTDIR$PREFIX/share/man/man1/"
fi
if [ -f "$top/relabel-cli/target/completion/relabel" ]; then
  install -d "$DESTDIR$PREFIX/share/bash-completion/completions"
  install -m 0644 "$top/relabel-cli/target/completion/relabel" "$DESTDIR$PREFIX/share/bash-completion/completions/relabel"
fi
echo "installed relabel under ${DESTDIR:-}$PREFIX, units under ${DESTDIR:-}$UNITDIR"
