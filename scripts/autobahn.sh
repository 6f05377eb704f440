#!/usr/bin/env bash
# Runs Autobahn|Testsuite's fuzzing client (its cases 1 to 13, compression included) against the
# WebSocket echo of ./petrel serve's demo site (/ws/echo), through kosoku (a runner of Autobahn's
# own case files that writes Autobahn's index.json). Prints, per transport, the count of each
# verdict, the cases that FAILED or ended in ERROR, and exits non-zero when any did.
#   scripts/autobahn.sh [CASE ...]    CASE: an Autobahn case id or glob (default: every case)
#   scripts/autobahn.sh --tomcat [CASE ...]   the same cases against the echo of Tomcat's examples webapp, through
#                                 Tomcat's NIO connector and Petrel's (tomcat's ExamplesAutobahnTest, run by Maven on
#                                 the installed modules): every case must end on Petrel as on Tomcat or better
# Environment: PETREL_AUTOBAHN_PORT (default 18640); PETREL_AUTOBAHN_TRANSPORTS (default "nio"), each a
# transport, or one with "+tls" (e.g. "nio+tls") for wss: the server then listens for HTTPS only, and
# since kosoku speaks no TLS, a private HAProxy (mode tcp) takes its plain connections on the next port
# and opens each to the server over TLS, so every case crosses Petrel's TLS engine;
# PETREL_AUTOBAHN_PARALLELISM, cases run at once (default 2: the compression groups are bound by the
# client's CPU, and each case has its own connection);
# KOSOKU, the kosoku command (default: kosoku on PATH, or one installed with pip into
# target/autobahn/venv when missing).
# Each server is a private ./petrel serve on 127.0.0.1, stopped by its PID. Every wait is bounded:
# a timeout around each group of cases (kosoku's limit is per run, so large groups run apart), and
# one around the whole script. Reports (index.json per group) and server logs: target/autobahn/.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

if [ -z "${PETREL_AUTOBAHN_BOUNDED:-}" ]; then
  PETREL_AUTOBAHN_BOUNDED=1 exec timeout --kill-after=15 1800 "${BASH_SOURCE[0]}" "$@"
fi

KOSOKU_VERSION=0.1.0
out="$here/target/autobahn"
mkdir -p "$out"

find_kosoku() {
  if [ -n "${KOSOKU:-}" ]; then command -v "$KOSOKU" || { echo "autobahn: $KOSOKU not found" >&2; return 1; }; return 0; fi
  command -v kosoku 2>/dev/null && return 0
  if [ ! -x "$out/venv/bin/kosoku" ]; then
    echo "autobahn: installing kosoku $KOSOKU_VERSION into $out/venv" >&2
    python3 -m venv "$out/venv" >&2 && timeout 300 "$out/venv/bin/pip" install -q "kosoku==$KOSOKU_VERSION" >&2 \
      || { echo "autobahn: pip install kosoku failed (python3-venv and PyPI needed)" >&2; return 1; }
  fi
  echo "$out/venv/bin/kosoku"
}
kosoku=$(find_kosoku)

if [ "${1:-}" = "--tomcat" ]; then
  shift
  groups_property=()
  if [ $# -gt 0 ]; then groups_property=("-Dpetrel.autobahn.groups=$(IFS=,; echo "$*")"); fi
  status=0
  (cd "$here" && ./mvnw -B -q test -pl tomcat -Dtest=ExamplesAutobahnTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dpetrel.kosoku="$kosoku" "${groups_property[@]}") > "$out/tomcat.log" 2>&1 || status=$?
  summary="$here/tomcat/target/autobahn-tomcat/summary.txt"
  if [ -s "$summary" ]; then cat "$summary"; else echo "autobahn --tomcat: no summary (see $out/tomcat.log)"; status=1; fi
  [ "$status" = 0 ] || tail -n 40 "$out/tomcat.log"
  exit $status
fi

port=${PETREL_AUTOBAHN_PORT:-18640}
transports=${PETREL_AUTOBAHN_TRANSPORTS:-nio}
if [ $# -gt 0 ]; then groups=("$@"); else
  # one run per group: the large ones (9: up to 16 MiB messages, 12 and 13: compression) apart
  groups=("1.*" "2.*" "3.*" "4.*" "5.*" "6.*" "7.*" "9.*" "10.*" "12.*" "13.*")
fi
# shellcheck source=scripts/private-serve.sh
. "$here/scripts/private-serve.sh"
trap 'exit 143' TERM INT

# Counts the verdicts of index.json files: "OK 301, NON-STRICT 2, ..."; lists FAILED and ERROR cases on stderr-free lines.
summarize() {
  python3 - "$@" <<'PY'
import json, sys, collections
counts, bad = collections.Counter(), []
for path in sys.argv[1:]:
    try:
        index = json.load(open(path))
    except (OSError, ValueError):
        continue
    for agent in index.values():
        for case, result in agent.items():
            behavior = result.get("behavior", "?")
            close = result.get("behaviorClose", "?")
            verdict = behavior if behavior in ("FAILED", "ERROR") or close not in ("FAILED", "ERROR") else close
            counts[verdict] += 1
            if verdict in ("FAILED", "ERROR"):
                bad.append(f"{case} ({behavior}/{close})")
order = ["OK", "NON-STRICT", "INFORMATIONAL", "UNIMPLEMENTED", "FAILED", "ERROR"]
print(", ".join(f"{k} {counts[k]}" for k in order + sorted(set(counts) - set(order)) if counts[k]) or "no results")
print("BAD " + " ".join(sorted(bad, key=lambda c: [int(p) if p.isdigit() else 0 for p in c.split()[0].split(".")])) if bad else "")
PY
}

relay_pid=
relay_stop() {
  if [ -n "$relay_pid" ]; then kill -TERM "$relay_pid" 2>/dev/null || true; wait "$relay_pid" 2>/dev/null || true; relay_pid=; fi
}
trap 'petrel_serve_stop; relay_stop' EXIT

# HAProxy on $1 relaying each connection over TLS to the server on $2; waits until it accepts (10 s at most).
relay_start() {
  command -v haproxy > /dev/null || { echo "autobahn: haproxy is needed for +tls" >&2; return 1; }
  cat > "$out/relay.cfg" <<CFG
defaults
  mode tcp
  timeout connect 5s
  timeout client 120s
  timeout server 120s
frontend plain
  bind 127.0.0.1:$1
  default_backend petrel
backend petrel
  server petrel 127.0.0.1:$2 ssl verify none
CFG
  haproxy -db -f "$out/relay.cfg" > "$out/relay.log" 2>&1 &
  relay_pid=$!
  for _ in $(seq 1 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    sleep 0.1
  done
  cat "$out/relay.log" >&2
  return 1
}

status=0
for transport in $transports; do
  target=$port
  if [[ $transport == *+tls ]]; then
    petrel_serve "$out/server-$transport.log" "$port" -- --transport "${transport%+tls}" --listen "https://127.0.0.1:$port" \
      --tls-dir "$out/tls" --log-level warn || { status=1; petrel_serve_stop; continue; }
    target=$((port + 1))
    relay_start "$target" "$port" || { status=1; petrel_serve_stop; continue; }
  else
    petrel_serve "$out/server-$transport.log" "$port" -- --transport "$transport" --port "$port" --log-level warn \
      || { status=1; petrel_serve_stop; continue; }
  fi
  reports=()
  for group in "${groups[@]}"; do
    dir="$out/$transport/${group//\*/all}"
    rm -rf "$dir"; mkdir -p "$out/$transport"
    # kosoku exits 1 when a case did not pass; its report says which
    timeout 600 "$kosoku" -m fuzzingclient -p "${PETREL_AUTOBAHN_PARALLELISM:-2}" -i "$group" -o "$dir" "ws://127.0.0.1:$target/ws/echo" \
      > "$dir.txt" 2>&1 || true
    if [ -s "$dir/index.json" ]; then reports+=("$dir/index.json"); else
      echo "autobahn $transport: no report for cases $group (see $dir.txt)"; status=1
    fi
  done
  summary=$(summarize "${reports[@]}")
  echo "autobahn $transport: $(head -n 1 <<< "$summary")"
  bad=$(sed -n 2p <<< "$summary")
  if [ -n "$bad" ]; then echo "  ${bad/BAD/failed:}"; status=1; fi
  relay_stop
  petrel_serve_stop
done
exit $status
