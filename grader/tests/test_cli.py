"""gpulab's command line: usage errors, exit codes, list, start, datasets."""
import filecmp
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import kit

SOLUTION = kit.ROOT / "solutions" / "01-basic-matmul" / "basic_matmul.cu"


def test_help_lists_every_command():
    p = kit.gpulab("help")
    assert p.returncode == 0
    for cmd in ("list", "start", "check", "grade", "datasets", "inspect", "convert", "compare"):
        assert f"gpulab {cmd}" in p.stdout


def test_no_arguments_is_a_usage_error():
    p = kit.gpulab()
    assert p.returncode == 2 and "usage" in p.stderr


@pytest.mark.parametrize("args, message", [
    (["frobnicate"], "unknown command"),
    (["check"], "expected a lab"),
    (["check", "01"], "expected a lab"),
    (["check", "99", str(SOLUTION)], "no lab named"),
    (["check", "01", "/no/such/file.cu"], "no such file"),
    (["check", "01", str(SOLUTION), "--backend", "tpu"], "expected gpu or emu"),
    (["check", "01", str(SOLUTION), "--format", "xml"], "expected text or json"),
    (["check", "01", str(SOLUTION), "--timeout", "-3"], "more than 0 and at most 86400"),
    # one meaning of --timeout in every command
    (["grade", "01", str(SOLUTION), "--timeout", "1e9"], "more than 0 and at most 86400"),
    (["wb", str(SOLUTION), "--timeout", "0"], "more than 0 and at most 86400"),
    (["check", "01", str(SOLUTION), "--dataset", "width-9999"], "no dataset"),
    (["check", "01", str(SOLUTION), str(SOLUTION)], "check takes one file"),
    (["check", "01", str(SOLUTION), "--bogus"], "unknown or incomplete option"),
    # a single-valued option given two values: which one was meant is not guessed
    (["check", "01", str(SOLUTION), "--dataset", "width-0001", "--dataset=width-0015"],
     "--dataset given twice (width-0001, then width-0015): give it once"),
    (["grade", "01", str(SOLUTION), "--backend", "emu", "--backend", "gpu"], "--backend given twice"),
    (["datasets", "01", "--seed", "1", "--seed", "2"], "--seed given twice"),
    (["grade", "01"], "expected a lab"),
    (["start"], "usage"),
    (["datasets"], "usage"),
])
def test_usage_errors_exit_2(args, message):
    p = kit.gpulab(*args)
    assert p.returncode == 2, p.stdout + p.stderr
    assert message in p.stderr, p.stderr


def test_list_names_every_lab():
    p = kit.gpulab("list")
    assert p.returncode == 0
    for lab in kit.labs():
        assert lab in p.stdout
        assert kit.manifest(lab)["title"] in p.stdout


def test_lab_by_number(tmp_path):
    p = kit.gpulab("start", "1", tmp_path)
    assert p.returncode == 0, p.stderr
    assert (tmp_path / kit.manifest("01-basic-matmul")["source"]).exists()


def test_start_copies_the_skeleton_and_never_overwrites(tmp_path):
    p = kit.gpulab("start", "01-basic-matmul", tmp_path)
    assert p.returncode == 0, p.stderr
    copied = tmp_path / "basic_matmul.cu"
    assert filecmp.cmp(copied, kit.ROOT / "skeletons" / "01-basic-matmul" / "basic_matmul.cu", shallow=False)
    copied.write_text("// my work\n")
    p = kit.gpulab("start", "01-basic-matmul", tmp_path)
    assert p.returncode == 2 and "not overwriting" in p.stderr
    assert copied.read_text() == "// my work\n"


@pytest.mark.parametrize("lab", kit.labs())
def test_datasets_regenerate_bit_for_bit(tmp_path, lab):
    """The committed datasets are exactly what the generator makes from the manifest's seed."""
    p = kit.gpulab("datasets", lab, "--out", tmp_path)
    assert p.returncode == 0, p.stderr
    committed = kit.ROOT / "datasets" / lab
    for d in kit.manifest(lab)["datasets"]:
        if d.get("on_demand"):
            assert not (committed / d["name"]).exists(), f"on-demand dataset {d['name']} is committed"
            continue
        names = sorted(f.name for f in (committed / d["name"]).iterdir())
        assert names == sorted(f.name for f in (tmp_path / d["name"]).iterdir())
        for n in names:
            assert filecmp.cmp(committed / d["name"] / n, tmp_path / d["name"] / n, shallow=False), \
                f"{lab}/{d['name']}/{n} differs from what the generator makes"


def test_datasets_seed_changes_the_data(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    assert kit.gpulab("datasets", "01", "--out", a, "--seed", "7").returncode == 0
    assert kit.gpulab("datasets", "01", "--out", b, "--seed", "8").returncode == 0
    assert (a / "width-0015" / "input0.raw").read_text() != (b / "width-0015" / "input0.raw").read_text()


def test_bad_manifest_is_reported_with_its_path(tmp_path):
    import shutil
    home = tmp_path / "kit"
    shutil.copytree(kit.ROOT / "labs", home / "labs")
    (home / "grader").mkdir()
    man = home / "labs" / "01-basic-matmul" / "lab.json"
    man.write_text(man.read_text().replace('"timeout_s"', '"timout_s"'))
    p = kit.gpulab("list", env={"GPULAB_HOME": str(home)})
    assert p.returncode == 2
    assert "lab.json" in p.stderr and 'unknown key "timout_s"' in p.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_a_run_does_not_outlive_a_killed_grader(tmp_path):
    """gpulab killed outright (SIGKILL: no handler runs) while a student's
    program loops forever on the emulator: the program goes with it, as a
    sandboxed run's namespace does, and is not left spinning unwatched."""
    problem = kit.emu_problem()
    if problem:
        pytest.skip(problem)
    lab = "01-basic-matmul"
    text = kit.solution(lab).read_text()
    anchor = "    CUDA_CHECK(cudaMemcpy(d_M, M, bytes, cudaMemcpyHostToDevice));\n"
    assert anchor in text
    src = tmp_path / "spins.cu"
    src.write_text(text.replace(anchor, "    for (volatile int spin = 0; spin >= 0; spin += 0) {}\n" + anchor))
    work = tmp_path / "tmp"
    work.mkdir()
    env = dict(os.environ, TMPDIR=str(work), NO_COLOR="1")
    p = subprocess.Popen([str(kit.GPULAB), "check", lab, str(src), "--backend", "emu", "--timeout", "60"],
                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not kit.lab_programs_under(work) and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.1)
        spinning = kit.lab_programs_under(work)
        assert spinning, "the program never started"
        p.kill()
        p.wait(timeout=30)
        deadline = time.monotonic() + 10
        while kit.lab_programs_under(work) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = kit.lab_programs_under(work)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"the program outlived the grader: pids {left}"
    finally:
        if p.poll() is None:
            p.kill()
