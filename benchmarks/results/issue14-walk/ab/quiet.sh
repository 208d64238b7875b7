#!/bin/bash
# waits until the 2 CPUs were >= $1 % idle over 1 s (at most $2 s); prints the last idle %
want=${1:-85}; max=${2:-90}; start=$(date +%s)
while true; do
  read -r _ u n s i w irq sirq st _ < /proc/stat; t1=$((u+n+s+i+w+irq+sirq+st)); i1=$((i+w))
  sleep 1
  read -r _ u n s i w irq sirq st _ < /proc/stat; t2=$((u+n+s+i+w+irq+sirq+st)); i2=$((i+w))
  idle=$(( 100*(i2-i1)/(t2-t1) ))
  if [ $idle -ge $want ] || [ $(( $(date +%s)-start )) -ge $max ]; then echo $idle; exit 0; fi
done
