# Sourced by the bench scripts: where a run keeps its results.

# PREFIX-<UTC second>-<pid>: the second orders runs, the pid keeps two started in the same second apart (they wrote one
# file, and each printed the other's numbers).
xferbench_result_stem() {
  printf '%s-%s-%s' "$1" "$(date -u +%Y%m%dT%H%M%SZ)" "$$"
}
