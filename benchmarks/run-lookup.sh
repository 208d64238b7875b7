#!/usr/bin/env bash
# Lookup throughput (our matcher against the system's libselinux, same run, same corpus) and
# policy load+compile time, with the JMH settings benchmarks/RESULTS.md records.
#
#   benchmarks/run-lookup.sh            the recorded run (about 4 minutes on 2 cores)
#   benchmarks/run-lookup.sh --smoke    a quick check that everything runs (under a minute);
#                                       its figures are NOT measurements
#
# Builds benchmarks/target/benchmarks.jar first when it is missing or older than the sources
# (mvn package, offline by default: set MVN_FLAGS= to go online). Writes JMH's JSON and text
# output, the environment, and the summary table to benchmarks/results/ (--smoke:
# benchmarks/results/smoke/), then prints the summary table (markdown).
#
# Environment: JAVA (default: java), JMH_EXTRA (more JMH options for every run, e.g. "-prof gc"),
# RESULTS_DIR (where to write), MVN_FLAGS (default: -o).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$here")
jar=$here/target/benchmarks.jar
java=${JAVA:-java}
smoke=false
if [[ ${1:-} == --smoke ]]; then
  smoke=true
  shift
fi
if [[ $# -gt 0 ]]; then
  echo "usage: $0 [--smoke]" >&2
  exit 2
fi
if $smoke; then
  out=${RESULTS_DIR:-$here/results/smoke}
else
  out=${RESULTS_DIR:-$here/results}
fi
read -r -a extra <<<"${JMH_EXTRA:-}"

# --- JMH settings -------------------------------------------------------------------------------
# Our matcher: 2 forks x (3 x 2 s warmup + 4 x 2 s measured), per benchmark.
# libselinux 3.4: ~2,500 lookups/s, so 1 fork, 1 x 5 s warmup + 5 x 10 s measured (~125,000
#   lookups, a uniform sample of the corpus: it walks a fixed shuffle of it).
# Load+compile: 1 fork x (8 x 1 s warmup + 8 x 1 s measured), average time per operation; it
#   takes several seconds of loads before the JIT has settled, hence the long warmup.
if $smoke; then
  ours=(-f 1 -wi 1 -w 1s -i 1 -r 2s)
  libselinux=(-f 1 -wi 0 -i 1 -r 2s)
  compile=(-f 1 -wi 1 -w 1s -i 1 -r 1s)
else
  ours=(-f 2 -wi 3 -w 2s -i 4 -r 2s)
  libselinux=(-f 1 -wi 1 -w 5s -i 5 -r 10s)
  compile=(-f 1 -wi 8 -w 1s -i 8 -r 1s)
fi

# --- Build when needed --------------------------------------------------------------------------
if [[ ! -f $jar ]] || [[ -n $(find "$root/pom.xml" "$root"/policy-fixtures "$root"/relabel-core "$here" \
    \( -name target -o -name results \) -prune -o \( -name '*.java' -o -name pom.xml \) -newer "$jar" -print -quit) ]]; then
  echo "== building $jar"
  (cd "$root" && mvn -B ${MVN_FLAGS--o} -q package -pl benchmarks -am -DskipTests)
fi

mkdir -p "$out"
started=$(date +%s)

# --- Environment --------------------------------------------------------------------------------
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$(git -C "$root" diff --quiet HEAD -- 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "host: $(uname -srm)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//') x $(nproc) online"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
  echo "memory: $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo 2>/dev/null)"
  echo "java: $("$java" -version 2>&1 | head -2 | tr '\n' ' ')"
  echo "libselinux1: $(dpkg-query -W -f='${Version}' libselinux1 2>/dev/null || echo unknown)"
  echo "selinux-policy-default: $(dpkg-query -W -f='${Version}' selinux-policy-default 2>/dev/null || echo unknown)"
  echo "file_contexts: $(wc -l </etc/selinux/default/contexts/files/file_contexts 2>/dev/null || echo '?') lines"
  echo "smoke: $smoke"
  echo "jmh ours: ${ours[*]}"
  echo "jmh libselinux: ${libselinux[*]}"
  echo "jmh compile: ${compile[*]}"
  echo "jmh extra: ${extra[*]:-}"
} >"$out/environment.txt"
cat "$out/environment.txt"

# --- Runs ---------------------------------------------------------------------------------------
jmh() { # name, regex, options...
  local name=$1 regex=$2
  shift 2
  echo "== $name: $regex $*"
  "$java" -jar "$jar" "$regex" "$@" ${extra[@]+"${extra[@]}"} -rf json -rff "$out/$name.json" 2>&1 | tee "$out/$name.txt"
}
jmh lookup-ours 'dev\.relabel\.bench\.LookupBenchmark\.ours' "${ours[@]}"
jmh lookup-libselinux 'dev\.relabel\.bench\.LookupBenchmark\.libselinux$' "${libselinux[@]}"
jmh compile 'dev\.relabel\.bench\.CompileBenchmark\.' "${compile[@]}"
corpus=$(grep -h -m1 -o '\[corpus\] [0-9]* paths ([0-9]* directories)' "$out/lookup-ours.txt" | head -1 | sed 's/\[corpus\] //')
echo "corpus: ${corpus:-unknown}" >>"$out/environment.txt"
echo "elapsed: $(($(date +%s) - started)) s" >>"$out/environment.txt"

# --- Summary table ------------------------------------------------------------------------------
if ! command -v jq >/dev/null; then
  echo "jq is not installed: no summary table; the results are in $out/*.txt and *.json" >&2
  exit 1
fi
# One line per benchmark: short name, threads, score, error, unit.
jq -r '.[] | [(.benchmark | sub(".*\\."; "")), .threads, .primaryMetric.score, .primaryMetric.scoreError,
    .primaryMetric.scoreUnit] | @tsv' "$out/lookup-ours.json" "$out/lookup-libselinux.json" "$out/compile.json" \
  2>/dev/null >"$out/scores.tsv" || true

awk -F'\t' -v smoke="$smoke" -v corpus="${corpus:-unknown}" '
  function commas(x,   s, r) {
    s = sprintf("%.0f", x); r = ""
    while (length(s) > 3) { r = "," substr(s, length(s) - 2) r; s = substr(s, 1, length(s) - 3) }
    return s r
  }
  function err(e) { return (e == "NaN" || e == "") ? "" : " ± " commas(e) }
  function ratio(a, b,   r) {
    if (a == "" || b == "" || b == 0) return "n/a"
    r = a / b
    return (r >= 10 ? sprintf("%.0f", r) : r >= 1 ? sprintf("%.1f", r) : sprintf("%.2g", r)) "×"
  }
  { score[$1] = $3; error[$1] = $4; threads[$1] = $2 }
  END {
    lib = score["libselinux"]; up = 130000
    if (smoke == "true") print "**SMOKE RUN: these figures are not measurements.**\n"
    print "Corpus: " corpus " under /usr and /etc; Debian policy.\n"
    print "| Benchmark | Threads | Lookups/s | vs libselinux 3.4 (measured) | vs libselinux 3.11 (130,000/s published) | Goal ≥ 1,000,000/s (1 thread) |"
    print "|---|---|---|---|---|---|"
    n = split("oursPlainLookup oursDirectoryWalk oursPlainLookupThreads2 libselinux", names, " ")
    for (i = 1; i <= n; i++) {
      b = names[i]
      if (!(b in score)) { printf "| %s | | failed or not run | | | |\n", b; missing = 1; continue }
      goal = (b == "libselinux" || threads[b] != 1) ? "" : (score[b] >= 1000000 ? "met" : "not met")
      vs = (b == "libselinux") ? "1.0×" : ratio(score[b], lib)
      printf "| %s | %d | %s%s | %s | %s | %s |\n", b, threads[b], commas(score[b]), err(error[b]), vs, ratio(score[b], up), goal
    }
    print ""
    print "| Benchmark | ms per operation (warm) | Goal ≤ 150 ms |"
    print "|---|---|---|"
    n = split("loadAndCompile load compile", names, " ")
    for (i = 1; i <= n; i++) {
      b = names[i]
      if (!(b in score)) { printf "| %s | failed or not run | |\n", b; missing = 1; continue }
      goal = (b != "loadAndCompile") ? "" : (score[b] <= 150 ? "met" : "not met")
      e = (error[b] == "NaN" || error[b] == "") ? "" : sprintf(" ± %.1f", error[b])
      printf "| %s | %.1f%s | %s |\n", b, score[b], e, goal
    }
    exit missing
  }' "$out/scores.tsv" | tee "$out/summary.md"
status=${PIPESTATUS[0]}
echo
echo "Results: $out (summary.md, environment.txt, *.json, *.txt)"
if [[ $status -ne 0 ]]; then
  echo "Some benchmarks failed or did not run: see $out/*.txt" >&2
fi
exit "$status"
