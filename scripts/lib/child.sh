# Sourced by scripts/*: runs a long command (a client, a JMH run) as a child that a TERM, INT or HUP sent to the
# script alone stops too. A foreground child would be orphaned: bash runs a trap only once its foreground child has
# ended, and a Ctrl-C reaches the whole process group but `kill PID` of the script does not. The child always gets
# TERM (a background child of a script starts with INT ignored) and its own shutdown hooks clean up; then the script
# runs its EXIT trap itself (bash skips it for a signal re-raised from a trap) and dies by the signal it got, so a
# calling shell sees the signal, not an exit status.

xferbench_child=

xferbench_forward_signal() {
  local signal=$1 on_exit
  trap '' INT TERM HUP  # a second signal must not cut the cleanup short
  if [ -n "$xferbench_child" ]; then
    kill -TERM "$xferbench_child" 2>/dev/null || true
    wait "$xferbench_child" 2>/dev/null || true
    xferbench_child=
  fi
  on_exit=$(trap -p EXIT)
  trap - EXIT
  if [ -n "$on_exit" ]; then
    eval "on_exit=(${on_exit})"  # trap -- 'COMMAND' EXIT
    eval "${on_exit[2]}" || true
  fi
  trap - "$signal"
  kill -s "$signal" $$
}
trap 'xferbench_forward_signal TERM' TERM
trap 'xferbench_forward_signal INT' INT
trap 'xferbench_forward_signal HUP' HUP

# A SIGKILLed script runs no trap: its children get TERM from the kernel instead (util-linux setpriv's parent-death
# signal, kept across exec; their own shutdown hooks clean up). Without setpriv they run on, as before.
xferbench_with_parent=()
[ -x /usr/bin/setpriv ] && xferbench_with_parent=(/usr/bin/setpriv --pdeathsig TERM --)

# Runs "$@" as the script's child and returns its exit status.
xferbench_run() {
  local status=0
  "${xferbench_with_parent[@]}" "$@" <&0 &
  xferbench_child=$!
  wait "$xferbench_child" || status=$?
  xferbench_child=
  return "$status"
}
