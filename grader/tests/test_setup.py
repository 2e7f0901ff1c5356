"""The README's two commands on a fresh machine: grader/install-deps.sh.

A user who cannot install packages (not root, no password-less sudo) and has
no cJSON gets one line from `make` naming the command to run and the
CJSON_CFLAGS/CJSON_LIBS way out, never a page of compiler errors. The whole
install path (packages removed, as root) is exercised by a fresh clone on a
clean machine; see the closing notes and docs/instructor-guide.md.
"""
import os
import shutil
import stat
import subprocess
import tempfile
from pathlib import Path

import pytest

import kit

SCRIPT = kit.ROOT / "grader" / "install-deps.sh"


def _tool_dir(tmp: Path) -> Path:
    """A folder to put first on PATH: pkg-config that finds nothing and a sudo
    that always asks for a password, so the machine looks like one without
    cJSON where this user cannot install packages."""
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    for name, body in (("pkg-config", "exit 1"), ("sudo", "echo 'sudo: a password is required' >&2; exit 1")):
        p = bin_dir / name
        p.write_text(f"#!/bin/sh\n{body}\n")
        p.chmod(0o755)
    return bin_dir


def _as_user_without_rights(cmd, cwd, path):
    """Runs cmd as an unprivileged user: `nobody` when the tests run as root."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE") and k not in ("MFLAGS",)}
    env["PATH"] = path
    env["LC_ALL"] = "C"
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if not setpriv:
            pytest.skip("running as root and setpriv (util-linux) is missing: cannot drop to an unprivileged user")
        cmd = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--", *cmd]
        env["HOME"] = str(cwd)
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture
def bare_kit():
    """The two files make reads before it builds anything, in a folder every
    user can read (pytest's own temporary folders are private to root)."""
    top = Path(tempfile.mkdtemp(prefix="gpulab-setup-"))
    try:
        (top / "grader").mkdir()
        shutil.copy(kit.ROOT / "Makefile", top / "Makefile")
        shutil.copy(SCRIPT, top / "grader" / "install-deps.sh")
        for p in [top, *top.rglob("*")]:
            p.chmod(p.stat().st_mode | stat.S_IROTH | (stat.S_IXOTH if p.is_dir() else 0))
        yield top
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_make_without_cjson_or_rights_says_one_line(bare_kit):
    bin_dir = _tool_dir(bare_kit)
    p = _as_user_without_rights(["make", "kit"], bare_kit, f"{bin_dir}:{os.environ['PATH']}")
    out = (p.stdout + p.stderr).strip()
    assert p.returncode != 0, out
    assert len(out.splitlines()) == 1, f"more than one line:\n{out}"
    assert "cannot install packages: run '" in out, out
    assert "CJSON_CFLAGS=" in out and "CJSON_LIBS=" in out, out
    if shutil.which("apt-get"):
        assert "apt-get install -y libcjson-dev" in out, out
    # nothing was built: the user saw no compiler at all
    assert not (bare_kit / "build").exists()


def test_cjson_given_by_hand_is_not_looked_for(bare_kit):
    """make CJSON_CFLAGS=... CJSON_LIBS=... is the way out the message names:
    then make installs nothing and does not stop."""
    bin_dir = _tool_dir(bare_kit)
    p = _as_user_without_rights(["make", "-n", "deps", "CJSON_CFLAGS=-I/opt/cjson/include",
                                 "CJSON_LIBS=-L/opt/cjson/lib -lcjson", "PNG_CFLAGS=-I/opt/png/include",
                                 "PNG_LIBS=-L/opt/png/lib -lpng16"], bare_kit,
                                f"{bin_dir}:{os.environ['PATH']}")
    assert "cannot install packages" not in p.stdout + p.stderr
    assert "-lcjson" in p.stdout, p.stdout + p.stderr


def test_make_clean_needs_nothing(bare_kit):
    bin_dir = _tool_dir(bare_kit)
    p = _as_user_without_rights(["make", "clean"], bare_kit, f"{bin_dir}:{os.environ['PATH']}")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "cannot install" not in p.stdout + p.stderr


def test_build_deps_present_here_print_nothing():
    """On the machine running the tests the kit is built, so `build` has
    nothing to do and says nothing on standard output."""
    env = dict(os.environ)
    if subprocess.run(["pkg-config", "--exists", "libcjson"], capture_output=True).returncode != 0 \
            if shutil.which("pkg-config") else True:
        env["CJSON_LIBS"] = "-lcjson"  # this machine's kit was built with a cJSON given by hand
    if subprocess.run(["pkg-config", "--exists", "libpng"], capture_output=True).returncode != 0 \
            if shutil.which("pkg-config") else True:
        env["PNG_LIBS"] = "-lpng16"  # the same for libpng
    p = subprocess.run(["bash", str(SCRIPT), "build"], cwd=kit.ROOT, capture_output=True, text=True, timeout=60,
                       env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout == ""


def test_test_deps_name_a_python_with_pytest():
    p = subprocess.run(["bash", str(SCRIPT), "test"], cwd=kit.ROOT, capture_output=True, text=True, timeout=600,
                       env={**os.environ, "GPULAB_NO_INSTALL": "1"})
    assert p.returncode == 0, p.stderr
    py = p.stdout.strip()
    assert subprocess.run([py, "-c", "import pytest"], cwd=kit.ROOT).returncode == 0


def test_unknown_mode_is_refused():
    p = subprocess.run(["bash", str(SCRIPT), "everything"], capture_output=True, text=True)
    assert p.returncode == 2 and "usage" in p.stderr


def test_the_slow_marking_names_what_is_there():
    """conftest.py's lists of what `make check` leaves out name test files
    and tests that exist: a renamed or removed one would otherwise leave its
    slow tests in the edit loop (or a quick one out of it) without a word."""
    import re
    import conftest
    tests = kit.ROOT / "grader" / "tests"
    missing = [f for f in conftest.SLOW_FILES if not (tests / f).is_file()]
    assert not missing, f"SLOW_FILES names files that do not exist: {missing}"
    for f, names in conftest.QUICK_IN_SLOW.items():
        assert f in conftest.SLOW_FILES, f"QUICK_IN_SLOW names {f}, which is not in SLOW_FILES"
        text = (tests / f).read_text()
        gone = [n for n in names if not re.search(rf"^def {n}\(", text, re.M)]
        assert not gone, f"QUICK_IN_SLOW names tests that {f} does not have: {gone}"
