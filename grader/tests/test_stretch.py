"""The stretch solutions (solutions/stretch/): kernels that go past the
lecture, a register-tiled matmul for lab 03 and a coarsened convolution for
lab 04 (walkthrough: docs/labs/stretch.md).

On each backend: each passes every public dataset of its lab with full
marks, requirements included; on the emulator also with the sanitizer stage
(race and bounds checkers), which must find nothing. Without a backend: both
compile with plain nvcc without a warning, and for sm_90 without spilling a
register to local memory (their speed depends on it).
"""
import re

import pytest

import kit

STRETCH = {
    "03-arbitrary-matmul": kit.ROOT / "solutions" / "stretch" / "03-arbitrary-matmul" / "register_tiled_matmul.cu",
    "04-conv-2batch": kit.ROOT / "solutions" / "stretch" / "04-conv-2batch" / "conv_coarsened.cu",
}


def requirement_names(lab):
    return {r["name"] for r in kit.manifest(lab)["requirements"]}


# ---- no backend needed -------------------------------------------------------


@pytest.mark.skipif(kit.NVCC is None, reason="nvcc is not installed")
@pytest.mark.parametrize("lab", STRETCH)
def test_compiles_for_sm90_without_warnings_or_spills(tmp_path, lab):
    p = kit.run([kit.NVCC, "-arch=sm_90", "-Xptxas", "-v", "-c", "-I", kit.ROOT / "labs" / lab,
                 "-I", kit.ROOT / "grader" / "runtime", STRETCH[lab], "-o", tmp_path / "x.o"], timeout=300)
    assert p.returncode == 0, p.stderr
    assert "warning" not in p.stderr.lower(), p.stderr
    frames = re.findall(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", p.stderr)
    assert frames, p.stderr
    assert all(f == ("0", "0", "0") for f in frames), p.stderr
    assert "used 1 barriers" in p.stderr and "bytes smem" in p.stderr, p.stderr


# ---- on each backend ------------------------------------------------------------


@pytest.mark.parametrize("lab", STRETCH)
def test_stretch_solution_passes_everything(backend, lab):
    # On the emulator the sanitizer stage is cheap enough to run too.
    checkers = backend == "emu"
    rc, rep = kit.check_json(lab, STRETCH[lab], backend, expect_rc=0, sanitize=checkers)
    assert kit.statuses(rep) == {name: "pass" for name in kit.public_datasets(lab)}
    # no_hazards is judged only when the checkers ran: else not checked,
    # its points in the maximum and not earned
    wanted = {name for name in requirement_names(lab) if checkers or name not in kit.CHECKER_REQUIREMENTS}
    assert kit.requirement_statuses(rep) == {name: "pass" for name in wanted}
    assert kit.unchecked_requirements(rep) == requirement_names(lab) - wanted
    assert rep["max_score"] == kit.max_score(lab) and rep["score"] == kit.best_score(lab, checkers)
    if backend == "emu":
        checked = [d for d in rep["datasets"] if d.get("sanitizer")]
        assert checked, "the sanitizer stage checked no dataset"
        for d in checked:
            assert d["sanitizer"]["findings"] == [], (d["name"], d["sanitizer"])
