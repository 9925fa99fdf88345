# Sourced by scripts/*: what a launcher needs to know of its arguments before it does any work (the Java program
# parses and checks them all).

# Whether the arguments ask for help or the version only: then nothing is installed, built for a run or started.
xferbench_asks_help() {
  local arg
  for arg in "$@"; do
    case $arg in -h | --help | -V | --version) return 0 ;; esac
  done
  return 1
}
