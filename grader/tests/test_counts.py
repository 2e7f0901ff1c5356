"""What a kernel reads from global memory, counted by the emulator's checked
build in the sanitizer stage's runs (docs/emulator.md, "counts"), the
report's "global reads" line, and the global_reuse requirement of labs
02-05 (docs/formats.md).

A tiled kernel that declares its tiles, fills them and fences them with
both barriers, but sums straight from global memory, passes every dataset
and every other requirement, and loses global_reuse, whose message names
the loop's line; every reference, correct variant and stretch kernel keeps
it. Without the checkers (--no-sanitize) the requirement is not checked,
like no_hazards: its point stays in the maximum, unearned, and the score
line says so.
"""
import pytest

import kit

PROGRAMS = kit.ROOT / "grader" / "tests" / "programs"

# One dataset each, larger than a tile in every direction, partial tiles
# at the edges where the lab has them.
DATASET = {
    "02-tiled-matmul": "width-0064",
    "03-arbitrary-matmul": "rect-67x45x89",
    "04-conv-2batch": "rgb-47x29",
    "05-pitched-conv": "rgb-47x29",
}

# The line of each mutant's inner loop that reads global memory.
LOOP_TEXT = {
    "02-tiled-matmul": "Pvalue += M[Row * Width",
    "03-arbitrary-matmul": "Pvalue += M[Row * k",
    "04-conv-2batch": "? I[(yy * width + xx)",
    "05-pitched-conv": "? in.data[yy * in.pitch",
}


def requirement(rep, name):
    return next(r for r in rep["requirements"] if r["name"] == name)


def line_of(path, text):
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if text in line:
            return n
    raise AssertionError(f"{text!r} is not in {path}")


@pytest.mark.parametrize("lab", DATASET)
def test_tiles_not_read_lose_global_reuse(backend, lab):
    path = PROGRAMS / lab / "tiles_not_read.cu"
    rc, rep = kit.check_json(lab, path, backend, "--dataset", DATASET[lab], sanitize=True)
    # the answer is right, the checkers find nothing, the tiles are there ...
    assert kit.statuses(rep) == {DATASET[lab]: "pass"}, rep["datasets"]
    want = {r["name"]: "pass" for r in kit.manifest(lab)["requirements"]}
    want["global_reuse"] = "requirement_failed"
    assert kit.requirement_statuses(rep) == want, rep["requirements"]
    # ... but every use of an operand is a read of global memory
    reads = rep["global_reads"]
    assert reads["dataset"] == DATASET[lab] and reads["per_work"] >= reads["untiled_per_work"], reads
    assert reads["per_work"] > 1.5 * reads["tiled_per_work"], reads
    loop = line_of(path, LOOP_TEXT[lab])
    assert reads["top_line"]["line"] == loop and reads["top_line"]["file"] == path.name, reads
    r = requirement(rep, "global_reuse")
    assert r["score"] == 0 and r["max_score"] >= requirement(rep, "shared_memory")["max_score"], r
    measured = round(reads["per_work"] * reads["work"])
    assert f"read {measured} floats" in r["message"], r
    assert f"line {loop} (`" in r["message"] and DATASET[lab] in r["message"], r
    assert rc == 1


def test_a_mask_in_global_memory_loses_only_constant_memory(backend):
    """The reference of lab 04 with its mask in a cudaMalloc buffer, read at
    every tap: [constant_memory] is lost, and only it. [global_reuse]
    counts the reads of the image (buffers as large as the tiled data), not
    the mask's, which it names as not counted; the image's reads are the
    reference's."""
    lab = "04-conv-2batch"
    path = PROGRAMS / lab / "mask_in_global_memory.cu"
    rc, rep = kit.check_json(lab, path, backend, "--dataset", DATASET[lab], sanitize=True, expect_rc=1)
    assert kit.statuses(rep) == {DATASET[lab]: "pass"}, rep["datasets"]
    want = {r["name"]: "pass" for r in kit.manifest(lab)["requirements"]}
    want["constant_memory"] = "requirement_failed"
    assert kit.requirement_statuses(rep) == want, rep["requirements"]
    r = requirement(rep, "global_reuse")
    assert "not counted: " in r["message"] and "[constant_memory] judges" in r["message"], r
    rc, ref = kit.check_json(lab, kit.solution(lab), backend, "--dataset", DATASET[lab], sanitize=True, expect_rc=0)
    assert rep["global_reads"]["per_work"] == ref["global_reads"]["per_work"], (rep["global_reads"], ref["global_reads"])


def test_the_named_line_reads_the_image_not_the_mask(tmp_path):
    """tiles_not_read.cu with its mask in a cudaMalloc buffer too: the loop
    reads the image and the mask from global memory at every tap. The line
    [global_reuse] names is the read of the image, which a tile holds, not
    the mask's read beside it, and the mask's reads are left out of the
    count: the same figure as with the mask in constant memory."""
    lab = "04-conv-2batch"
    src = (PROGRAMS / lab / "tiles_not_read.cu").read_text()
    edits = [
        ("__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];", ""),
        ("conv_2batch_kernel(const float *I, float *P,", "conv_2batch_kernel(const float *I, const float *Mg, float *P,"),
        ("acc += Mc[i][j] * v;", "acc += Mg[i * MASK_WIDTH + j] * v;"),
        ("    CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));",
         "    float *Mg;\n    CUDA_CHECK(cudaMalloc((void **)&Mg, MASK_WIDTH * MASK_WIDTH * sizeof(float)));\n"
         "    CUDA_CHECK(cudaMemcpy(Mg, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float), cudaMemcpyHostToDevice));"),
        ("<<<dimGrid, dimBlock>>>(I, P,", "<<<dimGrid, dimBlock>>>(I, Mg, P,"),
    ]
    for old, new in edits:
        assert src.count(old) == 1, old
        src = src.replace(old, new)
    path = tmp_path / "conv_2batch.cu"
    path.write_text(src)
    rc, rep = kit.check_json(lab, path, "emu", "--dataset", DATASET[lab], sanitize=True, expect_rc=1)
    reads = rep["global_reads"]
    assert reads["top_line"]["line"] == line_of(path, LOOP_TEXT[lab]), reads
    r = requirement(rep, "global_reuse")
    assert r["status"] == "requirement_failed" and "not counted: " in r["message"], r
    rc, ref = kit.check_json(lab, PROGRAMS / lab / "tiles_not_read.cu", "emu", "--dataset", DATASET[lab],
                             sanitize=True, expect_rc=1)
    assert reads["per_work"] == ref["global_reads"]["per_work"], (reads, ref["global_reads"])


def correct_kernels():
    out = []
    for lab in DATASET:
        files = [kit.solution(lab)] + kit.lab_files(lab, "variants")
        files += sorted((kit.ROOT / "solutions" / "stretch" / lab).glob("*.cu"))
        out += [pytest.param(lab, p, id=f"{lab}/{p.stem}") for p in files]
    return out


@pytest.mark.parametrize("lab, path", correct_kernels())
def test_correct_kernels_keep_global_reuse(lab, path):
    rc, rep = kit.check_json(lab, path, "emu", "--dataset", DATASET[lab], sanitize=True, expect_rc=0)
    r = requirement(rep, "global_reuse")
    assert r["status"] == "pass" and r["score"] == r["max_score"], r
    reads = rep["global_reads"]
    assert reads["per_work"] <= 1.5 * reads["tiled_per_work"] < reads["untiled_per_work"], reads


def test_lab02_counts_are_the_tiled_kernels():
    # width 64, 16 x 16 tiles: 16 blocks, each reading 4 tiles of M and 4 of
    # N (256 floats each) into shared memory, then 2 x 16 shared reads per
    # thread and phase; one store of P per thread
    rc, rep = kit.check_json("02-tiled-matmul", kit.solution("02-tiled-matmul"), "emu", "--dataset", "width-0064",
                             sanitize=True, expect_rc=0)
    reads = rep["global_reads"]
    w = 64
    assert reads["work"] == w ** 3 and reads["tile"] == [16, 16], reads
    assert reads["global_loads"] == 2 * w * w * (w // 16) and reads["global_load_bytes"] == 4 * reads["global_loads"]
    assert reads["global_stores"] == w * w and reads["shared_stores"] == 2 * w * w * (w // 16), reads
    assert reads["shared_loads"] == 2 * w ** 3 and reads["threads"] == w * w, reads
    assert reads["per_work"] == 0.125 and reads["untiled_per_work"] == 2, reads
    sol = kit.solution("02-tiled-matmul")
    assert reads["top_line"]["line"] in (line_of(sol, "ds_M[ty][tx] = M["), line_of(sol, "ds_N[ty][tx] = N[")), reads
    text = kit.gpulab("check", "02", sol, "--backend", "emu", "--dataset", "width-0064").stdout
    assert ("global reads: 0.125 per multiply-add on width-0064 (lab 01's kernel: 2.0); "
            "yours reuse each element they read 16.0 times") in text, text


def test_lab01_report_shows_reads_per_multiply_add():
    p = kit.gpulab("check", "01", kit.solution("01-basic-matmul"), "--backend", "emu", "--dataset", "width-0017")
    assert p.returncode == 0, p.stdout
    assert ("global reads: 2.0 per multiply-add on width-0017 (lab 01's kernel: 2.0); yours read global "
            "memory for every use (no reuse)") in p.stdout, p.stdout


def test_without_checkers_global_reuse_is_not_checked():
    """A file that passes all else, checked with --no-sanitize (the old
    behaviour was score 9/9 and exit 0): the checkers' points keep their
    place in the maximum, unearned, the table and the score line say which
    were not checked, and the exit status is not 0."""
    lab = "02-tiled-matmul"
    path = PROGRAMS / lab / "tiles_not_read.cu"
    rc, rep = kit.check_json(lab, path, "emu")
    assert rc == kit.UNCHECKED_RC, rc
    assert kit.unchecked_requirements(rep) == {"global_reuse", "no_hazards"} and rep["global_reads"] is None
    assert kit.requirement_statuses(rep) == {"shared_memory": "pass", "barrier": "pass"}
    total, unchecked = kit.max_score(lab), kit.unchecked_points(kit.manifest(lab))
    assert rep["max_score"] == total and rep["score"] == total - unchecked == kit.best_score(lab, checkers=False)
    assert rep["not_checked"]["points"] == unchecked and rep["fix_first"] is None, rep["not_checked"]
    # the score line says what it did not check, and how to check it
    p = kit.gpulab("check", lab, path, "--backend", "emu", "--no-sanitize")
    assert p.returncode == kit.UNCHECKED_RC
    assert p.stdout.splitlines()[-1] == (f"  score {total - unchecked}/{total}  ({unchecked} points not checked: "
                                         "[global_reuse] and [no_hazards] need the checkers; run without "
                                         "--no-sanitize)"), p.stdout
    assert "fix this first" not in p.stdout
    rows = [l.split() for l in p.stdout.splitlines() if l.startswith("  [")]
    assert ["[no_hazards]", "not_checked", "0/5"] == rows[-1][:3], rows


def test_class_page_has_a_global_reads_column(tmp_path):
    lab = "02-tiled-matmul"
    for who, src in (("tiled", kit.solution(lab)), ("untouched", PROGRAMS / lab / "tiles_not_read.cu")):
        (tmp_path / "subs" / who).mkdir(parents=True)
        (tmp_path / "subs" / who / "tiled_matmul.cu").write_text(src.read_text())
    p = kit.gpulab("grade", lab, tmp_path / "subs", "--backend", "emu", "--records", tmp_path / "records",
                   "--html", tmp_path / "class.html", "--feedback-dir", tmp_path / "pages")
    assert p.returncode == 0, p.stderr
    page = (tmp_path / "class.html").read_text()
    assert "<th>fix this first, and the reason</th><th>global reads</th>" in page
    rows = {who: next(l for l in page.splitlines() if f">{who}</a>" in l) for who in ("tiled", "untouched")}
    assert '<td class="n">0.125 per multiply-add</td>' in rows["tiled"], rows
    assert '<td class="n">2.1 per multiply-add</td>' in rows["untouched"], rows
    mine = (tmp_path / "pages" / "untouched.html").read_text()
    assert "<strong>Global reads:</strong> 2.1 per multiply-add on width-0064" in mine


FORGER = r'''
// lab 01's kernel in lab 02, no __shared__ anywhere, which rewrites the
// launch log after its launch with counts of a tiled kernel
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k)
        Pvalue += M[Row * Width + k] * N[k * Width + Col];
    P[Row * Width + Col] = Pvalue;
}
void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    dim3 block(16, 16), grid(width / 16, width / 16);
    MatrixMulKernel<<<grid, block>>>(M, N, P, width);
    cudaDeviceSynchronize();
    const char *log = getenv("GPULAB_EMU_LOG");
    FILE *f = log ? fopen(log, "w") : NULL;
    if (f) {
        long loads = 2L * width * width * (width / 16);
        fprintf(f, "{\"event\":\"launch\",\"kernel\":\"MatrixMulKernel\",\"grid\":[%d,%d,1],\"block\":[16,16,1],"
                   "\"shared_static_bytes\":2048,\"shared_dynamic_bytes\":0,\"barriers\":2,\"status\":\"cudaSuccess\","
                   "\"counts\":{\"global_loads\":%ld,\"global_load_bytes\":%ld}}\n", width / 16, width / 16,
                loads, 4 * loads);
        fclose(f);
    }
}
'''


def test_forged_counts_without_shared_memory_earn_nothing(tmp_path):
    # The counts are the student's process's to write (formats.md): a log
    # rewritten with a tiled kernel's counts matches the reads, but the
    # source declares no __shared__ memory, and that the kit counts itself.
    path = tmp_path / "tiled_matmul.cu"
    path.write_text(FORGER)
    rc, rep = kit.check_json("02-tiled-matmul", path, "emu", "--dataset", "width-0064", sanitize=True)
    assert kit.statuses(rep) == {"width-0064": "pass"}, rep["datasets"]
    assert rep["global_reads"]["per_work"] == 0.125, rep["global_reads"]
    r = requirement(rep, "global_reuse")
    assert r["score"] == 0 and "declares no __shared__ memory" in r["message"], r
