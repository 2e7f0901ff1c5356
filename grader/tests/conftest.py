"""pytest set-up: the `gpu` marker and a `backend` fixture.

Tests marked `gpu` need a usable NVIDIA GPU; without one they are skipped
with the reason shown (pytest -rs). Tests that take the `backend` fixture run
once per backend: `emu` always (the CPU emulator is part of the kit and must
work in CI), `gpu` under the `gpu` marker.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kit  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a usable NVIDIA GPU; skipped with a reason otherwise")


def pytest_collection_modifyitems(config, items):
    problem = kit.gpu_problem()
    if problem is None:
        return
    skip = pytest.mark.skip(reason=f"gpu test: {problem}")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(params=["emu", pytest.param("gpu", marks=pytest.mark.gpu)])
def backend(request):
    if request.param == "emu":
        problem = kit.emu_problem()
        if problem and (kit.ROOT / "grader" / "emu" / "emu.mk").exists():
            pytest.fail(problem)  # the kit has an emulator: it must be built and working
        if problem:
            pytest.skip(problem)
    return request.param
