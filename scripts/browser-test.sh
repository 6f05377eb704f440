#!/usr/bin/env bash
# Drives headless Chromium (Debian's chromium and chromium-driver) with Selenium (from PyPI) through
# the demo site's chat page (scripts/browser_chat.py): two sessions talk over ws on the plain port,
# over wss on the HTTPS one with Chromium's HTTP/2 off (an HTTP/1.1 upgrade), and over wss on an
# HTTP/2 connection (RFC 8441's extended CONNECT, the way Chromium opens a WebSocket where it already
# holds an HTTP/2 connection whose SETTINGS allow it). The server's access log tells which way each
# session came: a "GET /ws/chat HTTP/1.1" 101 line or a "CONNECT /ws/chat HTTP/2..." 101 one. Then it
# uploads a field and two files through the demo's form (/upload.html, scripts/browser_upload.py) over
# http, https with HTTP/2 off, and h2, each answer checked against the files' sizes and SHA-256.
# Exits non-zero when any run fails or a session came the wrong way.
#   scripts/browser-test.sh
# Environment: PETREL_BROWSER_PORT, the first of the two ports it uses (default 18650).
# The server is a private ./petrel serve on 127.0.0.1 with a self-signed certificate in a temporary
# folder, stopped by its PID, its access log in that folder. Every wait is bounded. Selenium is
# installed with pip into target/browser/venv when it is missing; the server's log is
# target/browser/server.log.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

if [ -z "${PETREL_BROWSER_BOUNDED:-}" ]; then
  PETREL_BROWSER_BOUNDED=1 exec timeout --kill-after=15 600 "${BASH_SOURCE[0]}" "$@"
fi

SELENIUM_VERSION=4.51.0
out="$here/target/browser"
mkdir -p "$out"
for tool in /usr/bin/chromium /usr/bin/chromedriver; do
  [ -x "$tool" ] || { echo "browser test: $tool missing (apt-get install chromium chromium-driver)" >&2; exit 1; }
done
if ! "$out/venv/bin/python" -c "import selenium" 2>/dev/null; then
  python3 -m venv "$out/venv" && timeout 300 "$out/venv/bin/pip" install -q "selenium==$SELENIUM_VERSION" \
    || { echo "browser test: pip install selenium failed" >&2; exit 1; }
fi

port=${PETREL_BROWSER_PORT:-18650}
https_port=$((port + 1))
work=$(mktemp -d)
# shellcheck source=scripts/private-serve.sh
. "$here/scripts/private-serve.sh"
cleanup() {
  petrel_serve_stop
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

access="$work/access.log"
petrel_serve "$out/server.log" "$port" "$https_port" -- --port "$port" --https-port "$https_port" --tls-dir "$work/tls" \
  --log-level warn --access-log "$access" || exit 1

# sessions PATTERN: how many sessions' lines (101 ... websocket close_code=) have a request line
# starting with PATTERN
sessions() {
  local n
  n=$(grep -c -E "\"$1[^\"]*\" 101 .* websocket close_code=" "$access" 2>/dev/null || true)
  echo "${n:-0}"
}
# expect_sessions PATTERN N WHAT: waits (at most 10 s; the log is written by a thread of its own,
# each line when its session ends) until N sessions match PATTERN; fails with WHAT otherwise
expect_sessions() {
  for _ in $(seq 1 100); do [ "$(sessions "$1")" -ge "$2" ] && return 0; sleep 0.1; done
  echo "browser test: $3: $(sessions "$1") of $2 sessions in the access log as $1" >&2
  grep " 101 " "$access" >&2 || true
  return 1
}

status=0
run() { timeout 120 "$out/venv/bin/python" "$here/scripts/browser_chat.py" "$@" || status=1; }
run "http://127.0.0.1:$port/chat.html"
run "https://127.0.0.1:$https_port/chat.html" --http1
expect_sessions "GET /ws/chat HTTP/1.1" 4 "ws and wss with HTTP/2 off" || status=1
run "https://127.0.0.1:$https_port/chat.html"
expect_sessions "CONNECT /ws/chat HTTP/2" 2 "wss on Chromium's HTTP/2 connection" || status=1
[ "$(sessions "GET /ws/chat HTTP/1.1")" -eq 4 ] || { echo "browser test: the HTTP/2 run upgraded over HTTP/1.1 too" >&2; status=1; }
[ $status = 0 ] && echo "browser test: the chat over ws and wss on HTTP/1.1 ($(sessions "GET /ws/chat HTTP/1.1") sessions) and over wss on HTTP/2 by extended CONNECT ($(sessions "CONNECT /ws/chat HTTP/2") sessions)"

# The upload form (/upload.html, multipart/form-data): over http, over https with HTTP/2 off, and over h2.
upload() { timeout 120 "$out/venv/bin/python" "$here/scripts/browser_upload.py" "$@" || status=1; }
upload "http://127.0.0.1:$port/upload.html"
upload "https://127.0.0.1:$https_port/upload.html" --http1
upload "https://127.0.0.1:$https_port/upload.html"
posts() { grep -c -E "\"POST /upload $1[^\"]*\" 200 " "$access" 2>/dev/null || true; }
for _ in $(seq 1 50); do [ "$(posts HTTP/2)" -ge 1 ] && break; sleep 0.1; done
[ "$(posts HTTP/1.1)" -ge 2 ] && [ "$(posts HTTP/2)" -ge 1 ] \
  || { echo "browser test: the access log has $(posts HTTP/1.1) uploads over HTTP/1.1 (2 expected) and $(posts HTTP/2) over HTTP/2 (1)" >&2; status=1; }
exit $status
