#!/usr/bin/env bash
# Callgrind instructions of one determinize call on the views of a recorded 4-player game
# (357 views), counted inside the calls only (det_probe.py; PYTHONHASHSEED=0): "fresh" deals
# each view once (as parts.sh), "search" deals each view DEALS times in a row (default 12,
# the mcts agent's determinizations of one view), "shuffle" only the random orders of a fresh
# deal (the keys and the two sorts: the floor of a deal by random keys, nothing built). The loop
# without deals is subtracted.
#
#   benchmarks/callgrind/det_probe.sh [DEALS]
set -euo pipefail
here=$(git rev-parse --show-toplevel)
python=${PYTHON:-$here/.venv/bin/python}
deals=${1:-12}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {
  PYTHONHASHSEED=0 PYTHONPATH="$here/src:$here/maps" valgrind --tool=callgrind --collect-atstart=no \
    --toggle-collect=math_prod --callgrind-out-file="$out/cg" \
    "$python" "$here/benchmarks/callgrind/det_probe.py" "$1" "$2" >"$out/line" 2>/dev/null
  callgrind_annotate "$out/cg" 2>/dev/null | awk '/PROGRAM TOTALS/ && !t {gsub(",", "", $1); t = $1} END {print t}'
}
for mode in fresh search shuffle; do
  n=$([[ $mode == search ]] && echo "$deals" || echo 1)
  none=$(count none "$n")
  total=$(count "$mode" "$n")
  calls=$(awk '{print $2}' "$out/line")
  awk -v m="$mode" -v t="$total" -v z="$none" -v c="$calls" \
    'BEGIN {printf "%-7s %9.0f instructions per deal (%d deals)\n", m, (t - z) / c, c}'
done
