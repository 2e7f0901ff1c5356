"""The compare stage through `gpulab compare`, under lab 01's tolerance model:
|got - exp| <= atol + rtol*|exp| + sum_ulps * terms * 2^-24 * magnitude
with atol 1e-6, rtol 0, sum_ulps 2 (labs/01-basic-matmul/lab.json)."""
import json
import struct

import pytest

import kit

LAB = "01-basic-matmul"
POISON_BITS = struct.pack("<I", 0x7FDEAD00)  # GL_POISON_BITS in grader/runtime/dataset.h
POISON = struct.unpack("<f", POISON_BITS)[0]


def output(path, rows, cols, values, raw_bits=None):
    head = f"gpulab-tensor 1\nshape {rows} {cols}\ndtype f32\nfields value\ndata\n".encode()
    payload = b"".join(struct.pack("<f", v) for v in values)
    if raw_bits is not None:  # overwrite element 0 with exact bits
        payload = raw_bits + payload[4:]
    path.write_bytes(head + payload)
    return path


def reference(path, rows, cols, values, magnitudes, terms):
    head = (f"gpulab-tensor 1\nshape {rows} {cols}\ndtype f64\nfields value magnitude\n"
            f"terms {terms}\ndata\n").encode()
    payload = b"".join(struct.pack("<2d", v, m) for v, m in zip(values, magnitudes))
    path.write_bytes(head + payload)
    return path


def compare(out, ref):
    p = kit.gpulab("compare", LAB, out, ref, "--format", "json")
    return p.returncode, json.loads(p.stdout) if p.stdout.strip() else None, p


# terms 4, magnitude 8: tolerance = 1e-6 + 2 * 4 * 8 * 2^-24 = 4.8147e-06.
# Near 2.0 a float32 step is 2^-22, so 20 steps pass and 21 do not.
STEP = 2.0 ** -22


@pytest.mark.parametrize("steps, status", [(0, "pass"), (20, "pass"), (21, "wrong"), (-21, "wrong")])
def test_tolerance_boundary(tmp_path, steps, status):
    ref = reference(tmp_path / "e.tensor", 1, 2, [2.0, 1.0], [8.0, 8.0], 4)
    out = output(tmp_path / "o.tensor", 1, 2, [2.0 + steps * STEP, 1.0])
    rc, rec, _ = compare(out, ref)
    assert rec["status"] == status
    assert rc == (0 if status == "pass" else 1)
    if status == "wrong":
        assert rec["comparison"]["mismatches"] == 1
        worst = rec["comparison"]["worst"][0]
        assert (worst["row"], worst["col"]) == (0, 0)
        assert worst["tolerance"] == pytest.approx(1e-6 + 2 * 4 * 8 * 2.0 ** -24)


def test_tolerance_grows_with_magnitude(tmp_path):
    # The same absolute error passes where the terms were large and fails where they were small.
    ref = reference(tmp_path / "e.tensor", 1, 2, [2.0, 2.0], [8000.0, 8.0], 4)
    out = output(tmp_path / "o.tensor", 1, 2, [2.0 + 64 * STEP, 2.0 + 64 * STEP])
    rc, rec, _ = compare(out, ref)
    assert rec["comparison"]["mismatches"] == 1
    assert rec["comparison"]["worst"][0]["col"] == 1


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), float("-inf")])
def test_nonfinite_never_passes(tmp_path, bad):
    ref = reference(tmp_path / "e.tensor", 2, 2, [1.0] * 4, [1e30] * 4, 1000)
    out = output(tmp_path / "o.tensor", 2, 2, [1.0, 1.0, bad, 1.0])
    rc, rec, _ = compare(out, ref)
    assert rc == 1 and rec["status"] == "wrong"
    assert rec["comparison"]["nonfinite"] == 1
    assert (rec["comparison"]["worst"][0]["row"], rec["comparison"]["worst"][0]["col"]) == (1, 0)


def test_poison_is_reported_as_never_written(tmp_path):
    ref = reference(tmp_path / "e.tensor", 2, 2, [1.0] * 4, [1.0] * 4, 1)
    out = output(tmp_path / "o.tensor", 2, 2, [0, 1.0, 1.0, 1.0], raw_bits=POISON_BITS)
    rc, rec, _ = compare(out, ref)
    assert rec["status"] == "wrong"
    assert rec["comparison"]["never_written"] == 1
    assert rec["comparison"]["worst"][0]["got"] == "never written"
    assert "never written" in rec["message"]


def test_all_poison_says_nothing_was_written(tmp_path):
    ref = reference(tmp_path / "e.tensor", 1, 3, [1.0] * 3, [1.0] * 3, 1)
    out = output(tmp_path / "o.tensor", 1, 3, [POISON] * 3)
    _, rec, _ = compare(out, ref)
    assert rec["message"].startswith("nothing was written")


def test_shape_mismatch(tmp_path):
    ref = reference(tmp_path / "e.tensor", 2, 2, [1.0] * 4, [1.0] * 4, 1)
    out = output(tmp_path / "o.tensor", 1, 4, [1.0] * 4)
    rc, rec, _ = compare(out, ref)
    assert rc == 1 and rec["status"] == "wrong"
    assert "1 x 4" in rec["message"] and "2 x 2" in rec["message"]


def test_missing_output_is_no_output(tmp_path):
    ref = reference(tmp_path / "e.tensor", 1, 1, [1.0], [1.0], 1)
    rc, rec, _ = compare(tmp_path / "missing.tensor", ref)
    assert rc == 1 and rec["status"] == "no_output"


def test_garbled_output_is_no_output(tmp_path):
    ref = reference(tmp_path / "e.tensor", 1, 1, [1.0], [1.0], 1)
    (tmp_path / "o.tensor").write_bytes(b"PASS\n")
    rc, rec, _ = compare(tmp_path / "o.tensor", ref)
    assert rc == 1 and rec["status"] == "no_output"


def test_unreadable_expected_is_grader_error(tmp_path):
    out = output(tmp_path / "o.tensor", 1, 1, [1.0])
    (tmp_path / "e.tensor").write_text("nonsense")
    rc, rec, _ = compare(out, tmp_path / "e.tensor")
    assert rc == 2 and rec["status"] == "grader_error"


def test_libwb_expected_uses_relative_fallback(tmp_path):
    # A libwb output.raw carries no magnitudes: tolerance = atol + 1e-5 * |exp|.
    (tmp_path / "output.raw").write_text("1 2\n1000 1000\n")
    out = output(tmp_path / "o.tensor", 1, 2, [1000.0078125, 1000.015625])
    rc, rec, _ = compare(out, tmp_path / "output.raw")
    assert rec["comparison"]["mismatches"] == 1
    assert rec["comparison"]["worst"][0]["col"] == 1
