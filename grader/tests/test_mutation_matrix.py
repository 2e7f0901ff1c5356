"""grader/bench/mutation-matrix.py, the matrix of the kit's mutants against
its datasets, tested on a corner of lab 01 small enough to run here: the
script checks each mutant on each dataset alone with the real grader, marks
a dataset that does not pass as catching the mutant, and names the mutants
caught by one dataset only and the datasets that catch nothing (--strict
then exits 1). The whole matrix is for the kit's maintainers
(docs/mistakes.md gives its latest summary)."""
import json
import sys

import kit

SCRIPT = kit.ROOT / "grader" / "bench" / "mutation-matrix.py"


def test_a_mutant_caught_by_one_dataset_and_an_idle_dataset_are_named(tmp_path):
    # grid-rounded-down computes width / 16 blocks: right on width 16 (one
    # whole block), wrong on width 17
    out = tmp_path / "matrix.json"
    p = kit.run([sys.executable, SCRIPT, "01", "--mutants", "grid-rounded-down", "--datasets",
                 "width-0016,width-0017", "--json", out, "--strict"], timeout=900)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "caught by one dataset only: grid-rounded-down (width-0017)" in p.stdout, p.stdout
    assert "catches nothing: width-0016" in p.stdout, p.stdout
    row = next(line.split() for line in p.stdout.splitlines() if line.strip().startswith("grid-rounded-down "))
    assert row == ["grid-rounded-down", ".", "X", "1"], p.stdout
    rep = json.loads(out.read_text())
    lab = rep["labs"][0]
    assert lab["lab"] == "01-basic-matmul" and lab["datasets"] == ["width-0016", "width-0017"], lab
    assert lab["cells"]["grid-rounded-down|width-0016"]["status"] == "pass", lab["cells"]
    assert lab["cells"]["grid-rounded-down|width-0017"]["status"] == "wrong", lab["cells"]
    assert rep["totals"] == {"mutants": 1, "cells": 2, "none": 0, "one": 1, "idle": 1, "errors": 0}, rep["totals"]


def test_an_unknown_lab_is_an_error():
    p = kit.run([sys.executable, SCRIPT, "99"])
    assert p.returncode != 0 and "no lab '99'" in p.stderr, p.stderr


def test_full_holds_each_mutants_whole_check_against_its_cells(tmp_path):
    # flat-position-test tests the flattened position against the whole
    # matrix: caught on width-0017 alone (a partial block's threads past a
    # row's end pass its test), not on width-0016 (no partial block); the
    # whole check, where width-0017 may be in the bounds series rather than
    # the full checks, must not call it pass
    out = tmp_path / "matrix.json"
    p = kit.run([sys.executable, SCRIPT, "01", "--mutants", "flat-position-test", "--datasets",
                 "width-0016,width-0017", "--json", out, "--full"], timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "whole checks that pass a dataset caught alone: 0" in p.stdout, p.stdout
    rep = json.loads(out.read_text())
    lab = rep["labs"][0]
    whole = lab["whole"]["flat-position-test"]
    assert lab["cells"]["flat-position-test|width-0017"]["status"] != "pass", lab["cells"]
    assert whole["width-0017"] != "pass", whole
    assert len(whole) == 9, whole  # every public dataset of lab 01, not only the two asked for
    assert rep["totals"]["kinder"] == 0 and lab["summary"]["kinder"] == [], rep["totals"]
