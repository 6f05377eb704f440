# shellcheck shell=bash
# Finds a JDK 25 (or newer) for Petrel's scripts. Sourced by ./petrel and ./mvnw.
# Order: $JAVA_HOME, then the usual install places. Sets PETREL_JAVA_HOME or
# prints one clear line and returns non-zero.

petrel_jdk_feature() { # prints the feature release of the JDK at $1 (e.g. 25), or nothing
  local home=$1 version
  [ -x "$home/bin/java" ] || return 1
  # building needs a JDK; the distribution's launcher (PETREL_RUNTIME_ONLY=1) runs on a runtime too
  [ "${PETREL_RUNTIME_ONLY:-0}" = 1 ] || [ -x "$home/bin/javac" ] || return 1
  if [ -f "$home/release" ]; then
    version=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$home/release")
  fi
  if [ -z "$version" ]; then
    version=$("$home/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1)
  fi
  [ -n "$version" ] && printf '%s\n' "$version"
}

petrel_find_jdk() {
  local candidate feature
  local -a places=()
  [ -n "${JAVA_HOME:-}" ] && places+=("$JAVA_HOME")
  for candidate in /usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/lib/jvm/* \
                   "$HOME"/.sdkman/candidates/java/* "$HOME"/.jdks/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -d "$candidate" ] && places+=("$candidate")
  done
  for candidate in "${places[@]}"; do
    feature=$(petrel_jdk_feature "$candidate") || continue
    if [ -n "$feature" ] && [ "$feature" -ge 25 ]; then
      PETREL_JAVA_HOME=$(cd "$candidate" && pwd -P)
      export PETREL_JAVA_HOME
      return 0
    fi
  done
  echo "petrel: no JDK 25 found (looked at \$JAVA_HOME and /usr/lib/jvm, /opt/java, ~/.sdkman, ~/.jdks); install one or set JAVA_HOME to it" >&2
  return 1
}
