"""The sanitizer stage's reading of compute-sanitizer, on a report captured
from CUDA 13 on an H200 (grader/tests/data/), for the probe program
grader/tests/programs/probe_sanitizer.cu."""
import json

import pytest

import kit

REPORT = kit.ROOT / "grader" / "tests" / "data" / "compute-sanitizer-cuda13-h200.txt"
SOURCE = kit.ROOT / "grader" / "tests" / "programs" / "probe_sanitizer.cu"


@pytest.fixture(scope="module")
def findings():
    p = kit.gpulab("explain-sanitizer", REPORT, SOURCE)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)["findings"]


def by_kind(findings, kind):
    return [f for f in findings if f["kind"] == kind]


def test_out_of_bounds_read_names_line_element_and_thread(findings):
    (f,) = by_kind(findings, "out-of-bounds")
    assert f["line"] == 6
    assert "element 100 of a 100-element array" in f["message"]
    assert "thread (100,0,0)" in f["message"]
    assert "a[i]" in f["message"]  # quotes the student's own line


def test_race_names_both_lines(findings):
    (f,) = by_kind(findings, "race")
    assert (f["line"], f["line2"]) == (11, 14)
    assert "__syncthreads()" in f["message"] and "128 hazards" in f["message"]


def test_divergent_barrier(findings):
    (f,) = by_kind(findings, "barrier")
    assert f["line"] == 13


def test_repeated_reports_are_one_finding(findings):
    # memcheck printed three out-of-bounds reads of the same line: one finding
    assert len(by_kind(findings, "out-of-bounds")) == 1


def test_clean_report_has_no_findings(tmp_path):
    clean = tmp_path / "clean.txt"
    clean.write_text("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n")
    p = kit.gpulab("explain-sanitizer", clean)
    assert json.loads(p.stdout)["findings"] == []


# ---- the stage end to end, on each backend ---------------------------------

def line_of(path, text):
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if text in line:
            return n
    raise AssertionError(f"{text!r} not in {path}")


@pytest.mark.parametrize("lab", kit.labs())
def test_reference_solutions_have_no_findings(backend, lab):
    src = kit.ROOT / "solutions" / lab / kit.manifest(lab)["source"]
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=0)
    checked = [d for d in rep["datasets"] if d["sanitizer"]]
    assert checked, "the sanitizer stage ran on no dataset"
    for d in checked:
        assert d["sanitizer"]["ran"], d["sanitizer"]
        assert d["sanitizer"]["findings"] == [], d["sanitizer"]["findings"]


def test_missing_second_barrier_race_names_both_lines(backend):
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "02-tiled-matmul"
    src = kit.ROOT / "solutions" / lab / "mutants" / "missing-second-barrier.cu"
    write = line_of(src, "ds_M[ty][tx] =")
    read = line_of(src, "Pvalue +=")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    problems = {d["sanitizer"]["problem"] for d in rep["datasets"] if d["sanitizer"]} - {None}
    assert not problems, f"the sanitizer stage could not run: {problems}"
    races = [f for d in rep["datasets"] if d["sanitizer"] for f in d["sanitizer"]["findings"]
             if f["kind"] == "race"]
    assert any((f["line"], f["line2"]) == (write, read) for f in races), races
    # A dataset the checker saw race is never `pass`; where its output matched
    # (the GPU often gets this right by luck) it is `unsafe`, worth nothing.
    for d in rep["datasets"]:
        if d["sanitizer"] and d["sanitizer"]["findings"]:
            assert d["status"] != "pass", d["name"]
            c = d["comparison"]
            if c and c["mismatches"] == 0:
                assert d["status"] == "unsafe" and d["score"] == 0, (d["name"], d["status"])
