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
    assert report["score"] == report["max_score"] == 9


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
    assert report["max_score"] == 11 and report["score"] == 11
    p = kit.gpulab("grade", "02", sol, "--backend", "gpu", "--no-sanitize", "--format", "gradescope",
                   "--records", tmp_path / "rec", env=env, cwd=tmp_path, timeout=1200)
    results = json.loads(p.stdout)
    board = results["leaderboard"]
    assert board[0]["name"] == "GFLOP/s" and board[0]["value"] > 0 and board[0]["order"] == "desc"
    assert any(t["name"] == "performance" and t["score"] == 2 for t in results["tests"])


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
