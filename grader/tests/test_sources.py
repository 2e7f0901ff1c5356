"""Every lab's skeleton and solution: same text outside the TODO regions, and
both compile with nvcc (which needs no GPU)."""
import re
import shutil
from pathlib import Path

import pytest

import kit

NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None)


def source_name(lab):
    return kit.manifest(lab)["source"]


def outside_todo_regions(text):
    """Everything after the first #include, with each TODO region's body removed
    (the region's //@@ comment lines stay: they are the instructions)."""
    body = text[text.index("#include"):]
    out, inside = [], False
    for line in body.splitlines():
        s = line.strip()
        if s.startswith("//@@ TODO"):
            inside = True
            out.append(line)
        elif s == "//@@ end":
            inside = False
            out.append(line)
        elif inside and s.startswith("//@@"):
            out.append(line)
        elif not inside:
            out.append(line)
    assert not inside, "a //@@ TODO region has no //@@ end"
    return "\n".join(out)


@pytest.mark.parametrize("lab", kit.labs())
def test_skeleton_matches_solution_outside_todo_regions(lab):
    skel = (kit.ROOT / "skeletons" / lab / source_name(lab)).read_text()
    sol = (kit.ROOT / "solutions" / lab / source_name(lab)).read_text()
    assert re.search(r"^\s*//@@ TODO \d+", skel, re.M), "the skeleton has no numbered TODO regions"
    assert outside_todo_regions(skel) == outside_todo_regions(sol)
    # and the skeleton's regions really are empty
    for block in re.findall(r"^\s*//@@ TODO.*?^\s*//@@ end", skel, re.S | re.M):
        code = [l for l in block.splitlines() if l.strip() and not l.strip().startswith("//")]
        assert not code, f"code inside a skeleton TODO region: {code}"


def cu_files():
    files = []
    for lab in kit.labs():
        files.append((lab, kit.ROOT / "skeletons" / lab / source_name(lab)))
        files.append((lab, kit.ROOT / "solutions" / lab / source_name(lab)))
    return files


@pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")
@pytest.mark.parametrize("lab, path", cu_files(), ids=lambda v: str(v).replace(str(kit.ROOT) + "/", ""))
def test_compiles_with_nvcc(tmp_path, lab, path):
    p = kit.run([NVCC, "-c", "-I", kit.ROOT / "labs" / lab, "-I", kit.ROOT / "grader" / "runtime",
                 path, "-o", tmp_path / "x.o"], timeout=300)
    assert p.returncode == 0, p.stderr
    if "skeletons" in str(path):
        assert "warning" not in p.stderr, "a skeleton must compile without warnings:\n" + p.stderr
