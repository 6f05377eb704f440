#!/usr/bin/env bash
# Where a lab server spends its CPU at 100 keep-alive clients: an async-profiler CPU profile,
# summed by frame, for one server of the lab at a time (Petrel and the peers alike).
#
#   scripts/cpu-profile.sh MAIN_CLASS [ARGS...] [--cpu 0|1] [--out DIR] [--websocket]
#
#   scripts/cpu-profile.sh PetrelHello nio inline     # Petrel, handler on the event loop
#   scripts/cpu-profile.sh NettyHello epoll jdk       # netty-epoll, as the lab runs it
#   scripts/cpu-profile.sh VertxHello --websocket     # the lab's WebSocket echo instead of HTTP
#
# Starts the lab's server class (bench/target/lib, built by ./petrel bench) on one CPU (default 0)
# with async-profiler's agent, loads it from the other CPU with wrk -t1 -c100 (5 s warm-up, then
# 10 s profiled), and writes into DIR (default: a new folder under /tmp). With --websocket the server
# also serves the lab's WebSocket echo, and the load is the websocket scenario's instead of wrk's: the
# lab's WebSocketLoad, 100 connections each echoing 10-byte text messages one at a time.
#   profile.collapsed  the stacks, one per line with their sample count (flame graph input)
#   profile.html       the flame graph
#   summary.txt        the requests, the CPU per request (the kernel's, Java code's, the JVM's and
#                      native code's), and the frames with the most samples of their own ("self")
#                      and in their subtree ("total")
# async-profiler comes from its jar on Maven Central (tools.profiler:async-profiler), fetched by
# the Maven wrapper into target/async-profiler once. Only 127.0.0.1; the server is stopped by its PID.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

usage() { echo "usage: scripts/cpu-profile.sh MAIN_CLASS [ARGS...] [--cpu 0|1] [--out DIR] [--websocket]" >&2; exit 2; }
[ $# -ge 1 ] || usage
main=$1; shift
args=() cpu=0 out="" websocket=false
while [ $# -gt 0 ]; do
  case "$1" in
    --cpu) [ $# -ge 2 ] || usage; cpu=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
    --websocket) websocket=true; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
case "$cpu" in 0) load_cpu=1 ;; 1) load_cpu=0 ;; *) usage ;; esac
# shellcheck source=scripts/lab-env.sh
. scripts/lab-env.sh
petrel_lab_ready cpu-profile taskset wrk curl unzip

version=4.6
agent=target/async-profiler/linux-x64/libasyncProfiler.so
if [ ! -f "$agent" ]; then
  mkdir -p target/async-profiler
  JAVA_HOME="$PETREL_JAVA_HOME" ./mvnw -B -q -N dependency:copy -Dartifact="tools.profiler:async-profiler:$version" \
    -DoutputDirectory=target/async-profiler >/dev/null
  (cd target/async-profiler && unzip -q -o "async-profiler-$version.jar" 'linux-x64/*')
fi
[ -n "$out" ] || out=$(mktemp -d /tmp/cpu-profile.XXXXXX)
mkdir -p "$out"
out=$(cd "$out" && pwd)

port=18558
url="http://127.0.0.1:$port/"
log="$out/server.log"
# the profiler is loaded into the running server after the warm-up (jcmd), so that it samples only the load
props=()
if $websocket; then props=(-Dpetrel.bench.ws=true); fi
taskset -c "$cpu" "$PETREL_JAVA_HOME/bin/java" "${props[@]}" -Xms512m -Xmx512m --enable-native-access=ALL-UNNAMED \
  -XX:+EnableDynamicAgentLoading -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints \
  -cp "bench/target/lib/*" "dev.petrel.bench.servers.$main" "$port" "${args[@]}" > "$log" 2>&1 &
pid=$!
stop() { kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; }
trap 'stop || true' EXIT
for _ in $(seq 1 100); do curl -fs "$url" >/dev/null 2>&1 && break; sleep 0.1; done
curl -fs "$url" >/dev/null || { echo "cpu-profile: the server did not answer"; cat "$log"; exit 1; }

# quoted for jcmd, which would take the '=' in the profiler's options for its own option syntax
profiler() { "$PETREL_JAVA_HOME/bin/jcmd" "$pid" JVMTI.agent_load "$PWD/$agent" "\"$1\"" | grep -q "return code: 0"; }
# one load of $1 seconds: sets $result to what the tool printed and $requests to how many it had answered
load() {
  if $websocket; then
    result=$(taskset -c "$load_cpu" "$PETREL_JAVA_HOME/bin/java" -cp "bench/target/lib/*" dev.petrel.bench.lab.WebSocketLoad \
      "$port" /ws/echo 60 0 "rate:100:text:10:1000:$(( $1 * 1000 ))")
    requests=$(echo "$result" | sed -n 's/.* messages=\([0-9]*\) .*/\1/p')
  else
    result=$(taskset -c "$load_cpu" wrk -t1 -c100 -d"$1"s "$url")
    requests=$(echo "$result" | awk '/requests in/ {print $1}')
  fi
}
load 5
profiler "start,event=cpu,interval=1ms"
load 10
profiler "dump,file=$out/profile.html"
profiler "stop,file=$out/profile.collapsed,collapsed"
[ -n "$requests" ] && [ "$requests" -gt 0 ] || { echo "cpu-profile: the load answered nothing"; echo "$result"; exit 1; }
tool="wrk -t1 -c100 -d10s"; unit=request
if $websocket; then tool="WebSocketLoad rate:100:text:10 (10 s)"; unit=message; fi

awk -v r="$requests" -v name="$main ${args[*]}" -v cpu="$cpu" -v tool="$tool" -v unit="$unit" '
  { n = $NF; $NF = ""; sub(/ $/, ""); total += n
    k = split($0, f, ";")
    self[f[k]] += n
    # where the sample was taken: the kernel marks its frames _[k]; Java frames name a class path
    if (f[k] ~ /_\[k\]$/) kernel += n; else if (f[k] ~ /\//) java += n; else jvm += n
    delete seen
    for (i = 1; i <= k; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; sub_[f[i]] += n } }
  END {
    printf "%s, server on CPU %s, %s: %d %ss, %d samples (1 ms each), %.2f us of CPU per %s\n",
      name, cpu, tool, r, unit, total, total * 1000 / r, unit
    printf "kernel %.1f%% (%.2f us/%s), Java code %.1f%% (%.2f), JVM and native code %.1f%% (%.2f)\n",
      kernel * 100 / total, kernel * 1000 / r, unit, java * 100 / total, java * 1000 / r, jvm * 100 / total, jvm * 1000 / r
    print "\nself (the frame itself), % of samples:"
    for (g in self) printf "%6.2f%%  %s\n", self[g] * 100 / total, g | "sort -rn | head -25"
    close("sort -rn | head -25")
    print "\ntotal (the frame and what it calls), % of samples:"
    for (g in sub_) printf "%6.2f%%  %s\n", sub_[g] * 100 / total, g | "sort -rn | head -40"
  }' "$out/profile.collapsed" > "$out/summary.txt"
cat "$out/summary.txt"
echo "cpu-profile: $out"
