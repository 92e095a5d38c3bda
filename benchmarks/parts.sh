#!/usr/bin/env bash
# Instructions per decision of each engine entry point, counted by callgrind (stable on a
# loaded machine): legal_actions, apply_action, observe, determinize, view_legal_actions, each
# replayed once over the recorded decisions of G random games, minus the recording alone.
#
# TREE (default: this working tree) is the checkout whose src/ and maps/ are measured; the
# driver is always this tree's benchmarks/games.py (public API only).
#
#   benchmarks/parts.sh [GAMES] [PLAYERS] [TREE]
set -euo pipefail
games=${1:-1} players=${2:-4}
here=$(git rev-parse --show-toplevel)
tree=${3:-$here}
python=${PYTHON:-$here/.venv/bin/python}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A total=()
parts=(none legal_actions apply_action observe determinize view_legal_actions)
for part in "${parts[@]}"; do
  line=$(PYTHONPATH="$tree/src:$tree/maps" valgrind --tool=callgrind --callgrind-out-file="$out/$part" \
    "$python" "$here/benchmarks/games.py" --games "$games" --players "$players" --part "$part" 2>/dev/null)
  decisions=$(awk '{print $2}' <<<"$line")
  total[$part]=$(callgrind_annotate "$out/$part" 2>/dev/null | awk '/PROGRAM TOTALS/ && !t {gsub(",", "", $1); t = $1} END {print t}')
done
apply=$(( (total[apply_action] - total[none]) / decisions ))
echo "$decisions decisions of $games game(s), $players players; instructions per decision:"
for part in "${parts[@]:1}"; do
  per=$(( (total[$part] - total[none]) / decisions ))
  awk -v p="$part" -v n="$per" -v a="$apply" 'BEGIN {printf "%-20s %10d  %5.2f x apply_action\n", p, n, n / a}'
done
