"""The CPU emulator (grader/emu): one small .cu per feature and per error,
under grader/tests/emu/, built with build/emu/emucc and run; each also
compiles with `nvcc -c`, so the emulator is never the only compiler that
accepted it. See docs/emulator.md."""
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import kit

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "grader" / "tests" / "emu"
EMUCC = ROOT / "build" / "emu" / "emucc"
INCLUDE = ROOT / "grader" / "emu" / "include"
CU_FILES = sorted(p.name for p in SRC.glob("*.cu"))
NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
DIAG = re.compile(r"^gpulab-emu: (\S+) (\S+)(?: kernel (\S+))?(?: grid \((\d+),(\d+),(\d+)\))?"
                  r"(?: block \((\d+),(\d+),(\d+)\))?(?: thread \((\d+),(\d+),(\d+)\))?: (.*)$")


def run(args, **kw):
    kw.setdefault("timeout", 300)
    return subprocess.run([str(a) for a in args], capture_output=True, text=True, **kw)


@pytest.fixture(scope="session")
def emu():
    """Builds the emulator (make -f grader/emu/emu.mk emu) once per session."""
    p = run(["make", "-s", "-f", "grader/emu/emu.mk", "emu"], cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr
    assert EMUCC.exists()
    return EMUCC


def build(emu, tmp_path, name, *flags, out=None):
    out = tmp_path / (out or Path(name).stem)
    p = run([emu, *flags, SRC / name, "-o", out])
    assert p.returncode == 0, f"emucc failed:\n{p.stderr}"
    return out


def diags(stderr):
    """The gpulab-emu lines of stderr, parsed: (category, location, kernel, block, thread, message)."""
    found = []
    for line in stderr.splitlines():
        if line.startswith("gpulab-emu: "):
            m = DIAG.match(line)
            assert m, f"diagnostic line does not follow the documented format: {line}"
            g = m.groups()
            block = tuple(map(int, g[6:9])) if g[6] else None
            thread = tuple(map(int, g[9:12])) if g[9] else None
            found.append((g[0], g[1], g[2], block, thread, g[12]))
    return found


# ---- every conformance file is also CUDA ---------------------------------------------

@pytest.mark.parametrize("name", CU_FILES)
def test_nvcc_accepts(name, tmp_path):
    if not NVCC:
        pytest.skip("nvcc is not installed: cannot check that the file is valid CUDA")
    p = run([NVCC, "-c", SRC / name, "-o", tmp_path / "x.o"])
    assert p.returncode == 0, p.stderr


@pytest.mark.parametrize("name", CU_FILES)
def test_emucc_compiles(name, emu, tmp_path):
    p = run([emu, "-c", SRC / name, "-o", tmp_path / "x.o"])
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "x.o").stat().st_size > 0


# ---- the tiled matmul and the missing barriers -------------------------------------------

@pytest.mark.parametrize("width", [16, 32, 64, 128])
def test_tiled_matmul_correct(emu, tmp_path, width):
    prog = build(emu, tmp_path, "matmul_tiled.cu")
    p = run([prog, width])
    assert p.returncode == 0 and p.stdout.split() == ["launch:", "cudaSuccess", "OK"], p.stdout + p.stderr


@pytest.mark.parametrize("which", ["NO_SYNC1", "NO_SYNC2"])
def test_missing_barrier_wrong_in_default_mode(emu, tmp_path, which):
    prog = tmp_path / which
    p = run([emu, "-D", which, SRC / "matmul_tiled.cu", "-o", prog])
    assert p.returncode == 0, p.stderr
    for width in (32, 48, 64, 96, 256):
        r = run([prog, width])
        assert r.stdout.split()[-1] == "WRONG", f"{which} width {width}: {r.stdout}"


def source_line(name, text):
    lines = (SRC / name).read_text().splitlines()
    return [i + 1 for i, l in enumerate(lines) if text in l]


@pytest.mark.parametrize("which", ["NO_SYNC1", "NO_SYNC2"])
def test_race_mode_names_both_lines(emu, tmp_path, which):
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    prog = tmp_path / which
    p = run([emu, "--race", f"-D{which}", SRC / "matmul_tiled.cu", "-o", prog])
    assert p.returncode == 0, p.stderr
    r = run([prog, 32])
    races = [d for d in diags(r.stderr) if d[0] == "race"]
    assert races, r.stderr[-3000:]
    write_lines = set(source_line("matmul_tiled.cu", "ds_M[ty][tx] =") + source_line("matmul_tiled.cu", "ds_N[ty][tx] ="))
    read_line = source_line("matmul_tiled.cu", "Pvalue += ds_M[ty][k]")[0]
    named = set()
    for cat, loc, kernel, block, thread, msg in races:
        assert kernel.startswith("MatrixMulKernel")
        assert loc.endswith(".cu:%s" % loc.rsplit(":", 1)[1]) and "matmul_tiled.cu" in loc
        named.add(int(loc.rsplit(":", 1)[1]))
        m = re.search(r"matmul_tiled\.cu:(\d+)", msg)
        assert m, msg
        named.add(int(m.group(1)))
    assert read_line in named and named & write_lines, (named, races)


@pytest.fixture(scope="module")
def races_program(emu, tmp_path_factory):
    return build(emu, tmp_path_factory.mktemp("races"), "races.cu", "--race")


def test_race_between_blocks_names_the_other_block(races_program):
    """A halo-ring thread storing into the next block's output: the race is
    found from the blocks' numbers, whatever order they ran in, and the
    line says the other access was another block's."""
    r = run([races_program, "halo"])
    races = [d for d in diags(r.stderr) if d[0] == "race"]
    store = source_line("races.cu", "out[i] = (float)i;")[0]
    assert races, r.stderr
    for cat, loc, kernel, block, thread, msg in races:
        assert kernel == "HaloStore" and loc.endswith(f"races.cu:{store}")
        assert "global memory" in msg and "of another block" in msg, msg
        assert "nothing orders two blocks" in msg


def test_race_in_a_block_of_1024_threads(races_program):
    """ThreadSanitizer's runtime from LLVM 14 on (gcc 13, clang 14) keeps 256
    threads' clocks, and missed races in blocks of 256 fibers or more: the
    emulator's own detector finds this one in a 32 x 32 block."""
    r = run([races_program, "big"])
    races = [d for d in diags(r.stderr) if d[0] == "race"]
    store, load = source_line("races.cu", "s[threadIdx.y][threadIdx.x] = ")[0], source_line("races.cu", "s[threadIdx.y][(threadIdx.x + 1) % 32]")[0]
    assert races, r.stderr
    named = {int(races[0][1].rsplit(":", 1)[1]), int(re.search(r"races\.cu:(\d+)", races[0][5]).group(1))}
    assert named == {store, load}, races
    assert all("shared memory" in d[5] and "no __syncthreads()" in d[5] for d in races)


@pytest.mark.parametrize("case,call", [("copy", "memcpy(&out[i]"), ("fill", "memset(&out[i]")])
def test_a_race_made_with_a_library_copy_is_found(races_program, case, call):
    """The compiler's instrumentation sees loads and stores, not what memcpy
    or memset does: without the race build's own copies a kernel could
    store its output through them and hide a race between blocks."""
    r = run([races_program, case])
    races = [d for d in diags(r.stderr) if d[0] == "race"]
    line = source_line("races.cu", call)[0]
    assert races, r.stderr
    for cat, loc, kernel, block, thread, msg in races:
        assert kernel == "HaloCopy" and loc.endswith(f"races.cu:{line}"), races
        assert "global memory" in msg and "of another block" in msg, msg


@pytest.mark.skipif(not shutil.which("clang++"), reason="clang++ is not on this machine")
@pytest.mark.parametrize("mode", ["--race", "--check"])
def test_checked_builds_with_clang(emu, tmp_path, mode):
    """CXX=clang++: clang names -save-temps' files after the input, not the
    object as GCC does, and the scan for attributes that hide code from the
    checkers must find its preprocessed file all the same; the race build's
    copies are watched with clang's objects too."""
    env = dict(os.environ, CXX="clang++", CC="clang")
    # an object named otherwise than the source: clang names its files
    # after the source, GCC after the object
    obj, prog = tmp_path / "student.o", tmp_path / "races"
    p = run([emu, mode, "-c", SRC / "races.cu", "-o", obj], env=env)
    assert p.returncode == 0, p.stderr
    # -save-temps' files land beside the object: read, then removed
    left = sorted(f.name for f in tmp_path.iterdir() if f.suffix in (".ii", ".s", ".bc"))
    assert not left, left
    p = run([emu, mode, obj, "-o", prog], env=env)
    assert p.returncode == 0, p.stderr
    r = run([prog, "copy"])
    races = [d for d in diags(r.stderr) if d[0] == "race"]
    assert bool(races) == (mode == "--race"), r.stderr


@pytest.mark.parametrize("case", ["atomics", "bytes", "ordered", "copyown"])
def test_race_mode_quiet_where_nothing_races(races_program, case):
    """Atomics share an element; threads writing their own bytes of one word
    do not conflict; a barrier orders a block's threads; a thread copying its
    own element with memcpy races with no one."""
    r = run([races_program, case])
    assert r.stdout.strip() == "cudaSuccess", r.stdout + r.stderr
    assert not [d for d in diags(r.stderr) if d[0] == "race"], r.stderr


@pytest.mark.parametrize("mode", ["--race", "--check"])
@pytest.mark.parametrize("spelling", ["__attribute__((no_sanitize_thread))",
                                      "__attribute__((__no_sanitize__(\"address\")))",
                                      "__attribute__((CAT(no_sanitize,_thread)))"],
                         ids=["plain", "underscored", "pasted"])
def test_checked_builds_refuse_code_hidden_from_the_checkers(emu, tmp_path, mode, spelling):
    """An attribute that takes a kernel out of the sanitizer's
    instrumentation would hide its races (and its reach) from the checkers:
    a checking build refuses it, naming its line, however a macro spells it,
    even after a #line renames the file; the default build accepts it."""
    src = (SRC / "matmul_tiled.cu").read_text()
    marked = src.replace("__global__ void MatrixMulKernel", f"__global__ {spelling} void MatrixMulKernel")
    assert marked != src
    path = tmp_path / "hidden.cu"
    path.write_text('#line 1 "other.h"\n#define CAT(a, b) a##b\n' + marked)
    # the #define is line 1 of "other.h", so the file's own lines are one further on
    line = 1 + next(i for i, l in enumerate(marked.splitlines(), 1) if "void MatrixMulKernel" in l)
    p = run([emu, mode, "-DNO_SYNC2", path, "-o", tmp_path / "prog"])
    assert p.returncode != 0 and f"other.h:{line}: error: " in p.stderr, p.stderr
    assert "takes code out of the kit's checkers" in p.stderr, p.stderr
    assert run([emu, "-DNO_SYNC2", path, "-o", tmp_path / "plain"]).returncode == 0


def test_race_mode_quiet_on_correct_kernel(emu, tmp_path):
    prog = build(emu, tmp_path, "matmul_tiled.cu", "--race")
    r = run([prog, 32])
    assert r.stdout.split()[-1] == "OK"
    assert not [d for d in diags(r.stderr) if d[0] == "race"], r.stderr
    assert "ThreadSanitizer" not in r.stderr


# ---- launch configuration -------------------------------------------------------------------

def test_launch_configuration_errors(emu, tmp_path):
    prog = build(emu, tmp_path, "launch_config.cu")
    r = run([prog])
    got = {}
    for line in r.stdout.splitlines():
        what, rest = line.split(": ", 1)
        got[what] = rest.split()
    # CUDA 13 (checked on an H200 with this very file) answers every invalid
    # configuration with cudaErrorInvalidValue, not cudaErrorInvalidConfiguration.
    bad = "cudaErrorInvalidValue"
    assert got["ok"] == ["cudaSuccess", "peek=cudaSuccess", "after=cudaSuccess", "ran=1"]
    for what in ("threads1025", "threads33x32", "blockz65", "blockx0", "gridy0", "gridy65536"):
        assert got[what] == [bad, "peek=" + bad, "after=cudaSuccess", "ran=0"], (what, got[what])
    assert got["shmem49153"] == ["cudaErrorInvalidValue", "peek=cudaErrorInvalidValue", "after=cudaSuccess", "ran=0"]
    assert got["shmem49152"][0] == "cudaSuccess" and got["max1024"][-1] == "ran=1"
    d = [x for x in diags(r.stderr) if x[0] == "invalid-launch"]
    assert len(d) == 7 and all(x[1].endswith("launch_config.cu:%d" % source_line("launch_config.cu", "Touch<<<")[0]) for x in d)


# ---- memory -------------------------------------------------------------------------------------

def test_shared_memory_poison_static_and_dynamic(emu, tmp_path):
    prog = build(emu, tmp_path, "shared_memory.cu")
    out = run([prog]).stdout.splitlines()
    assert out[0] == "loaded=1 unloaded_is_nan=1 second_block_is_nan=1 bits=ffffffff"
    assert out[1] == "reverse: 63 0 127 64 cudaSuccess" or out[1].startswith("reverse: 63 0 127"), out
    assert out[2].split()[1] == out[2].split()[3]


def test_memcpy_misuse(emu, tmp_path):
    prog = build(emu, tmp_path, "memcpy_errors.cu")
    r = run([prog])
    got = dict(l.split(": ", 1) for l in r.stdout.splitlines() if ": " in l and not l.startswith("cudaSuccess"))
    inval = "cudaErrorInvalidValue"
    assert got["malloc"] == got["h2d ok"] == got["d2h ok"] == got["d2d ok"] == "cudaSuccess"
    for k in ("h2d swapped", "h2d host dst", "d2h swapped", "h2d too long", "memset host", "free host", "free twice"):
        assert got[k] == inval, k
    assert got["bad kind"] == "cudaErrorInvalidMemcpyDirection"
    assert got["free dev"] == got["free null"] == "cudaSuccess"
    assert got["last"] == inval and got["last again"] == "cudaSuccess"
    assert got["names"] == "cudaErrorInvalidValue|invalid argument|cudaErrorIllegalAddress|invalid configuration argument"
    assert got["values"] == "1 9 700 719 1 2"
    cats = [d[0] for d in diags(r.stderr)]
    assert cats.count("invalid-memcpy") == 5 and "invalid-free" in cats and "invalid-memset" in cats


def test_a_kernel_given_host_memory_fails_at_its_launch(emu, tmp_path):
    """A GPU faults on a kernel's access to malloc'd host memory; the emulator,
    which shares the host's address space, refuses the launch instead of
    reading it, names the argument at the launch's line, and the error is
    sticky. Device memory, a pointer inside it, page-locked memory and a NULL
    the kernel never follows are fine."""
    prog = build(emu, tmp_path, "host_pointer.cu")
    r = run([prog])
    ok, bad = "cudaSuccess cudaSuccess", "cudaErrorIllegalAddress cudaErrorIllegalAddress"
    assert r.stdout.splitlines() == ["device: " + ok, "inside: " + ok, "pinned: " + ok, "pinned[3]=6",
                                     "null: " + ok, "host: " + bad, "after: " + bad], r.stdout
    d = [x for x in diags(r.stderr) if x[0] == "host-pointer"]
    line = source_line("host_pointer.cu", "Scale<<<1, n>>>(d_out, host, n)")[0]
    assert len(d) == 1 and d[0][1].endswith("host_pointer.cu:%d" % line) and d[0][2] == "Scale", d
    assert d[0][5].startswith("argument 2 (`host`) of kernel Scale is host memory"), d[0][5]


def test_a_block_past_the_kernels_launch_bounds_is_refused(emu, tmp_path):
    """__launch_bounds__(MAX) on a kernel, before its name or its return
    type: a block of MAX threads or fewer runs; a larger one (1D or 2D) is
    refused with cudaErrorInvalidValue, not sticky, as CUDA 13 refuses it
    on an H200 (this very file, 2026-11-30: the same five lines), at the
    launch's line with both numbers."""
    prog = build(emu, tmp_path, "launch_bounds.cu")
    r = run([prog])
    bad = "cudaErrorInvalidValue cudaSuccess last=0"
    assert r.stdout.splitlines() == ["at the bound: cudaSuccess cudaSuccess last=1", "past the bound: " + bad,
                                     "past it in 2D: " + bad, "small at its bound: cudaSuccess cudaSuccess last=2",
                                     "small past it: " + bad], r.stdout
    d = [x for x in diags(r.stderr) if x[0] == "invalid-launch"]
    assert [x[2] for x in d] == ["Fill", "Fill", "FillSmall"], d
    assert d[0][1].endswith("launch_bounds.cu:%d" % source_line("launch_bounds.cu", "Fill<<<1, 2 * MAX_THREADS>>>")[0])
    assert d[1][5] == "a block of 256 threads, more than the kernel's __launch_bounds__ (128) allows " \
                      "(cudaErrorInvalidValue)", d[1][5]
    assert "a block of 65 threads, more than the kernel's __launch_bounds__ (64)" in d[2][5]


def test_a_kernel_parameter_by_reference_fails_at_its_launch(emu, tmp_path):
    """A reference parameter (`const Shape &s`) hands the kernel the host
    object's address: the launch fails as for a host pointer, sticky, the
    argument named and the `&` blamed; the same struct by value runs."""
    prog = build(emu, tmp_path, "reference_param.cu")
    r = run([prog])
    assert r.stdout.splitlines() == ["by value: cudaSuccess cudaSuccess area=42",
                                     "by reference: cudaErrorIllegalAddress cudaErrorIllegalAddress area=-1"], r.stdout
    d = [x for x in diags(r.stderr) if x[0] == "host-pointer"]
    assert len(d) == 1 and d[0][2] == "AreaByReference", d
    assert d[0][5].startswith("argument 2 (`shape`) of kernel AreaByReference is bound to a reference parameter "
                              "(`&`)"), d[0][5]


def test_a_candidate_edit_faults_on_a_read_far_past_an_array(emu, tmp_path):
    """The repair search's candidate runs (GPULAB_EMU_MUTANT > 0) give every
    allocation guards of 256 MiB: a read 12 KiB past a 16 KiB array
    faults, so an edit that comes out right only by reading past an array
    is not taken for a repair. Such a run is judged by its output alone:
    its messages name no line (each would be an addr2line process, and a
    third of the candidates fault; without a candidate, a fault names its
    line: test_out_of_bounds_global_default_mode)."""
    prog = build(emu, tmp_path, "overread.cu")
    r = run([prog], env={**os.environ, "GPULAB_EMU_MUTANT": "1"})
    assert r.stdout.splitlines() == ["far: cudaErrorIllegalAddress"], r.stdout + r.stderr
    d = [x for x in diags(r.stderr) if x[0] == "out-of-bounds"]
    assert d and d[0][1] == "-" and d[0][2] == "Far", d


def test_malloc_pitch_and_memcpy2d(emu, tmp_path):
    prog = build(emu, tmp_path, "pitch.cu")
    out = run([prog]).stdout.splitlines()
    assert out == ["use_pitch=1 pitch=512 copy=cudaSuccess,cudaSuccess OK",
                   "use_pitch=0 pitch=512 copy=cudaSuccess,cudaSuccess WRONG",
                   "pitch600=1024", "width>pitch: cudaErrorInvalidPitchValue"]


def test_constant_memory_and_log(emu, tmp_path):
    prog = build(emu, tmp_path, "constant.cu")
    log = tmp_path / "emu.log"
    r = run([prog], env={**os.environ, "GPULAB_EMU_LOG": str(log)})
    assert r.stdout.splitlines() == ["to symbol: cudaSuccess", "too big: cudaErrorInvalidValue",
                                     "corner=4 edge=5 inside=6", "from symbol: cudaSuccess 2"]
    events = [json.loads(l) for l in log.read_text().splitlines()]
    assert events[0] == {"event": "memcpy_to_symbol", "symbol": "Mc", "bytes": 36}
    assert events[1]["event"] == "launch" and events[1]["kernel"] == "Conv"
    assert events[1]["grid"] == [1, 1, 1] and events[1]["block"] == [8, 8, 1]
    assert events[1]["status"] == "cudaSuccess" and events[1]["barriers"] == 0


def test_constant_memory_read_before_anything_stored_it(emu, tmp_path):
    """A __constant__ array is known to the race build from its declaration:
    a kernel's read of bytes no cudaMemcpyToSymbol stored is an `unset`
    line naming the array, its declaration and the launch (a copy after the
    launch, a copy of one row of three, no copy at all), and the copy that
    came after the launch is an `unset-late` line naming both; an array
    initialised where it is declared, and one read after its copy, are
    quiet. The default build says nothing."""
    src = SRC / "constant_unset.cu"
    lines = src.read_text().splitlines()
    at = lambda text: next(i for i, l in enumerate(lines, 1) if text in l)
    prog = build(emu, tmp_path, "constant_unset.cu", "--race")
    r = run([prog])
    assert r.stdout.strip() == "late=2", r.stdout + r.stderr
    found = diags(r.stderr)
    unset = [d for d in found if d[0] == "unset"]
    assert [(d[2], int(d[1].rsplit(":", 1)[1])) for d in unset] == [
        ("ReadLate", at("__global__ void ReadLate")), ("ReadPart", at("__global__ void ReadPart")),
        ("ReadNever", at("__global__ void ReadNever"))], found
    late_launch, late_copy = at("ReadLate<<<"), at("cudaMemcpyToSymbol(Late")
    assert f"__constant__ array Late (declared at " in unset[0][5] and f":{at('float Late[')})" in unset[0][5]
    assert "that nothing stored: no cudaMemcpyToSymbol stored any of its bytes before the launch at " in unset[0][5]
    assert unset[0][5].endswith(f"constant_unset.cu:{late_launch}"), unset[0]
    assert "at byte 12 of the 36-byte __constant__ array Part" in unset[1][5], unset[1]
    assert "stored 12 of its 36 bytes, not these" in unset[1][5], unset[1]
    assert "12-byte __constant__ array Never" in unset[2][5], unset[2]
    (late,) = [d for d in found if d[0] == "unset-late"]
    assert late[1].endswith(f"constant_unset.cu:{late_copy}"), late
    assert late[5].startswith("cudaMemcpyToSymbol stores Late (declared at ") and \
        f"after the launch at " in late[5] and f":{late_launch} read it at " in late[5], late
    assert not [d for d in found if d[0] not in ("unset", "unset-late")], found
    plain = run([build(emu, tmp_path, "constant_unset.cu", out="plain")])
    assert plain.stdout.strip() == "late=2" and "gpulab-emu" not in plain.stderr, plain.stderr


def test_a_subscript_past_its_own_dimension_is_named(emu, tmp_path):
    """tile[ty][tx] of a [4][4] shared tile with tx up to 7 stays inside the
    tile (the next row's slots): the race build checks each subscript of a
    multi-dimensional shared or local array against its own dimension and
    names the array, the subscript as written, the values it took and the
    declaration's line, before the race the overlap causes; a tile
    indexed within its dimensions is quiet, and the default build says
    nothing."""
    src = SRC / "subscripts.cu"
    lines = src.read_text().splitlines()
    at = lambda text: next(i for i, l in enumerate(lines, 1) if text in l)
    prog = build(emu, tmp_path, "subscripts.cu", "--race")
    r = run([prog])
    assert r.stdout.strip() == "done", r.stdout + r.stderr
    found = diags(r.stderr)
    subs = [d for d in found if d[0] == "subscript"]
    assert [(d[2], int(d[1].rsplit(":", 1)[1])) for d in subs] == [
        ("TooNarrow", at("tile[ty][tx] = (float)tx;")), ("LocalPastRow", at("out[threadIdx.x] = m[0][k];"))], found
    assert subs[0][5] == (f"subscript 2 of 2 of tile, `tx`, takes the values 4 to 7, outside its dimension of 4 "
                          f"(0 to 3; tile declared at line {at('__shared__ float tile[TILE][TILE];')})"), subs[0]
    assert subs[1][5] == (f"subscript 2 of 2 of m, `k`, takes the value 3, outside its dimension of 3 "
                          f"(0 to 2; m declared at line {at('float m[2][3], n[3][2];')})"), subs[1]
    order = [d[0] for d in found if d[2] == "TooNarrow"]
    assert order[0] == "subscript" and "race" in order, found
    assert not [d for d in found if d[2] == "Fits"], found
    plain = run([build(emu, tmp_path, "subscripts.cu", out="plain")])
    assert plain.stdout.strip() == "done" and "gpulab-emu" not in plain.stderr, plain.stderr


def test_log_counts_shared_and_barriers(emu, tmp_path):
    prog = build(emu, tmp_path, "matmul_tiled.cu")
    log = tmp_path / "emu.log"
    run([prog, 64], env={**os.environ, "GPULAB_EMU_LOG": str(log)})
    (ev,) = [json.loads(l) for l in log.read_text().splitlines()]
    # where: the launch's file and line (the line its <<< is on, whatever
    # lines its configuration spans)
    launch = next(i for i, l in enumerate((SRC / "matmul_tiled.cu").read_text().splitlines(), 1) if "<<<" in l)
    file, line = ev.pop("where").rsplit(":", 1)
    assert Path(file).name == "matmul_tiled.cu" and int(line) == launch, (file, line, launch)
    assert ev == {"event": "launch", "kernel": "MatrixMulKernel<TILE_WIDTH>", "grid": [4, 4, 1], "block": [16, 16, 1],
                  "shared_static_bytes": 2048, "shared_dynamic_bytes": 0, "barriers": 8, "status": "cudaSuccess"}


@pytest.mark.parametrize("mode", [[], ["--race"]], ids=["default", "race"])
def test_out_of_bounds_global_default_mode(emu, tmp_path, mode):
    prog = build(emu, tmp_path, "oob_global.cu", *mode)
    r = run([prog])
    assert r.stdout.strip() == "sync=cudaErrorIllegalAddress last=cudaErrorIllegalAddress memcpy=cudaErrorIllegalAddress"
    (d,) = diags(r.stderr)
    assert d[0] == "out-of-bounds" and d[1].endswith("oob_global.cu:9") and d[2] == "ReadPast"
    assert d[3] is not None and d[4] is not None and "past the end" in d[5]


def test_out_of_bounds_shared_default_mode(emu, tmp_path):
    prog = build(emu, tmp_path, "oob_shared.cu")
    r = run([prog])
    assert r.stdout.strip() == "sync=cudaErrorIllegalAddress", r.stdout + r.stderr
    (d,) = diags(r.stderr)
    assert d[0] == "out-of-bounds" and d[1].endswith("oob_shared.cu:9") and d[2] == "Stencil"
    assert d[4] == (63, 0, 0) and "shared memory" in d[5]


@pytest.mark.parametrize("name,line,kind", [("oob_global.cu", 9, "global memory"), ("oob_shared.cu", 9, "shared memory")])
def test_out_of_bounds_check_mode(emu, tmp_path, name, line, kind):
    prog = build(emu, tmp_path, name, "--check")
    r = run([prog])
    assert "cudaErrorIllegalAddress" in r.stdout, r.stdout + r.stderr[-3000:]
    ds = [d for d in diags(r.stderr) if d[0] == "out-of-bounds"]
    assert len(ds) == 1, r.stderr[-3000:]
    assert ds[0][1].endswith(f"{name}:{line}") and kind in ds[0][5], ds


BOUNDS_CASES = {  # bounds.cu's cases: (kernel, line, words); atomicAdd's at the student's call, not its body
    "before": ("ReadBefore", 20, "4 bytes before the start of a 1024-byte array in global memory"),
    "freed": ("ReadBefore", 20, "freed"),
    "atomic": ("AddPast", 26, "0 bytes past the end of a 1024-byte array in global memory"),
    "shared": ("SharedBefore", 33, "4 bytes before the start of a 256-byte array in shared memory"),
    "dynamic": ("DynamicNone", 41, "past the end of a 0-byte array in shared memory"),
    "copy": ("CopyPast", 49, "0 bytes past the end of a 1024-byte array in global memory"),
    "constant": ("ReadMask", 65, "0 bytes past the end of a 100-byte array in"),
}


@pytest.fixture(scope="module", params=["--race", "--check"])
def bounds_program(request, emu, tmp_path_factory):
    return build(emu, tmp_path_factory.mktemp("bounds"), "bounds.cu", request.param)


@pytest.mark.parametrize("case", sorted(BOUNDS_CASES))
def test_bounds_checked_in_both_checking_builds(bounds_program, case):
    """The race build checks bounds as AddressSanitizer's build does, so
    that the grader needs one checking build: before an allocation or a
    shared array as well as past it, freed device memory, atomics, block
    copies and an unrequested dynamic shared array, each named with its
    kernel, line and array."""
    kernel, line, words = BOUNDS_CASES[case]
    r = run([bounds_program, case])
    assert r.stdout.strip() == "sync=cudaErrorIllegalAddress", r.stdout + r.stderr[-3000:]
    (d,) = [d for d in diags(r.stderr) if d[0] == "out-of-bounds"]
    assert d[2] == kernel and words in d[5], d
    assert d[1].endswith(f"bounds.cu:{line}"), d
    if case == "freed":
        assert "cudaFree" in d[5], d
    if case == "constant":  # the race build knows it for constant memory, AddressSanitizer for a global
        assert "memory (Mask)" in d[5], d


@pytest.mark.parametrize("mode", ["--race", "--check"])
def test_block_copy_named_at_its_line_under_fortify(emu, tmp_path, mode):
    """A compiler that fortifies by default (Ubuntu's gcc, on the GPU
    machine: _FORTIFY_SOURCE) wraps memcpy in an inline function of glibc's
    headers; the checking builds leave the wrapper out, so that an invalid
    copy is named at the student's line, not at string_fortified.h."""
    cxx = os.environ.get("CXX", "g++")
    wrapper = tmp_path / "fortifying-g++"
    wrapper.write_text(f'#!/bin/sh\nexec {cxx} -D_FORTIFY_SOURCE=3 "$@"\n')
    wrapper.chmod(0o755)
    prog = tmp_path / "bounds"
    p = run([emu, mode, SRC / "bounds.cu", "-o", prog], env=dict(os.environ, CXX=str(wrapper)))
    assert p.returncode == 0, p.stderr
    r = run([prog, "copy"])
    (d,) = [d for d in diags(r.stderr) if d[0] == "out-of-bounds"]
    assert d[1].endswith(f"bounds.cu:{BOUNDS_CASES['copy'][1]}"), d


def test_bounds_quiet_where_every_access_is_in_bounds(bounds_program):
    r = run([bounds_program, "none"])
    assert r.stdout.strip() == "sync=cudaSuccess" and not diags(r.stderr), r.stdout + r.stderr[-3000:]


@pytest.mark.parametrize("mode", ["--race", "--check"])
def test_list_faults_names_every_faulting_thread(emu, tmp_path, mode):
    """--list-faults: the launch runs past its invalid accesses and every
    thread that made one is listed once, after the launch's line."""
    obj = tmp_path / "bounds.o"
    assert run([emu, mode, "-c", SRC / "bounds.cu", "-o", obj]).returncode == 0
    prog = tmp_path / "bounds"
    p = run([emu, mode, "--list-faults", obj, "-o", prog])
    assert p.returncode == 0, p.stderr
    log = tmp_path / "emu.log"
    r = run([prog, "list"], env={**os.environ, "GPULAB_EMU_LOG": str(log)})
    assert r.stdout.strip() == "sync=cudaErrorIllegalAddress", r.stdout + r.stderr[-3000:]
    events = [json.loads(l) for l in log.read_text().splitlines()]
    faults = [e for e in events if e["event"].startswith("fault")]
    assert faults[0]["event"] == "fault_launch" and faults[0]["kernel"] == "StorePast", faults[0]
    assert faults[0]["grid"] == [5, 1, 1] and faults[0]["block"] == [64, 1, 1]
    threads = sorted(tuple(e["thread"]) for e in faults[1:])
    assert all(e["event"] == "fault" and e["block"] == [4, 0, 0] for e in faults[1:]), faults
    assert threads == [(t, 0, 0) for t in range(64)]
    assert all(e["where"].endswith("bounds.cu:55") for e in faults[1:])
    # stderr says it once, as without the option
    assert len([d for d in diags(r.stderr) if d[0] == "out-of-bounds"]) == 1


def test_list_faults_needs_a_checking_build(emu, tmp_path):
    obj = tmp_path / "bounds.o"
    assert run([emu, "-c", SRC / "bounds.cu", "-o", obj]).returncode == 0
    p = run([emu, "--list-faults", obj, "-o", tmp_path / "prog"])
    assert p.returncode != 0 and "--list-faults goes with --race or --check" in p.stderr, p.stderr


def test_barrier_divergence(emu, tmp_path):
    prog = build(emu, tmp_path, "divergence.cu")
    r = run([prog, 0])
    assert r.stdout.strip() == "last=cudaErrorLaunchFailure sync=cudaErrorLaunchFailure"
    (d,) = diags(r.stderr)
    assert d[0] == "barrier-divergence" and d[1].endswith("divergence.cu:12") and "divergence.cu:14" in d[5]
    r = run([prog, 1])
    assert r.stdout.strip() == "last=cudaErrorLaunchFailure sync=cudaErrorLaunchFailure"
    (d,) = diags(r.stderr)
    assert d[0] == "barrier-divergence" and d[1].endswith("divergence.cu:18") and "returned" in d[5]
    r = run([prog, 2])
    assert r.stdout.strip() == "last=cudaSuccess sync=cudaSuccess" and not diags(r.stderr)


@pytest.mark.parametrize("mode", [[], ["--race"], ["--check"]], ids=["default", "race", "check"])
def test_stack_overflow_reported_and_survived(emu, tmp_path, mode):
    prog = build(emu, tmp_path, "stack_overflow.cu", *mode)
    r = run([prog])
    assert r.returncode == 0 and r.stdout.strip() == "sync=cudaErrorIllegalAddress", r.stdout + r.stderr
    (d,) = diags(r.stderr)
    assert d[0] == "stack-overflow" and d[2] == "Recurse" and d[3] == (0, 0, 0)


def test_atomics_printf_math(emu, tmp_path):
    prog = build(emu, tmp_path, "atomics_math.cu")
    for threads in ("1", "2", "4"):
        r = run([prog], env={**os.environ, "GPULAB_EMU_THREADS": threads})
        assert r.stdout.splitlines() == ["hello from block 3 thread 5 of 256", "count=16384 fsum=8192 usum=32768",
                                         "math: 2 3 4 1 2.5 3 3.5 7 1 0.5"]


def test_device_api_big_blocks(emu, tmp_path):
    prog = build(emu, tmp_path, "device_api.cu")
    assert run([prog]).stdout.splitlines() == [
        "count=1 maxThreads=1024 shared=49152 warp=32 dims=1024,1024,64",
        "setdevice0=cudaSuccess setdevice1=cudaErrorInvalidDevice",
        "reduce=OK elapsed=cudaSuccess nonneg=1", "index3=OK"]


def test_c_harness_links_with_cu_object(emu, tmp_path):
    gcc = os.environ.get("CC", "gcc")
    p = run([gcc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-I", INCLUDE, "-c", SRC / "c_harness.c",
             "-o", tmp_path / "h.o"])
    assert p.returncode == 0, p.stderr
    p = run([emu, "-c", SRC / "lab_style.cu", "-o", tmp_path / "s.o", "-I", INCLUDE])
    assert p.returncode == 0, p.stderr
    p = run([emu, tmp_path / "h.o", tmp_path / "s.o", "-o", tmp_path / "prog"])
    assert p.returncode == 0, p.stderr
    r = run([tmp_path / "prog"])
    assert r.returncode == 0 and r.stdout.strip() == "c harness: OK devices=1 last=cudaSuccess"


def test_device_memory_limit_and_visible_devices(emu, tmp_path):
    prog = build(emu, tmp_path, "device_limits.cu")
    r = run([prog])
    assert r.returncode == 0, r.stderr
    assert "count: cudaSuccess 1" in r.stdout
    assert "huge: cudaErrorMemoryAllocation" in r.stdout  # at once, not after touching 16 TiB
    assert "small: cudaSuccess" in r.stdout and "free: cudaSuccess" in r.stdout
    r = run([prog], env=dict(os.environ, CUDA_VISIBLE_DEVICES=""))
    assert "count: cudaErrorNoDevice 0" in r.stdout
    assert "huge: cudaErrorNoDevice" in r.stdout and "small: cudaErrorNoDevice" in r.stdout


def test_standard_library_headers_beside_noinline(emu, tmp_path):
    """<memory>, <sstream> and <string> compile beside a __noinline__ device
    function (libstdc++ spells its own attribute __noinline__ too)."""
    prog = build(emu, tmp_path, "std_headers.cu")
    assert run([prog]).stdout.splitlines() == ["sum=300"]


# ---- programs as students write them for nvcc: CUDA's headers, the built-ins' names ----------

CUDA_HEADERS_OUT = "cudaSuccess: 777 right, 0 wrong, 1152 threads, CUDA_VERSION 1"


@pytest.mark.parametrize("mode", [[], ["--race"], ["--check"]], ids=["default", "race", "check"])
def test_cuda_headers_and_builtin_names_with_cuda_installed(emu, tmp_path, mode):
    """cuda_headers.cu: CUDA's headers (device_functions.h, math_functions.h,
    ... and cuda.h), __CUDACC__ defined by the program, a dim3 blockDim and
    an int threadIdx in main, main() without return: built as nvcc builds
    it, on a machine whose compiler sees CUDA's own headers (here), none of
    which may reach the build (vector_types.h's struct int2 clashed)."""
    prog = build(emu, tmp_path, "cuda_headers.cu", *mode)
    r = run([prog])
    assert r.returncode == 0 and r.stdout.strip() == CUDA_HEADERS_OUT, r.stdout + r.stderr


def test_cuda_headers_without_cuda_installed(emu, tmp_path):
    """The same program where the machine has no CUDA (a laptop, Gradescope):
    every header it includes is the emulator's."""
    args = kit.without_cuda([emu, SRC / "cuda_headers.cu", "-o", tmp_path / "prog"])
    if args is None:
        pytest.skip("cannot hide this machine's CUDA from the compiler (no mount namespace, or CUDA in /usr/include)")
    p = run(args)
    assert p.returncode == 0, p.stderr
    check = kit.without_cuda(["sh", "-c", "ls /usr/local/cuda /usr/local/include | grep -c cuda_runtime_api || true"])
    assert run(check).stdout.strip() == "0"  # really out of sight
    r = run([tmp_path / "prog"])
    assert r.stdout.strip() == CUDA_HEADERS_OUT, r.stdout + r.stderr


def fake_cuda_install(folder):
    """A CUDA installation's include folder as the compiler would find it:
    CUDA's cuda_runtime_api.h beside a header the emulator does not have,
    each with NVIDIA's notice at its top."""
    folder.mkdir(parents=True)
    notice = "/*\n * Copyright 1993-2025 NVIDIA Corporation.  All rights reserved.\n */\n"
    (folder / "cuda_runtime_api.h").write_text(notice + "#pragma once\n")
    (folder / "cuda_fp16.h").write_text(notice + "#pragma once\nstruct __half { unsigned short x; };\n")
    return folder


def test_a_header_of_the_machines_cuda_is_refused(emu, tmp_path):
    """A CUDA header the emulator does not provide is never taken from the
    machine's CUDA installation: the build fails with one line that says
    which header and why. A header of the student's own that carries
    NVIDIA's notice (a copied sample helper) is theirs and builds."""
    install = fake_cuda_install(tmp_path / "cuda" / "include")
    src = tmp_path / "half.cu"
    src.write_text("#include <cuda_fp16.h>\n#include \"helper.h\"\nint main() { __half h{}; return h.x + helper(); }\n")
    (tmp_path / "helper.h").write_text("/* Copyright NVIDIA Corporation */\nstatic int helper() { return 0; }\n")
    p = run([emu, "-isystem", install, src, "-o", tmp_path / "half"])
    assert p.returncode != 0
    assert (f"half.cu: error: cuda_fp16.h is a header of the machine's CUDA installation ({install}/cuda_fp16.h): "
            "the emulator builds with its own CUDA headers") in p.stderr, p.stderr
    (install / "cuda_runtime_api.h").unlink()  # no longer a CUDA installation: an ordinary header
    p = run([emu, "-isystem", install, src, "-o", tmp_path / "half"])
    assert p.returncode == 0, p.stderr


@pytest.mark.skipif(not kit.compiler_cuda_dirs(), reason="the compiler sees no CUDA headers on this machine")
def test_the_real_cuda_fp16_header_is_refused(emu, tmp_path):
    src = tmp_path / "half.cu"
    src.write_text("#include <cuda_fp16.h>\nint main() { return 0; }\n")
    p = run([emu, src, "-o", tmp_path / "half"])
    assert p.returncode != 0
    assert "half.cu: error: cuda_fp16.h is a header of the machine's CUDA installation" in p.stderr, p.stderr


def test_calls_removed_in_cuda_13_do_not_build(emu, tmp_path):
    """cudaThreadSynchronize and the other cudaThread* calls: nvcc 13 has
    none of them, and neither has the emulator (the grader's report names
    the replacement: test_wb.py)."""
    src = tmp_path / "old.cu"
    for call in ("cudaThreadSynchronize()", "cudaThreadExit()"):
        src.write_text(f"#include <cuda_runtime.h>\nint main() {{ return (int){call}; }}\n")
        p = run([emu, src, "-o", tmp_path / "old"])
        assert p.returncode != 0 and call[:-2] in p.stderr, p.stderr
        if NVCC:
            q = run([NVCC, "-c", src, "-o", tmp_path / "old.o"])
            assert q.returncode != 0 and f'identifier "{call[:-2]}" is undefined' in q.stderr, q.stderr


@pytest.mark.parametrize("mode", [[], ["--race"], ["--check"]])
def test_a_programs_names_like_the_runtimes_own_still_link(emu, tmp_path, mode):
    """The runtime's parts share names (rt, tls, hooks, diag, set_error,
    race_where, ...) that the one-unit runtime kept static: each library
    makes them local again (emu.mk, objcopy --localize-hidden), so a
    student's global or extern "C" function of the same name links and
    runs, in every build."""
    src = tmp_path / "names.cu"
    src.write_text(
        "#include <cstdio>\n"
        "int rt = 7, hooks = 1;\nfloat tls[4];\n"
        'extern "C" int diag(int x) { return x + 1; }\n'
        'extern "C" void set_error(void) { tls[0] = 1; }\n'
        'extern "C" int race_where(void) { return 2; }\n'
        "__global__ void add_one(int *d) { d[threadIdx.x] += 1; }\n"
        "int main() {\n"
        "    int h[4] = { 1, 2, 3, 4 }, *d;\n"
        "    cudaMalloc(&d, sizeof h);\n"
        "    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);\n"
        "    add_one<<<1, 4>>>(d);\n"
        "    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n"
        "    set_error();\n"
        '    printf("%d %d %d %d %d %g\\n", h[0], h[3], diag(rt), hooks + race_where(), '
        "(int)cudaGetLastError(), tls[0]);\n"
        "    return 0;\n"
        "}\n")
    p = run([emu, *mode, src, "-o", tmp_path / "names"])
    assert p.returncode == 0, p.stderr
    r = run([tmp_path / "names"])
    assert r.returncode == 0, r.stderr
    assert r.stdout == "2 5 8 3 0 1\n", r.stdout


def test_a_symbol_copy_whose_kind_names_the_other_memory_is_refused(emu, tmp_path):
    """cudaMemcpyToSymbol with cudaMemcpyDeviceToDevice from a host array
    is refused with cudaErrorInvalidValue and the symbol keeps what it held,
    as is a copy out of a symbol into host memory said
    cudaMemcpyDeviceToDevice; cudaMemcpyHostToDevice from a device buffer
    copies. This very file on an H200 (CUDA 13, 2026-11-30) printed these
    five lines."""
    prog = build(emu, tmp_path, "symbol_kind.cu")
    r = run([prog])
    assert r.stdout.splitlines() == ["device-to-device from host: cudaErrorInvalidValue 0 0 0 0",
                                     "host-to-device from device: cudaSuccess 2 4 6 8",
                                     "host-to-device from host: cudaSuccess 1 2 3 4",
                                     "device-to-device from device: cudaSuccess 2 4 6 8",
                                     "from symbol device-to-device into host: cudaErrorInvalidValue 0"], r.stdout
    d = [x for x in diags(r.stderr) if x[0] == "invalid-memcpy"]
    assert len(d) == 2, d
    assert d[0][1].endswith("symbol_kind.cu:%d" % source_line("symbol_kind.cu", "cudaMemcpyDeviceToDevice),")[0]), d


def test_no_leak_is_told_after_a_refused_call(emu, tmp_path):
    """A buffer never freed is a "leak" line at exit, but not after a call
    the runtime refused: the program's check of that call ends it before
    its cudaFree calls (set AQ's 05-g4 was told to free buffers its
    refused copy kept it from freeing)."""
    prog = build(emu, tmp_path, "leak_after_error.cu", "--race")
    kept = run([prog])
    assert kept.stdout.strip() == "kept", kept.stdout
    assert [x for x in diags(kept.stderr) if x[0] == "leak"], kept.stderr
    refused = run([prog, "refused"])
    assert refused.stdout.strip() == "cudaErrorInvalidValue", refused.stdout + refused.stderr
    assert not [x for x in diags(refused.stderr) if x[0] == "leak"], refused.stderr
