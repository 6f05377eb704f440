#!/usr/bin/env bash
# Side-by-side ab runs on each Petrel transport: the measurement behind the README's
# per-transport figures, until the benchmark lab (./petrel bench) replaces it.
#
#   scripts/ab-transports.sh [--runs N] [--requests N] [--concurrency N] [--no-keepalive]
#                            [--same-cpu] [--transports a,b]
#
# Each run starts every transport in turn (order alternating between runs), pinned to CPU 0,
# warms it with 20,000 requests, then measures N requests (default 100,000) from ab with
# -c N connections (default 1) and keep-alive (unless --no-keepalive), pinned to CPU 1 (or to
# CPU 0 too with --same-cpu). Prints each run and the median per transport.
# Every server is started here and stopped by its PID; each ab run is bounded by -n and -t.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
runs=3 requests=100000 client_cpu=1 transports="blocking,virtual" port=18181 concurrency=1 keepalive=-k
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2 ;;
    --requests) requests=$2; shift 2 ;;
    --same-cpu) client_cpu=0; shift ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --no-keepalive) keepalive=; shift ;;
    --transports) transports=$2; shift 2 ;;
    *) echo "ab-transports: unknown option '$1'" >&2; exit 2 ;;
  esac
done
command -v ab >/dev/null || { echo "ab-transports: needs ab: apt-get install -y apache2-utils" >&2; exit 1; }
"$here/petrel" version >/dev/null   # builds once, before anything is timed

IFS=, read -r -a names <<<"$transports"
results=$(mktemp)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill -TERM "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; rm -f "$results"; }
trap cleanup EXIT INT TERM

for run in $(seq 1 "$runs"); do
  order=("${names[@]}")
  if [ $((run % 2)) -eq 0 ]; then order=(); for ((i=${#names[@]}-1; i>=0; i--)); do order+=("${names[i]}"); done; fi
  for t in "${order[@]}"; do
    taskset -c 0 "$here/petrel" serve --port "$port" --transport "$t" >/dev/null 2>&1 &
    server_pid=$!
    for _ in $(seq 1 100); do curl -fsS "http://127.0.0.1:$port/" >/dev/null 2>&1 && break; sleep 0.05; done
    taskset -c "$client_cpu" ab -q $keepalive -c "$concurrency" -t 60 -n 20000 "http://127.0.0.1:$port/" >/dev/null
    out=$(taskset -c "$client_cpu" ab -q $keepalive -c "$concurrency" -t 120 -n "$requests" "http://127.0.0.1:$port/")
    rps=$(awk '/^Requests per second/ {print $4}' <<<"$out")
    mean=$(awk '/^Time per request/ && /\(mean\)/ {print $4 * 1000; exit}' <<<"$out")
    failed=$(awk '/^Failed requests/ {print $3}' <<<"$out")
    complete=$(awk '/^Complete requests/ {print $3}' <<<"$out")
    kill -TERM "$server_pid"; wait "$server_pid" || true; server_pid=
    printf '%s %s %s %s %s %s\n' "$run" "$t" "$rps" "$mean" "$complete" "$failed" | tee -a "$results"
  done
done

echo
echo "median of $runs runs, ab $keepalive -c$concurrency -n $requests, server on CPU 0, ab on CPU $client_cpu:"
printf '%-10s %12s %10s %12s %8s\n' transport "requests/s" "min" "max" "failed"  # failed: summed over runs
for t in "${names[@]}"; do
  awk -v t="$t" '$2 == t {print $3, $6}' "$results" | sort -n | awk -v t="$t" '
    { v[NR] = $1; f += $2 }
    END { m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2;
          printf "%-10s %12.0f %10.0f %12.0f %8d\n", t, m, v[1], v[NR], f }'
done
