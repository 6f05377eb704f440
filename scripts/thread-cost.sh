#!/usr/bin/env bash
# Where a Petrel transport spends its CPU and its context switches, per request and per thread
# kind: the profile behind bench/RESULTS.md's "where the time goes" tables.
#
#   scripts/thread-cost.sh TRANSPORT [inline] [--load c100|c1] [--jvm "OPTIONS"]
#
# Starts the lab's PetrelHello (bench/target/lib, built by ./petrel bench) on CPU 0, loads it from
# CPU 1 (c100: wrk -t1 -c100, 5 s warm-up then 10 s; c1: ab -k -c1, 20,000 then 200,000 requests),
# and reads every thread's CPU time (utime+stime, in clock ticks) and context switches (voluntary
# and not) from /proc/PID/task before and after the measured load. Threads are grouped by name
# without their number (ForkJoinPool-1-worker: the virtual threads' carriers; /proc cuts names at
# 15 characters). Only 127.0.0.1;
# the server is stopped by its PID.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() { echo "usage: scripts/thread-cost.sh blocking|virtual|nio [inline] [--load c100|c1] [--jvm \"OPTIONS\"]" >&2; exit 2; }
[ $# -ge 1 ] || usage
transport=$1; shift
case "$transport" in blocking|virtual|nio) ;; *) usage ;; esac
args=("$transport") load=c100 jvm=""
while [ $# -gt 0 ]; do
  case "$1" in
    inline) args+=(inline); shift ;;
    --load) [ $# -ge 2 ] || usage; load=$2; shift 2 ;;
    --jvm) [ $# -ge 2 ] || usage; jvm=$2; shift 2 ;;
    *) usage ;;
  esac
done
case "$load" in c100|c1) ;; *) usage ;; esac
# shellcheck source=scripts/lab-env.sh
. scripts/lab-env.sh
petrel_lab_ready thread-cost taskset wrk ab curl

port=18557
url="http://127.0.0.1:$port/"
log=$(mktemp)
# shellcheck disable=SC2086 # the JVM options are words
taskset -c 0 "$PETREL_JAVA_HOME/bin/java" -Xms512m -Xmx512m $jvm --enable-native-access=ALL-UNNAMED \
  -cp "bench/target/lib/*" dev.petrel.bench.servers.PetrelHello "$port" "${args[@]}" > "$log" 2>&1 &
pid=$!
stop() { kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -f "$log"; }
trap 'stop || true' EXIT
for _ in $(seq 1 100); do curl -fs "$url" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fs "$url" >/dev/null || { echo "thread-cost: the server did not answer"; cat "$log"; exit 1; }

# per thread kind: CPU ticks and context switches, summed
sample() {
  for task in /proc/"$pid"/task/*; do
    name=$(tr ' ' _ < "$task/comm" | sed 's/[-_]*[0-9]*$//')
    ticks=$(awk '{print $14 + $15}' "$task/stat")
    switches=$(awk '/^(voluntary|nonvoluntary)_ctxt_switches/ {s += $2} END {print s}' "$task/status")
    echo "$name $ticks $switches"
  done | awk '{t[$1] += $2; s[$1] += $3} END {for (k in t) print k, t[k], s[k]}' | sort
}

if [ "$load" = c100 ]; then
  taskset -c 1 wrk -t1 -c100 -d5s "$url" >/dev/null
  before=$(sample)
  out=$(taskset -c 1 wrk -t1 -c100 -d10s "$url")
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  what="wrk -t1 -c100 -d10s"
else
  taskset -c 1 ab -q -k -c1 -n 20000 "$url" >/dev/null 2>&1
  before=$(sample)
  out=$(taskset -c 1 ab -k -c1 -n 200000 "$url" 2>&1)
  requests=$(echo "$out" | awk '/^Complete requests/ {print $3}')
  what="ab -k -c1 -n 200000"
fi
after=$(sample)
[ -n "$requests" ] && [ "$requests" -gt 0 ] || { echo "thread-cost: the load answered nothing"; echo "$out"; exit 1; }

hz=$(getconf CLK_TCK)
echo "petrel ${args[*]} $jvm, $what: $requests requests"
join <(echo "$before") <(echo "$after") | awk -v r="$requests" -v hz="$hz" '
  { cpu = ($4 - $2) * 1e6 / hz / r; cs = ($5 - $3) / r; tc += cpu; ts += cs
    if (cpu >= 0.05 || cs >= 0.01) printf "  %-24s %7.2f us CPU/request  %6.3f switches/request\n", $1, cpu, cs }
  END { printf "  %-24s %7.2f us CPU/request  %6.3f switches/request\n", "all threads", tc, ts }'
