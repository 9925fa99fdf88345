# Sourced by scripts/*: the one place that decides whether a build is stale. Builds the modules owning the given
# jars (-pl MODULES -am) when a jar is missing or older than any source or POM, and a C program when its binary is
# missing or older than its source or a header beside it. Needs scripts/lib/java.sh sourced first.

xferbench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# The build is a child like any other (child.sh): a SIGKILLed script's Maven JVM gets TERM from the kernel (the
# wrapper ends with exec java, which keeps the parent-death signal), and a TERM, INT or HUP of the script stops it.
# A killed build leaves no jar that looks current: the shade plugin writes NAME-VERSION-shaded.jar and renames it.
source "$xferbench_root/scripts/lib/child.sh"

xferbench_build_if_stale() {  # args: jar paths that must exist and be fresh
  local jar stale=0 modules=""
  for jar in "$@"; do
    modules="${modules:+$modules,}${jar%%/*}"
  done
  for jar in "$@"; do
    if [ ! -f "$xferbench_root/$jar" ]; then stale=1; break; fi
    if [ -n "$(find "$xferbench_root" -path "$xferbench_root/.git" -prune -o \
                 \( -name pom.xml -o -path '*/src/main/*' -o -path '*/src/launcher/*' \) -type f -newer "$xferbench_root/$jar" -print -quit)" ]; then
      stale=1; break
    fi
  done
  if [ "$stale" = 1 ]; then
    echo "xferbench: building $* (./mvnw -pl $modules -am package -DskipTests) ..." >&2
    xferbench_run env -C "$xferbench_root" ./mvnw -q -B -pl "$modules" -am package -DskipTests >&2  # mvnw records the git commit
  fi
}

xferbench_cc_if_stale() {  # args: C source, binary (paths from the repository root), then libraries (-luring); gcc -O2
  local src="$xferbench_root/$1" bin="$xferbench_root/$2" dep stale=0
  shift 2
  mkdir -p "$(dirname "$bin")"
  if [ ! -x "$bin" ]; then stale=1; fi
  for dep in "$src" "$(dirname "$src")"/*.h; do  # the source and the headers beside it (twin_common.h)
    if [ -f "$dep" ] && [ "$dep" -nt "$bin" ]; then stale=1; fi
  done
  if [ "$stale" = 1 ]; then
    gcc -O2 -Wall -Wextra -o "$bin" "$src" "$@"
  fi
}
