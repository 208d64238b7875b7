#!/bin/sh
# The class lists of relabel's two class data sharing archives (see relabel-cli/pom.xml): the
# classes that the short runs load, one run of each, merged in first-seen order (a class listed
# twice stops the JVM's dump). OUT lists every run's classes: the archive of every verb. QUICK_OUT
# lists only the runs that take the quick path (no picocli: Main, QuickPath), as the short runs of
# scripts do, --json included: the smaller archive bin/relabel maps for restorecon, setfiles,
# lookup and --version, which the JVM relocates at every start in less time. `--no-progress`
# sends one setfiles run down picocli's path, as every other verb goes. demo walks a sample tree;
# setfiles (checking, then labelling) and restorecon run the setfiles pipeline; compile and
# lookup read a compiled policy; restorecon without a system policy still reads its options and
# fails at the policy, which is all it can do on a build machine without one.
#
#   cds-classlist.sh JAVA JAR SAMPLE_POLICY_DIR OUT QUICK_OUT
set -eu
java=$1 jar=$2 sample=$3 out=$4 quick_out=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$sample/file_contexts" "$work/"
mkdir -p "$work/tree/etc" "$work/tree/usr/bin"
: > "$work/tree/etc/passwd"
: > "$work/tree/usr/bin/ls"
# A second name of one file: a walk that meets a hard link decides its label after the walk
# (Walk.labelMultiLinked), and that code's classes and lambdas belong in the archive too.
ln "$work/tree/usr/bin/ls" "$work/tree/usr/bin/dir"
# A directory of 1,000 entries: a walk splits one of more than 256 among its workers (EntryRange),
# and after its first 64 system calls binds JNA's direct mapping (Libc.Direct, JNA's FFIType
# structures), which a walk of any real tree does; the quick path's archive needs those classes too.
mkdir "$work/tree/usr/share"
i=0
while [ "$i" -lt 1000 ]; do
  : > "$work/tree/usr/share/$i"
  i=$((i + 1))
done
n=0
quick_runs=
run() {
  n=$((n + 1))
  "$java" -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:DumpLoadedClassList="$work/$n.classlist" -jar "$jar" "$@" \
    >/dev/null 2>&1 || true
}
# A run the quick path takes: its classes go in both lists.
quick() {
  run "$@"
  quick_runs="$quick_runs $n"
}
run demo
# -r: the tree as the root the policy's paths name (under /tmp the sample policy labels nothing).
quick setfiles -n -v -r "$work/tree" "$work/file_contexts" "$work/tree"
# Labels written (or, where the build may not write them, each failure reported).
quick setfiles -v -r "$work/tree" "$work/file_contexts" "$work/tree"
quick setfiles -n --json -r "$work/tree" "$work/file_contexts" "$work/tree"
run setfiles -n --no-progress -r "$work/tree" "$work/file_contexts" "$work/tree"
run compile -f "$work/file_contexts"
quick lookup -f "$work/file_contexts" /etc/passwd /usr/bin/ls
quick lookup --json -f "$work/file_contexts" /etc/passwd
quick restorecon -n -v "$work/tree/etc/passwd"
# The paths from a list (-f FILE; -f - and -s read standard input the same way).
printf '%s\n' "$work/tree/etc/passwd" "$work/tree/usr/bin" > "$work/list"
quick restorecon -n -v -f "$work/list"
quick --version
# A class is listed once. A lambda's line is not: the JVM writes one per call site, and two call
# sites with the same target (FindOps$FindSink$OfRef's Optional::isPresent, in java.util.logging's
# start) write the same line; the dump archives one proxy per line, so the merge keeps as many
# copies as the run that had most, or the second call site spins its proxy at every start.
# merge_runs OUT N...: the class lists of runs N... (those that exist) merged into OUT.
merge_runs() {
  target=$1
  shift
  for i in "$@"; do
    shift
    if [ -f "$work/$i.classlist" ]; then
      set -- "$@" "$work/$i.classlist"
    fi
  done
  awk 'FNR == 1 { split("", inRun) }
       /^@lambda-proxy / { if (++inRun[$0] > kept[$0]) { kept[$0]++; print } next }
       !seen[$0]++' "$@" < /dev/null > "$target"
}
# shellcheck disable=SC2046,SC2086 # run numbers, split on purpose.
merge_runs "$out" $(seq 1 "$n")
# shellcheck disable=SC2086
merge_runs "$quick_out" $quick_runs
