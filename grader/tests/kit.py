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


def hazard_share(m):
    """The share of a lab's points (its manifest m) that no_hazards is worth:
    what a checker's finding costs, whatever the datasets did."""
    hazards = sum(r["points"] for r in m.get("requirements", []) if r["name"] == "no_hazards")
    total = sum(d["points"] for d in m["datasets"] if not d.get("on_demand"))
    return hazards / (total + sum(r["points"] for r in m.get("requirements", [])))


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


_race_problem = []


def emu_race_problem():
    """None when the emulator's race checker (emucc --race, GCC's
    ThreadSanitizer) reports the known race of a tiled matmul missing its
    second barrier on this machine; otherwise why not. Seen 2026-11-21: gcc 12
    (Debian, CI) reports it; gcc 13 (the GPU machine's Ubuntu) misses it."""
    if _race_problem:
        return _race_problem[0]
    import tempfile
    problem = emu_problem()
    if problem is None:
        with tempfile.TemporaryDirectory() as d:
            prog = Path(d) / "race"
            src = ROOT / "grader" / "tests" / "emu" / "matmul_tiled.cu"
            p = run([EMUCC, "--race", "-DNO_SYNC2", src, "-o", prog], timeout=300)
            if p.returncode != 0:
                problem = "the emulator's --race build fails here: " + p.stderr[-300:]
            else:
                r = run(["setarch", os.uname().machine, "-R", prog] if shutil.which("setarch") else [prog],
                        timeout=300)
                if "gpulab-emu: race" not in r.stderr:
                    cc = run(["gcc", "-dumpfullversion"]).stdout.strip()
                    problem = (f"ThreadSanitizer (gcc {cc}) on this machine does not report the emulator's "
                               "known race (matmul_tiled.cu -DNO_SYNC2)")
    _race_problem.append(problem)
    return problem


def labs():
    return sorted(p.parent.name for p in (ROOT / "labs").glob("*/lab.json"))


def manifest(lab):
    return json.loads((ROOT / "labs" / lab / "lab.json").read_text())


NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if Path("/usr/local/cuda/bin/nvcc").exists() else None)


def public_datasets(lab):
    return [d["name"] for d in manifest(lab)["datasets"] if not d.get("on_demand")]


def solution(lab):
    return ROOT / "solutions" / lab / manifest(lab)["source"]


def skeleton(lab):
    return ROOT / "skeletons" / lab / manifest(lab)["source"]


def lab_files(lab, sub):
    """The .cu files of solutions/<lab>/<sub>/ (sub: "mutants" or "variants")."""
    return sorted((ROOT / "solutions" / lab / sub).glob("*.cu"))


def requirement_statuses(report):
    assert "requirements" in report, "the report has no \"requirements\" list"
    return {r["name"]: r["status"] for r in report["requirements"]}


def outside_todo_regions(text):
    """The text after the first #include line, with each //@@ TODO region's
    body removed (its //@@ instruction lines stay): a skeleton and its
    solution must be equal under this."""
    body = text[text.index("#include"):].splitlines()[1:]
    out, inside = [], False
    for line in body:
        s = line.strip()
        if s.startswith("//@@ TODO"):
            assert not inside, "a //@@ TODO region opens inside another"
            inside = True
            out.append(line)
        elif s == "//@@ end":
            assert inside, "a //@@ end with no region open"
            inside = False
            out.append(line)
        elif not inside or s.startswith("//@@"):
            out.append(line)
    assert not inside, "a //@@ TODO region has no //@@ end"
    return "\n".join(out)
