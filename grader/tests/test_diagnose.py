"""Failure analysis: the pattern of a wrong output becomes a hint that says
where to look. Driven through `gpulab compare` with crafted outputs."""
import json
import random
import struct

import pytest

import kit
from test_compare import output, reference, POISON

LAB = "01-basic-matmul"
TILED = "02-tiled-matmul"


def case(tmp_path, n, want, got, lab=LAB):
    # magnitudes like a dot product of length n with terms in [-1, 1]
    ref = reference(tmp_path / "e.tensor", n, n, want, [n / 4.0] * (n * n), n)
    out = output(tmp_path / "o.tensor", n, n, got)
    p = kit.gpulab("compare", lab, out, ref, "--format", "json")
    rec = json.loads(p.stdout)
    assert rec["status"] == "wrong"
    return rec["comparison"]["hint"] or ""


def matrix(n, seed=1):
    rnd = random.Random(seed)
    return [rnd.uniform(-3, 3) for _ in range(n * n)]


def test_transposed(tmp_path):
    n = 20
    want = matrix(n)
    got = [want[c * n + r] for r in range(n) for c in range(n)]
    assert "transpose" in case(tmp_path, n, want, got)


def test_scaled(tmp_path):
    want = matrix(16)
    assert "times 2" in case(tmp_path, 16, want, [2 * v for v in want])


def test_all_zero(tmp_path):
    assert "every element is 0" in case(tmp_path, 16, matrix(16), [0.0] * 256)


def test_last_partial_tile(tmp_path):
    n = 20  # a whole 16-tile, then 4 rows and columns of partial tile
    want = matrix(n)
    got = [v + (1.0 if (i // n >= 16 or i % n >= 16) else 0.0) for i, v in enumerate(want)]
    hint = case(tmp_path, n, want, got, TILED)
    assert "last partial tile" in hint and "16" in hint


def test_rows_past_the_last_whole_tile(tmp_path):
    n = 40  # 32 + 8: columns fine, rows from 32 wrong
    want = matrix(n)
    got = [v + (1.0 if i // n >= 32 else 0.0) for i, v in enumerate(want)]
    hint = case(tmp_path, n, want, got, TILED)
    assert "rows 32 and up" in hint
    # lab 01 has no tiles: no band past the last whole one
    assert "tile" not in case(tmp_path, n, want, got)


def test_some_never_written(tmp_path):
    n = 20
    want = matrix(n)
    got = [POISON if i // n >= 16 else v for i, v in enumerate(want)]
    hint = case(tmp_path, n, want, got)
    assert "never written" in hint and "rows 16 to 19" in hint


def test_nan(tmp_path):
    want = matrix(8)
    got = list(want)
    got[5] = float("nan")
    assert "NaN" in case(tmp_path, 8, want, got)


def test_scattered_errors_get_no_made_up_hint(tmp_path):
    n = 20
    want = matrix(n)
    got = list(want)
    for i in (3, 77, 250):
        got[i] += 1.0
    assert case(tmp_path, n, want, got) == ""


# ---- words that fit the lab and the count (issue 40) ---------------------------

def hints(rep):
    return " ".join((d.get("comparison") or {}).get("hint") or "" for d in rep["datasets"])


def test_a_lab_without_tiles_hears_nothing_of_tiles_and_one_element_is_singular():
    """Lab 01 has no shared tiles: its NaN sentence names no tile slot and no
    barrier; a count of 1 is said in the singular."""
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    path = kit.ROOT / "solutions" / "01-basic-matmul" / "mutants" / "copy-count-in-floats.cu"
    rc, rep = kit.check_json("01-basic-matmul", path, "emu", "--dataset", "width-0001")
    text = hints(rep)
    assert "1 element is NaN or infinite" in text, text
    assert "tile" not in text and "__syncthreads" not in text, text


def test_a_lab_without_tiles_names_an_input_read_transposed_at_its_read_in_the_sum(tmp_path):
    """Lab 01 with N read down a row (N[Col * Width + k]): the inputs show N
    transposed, and the sentence names the sum's read and its line, never a
    tile (a one-tile dataset cannot tell a tile from the whole matrix, and
    lab 01 has none)."""
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    src = kit.ROOT / "solutions" / "01-basic-matmul" / "basic_matmul.cu"
    text = src.read_text()
    old = "Pvalue += M[Row * Width + k] * N[k * Width + Col];"
    assert old in text
    path = tmp_path / src.name
    path.write_text(text.replace(old, "Pvalue += N[Col * Width + k] * M[Row * Width + k];", 1))
    line = text[:text.index(old)].count("\n") + 1
    rc, rep = kit.check_json("01-basic-matmul", path, "emu", "--dataset", "width-0015")
    words = hints(rep)
    assert "exactly what you get with N transposed: the sum reads N(Col, k) where N(k, Col) belongs" in words, words
    assert f"look at the indices of that read in the sum at line {line} (`" in words, words
    assert "tile" not in words and "shared" not in words, words


@pytest.mark.parametrize("sum_line, reads, unread", [
    # N's subscript written for M too: each thread reads column Col of M
    ("Pvalue += M[k * Width + Col] * N[k * Width + Col];", "M(k, Col) where M(Row, k) belongs",
     "the output's row enters no read"),
    # the running index and the column both in M's place and N's
    ("Pvalue += M[Row * Width + Col] * N[k * Width + k];", "M(Row, Col) x N(k, k) where M(Row, k) x N(k, Col) belongs",
     None),
    # the thread's row in its block for its row in the grid
    ("Pvalue += M[threadIdx.y * Width + k] * N[k * Width + Col];", "M(threadIdx.y, k) where M(Row, k) belongs",
     "the block's offset, blockIdx times the block's size, is left out"),
])
def test_a_lab_without_tiles_names_any_pair_of_indices_its_reads_take(tmp_path, sum_line, reads, unread):
    """Lab 01's sum with its reads at other pairs of Row, Col and k than
    M(Row, k) x N(k, Col), pairs no named kind of mistake covers: the
    inputs show which pair each read takes, and the sentence names it,
    and the sum's line; where a coordinate of the output enters no read,
    it says so."""
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    src = kit.ROOT / "solutions" / "01-basic-matmul" / "basic_matmul.cu"
    text = src.read_text()
    old = "Pvalue += M[Row * Width + k] * N[k * Width + Col];"
    assert old in text
    path = tmp_path / src.name
    path.write_text(text.replace(old, sum_line, 1))
    line = text[:text.index(old)].count("\n") + 1
    rc, rep = kit.check_json("01-basic-matmul", path, "emu", "--dataset",
                             "width-0033" if "threadIdx" in sum_line else "width-0015")
    words = hints(rep)
    assert f"exactly what you get if the sum reads {reads}" in words, words
    assert f"look at the indices of that read in the sum at line {line} (`" in words, words
    assert unread is None or unread in words, words


def test_a_one_pixel_image_is_not_wrong_almost_everywhere(tmp_path):
    """A 1 x 1 image's one wrong pixel is said as that, in the singular."""
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    src = kit.ROOT / "solutions" / "04-conv-2batch" / "conv_2batch.cu"
    text = src.read_text()
    old = "P[(y * width + x) * channels + k] = acc;"
    assert old in text
    path = tmp_path / src.name
    path.write_text(text.replace(old, "P[(y * width + x) * channels + k] = acc + 1.0f;", 1))
    rc, rep = kit.check_json("04-conv-2batch", path, "emu", "--dataset", "gray-1x1")
    words = hints(rep)
    assert "1 of 1 element is wrong" in words and "at the image's one pixel" in words, words
    assert "almost everywhere" not in words, words


def test_a_lab_without_tiles_that_fails_past_one_block_hears_of_blocks(tmp_path):
    """Lab 01 (no tiles) with Row from threadIdx.y alone: every dataset
    wider than one block fails, every other passes. The pattern speaks of
    what changes past the first block, never of tiles, phases or barriers."""
    lab = "01-basic-matmul"
    sol = next((kit.ROOT / "solutions" / lab).glob("*.cu"))
    src = sol.read_text()
    assert "int Row = blockIdx.y * blockDim.y + threadIdx.y;" in src
    bad = tmp_path / "row-without-block.cu"
    bad.write_text(src.replace("int Row = blockIdx.y * blockDim.y + threadIdx.y;", "int Row = threadIdx.y;"))
    _, rep = kit.check_json(lab, bad, "emu", expect_rc=1)
    hint = rep.get("hint") or ""
    assert "larger than one block (16)" in hint and "blockIdx" in hint, hint
    for word in ("tile", "phase", "barrier"):
        assert word not in hint, hint


def test_an_output_stored_a_few_places_off_is_said_shifted(tmp_path):
    """Every value right but stored one row down and two columns right (an
    output index with an offset added): the hint says how far, and that
    the values are right; the elements whose source lies outside say
    nothing either way."""
    n = 20
    want = matrix(n, seed=3)
    got = [want[(y - 1) * n + (x - 2)] if y >= 1 and x >= 2 else 0.0 for y in range(n) for x in range(n)]
    hint = case(tmp_path, n, want, got)
    assert "the right value of the element 1 row above and 2 columns to the left" in hint, hint
    assert "every value is right but stored" in hint, hint


def test_an_output_right_nowhere_is_not_said_shifted(tmp_path):
    n = 20
    want, other = matrix(n, seed=3), matrix(n, seed=4)
    hint = case(tmp_path, n, want, other)
    assert "shifted" not in hint and "stored that far" not in hint, hint
