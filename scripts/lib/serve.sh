# Sourced by scripts/bench*: starts xferbench servers and proxies on loopback (each on a free port), stops them
# all when the script exits, and renders a client's JSON report. Needs scripts/lib/java.sh sourced first.

xferbench_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
source "$xferbench_root/scripts/lib/child.sh"
xferbench_pids=()

xferbench_stop_all() {
  local i pid
  trap '' INT TERM HUP  # a second Ctrl-C must not leave a server running
  for ((i = ${#xferbench_pids[@]} - 1; i >= 0; i--)); do  # last started (the proxy) first
    kill "${xferbench_pids[$i]}" 2>/dev/null || true
  done
  for pid in "${xferbench_pids[@]}"; do
    wait "$pid" 2>/dev/null || true
  done
}
trap xferbench_stop_all EXIT

# Runs the server jar with the given arguments plus --port 0, waits for its "listening on HOST:PORT" line and
# sets xferbench_port (and xferbench_pid), and for a server started with --tls (or --tls-cert/--tls-key)
# xferbench_tls_cert, the certificate its TLS methods serve with (the line's "tls-cert=PATH": a client passes it as
# --tls-ca; empty without them, and the server refuses the TLS methods). Works for a server and for a proxy (--proxy-to).
xferbench_start() {
  local log fd pid
  # The log is unlinked as soon as it is open: the server writes to it and the script reads it through descriptors,
  # so a SIGKILLed script (no trap runs) leaves no file behind.
  log=$(mktemp)
  exec {fd}<>"$log"
  rm -f "$log"
  log=/proc/$$/fd/$fd
  "${xferbench_with_parent[@]}" "$JAVA" -jar "$xferbench_root/server/target/xferbench-server.jar" "$@" --port 0 >&"$fd" 2>&1 &
  pid=$!
  xferbench_pids+=("$pid")
  for _ in $(seq 1 300); do
    grep -q "listening on" "$log" && break
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; echo "xferbench: server failed to start: $*" >&2; exit 2; }
    sleep 0.1
  done
  xferbench_port=$(sed -n 's/^xferbench-[a-z]* listening on [^ ]*:\([0-9]*\).*$/\1/p' "$log" | head -n1)
  [ -n "$xferbench_port" ] || { cat "$log" >&2; echo "xferbench: server did not report its port: $*" >&2; exit 2; }
  xferbench_tls_cert=$(sed -n 's/^xferbench-server listening on [^ ]* .*tls-cert=\(.*\)$/\1/p' "$log" | head -n1)
  xferbench_pid=$pid
}

# --netns: runs the client command $1 (download, upload, proxy) over a veth pair between two network namespaces
# (`client veth`, which makes and always removes them) and writes its JSON report to $2; the rest are client options
# plus --mtu N, --netem SPEC, --qdisc SPEC, --server-data-dir DIR, --proxy-args ARGS (docs/two-hosts.md).
xferbench_over_veth() {
  local command=$1 json=$2
  shift 2
  xferbench_run "$JAVA" -jar "$xferbench_root/client/target/xferbench-client.jar" veth "$command" \
    --server-jar "$xferbench_root/server/target/xferbench-server.jar" "$@" --format json --out "$json"
}

# Splits a bench script's arguments: the user's report options (--format, --out, --chart) go to
# xferbench_report_args, the rest to xferbench_run_args. The run itself always writes its JSON under results/; the
# user's renderings are made from that JSON afterwards (xferbench_render), so neither silently overrides the other.
xferbench_split_report_options() {
  xferbench_run_args=()
  xferbench_report_args=()
  while [ $# -gt 0 ]; do
    case $1 in
      --format | --out | --chart)
        [ $# -ge 2 ] || { echo "xferbench: $1 needs a value" >&2; exit 2; }
        xferbench_report_args+=("$1" "$2")
        shift 2 ;;
      --format=* | --out=* | --chart=*)
        xferbench_report_args+=("$1")
        shift ;;
      *)
        xferbench_run_args+=("$1")
        shift ;;
    esac
  done
}
xferbench_report_args=()

# Checks the user's --format/--out/--chart (xferbench_report_args) before the run, so that one the rendering could not
# write is a usage error now rather than after the run: the client's render checks them (exit 2) before it reads its
# input, here one that does not exist (exit 1: the options are fine).
xferbench_check_report_options() {
  [ ${#xferbench_report_args[@]} -gt 0 ] || return 0
  local err status=0
  err=$("${xferbench_with_parent[@]}" "$JAVA" -jar "$xferbench_root/client/target/xferbench-client.jar" render "$xferbench_root/results/no-such-report.json" \
    "${xferbench_report_args[@]}" 2>&1 >/dev/null) || status=$?
  if [ "$status" -eq 2 ]; then
    echo "$err" >&2
    exit 2
  fi
}

# Prints the table of a client's JSON report, or renders it as the user asked (xferbench_report_args); writes its
# HTML report (FILE.html: tables, charts, environment) and its charts (FILE.png/.svg, FILE-cpu.*, FILE-syscalls.*)
# next to it. Fails when the user's rendering fails (e.g. several formats without --out).
xferbench_render() {
  local json=$1 status=0
  # Under the parent-death signal as every child here: a SIGKILLed script leaves no rendering running on.
  local client=("${xferbench_with_parent[@]}" "$JAVA" -jar "$xferbench_root/client/target/xferbench-client.jar")
  "${client[@]}" render "$json" "${xferbench_report_args[@]}" || status=$?
  "${client[@]}" render "$json" --format html --out "${json%.json}.html" --chart "${json%.json}.png" 2>/dev/null \
    || echo "xferbench: no HTML report or charts (see: ${client[*]} render $json --format html --out F)" >&2
  echo "results: $json (report: ${json%.json}.html, charts: ${json%.json}*.png, .svg)"
  return "$status"
}

# Whether the arguments after the first contain the option $1 (as "$1 VALUE" or "$1=VALUE").
xferbench_has_option() {
  local want=$1 arg
  shift
  for arg in "$@"; do
    [ "$arg" = "$want" ] || [ "${arg%%=*}" = "$want" ] && return 0
  done
  return 1
}
