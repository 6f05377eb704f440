#!/usr/bin/env bash
# Drives headless Chromium (Debian's chromium and chromium-driver) with Selenium (from PyPI) through
# the demo site's chat page: two sessions talk over ws on the plain port and over wss on the HTTPS
# one (scripts/browser_chat.py). Exits non-zero when either fails.
#   scripts/browser-test.sh
# Environment: PETREL_BROWSER_PORT, the first of the two ports it uses (default 18650).
# The server is a private ./petrel serve on 127.0.0.1 with a self-signed certificate in a temporary
# folder, stopped by its PID. Every wait is bounded. Selenium is installed with pip into
# target/browser/venv when it is missing; the server's log is target/browser/server.log.
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

petrel_serve "$out/server.log" "$port" "$https_port" -- --port "$port" --https-port "$https_port" --tls-dir "$work/tls" \
  --log-level warn || exit 1

status=0
for url in "http://127.0.0.1:$port/chat.html" "https://127.0.0.1:$https_port/chat.html"; do
  timeout 120 "$out/venv/bin/python" "$here/scripts/browser_chat.py" "$url" || status=1
done
exit $status
