"""Statements a compiler's warnings point at and a student almost never
means (grader/src/checkers/source_scope.c, source_host.c): the first line
names them, at their line, ahead of the symptom the run shows (a store past
the output's end, a hang). Each file is a reference solution with one such
slip, written here; one dataset, no checkers, so that each check is quick."""
import pytest

import kit


def slipped(tmp_path, lab, old, new):
    src = kit.solution(lab).read_text()
    assert src.count(old) == 1, old
    path = tmp_path / f"{lab}-slip.cu"
    path.write_text(src.replace(old, new))
    return path


def first_line(lab, path, dataset):
    _, rep = kit.check_json(lab, path, "emu", "--dataset", dataset)
    assert rep["score"] < rep["max_score"], rep
    return rep.get("fix_first") or ""


def test_an_if_with_an_empty_body_is_named_not_the_store_it_lets_through(tmp_path):
    path = slipped(tmp_path, "01-basic-matmul", "if (Row < Width && Col < Width) {",
                   "if (Row < Width && Col < Width); {")
    first = first_line("01-basic-matmul", path, "width-0017")
    assert "the `;` right after `if (Row < Width && Col < Width)`" in first, first
    assert "runs for every thread" in first, first


def test_an_assignment_where_the_test_compares_is_named(tmp_path):
    path = slipped(tmp_path, "01-basic-matmul", "if (Row < Width && Col < Width) {", "if (Row = Width - 1) {")
    first = first_line("01-basic-matmul", path, "width-0017")
    assert "the test at line 23 (`if (Row = Width - 1)`) assigns with `=`" in first, first


def test_a_cudamalloc_sized_by_a_pointer_is_named(tmp_path):
    path = slipped(tmp_path, "01-basic-matmul", "cudaMalloc((void **)&d_P, bytes)", "cudaMalloc((void **)&d_P, sizeof(P))")
    first = first_line("01-basic-matmul", path, "width-0017")
    assert "is given sizeof(P), but P is a pointer" in first, first


@pytest.mark.slow  # the loop never ends: the dataset runs out of its time by design
def test_a_loop_that_steps_another_variable_is_named(tmp_path):
    path = slipped(tmp_path, "01-basic-matmul", "for (int k = 0; k < Width; ++k)",
                   "for (int k = 0; k < Width; ++Col)")
    first = first_line("01-basic-matmul", path, "width-0001")
    assert "the loop at line 25 (`for (int k = 0; k < Width; ++Col)`) steps Col, which its test does not read" \
        in first, first
