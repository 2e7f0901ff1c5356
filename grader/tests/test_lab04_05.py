"""Labs 04 (convolution, two-batch loading) and 05 (pitched-image convolution),
end to end, and the error map (grader/src/checkers/errormap.c).

On each backend: the reference solutions and the correct variants pass every
public dataset and every requirement (shared_memory, barrier,
constant_memory, and lab 04's two_batch); the skeletons run to a clean "wrong" (nothing written,
nothing crashed); every mutant (one realistic mistake each) fails on a
dataset that shows its mistake. Without a backend: the skeleton is the
solution minus its TODO regions' bodies, every file compiles with plain nvcc,
the committed datasets are the ones the generator makes, and the error map
draws and describes known error patterns.
"""
import re
import shutil
from pathlib import Path

import pytest

import kit

LABS = {"04-conv-2batch": "conv_2batch.cu", "05-pitched-conv": "pitched_conv.cu"}
GCC = shutil.which("gcc")
COMMON_REQUIREMENTS = {"shared_memory", "barrier", "constant_memory"}
# lab 04's own technique, worth 2: blocks of one thread per output pixel that
# load the larger shared tile in (two) batches
REQUIREMENTS = {"04-conv-2batch": COMMON_REQUIREMENTS | {"two_batch"}, "05-pitched-conv": COMMON_REQUIREMENTS}

# Mutants run on one dataset, not all: 47 x 29 pixels, 3 channels, random
# mask, several tiles of both labs with a partial last tile in each
# direction, so every mistake shows there. Keeps the suite quick on two cores.
MUTANT_DATASET = "rgb-47x29"

# Mistakes a backend cannot see, with the reason. The emulator does not
# check the bounds of __shared__ arrays, so writing past the end of N_ds
# lands in memory nobody reads.
# Mistakes that the output alone may not show on a backend: for these the
# sanitizer stage runs too (a race shows as `unsafe`).
RACES_ON_GPU = {
    # A race: on an H200 the warps of a block rarely overtake each other by a
    # whole channel, so the answer usually comes out right; racecheck sees it.
    ("gpu", "04-conv-2batch", "no-barrier-between-channels"),
}


def files_in(lab, sub):
    return kit.lab_files(lab, sub)


def params(sub):
    return [pytest.param(lab, path, id=f"{lab}/{path.stem}") for lab in LABS for path in files_in(lab, sub)]


# ---- no backend needed -------------------------------------------------------


def test_lab04_solution_uses_the_lectures_names():
    sol = kit.solution("04-conv-2batch").read_text()
    for name in ("dest", "destX", "destY", "srcX", "srcY", "N_ds", "w", "TILE_WIDTH", "MASK_RADIUS"):
        assert re.search(rf"\b{name}\b", sol), name
    assert re.search(r"^#define TILE_WIDTH 16$", sol, re.M)
    assert "destY < w" in sol and "cudaMemcpyToSymbol" in sol and "__constant__" in sol


def test_lab05_solution_uses_pitches_and_input_sized_blocks():
    sol = kit.solution("05-pitched-conv").read_text()
    assert re.search(r"^#define O_TILE_WIDTH 12$", sol, re.M)
    assert re.search(r"^#define BLOCK_WIDTH \(O_TILE_WIDTH \+ MASK_WIDTH - 1\)$", sol, re.M)
    for call in ("cudaMallocPitch", "cudaMemcpy2D", "cudaMemcpyToSymbol"):
        assert call in sol, call
    assert "cudaMemcpy(" not in sol


def test_there_are_the_mutants_and_variants_the_issue_asks_for():
    want = {
        "04-conv-2batch": {"second-batch-skipped", "second-batch-unbounded", "ghost-not-zeroed",
                           "no-channel-offset", "mask-flipped", "no-output-bounds",
                           "mask-copy-too-small", "tile-width-8"},
        "05-pitched-conv": {"pitch-ignored", "memcpy-not-2d", "byte-pitch-as-floats",
                            "writes-into-padding", "mask-copy-too-small", "mask-flipped"},
    }
    for lab, names in want.items():
        mutants = {p.stem for p in files_in(lab, "mutants")}
        assert names <= mutants, names - mutants
        for p in files_in(lab, "mutants"):
            assert p.read_text().startswith(f"/*\n * MUTANT {p.stem}:"), p
        variants = files_in(lab, "variants")
        assert len(variants) >= 1
        for p in variants:
            assert p.read_text().startswith(f"/*\n * VARIANT {p.stem}:"), p
    assert "tile-width-32" in {p.stem for p in files_in("04-conv-2batch", "variants")}


@pytest.mark.parametrize("lab", LABS)
def test_manifest(lab):
    m = kit.manifest(lab)
    assert m["source"] == LABS[lab] and m["id"] == lab
    assert {(r["name"], r["points"]) for r in m["requirements"] if r["name"] != "no_hazards"} == \
        {(r, 2 if r == "two_batch" else 1) for r in REQUIREMENTS[lab] | {"global_reuse"}}
    assert kit.hazard_share(m) >= 1 / 3
    names = [d["name"] for d in m["datasets"]]
    assert len(names) == len(set(names))
    sizes = [(d["params"]["height"], d["params"]["width"], d["params"]["channels"])
             for d in m["datasets"] if not d.get("on_demand")]
    assert (1, 1, 1) in sizes
    assert {c for _, _, c in sizes} == {1, 3}
    assert any(h != w for h, w, _ in sizes)
    assert max(max(h, w) for h, w, _ in sizes) <= 400
    tile = 16 if lab == "04-conv-2batch" else 12
    for t in (tile - 1, tile, tile + 1):
        assert any(h == t or w == t for h, w, _ in sizes), t
    assert any(d["params"]["mask"] == "asymmetric" for d in m["datasets"])
    big = [d for d in m["datasets"] if d.get("on_demand")]
    assert [(d["params"]["height"], d["params"]["width"], d["params"]["channels"]) for d in big] == \
        [(4096, 4096, 3)]
    for d in m["datasets"]:
        assert (kit.ROOT / "datasets" / lab / d["name"]).is_dir() != bool(d.get("on_demand")), d["name"]


# ---- on each backend ------------------------------------------------------------

@pytest.mark.parametrize("lab", LABS)
def test_solution_passes_everything(backend, lab):
    rc, rep = kit.check_json(lab, kit.solution(lab), backend, expect_rc=0)
    assert kit.statuses(rep) == {name: "pass" for name in kit.public_datasets(lab)}
    assert kit.requirement_statuses(rep) == {name: "pass" for name in REQUIREMENTS[lab]}
    points = sum(r["points"] for r in kit.manifest(lab)["requirements"] if r["name"] not in kit.CHECKER_REQUIREMENTS)
    # without the checkers their requirements are not checked: in the maximum, unearned
    assert kit.unchecked_requirements(rep) == set(kit.CHECKER_REQUIREMENTS)
    assert rep["score"] == kit.best_score(lab, checkers=False) == len(kit.public_datasets(lab)) + points
    assert rep["max_score"] == kit.max_score(lab)


@pytest.mark.parametrize("lab", LABS)
def test_skeleton_is_cleanly_wrong(backend, lab):
    rc, rep = kit.check_json(lab, kit.skeleton(lab), backend, expect_rc=1)
    assert rep["build"]["ok"], rep["build"]["log"]
    assert kit.statuses(rep) == {name: "wrong" for name in kit.public_datasets(lab)}
    for d in rep["datasets"]:
        assert d["score"] == 0, d
        c = d["comparison"]
        assert c["never_written"] == c["elements"] > 0, (d["name"], c)
    assert rep["score"] == 0
    assert set(kit.requirement_statuses(rep).values()) == {"requirement_failed"}


@pytest.mark.parametrize("lab, path", params("variants"))
def test_correct_variant_passes(backend, lab, path):
    rc, rep = kit.check_json(lab, path, backend, expect_rc=0)
    assert kit.statuses(rep) == {name: "pass" for name in kit.public_datasets(lab)}
    assert kit.requirement_statuses(rep) == {name: "pass" for name in REQUIREMENTS[lab]}


def test_a_launch_spaced_as_an_editor_formats_it_gets_full_marks(backend, tmp_path):
    """`kernel<< <grid, block >> >(...)`, which nvcc accepts (the emulator
    once scored such a file 0 as a compile_error): the reference solution
    with only its launch so spelt, made here rather than kept as a copy."""
    lab = "04-conv-2batch"
    src = kit.solution(lab).read_text()
    spaced = re.sub(r"<<<\s*(\w+)\s*,\s*(\w+)\s*>>>", r"<< <\1, \2 >> >", src)
    assert spaced.count("<< <") == 1 and "<<<" not in spaced
    path = tmp_path / LABS[lab]
    path.write_text(spaced)
    rc, rep = kit.check_json(lab, path, backend, expect_rc=0)
    assert kit.statuses(rep) == {name: "pass" for name in kit.public_datasets(lab)}
    assert kit.requirement_statuses(rep) == {name: "pass" for name in REQUIREMENTS[lab]}


def test_one_thread_per_input_element_misses_only_the_two_batch_technique(backend):
    """Lab 05's tiling in lab 04 (blocks as large as the input tile, one
    element a thread, the halo ring idle in the sum): every output right,
    shared memory, barriers and the constant mask there, and only
    [two_batch] lost, with the blocks the kit saw and the lab's technique."""
    lab = "04-conv-2batch"
    path = kit.ROOT / "grader" / "tests" / "programs" / lab / "one_thread_per_input_element.cu"
    rc, rep = kit.check_json(lab, path, backend, expect_rc=1)
    assert kit.statuses(rep) == {name: "pass" for name in kit.public_datasets(lab)}
    want = {name: "pass" for name in REQUIREMENTS[lab]}
    want["two_batch"] = "requirement_failed"
    assert kit.requirement_statuses(rep) == want
    tb = next(r for r in rep["requirements"] if r["name"] == "two_batch")
    assert tb["score"] == 0 and tb["max_score"] == 2, tb
    for words in ("20 x 20 = 400 threads", "400-float shared tile", "one thread per output pixel", "two batches"):
        assert words in tb["message"], (words, tb["message"])
    assert rep["max_score"] - rep["score"] == 2 + kit.unchecked_points(kit.manifest(lab))
    # the reference: its 16 x 16 blocks, seen the same way
    rc, rep = kit.check_json(lab, kit.solution(lab), backend, expect_rc=0)
    tb = next(r for r in rep["requirements"] if r["name"] == "two_batch")
    assert "16 x 16 = 256 threads" in tb["message"] and "in 2 batches" in tb["message"], tb


def test_a_tile_of_every_channel_filled_one_channel_a_pass_fails_two_batch(backend):
    """A shared tile of all three channels with blocks as large as one
    channel's input tile, filled one channel per pass: the tile has more
    floats than the block has threads, but each pass stores one element a
    thread. The checkers' counts (shared stores per thread and channel)
    show it: [two_batch] is lost, and only it; the reference keeps it with
    the same counts."""
    lab = "04-conv-2batch"
    path = kit.ROOT / "grader" / "tests" / "programs" / lab / "one_channel_per_pass.cu"
    rc, rep = kit.check_json(lab, path, backend, "--dataset", "rgb-47x29", sanitize=True, expect_rc=1)
    assert kit.statuses(rep) == {"rgb-47x29": "pass"}, rep["datasets"]
    want = {r["name"]: "pass" for r in kit.manifest(lab)["requirements"]}
    want["two_batch"] = "requirement_failed"
    assert kit.requirement_statuses(rep) == want, rep["requirements"]
    tb = next(r for r in rep["requirements"] if r["name"] == "two_batch")
    for words in ("20 x 20 = 400 threads", "1.00 floats a thread", "per channel on rgb-47x29", "two batches"):
        assert words in tb["message"], (words, tb["message"])
    rc, rep = kit.check_json(lab, kit.solution(lab), backend, "--dataset", "rgb-47x29", sanitize=True, expect_rc=0)
    tb = next(r for r in rep["requirements"] if r["name"] == "two_batch")
    assert tb["status"] == "pass" and "in 2 batches" in tb["message"], tb


def test_a_dummy_kernels_large_tile_earns_no_two_batch(backend, tmp_path):
    """The kernel token gives the largest block, not which kernel ran it:
    one thread per input element beside a dummy kernel whose shared array
    is larger than that block (launched with one thread) must not earn
    [two_batch] from the dummy's tile. The smallest kernel's tile is judged,
    and the message says why."""
    lab = "04-conv-2batch"
    src = (kit.ROOT / "grader" / "tests" / "programs" / lab / "one_thread_per_input_element.cu").read_text()
    dummy = """
__global__ void big_tile(float *out)
{
    __shared__ float big[32][32];
    big[threadIdx.y][threadIdx.x] = 0.0f;
    __syncthreads();
    out[0] += big[0][0];
}
"""
    gamed = src.replace("void conv_2batch(", dummy + "\nvoid conv_2batch(")
    gamed = gamed.replace("    CUDA_CHECK(cudaGetLastError());\n}",
                          "    CUDA_CHECK(cudaGetLastError());\n    big_tile<<<1, 1>>>(P);\n"
                          "    CUDA_CHECK(cudaGetLastError());\n}")
    assert gamed.count("big_tile") == 2, gamed
    path = tmp_path / LABS[lab]
    path.write_text(gamed)
    rc, rep = kit.check_json(lab, path, backend, "--dataset", "gray-31x33-checker", expect_rc=1)
    tb = next(r for r in rep["requirements"] if r["name"] == "two_batch")
    assert tb["status"] == "requirement_failed" and tb["score"] == 0, tb
    for words in ("20 x 20 = 400 threads", "conv_one_per_element's 400-float shared tile",
                  "the smallest of your kernels' tiles", "big_tile has 1024 floats"):
        assert words in tb["message"], (words, tb["message"])


def test_printed_block_shapes_without_the_token_earn_nothing(backend, tmp_path):
    """The block two_batch judges comes only with the kernel token: a host
    loop that computes the convolution and prints token-shaped lines (a 16 x
    16 block's shape alone, and XORed with guesses) earns no dataset and no
    two_batch."""
    lab = "04-conv-2batch"
    path = tmp_path / LABS[lab]
    path.write_text(r"""
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>

__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];
__global__ void unused_kernel(void) { __shared__ float N_ds[20][20]; N_ds[0][0] = 0; __syncthreads(); }

void conv_2batch(const float *I, float *P, int height, int width, int channels, const float *mask)
{
    size_t n = (size_t)height * width * channels;
    float *in = (float *)malloc(n * sizeof(float)), *out = (float *)malloc(n * sizeof(float));
    CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(in, I, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            for (int c = 0; c < channels; c++) {
                float acc = 0.0f;
                for (int i = 0; i < MASK_WIDTH; i++)
                    for (int j = 0; j < MASK_WIDTH; j++) {
                        int sy = y + i - MASK_RADIUS, sx = x + j - MASK_RADIUS;
                        if (sy >= 0 && sy < height && sx >= 0 && sx < width)
                            acc += mask[i * MASK_WIDTH + j] * in[(sy * width + sx) * channels + c];
                    }
                out[(y * width + x) * channels + c] = acc;
            }
    CUDA_CHECK(cudaMemcpy(P, out, n * sizeof(float), cudaMemcpyHostToDevice));
    free(in);
    free(out);
    unsigned long long shape = 16ULL | 16ULL << 11 | 1ULL << 22;
    for (unsigned long long g = 0; g < 60; g++)
        printf("\n@gpulab\tkernel_token\t%llx\n", shape ^ (g << 29) ^ (g ? 1ULL << 63 : 0));
}
""")
    rc, rep = kit.check_json(lab, path, backend, "--dataset", "rgb-5x7", expect_rc=1)
    assert kit.statuses(rep) == {"rgb-5x7": "requirement_failed"}, rep["datasets"]
    tb = next(r for r in rep["requirements"] if r["name"] == "two_batch")
    assert tb["status"] == "requirement_failed" and tb["message"].startswith("could not be checked"), tb


@pytest.mark.parametrize("lab, path", params("mutants"))
def test_mutant_fails(backend, lab, path):
    # ghost-not-zeroed used to pass on an H200, whose fresh shared memory read
    # as zeros; the harness now fills shared memory with NaN before the call
    # (grader/runtime/smem_poison.cu), so it must fail there too.
    sanitize = (backend, lab, path.stem) in RACES_ON_GPU
    rc, rep = kit.check_json(lab, path, backend, "--dataset", MUTANT_DATASET, sanitize=sanitize)
    assert rc == 1, (rc, rep)
    (d,) = rep["datasets"]
    assert d["status"] not in ("pass", "grader_error", "dataset_error"), d
    assert d["score"] == 0


def test_lab05_padding_overwrite_is_reported_by_the_harness(backend):
    path = kit.ROOT / "solutions" / "05-pitched-conv" / "mutants" / "writes-into-padding.cu"
    rc, rep = kit.check_json("05-pitched-conv", path, backend, "--dataset", MUTANT_DATASET, expect_rc=1)
    (d,) = rep["datasets"]
    assert d["status"] == "wrong" and "padding of out" in d["message"], d


# ---- lab 05's padding, checked by the grader and drawn on the map ------------------

INTACT, CHANGED = (20, 70, 60), (0, 255, 255)  # errormap.h: the padding's two colours
RIGHT = (48, 48, 48)  # errormap.h: an element within tolerance


def padding_map(path):
    """The error map of a 47 x 29 lab 05 output with its padding: (pad, pixel
    at (row, column)), where columns 0..28 are the image's pixels and
    29..29+pad-1 the padding floats of that row."""
    w, h, pix = kit.read_map(path)
    s = h // 47
    assert h == 47 * s and w % s == 0, (w, h)
    pad = w // s - 29

    def at(y, x):  # the centre of the map cell (y, x)
        i = ((y * s + s // 2) * w + x * s + s // 2) * 3
        return tuple(pix[i:i + 3])
    return pad, at


def test_lab05_padding_map_flags_exactly_the_changed_padding(backend, tmp_path):
    # The reference solution, plus a host-side write into the padding of
    # every other row, at a float that moves along the padding: the image is
    # right, some padding floats are not.
    text = kit.solution("05-pitched-conv").read_text()
    anchor = "    CUDA_CHECK(cudaFree(d_in));\n"
    assert anchor in text
    damage = ("    for (int y = 0; y < out->height; y += 2) {\n"
              "        int row = out->width * out->channels, pad = out->pitch - row;\n"
              "        out->data[(size_t)y * out->pitch + row + (y / 2) % pad] = 0.0f;\n"
              "    }\n")
    src = tmp_path / "pitched_conv.cu"
    src.write_text(text.replace(anchor, damage + anchor, 1))
    maps = tmp_path / "maps"
    rc, rep = kit.check_json("05-pitched-conv", src, backend, "--dataset", MUTANT_DATASET,
                             "--maps", maps, expect_rc=1)
    (d,) = rep["datasets"]
    c = d["comparison"]
    assert d["status"] == "wrong" and c["mismatches"] == 0, d
    assert c["padding"] == {"floats": 141, "changed": 24}, c["padding"]
    assert "in padding: 24 of 141 padding floats changed, rows 0..46 (24 of those rows)" in c["hint"], c["hint"]
    assert c["error_map"] == str(maps / "05-pitched-conv" / f"pitched_conv-{MUTANT_DATASET}.png")
    pad, at = padding_map(Path(c["error_map"]))
    assert pad == 1 + 47 % 5  # the harness's output padding for 47 rows
    for y in range(47):
        for x in range(29):
            assert at(y, x) == RIGHT, (y, x)  # every pixel right: dark grey
        for j in range(pad):
            want = CHANGED if y % 2 == 0 and j == (y // 2) % pad else INTACT
            assert at(y, 29 + j) == want, (y, j)


def test_writes_into_padding_gets_a_padding_map(backend, tmp_path):
    path = kit.ROOT / "solutions" / "05-pitched-conv" / "mutants" / "writes-into-padding.cu"
    maps = tmp_path / "maps"
    rc, rep = kit.check_json("05-pitched-conv", path, backend, "--dataset", MUTANT_DATASET, "--maps", maps,
                             expect_rc=1)
    (d,) = rep["datasets"]
    c = d["comparison"]
    assert d["status"] == "wrong" and "padding of out" in d["message"], d
    assert c["padding"] == {"floats": 141, "changed": 141}, c["padding"]
    assert c["hint"].startswith("The image is right; the errors are in padding: 141 of 141 padding floats "
                                "changed, rows 0..46"), c["hint"]
    assert c["error_map"] == str(maps / "05-pitched-conv" / f"writes-into-padding-{MUTANT_DATASET}.png")
    pad, at = padding_map(Path(c["error_map"]))
    assert pad == 3
    for y in range(47):
        assert [at(y, x) for x in range(29)] == [RIGHT] * 29, y
        assert [at(y, 29 + j) for j in range(pad)] == [CHANGED] * pad, y


# ---- the fault map: which threads made invalid accesses ----------------------------

ORANGE, DARK = (255, 96, 0), (28, 28, 36)  # errormap.h: a faulting thread, any other


def test_second_batch_unbounded_gets_a_fault_map(backend, tmp_path):
    # Every run ends in an illegal address, so there is no output to draw: the
    # sanitizer stage names the threads that wrote past the end of N_ds. With
    # dest = 16 * ty + tx + 256 and destY = dest / 20, destY >= 20 exactly
    # when ty >= 9: rows 9 to 15 of every 16 x 16 block.
    lab = "04-conv-2batch"
    path = kit.ROOT / "solutions" / lab / "mutants" / "second-batch-unbounded.cu"
    dataset = "gray-31x33-checker"  # 3 x 2 blocks
    maps = tmp_path / "maps"
    rc, rep = kit.check_json(lab, path, backend, "--dataset", dataset, "--maps", maps, sanitize=True, expect_rc=1)
    (d,) = rep["datasets"]
    assert d["status"] == "cuda_error" and d["comparison"] is None, d
    san = d["sanitizer"]
    f = san["faulting_threads"]
    assert f is not None, san
    want_map = maps / lab / f"second-batch-unbounded-{dataset}.png"
    assert san["fault_map"] == str(want_map) and want_map.exists()
    # the kernel ran (and crashed): its shared memory and barrier are seen;
    # the out-of-bounds write fails no_hazards, naming its line; no call
    # finished, so the kit did not see the blocks two_batch judges; its
    # reads were counted on a dataset that did not pass: no global_reuse
    want = {name: "pass" for name in REQUIREMENTS[lab]}
    want["no_hazards"] = want["two_batch"] = want["global_reuse"] = "requirement_failed"
    assert kit.requirement_statuses(rep) == want
    hz = next(r for r in rep["requirements"] if r["name"] == "no_hazards")
    assert hz["score"] == 0 and hz["max_score"] * 3 >= rep["max_score"], hz
    assert "line " in hz["message"] and dataset in hz["message"], hz
    w, h, pix = kit.read_map(want_map, key=False)
    if backend == "emu":
        # the emulator knows the launch and runs it to its end
        assert f["grid"] == [3, 2, 1] and f["block"] == [16, 16, 1] and f["launch_size_known"] is True
        assert f["complete"] is True and f["count"] == 6 * 7 * 16
        assert f["summary"].startswith("672 of the 1536 threads of conv_2batch_kernel made an invalid memory "
                                       "access: the threads in rows 9 to 15 (threadIdx.y = 9..15) of every block")
    # on a GPU the grid and blocks are the smallest that hold the threads memcheck named
    (gx, gy, gz), (bw, bh, bd) = f["grid"], f["block"]
    assert gz == bd == 1 and bw <= 16 and bh <= 16, f
    s = w // (gx * bw)
    assert (w, h) == (gx * bw * s, gy * bh * s) and s >= 2, (w, h, f)
    seen = 0
    for by in range(gy):
        for bx in range(gx):
            for ty in range(bh):
                for tx in range(bw):
                    y, x = (by * bh + ty) * s + s // 2, (bx * bw + tx) * s + s // 2
                    i = (y * w + x) * 3
                    cell = tuple(pix[i:i + 3])
                    assert cell in (ORANGE, DARK), (bx, by, tx, ty, cell)
                    if backend == "emu":
                        assert (cell == ORANGE) == (ty >= 9), (bx, by, tx, ty)
                    elif cell == ORANGE:  # memcheck may stop early: never a thread above row 9
                        assert ty >= 9, (bx, by, tx, ty)
                    seen += cell == ORANGE
    assert seen == f["count"], (seen, f["count"])
    # the text report says it and names the map
    p = kit.gpulab("check", lab, path, "--backend", backend, "--dataset", dataset, "--maps", tmp_path / "text")
    assert "    faulting threads: " in p.stdout and "rows 9 to 15" in p.stdout, p.stdout
    assert f"    fault map: {tmp_path / 'text' / lab / f'second-batch-unbounded-{dataset}.png'}" in p.stdout


@pytest.mark.parametrize("lab, path", params("mutants"))
def test_every_mutant_gets_a_map(backend, lab, path, tmp_path):
    # Issue #5: a failing image lab writes a map beside its report, on every
    # mutant: an error map where an output exists (its padding too, lab 05),
    # a fault map of the faulting threads where a run crashed without one.
    # The sanitizer stage on, first on the dataset where the mutant's header
    # says it fails (Kit says: dataset=NAME), a fraction of a full check's
    # cost; where that names no map, a full check (every public dataset),
    # which must. Every dataset of a failing lab having its map named is
    # test_report.py's test_every_wrong_dataset_has_its_error_map_named.
    maps = tmp_path / "maps"
    dataset = re.search(r"Kit says: dataset=([^;\s]+);", path.read_text()).group(1)
    for only in (["--dataset", dataset], []):
        rc, rep = kit.check_json(lab, path, backend, "--maps", maps, *only, sanitize=True, expect_rc=1)
        named = [d["comparison"]["error_map"] for d in rep["datasets"] if d["comparison"]]
        named += [d["sanitizer"]["fault_map"] for d in rep["datasets"] if d["sanitizer"]]
        # on a GPU a race may leave the image right (status unsafe): its race map shows who raced
        named += [d["sanitizer"]["race_map"] for d in rep["datasets"] if d["sanitizer"]]
        named = [m for m in named if m]
        if named:
            break
    # a copy CUDA refuses on every dataset (a cudaMemcpy2D whose kind does
    # not fit its pointers: cudaErrorInvalidValue on a GPU and on the
    # emulator) leaves no output and no faulting thread: nothing to map, and
    # the message names the refused call instead
    refused = [d for d in rep["datasets"] if d["status"] == "cuda_error" and " from cudaMemcpy" in d["message"]]
    if not named and len(refused) == len(rep["datasets"]):
        return
    assert named, [(d["name"], d["status"], d["message"]) for d in rep["datasets"]]
    for m in named:
        assert m.startswith(str(maps / lab / path.stem)) and m.endswith(".png"), m
        kit.read_png(Path(m))  # a whole PNG, every chunk's CRC right


# ---- the error map ---------------------------------------------------------------

DRIVER = r"""
/* Test driver for errormap.c: reads an expected output, makes a "got" from it
 * with one kind of damage, draws the map and prints the summary. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "errormap.h"

int main(int argc, char **argv)
{
    if (argc != 6) return 2;
    const char *mode = argv[3];
    int T = atoi(argv[4]), h = atoi(argv[5]);
    gl_reference want;
    gl_matrix got;
    gl_error err;
    if (gl_read_reference(argv[1], &want, &err)) { fprintf(stderr, "%s\n", err.msg); return 3; }
    if (gl_matrix_alloc(&got, want.rows, want.cols, want.channels, &err)) return 3;
    for (int y = 0; y < want.rows; y++)
        for (int x = 0; x < want.cols; x++)
            for (int c = 0; c < want.channels; c++) {
                size_t e = ((size_t)y * want.cols + x) * want.channels + c;
                float v = (float)want.value[e];
                int ty = y % T, tx = x % T;
                int damage =
                    !strcmp(mode, "image-border") ? (y < 2 || x < 2 || y >= want.rows - 2 || x >= want.cols - 2) :
                    !strcmp(mode, "tile-bottom") ? ty >= T - 4 :
                    !strcmp(mode, "tile-edges") ? (ty >= T - 2 || tx >= T - 2) :
                    !strcmp(mode, "corners") ? ((ty < 2 || ty >= T - 2) && (tx < 2 || tx >= T - 2)) :
                    !strcmp(mode, "channel1") ? c == 1 :
                    !strcmp(mode, "partial-col") ? x >= want.cols / T * T :
                    !strcmp(mode, "poison-all") ? 1 :
                    !strcmp(mode, "nan") ? (y == 5 && x == 7) : 0;
                if (damage) {
                    if (!strcmp(mode, "poison-all") || !strcmp(mode, "partial-col"))
                    {
                        uint32_t poison = GL_POISON_BITS;
                        memcpy(&v, &poison, sizeof v);
                    }
                    else if (!strcmp(mode, "nan"))
                        v = NAN;
                    else
                        v += 1.0f;
                }
                got.data[e] = v;
            }
    char *summary;
    int rc = errormap_write(argv[2], &got, &want, NULL, T, h, &summary);
    printf("%s\n", summary);
    free(summary);
    return rc ? 1 : 0;
}
"""


@pytest.fixture(scope="module")
def errormap_driver(tmp_path_factory):
    if GCC is None:
        pytest.skip("gcc is not installed")
    d = tmp_path_factory.mktemp("errormap")
    (d / "driver.c").write_text(DRIVER)
    exe = d / "driver"
    p = kit.run([GCC, "-std=c11", "-Wall", "-Wextra", "-Werror", *kit.grader_includes(),
                 "-I", kit.ROOT / "grader" / "runtime", *PNG_CFLAGS, d / "driver.c",
                 kit.grader_src("errormap.c"), kit.ROOT / "grader" / "runtime" / "dataset.c",
                 "-o", exe, *PNG_LIBS, "-lm"], timeout=120)
    assert p.returncode == 0, p.stderr
    return exe


def pkg_config(*args):
    """pkg-config's words for libpng, else those of a copy in .carry/png (a
    GPU machine with no package registry, as run-on-gpu.sh builds the kit),
    else the usual ones."""
    if shutil.which("pkg-config"):
        p = kit.run(["pkg-config", *args, "libpng"])
        if p.returncode == 0:
            return p.stdout.split()
    carry = kit.ROOT / ".carry" / "png"
    if carry.is_dir():
        return [f"-I{carry / 'include'}"] if args[0] == "--cflags" else \
            [f"-L{carry / 'lib'}", "-lpng16", f"-Wl,-rpath,{carry / 'lib'}"]
    return [] if args[0] == "--cflags" else ["-lpng16"]


PNG_CFLAGS, PNG_LIBS = pkg_config("--cflags"), pkg_config("--libs")


# 131 rows x 197 columns x 3 channels: 16-wide tiles leave a partial last
# column of tiles (192..196) and row (128..130).
EXPECTED = kit.ROOT / "datasets" / "04-conv-2batch" / "rgb-131x197-mix" / "expected.tensor"


@pytest.mark.parametrize("mode, words", [
    ("none", ["All 77421 elements are within tolerance"]),
    ("poison-all", ["None of the 77421 elements was written"]),
    ("image-border", ["at the image border", "top, bottom, left and right"]),
    ("tile-bottom", ["same part of every tile", "rows 12 to 15", "16 x 16"]),
    ("tile-edges", ["along tile borders", "bottom and right edges"]),
    ("corners", ["at the corners of the 16 x 16 tiles"]),
    ("channel1", ["almost everywhere", "only in channel 1"]),
    ("partial-col", ["never written", "last, partial column of tiles (columns 192 to 196)"]),
    ("nan", ["3 NaN or infinite", "all at one position", "row 5, column 7"]),
])
def test_errormap_summary(tmp_path, errormap_driver, mode, words):
    out = tmp_path / "map.png"
    p = kit.run([errormap_driver, EXPECTED, out, mode, 16, 2])
    assert p.returncode == 0, p.stdout + p.stderr
    summary = p.stdout.strip()
    assert summary.endswith(".") and "\n" not in summary
    for w in words:
        assert w in summary, summary


def test_errormap_picture(tmp_path, errormap_driver):
    out = tmp_path / "map.png"
    p = kit.run([errormap_driver, EXPECTED, out, "partial-col", 16, 2])
    assert p.returncode == 0, p.stderr
    w, h, pix = kit.read_map(out)
    s = 5  # the largest scale <= 8 with s * 197 <= 1024
    assert (w, h) == (197 * s, 131 * s)

    def at(y, x):  # the centre of element (y, x)'s block
        i = ((y * s + s // 2) * w + x * s + s // 2) * 3
        return tuple(pix[i:i + 3])

    assert at(3, 3) == RIGHT                 # correct: dark grey
    assert at(3, 195) == (40, 90, 255)       # never written: blue
    grid = tuple(pix[((3 * s) * w + 16 * s) * 3:((3 * s) * w + 16 * s) * 3 + 3])
    assert grid != RIGHT and max(grid) < 128  # a faint tile line at column 16

    p = kit.run([errormap_driver, EXPECTED, out, "nan", 16, 2])
    w, h, pix = kit.read_map(out)
    assert at(5, 7) == (255, 0, 255)         # NaN: magenta

    p = kit.run([errormap_driver, EXPECTED, out, "tile-bottom", 16, 2])
    w, h, pix = kit.read_map(out)
    r, g, b = at(14, 3)
    # off by 1, about 10^5 tolerances: far along the ramp, towards saturated
    # red, never white (it must show on a white page)
    assert r == 255 and g < 100 and b == 0, (r, g, b)
    assert at(3, 3) == RIGHT


def test_errormap_png_is_framed_and_keyed(tmp_path, errormap_driver):
    """The file is a PNG (signature, IHDR), framed in grey, with the key strip
    under the picture: right, the ramp of wrong (dark yellow to red), NaN,
    never written."""
    out = tmp_path / "map.png"
    p = kit.run([errormap_driver, EXPECTED, out, "tile-bottom", 16, 2])
    assert p.returncode == 0, p.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    W, H = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (W, H) == (197 * 5 + 8, 131 * 5 + 8 + 14) and data[24:26] == bytes([8, 2])  # 8-bit RGB
    W2, H2, pix = kit.read_png(out)
    assert (W2, H2) == (W, H)

    def px(x, y):
        return tuple(pix[(y * W + x) * 3:(y * W + x) * 3 + 3])
    key_y = 4 + 131 * 5 + 4 + 5            # the middle of the key strip
    assert px(4 + 5, key_y) == RIGHT
    ramp = [px(4 + 14 + i, key_y) for i in range(80)]
    assert ramp[0] == (170, 150, 0) and ramp[-1] == (255, 0, 0), (ramp[0], ramp[-1])
    assert all(b == 0 and r >= 170 for r, g, b in ramp)  # never white, never grey
    assert px(4 + 98 + 5, key_y) == (255, 0, 255)
    assert px(4 + 112 + 5, key_y) == (40, 90, 255)


def test_small_map_is_at_least_as_wide_as_its_key(tmp_path):
    """A 1 x 1 image's map is drawn at scale 8 in a canvas wide enough for
    the key strip; its one wrong pixel is on the ramp, not the right grey."""
    lab = "04-conv-2batch"
    src = tmp_path / "conv.cu"
    text = kit.solution(lab).read_text()
    # every output pixel off by far more than its tolerance
    store = "P[(y * width + x) * channels + k] = acc;"
    assert store in text
    src.write_text(text.replace(store, store.replace("acc;", "acc + 1.0f;"), 1))
    maps = tmp_path / "maps"
    rc, rep = kit.check_json(lab, src, "emu", "--dataset", "gray-1x1", "--maps", maps, expect_rc=1)
    (d,) = rep["datasets"]
    path = Path(d["comparison"]["error_map"])
    W, H, pix = kit.read_png(path)
    assert (W, H) == (122 + 8, 8 + 8 + 14)
    centre = tuple(pix[((4 + 4) * W + 4 + 4) * 3:((4 + 4) * W + 4 + 4) * 3 + 3])
    assert centre != RIGHT and centre[0] >= 170 and centre[2] == 0, centre


def test_errormap_rejects_a_shape_mismatch(tmp_path, errormap_driver):
    # the driver always builds got from want, so check the unwritable-path error instead
    p = kit.run([errormap_driver, EXPECTED, tmp_path / "no" / "such" / "dir.ppm", "none", 16, 2])
    assert p.returncode == 1 and "cannot write" in p.stdout


def test_missing_channel_barrier_is_found_and_costs_a_third(backend):
    """The barrier at the end of the channel loop left out, graded on every
    public dataset with the checkers: whichever datasets the race shows on
    (on a GPU it may leave every answer right), the checkers look at a
    colour image, name the racing lines, and no_hazards costs at least a
    third of the lab's points."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "04-conv-2batch"
    path = kit.ROOT / "solutions" / lab / "mutants" / "no-barrier-between-channels.cu"
    read_line = next(i for i, l in enumerate(path.read_text().splitlines(), 1) if "acc += Mc" in l)
    rc, rep = kit.check_json(lab, path, backend, sanitize=True, expect_rc=1)
    hz = next(r for r in rep["requirements"] if r["name"] == "no_hazards")
    assert hz["status"] == "requirement_failed" and hz["score"] == 0, hz
    assert "race" in hz["message"] and f"line {read_line}" in hz["message"] and "N_ds[" in hz["message"], hz
    assert "(on rgb-" in hz["message"], hz
    assert rep["max_score"] - rep["score"] >= rep["max_score"] / 3, (rep["score"], rep["max_score"])


def checked(rep):
    """The datasets the checkers looked at."""
    return [d for d in rep["datasets"] if d.get("sanitizer") is not None]


@pytest.mark.parametrize("lab", LABS)
def test_checkers_look_at_a_failure_and_each_kind_of_input(backend, lab):
    """At most three datasets under the checkers: the smallest failure, and
    between them gray and colour, square and ragged images."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    params = {d["name"]: d["params"] for d in kit.manifest(lab)["datasets"]}

    def kinds(ds):
        return ({"gray" if params[d["name"]]["channels"] == 1 else "colour" for d in ds} |
                {"square" if params[d["name"]]["height"] == params[d["name"]]["width"] else "ragged" for d in ds})

    rc, rep = kit.check_json(lab, kit.solution(lab), backend, sanitize=True, expect_rc=0)
    ds = checked(rep)
    assert 2 <= len(ds) <= 3 and kinds(ds) == {"gray", "colour", "square", "ragged"}, [d["name"] for d in ds]
    # the mutant fails on colour images only (emulator): the smallest of them is looked at
    path = kit.ROOT / "solutions" / "04-conv-2batch" / "mutants" / "no-barrier-between-channels.cu"
    if lab == "04-conv-2batch" and backend == "emu":
        rc, rep = kit.check_json(lab, path, backend, sanitize=True, expect_rc=1)
        ds = checked(rep)
        failed = [d for d in rep["datasets"] if d["status"] not in ("pass", "unsafe")]
        smallest = min(failed, key=lambda d: d["comparison"]["elements"])
        assert smallest["name"] in [d["name"] for d in ds] and len(ds) <= 3, [d["name"] for d in ds]
        assert kinds(ds) == {"gray", "colour", "square", "ragged"}, [d["name"] for d in ds]


def test_stale_maps_are_removed_when_a_dataset_passes(tmp_path):
    """A map on disk pictures the latest check: the student fixes the file
    (same name) and checks again; the passing dataset's map, and any .ppm map
    an older kit left, are gone, while another file's maps stay."""
    lab, ds = "04-conv-2batch", "gray-15x15"
    src = tmp_path / "conv.cu"
    shutil.copy(kit.ROOT / "solutions" / lab / "mutants" / "mask-flipped.cu", src)
    maps = tmp_path / "maps"
    rc, rep = kit.check_json(lab, src, "emu", "--dataset", ds, "--maps", maps, expect_rc=1)
    png = maps / lab / f"conv-{ds}.png"
    assert rep["datasets"][0]["comparison"]["error_map"] == str(png) and png.exists()
    old_ppm = maps / lab / f"conv-{ds}.ppm"
    old_ppm.write_bytes(b"P6\n1 1\n255\n\0\0\0")
    other = maps / lab / f"other-{ds}.png"
    other.write_bytes(png.read_bytes())
    shutil.copy(kit.solution(lab), src)
    rc, rep = kit.check_json(lab, src, "emu", "--dataset", ds, "--maps", maps, expect_rc=0)
    assert rep["datasets"][0]["status"] == "pass"
    assert not png.exists() and not old_ppm.exists()
    assert other.exists()


def test_a_copy_to_the_mask_larger_than_it_says_why_on_the_emulator(tmp_path):
    """cudaMemcpyToSymbol of four bytes more than Mc holds: the dataset's
    message gives the emulator's sizes and the call's arguments in order,
    not only "invalid argument"."""
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    lab = "04-conv-2batch"
    src = (kit.ROOT / "solutions" / lab / "conv_2batch.cu").read_text()
    call = "cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float))"
    assert call in src
    bad = tmp_path / "mask-copy-too-long.cu"
    bad.write_text(src.replace(call, "cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float) + 4)"))
    _, rep = kit.check_json(lab, bad, "emu", "--dataset", "gray-1x1", expect_rc=1)
    (d,) = rep["datasets"]
    assert d["status"] == "cuda_error", d["status"]
    assert "104 bytes at offset 0): the symbol has 100 bytes" in d["message"], d["message"]
    assert "count in bytes, offset in bytes, kind" in d["message"], d["message"]
