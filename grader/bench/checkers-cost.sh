#!/usr/bin/env bash
# What the checkers cost (docs/performance.md, the bounds check on every
# dataset): per lab, `gpulab check` of the reference solution on the
# emulator with the checkers against the same check without them
# (--no-sanitize), by farm-bench (the pairs A B A B ..., medians of CPU and
# wall seconds and of the pair ratios). With a second kit (a copy of the
# kit built before a change, say), the same for it first, so that before
# and after are measured in the same hour. Usage (from anywhere; the kits
# built with make kit):
#     [RUNS=5] [LABS="01 02 ..."] grader/bench/checkers-cost.sh [BEFORE_KIT]
# Prints, per lab and kit, farm-bench's lines for CPU, wall and the ratios.
set -uo pipefail
after=$(cd "$(dirname "$0")/../.." && pwd)
runs=${RUNS:-5}
command -v farm-bench > /dev/null || { echo "checkers-cost.sh: farm-bench is not on PATH" >&2; exit 2; }
kits=()
[ $# -ge 1 ] && kits+=("$(cd "$1" && pwd)")
kits+=("$after")
for k in "${kits[@]}"; do
    [ -x "$k/gpulab" ] || { echo "checkers-cost.sh: $k/gpulab is not built (make kit)" >&2; exit 2; }
done
for lab in ${LABS:-$(ls "$after/labs")}; do
    lab=$(ls -d "$after"/labs/"$lab"* 2> /dev/null | head -1)
    lab=$(basename "$lab")
    ref=$(ls "$after/solutions/$lab"/*.cu 2> /dev/null | head -1)
    [ -n "$ref" ] || continue
    ref=${ref#"$after/"}
    for k in "${kits[@]}"; do
        echo "== $lab ($k)"
        farm-bench -n "$runs" --timeout 600 \
            --vs "$k/gpulab check $lab $k/$ref --backend emu --no-sanitize" -- \
            "$k/gpulab" check "$lab" "$k/$ref" --backend emu 2>&1 |
            grep -E '^(A|B) (cpu|wall) s|^A/B (cpu|wall)'
    done
done
