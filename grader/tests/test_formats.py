"""The dataset module through the real binary: round trips and strict parsing."""
import struct

import pytest

import kit


def inspect(path):
    return kit.gpulab("inspect", path)


def write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data if isinstance(data, bytes) else data.encode())
    return p


def test_raw_round_trip_is_lossless(tmp_path):
    values = [0.1, -1.0e-7, 3.4028234663852886e38, 1.401298464324817e-45, 0.333333343, -2.5]
    src = write(tmp_path, "m.raw", "2 3\n" + " ".join(repr(v) for v in values) + "\n")
    assert kit.gpulab("convert", src, tmp_path / "m.tensor").returncode == 0
    assert kit.gpulab("convert", tmp_path / "m.tensor", tmp_path / "back.raw").returncode == 0
    assert kit.gpulab("convert", tmp_path / "back.raw", tmp_path / "again.tensor").returncode == 0
    # float32 values survive text and binary both ways, bit for bit
    assert (tmp_path / "m.tensor").read_bytes() == (tmp_path / "again.tensor").read_bytes()
    payload = (tmp_path / "m.tensor").read_bytes().split(b"data\n", 1)[1]
    got = struct.unpack("<6f", payload)
    assert got == struct.unpack("<6f", struct.pack("<6f", *values))


def test_committed_dataset_files_are_valid():
    files = sorted((kit.ROOT / "datasets").glob("*/*/*"))
    assert files, "no committed datasets"
    p = kit.gpulab("inspect", *files)
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("text, message", [
    ("", "truncated header"),
    ("3\n1 2 3\n", "truncated header"),
    ("3 x\n1 2 3\n", "bad header"),
    ("2 2 2\n1 2 3 4\n", "expected only 'rows cols'"),
    ("0 3\n", "absurd dimensions"),
    ("-2 3\n1 2 3 4 5 6\n", "absurd dimensions"),
    ("100000 100000\n1\n", "absurd dimensions"),
    ("2 2\n1 2\n3\n", "too few values"),
    ("2 2\n1 2\n3 4 5\n", "too many values"),
    ("2 2\n1 2\n3 four\n", "expected a number"),
    ("2 2\n1 2\n3 4x\n", "expected a number"),
    ("2 2\n1 nan\n3 4\n", "finite numbers only"),
    ("2 2\n1 2\n3 1e39\n", "overflows a float"),
])
def test_raw_rejects_malformed(tmp_path, text, message):
    p = inspect(write(tmp_path, "bad.raw", text))
    assert p.returncode == 1
    assert message in p.stderr, p.stderr
    assert "bad.raw" in p.stderr


def test_raw_error_names_the_line(tmp_path):
    p = inspect(write(tmp_path, "bad.raw", "3 2\n1 2\n3 4\n5 oops\n"))
    assert "bad.raw:4:" in p.stderr, p.stderr


def tensor(shape, dtype="f32", fields="value", terms=None, payload=None, extra=""):
    head = "gpulab-tensor 1\nshape " + " ".join(map(str, shape)) + f"\ndtype {dtype}\nfields {fields}\n"
    if terms:
        head += f"terms {terms}\n"
    head += extra + "data\n"
    n = 1
    for d in shape:
        n *= d
    if payload is None:
        width = 4 if dtype == "f32" else 8
        nf = len(fields.split())
        payload = bytes(width * nf * n)
    return head.encode() + payload


@pytest.mark.parametrize("data, message", [
    (b"gpulab-tensor 2\n", "bad header"),
    (b"gpulab-tensor 1\nshape 2 2\n", "truncated"),
    (tensor([2, 2], payload=bytes(12)), "truncated"),
    (tensor([2, 2], payload=bytes(20)), "trailing data"),
    (tensor([0, 2]), "absurd dimension"),
    (tensor([2, 2], extra="color blue\n"), "unknown header line"),
    (tensor([2, 2], dtype="f16"), "expected 'dtype f32'"),
    (b"gpulab-tensor 1\ndtype f32\nfields value\ndata\n", "lacks a 'shape'"),
])
def test_tensor_rejects_malformed(tmp_path, data, message):
    p = inspect(write(tmp_path, "bad.tensor", data))
    assert p.returncode == 1
    assert message in p.stderr, p.stderr


def test_reference_needs_terms_with_magnitudes(tmp_path):
    p = inspect(write(tmp_path, "ref.tensor", tensor([1, 1], "f64", "value magnitude")))
    assert p.returncode == 1 and "terms" in p.stderr


def test_reference_rejects_nonfinite(tmp_path):
    payload = struct.pack("<2d", float("nan"), 1.0)
    p = inspect(write(tmp_path, "ref.tensor", tensor([1, 1], "f64", "value magnitude", 3, payload)))
    assert p.returncode == 1 and "not finite" in p.stderr


def test_ppm_round_trip(tmp_path):
    pixels = bytes(range(0, 256, 4))[:2 * 3 * 3] * 1
    src = write(tmp_path, "i.ppm", b"P6\n# a comment\n3 2\n255\n" + pixels)
    assert kit.gpulab("convert", src, tmp_path / "i.tensor").returncode == 0
    assert kit.gpulab("convert", tmp_path / "i.tensor", tmp_path / "back.ppm").returncode == 0
    assert (tmp_path / "back.ppm").read_bytes().endswith(pixels)
    out = inspect(src).stdout
    assert "matrix 2 x 3 x 3" in out


@pytest.mark.parametrize("data, message", [
    (b"P3\n1 1\n255\n1 2 3\n", "bad header"),
    (b"P6\n2 2\n255\n" + bytes(11), "truncated"),
    (b"P5\n2 2\n255\n" + bytes(5), "trailing data"),
    (b"P5\n2 2\n65535\n" + bytes(8), "maxval"),
    (b"P5\n2\n", "bad header"),
])
def test_ppm_rejects_malformed(tmp_path, data, message):
    p = inspect(write(tmp_path, "bad.ppm", data))
    assert p.returncode == 1
    assert message in p.stderr, p.stderr


def test_unknown_extension(tmp_path):
    p = inspect(write(tmp_path, "x.csv", "1,2"))
    assert p.returncode == 1 and "unknown data file type" in p.stderr
