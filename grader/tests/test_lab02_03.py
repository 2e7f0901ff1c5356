"""Labs 02 (tiled matmul) and 03 (arbitrary-size tiled matmul), end to end.

On each backend: the reference solutions and the correct variants pass every
public dataset and both requirements (shared_memory, barrier); the skeletons
run to a clean "wrong" (nothing written, nothing crashed); every mutant (one
realistic student mistake each) fails somewhere; the untiled kernel, right
answers and all, loses the requirements. Without a backend: the skeleton is
the solution minus its TODO regions' bodies, every file compiles with plain
nvcc, and the committed datasets are the ones the generators make.
"""
import re

import pytest

import kit

LABS = {"02-tiled-matmul": "tiled_matmul.cu", "03-arbitrary-matmul": "arbitrary_matmul.cu"}

# Mutants run on one dataset that shows every lab's mistakes (several phases,
# a partial last tile, no size a multiple of 16), not on all of them: the
# emulator is slow and the suite must stay quick on two cores.
MUTANT_DATASET = {"02-tiled-matmul": "width-0064", "03-arbitrary-matmul": "rect-67x45x89"}
REQUIREMENTS = {"shared_memory", "barrier"}


def files_in(lab, sub):
    return kit.lab_files(lab, sub)


def params(sub):
    return [pytest.param(lab, path, id=f"{lab}/{path.stem}") for lab in LABS for path in files_in(lab, sub)]


# A missing barrier is a race: a GPU shows it only sometimes (an H200 passed
# both missing-second-barrier mutants on these datasets). The emulator's
# schedule shows it every time, so only the emulator is asked to catch them.
RACES = {"missing-first-barrier", "missing-second-barrier"}

# Mistakes that show only where two sizes compare one way (a load's test on
# j where k belongs shows only where j < k) run on the dataset their header
# names (`Kit says: dataset=...`), which has that shape.
SIZE_DEPENDENT = {"m-load-test-wrong-size", "n-load-test-wrong-size"}


def kit_says(path):
    """The fields of a mutant's `Kit says:` header line (test_mistakes.py
    holds the kit to them): dataset, sanitize, status, words."""
    m = re.search(r"^ \* Kit says: (.*)$", path.read_text(), re.M)
    return dict(f.strip().split("=", 1) for f in m.group(1).split(";") if "=" in f) if m else {}


def checkers_only(path):
    """A mistake whose output comes out right by luck (a read outside an
    array, multiplied by a 0): only the checkers see it, as `unsafe`."""
    says = kit_says(path)
    return says.get("sanitize") == "yes" and says.get("status") == "unsafe"


def mutant_dataset(lab, path):
    if path.stem not in SIZE_DEPENDENT and not checkers_only(path):
        return MUTANT_DATASET[lab]
    dataset = kit_says(path).get("dataset")
    assert dataset, path
    return dataset


def mutant_params():
    out = []
    for p in params("mutants"):
        lab, path = p.values
        if path.stem == "no-tiling":
            continue
        out.append(pytest.param(lab, path, id=p.id))
    return out


# ---- no backend needed -------------------------------------------------------


@pytest.mark.parametrize("lab", LABS)
def test_solution_uses_the_lectures_names(lab):
    sol = kit.solution(lab).read_text()
    for name in ("Row", "Col", "tx", "ty", "bx", "by", "ph", "Pvalue", "TILE_WIDTH", "ds_M", "ds_N"):
        assert re.search(rf"\b{name}\b", sol), name
    assert re.search(r"^#define TILE_WIDTH 16$", sol, re.M)
    assert sol.count("__syncthreads()") == 2


def test_there_are_enough_mutants_and_variants():
    for lab in LABS:
        mutants = {p.stem for p in files_in(lab, "mutants")}
        assert {"missing-first-barrier", "missing-second-barrier", "swapped-tx-ty",
                "wrong-loop-variable", "no-tiling"} <= mutants, mutants
        variants = {p.stem for p in files_in(lab, "variants")}
        assert {"tile-8", "tile-32"} <= variants and len(variants) >= 3, variants
    lab03 = {p.stem for p in files_in("03-arbitrary-matmul", "mutants")}
    assert {"unguarded-loads", "single-width", "floor-phase-count", "no-zero-fill",
            "unguarded-output"} <= lab03, lab03
    for lab in LABS:
        for p in files_in(lab, "mutants"):
            head = p.read_text().split("*/", 1)[0]
            assert "mistake" in head.lower() and "student sees" in head.lower(), p


@pytest.mark.parametrize("lab", LABS)
def test_manifest(lab):
    m = kit.manifest(lab)
    assert m["source"] == LABS[lab] and m["id"] == lab
    assert {(r["name"], r["points"]) for r in m["requirements"] if r["name"] != "no_hazards"} == \
        {("shared_memory", 1), ("barrier", 1), ("global_reuse", 1)}
    assert kit.hazard_share(m) >= 1 / 3
    names = [d["name"] for d in m["datasets"]]
    assert len(names) == len(set(names))
    if lab == "02-tiled-matmul":
        widths = [d["params"]["width"] for d in m["datasets"]]
        assert all(w % 32 == 0 for w in widths) and min(widths) == 32
        assert any(d["params"]["width"] == 4096 and d.get("on_demand") for d in m["datasets"])
    else:
        assert len(kit.public_datasets(lab)) >= 14
        dims = [(d["params"]["j"], d["params"]["k"], d["params"]["l"]) for d in m["datasets"]
                if not d.get("on_demand")]
        assert (1, 1, 1) in dims and (100, 100, 100) in dims
        for axis in range(3):  # TILE_WIDTH - 1 and + 1 in each dimension, separately
            assert any(d[axis] == 15 and all(d[a] > 16 for a in range(3) if a != axis) for d in dims)
            assert any(d[axis] == 17 and all(d[a] != 17 for a in range(3) if a != axis) for d in dims)
        assert any(max(d) < 16 for d in dims)
        assert max(max(d) for d in dims) <= 400
    # on-demand datasets are never committed; every public one is
    for d in m["datasets"]:
        assert (kit.ROOT / "datasets" / lab / d["name"]).is_dir() != bool(d.get("on_demand")), d["name"]


# ---- on each backend ------------------------------------------------------------

@pytest.mark.parametrize("lab", LABS)
def test_solution_passes_everything(backend, lab):
    rc, rep = kit.check_json(lab, kit.solution(lab), backend, expect_rc=0)
    assert kit.statuses(rep) == {name: "pass" for name in kit.public_datasets(lab)}
    assert kit.requirement_statuses(rep) == {name: "pass" for name in REQUIREMENTS}
    # without the checkers their requirements are not checked: in the maximum, unearned
    assert kit.unchecked_requirements(rep) == set(kit.CHECKER_REQUIREMENTS)
    assert rep["score"] == kit.best_score(lab, checkers=False) == len(kit.public_datasets(lab)) + len(REQUIREMENTS)
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


@pytest.mark.parametrize("lab, path", params("variants"))
def test_correct_variant_passes(backend, lab, path):
    rc, rep = kit.check_json(lab, path, backend, expect_rc=0)
    assert kit.statuses(rep) == {name: "pass" for name in kit.public_datasets(lab)}
    assert kit.requirement_statuses(rep) == {name: "pass" for name in REQUIREMENTS}


@pytest.mark.parametrize("lab, path", mutant_params())
def test_mutant_fails(backend, lab, path):
    # A race shows on a GPU only sometimes: there the sanitizer stage must
    # catch what the output does not (status unsafe).
    race_on_gpu = backend == "gpu" and path.stem in RACES
    checked = race_on_gpu or checkers_only(path)
    dataset = mutant_dataset(lab, path)
    rc, rep = kit.check_json(lab, path, backend, "--dataset", dataset, sanitize=checked)
    assert rep["build"]["ok"], rep["build"]["log"]
    st = kit.statuses(rep)
    assert set(st) == {dataset}, st
    failing = ("wrong", "crash", "cuda_error", "timeout") + (("unsafe",) if checked else ())
    assert rc == 1 and st[dataset] in failing, st


@pytest.mark.parametrize("lab", LABS)
def test_untiled_kernel_fails_the_requirements(backend, lab):
    path = kit.ROOT / "solutions" / lab / "mutants" / "no-tiling.cu"
    rc, rep = kit.check_json(lab, path, backend, "--dataset", MUTANT_DATASET[lab])
    # the answer is right ...
    assert kit.statuses(rep) == {MUTANT_DATASET[lab]: "pass"}
    # ... but the kernel is not the one the lab asks for
    assert kit.requirement_statuses(rep) == {name: "requirement_failed" for name in REQUIREMENTS}
    for r in rep["requirements"]:
        if r["status"] != "not_checked":
            assert r["score"] == 0 and r["max_score"] == 1 and r["message"], r
    assert rc == 1


SHARED_NO_BARRIER = r'''
// Shared memory, and no barrier: each thread stores its own product in its
// own slot of a shared array and reads it back (right, and needing none).
#include "lab.h"
#define TILE_WIDTH 16
__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    __shared__ float ds_P[TILE_WIDTH][TILE_WIDTH];
    int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    int Col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += M[Row * Width + k] * N[k * Width + Col];
        ds_P[threadIdx.y][threadIdx.x] = Pvalue;
        P[Row * Width + Col] = ds_P[threadIdx.y][threadIdx.x];
    }
}
void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH), grid((width + TILE_WIDTH - 1) / TILE_WIDTH, (width + TILE_WIDTH - 1) / TILE_WIDTH);
    MatrixMulKernel<<<grid, block>>>(M, N, P, width);
}
'''


def test_the_shared_memory_poison_earns_no_barrier(backend, tmp_path):
    """On a GPU the grading build fills each shared array with NaN and waits
    for the block (smem_poison_device.cuh): that wait is the kit's, on a
    barrier of its own number, and earns no [barrier] for a kernel that has
    shared memory and no __syncthreads() (it did, from the PTX)."""
    path = tmp_path / "tiled_matmul.cu"
    path.write_text(SHARED_NO_BARRIER)
    rc, rep = kit.check_json("02-tiled-matmul", path, backend, "--dataset", MUTANT_DATASET["02-tiled-matmul"])
    assert kit.statuses(rep) == {MUTANT_DATASET["02-tiled-matmul"]: "pass"}, rep["datasets"]
    reqs = kit.requirement_statuses(rep)
    assert reqs["shared_memory"] == "pass" and reqs["barrier"] == "requirement_failed", reqs
