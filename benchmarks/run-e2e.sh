#!/usr/bin/env bash
# End-to-end relabel benchmark: relabel's `setfiles` against the reference setfiles on the same
# tree, side by side in one run, JVM start included.
#
# The tree is a mirror of this machine's /usr and /etc (directories, symlinks and empty files with
# the same names; labels are xattrs, so file contents do not matter). Two modes:
#   relabel: every entry carries a wrong label before each run, and -F relabels all of them;
#   check:   every label is already right, so the run only reads and compares.
# Runs alternate between tools (A B A B ...) and the median of REPEAT runs is reported.
#
# Usage: benchmarks/run-e2e.sh            (REPEAT=3, THREADS="1 2")
#   TREE=DIR          where the mirror lives (default /var/tmp/relabel-e2e/tree)
#   SETFILES_ALT=PATH another setfiles build to compare too (for example a local upstream build)
#   SLOW_REPEAT=N     repeats for Debian's setfiles 3.4, which takes minutes per run (default 1)
#   OUT=DIR           where results.csv and summary.md go (default benchmarks/results/e2e)
set -euo pipefail
cd "$(dirname "$0")/.."

TREE=${TREE:-/var/tmp/relabel-e2e/tree}
REPEAT=${REPEAT:-3}
SLOW_REPEAT=${SLOW_REPEAT:-1}
THREADS=${THREADS:-"1 2"}
OUT=${OUT:-benchmarks/results/e2e}
FC=${FC:-/etc/selinux/default/contexts/files/file_contexts}
WRONG=system_u:object_r:tmp_t:s0

[ -x bin/relabel ] && [ -f relabel-cli/target/relabel.jar ] || mvn -B -q -o -DskipTests package
mkdir -p "$OUT"
if [ ! -d "$TREE" ]; then
  mkdir -p "$TREE"
  cp -a --attributes-only --no-preserve=xattr /usr /etc "$TREE"/
fi
entries=$(find "$TREE" | wc -l)

scramble() {
  find "$TREE" -print0 | xargs -0 -n 2000 setfattr -h -n security.selinux -v "$WRONG"
}

declare -A tools=( [debian]=/usr/sbin/setfiles [relabel]="bin/relabel setfiles" )
order=(debian relabel)
if [ -n "${SETFILES_ALT:-}" ]; then
  tools[alt]=$SETFILES_ALT
  order=(debian alt relabel)
fi

csv="$OUT/results.csv"
timing="$OUT/.time"
echo "tool,threads,mode,entries,wall_s,user_s,sys_s,peak_rss_kb" > "$csv"
for mode in relabel check; do
  if [ "$mode" = check ]; then
    # Every label right once; check runs write nothing, so this holds for all of them.
    bin/relabel setfiles -F -r "$TREE" "$FC" "$TREE" >/dev/null
  fi
  for t in $THREADS; do
    for ((r = 1; r <= REPEAT; r++)); do
      for tool in "${order[@]}"; do
        [ "$tool" = debian ] && ((r > SLOW_REPEAT)) && continue
        flags=()
        if [ "$mode" = relabel ]; then
          scramble
          flags=(-F)
        fi
        sync
        # shellcheck disable=SC2086
        /usr/bin/time -o "$timing" -f "%e,%U,%S,%M" ${tools[$tool]} -T "$t" "${flags[@]}" -r "$TREE" "$FC" "$TREE" \
          >/dev/null 2>&1 || { echo "run failed: $tool -T $t $mode" >&2; exit 1; }
        echo "$tool,$t,$mode,$entries,$(tail -1 "$timing")" | tee -a "$csv"
      done
    done
  done
done
rm -f "$timing"

# Medians per (tool, threads, mode), and our ratio to each reference.
python3 - "$csv" > "$OUT/summary.md" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
med = {}
for key in {(r["tool"], r["threads"], r["mode"]) for r in rows}:
    walls = [float(r["wall_s"]) for r in rows if (r["tool"], r["threads"], r["mode"]) == key]
    rss = [int(r["peak_rss_kb"]) for r in rows if (r["tool"], r["threads"], r["mode"]) == key]
    med[key] = (statistics.median(walls), max(rss), len(walls))
tools = sorted({k[0] for k in med})
print(f"Tree: {rows[0]['entries']} entries. Median wall seconds (runs), JVM start included for relabel.\n")
print("| mode | -T | " + " | ".join(tools) + " | relabel / " + " | relabel / ".join(t for t in tools if t != "relabel") + " |")
print("|" + " --- |" * (2 + len(tools) + len(tools) - 1))
for mode in ("relabel", "check"):
    for t in sorted({k[1] for k in med}):
        cells = [f"{med[(tool, t, mode)][0]:.2f} ({med[(tool, t, mode)][2]})" if (tool, t, mode) in med else "-" for tool in tools]
        ours = med.get(("relabel", t, mode))
        ratios = [f"{ours[0] / med[(tool, t, mode)][0]:.3f}" if ours and (tool, t, mode) in med else "-" for tool in tools if tool != "relabel"]
        print(f"| {mode} | {t} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
print("\nPeak RSS (KB, max over runs): " + ", ".join(f"{k[0]} -T{k[1]} {k[2]}: {v[1]}" for k, v in sorted(med.items())))
PY
cat "$OUT/summary.md"
