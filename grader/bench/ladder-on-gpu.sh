#!/usr/bin/env bash
# make bench on a machine with an NVIDIA GPU, logs to $OUT (default
# /tmp/gpulab-bench): the build, the performance-size datasets (generated on
# demand, on every core), the ladder's table and picture.
#
# cJSON and libpng: the system's, or a copy in .carry/cjson/{include,lib}
# and .carry/png/{include,lib}.
set -uo pipefail
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/gpulab-bench}
mkdir -p "$OUT"
make_args=(-j"$(nproc)")
if ! pkg-config --exists libcjson 2>/dev/null && [ -d .carry/cjson ]; then
    c=$PWD/.carry/cjson
    make_args+=("CJSON_CFLAGS=-I$c/include" "CJSON_LIBS=-L$c/lib -lcjson -Wl,-rpath,$c/lib")
fi
if ! pkg-config --exists libpng 2>/dev/null && [ -d .carry/png ]; then
    c=$PWD/.carry/png
    make_args+=("PNG_CFLAGS=-I$c/include" "PNG_LIBS=-L$c/lib -lpng16 -Wl,-rpath,$c/lib")
fi
nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
make "${make_args[@]}" kit > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
/usr/bin/time -f "make bench: %e s" make "${make_args[@]}" bench 2>&1 | tee "$OUT/bench.log"
cp build/bench/ladder.* "$OUT"/ 2>/dev/null
exit "${PIPESTATUS[0]}"
