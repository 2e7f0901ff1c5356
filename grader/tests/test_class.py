"""An instructor's week with a class of six for lab 02: the class summary,
a gradebook that says why, regrading one student, exports to standard
output and through links, and help on every command."""
import csv
import io
import json
import os
import shutil

import pytest

import kit
from schemas import validate

LAB = "02-tiled-matmul"
SOLUTIONS = kit.ROOT / "solutions" / LAB
SOLUTION = SOLUTIONS / "tiled_matmul.cu"
SKELETON = kit.ROOT / "skeletons" / LAB / "tiled_matmul.cu"
ENDLESS = r'''
#include "lab.h"
__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    volatile int i = 0;
    while (i < Width) /* never ends: ++i forgotten */
        P[i] = M[i] + N[i];
}
void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    MatrixMulKernel<<<1, 1>>>(M, N, P, width);
}
'''


@pytest.fixture(scope="module")
def week(tmp_path_factory):
    if kit.sandbox_problem():
        pytest.skip(kit.sandbox_problem())
    problem = kit.emu_problem()
    if problem:
        pytest.fail(problem)
    tmp = tmp_path_factory.mktemp("week")
    cls = tmp / "class"
    for name, src in (("alice", SOLUTION), ("bob", SKELETON), ("dave", None), ("erin", None), ("frank", None),
                      ("grace", SOLUTIONS / "mutants" / "missing-second-barrier.cu")):
        (cls / name).mkdir(parents=True)
        if src:
            shutil.copy(src, cls / name / "tiled_matmul.cu")
    (cls / "dave" / "tiled_matmul.cu").write_text("this is not CUDA\n")
    (cls / "erin" / "tiled_matmul.cu").write_text(ENDLESS)
    shutil.copy(SOLUTION, cls / "frank" / "matmul.cu")  # misnamed
    records = tmp / "records"
    real_csv = tmp / "gradebook-real.csv"
    real_csv.write_text("")
    (tmp / "grades.csv").symlink_to(real_csv)
    p = kit.gpulab("grade", LAB, cls, "--backend", "emu", "--timeout", "3", "--records", records,
                   "--csv", tmp / "grades.csv", timeout=1200)
    return {"tmp": tmp, "cls": cls, "records": records, "p": p, "real_csv": real_csv}


def rows(text):
    return {r["id"]: r for r in validate.check_csv(text)}


def test_the_class_summary(week):
    p = week["p"]
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert f"class summary: 6 submissions, scores out of {kit.max_score(LAB)}" in out
    assert "mean " in out and "median " in out
    assert "datasets passed:" in out and "width-0032" in out
    assert "submissions by status:" in out and "checker findings:" in out
    assert "datasets: the kit's public ones" in out


def test_a_gradebook_that_says_why(week):
    link = week["tmp"] / "grades.csv"
    assert link.is_symlink(), "the gradebook's link was replaced by a file"
    book = rows(week["real_csv"].read_bytes().decode())
    assert set(book) == {"alice", "bob", "dave", "erin", "frank", "grace"}
    assert book["alice"]["status"] == "pass" and book["alice"]["reason"] == ""
    assert "timeout" in book["erin"]["reason"], book["erin"]
    assert book["erin"]["st:width-0032"] == "timeout"
    assert "race at lines" in book["grace"]["reason"], book["grace"]
    assert book["dave"]["status"] == "compile_error" and "compile" in book["dave"]["reason"]
    assert book["frank"]["reason"].startswith("misnamed file (matmul.cu, not tiled_matmul.cu)"), book["frank"]
    assert "nothing written" in book["bob"]["reason"], book["bob"]


def test_regrade_one_student_keeps_the_class_gradebook(week):
    tmp = week["tmp"]
    p = kit.gpulab("grade", LAB, week["cls"] / "alice", "--backend", "emu", "--records", week["records"],
                   "--regrade", "alice", "--csv", tmp / "grades.csv", timeout=600)
    assert p.returncode == 0, p.stderr
    assert "--regrade alice" in p.stderr and "1 graded, 0 already graded" in p.stdout
    assert len(rows(week["real_csv"].read_bytes().decode())) == 6, "grading one student shrank the gradebook"
    p = kit.gpulab("grade", LAB, week["cls"], "--records", week["records"], "--regrade", "../etc")
    assert p.returncode == 2 and "not a submission id" in p.stderr


def test_exports_to_standard_output(week):
    p = kit.gpulab("export", LAB, week["records"], "--csv", "-")
    assert p.returncode == 0, p.stderr
    # (text mode turned the CSV's CRLF into LF)
    assert set(rows(p.stdout.replace("\n", "\r\n"))) == {"alice", "bob", "dave", "erin", "frank", "grace"}
    p = kit.gpulab("export", LAB, week["records"], "--summary")
    assert p.returncode == 0 and "class summary: 6 submissions" in p.stdout


def test_help_on_every_command():
    for cmd in ("check", "grade", "export", "bench", "datasets", "gradescope-package", "start", "inspect"):
        p = kit.gpulab(cmd, "--help")
        assert p.returncode == 0, (cmd, p.stderr)
        assert p.stdout.startswith("usage:\n  gpulab " + cmd), (cmd, p.stdout[:200])
    p = kit.gpulab("grade", "--help")
    assert "--regrade" in p.stdout and "--csv" in p.stdout


def test_a_class_of_files_named_by_student_is_not_misnamed(tmp_path):
    """The file-per-student form (class/alice.cu) names files by student on
    purpose: only a folder whose one .cu file has another name is flagged."""
    if kit.sandbox_problem():
        pytest.skip(kit.sandbox_problem())
    (tmp_path / "class").mkdir()
    shutil.copy(SOLUTION, tmp_path / "class" / "alice.cu")
    p = kit.gpulab("grade", LAB, tmp_path / "class", "--backend", "emu", "--no-sanitize", "--dataset", "width-0032",
                   "--records", tmp_path / "records", "--out", tmp_path / "report.txt", "--csv", "-")
    assert p.returncode == 0, p.stderr
    book = {r["id"]: r for r in csv.DictReader(io.StringIO(p.stdout))}
    # --no-sanitize: every point checked was earned, and the reason names the rest
    assert book["alice"]["status"] == "not_checked", book["alice"]
    assert book["alice"]["reason"].startswith("6 points not checked: [global_reuse] and [no_hazards]"), book["alice"]
    assert "misnamed" not in book["alice"]["reason"], book["alice"]


def test_a_named_mistake_reaches_the_gradebook(tmp_path):
    """A mistake the dataset's inputs reproduce (the mask transposed) is named
    in the record's comparison and in the gradebook's reason."""
    if kit.emu_problem():
        pytest.fail(kit.emu_problem())
    lab = "04-conv-2batch"
    sub = tmp_path / "class" / "dan"
    sub.mkdir(parents=True)
    shutil.copy(kit.ROOT / "solutions" / lab / "mutants" / "mask-transposed.cu", sub / "conv_2batch.cu")
    p = kit.gpulab("grade", lab, tmp_path / "class", "--backend", "emu", "--no-sanitize", "--sandbox", "none",
                   "--records", tmp_path / "records", "--out", tmp_path / "report.txt", "--csv", "-")
    assert p.returncode == 0, p.stderr
    book = rows(p.stdout.replace("\n", "\r\n"))
    assert "(mask transposed)" in book["dan"]["reason"], book["dan"]
    rec = json.loads((tmp_path / "records" / "dan.json").read_text())
    assert {d["comparison"]["mistake"] for d in rec["datasets"] if d["status"] == "wrong"} == {"mask transposed"}


def test_a_mistake_seen_only_on_a_1x1_output_is_not_named(tmp_path):
    """A halo bug whose 1x1 output happens to match a known mistake's
    pattern (one element fits many): a pattern is named only where several
    wrong elements agree, so neither the 1x1 dataset's record nor the
    gradebook names a mistake the larger datasets do not bear out."""
    if kit.emu_problem():
        pytest.fail(kit.emu_problem())
    lab = "04-conv-2batch"
    sub = tmp_path / "class" / "hal"
    sub.mkdir(parents=True)
    shutil.copy(kit.ROOT / "solutions" / lab / "mutants" / "first-batch-halo-shifted.cu", sub / "conv_2batch.cu")
    p = kit.gpulab("grade", lab, tmp_path / "class", "--backend", "emu", "--no-sanitize", "--sandbox", "none",
                   "--records", tmp_path / "records", "--out", tmp_path / "report.txt", "--csv", tmp_path / "g.csv")
    assert p.returncode == 0, p.stderr
    rec = json.loads((tmp_path / "records" / "hal.json").read_text())
    named = {d["comparison"]["elements"]: d["comparison"]["mistake"] for d in rec["datasets"]
             if d["status"] == "wrong" and d["comparison"]["mistake"]}
    one = next(d for d in rec["datasets"] if d["comparison"] and d["comparison"]["elements"] == 1)
    assert one["status"] == "wrong" and one["comparison"]["mistake"] is None, one["comparison"]
    assert 1 not in named, named
    book = rows((tmp_path / "g.csv").read_bytes().decode())
    wrong = sum(d["status"] == "wrong" for d in rec["datasets"])
    assert book["hal"]["reason"].startswith(f"wrong on {wrong} datasets;"), book["hal"]
    assert not any("(" + mistake + ")" in book["hal"]["reason"] for mistake in named.values()), book["hal"]


def test_an_output_flood_is_called_one(tmp_path):
    """A kernel that prints line after line until its time runs out: the
    gradebook says an output flood, not only a timeout."""
    if kit.emu_problem():
        pytest.fail(kit.emu_problem())
    lab = "01-basic-matmul"
    src = (kit.ROOT / "solutions" / lab / "basic_matmul.cu").read_text()
    flood = src.replace('#include "lab.h"', '#include <stdio.h>\n#include "lab.h"').replace(
        "    int Row = ", '    for (long i = 0; i < 400000000L; i++) printf("row %ld\\n", i);\n    int Row = ', 1)
    assert flood.count("printf") == 1
    for name, text in (("flo", flood), ("ok", src)):
        (tmp_path / "class" / name).mkdir(parents=True)
        (tmp_path / "class" / name / "basic_matmul.cu").write_text(text)
    p = kit.gpulab("grade", lab, tmp_path / "class", "--backend", "emu", "--no-sanitize", "--sandbox", "none",
                   "--dataset", "width-0016", "--timeout", "3", "--records", tmp_path / "records",
                   "--out", tmp_path / "report.txt", "--csv", tmp_path / "g.csv")
    assert p.returncode == 0, p.stderr
    book = rows((tmp_path / "g.csv").read_bytes().decode())
    assert "timeout on 1 dataset (an output flood: 64 KiB or more printed)" in book["flo"]["reason"], book["flo"]
    assert "flood" not in book["ok"]["reason"], book["ok"]
