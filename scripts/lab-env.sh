# Sourced by the scripts that run the lab's server classes by hand (thread-cost.sh, cpu-profile.sh):
#   . scripts/lab-env.sh && petrel_lab_ready NAME TOOL...
# checks that each TOOL is installed and that the lab is built (bench/target/lib), naming NAME in
# what it prints, and sets PETREL_JAVA_HOME to a JDK 25 (scripts/jdk.sh). Exits 1 when anything is missing.

petrel_lab_ready() {
  local name=$1 tool
  shift
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$name: $tool is not installed" >&2; exit 1; }
  done
  [ -d bench/target/lib ] || {
    echo "$name: no bench/target/lib; build the lab first: ./mvnw -q -Dmaven.test.skip=true -pl bench -am package" >&2
    exit 1
  }
  # shellcheck source=scripts/jdk.sh
  . scripts/jdk.sh
  petrel_find_jdk
}
