"""Every lab's sources: each skeleton is its solution with the TODO regions
emptied, the regions are numbered in order, and every skeleton, solution,
mutant and variant compiles with plain nvcc (which needs no GPU) without a
warning."""
import re

import pytest

import kit


@pytest.mark.parametrize("lab", kit.labs())
def test_skeleton_is_the_solution_without_region_bodies(lab):
    skel, sol = kit.skeleton(lab).read_text(), kit.solution(lab).read_text()
    numbers = [int(n) for n in re.findall(r"^\s*//@@ TODO (\d+):", skel, re.M)]
    assert numbers and numbers == list(range(1, len(numbers) + 1)), numbers
    assert kit.outside_todo_regions(skel) == kit.outside_todo_regions(sol)
    for block in re.findall(r"^\s*//@@ TODO.*?^\s*//@@ end", skel, re.S | re.M):
        code = [l for l in block.splitlines() if l.strip() and not l.strip().startswith("//")]
        assert not code, f"code inside a skeleton TODO region: {code}"


def cu_files():
    files = []
    for lab in kit.labs():
        files += [(lab, kit.skeleton(lab)), (lab, kit.solution(lab))]
        files += [(lab, p) for sub in ("mutants", "variants") for p in kit.lab_files(lab, sub)]
    return [pytest.param(lab, p, id=str(p.relative_to(kit.ROOT))) for lab, p in files]


@pytest.mark.skipif(kit.NVCC is None, reason="nvcc is not installed")
@pytest.mark.parametrize("lab, path", cu_files())
def test_compiles_with_plain_nvcc(tmp_path, lab, path):
    p = kit.run([kit.NVCC, "-c", "-I", kit.ROOT / "labs" / lab, "-I", kit.ROOT / "grader" / "runtime",
                 path, "-o", tmp_path / "x.o"], timeout=300)
    assert p.returncode == 0, p.stderr
    assert "warning" not in p.stderr.lower(), p.stderr
