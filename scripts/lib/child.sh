# Sourced by scripts/*: runs a long command (a client, a JMH run) as a child that a TERM, INT or HUP sent to the
# script alone stops too. A foreground child would be orphaned: bash runs a trap only once its foreground child has
# ended, and a Ctrl-C reaches the whole process group but `kill PID` of the script does not. The child always gets
# TERM (a background child of a script starts with INT ignored); its own shutdown hooks clean up, then the script
# exits with 128 + the signal's number through `exit`, so that its EXIT trap runs (bash skips it when it dies by a
# signal re-raised after an EXIT trap was set).

xferbench_child=

xferbench_forward_signal() {
  local signal=$1 number=$2
  if [ -n "$xferbench_child" ]; then
    kill -TERM "$xferbench_child" 2>/dev/null || true
    wait "$xferbench_child" 2>/dev/null || true
    xferbench_child=
  fi
  exit $((128 + number))
}
trap 'xferbench_forward_signal TERM 15' TERM
trap 'xferbench_forward_signal INT 2' INT
trap 'xferbench_forward_signal HUP 1' HUP

# Runs "$@" as the script's child and returns its exit status.
xferbench_run() {
  local status=0
  "$@" <&0 &
  xferbench_child=$!
  wait "$xferbench_child" || status=$?
  xferbench_child=
  return "$status"
}
