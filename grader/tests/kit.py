"""Helpers for the kit's tests: paths, running gpulab, backends.

Every test drives the real binaries that `make` builds; nothing here
re-implements the grader.
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GPULAB = ROOT / "gpulab"
EMUCC = ROOT / "build" / "emu" / "emucc"


def run(args, cwd=None, env=None, timeout=600, input=None):
    """Runs a command; returns the CompletedProcess (text mode)."""
    full_env = dict(os.environ)
    full_env["NO_COLOR"] = "1"
    if env:
        full_env.update(env)
    return subprocess.run([str(a) for a in args], cwd=cwd, env=full_env, capture_output=True,
                          text=True, timeout=timeout, input=input)


def gpulab(*args, **kw):
    return run([GPULAB, *args], **kw)


def check_json(lab, path, backend, *extra, expect_rc=None, sanitize=False, **kw):
    """`gpulab check --format json`: returns (exit status, report dict).
    The sanitizer stage is slow on a GPU (three tools, two datasets), so it is
    off unless a test asks for it with sanitize=True."""
    flags = [] if sanitize else ["--no-sanitize"]
    p = gpulab("check", lab, path, "--backend", backend, "--format", "json", *flags, *extra, **kw)
    assert p.stdout.strip(), f"no JSON report; stderr:\n{p.stderr}"
    report = json.loads(p.stdout)
    if expect_rc is not None:
        assert p.returncode == expect_rc, f"exit {p.returncode}, wanted {expect_rc}\n{p.stderr}\n{p.stdout[:4000]}"
    return p.returncode, report


def statuses(report):
    return {d["name"]: d["status"] for d in report["datasets"]}


def gpu_problem():
    """None when a GPU is usable, else why not (shown as the skip reason)."""
    smi = shutil.which("nvidia-smi")
    if not smi:
        return "no NVIDIA driver here (nvidia-smi is not on PATH)"
    p = run([smi, "-L"], timeout=60)
    if p.returncode != 0 or "GPU" not in p.stdout:
        return "nvidia-smi finds no GPU: " + (p.stderr.strip() or p.stdout.strip())[:200]
    if not shutil.which("nvcc") and not Path("/usr/local/cuda/bin/nvcc").exists():
        return "nvcc is not installed"
    return None


def emu_problem():
    """None when the emulator is built; why not otherwise."""
    if not (ROOT / "grader" / "emu" / "emu.mk").exists():
        return "this checkout has no CPU emulator (grader/emu)"
    if not EMUCC.exists():
        return "the CPU emulator is not built (run make)"
    return None


def labs():
    return sorted(p.parent.name for p in (ROOT / "labs").glob("*/lab.json"))


def manifest(lab):
    return json.loads((ROOT / "labs" / lab / "lab.json").read_text())
