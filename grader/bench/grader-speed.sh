#!/usr/bin/env bash
# The grader's own speed (docs/performance.md): where a check's time goes
# (the stage table: per lab, the reference solution, the skeleton and two
# mutants, each check's record's "stages" in groups, medians), `gpulab check`
# latency per lab, with and without the sanitizer stage, and `gpulab grade`
# throughput on a class of N submissions. Usage:
#     [PARALLEL="1 2 4"] [REPS=3] [STAGES=0|only] [WRONG=1] [CHECKS=0] [CLASS=0] \
#         grader/bench/grader-speed.sh gpu|emu [N]
# Each check is timed REPS times (default 3), the median shown (STAGES=0
# skips the stage table, STAGES=only prints it alone; WRONG=1 adds, per lab,
# the reference's CPU seconds against the median of its wrong files': the
# held-out single mistakes and the mutants; CHECKS=0 skips the latencies);
# the class is graded once per PARALLEL value (grade --parallel; CLASS=0
# skips it). Prints tables; the kit must be built (make kit).
set -uo pipefail
cd "$(dirname "$0")/../.."
backend=${1:?usage: grader-speed.sh gpu|emu [N]}
n=${2:-48}
work=$(mktemp -d /tmp/gpulab-speed.XXXXXX)
trap 'rm -rf "$work"' EXIT

seconds() { # the wall time of a command, in seconds (its output discarded)
    local t0 t1
    t0=$(date +%s.%N)
    "$@" > /dev/null 2>&1
    t1=$(date +%s.%N)
    awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}
reps=${REPS:-3}
median() { printf '%s\n' "$@" | sort -g | sed -n "$(( ($# + 1) / 2 ))p"; }

echo "backend $backend, $(nproc) cores"
if [ "${STAGES:-1}" != 0 ]; then
    files=()
    for dir in labs/*/; do
        lab=$(basename "$dir")
        files+=("$lab:$(ls solutions/"$lab"/*.cu | head -1)" "$lab:$(ls skeletons/"$lab"/*.cu | head -1)")
        for m in $(ls solutions/"$lab"/mutants/*.cu 2>/dev/null | head -2); do files+=("$lab:$m"); done
    done
    python3 grader/bench/check-stages.py "$backend" "$reps" table "${files[@]}"
    [ "${WRONG:-0}" = 1 ] && python3 grader/bench/check-stages.py "$backend" "$reps" wrong \
        $(for dir in labs/*/; do basename "$dir"; done)
    [ "${STAGES:-1}" = only ] && exit 0
fi
[ "${CHECKS:-1}" = 0 ] || printf '%-22s %14s %14s\n' "gpulab check" "sanitizer on" "sanitizer off"
for dir in labs/*/; do
    [ "${CHECKS:-1}" = 0 ] && break
    lab=$(basename "$dir")
    src=$(ls solutions/"$lab"/*.cu | head -1)
    on=(); off=()
    for i in $(seq 1 "$reps"); do
        on+=("$(seconds ./gpulab check "$lab" "$src" --backend "$backend" --maps "$work/maps")")
        off+=("$(seconds ./gpulab check "$lab" "$src" --backend "$backend" --no-sanitize --maps "$work/maps")")
    done
    printf '%-22s %12.2f s %12.2f s\n' "$lab" "$(median "${on[@]}")" "$(median "${off[@]}")"
done

[ "${CLASS:-1}" = 0 ] && exit 0
# A class: n submissions of lab 01, half the reference solution and half
# the skeleton (each a student's folder), graded with one job per core.
mkdir -p "$work/class"
for i in $(seq 1 "$n"); do
    mkdir -p "$work/class/student$i"
    if (( i % 2 )); then src=solutions/01-basic-matmul/basic_matmul.cu; else src=skeletons/01-basic-matmul/basic_matmul.cu; fi
    # a comment of its own, so every file is a different submission (no record reused)
    { echo "/* student $i */"; cat "$src"; } > "$work/class/student$i/basic_matmul.cu"
done
# PARALLEL: the --parallel values to try (default: grade's own default)
for p in ${PARALLEL:-default}; do
    par=(); [ "$p" != default ] && par=(--parallel "$p")
    for mode in on off; do
        flag=(); [ "$mode" = off ] && flag=(--no-sanitize)
        rm -rf "$work/records"
        t=$(seconds ./gpulab grade 01 "$work/class" --backend "$backend" --jobs "$(nproc)" \
                --records "$work/records" "${par[@]}" "${flag[@]}")
        printf 'gpulab grade, %d submissions, parallel %-7s sanitizer %-3s: %7.1f s = %6.0f submissions an hour\n' \
            "$n" "$p," "$mode" "$t" "$(awk -v n="$n" -v t="$t" 'BEGIN { print n * 3600 / t }')"
    done
done

# The same class as `check`s, 8 at a time (each a process of its own, no
# sandbox, no records), beside `grade` of it: what grading a class costs
# over checking the same files (COMPARE=0 skips it).
if [ "${COMPARE:-1}" != 0 ]; then
    rm -rf "$work/records"
    tg=$(seconds ./gpulab grade 01 "$work/class" --backend "$backend" --records "$work/records")
    tc=$(seconds sh -c "ls -d '$work'/class/*/basic_matmul.cu | xargs -P 8 -I{} ./gpulab check 01 {} \
                            --backend '$backend' --maps '$work/maps'")
    printf 'grade of %d: %.1f s; the same %d as checks, 8 at a time: %.1f s; grade / checks = %.2f\n' \
        "$n" "$tg" "$n" "$tc" "$(awk -v a="$tg" -v b="$tc" 'BEGIN { print a / b }')"
fi
