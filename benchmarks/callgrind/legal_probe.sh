#!/usr/bin/env bash
# Callgrind instructions of legal_actions inside real random playouts (memos as they are, GC
# included), by phase or by family of the start of a turn: collection is toggled on around the
# measured calls only: each runs inside a call of math.prod, and callgrind's
# --toggle-collect=math_prod collects there only (the method of rl_env_instructions.sh).
#
#   benchmarks/callgrind/legal_probe.sh [MODE...]   MODE: all | start | "second card" |
#       "keep tickets" | tunnel | "initial tickets" | draws | claims | tickets | stations
# Prints the instructions per measured call and per decision (2 games, 4 players, after a
# warm-up game; PYTHONHASHSEED=0). "none" toggles around nothing: its cost is subtracted.
set -euo pipefail
here=$(git rev-parse --show-toplevel)
python=${PYTHON:-$here/.venv/bin/python}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {
  PYTHONHASHSEED=0 PYTHONPATH="$here/src:$here/maps" valgrind --tool=callgrind --collect-atstart=no --toggle-collect=math_prod \
    --callgrind-out-file="$out/cg" "$python" "$here/benchmarks/callgrind/legal_probe.py" "$1" 2 >"$out/line" 2>/dev/null
  callgrind_annotate "$out/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ && !t {gsub(",", "", $1); t = $1} END {print t}'
}
none=$(count none)
modes=("$@")
[[ $# -gt 0 ]] || modes=(all)
for mode in "${modes[@]}"; do
  total=$(count "$mode")
  "$python" - "$mode" "$total" "$none" "$(cat "$out/line")" <<'PY'
import ast, sys
mode, total, none, line = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
decisions = int(line.split()[1])
phases = ast.literal_eval(line.split(" ", 2)[2])
calls = decisions if mode == "all" else phases.get(mode, phases["start"])
per_toggle = none / decisions
spent = total - per_toggle * calls
print(f"{mode:16} {spent / calls:9.0f} per call ({calls} calls) {spent / decisions:9.0f} per decision")
PY
done
