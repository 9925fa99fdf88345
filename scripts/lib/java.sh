# Sourced by ./mvnw and scripts/*: finds a JDK >= 21 and exports JAVA_HOME and JAVA.
# Order: $JAVA_HOME, `java` on PATH, then every JDK under /usr/lib/jvm (newest first).
# Bash only; defines xferbench_find_jdk and runs it.

xferbench_java_feature() {  # prints the feature release (17, 21, 25, ...) of the java binary $1
  local v
  v=$("$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = //p' | head -n1)
  case "$v" in 1.*) v=${v#1.}; v=${v%%.*} ;; esac
  printf '%s' "${v%%.*}"
}

xferbench_find_jdk() {
  local min=21 candidate home feature
  local -a candidates=()
  [ -n "${JAVA_HOME:-}" ] && candidates+=("$JAVA_HOME")
  if command -v java >/dev/null 2>&1; then
    candidates+=("$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")")
  fi
  for home in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -Vr); do candidates+=("${home%/}"); done
  for candidate in "${candidates[@]}"; do
    [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    feature=$(xferbench_java_feature "$candidate/bin/java")
    if [ -n "$feature" ] && [ "$feature" -ge "$min" ] 2>/dev/null; then
      export JAVA_HOME="$candidate"
      export JAVA="$candidate/bin/java"
      return 0
    fi
  done
  echo "xferbench: no JDK >= $min found (looked at \$JAVA_HOME, java on PATH, /usr/lib/jvm/*)." >&2
  echo "xferbench: install one, e.g. 'apt-get install openjdk-21-jdk-headless' or a Temurin JDK, or set JAVA_HOME." >&2
  return 1
}

xferbench_find_jdk
