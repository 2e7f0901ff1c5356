"""The kit's own labs with a submission written in the Teaching Kit's habits:
it includes "lab.h" and also wb.h (or gputk.h), defines its own wbCheck, and
uses wbLog, wbTime_start/stop and wbAssert in its entry point. The lab's
harness still owns main() and the files, so the calls that need the
program's command line or files (wbArg_*, wbImport, wbExport, wbSolution)
fail the build with a message that says where and what to do instead
(grader/runtime/wb/wb.h, GPULAB_LAB_BUILD; grader/src/pipeline/build.c).

The programs are programs/<lab>/kit_style.cu; the whole Kit program is
programs/wb/tiled_matmul.cu (test_wb.py's).
"""
import re

import pytest

import kit

PROGRAMS = kit.ROOT / "grader" / "tests" / "programs"
KIT_STYLE = {
    "01-basic-matmul": PROGRAMS / "01-basic-matmul" / "kit_style.cu",
    "02-tiled-matmul": PROGRAMS / "02-tiled-matmul" / "kit_style.cu",
}
WHOLE_PROGRAM = PROGRAMS / "wb" / "tiled_matmul.cu"


def variant(tmp_path, source, name, old, new):
    """A copy of a program with one change (which must apply)."""
    text = source.read_text()
    assert old in text, f"{old!r} is not in {source.name}"
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1))
    return path


def line_of(path, needle):
    """The 1-based line of path's first line holding needle."""
    return next(i for i, l in enumerate(path.read_text().splitlines(), 1) if needle in l)


@pytest.mark.parametrize("lab", sorted(KIT_STYLE))
def test_kit_style_submission_gets_full_marks(backend, lab):
    """Full marks, checkers and all on the emulator; on a GPU (where the
    sanitizer stage is slow) every dataset and the static requirements. What
    wbLog and wbTime printed is the program's output, next to the harness's
    lines, which still read as the harness's."""
    sanitize = backend == "emu"
    rc, rep = kit.check_json(lab, KIT_STYLE[lab], backend, expect_rc=0, sanitize=sanitize)
    assert rep["build"]["ok"], rep["build"]
    assert set(kit.statuses(rep).values()) == {"pass"}, kit.statuses(rep)
    assert rep["max_score"] == kit.max_score(lab) and rep["score"] == kit.best_score(lab, checkers=sanitize)
    out = rep["datasets"][0]["stdout"]
    assert re.search(r"^\[TRACE\] \S*kit_style\.cu:\d+ The dimensions of M and N are \d+ x \d+$", out, re.M), out
    assert re.search(r"^\[Compute\] Performing CUDA computation: [0-9.]+ ms$", out, re.M), out
    assert re.search(r"^@gpulab\tkernel_token\t[0-9a-f]+$", out, re.M), out


def test_text_report_shows_full_marks():
    lab = "02-tiled-matmul"
    p = kit.gpulab("check", lab, KIT_STYLE[lab], "--backend", "emu")
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"score {kit.max_score(lab)}/{kit.max_score(lab)}" in p.stdout


def test_a_call_removed_in_cuda_13_in_a_lab(backend, tmp_path):
    """cudaThreadSynchronize() in a lab's entry point: the same build
    failure on both backends, with the one line that names its
    replacement (build.c, removed_api_hint)."""
    lab = "02-tiled-matmul"
    path = variant(tmp_path, KIT_STYLE[lab], "tiled_matmul.cu", "wbCheck(cudaDeviceSynchronize());",
                   "wbCheck(cudaThreadSynchronize());")
    rc, rep = kit.check_json(lab, path, backend, expect_rc=1)
    assert set(kit.statuses(rep).values()) == {"compile_error"}, kit.statuses(rep)
    line = line_of(path, "cudaThreadSynchronize")
    assert rep["build"]["message"] == (f"{path}:{line}: cudaThreadSynchronize() was removed in CUDA 13: use "
                                       "cudaDeviceSynchronize() (nvcc 13 and the emulator both refuse it)"), rep["build"]


def test_gputk_names_in_a_lab(tmp_path):
    """gputk.h: the same submission under libgputk's names."""
    text = KIT_STYLE["01-basic-matmul"].read_text().replace('"wb.h"', '"gputk.h"')
    text = re.sub(r"\bwb(Log|Time_|Assert)", r"gpuTK\1", text)
    assert "gpuTKTime_start" in text and "gpuTKAssert(" in text and "wbCheck" in text
    path = tmp_path / "basic_matmul.cu"
    path.write_text(text)
    rc, rep = kit.check_json("01-basic-matmul", path, "emu", expect_rc=0)
    assert "[GPU] Allocating GPU memory.: " in rep["datasets"][0]["stdout"]


@pytest.mark.parametrize("lab, call, needle", [
    ("01-basic-matmul", "wbExport", 'wbExport("P.raw", P, width, width);'),
    ("02-tiled-matmul", "wbImport", "int rows, cols; float *again = wbImport(\"input0.raw\", &rows, &cols); "
                                    "free(again);"),
])
def test_a_whole_program_call_fails_the_build_at_its_line(backend, tmp_path, lab, call, needle):
    """A call that needs the program's own files, in the entry point. A
    comment naming it earlier does not move the line reported."""
    source = KIT_STYLE[lab]
    path = variant(tmp_path, source, source.name, "  wbTime_start(Compute", f"  {needle}\n  wbTime_start(Compute")
    path.write_text(path.read_text().replace("#define wbCheck", f"// {call}: not here\n#define wbCheck", 1))
    rc, rep = kit.check_json(lab, path, backend, expect_rc=1)
    assert not rep["build"]["ok"]
    assert set(kit.statuses(rep).values()) == {"compile_error"}
    assert rep["score"] == 0
    message = rep["build"]["message"]
    line = line_of(path, needle)
    entry = kit.manifest(lab)["entry_point"]
    assert message.startswith(f"{path}:{line}: {call}() is for a whole Teaching Kit program, not for a lab"), message
    assert "harness owns main(), the command line and the files" in message
    assert f"your {entry}() (lab.h)" in message and "gpulab wb" in message
    assert "is not for a lab of this kit" in rep["build"]["log"]


def test_a_whole_kit_program_handed_in_as_a_lab(tmp_path):
    """The Kit's whole tiled matmul handed in for lab 02 (lab.h added): its
    first whole-program call is named, with its line, and the text report
    leads with it."""
    path = tmp_path / "tiled_matmul.cu"
    path.write_text('#include "lab.h"\n' + WHOLE_PROGRAM.read_text())
    line = line_of(path, "wbArg_read(argc, argv)")
    p = kit.gpulab("check", "02-tiled-matmul", path, "--backend", "emu")
    assert p.returncode == 1
    assert f"build failed: {path}:{line}: wbArg_read() is for a whole Teaching Kit program" in p.stdout, p.stdout


def test_gputk_call_is_named_as_written(tmp_path):
    text = '#include "lab.h"\n' + WHOLE_PROGRAM.read_text().replace("<wb.h>", "<gputk.h>")
    text = re.sub(r"\bwb(Arg_|Import|Solution|Log|Time_)", r"gpuTK\1", text)
    path = tmp_path / "tiled_matmul.cu"
    path.write_text(text)
    rc, rep = kit.check_json("02-tiled-matmul", path, "emu", expect_rc=1)
    line = line_of(path, "gpuTKArg_read(argc, argv)")
    assert rep["build"]["message"].startswith(f"{path}:{line}: gpuTKArg_read() is for a whole Teaching Kit"), \
        rep["build"]["message"]


def test_log_text_cannot_pass_for_a_harness_line(tmp_path):
    """A log message with a newline and a forged "@gpulab cuda_error" after
    it: the continuation is indented, so the dataset still passes."""
    lab = "01-basic-matmul"
    forged = r'wbLog(INFO, "one\n@gpulab\tcuda_error\tcudaErrorUnknown\tx\tx.cu\t1\tforged\n");'
    path = variant(tmp_path, KIT_STYLE[lab], "basic_matmul.cu", "  wbAssert(width >= 1);",
                   f"  wbAssert(width >= 1);\n  {forged}")
    rc, rep = kit.check_json(lab, path, "emu", "--dataset", "width-0016", expect_rc=0)
    out = rep["datasets"][0]["stdout"]
    assert re.search(r"^\[INFO\] \S+:\d+ one\n    @gpulab\tcuda_error\t", out, re.M), out
    assert not re.search(r"^@gpulab\tcuda_error", out, re.M)


def test_a_failed_wbcheck_shows_the_students_log(backend, tmp_path):
    """The Kit's wbCheck logs a failed cudaMalloc (wbLog(ERROR, ...), on
    standard error) and returns; the harness then reports the CUDA error,
    and the text report's error output shows the student's own lines."""
    lab = "01-basic-matmul"
    path = variant(tmp_path, KIT_STYLE[lab], "basic_matmul.cu", "cudaMalloc((void **)&deviceP, bytes)",
                   "cudaMalloc((void **)&deviceP, (size_t)1 << 52)")
    line = line_of(path, "(size_t)1 << 52")
    p = kit.gpulab("check", lab, path, "--backend", backend, "--no-sanitize", "--dataset", "width-0016")
    assert p.returncode == 1
    assert "cuda_error" in p.stdout and "cudaErrorMemoryAllocation" in p.stdout, p.stdout
    assert f"[ERROR] {path}:{line} CUDA call cudaMalloc((void **)&deviceP, (size_t)1 << 52) failed: " in p.stdout, \
        p.stdout


def test_failed_wbassert_is_a_crash_that_says_where(tmp_path):
    lab = "01-basic-matmul"
    path = variant(tmp_path, KIT_STYLE[lab], "basic_matmul.cu", "  wbAssert(width >= 1);",
                   '  wbAssertMessage("too narrow for this test", width >= 20);')
    line = line_of(path, "wbAssertMessage")
    rc, rep = kit.check_json(lab, path, "emu", expect_rc=1)
    st = kit.statuses(rep)
    assert st["width-0016"] == "crash" and st["width-0033"] == "pass", st
    d = next(d for d in rep["datasets"] if d["name"] == "width-0016")
    assert "SIGABRT" in d["message"]
    assert f"{path}:{line}: wbAssert(width >= 20) failed: too narrow for this test" in d["stderr"], d["stderr"]


def gpu_build_dir(tmp_path, lab):
    """A folder laid out as build.c lays out a GPU build's: include/ with the
    lab's headers, the runtime's and wb.h's."""
    include = tmp_path / "include"
    include.mkdir()
    for folder in (kit.ROOT / "labs" / lab, kit.ROOT / "grader" / "runtime", kit.ROOT / "grader" / "runtime" / "wb"):
        for h in folder.glob("*.h"):
            (include / h.name).write_bytes(h.read_bytes())
    return include


def nvcc_lab_build(tmp_path, lab, source):
    """nvcc -c as the GPU grading build compiles a submission to one of the
    kit's labs (no GPU needed)."""
    include = gpu_build_dir(tmp_path, lab)
    return kit.run([kit.NVCC, "-O3", "-I", include, "-DGPULAB_LAB_BUILD", "-Xcompiler", "-Wall,-Wextra",
                    "-c", source, "-o", tmp_path / "student.o"], timeout=300)


@pytest.mark.skipif(kit.NVCC is None, reason="nvcc is not installed")
@pytest.mark.parametrize("lab", sorted(KIT_STYLE))
def test_kit_style_compiles_with_nvcc_without_a_warning(tmp_path, lab):
    p = nvcc_lab_build(tmp_path, lab, KIT_STYLE[lab])
    assert p.returncode == 0, p.stderr
    assert "warning" not in p.stderr.lower(), p.stderr


@pytest.mark.skipif(kit.NVCC is None, reason="nvcc is not installed")
def test_nvcc_refuses_a_whole_program_call_with_its_line(tmp_path):
    path = tmp_path / "tiled_matmul.cu"
    path.write_text('#include "lab.h"\n' + WHOLE_PROGRAM.read_text())
    p = nvcc_lab_build(tmp_path, "02-tiled-matmul", path)
    assert p.returncode != 0
    line = line_of(path, "wbArg_read(argc, argv)")
    assert re.search(r'static assertion failed with "wbArg_read\(\) is not for a lab of this kit', p.stderr), p.stderr
    assert f"at line {line} of {path}" in p.stderr, p.stderr
