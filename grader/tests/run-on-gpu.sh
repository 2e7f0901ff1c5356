#!/usr/bin/env bash
# The kit's checks on a machine with an NVIDIA GPU, in one go: build, the main
# job (every reference solution graded on the GPU, sanitizer on), then the
# whole test suite. Logs go to $OUT (default /tmp/gpulab-gpu-run).
#
# cJSON and libpng: the system's, or a copy in .carry/cjson/{include,lib}
# and .carry/png/{include,lib} (for a machine
# with no package registry).
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/gpulab-gpu-run}
mkdir -p "$OUT"
# exported, not given to make: the tests' own builds (a copy of the kit, an
# imported lab) need them too
if ! pkg-config --exists libcjson 2>/dev/null && [ -d .carry/cjson ]; then
    c=$PWD/.carry/cjson
    export CJSON_CFLAGS="-I$c/include" CJSON_LIBS="-L$c/lib -lcjson -Wl,-rpath,$c/lib"
fi
if ! pkg-config --exists libpng 2>/dev/null && [ -d .carry/png ]; then
    c=$PWD/.carry/png
    export PNG_CFLAGS="-I$c/include" PNG_LIBS="-L$c/lib -lpng16 -Wl,-rpath,$c/lib"
fi
nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader | tee "$OUT/gpu.txt"
make -j"$(nproc)" kit > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
echo "== main job: every reference solution on the GPU"
status=0
for lab in $(ls labs); do
    ./gpulab check "$lab" solutions/"$lab"/*.cu --backend gpu > "$OUT/solution-$lab.txt" 2>&1 || status=1
    tail -1 "$OUT/solution-$lab.txt" | sed "s/^/$lab: /"
done
echo "== test suite"
workers=()
python3 -c 'import xdist' 2>/dev/null && workers=(-n "${PYTEST_WORKERS:-8}")
# in parallel, then (alone on the GPU) the tests that need it to themselves.
# GPU_ONLY=1 runs only the gpu-marked tests (the emulator's run in CI anyway),
# for a machine lent for a few minutes.
select="not gpu_exclusive"
[ "${GPU_ONLY:-0}" = 1 ] && select="gpu and not gpu_exclusive"
# PART=shared or PART=exclusive runs one of the two (each fits a command of
# ten minutes where the whole does not); PART=shared1 and PART=shared2 each
# half of the shared part (conftest.py's GPULAB_TEST_SHARD), where the shared
# part alone no longer fits (gpu-marked tests on an H200, 16 workers: past
# 575 s, 2026-12-02). The main job runs with any.
case "${PART:-all}" in
    shared1) export GPULAB_TEST_SHARD=1/2 ;;
    shared2) export GPULAB_TEST_SHARD=2/2 ;;
    all|shared|exclusive) ;;
    *) echo "run-on-gpu.sh: PART=$PART: expected all, shared, shared1, shared2 or exclusive" >&2; exit 2 ;;
esac
rc=0 rc2=0
: > "$OUT/pytest.log"
: > "$OUT/pytest-exclusive.log"
if [ "${PART:-all}" != exclusive ]; then
    python3 -m pytest grader/tests -q -rfEs "${workers[@]}" -p no:cacheprovider -m "$select" \
        > "$OUT/pytest.log" 2>&1
    rc=$?
fi
if [ "${PART:-all}" = all ] || [ "$PART" = exclusive ]; then
    python3 -m pytest grader/tests -q -rfEs -p no:cacheprovider -m gpu_exclusive > "$OUT/pytest-exclusive.log" 2>&1
    rc2=$?
fi
grep -E "^(FAILED|ERROR)" "$OUT/pytest.log" "$OUT/pytest-exclusive.log" | head -40
tail -1 "$OUT/pytest.log"
tail -1 "$OUT/pytest-exclusive.log"
exit $(( rc != 0 || rc2 != 0 || status != 0 ))
