#!/usr/bin/env bash
# Scans Petrel's HTTPS port with sslyze against Mozilla's "intermediate" TLS configuration, once
# per TLS engine (jsse, native), and fails on any finding but the one a self-signed certificate
# must give (certificate_path_validation: the scanner does not trust it).
#   scripts/tls-scan.sh [SSLYZE]     SSLYZE: the sslyze command (default: sslyze on PATH)
# .ci/run installs sslyze from PyPI into a virtual environment and passes its path. Each server is
# a private ./petrel serve on 127.0.0.1, with a self-signed certificate in a temporary folder,
# stopped by its PID.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
sslyze=${1:-sslyze}
command -v "$sslyze" >/dev/null 2>&1 || { echo "tls-scan: $sslyze not found (pip install sslyze)" >&2; exit 2; }
work=$(mktemp -d)
pid=
cleanup() {
  [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

status=0
port=18543
for engine in jsse native; do
  "$here/petrel" serve --port $((port + 1)) --https-port "$port" --tls-dir "$work/tls" --tls-engine "$engine" \
    > "$work/server-$engine.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do
    curl -fsS "http://127.0.0.1:$((port + 1))/" >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || { cat "$work/server-$engine.log"; echo "tls-scan: the $engine server did not start" >&2; exit 1; }
    sleep 0.1
  done
  report="$work/sslyze-$engine.txt"
  timeout 300 "$sslyze" --mozilla_config=intermediate "127.0.0.1:$port" > "$report" 2>&1 || true
  # the compliance section lists one '* check: reason' line per finding
  findings=$(sed -n '/COMPLIANCE AGAINST/,$p' "$report" | grep -E '^ +\* ' || true)
  unexpected=$(grep -v -E '^ +\* certificate_path_validation: ' <<< "$findings" || true)
  if ! grep -q 'COMPLIANCE AGAINST' "$report"; then
    cat "$report"; echo "tls-scan: $engine: sslyze did not finish its scan" >&2; status=1
  elif [ -n "$unexpected" ]; then
    sed -n '/COMPLIANCE AGAINST/,$p' "$report"; echo "tls-scan: $engine: findings against Mozilla's intermediate profile" >&2; status=1
  else
    curves=$(grep -E 'Supported curves:' "$report" | sed 's/.*Supported curves: *//')
    echo "tls-scan: $engine ($(grep -o 'TLS by [^,]*' "$work/server-$engine.log" | head -n 1)): Mozilla intermediate, no finding but the self-signed certificate; curves $curves"
  fi
  kill -TERM "$pid"; wait "$pid" || true; pid=
done
exit $status
