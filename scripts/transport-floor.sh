#!/usr/bin/env bash
# The transport floor (issue 38): the same minimal HelloWorld server over four I/O layers, side by side,
# to bound what a native transport through FFM could gain over java.nio before one is built.
#
#   scripts/transport-floor.sh [PASSES]          (3 by default; about 2.5 minutes per pass)
#
# Servers (FLOOR_SERVERS picks and orders them; all by default):
#   c                     bench/baseline/dummy.c, the lab's C floor (built into bench/target/baseline if absent)
#   nio                   dev.petrel.bench.floor.NioFloor: java.nio Selector
#   ffm-epoll             dev.petrel.bench.floor.FfmEpollFloor: epoll (level-triggered, as dummy.c) through FFM
#                         downcalls to libc
#   ffm-epoll-et          the same edge-triggered (-Dpetrel.floor.trigger=edge)
#   ffm-epoll-noncritical ffm-epoll with no call linked critical (-Dpetrel.floor.critical=false)
#   ffm-io_uring          dev.petrel.bench.floor.FfmIoUringFloor: io_uring through FFM (syscall, mmap; no liburing)
# Each server in turn runs pinned to one CPU (taskset) and the load tool to the other; the server CPU
# alternates 0, 1 by pass and the server order reverses every other pass. Per server and pass: a 3 s
# wrk warm-up, then wrk -t1 -c100 -d10s (keep-alive); an ab -c100 -n 10000 warm-up, then ab -c100 -n 50000
# (no keep-alive: HTTP/1.0, a connection per request); ab -k -c1 -n 30000 (one connection: the round trip). Printed: every
# figure, then per server the median requests/s over all passes and per server CPU, and each
# server's ratio to nio. Every JVM: -Xms512m -Xmx512m --enable-native-access=ALL-UNNAMED, as the lab.
#
# FLOOR_PORT (default 18590) is the one port used, on 127.0.0.1 only; servers are stopped by PID.
# FLOOR_SMOKE=1 shrinks every load to about a second: it proves the script works, its figures mean nothing.
# The floor classes are taken from bench/target/classes, compiled here (./mvnw ... -pl bench -am compile)
# when missing or older than their sources.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() { echo "usage: scripts/transport-floor.sh [PASSES]   (PASSES: 1 to 99, default 3)" >&2; exit 2; }
[ $# -le 1 ] || usage
passes=${1:-3}
[[ "$passes" =~ ^[1-9][0-9]?$ ]] || usage
servers=${FLOOR_SERVERS:-c nio ffm-epoll ffm-epoll-et ffm-epoll-noncritical ffm-io_uring}
port=${FLOOR_PORT:-18590}
[[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1024 ] && [ "$port" -le 65535 ] || { echo "transport-floor: FLOOR_PORT must be 1024 to 65535, not '$port'" >&2; exit 2; }
for server in $servers; do
  case "$server" in c|nio|ffm-epoll|ffm-epoll-et|ffm-epoll-noncritical|ffm-io_uring) ;; *) echo "transport-floor: unknown server '$server' in FLOOR_SERVERS (c nio ffm-epoll ffm-epoll-et ffm-epoll-noncritical ffm-io_uring)" >&2; exit 2 ;; esac
done
if [ "${FLOOR_SMOKE:-0}" = 1 ]; then
  warmup=1 seconds=1 ab_warm=500 ab_n=2000 abk_n=2000
else
  warmup=3 seconds=10 ab_warm=10000 ab_n=50000 abk_n=30000
fi
for tool in taskset wrk ab curl gcc timeout; do
  command -v "$tool" >/dev/null || { echo "transport-floor: $tool is not installed" >&2; exit 1; }
done
[ "$(nproc --all)" -ge 2 ] || { echo "transport-floor: needs two CPUs (server on one, load on the other)" >&2; exit 1; }
# shellcheck source=scripts/jdk.sh
. scripts/jdk.sh
petrel_find_jdk
# shellcheck source=scripts/fdlimit.sh
. scripts/fdlimit.sh
petrel_raise_fd_limit

# the C floor
dummy=bench/target/baseline/dummy
if [ ! -x "$dummy" ] || [ bench/baseline/dummy.c -nt "$dummy" ]; then
  mkdir -p bench/target/baseline
  gcc -O2 -Wall -Wextra -o "$dummy" bench/baseline/dummy.c || { echo "transport-floor: building $dummy failed" >&2; exit 1; }
fi
# the Java floors
classes=bench/target/classes
floor_src=bench/src/main/java/dev/petrel/bench/floor
if [ ! -f "$classes/dev/petrel/bench/floor/FfmEpollFloor.class" ] \
   || [ -n "$(find "$floor_src" -newer "$classes/dev/petrel/bench/floor/FfmEpollFloor.class" -print -quit)" ]; then
  echo "transport-floor: compiling the floor servers (./mvnw -B -q -pl bench -am compile -Dmaven.test.skip=true)" >&2
  ./mvnw -B -q -pl bench -am compile -Dmaven.test.skip=true >&2 \
    || { echo "transport-floor: the build failed; run the command above to see why" >&2; exit 1; }
fi

url="http://127.0.0.1:$port/"
if curl -s -o /dev/null --max-time 1 "$url"; then
  echo "transport-floor: something already answers on 127.0.0.1:$port; set FLOOR_PORT to a free port" >&2
  exit 1
fi
work=$(mktemp -d)
results=$work/results # server cpu pass metric value
: > "$results"
page=$work/page.html
echo "<p>the floor serves only HelloWorld; dummy.c wants a page file</p>" > "$page"
pid=""
stop_server() {
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    pid=""
  fi
}
trap 'stop_server; rm -rf "$work"' EXIT

start_server() { # server cpu
  local server=$1 cpu=$2 log=$work/server.log
  local -a java=("$PETREL_JAVA_HOME/bin/java" -Xms512m -Xmx512m --enable-native-access=ALL-UNNAMED -cp "$classes")
  case "$server" in
    c) taskset -c "$cpu" "$dummy" "$port" "$page" > "$log" 2>&1 & ;;
    nio) taskset -c "$cpu" "${java[@]}" dev.petrel.bench.floor.NioFloor "$port" > "$log" 2>&1 & ;;
    ffm-epoll) taskset -c "$cpu" "${java[@]}" dev.petrel.bench.floor.FfmEpollFloor "$port" > "$log" 2>&1 & ;;
    ffm-epoll-et)
      taskset -c "$cpu" "${java[@]}" -Dpetrel.floor.trigger=edge dev.petrel.bench.floor.FfmEpollFloor "$port" > "$log" 2>&1 & ;;
    ffm-epoll-noncritical)
      taskset -c "$cpu" "${java[@]}" -Dpetrel.floor.critical=false dev.petrel.bench.floor.FfmEpollFloor "$port" > "$log" 2>&1 & ;;
    ffm-io_uring) taskset -c "$cpu" "${java[@]}" dev.petrel.bench.floor.FfmIoUringFloor "$port" > "$log" 2>&1 & ;;
  esac
  pid=$!
  for _ in $(seq 1 100); do
    [ "$(curl -s --max-time 1 "$url" 2>/dev/null)" = HelloWorld ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "transport-floor: $server did not answer HelloWorld on $url within 10 s:" >&2
  cat "$log" >&2
  exit 1
}

record() { echo "$1 $2 $3 $4 $5" >> "$results"; }

measure() { # server cpu pass
  local server=$1 cpu=$2 pass=$3 load=$((1 - $2)) out rps errors
  taskset -c "$load" timeout $((warmup + 30)) wrk -t1 -c100 -d"${warmup}s" "$url" > /dev/null

  out=$(taskset -c "$load" timeout $((seconds + 30)) wrk -t1 -c100 -d"${seconds}s" "$url")
  rps=$(echo "$out" | awk '/^Requests\/sec:/ {print $2}')
  errors=$(echo "$out" | awk '/Socket errors/ {gsub(/,/, ""); s += $4 + $6 + $8 + $10} /Non-2xx/ {s += $NF} END {print s + 0}')
  record "$server" "$cpu" "$pass" wrk-c100 "${rps:-0}"
  record "$server" "$cpu" "$pass" wrk-c100-errors "$errors"

  # the accept and close paths, which wrk's 100 connections barely use, compiled before they are measured
  taskset -c "$load" timeout 180 ab -q -s 10 -c100 -n "$ab_warm" "$url" > /dev/null 2>&1 || true
  out=$(taskset -c "$load" timeout 180 ab -q -s 10 -c100 -n "$ab_n" "$url" 2>&1) || true
  rps=$(echo "$out" | awk '/^Requests per second:/ {print $4}')
  errors=$(echo "$out" | awk '/^Failed requests:/ {s += $3} /^Non-2xx responses:/ {s += $3} END {print s + 0}')
  record "$server" "$cpu" "$pass" ab-c100 "${rps:-0}"
  record "$server" "$cpu" "$pass" ab-c100-errors "$errors"

  out=$(taskset -c "$load" timeout 180 ab -q -s 10 -k -c1 -n "$abk_n" "$url" 2>&1) || true
  rps=$(echo "$out" | awk '/^Requests per second:/ {print $4}')
  errors=$(echo "$out" | awk '/^Failed requests:/ {s += $3} /^Non-2xx responses:/ {s += $3} END {print s + 0}')
  record "$server" "$cpu" "$pass" ab-k-c1 "${rps:-0}"
  record "$server" "$cpu" "$pass" ab-k-c1-errors "$errors"

  printf '  %-22s server CPU %s  wrk -c100 %10s/s  ab -c100 %10s/s  ab -k -c1 %10s/s  errors %s\n' "$server" "$cpu" \
    "$(awk -v s="$server" -v p="$pass" '$1 == s && $3 == p && $4 == "wrk-c100" {print $5}' "$results")" \
    "$(awk -v s="$server" -v p="$pass" '$1 == s && $3 == p && $4 == "ab-c100" {print $5}' "$results")" \
    "$rps" \
    "$(awk -v s="$server" -v p="$pass" '$1 == s && $3 == p && $4 ~ /-errors$/ {e += $5} END {print e + 0}' "$results")"
}

read -r -a order <<< "$servers"
[ "${FLOOR_SMOKE:-0}" = 1 ] && echo "transport-floor: SMOKE RUN (FLOOR_SMOKE=1): loads of about a second; the figures mean nothing"
echo "transport-floor: $passes pass(es); wrk -t1 -c100 -d${seconds}s after ${warmup} s, ab -c100 -n $ab_n after $ab_warm, ab -k -c1 -n $abk_n; $("$PETREL_JAVA_HOME/bin/java" -version 2>&1 | head -n 1)"
for pass in $(seq 1 "$passes"); do
  cpu=$(((pass - 1) % 2))
  if [ $((pass % 2)) = 1 ]; then run=("${order[@]}"); else run=(); for ((i = ${#order[@]} - 1; i >= 0; i--)); do run+=("${order[i]}"); done; fi
  echo "pass $pass: server on CPU $cpu, load on CPU $((1 - cpu)); order ${run[*]}"
  for server in "${run[@]}"; do
    start_server "$server" "$cpu"
    measure "$server" "$cpu" "$pass"
    stop_server
  done
done

# medians: per server and metric, over all passes and per server CPU; ratios to nio over all passes
median() { sort -g | awk '{v[NR] = $1} END {if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
value() { # server metric [cpu]
  awk -v s="$1" -v m="$2" -v c="${3:-}" '$1 == s && $4 == m && (c == "" || $2 == c) {print $5}' "$results" | median
}
echo
echo "medians, requests/s (all passes | server on CPU 0 | server on CPU 1); errors summed over all passes"
printf '%-22s %-34s %-34s %-34s %s\n' server "wrk -t1 -c100 (keep-alive)" "ab -c100 (no keep-alive)" "ab -k -c1 (one connection)" errors
for server in "${order[@]}"; do
  line=$(printf '%-22s' "$server")
  for metric in wrk-c100 ab-c100 ab-k-c1; do
    line+=$(printf ' %-34s' "$(value "$server" "$metric") | $(value "$server" "$metric" 0) | $(value "$server" "$metric" 1)")
  done
  errors=$(awk -v s="$server" '$1 == s && $4 ~ /-errors$/ {e += $5} END {print e + 0}' "$results")
  echo "$line $errors"
done
if [[ " $servers " == *" nio "* ]]; then
  echo
  echo "ratio to nio (medians over all passes; issue 38 asks for >= 1.15 on the two c100 columns)"
  for server in "${order[@]}"; do
    [ "$server" = nio ] && continue
    line=$(printf '%-26s' "$server/nio")
    for metric in wrk-c100 ab-c100 ab-k-c1; do
      line+=$(awk -v a="$(value "$server" "$metric")" -v b="$(value nio "$metric")" \
        'BEGIN {if (b > 0) printf " %-34s", sprintf("%.3f", a / b); else printf " %-34s", "-"}')
    done
    echo "$line"
  done
fi
