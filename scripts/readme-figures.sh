#!/usr/bin/env bash
# Rewrites README.md's headline table from the lab's published results, bench/RESULTS.md, so the
# one table of figures README shows is taken from the results file rather than typed in (every
# other page links to bench/RESULTS.md instead of quoting it).
#   scripts/readme-figures.sh           rewrite README.md
#   scripts/readme-figures.sh --check   exit 1 when README.md's table differs from bench/RESULTS.md
#                                       (2 when README has no figure block left, or RESULTS no such table)
# The table is the lines between '<!-- figures:begin NAME -->' and '<!-- figures:end -->' under
# "Measured: the headline". NAME is 'connectors' today (that scenario's overview table, rows without
# any figure left out); 'headline' takes the report's own headline table, which runs published from
# now on carry. Nothing outside the block changes. After './petrel bench ... --publish', run this
# and commit README.md with bench/RESULTS.md.
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
