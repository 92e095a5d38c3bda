#!/usr/bin/env bash
# Callgrind instructions of a random playout decision by part (issue 16): legal_actions and
# apply_action inside real playouts (memos as they are, garbage collections included),
# collected only inside the measured calls (each wrapped in math.prod, --toggle-collect=math_prod,
# as legal_probe.sh does), minus the wrapper's cost; the previous state is freed outside.
#
#   benchmarks/callgrind/play_probe.sh [MODE...]   MODE: legal | apply | legal:PHASE |
#       apply:CLASS (e.g. apply:DrawFaceUp, legal:start)
# Prints instructions per measured call and per decision (2 games, 4 players, after a warm-up
# game; PYTHONHASHSEED=0). KEEP=DIR keeps each run's callgrind file there (callgrind_annotate).
set -euo pipefail
here=$(git rev-parse --show-toplevel)
python=${PYTHON:-$here/.venv/bin/python}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {
  PYTHONHASHSEED=0 PYTHONPATH="$here/src:$here/maps" valgrind --tool=callgrind --collect-atstart=no --toggle-collect=math_prod \
    --callgrind-out-file="$out/cg" "$python" "$here/benchmarks/callgrind/play_probe.py" "$1" 2 >"$out/line" 2>/dev/null
  [[ -z ${KEEP:-} ]] || cp "$out/cg" "$KEEP/cg.${1//[: ]/_}"
  callgrind_annotate "$out/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ && !t {gsub(",", "", $1); t = $1} END {print t}'
}
none=$(count none)
modes=("$@")
[[ $# -gt 0 ]] || modes=(legal apply)
for mode in "${modes[@]}"; do
  total=$(count "$mode")
  read -r _ decisions _ calls <"$out/line"
  awk -v m="$mode" -v t="$total" -v n="$none" -v d="$decisions" -v c="$calls" 'BEGIN {
    s = t - n / d * c
    printf "%-24s %9.0f per call (%d calls) %9.0f per decision\n", m, s / c, c, s / d }'
done
