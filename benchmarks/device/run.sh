#!/bin/bash
# run.sh KIT [ROUNDS [THREADS...]]: issue 14's goals measured on this machine with pack.sh's kit
# (KIT: device-kit.tar.gz), nothing else needed but bash, coreutils, tar, gzip, awk and root.
#
#   goal 2: a check of a mirror of this machine's /usr and /etc (structure only, on /dev/shm) at
#           each -T, against the C floor (check-floor) at the same -T, runs alternating
#           (floor relabel, then relabel floor), round 0 a warm-up; medians, and the median of the
#           paired ratios relabel / floor
#   goal 3: relabel's -T N over -T 1, end to end (wall) and for the walk alone (--json walkSeconds);
#           the floor's, which is what this machine's kernel and cores allow a walk
#   goal 1: a one-file `relabel setfiles -n` against a bare `java -version` (issue 14's flags),
#           both on the kit's java, alternating
#
# The CPU model is printed first: name it beside every figure (benchmarks/RESULTS.md). Default:
# 7 rounds, -T 1 2 4 8 16. Takes about two minutes on 16 cores. Writes nothing outside
# /dev/shm/relabel-device, which it removes at the end (RELABEL_DEVICE_KEEP=1 keeps it).
set -euo pipefail
kit_archive=$(readlink -f -- "$1")
rounds=${2:-7}
shift $(( $# < 2 ? $# : 2 ))
threads=("$@")
[ ${#threads[@]} -gt 0 ] || threads=(1 2 4 8 16)
[ "$(id -u)" = 0 ] || { echo "run.sh: run it as root (it writes security.selinux)" >&2; exit 1; }

work=/dev/shm/relabel-device
rm -rf "$work"
mkdir -p "$work"
[ -n "${RELABEL_DEVICE_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
tar xzf "$kit_archive" -C "$work"
kit="$work/device-kit"
export JAVA_HOME="$kit/java"
java="$JAVA_HOME/bin/java"
relabel="$kit/bin/relabel"
floor="$kit/check-floor"
fc="$kit/policy/file_contexts"
tree="$work/tree"
if ! "$java" -version >/dev/null 2>&1; then
  # Debian 12's JDK, jlinked, needs glibc 2.34 or later; Temurin's builds need 2.17 (librelabel 2.28).
  echo "run.sh: the kit's java does not start here ($(ldd --version 2>&1 | head -n 1)):" >&2
  "$java" -version 2>&1 | tail -n 3 >&2
  echo "run.sh: pack the kit from an older-glibc build: JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 benchmarks/device/pack.sh (and name that runtime beside the figures)" >&2
  exit 1
fi
"$kit/lib/relabel/make-archives" "$kit/share/relabel" "$java"

echo "== machine"
grep -m1 'model name' /proc/cpuinfo || true
echo "cpus $(nproc), $(uname -r), $(awk '/MemTotal/ {print int($2 / 1048576) " GiB"}' /proc/meminfo)"
"$java" -version 2>&1 | tail -n 1
"$relabel" --version | tail -n 1
"$relabel" compile -f "$fc"

mkdir -p "$tree"
cp -a --parents --attributes-only --no-preserve=xattr /usr /etc "$tree/" 2>/dev/null || true
echo "tree: $(find "$tree" | wc -l) entries (a mirror of /usr and /etc on /dev/shm)"
"$relabel" setfiles -T "$(nproc)" -r "$tree" "$fc" "$tree"

TIMEFORMAT='%3R %3U %3S'
# timed NAME COMMAND...: one run, its wall, user and system seconds appended to $work/NAME.
timed() {
  local name=$1
  shift
  { time "$@" >"$work/out" 2>"$work/err"; } 2>>"$work/$name" || { echo "run.sh: $name failed:" >&2; cat "$work/err" >&2; exit 1; }
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
column() { awk -v c="$1" '{ print $c }' "$2"; }

echo "== goal 2 and 3: check of the tree, $rounds rounds (+1 warm-up) per -T"
for t in "${threads[@]}"; do
  rm -f "$work/floor-$t" "$work/relabel-$t" "$work/walk-$t"
  for ((r = 0; r <= rounds; r++)); do
    order=(floor relabel)
    ((r % 2 == 0)) || order=(relabel floor)
    for tool in "${order[@]}"; do
      if [ "$tool" = floor ]; then
        timed "floor-$t" "$floor" -T "$t" "$tree"
      else
        timed "relabel-$t" "$relabel" setfiles -T "$t" --json -r "$tree" "$fc" "$tree"
        sed -n 's/.*"walkSeconds":\([0-9.eE-]*\).*/\1/p' "$work/out" >> "$work/walk-$t"
      fi
    done
    if ((r == 0)); then
      # The warm-up round is not counted.
      rm -f "$work/floor-$t" "$work/relabel-$t" "$work/walk-$t"
    fi
  done
  paste -d ' ' <(column 1 "$work/relabel-$t") <(column 1 "$work/floor-$t") | awk '{ print $1 / $2 }' > "$work/ratio-$t"
done
printf '%-4s %10s %10s %10s %12s %10s %14s %12s %12s\n' -T floor_s relabel_s walk_s "relabel/floor" "(paired)" "relabel_T1/T" "walk_T1/T" "floor_T1/T"
t1=${threads[0]}
for t in "${threads[@]}"; do
  fl=$(column 1 "$work/floor-$t" | median)
  rl=$(column 1 "$work/relabel-$t" | median)
  wk=$(median < "$work/walk-$t")
  pr=$(median < "$work/ratio-$t")
  fl1=$(column 1 "$work/floor-$t1" | median)
  rl1=$(column 1 "$work/relabel-$t1" | median)
  wk1=$(median < "$work/walk-$t1")
  awk -v t="$t" -v fl="$fl" -v rl="$rl" -v wk="$wk" -v pr="$pr" -v fl1="$fl1" -v rl1="$rl1" -v wk1="$wk1" \
    'BEGIN { printf "%-4s %10.3f %10.3f %10.3f %12.2fx %9.2fx %13.2fx %11.2fx %11.2fx\n", t, fl, rl, wk, rl / fl, pr, rl1 / rl, wk1 / wk, fl1 / fl }'
done
echo "(goal 2: relabel/floor <= 1.6 at -T 1; goal 3: relabel_T1/T >= 1.8 and walk_T1/T >= 1.9 at -T 2;"
echo " every run's wall, user and system seconds: $work/floor-T, relabel-T with RELABEL_DEVICE_KEEP=1)"

echo "== goal 1: one file, $((rounds * 2)) rounds (+1 warm-up)"
rm -f "$work/java-version" "$work/one-file"
for ((r = 0; r <= rounds * 2; r++)); do
  timed java-version "$java" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -version
  timed one-file "$relabel" setfiles -n "$fc" /etc/passwd
  if ((r == 0)); then rm -f "$work/java-version" "$work/one-file"; fi
done
jv=$(column 1 "$work/java-version" | median)
one=$(column 1 "$work/one-file" | median)
awk -v jv="$jv" -v one="$one" 'BEGIN { printf "java -version %.3f s, relabel setfiles -n FILE %.3f s: %.2fx (goal 1: <= 1.5x)\n", jv, one, one / jv }'
