#!/usr/bin/env bash
# Instructions per decision of the engine (legal_actions + apply_action of a random legal
# action) and per PettingZoo environment step (last() + step() of a random index among the
# mask's ones), counted by callgrind (stable on a loaded machine) inside the measured region
# only: benchmarks/rl_env.py --regions runs each way once over GAMES games, after a warm-up
# game, inside a call of math.prod, and callgrind collects only during those calls, so that
# imports, map loading and the warm-up count for nothing. PYTHONHASHSEED is 0 unless set: with
# a random hash seed the same tree's figures vary by about 1.5%.
#
# TREE (default: this working tree) is the checkout whose src/ and maps/ are measured; the
# driver is always this tree's benchmarks/rl_env.py. REGIONS: engine, env, raw, pick
# (comma-separated). pick is the driver's masked random pick alone, over the masks of the same
# games: with env and pick measured, a last line gives the environment's own cost per step
# (last() and step(), env minus pick) against the engine's.
#
#   benchmarks/rl_env_instructions.sh [GAMES] [PLAYERS] [TREE] [REGIONS]   (defaults: 2 2 . engine,env,pick)
set -euo pipefail
here=$(git rev-parse --show-toplevel)
games=${1:-2} players=${2:-2} tree=${3:-$here} regions=${4:-engine,env,pick}
export PYTHONHASHSEED=${PYTHONHASHSEED:-0}
python=${PYTHON:-$here/.venv/bin/python}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
PYTHONPATH="$tree/src:$tree/maps" valgrind --tool=callgrind --collect-atstart=no --toggle-collect=math_prod --dump-after=math_prod \
  --callgrind-out-file="$out/cg" "$python" "$here/benchmarks/rl_env.py" --regions "$regions" \
  --games "$games" --players "$players" >"$out/log" 2>/dev/null
count=$(wc -l <"$out/log")
# One dump per math.prod call, the regions' the last ones, in order.
mapfile -t dumps < <(cd "$out" && ls cg.* | sort -t. -k2 -n | tail -n "$count" | sed "s|^|$out/|")
echo "$players players, $games games; instructions per decision:"
engine=0 env=0 pick=0
i=0
while read -r name decisions; do
  total=$(callgrind_annotate "${dumps[$i]}" 2>/dev/null | awk '/PROGRAM TOTALS/ && !t {gsub(",", "", $1); t = $1} END {print t}')
  per=$((total / decisions))
  case $name in engine) engine=$per ;; env) env=$per ;; pick) pick=$per ;; esac
  if [ "$engine" -gt 0 ]; then
    awk -v n="$name" -v d="$decisions" -v p="$per" -v e="$engine" \
      'BEGIN {printf "%-8s %6d decisions %9d instructions/decision  %4.2fx engine\n", n, d, p, p / e}'
  else
    printf "%-8s %6d decisions %9d instructions/decision\n" "$name" "$decisions" "$per"
  fi
  i=$((i + 1))
done <"$out/log"
if [ "$engine" -gt 0 ] && [ "$env" -gt 0 ] && [ "$pick" -gt 0 ]; then
  awk -v p="$((env - pick))" -v e="$engine" \
    'BEGIN {printf "%-24s %9d instructions/decision  %4.2fx engine\n", "env - pick (the env alone)", p, p / e}'
fi
