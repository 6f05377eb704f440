#!/usr/bin/env bash
# Runs h2spec (summerwind/h2spec, the HTTP/2 conformance suite: RFC 9113 and RFC 7541) against
# ./petrel serve on every transport (blocking, virtual, nio), each reached three ways: h2 over TLS
# on the JSSE engine, h2 over TLS on the native engine (BoringSSL), and h2c with prior knowledge on
# the plain port. Prints one line per variant (cases passed of all, the failures by h2spec's own
# names, which `h2spec NAME` runs alone) and exits non-zero on any failure but the one documented
# exception: http2/3.5/2 (an invalid client preface) on the plain port, which speaks HTTP/1.1 too
# and so answers bytes that are not the HTTP/2 preface as HTTP/1.1 (docs/http2.md, h2spec).
#   scripts/h2spec.sh [H2SPEC]    H2SPEC: the h2spec binary (default: $H2SPEC, h2spec on PATH, or
#                                 target/h2spec/bin/h2spec, built there with Go when missing)
#   scripts/h2spec.sh --tomcat [H2SPEC]   instead: Catalina over HTTP/2 on Petrel's Tomcat connector and on Tomcat's
#                                 NIO connector with its Http2Protocol (tomcat's Http2SpecConnectorTest, run by Maven
#                                 on the installed modules); Petrel's must pass as ./petrel serve does, Tomcat's is printed
# Environment: PETREL_H2SPEC_PORT, the first of the two ports it uses (default 18620);
# PETREL_H2SPEC_TRANSPORTS, the transports to test (default "blocking virtual nio").
# Each server is a private ./petrel serve on 127.0.0.1, with a self-signed certificate in a temporary
# folder, stopped by its PID. Every wait is bounded: h2spec's per-case timeout (-o), a timeout
# around each run, and one around the whole script. Reports and server logs: target/h2spec/.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

# the whole run is bounded; SIGTERM from timeout still runs the cleanup below
if [ -z "${PETREL_H2SPEC_BOUNDED:-}" ]; then
  PETREL_H2SPEC_BOUNDED=1 exec timeout --kill-after=15 600 "${BASH_SOURCE[0]}" "$@"
fi

H2SPEC_VERSION=v2.2.1+incompatible # its last tag the Go module proxy serves
out="$here/target/h2spec"
mkdir -p "$out"

find_h2spec() {
  local candidate=${1:-${H2SPEC:-}}
  if [ -n "$candidate" ]; then
    command -v "$candidate" 2>/dev/null || { echo "h2spec: $candidate not found" >&2; return 1; }
    return 0
  fi
  command -v h2spec 2>/dev/null && return 0
  [ -x "$out/bin/h2spec" ] && { echo "$out/bin/h2spec"; return 0; }
  local go
  go=$(command -v go 2>/dev/null || true)
  [ -z "$go" ] && [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go
  [ -n "$go" ] || { echo "h2spec: neither h2spec nor Go found (install Go, or pass the h2spec binary)" >&2; return 1; }
  echo "h2spec: building h2spec $H2SPEC_VERSION with $go" >&2
  GOBIN="$out/bin" timeout 300 "$go" install "github.com/summerwind/h2spec/cmd/h2spec@$H2SPEC_VERSION" >&2 \
    || { echo "h2spec: go install failed" >&2; return 1; }
  echo "$out/bin/h2spec"
}
through_tomcat=false
if [ "${1:-}" = "--tomcat" ]; then through_tomcat=true; shift; fi
h2spec=$(find_h2spec "${1:-}")

if $through_tomcat; then
  status=0
  (cd "$here" && ./mvnw -B -q test -pl tomcat -Dtest=Http2SpecConnectorTest -Dsurefire.failIfNoSpecifiedTests=false \
    -Dpetrel.h2spec="$h2spec") > "$out/tomcat.log" 2>&1 || status=$?
  summary="$here/tomcat/target/h2spec-tomcat/summary.txt"
  if [ -s "$summary" ]; then cat "$summary"; else echo "h2spec --tomcat: no summary (see $out/tomcat.log)"; status=1; fi
  [ "$status" = 0 ] || tail -n 40 "$out/tomcat.log"
  exit $status
fi

port=${PETREL_H2SPEC_PORT:-18620}
https_port=$((port + 1))
transports=${PETREL_H2SPEC_TRANSPORTS:-blocking virtual nio}
work=$(mktemp -d)
# shellcheck source=scripts/private-serve.sh
. "$here/scripts/private-serve.sh"
cleanup() {
  petrel_serve_stop
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 143' TERM INT

# Starts ./petrel serve on $port (HTTP/1.1 and h2c) and $https_port (TLS on engine $2), transport $1.
start_server() {
  petrel_serve "$out/server-$1-$2.log" "$port" "$https_port" -- --transport "$1" --port "$port" --h2c \
    --https-port "$https_port" --tls-engine "$2" --tls-dir "$work/tls" --log-level warn
}

# Lists the cases of a JUnit report as "NAME ok|failed|skipped", NAME as h2spec names them (http2/5.1/8).
cases() {
  awk '
    /<testsuite / { match($0, /package="[^"]*"/); pkg = substr($0, RSTART + 9, RLENGTH - 10); n = 0 }
    /<testcase / { n++; name = pkg "/" n; state = "ok"; if ($0 ~ /\/>[ \t]*$/ || $0 ~ /<\/testcase>/) print name, state; next }
    /<(error|failure)[ >]/ { state = "failed" }
    /<skipped/ { state = "skipped" }
    /<\/testcase>/ { print name, state }
  ' "$1"
}

# The first line of what the plain port answers to h2spec's invalid preface (http2/3.5/2).
http1_answer_to_invalid_preface() {
  timeout 10 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1" && printf "INVALID CONNECTION PREFACE\r\n\r\n" >&3 && head -n 1 <&3' _ "$port" \
    2>/dev/null | tr -d '\r' || true
}

status=0
for transport in $transports; do
  for engine in jsse native; do
    start_server "$transport" "$engine" || { status=1; petrel_serve_stop; continue; }
    variants="tls"
    [ "$engine" = jsse ] && variants="tls h2c" # h2c is the same on either engine: tested once per transport
    for variant in $variants; do
      if [ "$variant" = tls ]; then
        name="$transport h2 (TLS, $engine)"; flags=(-p "$https_port" -t -k); allowed=""
      else
        name="$transport h2c"; flags=(-p "$port"); allowed="http2/3.5/2"
      fi
      report="$out/report-$transport-$variant-$engine.xml"
      rm -f "$report"
      # -S: the strict cases too (146 in all); -o 2: seconds h2spec waits for each answer
      timeout 120 "$h2spec" -S -h 127.0.0.1 "${flags[@]}" -o 2 -j "$report" > "$out/output-$transport-$variant-$engine.txt" 2>&1 || true
      if [ ! -s "$report" ]; then
        echo "h2spec $name: no report (h2spec did not finish; see $out/output-$transport-$variant-$engine.txt)"
        status=1
        continue
      fi
      listed=$(cases "$report")
      total=$(grep -c . <<< "$listed" || true)
      passed=$(grep -c ' ok$' <<< "$listed" || true)
      skipped=$(grep -c ' skipped$' <<< "$listed" || true)
      failed=$(awk '$2 == "failed" { print $1 }' <<< "$listed" | tr '\n' ' ' | sed 's/ $//')
      unexpected=$(tr ' ' '\n' <<< "$failed" | grep -v -x -F -e "${allowed:-none}" | grep . || true)
      line="h2spec $name: $passed/$total"
      [ "$skipped" != 0 ] && line="$line ($skipped skipped)"
      [ -n "$failed" ] && line="$line; failed: $failed"
      if [ -n "$unexpected" ]; then
        echo "$line"
        sed -n '/^Failures:/,$p' "$out/output-$transport-$variant-$engine.txt"
        status=1
      elif [ -n "$failed" ]; then
        # the exception holds only as documented: the plain port answered h2spec's bytes as an HTTP/1.1 request
        answer=$(http1_answer_to_invalid_preface)
        if [[ "$answer" == "HTTP/1.1 400 "* ]]; then
          echo "$line (the documented exception: the plain port speaks HTTP/1.1 too, and answered '$answer')"
        else
          echo "$line; and the plain port answered an invalid preface with '${answer:-nothing}', not HTTP/1.1's 400"
          status=1
        fi
      else
        echo "$line"
      fi
    done
    petrel_serve_stop
  done
done
exit $status
