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


def test_a_test_joined_by_a_comma_is_named(tmp_path):
    path = slipped(tmp_path, "01-basic-matmul", "if (Row < Width && Col < Width) {", "if (Row < Width, Col < Width) {")
    first = first_line("01-basic-matmul", path, "width-0017")
    assert "the test at line 23 (`if (Row < Width, Col < Width)`) joins its conditions with a comma" in first, first
    assert "`Row < Width` no longer holds any thread back" in first, first


def test_a_cudamalloc_sized_by_a_pointer_is_named(tmp_path):
    path = slipped(tmp_path, "01-basic-matmul", "cudaMalloc((void **)&d_P, bytes)", "cudaMalloc((void **)&d_P, sizeof(P))")
    first = first_line("01-basic-matmul", path, "width-0017")
    # the guard's record leads: the copy back reads the whole buffer the
    # allocation left out (an allocation too small, said with sizeof's 8)
    assert "sizeof(P)));`) allocates 8 bytes" in first and "the allocation is too small" in first and \
        "8 bytes is what sizeof gives for a pointer" in first, first


@pytest.mark.slow  # the loop never ends: the dataset runs out of its time by design
def test_a_loop_that_steps_another_variable_is_named(tmp_path):
    path = slipped(tmp_path, "01-basic-matmul", "for (int k = 0; k < Width; ++k)",
                   "for (int k = 0; k < Width; ++Col)")
    first = first_line("01-basic-matmul", path, "width-0001")
    assert "the loop at line 25 (`for (int k = 0; k < Width; ++Col)`) steps Col, which its test does not read" \
        in first, first


def test_a_define_whose_value_regroups_where_it_is_used_is_named(tmp_path):
    # `Width / TILE_WIDTH` pastes as Width / 32 / 2, (Width / 32) / 2: a
    # grid and a phase count four times too small
    path = slipped(tmp_path, "02-tiled-matmul", "#define TILE_WIDTH 16", "#define TILE_WIDTH 32 / 2")
    first = first_line("02-tiled-matmul", path, "width-0064")
    assert first.startswith("the #define at line 14 (`#define TILE_WIDTH 32 / 2`) has no parentheses"), first
    assert "`Width / TILE_WIDTH` at line 36 reads as `Width / 32 / 2`, that is (Width / 32) / 2" in first, first
    assert "(and so at line 73)" in first, first
    assert "write `#define TILE_WIDTH (32 / 2)`" in first, first


def test_a_define_regrouped_by_a_product_before_it_is_named(tmp_path):
    # `by * TILE_WIDTH + ty` pastes as by * 8 + 8 + ty: every block's Row is off
    path = slipped(tmp_path, "02-tiled-matmul", "#define TILE_WIDTH 16", "#define TILE_WIDTH 8 + 8")
    first = first_line("02-tiled-matmul", path, "width-0032")
    assert "the #define at line 14 (`#define TILE_WIDTH 8 + 8`)" in first, first
    assert "`by * TILE_WIDTH` at line 29 reads as `by * 8 + 8`, that is (by * 8) + 8" in first, first


def test_a_define_in_brackets_passes(tmp_path):
    path = slipped(tmp_path, "02-tiled-matmul", "#define TILE_WIDTH 16", "#define TILE_WIDTH (32 / 2)")
    _, rep = kit.check_json("02-tiled-matmul", path, "emu", "--dataset", "width-0064")
    assert [d["status"] for d in rep["datasets"]] == ["pass"], rep["datasets"]
    assert not rep.get("fix_first"), rep["fix_first"]


def test_a_define_whose_every_use_keeps_its_value_is_not_named(tmp_path):
    # `i <= LAST` is i <= (TILE_WIDTH - 1) pasted or not; the file fails
    # for its store (Pvalue + 1), which the first line must name instead
    path = slipped(tmp_path, "02-tiled-matmul", "#define TILE_WIDTH 16",
                   "#define TILE_WIDTH 16\n#define LAST TILE_WIDTH - 1")
    src = path.read_text()
    src = src.replace("i < TILE_WIDTH; ++i", "i <= LAST; ++i").replace("= Pvalue;", "= Pvalue + 1;")
    path.write_text(src)
    first = first_line("02-tiled-matmul", path, "width-0032")
    assert "#define" not in first, first
