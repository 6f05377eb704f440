#!/usr/bin/env bash
# Runs the shell blocks that README.md and docs/**/*.md mark runnable, as a reader pastes them, in a
# fresh clone of this repository's HEAD, so that the pages cannot drift from what works.
#
# The marking: an HTML comment on the line right before a ```sh fence (GitHub renders it as nothing).
#   <!-- runnable -->           the block runs to its end (bash -e -o pipefail) and must exit 0 and
#                               leave no process behind: a block that starts a server in the
#                               background stops it itself ('./petrel serve & pid=$!' ... 'kill $pid')
#   <!-- runnable: serves -->   the block ends with a server in the foreground, as a reader types it;
#                               it passes once Petrel's ready line ('ready: transport=') is printed,
#                               and the check then stops it (SIGTERM to the block's process group)
# Unmarked blocks are not run. ReadmeBlocksTest (./mvnw verify) checks that every mark stands right
# before a ```sh block.
#
# Each block runs in the clone's root, in document order, one at a time, on the pages' own ports,
# within README_CHECK_TIMEOUT seconds (default 240), with TMPDIR inside the check's folder and
# CATALINA_HOME / CATALINA_BASE set to the Tomcat distribution the build unpacks for the tests
# (tomcat/target/tomcat-dist) and a fresh base of it (its conf/, an empty lib/), as a reader of
# docs/tomcat.md has them. Before the first block the clone is built once
# (./mvnw -B -q install -DskipTests), which every block may then rely on, as a reader who built.
#
#   scripts/readme-check.sh [--isolated] [--keep] [--list] [FILE:LINE ...]
#     --isolated   run each block in a network namespace of its own (unshare -rn, loopback only),
#                  for a machine where the pages' ports may be taken; blocks then have no network, so
#                  whatever they build must already be in the local Maven repository
#     --keep       keep the check's folder (the clone, each block's script and output)
#     --list       print the marked blocks and exit
#     FILE:LINE    run only the blocks whose fence opens there (e.g. docs/https.md:9)
# Exits 1 when a block fails, naming its file and line and printing its output.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)

isolated=0 keep=0 list=0
declare -A only=()
for arg in "$@"; do
  case "$arg" in
    --isolated) isolated=1 ;;
    --keep) keep=1 ;;
    --list) list=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "readme-check: unknown option $arg (see --help)" >&2; exit 2 ;;
    *:*) only[$arg]=1 ;;
    *) echo "readme-check: $arg is not FILE:LINE (see --help)" >&2; exit 2 ;;
  esac
done
timeout_secs=${README_CHECK_TIMEOUT:-240}

# The marked blocks of a page, one '<line> <mode> <script>' a block on stdout, each body written to
# a script file under $2 with the fence's indentation taken off (a block may sit in a list item).
extract_blocks() { # page, output folder, prefix for the script files
  awk -v out="$2" -v prefix="$3" '
    function strip(s, n) { while (n > 0 && substr(s, 1, 1) == " ") { s = substr(s, 2); n-- } return s }
    inside {
      if ($0 ~ /^[ \t]*```[ \t]*$/) { inside = 0; if (file != "") close(file); file = ""; next }
      if (file != "") print strip($0, indent) > file
      next
    }
    /^[ \t]*<!--[ \t]*runnable/ { mark_line = NR; mode = ($0 ~ /runnable:[ \t]*serves[ \t]*-->/) ? "serves" : "runs"; next }
    /^[ \t]*```/ {
      inside = 1; file = ""
      match($0, /^ */); indent = RLENGTH
      if (mark_line == NR - 1) {
        file = out "/" prefix "-" NR ".sh"
        printf "" > file
        print NR, mode, file
      }
      next
    }
  ' "$1"
}

# The processes of the block's process group, pid and command line (from /proc: procps may be absent).
group_members() {
  local stat fields pgrp pid
  for stat in /proc/[0-9]*/stat; do
    fields=$(cat "$stat" 2>/dev/null) || continue
    fields=${fields##*) }                # 'state ppid pgrp ...', after the command name (it may hold spaces)
    read -r _ _ pgrp _ <<< "$fields"
    [ "$pgrp" = "$group" ] || continue
    pid=${stat#/proc/}; pid=${pid%/stat}
    printf '%s (%s) ' "$pid" "$(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | cut -c1-120)"
  done
}

work=$(mktemp -d "${TMPDIR:-/tmp}/readme-check.XXXXXX")
group=""
cleanup() {
  if [ -n "$group" ] && kill -0 -- "-$group" 2>/dev/null; then kill -KILL -- "-$group" 2>/dev/null || true; fi
  if [ "$keep" = 1 ]; then echo "readme-check: kept $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A fresh clone of HEAD (committed work only, as CI sees it); HEAD may be detached or in a worktree.
head=$(git -C "$here" rev-parse HEAD)
clone="$work/petrel"
git init -q "$clone"
git -C "$clone" fetch -q "$here" "$head"
git -C "$clone" checkout -q --detach FETCH_HEAD

mkdir -p "$work/blocks" "$work/tmp"
: > "$work/blocks.txt"
pages=$(cd "$clone" && git ls-files -- README.md 'docs/*.md')
for page in $pages; do
  extract_blocks "$clone/$page" "$work/blocks" "$(echo "$page" | tr '/.' '__')" | while read -r line mode script; do
    echo "$page $line $mode $script" >> "$work/blocks.txt"
  done
done
if [ "$list" = 1 ]; then
  while read -r page line mode script; do printf '%s:%s (%s)\n' "$page" "$line" "$mode"; sed 's/^/    /' "$script"; done < "$work/blocks.txt"
  exit 0
fi
[ -s "$work/blocks.txt" ] || { echo "readme-check: no block is marked runnable in README.md or docs/" >&2; exit 1; }

echo "readme-check: building the clone of $(git -C "$here" rev-parse --short HEAD) (./mvnw -B -q install -DskipTests)"
build_start=$EPOCHREALTIME
if ! (cd "$clone" && ./mvnw -B -q install -DskipTests) > "$work/build.log" 2>&1; then
  tail -n 60 "$work/build.log"
  echo "readme-check: the clone did not build; no block was run" >&2
  exit 1
fi
build_secs=$(awk -v a="$build_start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')

# The Tomcat distribution the build unpacked for the tests, and a fresh CATALINA_BASE of it.
catalina_home=$(echo "$clone"/tomcat/target/tomcat-dist/apache-tomcat-*)
[ -x "$catalina_home/bin/catalina.sh" ] || { echo "readme-check: the build unpacked no Tomcat distribution under tomcat/target/tomcat-dist" >&2; exit 1; }
catalina_base="$work/catalina-base"
mkdir -p "$catalina_base"/{conf,lib,logs,temp,webapps,work}
cp -r "$catalina_home/conf/." "$catalina_base/conf/"

# Runs one block; prints its verdict, and its output when it failed. Returns 1 when it failed.
run_block() { # page, line, mode, script
  local page=$1 line=$2 mode=$3 script=$4
  local log="$script.log" rc_file="$script.rc" start=$EPOCHREALTIME outcome="" rc
  rm -f "$rc_file"
  # the block's own session, so that it and everything it starts share one process group, $group
  local -a launch=(setsid bash -c 'bash -e -o pipefail "$1" > "$2" 2>&1 < /dev/null; echo $? > "$3"' block "$script" "$log" "$rc_file")
  if [ "$isolated" = 1 ]; then
    launch=(unshare -rn bash -c 'ip link set lo up && exec "$@"' isolated "${launch[@]}")
  fi
  (cd "$clone" && TMPDIR="$work/tmp" CATALINA_HOME="$catalina_home" CATALINA_BASE="$catalina_base" exec "${launch[@]}") &
  group=$!
  local deadline=$((SECONDS + timeout_secs))
  while [ ! -s "$rc_file" ]; do
    if [ "$mode" = serves ] && grep -q 'ready: transport=' "$log" 2>/dev/null; then outcome=ready; break; fi
    if [ "$SECONDS" -ge "$deadline" ]; then outcome=timeout; break; fi
    sleep 0.2
  done
  rc=$(cat "$rc_file" 2>/dev/null || echo "")
  # a server to stop: the one a 'serves' block ran, or what a block that failed or overran left behind
  if [ -n "$outcome" ] || [ "$rc" != 0 ]; then kill -TERM -- "-$group" 2>/dev/null || true; fi
  wait "$group" 2>/dev/null || true
  # what the block started and stopped may take a moment to exit (a server finishing its requests)
  local left=""
  for _ in $(seq 1 150); do kill -0 -- "-$group" 2>/dev/null || break; sleep 0.2; done
  if kill -0 -- "-$group" 2>/dev/null; then
    left=$(group_members)
    kill -KILL -- "-$group" 2>/dev/null || true
  fi
  group=""
  local secs
  secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  local failure=""
  case "$mode:$outcome" in
    serves:ready) ;;
    serves:timeout) failure="no ready line within ${timeout_secs} s" ;;
    serves:) failure="ended (exit $rc) before its server was ready" ;;
    runs:timeout) failure="did not end within ${timeout_secs} s" ;;
    runs:) [ "$rc" = 0 ] || failure="exit $rc" ;;
  esac
  [ -z "$failure" ] && [ -n "$left" ] && [ "$mode" = runs ] && failure="left running 30 s after it ended: $left"
  if [ -z "$failure" ]; then
    printf 'readme-check: %s:%s ok (%s s)\n' "$page" "$line" "$secs"
    return 0
  fi
  printf 'readme-check: %s:%s FAILED: %s (%s s)\n' "$page" "$line" "$failure" "$secs"
  echo "  the block:"; sed 's/^/  | /' "$script"
  local lines
  lines=$(wc -l < "$log")
  if [ "$lines" -le 150 ]; then
    echo "  its output:"; sed 's/^/  > /' "$log"
  else # the start (where a first error usually is) and the end
    echo "  its output (the first 40 and the last 100 of $lines lines):"
    head -n 40 "$log" | sed 's/^/  > /'; echo "  > ..."; tail -n 100 "$log" | sed 's/^/  > /'
  fi
  return 1
}

start=$EPOCHREALTIME
ran=0 failed=0
while read -r page line mode script; do
  if [ "${#only[@]}" -gt 0 ] && [ -z "${only[$page:$line]:-}" ]; then continue; fi
  ran=$((ran + 1))
  run_block "$page" "$line" "$mode" "$script" < /dev/null || failed=$((failed + 1))
done < "$work/blocks.txt"
secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.0f", b - a }')
[ "$ran" -gt 0 ] || { echo "readme-check: no marked block at ${!only[*]}" >&2; exit 1; }
echo "readme-check: $((ran - failed)) of $ran blocks ok in $secs s (the build before them: $build_secs s)"
[ "$failed" = 0 ]
