"""Failure analysis: the pattern of a wrong output becomes a hint that says
where to look. Driven through `gpulab compare` with crafted outputs."""
import json
import random
import struct

import pytest

import kit
from test_compare import output, reference, POISON

LAB = "01-basic-matmul"


def case(tmp_path, n, want, got):
    # magnitudes like a dot product of length n with terms in [-1, 1]
    ref = reference(tmp_path / "e.tensor", n, n, want, [n / 4.0] * (n * n), n)
    out = output(tmp_path / "o.tensor", n, n, got)
    p = kit.gpulab("compare", LAB, out, ref, "--format", "json")
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
    hint = case(tmp_path, n, want, got)
    assert "last partial tile" in hint and "16" in hint


def test_rows_past_the_last_whole_tile(tmp_path):
    n = 40  # 32 + 8: columns fine, rows from 32 wrong
    want = matrix(n)
    got = [v + (1.0 if i // n >= 32 else 0.0) for i, v in enumerate(want)]
    hint = case(tmp_path, n, want, got)
    assert "rows 32 and up" in hint


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
