#!/usr/bin/env bash
# pjrtx launch: N processes with their ids and one coordinator, output
# prefixed by rank, the first failure's exit code, the others stopped (SIGKILL
# when they ignore SIGTERM) and none left behind; bad usage exits 2.
#   launch_test.sh PJRTX_BINARY
set -u
pjrtx=$1
failures=0
checks=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

check() {  # description, condition
  checks=$((checks + 1))
  if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}

now_ms() { date +%s%3N; }

# Whether a process is running (a zombie waiting for init counts as gone).
running() {
  local state
  state=$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null) || return 1
  [ -n "$state" ] && [ "$state" != Z ]
}

# None of the pids in $work/$1/*.pids runs: the ranks themselves have been
# reaped (kill -0 fails), what they started is at most a zombie.
none_left() {
  local file rank child
  for file in "$work/$1"/*.pids; do
    [ -e "$file" ] || return 1
    read -r rank child <"$file"
    kill -0 "$rank" 2>/dev/null && return 1
    running "$child" && return 1
  done
  return 0
}

# --- ids, counts, coordinator and prefixes ---
unset PJRTX_COORDINATOR
"$pjrtx" launch -n 3 -- sh -c \
  'echo "id=$PJRTX_PROCESS_ID n=$PJRTX_NUM_PROCESSES c=$PJRTX_COORDINATOR"
   echo "to stderr $PJRTX_PROCESS_ID" >&2
   printf "unended $PJRTX_PROCESS_ID"' \
  >"$work/out" 2>"$work/err"; rc=$?
check "3 ranks exit 0" "[ $rc -eq 0 ]"
check "6 stdout lines" "[ \$(wc -l <'$work/out') -eq 6 ]"
check "every stdout line is prefixed" "! grep -Ev '^\[[0-2]\] ' '$work/out'"
for i in 0 1 2; do
  check "rank $i has id $i of 3" \
    "grep -Eq '^\[$i\] id=$i n=3 c=127\.0\.0\.1:[0-9]+\$' '$work/out'"
  check "rank $i stderr is prefixed" "grep -qx '\[$i\] to stderr $i' '$work/err'"
  check "rank $i unended last line is written" \
    "grep -qx '\[$i\] unended $i' '$work/out'"
done
check "one coordinator for all ranks" \
  "[ \$(grep -o 'c=.*' '$work/out' | sort -u | wc -l) -eq 1 ]"
check "stderr has nothing else" "[ \$(wc -l <'$work/err') -eq 3 ]"

out=$(PJRTX_COORDINATOR=10.1.2.3:4567 "$pjrtx" launch -n 2 -- sh -c \
  'echo "$PJRTX_COORDINATOR"' 2>&1); rc=$?
check "a set PJRTX_COORDINATOR is passed through" \
  "[ $rc -eq 0 ] && [ \"\$(sort -u <<<\"\$out\")\" = '[0] 10.1.2.3:4567
[1] 10.1.2.3:4567' ]"

# --- a failing rank stops the others (and what they started) ---
# Ranks 0 and 2 start a background sleep, record "their pid, its pid" and
# wait; rank 1 fails once both have recorded theirs.
mkdir "$work/fail"
start=$(now_ms)
PIDS="$work/fail" "$pjrtx" launch -n 3 -- sh -c \
  'if [ "$PJRTX_PROCESS_ID" = 1 ]; then
     while [ ! -e "$PIDS/0.pids" ] || [ ! -e "$PIDS/2.pids" ]; do sleep 0.05; done
     echo failing; exit 3
   fi
   sleep 30 & echo "$$ $!" >"$PIDS/tmp.$$"; mv "$PIDS/tmp.$$" "$PIDS/$PJRTX_PROCESS_ID.pids"
   wait' >"$work/out" 2>"$work/err"; rc=$?
elapsed=$(( $(now_ms) - start ))
check "the failing rank's code is returned" "[ $rc -eq 3 ]"
check "the others are stopped quickly (${elapsed} ms)" "[ $elapsed -lt 10000 ]"
check "the failure is named" \
  "grep -qx 'pjrtx launch: rank 1 exited with code 3; stopping the other 2 processes' '$work/err'"
check "the failing rank's output is relayed" "grep -qx '\[1\] failing' '$work/out'"
check "no rank or sleep 30 is left" "none_left fail"

# --- SIGKILL when SIGTERM is ignored ---
mkdir "$work/ignore"
start=$(now_ms)
PIDS="$work/ignore" "$pjrtx" launch -n 2 --grace-seconds 1 -- sh -c \
  'if [ "$PJRTX_PROCESS_ID" = 0 ]; then
     while [ ! -e "$PIDS/1.pids" ]; do sleep 0.05; done
     kill -KILL $$
   fi
   trap "" TERM
   sleep 30 & echo "$$ $!" >"$PIDS/tmp.$$"; mv "$PIDS/tmp.$$" "$PIDS/1.pids"
   wait' >"$work/out" 2>"$work/err"; rc=$?
elapsed=$(( $(now_ms) - start ))
check "a signal death returns 128+signal" "[ $rc -eq 137 ]"
check "the signal is named" \
  "grep -q 'pjrtx launch: rank 0 was killed by signal 9' '$work/err'"
check "SIGKILL follows the 1 s grace period (${elapsed} ms)" \
  "[ $elapsed -ge 1000 ] && [ $elapsed -lt 5000 ]"
check "the SIGKILL is reported" \
  "grep -qx 'pjrtx launch: sending SIGKILL to 1 process still running' '$work/err'"
check "the rank ignoring SIGTERM is gone" "none_left ignore"

# --- SIGTERM to the launcher stops every rank ---
mkdir "$work/interrupt"
PIDS="$work/interrupt" "$pjrtx" launch -n 2 -- sh -c \
  'sleep 30 & echo "$$ $!" >"$PIDS/tmp.$$"; mv "$PIDS/tmp.$$" "$PIDS/$PJRTX_PROCESS_ID.pids"
   wait' >"$work/out" 2>"$work/err" &
launcher=$!
for _ in $(seq 100); do
  [ -e "$work/interrupt/0.pids" ] && [ -e "$work/interrupt/1.pids" ] && break
  sleep 0.05
done
kill -TERM "$launcher"
wait "$launcher"; rc=$?
check "an interrupted launcher returns the ranks' 128+SIGTERM" "[ $rc -eq 143 ]"
check "the interruption is reported" \
  "grep -qx 'pjrtx launch: received SIGTERM; stopping 2 processes' '$work/err'"
check "no rank is left after the interruption" "none_left interrupt"

# --- bad usage ---
usage_error() {  # description, expected message, args...
  local description=$1 message=$2
  shift 2
  out=$("$pjrtx" launch "$@" 2>&1); rc=$?
  check "$description exits 2" "[ $rc -eq 2 ]"
  check "$description says so" "grep -qF -- \"\$message\" <<<\"\$out\""
  check "$description prints the usage" "grep -q 'usage: pjrtx launch -n N' <<<\"\$out\""
}
usage_error "missing -n" "missing -n N" -- true
usage_error "-n 0" "-n '0' is not a whole number from 1" -n 0 -- true
usage_error "-n abc" "-n 'abc' is not a whole number from 1" -n abc -- true
usage_error "bad grace" "--grace-seconds 'soon' is not a number of seconds" \
  -n 1 --grace-seconds soon -- true
usage_error "missing --" "expected '--' before the program, got 'true'" -n 2 true
usage_error "missing program" "missing the program to run after '--'" -n 2 --
usage_error "unknown flag" "unknown flag '--bogus'" -n 2 --bogus -- true

out=$("$pjrtx" launch -n 2 -- no-such-program-pjrtx 2>&1); rc=$?
check "a missing program exits 127" "[ $rc -eq 127 ]"
check "a missing program is named" \
  "grep -qF \"program 'no-such-program-pjrtx' not found in PATH\" <<<\"\$out\""

out=$("$pjrtx" --help 2>&1)
check "pjrtx --help lists launch" "grep -q 'launch -n N' <<<\"\$out\""

echo "$(( checks - failures )) passed, $failures failed"
[ $failures -eq 0 ]
