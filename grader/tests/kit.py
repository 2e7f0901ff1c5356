"""Helpers for the kit's tests: paths, running gpulab, backends.

Every test drives the real binaries that `make` builds; nothing here
re-implements the grader.
"""
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GPULAB = ROOT / "gpulab"
EMUCC = ROOT / "build" / "emu" / "emucc"

# grader/src/ is grouped by layer (docs/architecture.md): a file of it by its name
GRADER_LAYERS = ("pipeline", "checkers", "jail", "class", "commands", "common")


def grader_src(name):
    """grader/src's file called name, in whichever layer's folder it is."""
    found = [ROOT / "grader" / "src" / layer / name for layer in GRADER_LAYERS
             if (ROOT / "grader" / "src" / layer / name).exists()]
    assert len(found) == 1, f"grader/src has {len(found)} files called {name}"
    return found[0]


def grader_includes():
    """The -I flags that compile a grader file outside make (as the Makefile's GRADER_INC)."""
    flags = ["-I", ROOT / "grader" / "src"]
    for layer in GRADER_LAYERS:
        flags += ["-I", ROOT / "grader" / "src" / layer]
    return flags


def run(args, cwd=None, env=None, timeout=600, input=None):
    """Runs a command; returns the CompletedProcess (text mode)."""
    full_env = dict(os.environ)
    full_env["NO_COLOR"] = "1"
    if env:
        full_env.update(env)
    return subprocess.run([str(a) for a in args], cwd=cwd, env=full_env, capture_output=True,
                          text=True, timeout=timeout, input=input)


def compiler_cuda_dirs():
    """The folders of the compiler's own search path that hold a CUDA
    installation's headers (CUDA's cuda_runtime_api.h): /usr/local/include
    on this kit's machines, where CUDA's installer links them."""
    p = run(["g++", "-xc++", "-E", "-v", "/dev/null"])
    dirs = re.findall(r"^ (/\S+)$", p.stderr, re.M)
    return [d for d in dirs if (Path(d) / "cuda_runtime_api.h").exists()]


def without_cuda(args):
    """args run with the machine's CUDA out of sight, as on a machine without
    it: an empty folder mounted over /usr/local/cuda and over each folder of
    the compiler's search path that holds CUDA's headers, in a mount
    namespace of the command's own. None where that cannot be done."""
    hide = compiler_cuda_dirs() + [d for d in ("/usr/local/cuda",) if os.path.isdir(d)]
    if any(d in ("/usr/include", "/usr") for d in hide) or not shutil.which("unshare"):
        return None
    mounts = " && ".join(f"mount -t tmpfs none {d}" for d in hide)
    script = (mounts + " && " if mounts else "") + 'exec "$@"'
    probe = run(["unshare", "-m", "-r", "sh", "-c", script, "sh", "true"])
    if probe.returncode != 0:
        return None
    return ["unshare", "-m", "-r", "sh", "-c", script, "sh", *map(str, args)]


def gpulab(*args, **kw):
    return run([GPULAB, *args], **kw)


class Terminal:
    """A pseudo-terminal that a command gets as its controlling terminal
    and standard input, as an instructor's shell would give it: what
    reaches the screen (the master side) is kept, and so is any input left
    waiting in the terminal when the command ends, which the shell would
    run next."""

    def __init__(self):
        import pty
        import termios
        import threading
        self.master, self.slave = pty.openpty()
        self.screen = bytearray()
        self._termios = termios
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self):
        while True:
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return
            if not data:
                return
            self.screen += data

    def _make_controlling(self):
        import fcntl
        fcntl.ioctl(0, self._termios.TIOCSCTTY, 0)

    def run(self, args, env=None, timeout=600):
        """Runs args with the terminal as its controlling terminal and its
        standard input; standard output and error are captured as run()'s."""
        full_env = dict(os.environ)
        full_env["NO_COLOR"] = "1"
        if env:
            full_env.update(env)
        return subprocess.run([str(a) for a in args], env=full_env, stdin=self.slave, capture_output=True,
                              text=True, timeout=timeout, start_new_session=True,
                              preexec_fn=self._make_controlling)

    def pending_input(self):
        """The bytes waiting to be read from the terminal (what the shell
        would read as its next command line)."""
        import fcntl
        import struct
        n = struct.unpack("i", fcntl.ioctl(self.slave, self._termios.FIONREAD, b"\0\0\0\0"))[0]
        if n <= 0:
            return b""
        os.set_blocking(self.slave, False)
        try:
            return os.read(self.slave, n)
        except BlockingIOError:
            return b""

    def close(self):
        pending = self.pending_input()
        os.close(self.slave)
        self._thread.join(timeout=2)
        os.close(self.master)
        return pending


# Judged from the checkers' runs: without them (--no-sanitize) these are
# not_checked, their points still in max_score and not earned.
CHECKER_REQUIREMENTS = ("no_hazards", "global_reuse")

# check's exit status when everything that was checked passed but some
# requirements were not checked (--no-sanitize): never 0 short of full marks.
UNCHECKED_RC = 3


def manifest_points(m):
    """Full marks of the lab whose manifest is m: its public datasets' points
    and its requirements' (formats.md), with or without the checkers."""
    return (sum(d["points"] for d in m["datasets"] if not d.get("on_demand")) +
            sum(r["points"] for r in m.get("requirements", [])))


def unchecked_points(m):
    """The points of the lab whose manifest is m that only the checkers can
    judge: not checked, and so not earned, under --no-sanitize."""
    return sum(r["points"] for r in m.get("requirements", []) if r["name"] in CHECKER_REQUIREMENTS)


def hazard_share(m):
    """The share of a lab's points (its manifest m) that no_hazards is worth:
    what a checker's finding costs, whatever the datasets did."""
    hazards = sum(r["points"] for r in m.get("requirements", []) if r["name"] == "no_hazards")
    return hazards / manifest_points(m)


def max_score(lab):
    """A lab's full marks (manifest_points of its manifest): every report's
    max_score, checkers or not."""
    return manifest_points(manifest(lab))


def best_score(lab, checkers=True):
    """The score of a file that passes everything that was checked: full
    marks with the checkers; without them, full marks less the points they
    alone judge (not checked)."""
    m = manifest(lab)
    return manifest_points(m) - (0 if checkers else unchecked_points(m))


def checked_max(rep):
    """The points a report (record) checked: its max_score less the points of
    its not_checked requirements (all of max_score when the checkers ran)."""
    return rep["max_score"] - sum(r["max_score"] for r in rep.get("requirements", []) if r["status"] == "not_checked")


def check_json(lab, path, backend, *extra, expect_rc=None, sanitize=False, **kw):
    """`gpulab check --format json`: returns (exit status, report dict).
    The sanitizer stage (two more builds and their runs) is off unless a
    test asks for it with sanitize=True."""
    flags = [] if sanitize else ["--no-sanitize"]
    p = gpulab("check", lab, path, "--backend", backend, "--format", "json", *flags, *extra, **kw)
    assert p.stdout.strip(), f"no JSON report; stderr:\n{p.stderr}"
    report = json.loads(p.stdout)
    if expect_rc == 0 and not sanitize and report.get("not_checked"):
        # everything that ran passed; without the checkers their points
        # are not checked, and check says so with its own exit status
        expect_rc = UNCHECKED_RC
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


_sandbox_problem = []


def sandbox_problem():
    """None where grade's sandbox works for this user (as root, or as any
    user where the machine allows user namespaces); else why not, in grade's
    own words. Asked of grade itself, once: an ordinary user's grading is
    tested wherever it works, not only as root."""
    if not _sandbox_problem:
        problem = None
        if os.geteuid() != 0 and not emu_problem():
            import tempfile
            with tempfile.TemporaryDirectory() as tmp:
                p = gpulab("grade", "01-basic-matmul", solution("01-basic-matmul"), "--backend", "emu",
                           "--no-sanitize", "--dataset", "width-0001", "--records", f"{tmp}/records",
                           "--out", f"{tmp}/report.txt")
                if p.returncode == 3:
                    problem = "grade cannot isolate runs as this user: " + (p.stderr.strip().splitlines() or [""])[-1]
        _sandbox_problem.append(problem)
    return _sandbox_problem[0]


_race_problem = []


def emu_race_problem():
    """None when the emulator's race checker (emucc --race, its own detector
    on the compiler's -fsanitize=thread instrumentation) reports the known
    race of a tiled matmul missing its second barrier on this machine;
    otherwise why not (a compiler without that instrumentation, say). Until
    2026-11-24 it used ThreadSanitizer's runtime, which gcc 13 and clang 14
    ship in a form that missed this race."""
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
                r = run([prog], timeout=300)
                if "gpulab-emu: race" not in r.stderr:
                    cc = run(["gcc", "-dumpfullversion"]).stdout.strip()
                    problem = (f"the emulator's race checker (gcc {cc}) on this machine does not report its "
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
    """The statuses of the requirements the report judged: those it did not
    check (not_checked, without the checkers) are unchecked_requirements'."""
    assert "requirements" in report, "the report has no \"requirements\" list"
    return {r["name"]: r["status"] for r in report["requirements"] if r["status"] != "not_checked"}


def unchecked_requirements(report):
    """The names of the requirements the report did not check."""
    return {r["name"] for r in report["requirements"] if r["status"] == "not_checked"}


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


# ---- the maps' PNG files, read with the standard library only -------------------

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAP_FRAME = 4                 # errormap.h: the grey frame round every map
MAP_KEY = 4 + 10              # the key strip under an error map: a gap, then the strip
MAP_KEY_WIDTH = 122           # the strip's width: a map is never narrower inside its frame


def read_png(path):
    """(width, height, pixels) of an 8-bit RGB PNG without interlacing, the
    kind the kit writes: pixels is bytes, 3 a pixel, rows top down. Checks
    the signature, the chunks' CRCs and IHDR; fails on anything else."""
    import struct
    import zlib
    data = Path(path).read_bytes()
    assert data[:8] == PNG_SIGNATURE, data[:8]
    pos, idat, ihdr, ended = 8, b"", None, False
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])
        assert zlib.crc32(kind + body) == crc, kind
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            ended = True
        pos += 12 + n
    assert ihdr and ended, (ihdr, ended)
    w, h, depth, colour, compression, filt, interlace = ihdr
    assert (depth, colour, compression, filt, interlace) == (8, 2, 0, 0, 0), ihdr
    raw = zlib.decompress(idat)
    stride = w * 3
    assert len(raw) == h * (stride + 1), (len(raw), w, h)
    out = bytearray()
    prev = bytearray(stride)
    for y in range(h):
        ftype, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 3] if i >= 3 else 0
            b, c = prev[i], prev[i - 3] if i >= 3 else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            else:
                assert ftype == 0, ftype
        out += line
        prev = line
    return w, h, bytes(out)


def read_map(path, key=True):
    """(width, height, pixels) of the picture inside a map's frame (and above
    its key strip, for an error map), for a picture at least MAP_KEY_WIDTH
    wide; checks that the frame is there."""
    W, H, pix = read_png(path)
    F = MAP_FRAME
    w, h = W - 2 * F, H - 2 * F - (MAP_KEY if key else 0)
    frame = {tuple(pix[(y * W + x) * 3:(y * W + x) * 3 + 3]) for y in (0, H - 1) for x in range(W)}
    assert frame == {(150, 150, 150)}, frame
    rows = [pix[((F + y) * W + F) * 3:((F + y) * W + F + w) * 3] for y in range(h)]
    return w, h, b"".join(rows)


def lab_programs_under(folder):
    """The live lab programs (not the build's emucc) whose file lies under folder: their pids."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            exe = os.readlink(proc / "exe")
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if exe.startswith(str(folder)) and exe.endswith("/lab-program") and state != "Z":
            pids.append(int(proc.name))
    return pids
