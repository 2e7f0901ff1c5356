"""gpulab bench and performance points: repeated calls on scaled inputs,
every call's output checked by the grader (so a replayed result is caught),
figures only for passing runs on the GPU, none on the emulator."""
import json
import re
import shutil

import pytest

import kit

PROGRAMS = kit.ROOT / "grader" / "tests" / "programs"


def bench(*args, **kw):
    return kit.gpulab("bench", *args, timeout=1200, **kw)


def row(output, label):
    """The line of the bench table that starts with label."""
    for line in output.splitlines():
        if line.strip().startswith(label):
            return line
    raise AssertionError(f"no row {label!r} in:\n{output}")


@pytest.mark.parametrize("lab,program,dataset", [
    ("02-tiled-matmul", "02-tiled-matmul/replay.cu", "width-0064"),   # device pointers
    ("01-basic-matmul", "01-basic-matmul/replay.cu", "width-0017"),   # host pointers
])
def test_a_replayed_result_is_wrong(backend, lab, program, dataset):
    p = bench(lab, PROGRAMS / program, "--backend", backend, "--dataset", dataset)
    assert p.returncode == 1, p.stdout + p.stderr
    line = row(p.stdout, "your file")
    assert "wrong" in line and "returned exactly what call 1 returned" in line, p.stdout
    # the reference solution, measured in the same run, passes every call
    ref = row(p.stdout, "reference solution")
    assert "wrong" not in ref and "no_output" not in ref, p.stdout


def test_every_call_is_checked_not_only_the_first(backend):
    """Right on call 0, wrong from call 1 on: a later call fails."""
    p = bench("02", PROGRAMS / "02-tiled-matmul" / "right_only_first_call.cu", "--backend", backend,
              "--dataset", "width-0064")
    assert p.returncode == 1, p.stdout + p.stderr
    line = row(p.stdout, "your file")
    assert "wrong" in line and "call 2 (inputs scaled by 2^1) is wrong" in line, p.stdout


def test_forged_timing_lines_give_no_figure(backend):
    p = bench("02", PROGRAMS / "02-tiled-matmul" / "forged_timing.cu", "--backend", backend,
              "--dataset", "width-0064")
    line = row(p.stdout, "your file")
    assert "timing lines were missing or repeated" in line, p.stdout
    assert "GFLOP/s" in p.stdout or backend == "emu"


def test_emulator_gives_no_figures():
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    p = bench("04", kit.solution("04-conv-2batch"), "--backend", "emu")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "not GPU times" in p.stdout and "no performance figures" in p.stdout
    assert "GB/s" not in p.stdout and "GFLOP/s" not in p.stdout
    assert "pass" in row(p.stdout, "your file")


def reads_after(output, label):
    """The "global reads:" line under the bench row that starts with label."""
    lines = output.splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith(label):
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            assert nxt.startswith("global reads: "), f"no counts under {label!r} in:\n{output}"
            return nxt
    raise AssertionError(f"no row {label!r} in:\n{output}")


def test_bench_shows_what_each_kernel_reads_beside_its_row(backend):
    """The counts a check reports, under each program's row: the tiles
    read cut the global reads 16 times; tiles loaded and never read do not."""
    p = bench("02", PROGRAMS / "02-tiled-matmul" / "tiles_not_read.cu", "--backend", backend,
              "--dataset", "width-0256")
    assert p.returncode == 0, p.stdout + p.stderr
    ref = reads_after(p.stdout, "reference solution")
    assert "0.125 per multiply-add" in ref and "(lab 01's kernel: 2.0)" in ref, ref
    assert "reuse each element they read 16.0 times" in ref, ref
    yours = reads_after(p.stdout, "your file")
    assert "no reuse" in yours, yours


def test_bench_usage_errors():
    p = kit.gpulab("bench", "02")
    assert p.returncode == 2 and "give a lab and a file" in p.stderr
    p = kit.gpulab("bench", "02", "x.cu", "--calls", "1")
    assert p.returncode == 2 and "--calls" in p.stderr


def scratch_kit(tmp_path, lab, performance):
    """A copy of the kit's labs with lab's "performance" replaced."""
    home = tmp_path / "kit"
    shutil.copytree(kit.ROOT / "labs", home / "labs")
    for entry in ("grader", "build", "datasets", "solutions"):
        (home / entry).symlink_to(kit.ROOT / entry)
    man = home / "labs" / lab / "lab.json"
    data = json.loads(man.read_text())
    data["performance"] = performance
    man.write_text(json.dumps(data, indent=2))
    return {"GPULAB_HOME": str(home)}


@pytest.mark.parametrize("performance,words", [
    ({"dataset": "nope", "work": "matmul"}, 'no dataset is named "nope"'),
    ({"dataset": "width-0032", "work": "flops"}, 'it must be "matmul" or "image"'),
    ({"dataset": "width-0032", "work": "image"}, 'has no "height" parameter'),
    ({"dataset": "width-0032", "work": "matmul",
      "bands": [{"at_least": 0.9, "points": 1}, {"at_least": 0.5, "points": 2}]}, "must ask more"),
])
def test_bad_performance_sections_are_named(tmp_path, performance, words):
    env = scratch_kit(tmp_path, "02-tiled-matmul", performance)
    p = kit.gpulab("list", env=env)
    assert p.returncode == 2 and "lab.json" in p.stderr and words in p.stderr, p.stderr


BANDS = {"dataset": "width-0512", "work": "matmul",
         "bands": [{"at_least": 0.25, "points": 1}, {"at_least": 0.6, "points": 2}]}


def test_performance_points_are_left_out_on_the_emulator(tmp_path):
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    env = scratch_kit(tmp_path, "02-tiled-matmul", BANDS)
    p = kit.gpulab("check", "02", kit.solution("02-tiled-matmul"), "--backend", "emu", "--no-sanitize",
                   "--format", "json", env=env, cwd=tmp_path, timeout=1200)
    report = json.loads(p.stdout)
    perf = report["performance"]
    assert perf["status"] == "not_measured" and perf["max_score"] == 0 and perf["score"] == 0
    assert "not GPU times" in perf["message"]
    # the checkers' 6 points are not checked (--no-sanitize): in the maximum, unearned
    assert report["score"] == 9 and report["max_score"] == 15
    # the leaderboard, asked for, has nothing measured to rank
    p = kit.gpulab("grade", "02", kit.solution("02-tiled-matmul"), "--backend", "emu", "--no-sanitize",
                   "--dataset", "width-0032", "--records", tmp_path / "rec", "--html", tmp_path / "class.html",
                   "--leaderboard", env=env, cwd=tmp_path, timeout=1200)
    assert p.returncode == 0, p.stderr
    page = (tmp_path / "class.html").read_text()
    assert "<h2>Leaderboard</h2>" in page and "No submission's performance was measured" in page


@pytest.mark.gpu
def test_performance_points_and_leaderboard_on_the_gpu(tmp_path):
    env = scratch_kit(tmp_path, "02-tiled-matmul", BANDS)
    sol = kit.solution("02-tiled-matmul")
    p = kit.gpulab("check", "02", sol, "--backend", "gpu", "--no-sanitize", "--format", "json",
                   env=env, cwd=tmp_path, timeout=1200)
    report = json.loads(p.stdout)
    perf = report["performance"]
    # the reference solution against itself: the same kernel, within noise
    assert perf["status"] == "pass" and perf["rate"] > 0 and perf["reference_rate"] > 0, perf
    assert perf["score"] == perf["max_score"] == 2, perf
    assert report["max_score"] == 17 and report["score"] == 11  # the checkers' 6 points not checked
    p = kit.gpulab("grade", "02", sol, "--backend", "gpu", "--no-sanitize", "--format", "gradescope",
                   "--records", tmp_path / "rec", env=env, cwd=tmp_path, timeout=1200)
    results = json.loads(p.stdout)
    board = results["leaderboard"]
    assert board[0]["name"] == "GFLOP/s" and board[0]["value"] > 0 and board[0]["order"] == "desc"
    assert any(t["name"] == "performance" and t["score"] == 2 for t in results["tests"])


# Lab 01's kernel handed in for lab 02 (device pointers, no tiles), and a
# file that has cuBLAS do the work.
LAB01_KERNEL_FOR_02 = r"""
#include "lab.h"
__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += M[Row * Width + k] * N[k * Width + Col];
        P[Row * Width + Col] = Pvalue;
    }
}
void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    MatrixMulKernel<<<grid, block>>>(M, N, P, width);
}
"""
CUBLAS_FOR_02 = r"""
#include "lab.h"
#include <cublas_v2.h>
void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    cublasHandle_t h;
    const float one = 1, zero = 0;
    cublasCreate(&h);
    /* row-major P = M N is column-major P^T = N^T M^T */
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, width, width, width, &one, N, width, M, width, &zero, P, width);
    cublasDestroy(h);
}
"""
SLIDING = {"dataset": "width-1024", "work": "matmul",
           "bands": [{"at_least": 0.2, "points": 1}, {"at_least": 0.4, "points": 2},
                     {"at_least": 0.6, "points": 3}, {"at_least": 0.8, "points": 4}]}


@pytest.mark.gpu
def test_performance_points_share_lab_01s_kernel_and_none_for_a_library(tmp_path):
    """Performance points on for lab 02 (four bands, on width-1024): the
    reference solution gets them all; lab 01's kernel, right but untiled,
    the band of its share of the reference's rate (best of five calls each,
    same run), less than the reference; a file that calls cuBLAS does not
    link (the lab's programs get the CUDA runtime only) and gets none."""
    env = scratch_kit(tmp_path, "02-tiled-matmul", SLIDING)
    cls = tmp_path / "class"
    for name, text in (("basic", LAB01_KERNEL_FOR_02), ("cublas", CUBLAS_FOR_02)):
        (cls / name).mkdir(parents=True)
        (cls / name / "tiled_matmul.cu").write_text(text)
    (cls / "reference").mkdir()
    shutil.copy(kit.solution("02-tiled-matmul"), cls / "reference" / "tiled_matmul.cu")
    p = kit.gpulab("grade", "02", cls, "--backend", "gpu", "--no-sanitize", "--records", tmp_path / "rec",
                   "--html", tmp_path / "class.html", "--leaderboard", env=env, cwd=tmp_path, timeout=1800)
    assert p.returncode == 0, p.stderr[-3000:]
    # the opt-in leaderboard: the two measured, fastest first, by id only
    page = (tmp_path / "class.html").read_text()
    board = page[page.index("<h2>Leaderboard</h2>"):]
    ranked = re.findall(r"<tr><td class=\"n\">(\d+)</td><td>(\w+)</td>", board)
    assert [r[1] for r in ranked] == ["reference", "basic"], ranked
    recs = {r.stem: json.loads(r.read_text()) for r in (tmp_path / "rec").glob("*.json")}
    ref, basic, cublas = recs["reference"]["performance"], recs["basic"]["performance"], recs["cublas"]
    print(f"reference {ref['rate']:.0f} GFLOP/s (its reference {ref['reference_rate']:.0f}); "
          f"lab 01's kernel {basic['rate']:.0f} GFLOP/s against {basic['reference_rate']:.0f}")
    assert ref["status"] == "pass" and ref["score"] == ref["max_score"] == 4, ref
    share = basic["rate"] / basic["reference_rate"]
    assert basic["status"] == "pass" and 0 < share < 0.95, basic
    want = max([b["points"] for b in SLIDING["bands"] if share >= b["at_least"]], default=0)
    assert basic["score"] == want, (share, basic)
    assert "best of 5 calls each" in basic["message"], basic["message"]
    assert cublas["build"]["ok"] is False and cublas["score"] == 0, cublas["build"]
    assert "cublasSgemm" in cublas["build"]["log"], cublas["build"]["log"][-2000:]
    assert cublas.get("performance") is None or cublas["performance"]["score"] == 0


@pytest.mark.gpu
def test_bench_on_the_gpu_reports_figures_with_same_run_baselines():
    p = bench("02", kit.solution("02-tiled-matmul"), "--backend", "gpu", "--dataset", "width-1024")
    assert p.returncode == 0, p.stdout + p.stderr
    you = row(p.stdout, "your file")
    base = row(p.stdout, "cuBLAS SGEMM")
    # a figure, then its share of the baseline: cuBLAS is 100% of itself
    assert re.search(r" \d+\s+100%", base), base
    share = re.search(r" (\d+)\s+(\d+)%", you)
    assert share and int(share.group(1)) > 0 and 0 < int(share.group(2)) <= 150, you
