#!/bin/sh
# relabel tar against the traditional image-labelling pipeline (tar -x, setfiles -F -r, tar -c) on
# the same archive, and its peak memory on generated archives of 10k and 1M entries.
# Usage: benchmarks/tar-bench.sh [WORKDIR]   (needs root for tar -x/setfiles, GNU tar, python3, /usr/bin/time)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
relabel="$here/bin/relabel"
fc=/etc/selinux/default/contexts/files/file_contexts
work=${1:-/tmp/tar-bench.$$}
runs=${RUNS:-3}
mkdir -p "$work"
trap 'rm -rf "$work/x"' EXIT

# median of $runs runs: "elapsed_s maxrss_kb"
measure() {
  : > "$work/times"
  i=0
  while [ $i -lt "$runs" ]; do
    [ -n "${BEFORE:-}" ] && sh -c "$BEFORE"
    # (--check exits 1 when labels differ: the status is not the measurement)
    /usr/bin/time -f "%e %M" -o "$work/t" sh -c "$1" >/dev/null || :
    sed -i "/exited with non-zero status/d" "$work/t"
    cat "$work/t" >> "$work/times"
    i=$((i + 1))
  done
  sort -n "$work/times" | sed -n "$(( (runs + 1) / 2 ))p"
}

real="$work/real.tar"
if [ ! -f "$real" ]; then
  tar --xattrs --xattrs-include='*' -cf "$real" -C / etc usr/bin usr/sbin usr/lib/systemd usr/share/man usr/share/doc
fi
entries=$(tar -tf "$real" | wc -l)
bytes=$(stat -c %s "$real")
cat "$real" > /dev/null
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores"
echo "archive: $entries entries, $bytes bytes"

r1=$(measure "'$relabel' tar -T 1 -f '$fc' '$real' | cat > /dev/null")
r2=$(measure "'$relabel' tar -T 2 -f '$fc' '$real' | cat > /dev/null")
rc=$(measure "'$relabel' tar --check -T 2 -f '$fc' '$real'")
x=$(BEFORE="rm -rf '$work/x'; mkdir '$work/x'" measure "tar --xattrs --xattrs-include='*' -xpf '$real' -C '$work/x'")
s=$(measure "/usr/sbin/setfiles -F -r '$work/x' '$fc' '$work/x'")
c=$(measure "tar --xattrs --xattrs-include='*' -cf - -C '$work/x' . | cat > /dev/null")
row() {
  secs=${2% *}; rss=${2#* }
  awk -v n="$1" -v s="$secs" -v r="$rss" -v e="$entries" -v b="$bytes" -v base="$3" \
    'BEGIN { printf "| %s | %.2f | %.0f | %.1f | %.0f | %s |\n", n, s, e / s, b / s / 1e6, r / 1024, base == "" ? "" : sprintf("%.2fx", s / base) }'
}
r2s=${r2% *}
echo "| command | wall s | entries/s | MB/s | peak RSS MB | time / relabel tar -T 2 |"
echo "| --- | --- | --- | --- | --- | --- |"
row "relabel tar -T 1" "$r1" "$r2s"
row "relabel tar -T 2" "$r2" "$r2s"
row "relabel tar --check -T 2" "$rc" "$r2s"
row "tar -x (--xattrs)" "$x" "$r2s"
row "setfiles -F -r (on the extraction)" "$s" "$r2s"
row "tar -c (--xattrs)" "$c" "$r2s"
awk -v a="${x% *}" -v b="${s% *}" -v c="${c% *}" -v r="$r2s" \
  'BEGIN { printf "tar -x + setfiles -F + tar -c: %.2f s; relabel tar -T 2 takes %.2fx of it\n", a + b + c, r / (a + b + c) }'

# memory: generated archives (GNU format, one small file per entry, 1000 per directory)
for n in 10000 1000000; do
  gen="$work/gen-$n.tar"
  if [ ! -f "$gen" ]; then
    python3 - "$gen" "$n" <<'PY'
import io, sys, tarfile
path, n = sys.argv[1], int(sys.argv[2])
with tarfile.open(path, "w", format=tarfile.GNU_FORMAT) as t:
    data = b"x" * 100
    for d in range((n + 999) // 1000):
        i = tarfile.TarInfo("usr/share/gen/d%04d" % d); i.type = tarfile.DIRTYPE; i.mode = 0o755; t.addfile(i)
        for f in range(min(1000, n - d * 1000) - 1):
            i = tarfile.TarInfo("usr/share/gen/d%04d/f%04d.conf" % (d, f)); i.size = len(data); t.addfile(i, io.BytesIO(data))
PY
  fi
  m=$(RUNS=1 measure "'$relabel' tar -T 2 -f '$fc' '$gen' | cat > /dev/null")
  b=$(RUNS=1 measure "RELABEL_JAVA_OPTS=-Xmx64m '$relabel' tar -T 2 -f '$fc' '$gen' | cat > /dev/null")
  echo "generated $n entries ($(stat -c %s "$gen") bytes): default heap ${m% *} s, peak RSS $(( ${m#* } / 1024 )) MB;" \
    "-Xmx64m ${b% *} s, peak RSS $(( ${b#* } / 1024 )) MB"
done
