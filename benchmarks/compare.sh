#!/usr/bin/env bash
# Compare the playout speed of the working tree with another revision, interleaved in one run.
#
#   benchmarks/compare.sh [--rounds N] [--games G] [--players P] [--instructions] [--views] REV
#
# REV is checked out into a temporary git worktree (removed on exit). Each round runs the same
# driver, benchmarks/games.py of the working tree (public API only), once per tree, alternating
# which goes first, with PYTHONPATH pointing at that tree's src/ and maps/ (no reinstall: the
# driver prints the files it imported, and the script checks they belong to the right tree).
# Prints games/s per round and the median ratio working tree / REV.
#
# --instructions: one run per tree under valgrind's callgrind (instruction counts are stable on a
#   loaded machine, wall time is not); prints instructions per decision and the ratio.
# --mcts: decisions per second of the mcts agent at its default budget (interleaved rounds).
# --views: mean µs of apply_action, observe, determinize and view_legal_actions (per tree).
set -euo pipefail

rounds=5 games=20 players=4 mode=wall
while [[ $# -gt 1 ]]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --players) players=$2; shift 2 ;;
    --instructions) mode=instructions; shift ;;
    --views) mode=views; shift ;;
    --mcts) mode=mcts; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $# -eq 1 ]] || { sed -n '2,13p' "$0"; exit 2; }
rev=$1

here=$(git rev-parse --show-toplevel)
python=${PYTHON:-$here/.venv/bin/python}
driver=$here/benchmarks/games.py
base=$(mktemp -d)
trap 'git -C "$here" worktree remove --force "$base/tree" >/dev/null 2>&1 || true; rm -rf "$base"' EXIT
git -C "$here" worktree add --detach "$base/tree" "$rev" >/dev/null 2>&1
echo "working tree: $here ($(git -C "$here" rev-parse --short HEAD)$(git -C "$here" diff --quiet || echo ' + changes'))"
echo "base:         $rev ($(git -C "$base/tree" rev-parse --short HEAD))"

# run TREE COMMAND...: COMMAND with TREE's library and maps first on the path.
run() {
  local tree=$1; shift
  PYTHONPATH="$tree/src:$tree/maps" "$@"
}

# check TREE LINE: the driver imported TREE's library and map.
check() {
  local tree=$1 line=$2
  [[ $line == *"lib $tree/src/"* && $line == *"map $tree/maps/"* ]] || {
    echo "driver did not import from $tree: $line" >&2
    exit 1
  }
}

case $mode in
wall)
  declare -a ratios=()
  for ((i = 1; i <= rounds; i++)); do
    if ((i % 2)); then order=("$here" "$base/tree"); else order=("$base/tree" "$here"); fi
    declare -A speed=()
    for tree in "${order[@]}"; do
      line=$(run "$tree" "$python" "$driver" --games "$games" --players "$players" --seed $((i * 1000)))
      check "$tree" "$line"
      speed[$tree]=$(awk '{print $2}' <<<"$line")
    done
    ratio=$(awk -v a="${speed[$here]}" -v b="${speed[$base/tree]}" 'BEGIN {printf "%.3f", a / b}')
    ratios+=("$ratio")
    printf 'round %d: working %8.2f games/s   base %8.2f games/s   ratio %s\n' \
      "$i" "${speed[$here]}" "${speed[$base/tree]}" "$ratio"
    unset speed
  done
  printf '%s\n' "${ratios[@]}" | sort -n |
    awk '{r[NR] = $1} END {m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2;
         printf "median ratio (working / base): %.3f over %d rounds\n", m, NR}'
  ;;
instructions)
  # Instructions of G games minus those of 0 games (imports, map loading and the warm-up game,
  # which both runs share), per decision of the G games.
  count() {  # count TREE GAMES OUT: prints "instructions decisions"
    local line total
    line=$(run "$1" "$(command -v valgrind)" --tool=callgrind --callgrind-out-file="$3" \
      "$python" "$driver" --games "$2" --players "$players" 2>/dev/null)
    check "$1" "$line"
    total=$(callgrind_annotate "$3" 2>/dev/null | awk '/PROGRAM TOTALS/ && !t {gsub(",", "", $1); t = $1} END {print t}')
    echo "$total $(awk '{print $4}' <<<"$line")"
  }
  declare -A per=()
  for tree in "$here" "$base/tree"; do
    name=$([[ $tree == "$here" ]] && echo working || echo base)
    read -r full decisions < <(count "$tree" "$games" "$base/cg.$name.full")
    read -r empty _ < <(count "$tree" 0 "$base/cg.$name.empty")
    per[$tree]=$(awk -v f="$full" -v e="$empty" -v d="$decisions" 'BEGIN {printf "%.0f", (f - e) / d}')
    printf '%-8s %15s instructions (%s without games), %6d decisions, %9s per decision\n' \
      "$name" "$full" "$empty" "$decisions" "${per[$tree]}"
  done
  awk -v a="${per[$here]}" -v b="${per[$base/tree]}" \
    'BEGIN {printf "ratio (base / working instructions per decision): %.3f\n", b / a}'
  ;;
mcts)
  for ((i = 1; i <= rounds; i++)); do
    declare -A speed=()
    for tree in "$here" "$base/tree"; do
      line=$(run "$tree" "$python" "$driver" --mcts "$games" --players "$players" --seed "$i")
      speed[$tree]=$(awk '{print $2}' <<<"$line")
    done
    printf 'round %d: working %8.3f decisions/s   base %8.3f decisions/s   ratio %.3f\n' "$i" \
      "${speed[$here]}" "${speed[$base/tree]}" "$(awk -v a="${speed[$here]}" -v b="${speed[$base/tree]}" 'BEGIN {print a / b}')"
    unset speed
  done
  ;;
views)
  for ((i = 1; i <= rounds; i++)); do
    for tree in "$here" "$base/tree"; do
      line=$(run "$tree" "$python" "$driver" --views --games "$games" --players "$players" --seed $((i * 1000)))
      printf 'round %d %-8s %s\n' "$i" "$([[ $tree == "$here" ]] && echo working || echo base)" "$line"
    done
  done
  ;;
esac
