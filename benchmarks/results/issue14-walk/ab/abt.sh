#!/bin/bash
# usage: abt.sh ROUNDS OUTCSV "label=JAVAOPTS|cmd" ... ; per-thread CPU via the agent; $PRE untimed before each
rounds=$1; out=$2; shift 2
echo "label,round,wall,user,sys,rss,walk,main,workers,workers_user,workers_sys,jit,gc,other,wwait,idle,quiet" > $out
for r in $(seq 1 $rounds); do
  for spec in "$@"; do
    label=${spec%%=*}; rest=${spec#*=}; opts=${rest%%|*}; cmd=${rest#*|}
    if [ -n "$PRE" ]; then bash -c "$PRE" >/dev/null 2>&1; fi
    idle=$(/tmp/ab/quiet.sh ${QUIET:-85} ${QUIETMAX:-120})
    rm -f /tmp/ab/tt.$$
    RELABEL_JAVA_OPTS="-javaagent:/tmp/tagent/tt.jar=/tmp/ab/tt.$$ $opts" /usr/bin/time -o /tmp/ab/t.$$ -f '%e %U %S %M' bash -c "$cmd" > /tmp/ab/o.$$ 2>/dev/null
    walk=$(grep -o '"walkSeconds":[0-9.]*' /tmp/ab/o.$$ | cut -d: -f2)
    read e u s m < /tmp/ab/t.$$
    th=$(awk '$1=="java"{m+=$4} /^ForkJoinPool/{w+=$4; wu+=$2; ws+=$3; ww+=$5; nw++} /^C1_Compiler|^C2_Compiler/{j+=$4} /^VM_Thread/{g+=$4} !/^(java|ForkJoinPool|C1_Compiler|C2_Compiler|VM_Thread|PROCESS|END)/{o+=$4} END{printf "%.3f,%.3f,%.2f,%.2f,%.3f,%.3f,%.3f,%.3f,%.3f", m/1e9, w/1e9, wu/100, ws/100, j/1e9, g/1e9, o/1e9, ww/1e9, nw*WALK-(w+ww)/1e9}' WALK=${walk:-0} /tmp/ab/tt.$$)
    echo "$label,$r,$e,$u,$s,$m,${walk:-},$th,$idle" >> $out
  done
done
python3 /tmp/ab/summt.py $out
