#!/usr/bin/env bash
# Instructions per decision of each engine entry point, counted by callgrind (stable on a
# loaded machine): legal_actions, apply_action, observe, determinize, view_legal_actions, each
# replayed once over the recorded decisions of G random games, minus a baseline run:
#
#   * legal_actions, apply_action, observe: minus "none" (recording the games alone);
#   * determinize, view_legal_actions: minus "views" (recording the games and making the
#     views they are called on: one observe per decision, done before the measured calls),
#     so that their figures hold no observe. The last line sums the three view functions.
#
# TREE (default: this working tree) is the checkout whose src/ and maps/ are measured; the
# driver is always this tree's benchmarks/games.py (public API only). Set PYTHONHASHSEED=0
# for figures that repeat to a few instructions.
#
#   benchmarks/parts.sh [GAMES] [PLAYERS] [TREE]
set -euo pipefail
games=${1:-1} players=${2:-4}
here=$(git rev-parse --show-toplevel)
tree=${3:-$here}
python=${PYTHON:-$here/.venv/bin/python}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
declare -A total=() base=(
  [legal_actions]=none [apply_action]=none [observe]=none
  [determinize]=views [view_legal_actions]=views
)
parts=(none views legal_actions apply_action observe determinize view_legal_actions)
for part in "${parts[@]}"; do
  line=$(PYTHONPATH="$tree/src:$tree/maps" valgrind --tool=callgrind --callgrind-out-file="$out/$part" \
    "$python" "$here/benchmarks/games.py" --games "$games" --players "$players" --part "$part" 2>/dev/null)
  decisions=$(awk '{print $2}' <<<"$line")
  total[$part]=$(callgrind_annotate "$out/$part" 2>/dev/null | awk '/PROGRAM TOTALS/ && !t {gsub(",", "", $1); t = $1} END {print t}')
done
per() { echo $(( (total[$1] - total[${base[$1]}]) / decisions )); }
apply=$(per apply_action)
echo "$decisions decisions of $games game(s), $players players; instructions per decision:"
views=0
for part in "${parts[@]:2}"; do
  n=$(per "$part")
  case $part in observe | determinize | view_legal_actions) views=$((views + n)) ;; esac
  awk -v p="$part" -v n="$n" -v a="$apply" -v b="${base[$part]}" \
    'BEGIN {printf "%-20s %10d  %5.2f x apply_action  (minus %s)\n", p, n, n / a, b}'
done
awk -v n="$views" -v a="$apply" 'BEGIN {printf "%-20s %10d  %5.2f x apply_action\n", "the three views", n, n / a}'
