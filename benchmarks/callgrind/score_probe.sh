#!/usr/bin/env bash
# Callgrind instructions of one call of final_scores, winners and longest_path (one seat) on
# the mid-game and terminal states of GAMES random 2- and 4-player games (score_probe.py: each
# set's loop inside one call of math.prod, one dump each), minus the loop's own cost.
#
#   benchmarks/callgrind/score_probe.sh [GAMES] [TREE]   (defaults: 20 .)
# TREE is the checkout whose src/ and maps/ are measured; the probe is always this tree's.
# KEEP=DIR keeps the callgrind dumps there (callgrind_annotate).
set -euo pipefail
here=$(git rev-parse --show-toplevel)
games=${1:-20} tree=${2:-$here}
python=${PYTHON:-$here/.venv/bin/python}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
PYTHONHASHSEED=0 PYTHONPATH="$tree/src:$tree/maps" valgrind --tool=callgrind --collect-atstart=no \
  --toggle-collect=math_prod --dump-after=math_prod --callgrind-out-file="$out/cg" \
  "$python" "$here/benchmarks/callgrind/score_probe.py" "$games" >"$out/log" 2>/dev/null
count=$(wc -l <"$out/log")
mapfile -t dumps < <(cd "$out" && ls cg.* | sort -t. -k2 -n | tail -n "$count" | sed "s|^|$out/|")
[[ -z ${KEEP:-} ]] || cp "${dumps[@]}" "$KEEP/"
declare -A base
i=0
while read -r name label calls; do
  total=$(callgrind_annotate "${dumps[$i]}" 2>/dev/null | awk '/PROGRAM TOTALS/ && !t {gsub(",", "", $1); t = $1} END {print t}')
  i=$((i + 1))
  if [[ $name == none ]]; then
    base[$label]=$((total / calls))
    continue
  fi
  awk -v n="$name" -v l="$label" -v t="$total" -v c="$calls" -v b="${base[$label]}" -v g="$games" 'BEGIN {
    seats = c / g; loop = (n == "longest_path") ? b * g / c : b
    printf "%-13s %-5s %9.0f instructions per call (%d calls)\n", n, l, t / c - loop, c }'
done <"$out/log"
