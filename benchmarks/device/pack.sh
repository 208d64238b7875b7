#!/bin/sh
# pack.sh: the kit that measures issue 14's goals 2 and 3 on a machine with no JDK, no compiler and
# no network (a lent "device" machine: 16 cores), in one command there (run.sh). Writes
# benchmarks/target/device-kit.tar.gz (about 31 MB; the device tool carries at most 64 MiB):
#
#   java/          a jlink of this JDK (java.base, java.logging, jdk.unsupported), with its default
#                  class data sharing archive: the bare `java -version` of goal 1 runs on it too
#   bin/relabel, share/relabel/relabel.jar and its two class lists, lib/relabel/jna (JNA's library
#                  and librelabel), lib/relabel/make-archives: relabel laid out as install.sh lays
#                  it out (bin/relabel finds it so); run.sh makes the archives there, where the
#                  jar lies, with the kit's java
#   check-floor    benchmarks/floor/check-floor.c, linked statically (any x86-64 Linux runs it)
#   policy/        this machine's file_contexts and the files beside it that relabel reads
#                  (Debian's reference policy; the device has none)
#
# The jlink of Debian 12's JDK 17 needs glibc 2.34 or later where it runs (librelabel 2.28, the floor
# nothing); for an older system, pack from Temurin's JDK (glibc 2.17), which run.sh then names:
#   JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 benchmarks/device/pack.sh
#
# Build first (mvn -B -DskipTests package). Usage: benchmarks/device/pack.sh
# Then, on the device, from the checkout's root:
#   benchmarks/device/run.sh benchmarks/target/device-kit.tar.gz [ROUNDS [THREADS...]]
set -eu
top=$(cd -- "$(dirname -- "$0")/../.." && pwd -P)
fc=${RELABEL_KIT_POLICY:-/etc/selinux/default/contexts/files/file_contexts}
target="$top/benchmarks/target"
kit="$target/device-kit"
jar="$top/relabel-cli/target/relabel.jar"
jna="$top/relabel-cli/target/jna/linux-x86-64"
for needed in "$jar" "$top/relabel-cli/target/relabel.classlist" "$jna/libjnidispatch.so" "$jna/librelabel.so" "$fc"; do
  [ -f "$needed" ] || { echo "pack.sh: $needed is missing (build first: mvn -B -DskipTests package)" >&2; exit 1; }
done
java_home=${JAVA_HOME:-$(dirname -- "$(dirname -- "$(readlink -f -- "$(command -v java)")")")}

rm -rf "$kit" "$target/device-kit.tar.gz"
mkdir -p "$kit/bin" "$kit/share/relabel" "$kit/lib/relabel/jna" "$kit/policy"
"$java_home/bin/jlink" --add-modules java.base,java.logging,jdk.unsupported --strip-debug --no-man-pages \
  --no-header-files --generate-cds-archive --output "$kit/java" >/dev/null
cp "$top/bin/relabel" "$kit/bin/"
cp "$jar" "$top/relabel-cli/target/relabel.classlist" "$top/relabel-cli/target/relabel-quick.classlist" \
  "$kit/share/relabel/"
cp -r "$jna" "$kit/lib/relabel/jna/"
cp "$top/packaging/make-archives" "$kit/lib/relabel/"
cc -O2 -pthread -static -o "$kit/check-floor" "$top/benchmarks/floor/check-floor.c"
for file in "$fc" "$fc".homedirs "$fc".local "$fc".subs "$fc".subs_dist; do
  if [ -f "$file" ]; then cp "$file" "$kit/policy/"; fi
done
tar czf "$target/device-kit.tar.gz" -C "$target" device-kit
ls -l "$target/device-kit.tar.gz"
