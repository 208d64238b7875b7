#!/bin/sh
# The class list of relabel's class data sharing archive (see relabel-cli/pom.xml): the classes
# that the short runs load, one run of each, merged in first-seen order (a class listed twice stops
# the JVM's dump). The setfiles, lookup and restorecon runs take the quick path (no picocli: Main,
# QuickPath), as the short runs of scripts do, --json included; `--no-progress` sends one setfiles
# run down picocli's path, as every other verb goes. demo walks a sample tree; setfiles and
# restorecon run the setfiles pipeline; compile and lookup read a compiled policy; restorecon
# without a system policy still reads its options and fails at the policy, which is all it can do
# on a build machine without one.
#
#   cds-classlist.sh JAVA JAR SAMPLE_POLICY_DIR OUT
set -eu
java=$1 jar=$2 sample=$3 out=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$sample/file_contexts" "$work/"
mkdir -p "$work/tree/etc" "$work/tree/usr/bin"
: > "$work/tree/etc/passwd"
: > "$work/tree/usr/bin/ls"
# A second name of one file: a walk that meets a hard link decides its label after the walk
# (Walk.labelMultiLinked), and that code's classes and lambdas belong in the archive too.
ln "$work/tree/usr/bin/ls" "$work/tree/usr/bin/dir"
n=0
run() {
  n=$((n + 1))
  "$java" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:DumpLoadedClassList="$work/$n.classlist" -jar "$jar" "$@" \
    >/dev/null 2>&1 || true
}
run demo
# -r: the tree as the root the policy's paths name (under /tmp the sample policy labels nothing).
run setfiles -n -v -r "$work/tree" "$work/file_contexts" "$work/tree"
run setfiles -n --json -r "$work/tree" "$work/file_contexts" "$work/tree"
run setfiles -n --no-progress -r "$work/tree" "$work/file_contexts" "$work/tree"
run compile -f "$work/file_contexts"
run lookup -f "$work/file_contexts" /etc/passwd /usr/bin/ls
run lookup --json -f "$work/file_contexts" /etc/passwd
run restorecon -n -v "$work/tree/etc/passwd"
run --version
# A class is listed once. A lambda's line is not: the JVM writes one per call site, and two call
# sites with the same target (FindOps$FindSink$OfRef's Optional::isPresent, in java.util.logging's
# start) write the same line; the dump archives one proxy per line, so the merge keeps as many
# copies as the run that had most, or the second call site spins its proxy at every start.
set --
i=1
while [ "$i" -le "$n" ]; do
  [ -f "$work/$i.classlist" ] && set -- "$@" "$work/$i.classlist"
  i=$((i + 1))
done
awk 'FNR == 1 { split("", inRun) }
     /^@lambda-proxy / { if (++inRun[$0] > kept[$0]) { kept[$0]++; print } next }
     !seen[$0]++' "$@" > "$out"
