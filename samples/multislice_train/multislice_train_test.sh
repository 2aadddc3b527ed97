#!/usr/bin/env bash
# The multislice demo as the README runs it (no arguments: it starts its 2
# slices through `pjrtx launch`): it exits 0 only if the loss fell 10x and
# every step moved between host and chips only the batch, the loss and the
# DCN staging; here also 0 < MFU <= 1. Then a traced run with overlap on:
# some chip's row must show a collective running while that chip computes.
#   multislice_train_test.sh MULTISLICE_TRAIN
set -u
train=$1
failures=0
check() {  # description, condition
  if eval "$2"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$train" >"$work/demo.txt" 2>&1
code=$?
cat "$work/demo.txt"
check "the demo exits 0 (loss down 10x, only batch/loss/staging transfers)" \
  '[ "$code" -eq 0 ]'
check "it ends with loss first=... last=..." \
  'grep -Eq "^\[0\] loss first=[0-9.]+ last=[0-9.]+$" "$work/demo.txt"'
mfu=$(sed -n 's/^\[0\] mfu=\([0-9.e+-]*\)$/\1/p' "$work/demo.txt")
check "0 < MFU <= 1 (mfu=$mfu)" \
  'awk -v m="$mfu" "BEGIN { exit !(m > 0 && m <= 1) }"'

"$train" --overlap=on --dcn-gbps=0.05 --trace="$work/trace.json" \
  >"$work/traced.txt" 2>&1
code=$?
check "the traced run exits 0 (code $code)" '[ "$code" -eq 0 ]'
check "one trace file per slice" \
  '[ -s "$work/trace.0.json" ] && [ -s "$work/trace.1.json" ]'
overlap=$(python3 - "$work/trace.0.json" <<'PY'
import json, sys
events = [e for e in json.load(open(sys.argv[1]))["traceEvents"] if e["ph"] == "X"]
rows = {}
for e in events:
    rows.setdefault(e["tid"], []).append(e)
best = 0.0
for row in rows.values():
    compute = [e for e in row if e["cat"] == "compute"]
    for c in (e for e in row if e["cat"] == "collective"):
        for k in compute:
            both = min(c["ts"] + c["dur"], k["ts"] + k["dur"]) - max(c["ts"], k["ts"])
            best = max(best, both)
print(f"{best:.0f}")
PY
)
check "a chip computes while its collective runs (longest overlap ${overlap} us)" \
  '[ -n "$overlap" ] && [ "$overlap" -gt 100 ]'

echo "$failures failure(s)"
[ "$failures" -eq 0 ]
