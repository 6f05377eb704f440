#!/usr/bin/env bash
# Rewrites README.md's figure blocks from the lab's published results, bench/RESULTS.md, so the
# figures README shows are taken from the results file rather than typed in.
#   scripts/readme-figures.sh           rewrite README.md
#   scripts/readme-figures.sh --check   exit 1 when README.md's figures differ from bench/RESULTS.md
# A block is the lines between '<!-- figures:begin NAME -->' and '<!-- figures:end -->'; NAME is
# 'headline' (the report's headline table) or a scenario (e.g. 'connectors': its overview table,
# rows without any figure left out). Nothing outside the blocks changes. After
# './petrel bench ... --publish', run this and commit README.md with bench/RESULTS.md.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=scripts/jdk.sh
. "$here/scripts/jdk.sh"
petrel_find_jdk || exit 1
export JAVA_HOME=$PETREL_JAVA_HOME

# dev.petrel.bench.report.ReadmeFigures needs the bench module's classes only (no peer, no library)
classes="$here/bench/target/classes"
main="$classes/dev/petrel/bench/report/ReadmeFigures.class"
if [ ! -f "$main" ] || [ -n "$(find "$here/bench/pom.xml" "$here/bench/src/main" -newer "$main" -print -quit 2>/dev/null)" ]; then
  echo "readme-figures: compiling the benchmark lab (./mvnw compile -pl bench -am)" >&2
  if ! (cd "$here" && ./mvnw -q -B -Dmaven.test.skip=true -pl bench -am compile >&2); then
    echo "readme-figures: the build failed; see the Maven output above" >&2
    exit 1
  fi
fi
exec "$JAVA_HOME/bin/java" -cp "$classes" dev.petrel.bench.report.ReadmeFigures "$@" "$here/README.md" "$here/bench/RESULTS.md"
