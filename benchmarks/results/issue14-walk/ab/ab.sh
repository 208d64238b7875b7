#!/bin/bash
# usage: ab.sh ROUNDS OUTCSV "label=cmd" ...   ; $PRE (if set) is run untimed before every command
rounds=$1; out=$2; shift 2
echo "label,round,wall,user,sys,rss,walk" > $out
for r in $(seq 1 $rounds); do
  for spec in "$@"; do
    label=${spec%%=*}; cmd=${spec#*=}
    if [ -n "$PRE" ]; then bash -c "$PRE" >/dev/null 2>&1; fi
    /usr/bin/time -o /tmp/ab/t.$$ -f '%e %U %S %M' bash -c "$cmd" > /tmp/ab/o.$$ 2>/dev/null
    walk=$(grep -o '"walkSeconds":[0-9.]*' /tmp/ab/o.$$ | cut -d: -f2)
    read e u s m < /tmp/ab/t.$$
    echo "$label,$r,$e,$u,$s,$m,${walk:-}" >> $out
  done
done
python3 /tmp/ab/summ.py $out
