# Sourced by the scripts that test a running ./petrel serve (h2spec.sh, autobahn.sh, browser-test.sh):
# a private server on 127.0.0.1, started in the background and stopped by its PID.
#
#   petrel_serve LOG PORT... -- ARG...   starts ./petrel serve ARG... with its output in LOG, and waits
#                                        until every PORT accepts connections (at most 180 s: the first
#                                        start may compile the server); sets petrel_pid. Returns 1, with
#                                        the log printed, when the server ends or does not come up.
#   petrel_serve_stop                    SIGTERM to the server, waits for it to end; nothing when none runs.
petrel_pid=

petrel_serve() {
  local log=$1 ports=() port up
  shift
  while [ $# -gt 0 ] && [ "$1" != -- ]; do ports+=("$1"); shift; done
  shift
  "$(dirname "${BASH_SOURCE[0]}")/../petrel" serve "$@" > "$log" 2>&1 &
  petrel_pid=$!
  for _ in $(seq 1 1800); do
    up=1
    for port in "${ports[@]}"; do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { up=0; break; }; done
    [ "$up" = 1 ] && return 0
    kill -0 "$petrel_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$log" >&2
  echo "petrel serve $* did not start" >&2
  return 1
}

petrel_serve_stop() {
  if [ -n "$petrel_pid" ]; then
    kill -TERM "$petrel_pid" 2>/dev/null || true
    wait "$petrel_pid" 2>/dev/null || true
    petrel_pid=
  fi
}
