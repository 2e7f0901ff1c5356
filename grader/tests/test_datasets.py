"""Hidden datasets (a seed other than the lab's): other values and other
shapes of the same families as the public datasets they stand for, the
same for the same seed (issue 39, item 4; docs/instructor-guide.md,
"Hidden datasets")."""
import filecmp
import math

import pytest

import kit


def header_numbers(path):
    """The first numbers of a .raw (rows cols) or a .ppm/.pgm (width height)."""
    words = path.read_bytes()[:64].split()
    if words[0] in (b"P5", b"P6"):
        return int(words[1]), int(words[2])
    return tuple(int(w) for w in words[:2])


def sizes(lab, folder):
    """A dataset's sizes by the manifest's names, read from its inputs."""
    if lab.startswith("01") or lab.startswith("02"):
        return {"width": header_numbers(folder / "input0.raw")[0]}
    if lab.startswith("03"):
        (j, k), (_, l) = header_numbers(folder / "input0.raw"), header_numbers(folder / "input1.raw")
        return {"j": j, "k": k, "l": l}
    image = next(folder.glob("input0.p?m"))
    width, height = header_numbers(image)
    return {"height": height, "width": width}


def is_prime(n):
    return n > 1 and all(n % f for f in range(2, int(math.isqrt(n)) + 1))


def same_family(public, hidden, modulus, cap):
    """Each size keeps its remainder modulo the tile sides, 1 stays 1, a
    prime stays a prime; equal sizes stay equal and their order is kept;
    none grows past the lab's largest public size."""
    for name, v in public.items():
        w = hidden[name]
        assert w % modulus == v % modulus, (name, v, w)
        assert (w == 1) == (v == 1), (name, v, w)
        assert not is_prime(v) or is_prime(w), (name, v, w)
        assert w <= max(cap, v), (name, v, w)
    for a in public:
        for b in public:
            assert (public[a] < public[b]) == (hidden[a] < hidden[b]), (public, hidden)


@pytest.mark.parametrize("lab", [l for l in kit.labs() if l[:2].isdigit()])  # the kit's own labs
def test_hidden_datasets_vary_shapes_within_their_families(tmp_path, lab):
    manifest = kit.manifest(lab)
    moduli = manifest["hidden_shapes"]["moduli"]
    modulus = math.lcm(*moduli)
    public = {d["name"]: d["params"] for d in manifest["datasets"] if not d.get("on_demand")}
    cap = max(v for p in public.values() for k, v in p.items() if k in manifest["hidden_shapes"]["params"])
    shape = manifest["hidden_shapes"]["params"]
    most = max(math.prod(v for k, v in p.items() if k in shape) for p in public.values())
    moved = 0
    for seed in ("7", "20270301"):
        out = tmp_path / seed
        p = kit.gpulab("datasets", lab, "--out", out, "--seed", seed)
        assert p.returncode == 0, p.stderr
        for name, params in public.items():
            want = {k: v for k, v in params.items() if k in manifest["hidden_shapes"]["params"]}
            got = sizes(lab, out / name)
            same_family(want, got, modulus, cap)
            assert math.prod(got.values()) <= most, (name, got)
            if math.prod(want.values()) > most / 2:  # the largest only shrink
                assert all(got[k] <= want[k] for k in want), (name, want, got)
            moved += got != want
    # the shapes move, not only the values: most datasets have sizes that can
    assert moved >= len(public) // 2, moved


def test_the_same_seed_makes_the_same_hidden_datasets(tmp_path):
    lab = "03-arbitrary-matmul"
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        assert kit.gpulab("datasets", lab, "--out", out, "--seed", "4242").returncode == 0
    for d in kit.manifest(lab)["datasets"]:
        if d.get("on_demand"):
            continue
        for f in (a / d["name"]).iterdir():
            assert filecmp.cmp(f, b / d["name"] / f.name, shallow=False), f
