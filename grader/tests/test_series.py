"""The run stage's series (PROGRAM --series, grader/runtime/harness_main.c):
all of a submission's datasets run in one process first, and only the passes
are kept; every other dataset runs again alone and is judged from that run."""
import pytest

import kit

PROGRAMS = kit.ROOT / "grader" / "tests" / "programs"


def test_state_left_by_an_earlier_dataset_never_decides_a_verdict(backend):
    # Right on its first call in a process, wrong (P + 1) on every later one:
    # in the series only the first dataset passes; run alone, each passes.
    prog = PROGRAMS / "02-tiled-matmul" / "right_only_first_call.cu"
    rc, rep = kit.check_json("02-tiled-matmul", prog, backend)
    assert kit.statuses(rep) == {name: "pass" for name in kit.public_datasets("02-tiled-matmul")}, rep


def test_a_series_is_framed_dataset_by_dataset(tmp_path):
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    p = kit.gpulab("check", "02", kit.solution("02-tiled-matmul"), "--backend", "emu", "--no-sanitize",
                   "--keep", cwd=tmp_path)
    work = [line.split()[-1] for line in p.stderr.splitlines() if "kept the work directory" in line][0]
    names = ["width-0032", "width-0064"]
    args = []
    for k, name in enumerate(names):
        d = tmp_path / f"d{k}"
        d.mkdir()
        for f in (kit.ROOT / "datasets" / "02-tiled-matmul" / name).glob("input*"):
            (d / f.name).write_bytes(f.read_bytes())
        args += [d, tmp_path / f"out-{k}.tensor"]
    r = kit.run([f"{work}/build/lab-program", "--series", *args], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    for out in (r.stdout, r.stderr):
        frames = [line.split("\t")[1:4] for line in out.splitlines() if line.startswith("@gpulab\tdataset")]
        assert frames == [["dataset", "0"], ["dataset_end", "0", "0"], ["dataset", "1"],
                          ["dataset_end", "1", "0"]], out
    for k, name in enumerate(names):
        c = kit.gpulab("compare", "02", tmp_path / f"out-{k}.tensor",
                       kit.ROOT / "datasets" / "02-tiled-matmul" / name / "expected.tensor")
        assert c.returncode == 0, c.stdout
    kit.run(["rm", "-rf", work])


def test_a_series_out_of_time_past_its_first_dataset_counts_no_timeout(backend, tmp_path):
    """Each call takes 0.45 of the limit: a series runs two datasets, then
    runs out of time on its third, which had only part of the limit. That
    is no timeout: the next series starts at that dataset, and in the end
    every dataset passes (a rolling series, grade.c)."""
    src = (kit.ROOT / "solutions" / "01-basic-matmul" / "basic_matmul.cu").read_text()
    head = "void basic_matmul(const float *M, const float *N, float *P, int width)\n{\n"
    assert head in src
    slow = tmp_path / "basic_matmul.cu"
    # On a GPU a process's CUDA start-up alone can take a second while other
    # tests load the machine, so the limit there is longer; each call still
    # takes 0.45 of it.
    limit = 5 if backend == "gpu" else 2
    pause_us = int(0.45 * limit * 1e6)
    slow.write_text("#include <unistd.h>\n" + src.replace(head, head + f"    usleep({pause_us}); /* 0.45 of the limit */\n", 1))
    rc, rep = kit.check_json("01-basic-matmul", slow, backend, "--timeout", str(limit), expect_rc=0)
    assert kit.statuses(rep) == {name: "pass" for name in kit.public_datasets("01-basic-matmul")}, rep


@pytest.mark.slow  # two runs out of a 2 s limit by design (9 s); make test runs it
def test_a_loop_that_never_ends_costs_the_limits_of_the_two_smallest_datasets(tmp_path):
    """On the emulator the lab's limit (20 s, in work) is its largest
    dataset's; a smaller dataset has its share by input, at least 2 s
    (grade.c, dataset_limit). A kernel whose loop never ends runs out of
    time on the smallest dataset alone and on the next, each within 2 s,
    and the rest are not run: seconds of processor time, not twice the lab's
    limit. (On a GPU the lab's limit is every dataset's.)"""
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    src = (kit.ROOT / "solutions" / "01-basic-matmul" / "basic_matmul.cu").read_text()
    loop = "for (int k = 0; k < Width; ++k)"
    assert src.count(loop) == 1
    endless = tmp_path / "basic_matmul.cu"
    endless.write_text(src.replace(loop, "for (int k = 0; k < Width; k += 0)"))
    rc, rep = kit.check_json("01-basic-matmul", endless, "emu", expect_rc=1)
    timed_out = [d for d in rep["datasets"] if d["status"] == "timeout" and "not run" not in d["message"]]
    assert [d["name"] for d in timed_out] == ["width-0001", "width-0015"], rep["datasets"]
    for d in timed_out:
        assert d["message"].startswith("did not finish within 2 s"), d["message"]
    rest = [d for d in rep["datasets"] if d not in timed_out]
    assert rest and all(d["message"].startswith("not run: the program had already run out of time 2 times")
                        for d in rest), rest
