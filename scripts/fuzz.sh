#!/usr/bin/env bash
# Fuzzes the codecs with Jazzer (coverage-guided, in process) for a bounded time per target.
#   scripts/fuzz.sh [request-parser|chunked-decoder|multipart-parser|forward-request-parser|websocket-decoder|websocket-inflater|all] [DURATION]
# DURATION is per target, as Jazzer reads it: 60s (the default), 90 (seconds), 30m, 1h30m.
# Jazzer fuzzes one @FuzzTest per JVM, so each target is its own Maven run; targets run one after
# the other. A target keeps the inputs it found interesting in <module>/.cifuzz-corpus/ (ignored by
# git) and starts from them next time. A finding is written to the target's inputs directory,
# <module>/src/test/resources/dev/petrel/<pkg>/<Test>Inputs/<method>/crash-*, where every plain
# ./mvnw verify replays it: commit it with the fix. Full output: <module>/target/fuzz-<target>.log.
# Prints, per target, the executions, the corpus size and whether anything was found; exits 1
# when something was, 2 on a usage error.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=scripts/jdk.sh
. "$here/scripts/jdk.sh"
petrel_find_jdk || exit 1
export JAVA_HOME=$PETREL_JAVA_HOME

usage() {
  echo "usage: scripts/fuzz.sh [request-parser|chunked-decoder|multipart-parser|forward-request-parser|websocket-decoder|websocket-inflater|all] [DURATION, default 60s]" >&2
  exit 2
}

target=${1:-all}
duration=${2:-60s}
[[ $duration =~ ^[0-9]+$ ]] && duration="${duration}s"
[[ $duration =~ ^([0-9]+ ?(h|hr|m|min|s|sec) ?)+$ ]] || usage

# target -> module, test class, fuzz test method
declare -A module=([request-parser]=http [chunked-decoder]=http [multipart-parser]=http [forward-request-parser]=ajp
                   [websocket-decoder]=websocket [websocket-inflater]=websocket)
declare -A test=([request-parser]=dev.petrel.http.RequestParserJazzerTest
                 [chunked-decoder]=dev.petrel.http.ChunkedDecoderJazzerTest
                 [multipart-parser]=dev.petrel.http.MultipartParserJazzerTest
                 [forward-request-parser]=dev.petrel.ajp.ForwardRequestParserJazzerTest
                 [websocket-decoder]=dev.petrel.websocket.MessageDecoderJazzerTest
                 [websocket-inflater]=dev.petrel.websocket.MessageInflaterJazzerTest)
declare -A method=([request-parser]=request [chunked-decoder]=body [multipart-parser]=body [forward-request-parser]=payload
                   [websocket-decoder]=decoder [websocket-inflater]=inflate)

case "$target" in
  all) targets=(request-parser chunked-decoder multipart-parser forward-request-parser websocket-decoder websocket-inflater) ;;
  request-parser|chunked-decoder|multipart-parser|forward-request-parser|websocket-decoder|websocket-inflater) targets=("$target") ;;
  *) usage ;;
esac

# libFuzzer prints "#<executions> <event> cov: .. corp: <entries>/<bytes> .." as it goes and
# "Done <executions> runs in <n> second(s)" when it stops, by time or on a finding.
report() { # target, log, Maven's exit status, generated corpus directory
  local name=$1 log=$2 status=$3 corpus_dir=$4 execs corpus files verdict unit
  execs=$(sed -nE 's/^Done ([0-9]+) runs in .*/\1/p' "$log" | tail -n 1)
  [ -n "$execs" ] || execs=$(grep -aoE '^#[0-9]+' "$log" | tail -n 1 | tr -d '#')
  corpus=$(grep -aoE ' corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -n 1 | sed 's/ corp: //')
  files=$(find "$corpus_dir" -type f 2>/dev/null | wc -l)
  unit=$(grep -aoE 'Test unit written to .*' "$log" | tail -n 1 | sed 's/Test unit written to //')
  if [ "$status" = 0 ] && grep -aqE '^#[0-9]+[[:space:]]+DONE' "$log"; then
    verdict="nothing found"
  elif [ -n "$unit" ]; then
    verdict="FINDING ($(grep -aoE 'FuzzTestFindingException: .*' "$log" | head -n 1 | sed 's/FuzzTestFindingException: //'))
    input: ${unit#"$here"/}"
  elif grep -aqE '<<< (FAILURE|ERROR)!' "$log"; then
    verdict="FAILED on a seed or past finding ($(grep -aA1 -E '^\[ERROR\] .*<<< (FAILURE|ERROR)!' "$log" | grep -avE '^\[ERROR\]|^--' | head -n 1))"
  else
    verdict="FAILED before fuzzing (build or setup error), see the log"
  fi
  printf '%-23s executions: %-11s corpus: %s (%s files on disk)  %s\n' \
    "$name" "${execs:-?}" "${corpus:-?}" "$files" "$verdict"
  [ "$verdict" = "nothing found" ]
}

cd "$here"
echo "fuzz: building (./mvnw test-compile)" >&2
./mvnw -q -B -pl ajp,websocket -am test-compile >&2

failed=0
for name in "${targets[@]}"; do
  mod=${module[$name]}
  log="$here/$mod/target/fuzz-$name.log"
  echo "fuzz: $name for $duration (log: ${log#"$here"/})" >&2
  status=0
  # -am: ajp needs http built; the test filter leaves http's tests out (websocket needs nothing).
  JAZZER_FUZZ=1 ./mvnw -B -pl "$mod" -am test \
      -Dtest="${test[$name]}#${method[$name]}" -Dsurefire.failIfNoSpecifiedTests=false \
      -Djazzer.max_duration="$duration" > "$log" 2>&1 || status=$?
  report "$name" "$log" "$status" "$here/$mod/.cifuzz-corpus/${test[$name]}/${method[$name]}" || failed=1
done
exit "$failed"
