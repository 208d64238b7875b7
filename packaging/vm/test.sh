#!/usr/bin/env bash
# The SELinux VM tests: Debian 12 booted under QEMU with an SELinux kernel, relabel installed as a
# user installs it, each scenario's checks made inside the guest (guest/vmtest) and judged here.
# Fails on any failed check, on a boot that does not finish in time, and when the VM cannot be
# built or booted. Consoles and results land in relabel-cli/target/vm/ (CI keeps them).
#
#   packaging/vm/test.sh [SCENARIO...]   (default: every scenario below; build the jar first)
#     kernel-enforcing kernel-permissive autorelabel-permissive autorelabel-enforcing jvm-missing
#     (kernel: both kernel boots; debian-autorelabel-MODE: Debian's own selinux-autorelabel on the
#     same image, for comparison; not run by default)
#
# Scenarios run side by side, each with its own image, its log (NAME.log, printed whole when it
# ends) and its verdicts, started in the order given (the default: longest first). On two host
# CPUs two guests slow each other (under TCG a guest keeps more than one busy), yet the four
# shorter boots running beside the longest cut the phase from ~2,140 s to 1,600-1,860 s.
#
# Environment: RELABEL_VM_CACHE (the cached Debian root, default /var/cache/relabel-vm),
# RELABEL_VM_JOBS (scenarios at once, default: the host's CPUs, at most one per 3 GiB of available
# memory), RELABEL_VM_BOOT_TIMEOUT (seconds a boot may take, default 2700: QEMU emulates the CPU
# here, and a kernel boot's checks took ~670 s on one host and ~1260 s on a slower one of the same
# kind, so 900 s, the old default, failed a healthy run there; the bound is for a guest that hangs).
set -euo pipefail
here=$(cd -- "$(dirname -- "$0")" && pwd -P)
top=$(cd -- "$here/../.." && pwd -P)
out="$top/relabel-cli/target/vm"
boot_timeout=${RELABEL_VM_BOOT_TIMEOUT:-2700}
asked=("$@")
[ ${#asked[@]} -gt 0 ] || asked=(kernel autorelabel-permissive autorelabel-enforcing jvm-missing)
scenarios=()
for scenario in "${asked[@]}"; do
  case $scenario in
    kernel) add=(kernel-enforcing kernel-permissive) ;;
    kernel-enforcing | kernel-permissive | jvm-missing | autorelabel-permissive | autorelabel-enforcing \
      | debian-autorelabel-permissive | debian-autorelabel-enforcing) add=("$scenario") ;;
    *) echo "vm: unknown scenario $scenario" >&2; exit 2 ;;
  esac
  for one in "${add[@]}"; do # once each: two jobs of one scenario would share its image
    [[ " ${scenarios[*]} " == *" $one "* ]] || scenarios+=("$one")
  done
done
memory_jobs=$(( $(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo) / (3 * 1024 * 1024) ))
jobs=${RELABEL_VM_JOBS:-$(( $(nproc) < memory_jobs ? $(nproc) : memory_jobs ))}
[ "$jobs" -ge 1 ] || jobs=1
mkdir -p "$out"
results="$out/results.txt"
: > "$results"
t0=$(date +%s)
phase() { echo "vm: [$(( $(date +%s) - t0 )) s] $*"; }

for tool in qemu-system-x86_64 mmdebstrap mkfs.ext4 setfiles python3 getfattr sesearch; do
  command -v "$tool" >/dev/null || { echo "vm: $tool is missing (.ci/run installs it)" >&2; exit 1; }
done
phase "base root"
base=$("$here/build-base.sh")
phase "base root ready: $base"

# boot IMAGE_DIR NAME [KERNEL ARGUMENTS...]: one boot, its console (ttyS0) in NAME.console, what
# the guest's checks print (ttyS1, where no kernel message can cut a line) in NAME.results
boot() {
  local image=$1 name=$2; shift 2
  local console="$out/$name.console" start=$(date +%s) status=0
  timeout -k 10 "$boot_timeout" qemu-system-x86_64 -m 2048 -smp 2 -accel tcg,thread=multi \
    -display none -nodefaults -no-reboot -serial "file:$console" -serial "file:$out/$name.results" \
    -kernel "$image/vmlinuz" -initrd "$image/initrd.img" \
    -append "root=/dev/vda rw console=ttyS0 security=selinux selinux=1 $*" \
    -drive "file=$image/root.img,format=raw,if=virtio" \
    -drive "file=$image/scratch.img,format=raw,if=virtio" || status=$?
  phase "$name: boot took $(( $(date +%s) - start )) s (qemu status $status)"
  if [ "$status" = 124 ] || [ "$status" = 137 ]; then
    record "not ok" "$name: the boot did not finish within ${boot_timeout}s"
    return 1
  fi
}
record() { # "ok"|"not ok" NAME: into the running scenario's verdicts
  echo "$1 $2" | tee -a "$verdicts"
}
console_has() { # NAME CONSOLE PATTERN: a check on what the guest printed on its console
  if grep -qE -- "$3" "$2"; then record ok "$1"; else record "not ok" "$1: the console has no line matching '$3'"; fi
}
# The guest's own checks, from the test boot's second serial port.
judge() { # NAME RESULTS
  local console=$2
  grep -a '^VMTEST info' "$console" | sed 's/^VMTEST info /  /' || true
  if ! grep -aq '^VMTEST end' "$console"; then
    record "not ok" "$1: the guest's checks did not finish (see $console)"
    return
  fi
  while IFS= read -r line; do
    case $line in
      "VMTEST ok "*) record ok "$1: ${line#VMTEST ok }" ;;
      "VMTEST not ok "*) record "not ok" "$1: ${line#VMTEST not ok }" ;;
    esac
  done < <(grep -a -E '^VMTEST (ok|not ok) ' "$console" | tr -d '\r')
  # Where the boot's time went: the longest stretches before a verdict ("boot": until the checks began).
  tr -d '\r' < "$console" | awk '/^VMTEST at / { if (seen) printf "%.0f %s\n", $3 - last, $4; else printf "%.0f boot\n", $3; last = $3; seen = 1 }' \
    | sort -rn | head -8 | awk -v name="$1" 'BEGIN { printf "  %s, longest stretches (s):", name } { printf " %s %s;", $1, $2 } END { print "" }' || true
}
# The module's rights, as sesearch reads them from the image's policy: systemd starts the launcher in
# relabel_t, which may relabel files and run the JVM (execmem), and has no mac_admin (capability2)
# nor any right to reboot.
rules() { # NAME DIR
  cp "$2"/relabel_t.* "$out/"
  local allow="$2/relabel_t.allow"
  if grep -q 'type_transition init_t relabel_exec_t:process relabel_t' "$2/relabel_t.transitions"; then
    record ok "$1: init_t starts relabel_exec_t in relabel_t"
  else record "not ok" "$1: no transition from init_t to relabel_t"; fi
  if grep -q '^allow relabel_t relabel_t:process .*execmem' "$allow" && grep -q 'relabelto' "$allow"; then
    record ok "$1: relabel_t may relabel and run the JVM ($(wc -l < "$allow") allow rules)"
  else record "not ok" "$1: relabel_t lacks relabelto or execmem"; fi
  if grep -qE '^allow relabel_t [^ ]+:(capability2|system) ' "$allow"; then
    record "not ok" "$1: relabel_t holds mac_admin or reboot: $(grep -E '^allow relabel_t [^ ]+:(capability2|system) ' "$allow" | head -2)"
  else record ok "$1: relabel_t holds no mac_admin and no reboot"; fi
}
make_image() { # SCENARIO MODE DIR
  local start=$(date +%s)
  "$here/make-image.sh" "$base" "$1" "$2" "$3" > "$out/$(basename "$3").image.log" 2>&1 \
    || { cat "$out/$(basename "$3").image.log" >&2; echo "vm: the $1 image could not be made" >&2; exit 1; }
  truncate -s 64M "$3/scratch.img"
  phase "image $(basename "$3") made in $(( $(date +%s) - start )) s"
}

# run_scenario SCENARIO: its image, its boots, its verdicts (in a job of its own)
run_scenario() {
  local scenario=$1 dir="$out/$1" mode kind
  case $scenario in
    autorelabel-permissive | autorelabel-enforcing | debian-autorelabel-permissive | debian-autorelabel-enforcing)
      mode=${scenario##*-}
      kind=${scenario%-*}
      make_image "$kind" "$mode" "$dir"
      if [ "$kind" = autorelabel ]; then
        rules "$scenario" "$dir"
      fi
      boot "$dir" "$scenario.boot1" || return 0
      if [ "$kind" = autorelabel ]; then
        console_has "$scenario: boot 1 shows the warning" "$out/$scenario.boot1.console" '\*\*\* Warning -- SELinux relabel is required'
        console_has "$scenario: boot 1 shows a line per filesystem" "$out/$scenario.boot1.console" 'Relabel(ing|ed) /'
        console_has "$scenario: boot 1 shows the finished line" "$out/$scenario.boot1.console" 'Relabel finished'
        console_has "$scenario: boot 1 reboots" "$out/$scenario.boot1.console" 'reboot: Restarting system'
        console_has "$scenario: boot 1 says relabel_t" "$out/$scenario.boot1.console" 'relabel runs in [^ ]*:relabel_t:'
        # The kernel prints every AVC denial on the console, whatever became of the journal.
        if grep -a 'avc: *denied' "$out/$scenario.boot1.console" | grep -q 'scontext=[^ ]*:relabel_t:'; then
          record "not ok" "$scenario: boot 1's console shows AVC denials for relabel_t: $(grep -a 'avc: *denied' "$out/$scenario.boot1.console" | grep 'relabel_t' | head -2)"
        else
          record ok "$scenario: boot 1's console shows no AVC denial for relabel_t"
        fi
      fi
      boot "$dir" "$scenario.boot2" || return 0
      judge "$scenario" "$out/$scenario.boot2.results"
      ;;
    jvm-missing)
      make_image jvm-missing enforcing "$dir"
      boot "$dir" "$scenario.boot1" || return 0
      console_has "$scenario: the console says the relabel did not finish" "$out/$scenario.boot1.console" 'the boot relabel did not finish'
      console_has "$scenario: the console says why" "$out/$scenario.boot1.console" 'java not found'
      console_has "$scenario: the console says the flag stays" "$out/$scenario.boot1.console" '/.autorelabel is kept'
      judge "$scenario" "$out/$scenario.boot1.results"
      ;;
    kernel-permissive | kernel-enforcing)
      # Each makes its own image, the same kind (SELINUX=enforcing in its config); the permissive
      # boot says enforcing=0 on the kernel's command line.
      make_image kernel enforcing "$dir"
      if [ "$scenario" = kernel-permissive ]; then
        boot "$dir" "$scenario" enforcing=0 || return 0
      else
        boot "$dir" "$scenario" || return 0
      fi
      judge "$scenario" "$out/$scenario.results"
      ;;
  esac
  rm -f "$dir/root.img" "$dir/scratch.img"
}

# A pool of $jobs scenarios at once; a scenario's log is printed whole when it ends, and a
# scenario that stops early (an image not made) is a failed check.
declare -A running=()
finish_one() { # waits for a scenario of the pool to end (wait -n misses one that ended already)
  local pid scenario status=0
  while :; do
    for pid in "${!running[@]}"; do
      kill -0 "$pid" 2>/dev/null || break 2
    done
    sleep 2
  done
  wait "$pid" || status=$?
  scenario=${running[$pid]}
  unset "running[$pid]"
  cat "$out/$scenario.log"
  if [ "$status" != 0 ]; then
    echo "not ok $scenario: stopped with status $status (see $out/$scenario.log)" | tee -a "$out/$scenario.verdicts"
  fi
  phase "$scenario: ended"
}
phase "$jobs scenarios at once: ${scenarios[*]}"
for scenario in "${scenarios[@]}"; do
  while [ ${#running[@]} -ge "$jobs" ]; do finish_one; done
  : > "$out/$scenario.verdicts"
  ( verdicts="$out/$scenario.verdicts"; run_scenario "$scenario" ) > "$out/$scenario.log" 2>&1 &
  running[$!]=$scenario
done
while [ ${#running[@]} -gt 0 ]; do finish_one; done
for scenario in "${scenarios[@]}"; do cat "$out/$scenario.verdicts"; done > "$results"
passed=$(grep -c '^ok ' "$results" || true)
failed=$(grep -c '^not ok ' "$results" || true)
phase "done"
echo "vm: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
