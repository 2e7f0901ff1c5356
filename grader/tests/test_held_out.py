"""The held-out single mistakes of 2026-11-28 (grader/tests/data/held-out-2026-11-28/):
eighty files (sets A to H) written by newcomers who had not read the
kit's explanation code, counted before and after issue 40's work
(results-before.md, results-after.md, results-after-2.md, results-C.md,
results-after-3.md, results-D.md, results-after-4.md, results-E.md,
results-after-5.md, results-F.md, results-after-6.md, results-G.md, results-H.md,
results-after-7.md; sets I and J: results-I*.md, results-J*.md; set L: results-L.md, 3 of 10
when counted, 9 of the 10 after the mechanisms it led to; set M: results-M.md, 6 of 10 when
counted, 10 of 10 after; set N: results-N.md, 5 of 10 when counted, 9 of 10 after;
set O: results-O.md, 6 of 10 when counted, 10 of 10 after; set P: results-P.md, 4 of 10
when counted, 10 of 10 after; set Q: results-Q.md, 5 of 10 when counted, 10 of 10 after; set R: results-R.md, 3 of 10 when
counted, 7 of 10 after; set S: results-S.md, 5 of 10 when counted, 10 of 10 after) and made tests only
after they were counted.

Each file below is one whose first line, on the emulator, names the cause and
its line (the strict rule of the counts); the words are those of that cause and
that line, as the newcomer's "TA first line" gives them. The files whose first
line does not hold yet are listed in results-after-5.md, not here: a test that
expects them to fail would pass for the wrong reason.
"""
from pathlib import Path

import pytest

import kit

HERE = Path(__file__).resolve().parent / "data" / "held-out-2026-11-28"

FIRST = {
    "setA/01-a-n-index-uses-row": ["line 31: `Row`", "with `Col` there"],
    "setA/01-b-row-bound-off-by-one": ["line 28", "`Row <= Width` holds with Row = 1"],
    "setA/02-a-one-phase-too-many": ["line 41", "`ph <= Width / TILE_WIDTH` holds with ph = 2"],
    "setA/02-b-pvalue-reset-each-phase": ["line 57: `Pvalue = 0;`", "without it"],
    "setA/03-a-m-load-tests-j-for-k": ["the test at line 55 (`if (Row < j && mCol < j)`) let this thread through"],
    "setA/03-b-n-load-stride-k": ["line 60: `k`", "with `l` there"],
    "setA/04-a-flatten-with-w": ["line 39: `w`", "with `TILE_WIDTH` there"],
    "setA/04-b-barrier-before-second-batch": ["line 62", "line 76", "no __syncthreads() separates them"],
    "setA/05-a-block-is-output-tile": ["line 105", "with `BLOCK_WIDTH, BLOCK_WIDTH` there"],
    "setB/01-c-int-accumulator": ["a sum kept in an integer", "line 29"],
    "setB/01-d-copies-m-into-d_n": ["line 50: `M`", "with `N` there"],
    "setB/02-c-grid-one-dimensional": ["the tiles below row 15 were never launched", "line 79"],
    "setB/02-d-ds_n-read-transposed": ["line 58: `tx, i`", "with `i, tx` there"],
    "setB/03-c-m-test-uses-tx": ["the test at line 55 (`if (Row < j && tx < k)`) let this thread through"],
    "setB/03-d-n-else-zeroes-ds_m": ["line 62", "which stores into ds_M, not ds_N"],
    "setB/04-c-output-stride-height": ["line 84 multiplies y by height", "rows are width apart (y * width)"],
    "setB/04-d-tile-width-one-radius": ["N_ds is too small", "set at line 29 (`const int w = TILE_WIDTH + MASK_RADIUS;`)"],
    "setB/05-d-load-misses-channels": ["the load at line 48", "holds the image's pixel (0, 0) of channel 1"],
    "setC/01-e-block-one-dimensional": ["the block at line 55 (`dim3 dimBlock(BLOCK_WIDTH);`) is 16 x 1 threads",
                                        "threadIdx.y is always 0"],
    "setC/01-f-flat-bound-test": ["the test at line 28 (`if (Row * Width + Col < Width * Width) {`)",
                                  "by the whole array's 225 elements"],
    "setC/02-e-n-load-ph-not-scaled": ["holds N(1, 16)", "puts N(16, 16) there", "the load at line 47"],
    "setC/02-f-inner-loop-phase-count": ["the test at line 57", "(i = 16, against 32)"],
    "setC/03-e-early-return": ["the return at line 38", "before the __syncthreads() at line 67"],
    "setC/03-f-store-accumulates": ["read at line 83 (`P[Row * l + Col] += Pvalue;`)", "before anything stored it"],
    "setC/04-e-second-batch-bound-tile-width": ["rows 16 to 19 of N_ds", "the test at line 59 (`if (destY < TILE_WIDTH) {`) is false"],
    "setC/04-f-acc-not-reset-per-channel": ["the running sum of the right values over the output's channels",
                                            "line 33 (`float acc = 0.0f;`)"],
    "setC/05-e-in-pitch-in-bytes": ["in.pitch", "is set at line 102 (`d_in_img.pitch = (int)in_pitch_bytes;`)"],
    "setC/05-f-grid-swapped": ["the grid at line 106 (`dim3 dimGrid((in->height - 1) / O_TILE_WIDTH + 1",
                               "has its x and y swapped"],
    "setD/01-g-copy-back-wrong-direction": ["the cudaMemcpy at line 61", "the kind is cudaMemcpyHostToDevice",
                                            "this copy's direction should be cudaMemcpyDeviceToHost"],
    "setD/01-h-store-transposed": ["the right value of the transposed position",
                                   "the store of the output at line 31 (`P[Col * Width + Row] = Pvalue;`)"],
    "setD/02-g-m-load-column-uses-ty": ["line 45: `ty`", "with `tx` there"],
    "setD/02-h-pvalue-assigned-not-added": ["the last term of each dot product alone",
                                            "the assignment at line 57 (`Pvalue = ds_M[ty][i] * ds_N[i][tx];`)"],
    "setD/03-g-store-stride-k": ["line 82: `k`", "with `l` there"],
    "setD/03-h-n-test-col-against-j": ["the test at line 58 (`if (nRow < k && Col < j)`) let this thread through"],
    "setD/04-g-mask-window-j-uses-i": ["both offsets from the mask's row index i",
                                       "the column offset of the input's read must use j", "in the sum at line 75"],
    "setD/04-h-grid-y-from-width": ["the tiles below row 15 were never launched", "the launch at line 105"],
    "setD/05-g-write-test-col-vs-height": ["the test at line 65 (`if (row_o < out.height && col_o < out.height)`)",
                                           "bounds col_o by out.height", "test col_o against the width"],
    "setD/05-h-copy-back-width-no-channels": ["the cudaMemcpy2D at line 113", "its width is 28 bytes"],
    # two edits mend it (Col's threadIdx.y, or Row's, the mapping transposed): the race
    # check's reading, or the statement the edit agrees with, names the cause
    "setE/01-i-col-from-ty": ["line 21", "Col", "threadIdx.x"],
    "setE/01-j-dot-starts-at-1": ["line 29: `1`", "with `0` there"],
    "setE/02-i-dsN-not-shared": ["line 25 (`float ds_N[TILE_WIDTH][TILE_WIDTH];`) declares ds_N without __shared__"],
    "setE/02-j-M-rows-tile-apart": ["line 45: `TILE_WIDTH`", "with `Width` there"],
    "setE/03-i-pvalue-uninit": ["line 36: `Pvalue = 0;` looks missing after `float Pvalue;`"],
    "setE/03-j-store-test-or": ["the test at line 81 (`if (Row < j || Col < l)`) let this thread through",
                                "its `||` lets a thread through when any one clause holds"],
    "setE/04-i-dest-split-swapped": ["line 39 (`int destY = dest % w;`) and line 40 (`int destX = dest / w;`) split "
                                     "the flat index the wrong way round"],
    "setE/04-j-mask-symbol-addr": ["the cudaMemcpyToSymbol at line 97", "copies from &mask, the address of the pointer"],
    "setE/05-i-memcpy2d-pitches-swapped": ["the cudaMemcpy2D at line 91", "its two pitches are swapped"],
    "setE/05-j-load-test-output-coords": ["the test at line 46", "checks `row_o` and `col_o`",
                                          "the index of the access at line 47 uses neither"],
    "setF/02-l-M-load-uses-Col": ["line 46: `Col`", "with `tx` there"],
    "setF/03-k-phases-from-j": ["line 44: `j`", "with `k` there"],
    "setG/01-n-free-before-copy-back": ["line 61: `CUDA_CHECK(cudaFree(d_P));`", "without it"],
    "setG/02-m-ds_M-int": ["line 24: `int`", "with `float` there"],
    "setG/02-n-phase-loop-starts-at-1": ["line 40: `1`", "with `0` there"],
    "setG/03-n-launch-args-k-l-swapped": ["line 93: `l, k`", "with `k, l` there"],
    "setG/05-n-ghost-test-width-times-channels": ["line 46: `in.width * in.channels`", "with `in.width` there"],
    "setH/01-p-row-from-blockIdx-x": ["line 20", "Row", "blockIdx.y"],
    "setH/02-o-int-shared-tile": ["line 25: `int`", "with `float` there"],
    "setH/02-p-phase-loop-width": ["the test at line 40 (`for (int ph = 0; ph < Width; ++ph) {`) let this thread through"],
    "setH/03-o-launch-args-k-l-swapped": ["line 93: `l, k`", "with `k, l` there"],
    "setH/03-p-n-load-test-le": ["the test at line 58 (`if (nRow <= k && Col < l)`) let this thread through"],
    "setH/04-p-ghost-test-no-lower-bound": ["the test at line 43 (`if (srcY < height && srcX < width)`) let this thread through"],
    "setH/05-p-tile-output-size": ["line 29", "with `[BLOCK_WIDTH][BLOCK_WIDTH]` there"],
    "setH/05-o-free-before-copy-back": ["line 113: `CUDA_CHECK(cudaFree(d_out));`", "without it"],
    "setI/01-r-dot-loop-block-width": ["the test at line 29 (`for (int k = 0; k < BLOCK_WIDTH; ++k)`) let this thread through"],
    "setI/02-q-barrier-between-loads": ["line 47", "line 57", "no __syncthreads() separates them"],
    "setI/02-r-grid-width-over-32": ["were never launched", "line 78"],
    "setI/03-r-n-test-dims-swapped": ["the test at line 58 (`if (nRow < l && Col < k)`) was false", "nRow = 16, against 1"],
    "setI/04-q-first-batch-no-parens": ["look at the load at line 44"],
    "setI/05-r-row-halo-mask-width": ["line 38: `MASK_WIDTH`", "with `MASK_RADIUS` there"],
    "setI/03-q-pvalue-redeclared-in-loop": ["line 47 (`float Pvalue = 0;`) declares Pvalue again", "declared at line 36"],
    "setJ/01-s-m-read-down-column": ["M transposed: the sum reads M(k, Row) where M(Row, k) belongs", "line 30"],
    "setJ/01-t-sizeof-pointer": ["line 40: `sizeof(float *)`", "with `sizeof(float)` there"],
    "setJ/02-s-tiles-literal-16": ["line 24", "ds_M[TILE_WIDTH][TILE_WIDTH]", "ds_N[TILE_WIDTH][TILE_WIDTH]"],
    "setJ/02-t-launch-m-n-swapped": ["line 78: `N, M`", "with `M, N` there"],
    "setJ/03-s-dot-product-one-based": ["line 70: `int i = 1; i <= TILE_WIDTH`", "with `int i = 0; i < TILE_WIDTH` there"],
    "setJ/04-s-second-batch-stale-src": ["the load at line 58", "nothing sets srcY and srcX again before the load"],
    "setJ/04-t-mask-copied-after-launch": ["Mc is read at line 75", "before anything stored it",
                                           "the cudaMemcpyToSymbol at line 106"],
    "setJ/05-s-ghost-test-strict": ["line 46", "`row_i >= 0 && row_i < in.height && col_i >= 0"],
    "setJ/03-t-grid-x-from-k": ["line 92: `k`", "with `l` there"],
    "setJ/05-t-mallocpitch-wrong-pitch-var": ["line 85: `&in_pitch_bytes`", "with `&out_pitch_bytes` there"],
    "setL/01-x-row-block-thread-swapped": ["line 20", "with `blockIdx.y * blockDim.y + threadIdx.y` there"],
    "setL/01-w-cudafree-host-p": ["line 67: `P` in `CUDA_CHECK(cudaFree(P))`", "with `d_P` there"],
    "setL/02-x-grid-minus-one-no-plus-one": ["count the grid at line 77", "1 block across where 2 are needed"],
    "setL/03-w-phases-modulo": ["line 43", "with `(k + TILE_WIDTH - 1) / TILE_WIDTH` there"],
    "setL/03-x-dot-loop-bound-k": ["the test at line 70 (`for (int i = 0; i < k - ph * TILE_WIDTH; ++i)`) let this "
                                   "thread through"],
    "setL/04-w-ghost-test-x-le-width": ["the test at line 43", "`srcX <= width` holds with srcX = 1, equal to width"],
    "setL/04-x-channel-loop-one-based": ["line 32", "with `int k = 0; k < channels` there"],
    "setL/05-w-copy-back-dpitch-floats": ["the cudaMemcpy2D at line 113", "(dpitch 3",
                                          "`* sizeof(float)` looks missing after `(size_t)out->pitch`"],
    "setL/05-x-mask-declared-double": ["Mc is declared double at line 22", "declare Mc float"],
    "setM/01-y-launch-width-squared": ["line 56: `width * width`", "with `width` there"],
    "setM/01-z-copy-back-before-launch": ["the cudaMemcpy at line 50", "the launch at line 57",
                                          "make the copy after the launch"],
    "setM/02-y-launch-grid-block-swapped": ["the launch at line 78", "the grid and the block look swapped"],
    "setM/02-z-dot-ds_M-uses-tx": ["line 57: `tx` in `Pvalue += ds_M[ty][tx]", "with `i` there"],
    "setM/03-y-nrow-uses-tx": ["line 53: `tx` in `int nRow = ph * TILE_WIDTH + tx`", "with `ty` there"],
    "setM/03-z-n-test-row-for-nrow": ["the test at line 58", "line 58: `Row`", "with `nRow` there"],
    "setM/04-y-mask-transposed": ["line 75: `j, i`", "with `i, j` there"],
    "setM/04-z-mask-copy-sizeof-pointer": ["the cudaMemcpyToSymbol at line 97", "the size of a pointer"],
    "setM/05-y-centred-mask-loop": ["the loop at line 63", "not in `[tx + j]`", "add `+ MASK_RADIUS` there too"],
    "setM/05-z-out-pitch-in-pixels": ["line 103", "with `out_pitch_bytes / sizeof(float)` there"],
    "setN/01-a2-malloc-missing-ampersand": ["cudaMalloc((void **)d_N, bytes)", ":43",
                                            "takes the address of the pointer it sets"],
    "setN/01-b2-dot-adds-instead-of-multiplies": ["line 30", "with `M[Row * Width + k] * N[k * Width + Col]` there"],
    "setN/02-a2-col-uses-by": ["line 34 (`int Col = by * TILE_WIDTH + tx;`)", "build Col from blockIdx.x"],
    "setN/02-b2-dot-ds_N-uses-ty": ["line 57: `ty` in `Pvalue += ds_M[ty][i] * ds_N[i][ty]`", "with `tx` there"],
    "setN/03-a2-m-read-before-test": ["the access at line 54", "comes before the test at line 55"],
    "setN/03-b2-m-test-uses-col": ["line 54: `Col`", "with `mCol` there"],
    "setN/04-a2-srcY-uses-blockIdx-x": ["line 41: `blockIdx.x`", "with `blockIdx.y` there"],
    "setN/04-b2-output-steps-w": ["line 80 and the statement after it: `w`", "with `TILE_WIDTH` at both"],
    "setN/05-a2-inner-test-or": ["line 60", "with `ty < O_TILE_WIDTH && tx < O_TILE_WIDTH` there"],
    "setO/01-d2-bound-test-threadidx": ["line 28", "with `Row < Width && Col < Width` there"],
    "setO/02-c2-n-load-col-uses-row": ["line 47: `Row`", "with `Col` there"],
    "setO/02-d2-phase-loop-tile-width": ["the test at line 41", "ph < TILE_WIDTH"],
    "setO/03-c2-store-test-dims-swapped": ["the test at line 82", "test Col against l"],
    "setO/03-d2-phases-rounded-to-32": ["line 44: `(k + 31) / 32`"],
    "setO/01-c2-malloc-sizeof-pointer": ["the cudaMalloc at line 45", "is given sizeof(P), but P is a pointer"],
    "setO/04-c2-second-batch-srcX-no-radius": ["line 58: `- MASK_RADIUS` looks missing",
                                               "after `blockIdx.x * TILE_WIDTH + destX`"],
    "setO/04-d2-launch-height-width-swapped": ["line 106: `width, height`", "with `height, width` there"],
    "setO/05-c2-copy-back-spitch-row-bytes": ["the cudaMemcpy2D at line 114", "its source pitch (spitch) is 84 bytes"],
    "setO/05-d2-write-input-coords": ["the access at line 67", "indexes with `row_i` and `col_i`",
                                      "checks `row_o` and `col_o`"],
    "setP/01-e2-copy-back-args-swapped": ["the cudaMemcpy at line 61", "the destination and the source are swapped"],
    "setP/01-f2-double-free-d_M": ["the cudaFree at line 66", "a second time", "the cudaFree at line 65"],
    "setP/02-e2-n-load-col-uses-tx": ["line 46: `tx`", "with `Col` there"],
    "setP/02-f2-dot-loop-le-tile": ["the test at line 56", "`i <= TILE_WIDTH` holds with i = 16"],
    "setP/03-e2-store-if-semicolon": ["the `;` right after `if (Row < j && Col < l)` at line 81",
                                      "runs for every thread"],
    "setP/03-f2-m-load-stride-l": ["line 55: `l`", "with `k` there"],
    "setP/04-e2-barrier-inside-second-batch": ["the __syncthreads() at line 63",
                                               "inside the test at line 58 (`if (destY < w)`)"],
    "setP/04-f2-output-no-channels": ["line 83: `y * width + x + k`", "with `(y * width + x) * channels + k` there"],
    "setP/05-e2-copy-in-src-struct": ["the cudaMemcpy2D at line 91", "copies from `in`, which points to a struct",
                                      "pass in->data"],
    "setP/05-f2-inner-threads-centred": ["the test at line 60", "with tx = 12",
                                         "the array's size is not what is wrong"],
    "setQ/01-g2-store-outside-bounds-test": ["the access at line 32 is outside the test at line 28",
                                             "whose body ends at line 31"],
    "setQ/01-h2-copy-back-from-d_M": ["line 61: `d_M`", "with `d_P` there"],
    "setQ/02-g2-block-hardcoded-16-tile-32": ["line 76: `16, 16`", "with `TILE_WIDTH, TILE_WIDTH` there"],
    "setQ/02-h2-store-row-stride-tile": ["line 67: `TILE_WIDTH`", "with `Width` there"],
    "setQ/03-g2-grid-ceil-of-int-division": ["line 92", "takes ceil(l / TILE_WIDTH)",
                                             "both sides of that `/` are integers"],
    "setQ/03-h2-dot-loop-capped-by-j": ["line 70: `j`", "with `k` there"],
    "setQ/04-g2-inner-loop-increments-i": ["the loop at line 74", "steps i, which its test does not read"],
    "setQ/04-h2-acc-reset-per-mask-row": ["the mask's last row alone", "set to 0 at line 74"],
    "setQ/05-g2-host-pitch-times-channels": ["the cudaMemcpy2D at line 91", "its source pitch (spitch) is 348 bytes"],
    "setQ/05-h2-outer-threads-return": ["the return at line 60", "before the __syncthreads() at line 71"],
    "setR/01-i2-n-stride-block-width": ["line 30: `BLOCK_WIDTH`", "with `Width` there"],
    "setR/01-j2-dn-declared-float": ["line 41", "declares d_N a float, not a pointer"],
    "setR/02-i2-width-as-tile-count": ["line 78: `width / TILE_WIDTH`", "with `width` there"],
    "setR/02-j2-phase-step-tile": ["the loop at line 40", "steps ph by TILE_WIDTH",
                                   "multiplies ph by TILE_WIDTH again"],
    "setR/03-j2-mcol-test-k-minus-1": ["line 54: `mCol < k - 1`", "with `mCol <= k - 1` there"],
    "setR/04-i2-flat-block-256": ["the block at line 103", "is 256 x 1 threads", "threadIdx.y is always 0"],
    "setR/05-i2-mallocpitch-width-height-swapped": ["the cudaMallocPitch at line 84",
                                                    "its width and its height the other way round"],
    "setS/01-k2-block-z-zero": ["line 54: `0`", "with `1` there"],
    "setS/01-l2-n-never-copied": ["no call of the file ever stores into d_N", "beside the copy at line 48"],
    "setS/02-k2-no-barrier-after-dot": ["race between iterations of the loop at line 40",
                                        "add a __syncthreads() at the end of the loop, after the reads at line 57"],
    "setS/02-l2-tile-macro-no-parens": ["the #define at line 18 (`#define TILE_WIDTH 32 / 2`) has no parentheses",
                                        "`Width / TILE_WIDTH` at line 40 reads as `Width / 32 / 2`"],
    "setS/03-k2-m-test-comma": ["the test at line 54 (`if (Row < j, mCol < k)`) joins its conditions with a comma"],
    "setS/03-l2-memset-after-launch": ["line 95: `CUDA_CHECK(cudaMemset(P, 0,", "without it"],
    "setS/04-k2-mask-device-not-constant": ["line 22 declares Mc __device__", "declare Mc __constant__ at line 22"],
    "setS/04-l2-symbol-as-string": ["cudaMemcpyToSymbol(\"Mc\", mask", ".cu:97", "the symbol is given as a string",
                                    "variable itself, Mc,"],
    "setS/05-k2-mask-flipped": ["the mask flipped", "the sum at line 64"],
    "setS/05-l2-1d-copy-into-pitched": ["the cudaMemcpy at line 91", "with cudaMemcpy2D"],
}


def test_every_named_file_exists():
    for name in FIRST:
        assert (HERE / f"{name}.cu").is_file(), name


@pytest.mark.parametrize("name", sorted(FIRST))
def test_first_line_names_the_cause_and_its_line(name):
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = Path(name).name.split("-")[0]
    _, rep = kit.check_json(lab, HERE / f"{name}.cu", "emu", sanitize=True)
    first = rep.get("fix_first") or ""
    absent = [w for w in FIRST[name] if w not in first]
    assert not absent, f"missing {absent} in the first line: {first}"
