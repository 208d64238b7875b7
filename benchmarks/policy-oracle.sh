#!/usr/bin/env bash
# relabel lookup against libselinux's matchpathcon on any distribution's file_contexts: paths
# generated from the policy's own expressions (random strings each spec matches, with a parent and
# a child now and then) plus PATHS_FILE's, looked up at every -m type by both; prints each
# disagreement and exits 1 if there is one. matchpathcon's -m is read by its first letter, so
# 'pipe' stands for a FIFO; without -m matchpathcon lstat()s a path that exists, so only typed
# lookups are compared. How the RHEL/Fedora, CentOS and Gentoo policies were checked (README,
# `relabel lookup`): their contexts/files directories, from public repositories, are not kept here.
#
#   benchmarks/policy-oracle.sh FILE_CONTEXTS [SEED [PATHS_FILE]]
#   benchmarks/policy-oracle.sh --setfiles FILE_CONTEXTS DIR...
#
# With --setfiles: `setfiles -n -v` and `relabel setfiles -n -v -T 1` over the DIRs (nothing is
# written), their lines compared in order; a hard-linked inode may be named by another of its
# names (setfiles: the first its walk meets; relabel: the smallest), and such a line shows here.
#
# FILE_CONTEXTS.homedirs is read for expressions too when it exists. Needs python3, matchpathcon
# (selinux-utils) and a built bin/relabel. Environment: RELABEL (default: bin/relabel beside this).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
relabel=${RELABEL:-$(dirname "$here")/bin/relabel}
if [[ ${1:-} == --setfiles ]]; then
  if [[ $# -lt 3 ]]; then
    echo "usage: $0 --setfiles FILE_CONTEXTS DIR..." >&2
    exit 2
  fi
  fc=$2
  shift 2
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  setfiles -n -v "$fc" "$@" > "$work/theirs" 2>&1 || true
  "$relabel" setfiles -n -v -T 1 "$fc" "$@" 2>&1 | sed 's/^relabel: /setfiles: /' > "$work/ours" || true
  echo "setfiles: $(wc -l < "$work/theirs") lines, relabel setfiles: $(wc -l < "$work/ours")"
  if diff "$work/theirs" "$work/ours" > "$work/differences"; then
    echo "no differences"
    exit 0
  fi
  echo "$(grep -c '^[<>]' "$work/differences") lines differ (< setfiles, > relabel):"
  head -40 "$work/differences"
  exit 1
fi
if [[ $# -lt 1 || $# -gt 3 ]]; then
  echo "usage: $0 FILE_CONTEXTS [SEED [PATHS_FILE]]" >&2
  exit 2
fi
fc=$1
seed=${2:-1}
extra=${3:-/dev/null}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sources=$fc
[[ -f $fc.homedirs ]] && sources="$fc,$fc.homedirs"
python3 - "$sources" "$seed" > "$work/generated" <<'PY'
import random, re, sys
import re._parser as parser
from re._constants import (LITERAL, NOT_LITERAL, ANY, IN, NEGATE, RANGE, CATEGORY, MAX_REPEAT, MIN_REPEAT,
    POSSESSIVE_REPEAT, SUBPATTERN, BRANCH, MAXREPEAT, CATEGORY_DIGIT, CATEGORY_WORD, CATEGORY_SPACE)
random.seed(int(sys.argv[2]))
ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789._-/"

def one_of(items, exclude):
    pool = [c for c in ALPHABET if c not in exclude] if exclude is not None else items
    return random.choice(pool) if pool else "x"

def generate(nodes):
    out = []
    for op, av in nodes:
        if op is LITERAL:
            out.append(chr(av))
        elif op is NOT_LITERAL:
            out.append(one_of(None, {chr(av)}))
        elif op is ANY:
            out.append(random.choice(ALPHABET if random.random() < 0.2 else ALPHABET.replace("/", "")))
        elif op is IN:
            chars, negated = [], False
            for o, a in av:
                if o is NEGATE:
                    negated = True
                elif o is LITERAL:
                    chars.append(chr(a))
                elif o is RANGE:
                    chars += [chr(x) for x in range(a[0], a[1] + 1)]
                elif o is CATEGORY:
                    chars += {CATEGORY_DIGIT: "0123456789", CATEGORY_WORD: "abcXYZ019_", CATEGORY_SPACE: " "}.get(a, "")
            out.append(one_of(None, set(chars)) if negated else one_of(chars, None))
        elif op in (MAX_REPEAT, MIN_REPEAT, POSSESSIVE_REPEAT):
            low, high, sub = av
            high = min(high, low + 3) if high != MAXREPEAT else low + random.choice([0, 1, 1, 2, 3, 5])
            out += [generate(sub) for _ in range(random.randint(low, high))]
        elif op is SUBPATTERN:
            out.append(generate(av[-1]))
        elif op is BRANCH:
            out.append(generate(random.choice(av[1])))
    return "".join(out)

paths = set()
for name in sys.argv[1].split(","):
    for line in open(name, encoding="latin-1"):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        try:
            tree = parser.parse(fields[0])
        except Exception:
            continue  # a construct Python's re lacks: no paths from this spec
        for _ in range(6):
            path = re.sub("/+", "/", generate(tree))
            if not path.startswith("/") or any(c in path for c in "\n\t "):
                continue
            paths.add(path)
            roll = random.random()
            if roll < 0.2:
                paths.add(path.rstrip("/") + "/" + random.choice(["x", "lib", "bin", ".ssh", "a.so", "conf"]))
            elif roll < 0.3 and "/" in path[1:]:
                paths.add(path[:path.rfind("/")])
print("\n".join(sorted(paths)))
PY
grep -v '[[:space:]]' "$extra" | cat "$work/generated" - | sort -u | grep . > "$work/paths" || true
echo "$(wc -l < "$work/paths") paths from $fc (seed $seed)"

status=0
for type in file dir lnk_file chr_file blk_file sock_file pipe; do
  xargs -d '\n' -n 3000 matchpathcon -f "$fc" -m "$type" < "$work/paths" > "$work/theirs" 2>&1
  xargs -d '\n' -n 3000 "$relabel" lookup -f "$fc" -m "$type" < "$work/paths" > "$work/ours" 2>&1
  # matchpathcon prints a path without its trailing slashes and <<none>> where no spec matches.
  paste <(sed 's#/*\t#\t#' "$work/theirs") <(sed 's#/*\t#\t#; s#\t<<nomatch>>$#\t<<none>>#' "$work/ours") \
    | awk -F'\t' -v type="$type" '$1 != $3 || $2 != $4 { print type ": " $1 ": matchpathcon " $2 ", relabel " $4 }' \
    > "$work/differences"
  echo "-m $type: $(wc -l < "$work/differences") differences"
  head -20 "$work/differences"
  [[ -s $work/differences ]] && status=1
done
exit $status
