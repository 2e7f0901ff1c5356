"""gpulab wb: Teaching Kit programs (libwb's API, grader/runtime/wb/wb.h)
built and run unchanged, judged by the kit's rule.

The programs in programs/wb/ are written in the Kit's style (wbArg_read,
wbImport, wbImage_*, wbTime_*, wbLog, wbSolution, a wbCheck macro of their
own). Their datasets are made here in the Kit's layout, Dataset/<n>/, the
way the Kit's generators write them: two decimals ("%.2f") for matrices and
vectors, 8-bit PPM images.
"""
import json
import os
import random
import re
import struct

import pytest

import kit

PROGRAMS = kit.ROOT / "grader" / "tests" / "programs" / "wb"
MATMUL = PROGRAMS / "tiled_matmul.cu"
CONV = PROGRAMS / "convolution.cu"
VECADD = PROGRAMS / "vector_add.cu"
STUDENT = PROGRAMS / "student_matmul.cu"
SCAN = PROGRAMS / "list_scan.cu"


def f32(x):
    """x rounded to float32, as the program reads it."""
    return struct.unpack("f", struct.pack("f", x))[0]


def write_matrix(path, rows, fmt="%.2f"):
    lines = [f"{len(rows)} {len(rows[0])}"] + [" ".join(fmt % v for v in r) for r in rows]
    path.write_text("\n".join(lines) + "\n")


def write_vector(path, values):
    path.write_text(f"{len(values)}\n" + "\n".join("%.2f" % v for v in values) + "\n")


def write_ppm(path, width, height, pixels):
    path.write_bytes(b"P6\n%d %d\n255\n" % (width, height) + bytes(pixels))


def matmul_dataset(folder, seed, n, k, m, out_fmt):
    """input0.raw (n x k), input1.raw (k x m) with two decimals; output.raw
    = their product in double precision, written with out_fmt."""
    rng = random.Random(seed)
    a = [[rng.randrange(-200, 200) / 100 for _ in range(k)] for _ in range(n)]
    b = [[rng.randrange(-200, 200) / 100 for _ in range(m)] for _ in range(k)]
    c = [[sum(f32(a[i][t]) * f32(b[t][j]) for t in range(k)) for j in range(m)] for i in range(n)]
    folder.mkdir(parents=True)
    write_matrix(folder / "input0.raw", a)
    write_matrix(folder / "input1.raw", b)
    write_matrix(folder / "output.raw", c, out_fmt)
    return folder


def conv_dataset(folder, seed, width, height):
    """input0.ppm (RGB), input1.raw (a 5 x 5 mask), output.ppm: the masked
    sum (zero outside the image) clamped to [0, 1], rounded to 8 bits."""
    rng = random.Random(seed)
    pixels = [rng.randrange(256) for _ in range(width * height * 3)]
    mask = [[rng.randrange(0, 9) / 100 for _ in range(5)] for _ in range(5)]
    img = [f32(p / 255) for p in pixels]
    out = []
    for y in range(height):
        for x in range(width):
            for ch in range(3):
                s = 0.0
                for i in range(5):
                    for j in range(5):
                        yy, xx = y + i - 2, x + j - 2
                        if 0 <= yy < height and 0 <= xx < width:
                            s += f32(mask[i][j]) * img[(yy * width + xx) * 3 + ch]
                out.append(round(min(max(s, 0.0), 1.0) * 255))
    folder.mkdir(parents=True)
    write_ppm(folder / "input0.ppm", width, height, pixels)
    write_matrix(folder / "input1.raw", mask)
    write_ppm(folder / "output.ppm", width, height, out)
    return folder


def scan_dataset(folder, seed, n):
    """input0.raw, whole numbers (every order of adding them gives the same
    float), and output.raw, their running total."""
    rng = random.Random(seed)
    values = [rng.randrange(-9, 10) for _ in range(n)]
    running = [sum(values[:i + 1]) for i in range(n)]
    folder.mkdir(parents=True)
    write_vector(folder / "input0.raw", values)
    write_vector(folder / "output.raw", running)
    return folder


def vector_dataset(folder, seed, n):
    rng = random.Random(seed)
    a = [rng.randrange(-500, 500) / 100 for _ in range(n)]
    b = [rng.randrange(-500, 500) / 100 for _ in range(n)]
    folder.mkdir(parents=True)
    write_vector(folder / "input0.raw", a)
    write_vector(folder / "input1.raw", b)
    write_vector(folder / "output.raw", [f32(x) + f32(y) for x, y in zip(a, b)])
    return folder


@pytest.fixture(scope="module")
def labs(tmp_path_factory):
    """Kit-layout lab folders: MatMul/Dataset/{0,1}, Convolution/Dataset/0,
    VectorAdd/Dataset/0."""
    root = tmp_path_factory.mktemp("kit-labs")
    return {
        "matmul": [matmul_dataset(root / "MatMul" / "Dataset" / "0", 1, 37, 29, 41, "%.2f"),
                   matmul_dataset(root / "MatMul" / "Dataset" / "1", 2, 16, 33, 17, "%.9g")],
        "conv": conv_dataset(root / "Convolution" / "Dataset" / "0", 3, 31, 23),
        "vector": vector_dataset(root / "VectorAdd" / "Dataset" / "0", 4, 1000),
    }


def wb(program, backend, dataset, *options, inputs=None, expected=None, extra=()):
    """gpulab wb PROGRAM --backend B OPTIONS -- -i INPUTS -e EXPECTED EXTRA."""
    inputs = inputs or sorted(p.name for p in dataset.iterdir() if p.name.startswith("input"))
    expected = expected or next(p.name for p in dataset.iterdir() if p.name.startswith("output"))
    return kit.gpulab("wb", program, "--backend", backend, *options, "--",
                      "-i", ",".join(str(dataset / i) for i in inputs), "-e", str(dataset / expected), *extra)


def variant(tmp_path, source, name, old, new):
    """A copy of a program with one change (which must apply)."""
    text = source.read_text()
    assert old in text, f"{old!r} is not in {source.name}"
    path = tmp_path / name
    path.write_text(text.replace(old, new))
    return path


def test_help():
    p = kit.gpulab("wb", "--help")
    assert p.returncode == 0
    for option in ("gpulab wb FILE.cu", "--backend", "--libwb-tolerance", "-- ARGS"):
        assert option in p.stdout


def test_kit_programs_pass(backend, labs, tmp_path):
    for dataset in labs["matmul"]:
        out = tmp_path / f"{dataset.name}.raw"
        p = wb(MATMUL, backend, dataset, extra=("-o", out, "-t", "matrix"))
        assert p.returncode == 0, p.stdout + p.stderr
        assert "The solution is correct" in p.stdout
        assert "gpulab wb: correct under the kit's tolerance" in p.stdout
        assert re.search(r"\[Compute\] Performing CUDA computation: [0-9.]+ ms", p.stdout)
        assert "[TRACE]" in p.stdout and "The dimensions of A are" in p.stdout
        assert out.read_text().startswith("37 41\n" if dataset.name == "0" else "16 17\n")
    p = wb(CONV, backend, labs["conv"], extra=("-t", "image"))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "The solution is correct: all 2139 elements" in p.stdout
    p = wb(VECADD, backend, labs["vector"], extra=("-t", "vector"))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "The solution is correct: all 1000 elements" in p.stdout


def test_gputk_names(labs, tmp_path):
    """gputk.h: the same programs under libgputk's names."""
    text = MATMUL.read_text().replace("<wb.h>", "<gputk.h>")
    text = re.sub(r"\bwb(Arg_|Import|Image_|Time_|Log|Solution)", r"gpuTK\1", text)
    assert "gpuTKArg_read" in text and "wbCheck" in text
    path = tmp_path / "gputk_matmul.cu"
    path.write_text(text)
    p = wb(path, "emu", labs["matmul"][0])
    assert p.returncode == 0, p.stdout + p.stderr
    assert "The solution is correct" in p.stdout


def test_a_program_as_students_write_it(backend, labs):
    """student_matmul.cu: CUDA's headers beside wb.h (__CUDACC__ defined
    first), assert() and std::vector with no include, a dim3 named blockDim
    and one named gridDim in main, main() with no return: nvcc builds it
    with libwb, and so does the kit, on both backends."""
    p = wb(STUDENT, backend, labs["matmul"][0])
    assert p.returncode == 0, p.stdout + p.stderr
    assert "gpulab wb: correct under the kit's tolerance" in p.stdout


def test_a_program_as_students_write_it_without_cuda(labs, tmp_path):
    """The same on a machine without CUDA (a laptop, Gradescope): the
    machine's CUDA hidden from the build, the emulator's headers serve."""
    dataset = labs["matmul"][0]
    # (CUDA is hidden in a user namespace whose root maps no other user: the
    # sandbox there is a user namespace of its own, as for an ordinary user)
    args = kit.without_cuda([kit.GPULAB, "wb", STUDENT, "--backend", "emu", "--", "-i",
                             f"{dataset / 'input0.raw'},{dataset / 'input1.raw'}", "-e", dataset / "output.raw"])
    if args is None:
        pytest.skip("cannot hide this machine's CUDA from the compiler (no mount namespace, or CUDA in /usr/include)")
    p = kit.run(args)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "gpulab wb: correct under the kit's tolerance" in p.stdout


def test_wb_h_brings_what_libwbs_headers_bring(backend, labs, tmp_path):
    """A program that builds against libwb may use what libwb's headers
    include (assert, std::vector, std::map, std::sort, std::cout, int64_t,
    time, getpid, stat) without including any of it."""
    program = tmp_path / "vector_add.cu"
    program.write_text(VECADD.read_text().replace("int main(int argc, char **argv) {", """
static void unused_helpers(std::map<std::string, int64_t> &seen, std::vector<float> &v) {
  struct stat st;
  assert(stat(".", &st) == 0);
  seen["t"] = (int64_t)time(NULL) + getpid();
  std::sort(v.begin(), v.end());
  std::unique_ptr<int> one(new int(1));
  std::cout << seen.size() << *one << std::endl;
}

int main(int argc, char **argv) {
  (void)unused_helpers;""", 1))
    assert "unused_helpers" in program.read_text()
    p = wb(program, backend, labs["vector"])
    assert p.returncode == 0, p.stdout + p.stderr


def test_a_call_removed_in_cuda_13_runs_as_its_replacement(backend, labs, tmp_path):
    """cudaThreadSynchronize: nvcc 13 does not know it and neither does the
    emulator, but Kit-era programs call it; wb.h runs it as
    cudaDeviceSynchronize() on both backends, and gpulab wb says so in one
    note at the student's line. A lab of the kit's own still refuses it
    (test_wb_labs.py)."""
    program = variant(tmp_path, STUDENT, "old.cu", "cudaDeviceSynchronize()", "cudaThreadSynchronize()")
    line = next(i for i, l in enumerate(program.read_text().splitlines(), 1) if "cudaThreadSynchronize" in l)
    p = wb(program, backend, labs["matmul"][0])
    assert p.returncode == 0, p.stdout + p.stderr
    note = next((l for l in p.stderr.splitlines() if l.startswith("gpulab wb: note: ")), "")
    assert note.endswith(f"old.cu:{line}: cudaThreadSynchronize() was removed in CUDA 13; it ran as "
                         "cudaDeviceSynchronize(): use that"), p.stdout + p.stderr


@pytest.mark.parametrize("which", ["matmul", "conv"])
def test_bounds_mistake_is_not_correct(backend, labs, tmp_path, which):
    """matmul: the output's bounds test with the wrong dimension, so columns
    past numCRows are never written (cudaMalloc is not zeroed: NaN on the
    emulator). conv: a tile loaded one pixel too far to the right (the next
    row's first pixel instead of a ghost zero)."""
    if which == "matmul":
        program = variant(tmp_path, MATMUL, "bounds.cu", "col < numCColumns)\n    C[", "col < numCRows)\n    C[")
        dataset = labs["matmul"][0]
    else:
        program = variant(tmp_path, CONV, "bounds.cu", "col_i < width", "col_i <= width")
        dataset = labs["conv"]
    p = wb(program, backend, dataset)
    assert p.returncode == 1, p.stdout + p.stderr
    assert "gpulab wb: NOT correct" in p.stdout
    if which == "matmul" and backend == "emu":  # device memory starts as NaN there
        assert "got NaN" in p.stdout
    if "The solution is" in p.stdout:  # it got as far as wbSolution
        assert "The solution is NOT correct" in p.stdout
        assert re.search(r"\n  (row \d+, column \d+|row \d+, column \d+, channel \d): got ", p.stdout)


def test_libwb_tolerance(labs, tmp_path):
    """Off by 0.1 everywhere: libwb's 0.2 accepts it, the kit's rule does not."""
    program = variant(tmp_path, MATMUL, "off.cu", "C[row * numCColumns + col] = sum;",
                      "C[row * numCColumns + col] = sum + 0.1f;")
    dataset = labs["matmul"][1]
    p = wb(program, "emu", dataset)
    assert p.returncode == 1
    assert "The solution is NOT correct: 272 of 272 elements" in p.stdout
    assert "gpulab wb: NOT correct under the kit's tolerance" in p.stdout
    p = wb(program, "emu", dataset, "--libwb-tolerance")
    assert p.returncode == 0, p.stdout + p.stderr
    assert "The solution is correct: all 272 elements within libwb's tolerance, 0.2" in p.stdout


def test_malformed_raw_names_file_and_line(labs, tmp_path):
    bad = tmp_path / "input0.raw"
    lines = (labs["matmul"][0] / "input0.raw").read_text().splitlines()
    tokens = lines[2].split()
    tokens[3] = "0.1x"
    lines[2] = " ".join(tokens)
    bad.write_text("\n".join(lines) + "\n")
    dataset = labs["matmul"][0]
    p = kit.gpulab("wb", MATMUL, "--backend", "emu", "--", "-i", f"{bad},{dataset / 'input1.raw'}",
                   "-e", dataset / "output.raw")
    assert p.returncode == 1
    assert f"wbImport: {bad}:3: expected a number (value 33 of 1073), found '0.1x'" in p.stderr
    assert "never called wbSolution" in p.stdout


def test_the_grader_decides_not_the_program(labs, tmp_path):
    """A program that prints the verdict without calling wbSolution."""
    program = tmp_path / "liar.cu"
    program.write_text('#include <wb.h>\nint main(int argc, char **argv) {\n'
                       '  wbArg_t args = wbArg_read(argc, argv);\n'
                       '  printf("The solution is correct\\n");\n  return 0;\n}\n')
    p = wb(program, "emu", labs["matmul"][0])
    assert p.returncode == 1
    assert "gpulab wb: NOT correct: the program never called wbSolution" in p.stdout


def test_usage_errors(tmp_path):
    for args, message in [((), "which program?"), (("/no/such.cu",), "no such file"),
                          ((MATMUL, "--backend", "tpu"), "gpu or emu"), ((MATMUL, "--bogus"), "unknown option")]:
        p = kit.gpulab("wb", *args)
        assert p.returncode == 2 and message in p.stderr, p.stderr


# ---- gpulab import-wb: a Kit-layout lab folder becomes a lab of this kit ----

def kit_template(solution, kernel):
    """The Kit's way of making template.cu: the kernel's body left to write."""
    start = solution.index("{", solution.index(f"__global__ void {kernel}"))
    end = solution.index("\n}\n", start)
    return solution[:start] + "{\n  //@@ Insert code to implement this kernel here" + solution[end:]


def kit_lab_folder(root, name, program, kernel, datasets, without_return=False):
    """A Kit lab folder whose solution is program (without_return: its
    main() ending with no return 0, as many Kit files do)."""
    folder = root / name
    for make in datasets:
        make(folder / "Dataset")
    text = program.read_text()
    if without_return:
        assert text.endswith("  return 0;\n}\n")
        text = text[:-len("  return 0;\n}\n")] + "}\n"
    (folder / "solution.cu").write_text(text)
    (folder / "template.cu").write_text(kit_template(text, kernel))
    return folder


def copy_of_the_kit(to):
    """The kit's programs and build products (no datasets), where the
    sandbox can see them (not under /tmp): import-wb writes into its kit."""
    import shutil
    to.mkdir(parents=True)
    for part in ("Makefile", "gpulab", "grader", "labs", "skeletons", "solutions", "build"):
        src = kit.ROOT / part
        if src.is_dir():
            shutil.copytree(src, to / part, symlinks=True,
                            ignore=shutil.ignore_patterns("test-kits", "test-venv", "datasets", "__pycache__"))
        else:
            shutil.copy2(src, to / part)
    return to


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """A copy of the kit with two Kit labs imported (06-kit-matmul, whose
    solution's main() ends with no return, and 07-kit-conv), nothing else
    done: import-wb builds what the lab needs (its harness), with no make
    after it; removed afterwards."""
    import os
    import shutil
    src = tmp_path_factory.mktemp("kit-folders")
    matmul = kit_lab_folder(src, "MatMul", MATMUL, "matrixMultiplyShared", [
        lambda d: matmul_dataset(d / "0", 1, 37, 29, 41, "%.2f"),
        lambda d: matmul_dataset(d / "1", 2, 16, 33, 17, "%.9g")], without_return=True)
    conv = kit_lab_folder(src, "Convolution", CONV, "convolution", [
        lambda d: conv_dataset(d / "0", 3, 31, 23),
        lambda d: conv_dataset(d / "1", 5, 12, 12)])
    scan = kit_lab_folder(src, "ListScan", SCAN, "sectionScan", [
        lambda d: scan_dataset(d / "0", 6, 300),
        lambda d: scan_dataset(d / "1", 7, 700),
        lambda d: scan_dataset(d / "2", 8, 3000)])
    root = copy_of_the_kit(kit.ROOT / "build" / "test-kits" / f"import-{os.getpid()}")
    gp = root / "gpulab"
    said = {}
    env = {k: "" for k in os.environ if k.startswith("MAKE")}
    for folder, lab in ((matmul, "06-kit-matmul"), (conv, "07-kit-conv"), (scan, "08-kit-scan")):
        p = kit.run([gp, "import-wb", folder, lab, "--backend", "emu"], env=env, timeout=1200)
        assert p.returncode == 0, p.stdout + p.stderr
        assert f"imported {folder} as {lab}" in p.stdout
        said[lab] = p.stdout
    yield {"root": root, "gpulab": gp, "folders": {"06-kit-matmul": matmul, "07-kit-conv": conv, "08-kit-scan": scan},
           "said": said}
    shutil.rmtree(root, ignore_errors=True)


def test_import_writes_a_lab(imported):
    root = imported["root"]
    m = json.loads((root / "labs" / "06-kit-matmul" / "lab.json").read_text())
    assert m["program"] == "libwb" and m["source"] == "template.cu"
    assert m["tolerance"]["atol"] == 0.01  # the Kit's "%.2f"
    assert [d["name"] for d in m["datasets"]] == ["0", "1"]
    c = json.loads((root / "labs" / "07-kit-conv" / "lab.json").read_text())
    assert c["tolerance"]["atol"] == pytest.approx(1 / 255)  # an 8-bit image
    for lab, inputs in (("06-kit-matmul", ["input0.raw", "input1.raw"]), ("07-kit-conv", ["input0.ppm", "input1.raw"])):
        for d in ("0", "1"):
            assert sorted(p.name for p in (root / "datasets" / lab / d).iterdir()) == sorted(inputs + ["expected.tensor"])
    assert (root / "skeletons" / "07-kit-conv" / "template.cu").read_text().count("//@@ Insert code") == 1
    assert "next: ./gpulab check 06-kit-matmul FILE.cu" in imported["said"]["06-kit-matmul"]
    for b in ("emu", "gpu") if kit.NVCC else ("emu",):  # built by the import itself
        assert (root / "build" / "harness" / b / "07-kit-conv" / "harness.o").exists()
    p = kit.run([imported["gpulab"], "list"])
    assert "06-kit-matmul" in p.stdout and "Teaching Kit lab MatMul" in p.stdout


def test_import_asks_for_what_the_kits_solution_shows(imported):
    """The tiled matmul's solution shows shared memory and barriers, the
    convolution's constant memory too: the imported labs ask for them, a
    point each (lab.json's "requirements", which the instructor can edit)."""
    root = imported["root"]
    for lab, names in (("06-kit-matmul", ["shared_memory", "barrier"]),
                       ("07-kit-conv", ["shared_memory", "barrier", "constant_memory"])):
        m = json.loads((root / "labs" / lab / "lab.json").read_text())
        assert m["requirements"] == [{"name": n, "points": 1} for n in names], m["requirements"]
        assert f"requirements: {', '.join(names)} (what the Kit's solution shows" in imported["said"][lab]


def test_import_without_requirements(imported):
    root = imported["root"]
    env = {k: "" for k in os.environ if k.startswith("MAKE")}
    p = kit.run([imported["gpulab"], "import-wb", imported["folders"]["06-kit-matmul"], "09-kit-plain",
                 "--backend", "emu", "--no-requirements"], env=env, timeout=1200)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "requirements: none (--no-requirements)" in p.stdout
    m = json.loads((root / "labs" / "09-kit-plain" / "lab.json").read_text())
    assert m["requirements"] == []
    p = kit.run([imported["gpulab"], "check", "09-kit-plain", root / "solutions" / "09-kit-plain" / "template.cu",
                 "--backend", "emu", "--format", "json", "--no-sanitize"])
    report = json.loads(p.stdout)
    assert (report["score"], report["max_score"]) == (2, 2), p.stdout[-3000:]


def test_start_hands_out_the_kit_template(imported, tmp_path):
    p = kit.run([imported["gpulab"], "start", "06-kit-matmul", tmp_path])
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "template.cu").read_text() == \
        (imported["root"] / "skeletons" / "06-kit-matmul" / "template.cu").read_text()
    assert "walkthrough" not in p.stdout and "TODO" not in p.stdout


@pytest.mark.parametrize("lab", ["06-kit-matmul", "07-kit-conv"])
def test_imported_lab_grades(backend, imported, lab, tmp_path):
    """The reference gets full marks, the template and a bounds mistake fewer."""
    gp, root = imported["gpulab"], imported["root"]
    solution = root / "solutions" / lab / "template.cu"
    bounds = (variant(tmp_path, solution, "template.cu", "col < numCColumns)\n    C[", "col < numCRows)\n    C[")
              if lab == "06-kit-matmul" else
              variant(tmp_path, solution, "template.cu", "col_i < width", "col_i <= width"))
    scores = {}
    for name, path in (("reference", solution), ("template", root / "skeletons" / lab / "template.cu"),
                       ("bounds", bounds)):
        p = kit.run([gp, "check", lab, path, "--backend", backend, "--format", "json", "--no-sanitize"])
        report = json.loads(p.stdout)
        scores[name] = (report["score"], report["max_score"])
    full = 2 + len(json.loads((root / "labs" / lab / "lab.json").read_text())["requirements"])
    assert scores["reference"][0] == scores["reference"][1] == full, scores
    assert scores["template"][0] < full and scores["bounds"][0] < full, scores


def test_a_student_program_in_an_imported_lab(backend, imported):
    """A student's basic (untiled) matmul in the Kit's tiled lab, written as
    students write (CUDA's headers, a dim3 blockDim, main() with no return):
    right on every dataset, no crash after its main() ends, and the tiling
    requirements not met. (The lab's own solution, with no return either,
    gets full marks: test_imported_lab_grades, and grade in
    test_imported_lab_on_gradescope.)"""
    gp = imported["gpulab"]
    p = kit.run([gp, "check", "06-kit-matmul", STUDENT, "--backend", backend, "--format", "json", "--no-sanitize"])
    report = json.loads(p.stdout)
    assert {d["name"]: d["status"] for d in report["datasets"]} == {"0": "pass", "1": "pass"}, p.stdout[-3000:]
    assert kit.requirement_statuses(report) == {"shared_memory": "requirement_failed",
                                                "barrier": "requirement_failed"}, report["requirements"]
    assert (report["score"], report["max_score"]) == (2, 4)


def test_imported_lab_needs_a_kernel(imported, tmp_path):
    """A right answer computed on the host earns nothing, as in every lab."""
    solution = imported["root"] / "solutions" / "06-kit-matmul" / "template.cu"
    text = solution.read_text().replace("matrixMultiplyShared<<<", "if (0) matrixMultiplyShared<<<").replace(
        "  wbSolution(args, hostC, numCRows, numCColumns);",
        "  for (int i = 0; i < numCRows; i++)\n    for (int j = 0; j < numCColumns; j++) {\n"
        "      float s = 0;\n      for (int k = 0; k < numAColumns; k++)\n"
        "        s += hostA[i * numAColumns + k] * hostB[k * numBColumns + j];\n"
        "      hostC[i * numCColumns + j] = s;\n    }\n"
        "  wbSolution(args, hostC, numCRows, numCColumns);")
    assert "if (0)" in text and "s += hostA" in text
    path = tmp_path / "template.cu"
    path.write_text(text)
    p = kit.run([imported["gpulab"], "check", "06-kit-matmul", path, "--backend", "emu", "--format", "json",
                 "--no-sanitize"])
    report = json.loads(p.stdout)
    assert report["score"] == 0, p.stdout[-3000:]
    assert {d["status"] for d in report["datasets"]} == {"requirement_failed"}, report["datasets"]


def test_imported_lab_checkers(imported):
    """The sanitizer stage runs on an imported lab like on any other."""
    gp, root = imported["gpulab"], imported["root"]
    p = kit.run([gp, "check", "07-kit-conv", root / "solutions" / "07-kit-conv" / "template.cu",
                 "--backend", "emu", "--format", "json"])
    report = json.loads(p.stdout)
    assert p.returncode == 0 and report["score"] == report["max_score"] == 5, p.stdout[-3000:]
    assert any((d.get("sanitizer") or {}).get("ran") for d in report["datasets"]), report["datasets"]


def line_of(path, text):
    return next(i for i, l in enumerate(path.read_text().splitlines(), 1) if text in l)


def check_imported(imported, lab, path, backend):
    """`gpulab check` of the imported kit, with the checkers: the report."""
    p = kit.run([imported["gpulab"], "check", lab, path, "--backend", backend, "--format", "json"], timeout=900)
    assert p.stdout.strip(), p.stderr
    return json.loads(p.stdout)


def test_a_read_of_unstored_memory_that_cannot_reach_the_output_is_a_note(backend, imported):
    """A scan whose array of section totals has room for more sections than
    the list has: one block scans all of it, reading slots nothing stored,
    whose sums land in slots nobody reads back. The output is right with
    fresh device memory filled with NaN and with 1e9: full marks, and a
    note naming the buffer and the lines (issue 38's last Done-when: the
    Kit's own ListScan scored 2/12 for it)."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = imported["root"] / "solutions" / "08-kit-scan" / "template.cu"
    report = check_imported(imported, "08-kit-scan", src, backend)
    assert report["score"] == report["max_score"], kit.statuses(report)
    made = line_of(src, "cudaMalloc((void **)&deviceTotals")
    loads = {line_of(src, "ds_part[t] = base + t < len"), line_of(src, "ds_part[BLOCK_SIZE + t] = base")}
    notes = [n for n in report["notes"] if "its value did not reach the output" in n]
    assert notes and all(n.startswith(f"deviceTotals (the buffer of the cudaMalloc at line {made} ") for n in notes), \
        report["notes"]
    assert {int(re.search(r"is read at line (\d+)", n).group(1)) for n in notes} <= loads, notes


def test_a_read_of_unstored_memory_that_reaches_the_output_stays_unsafe(imported, tmp_path):
    """The same scan, whose first section also adds the larger of 0 and the
    last scanned total, a sum of slots nothing stored: NaN vanishes in
    fmaxf (the graded run, NaN-filled, is right), 1e9 does not. The value
    reaches the output, so the datasets are `unsafe`, the reads findings."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = variant(tmp_path, imported["root"] / "solutions" / "08-kit-scan" / "template.cu", "template.cu",
                  "  if (blockIdx.x > 0 && i < len)\n    output[i] += scannedTotals[blockIdx.x - 1];",
                  "  if (i < len)\n    output[i] += blockIdx.x > 0 ? scannedTotals[blockIdx.x - 1]\n"
                  "                               : fmaxf(scannedTotals[SECTION - 1], 0.0f);")
    report = check_imported(imported, "08-kit-scan", src, "emu")
    statuses = {d["name"]: d["status"] for d in report["datasets"]}
    assert set(statuses.values()) == {"unsafe"}, statuses
    found = [f for d in report["datasets"] for f in d["sanitizer"]["findings"]]
    assert found and all(f["kind"] == "uninitialised" and "deviceTotals" in f["message"] for f in found), found
    assert not [n for n in report["notes"] if "did not reach the output" in n], report["notes"]


def test_imported_lab_gradescope_package(imported, tmp_path):
    import zipfile
    gp = imported["gpulab"]
    out = tmp_path / "autograder.zip"
    p = kit.run([gp, "gradescope-package", "06-kit-matmul", out])
    assert p.returncode == 0, p.stderr
    with zipfile.ZipFile(out) as z:
        names = set(z.namelist())
        setup = z.read("setup.sh").decode()
    assert {"kit/labs/06-kit-matmul/lab.json", "kit/labs/06-kit-matmul/harness.c",
            "kit/datasets/06-kit-matmul/0/expected.tensor", "kit/datasets/06-kit-matmul/1/input1.raw",
            "kit/grader/runtime/wb/wb_harness.c", "kit/grader/runtime/wb/wb.h"} <= names
    assert not any(n.startswith("kit/solutions/") or n.startswith("kit/skeletons/") for n in names)
    assert "gpulab datasets" not in setup and "came in the package" in setup
    p = kit.run([gp, "gradescope-package", "06-kit-matmul", tmp_path / "hidden.zip", "--seed", "7"])
    assert p.returncode == 2 and "has no generator" in p.stderr


@pytest.mark.slow  # a whole kit built by setup.sh: minutes on 2 cores; make test runs it
def test_imported_lab_on_gradescope(imported, tmp_path):
    """The package, unpacked and set up as Gradescope does (setup.sh builds
    the kit from the zip), grades the reference with full marks."""
    import os
    import shutil
    import zipfile
    out = tmp_path / "autograder.zip"
    p = kit.run([imported["gpulab"], "gradescope-package", "06-kit-matmul", out])
    assert p.returncode == 0, p.stderr
    top = tmp_path / "autograder"
    with zipfile.ZipFile(out) as z:
        z.extractall(top / "source")
    for f in ("setup.sh", "run_autograder"):
        text = (top / "source" / f).read_text().replace("/autograder", str(top))
        (top / "source" / f).write_text(text)
    (top / "submission").mkdir()
    shutil.copy(imported["root"] / "solutions" / "06-kit-matmul" / "template.cu", top / "submission")
    env = {k: "" for k in os.environ if k.startswith("MAKE")}
    for f in ("setup.sh", "run_autograder"):
        p = kit.run(["bash", top / "source" / f], env=env, timeout=1200)
        assert p.returncode == 0, f + ": " + p.stdout[-2000:] + p.stderr[-2000:]
    res = json.loads((top / "results" / "results.json").read_text())
    assert res["score"] == 4 and len(res["tests"]) == 4, res


def test_imported_lab_has_no_hidden_datasets(imported, tmp_path):
    p = kit.run([imported["gpulab"], "grade", "06-kit-matmul", imported["root"] / "solutions" / "06-kit-matmul",
                 "--seed", "7", "--backend", "emu", "--sandbox", "none", "--records", tmp_path / "r"])
    assert p.returncode == 2 and "has no generator" in p.stderr, p.stderr


def broken_copy(tmp_path, folder, change):
    import shutil
    copy = tmp_path / folder.name
    shutil.copytree(folder, copy)
    change(copy)
    return copy


def symlink_input(c):
    (c / "Dataset" / "0" / "input0.raw").unlink()
    (c / "Dataset" / "0" / "input0.raw").symlink_to("/etc/passwd")


def bad_value(c):
    path = c / "Dataset" / "1" / "input1.raw"
    lines = path.read_text().splitlines()
    lines[1] = "oops " + lines[1]
    path.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("change, message", [
    (symlink_input, "Dataset/0/input0.raw is a symbolic link"),
    (lambda c: (c / "Dataset" / "x").mkdir(), "Dataset/x: a Kit dataset folder is named by its number"),
    (lambda c: (c / "Dataset" / "0" / "output.raw").unlink(), "has no output"),
    (lambda c: (c / "Dataset" / "0" / "notes.txt").write_text("hi"), "notes.txt: not a Kit dataset file"),
    (lambda c: (c / "Dataset" / "1" / "input0.raw").rename(c / "Dataset" / "1" / "input2.raw"),
     "the inputs must be input0, input1"),
    (bad_value, "input1.raw:2: expected a number"),
    (lambda c: (c / "template.cu").unlink(), "template.cu is missing"),
    (lambda c: (c / "solution.cu").write_text((c / "solution.cu").read_text().replace(
        "C[row * numCColumns + col] = sum;", "C[row * numCColumns + col] = sum + 1;")),
     "the Kit's solution.cu does not reproduce"),
])
def test_import_refuses_unsafe_or_malformed_folders(imported, tmp_path, change, message):
    folder = broken_copy(tmp_path, imported["folders"]["06-kit-matmul"], change)
    p = kit.run([imported["gpulab"], "import-wb", folder, "08-broken", "--backend", "emu"])
    assert p.returncode == 2 and message in p.stderr, p.stderr
    assert not (imported["root"] / "labs" / "08-broken").exists()
    assert not (imported["root"] / "datasets" / "08-broken").exists()
    assert not (imported["root"] / ".import-08-broken.tmp").exists()


@pytest.mark.parametrize("lab, message", [("06-kit-matmul", "already exists"), ("Bad_Name", "lower-case letters")])
def test_import_refuses_a_taken_or_bad_id(imported, lab, message):
    p = kit.run([imported["gpulab"], "import-wb", imported["folders"]["06-kit-matmul"], lab])
    assert p.returncode == 2 and message in p.stderr, p.stderr


HOSTILE_KIT_MAIN = r'''
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>
/* A hostile Kit folder's solution: before its honest work it reads a
 * root-only secret, appends to the kit's reference solution and pushes a
 * command line into the terminal; any of them that works fails the import
 * with what it got, so an import that succeeds reached none of them. */
static void hostile(void)
{
    char line[256];
    FILE *f = fopen("@SECRET@", "r");
    if (f && fgets(line, sizeof line, f)) {
        fprintf(stderr, "read the secret: %s\n", line);
        exit(1);
    }
    FILE *w = fopen("@SOLUTION@", "a");
    if (w && fputs("// rewritten by a Kit folder\n", w) >= 0 && fclose(w) == 0) {
        fprintf(stderr, "rewrote the kit's reference solution\n");
        exit(1);
    }
    int tty = open("/dev/tty", O_RDWR);
    if (tty >= 0 && ioctl(tty, TIOCSTI, "#") == 0) {
        fprintf(stderr, "pushed into the terminal\n");
        exit(1);
    }
}

int main(int argc, char **argv) {
  hostile();
'''


def test_a_hostile_kit_folder_is_built_and_run_in_the_sandbox(imported, tmp_path):
    """A Kit folder is as untrusted as a submission: import-wb builds and
    runs its solution.cu in grade's sandbox, where a root-only secret, the
    kit's reference solutions and the terminal are out of reach."""
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root or user namespaces; the secret needs root")
    secret = tmp_path / "secret.txt"
    secret.write_text("gpulab-kit-folder-secret\n")
    secret.chmod(0o600)
    target = imported["root"] / "solutions" / "01-basic-matmul" / "basic_matmul.cu"
    before = target.read_text()

    def make_hostile(c):
        text = (c / "solution.cu").read_text()
        assert "int main(int argc, char **argv) {" in text
        (c / "solution.cu").write_text(text.replace("int main(int argc, char **argv) {", HOSTILE_KIT_MAIN.replace(
            "@SECRET@", str(secret)).replace("@SOLUTION@", str(target)), 1))

    folder = broken_copy(tmp_path, imported["folders"]["06-kit-matmul"], make_hostile)
    env = {k: "" for k in os.environ if k.startswith("MAKE")}
    term = kit.Terminal()
    p = term.run([imported["gpulab"], "import-wb", folder, "10-kit-hostile", "--backend", "emu"], env=env,
                 timeout=1200)
    pending = term.close()
    assert p.returncode == 0, p.stdout + p.stderr
    assert target.read_text() == before
    assert pending == b""
    assert "gpulab-kit-folder-secret" not in p.stdout + p.stderr


def test_integer_import_and_solution(tmp_path):
    """libwb's "Integer" kind (the Kit's Histogram, BfsQueue): whole numbers
    in, wbSolution of unsigned ints judged exactly; a value that is not a
    whole number stops the program naming it."""
    program = tmp_path / "ints.cu"
    program.write_text('#include <wb.h>\nint main(int argc, char **argv) {\n'
                       '  wbArg_t args = wbArg_read(argc, argv);\n  int n;\n'
                       '  unsigned int *v = (unsigned int *)wbImport(wbArg_getInputFile(args, 0), &n, "Integer");\n'
                       '  for (int i = 0; i < n; i++) v[i] = min(v[i] * 2, 127);\n'
                       '  wbSolution(args, v, n);\n}\n')
    (tmp_path / "input.raw").write_text("4\n1\n70\n3\n0\n")
    (tmp_path / "output.raw").write_text("4\n2\n127\n6\n0\n")
    (tmp_path / "wrong.raw").write_text("4\n2\n127\n7\n0\n")
    (tmp_path / "half.raw").write_text("4\n1\n70.5\n3\n0\n")
    run = lambda i, e: kit.gpulab("wb", program, "--backend", "emu", "--", "-i", tmp_path / i, "-e", tmp_path / e)
    p = run("input.raw", "output.raw")
    assert p.returncode == 0 and "all 4 elements within" in p.stdout, p.stdout + p.stderr
    p = run("input.raw", "wrong.raw")
    assert p.returncode == 1 and "1 of 4 elements wrong" in p.stdout, p.stdout + p.stderr
    p = run("half.raw", "output.raw")
    assert p.returncode == 1
    assert "half.raw: value 2 of 4 is 70.5, not a whole number (imported as \"Integer\")" in p.stderr, p.stderr


HOSTILE_WB = r"""
#include <wb.h>
#include <stdio.h>
#include <stdlib.h>
/* a Kit program run with gpulab wb that reads a root-only file and appends to
 * a reference solution of the kit, then does its job badly */
int main(int argc, char **argv)
{
    FILE *f = fopen("@SECRET@", "r");
    char line[128] = "";
    if (f && fgets(line, sizeof line, f))
        printf("hostile_wb: read %s", line);
    if (f)
        fclose(f);
    FILE *g = fopen("@SOLUTION@", "a");
    if (g) {
        fputs("/* hostile_wb was here */\n", g);
        fclose(g);
    }
    wbArg_t args = wbArg_read(argc, argv);
    int n;
    float *in = (float *)wbImport(wbArg_getInputFile(args, 0), &n);
    wbSolution(args, in, n);
    return 0;
}
"""


def test_a_hostile_program_run_with_wb_is_sandboxed(tmp_path):
    """gpulab wb builds and runs the program in grade's sandbox (by default,
    --sandbox auto): a program that reads a root-only file and appends to the
    kit's reference solution reaches neither; its own files are copies in a
    folder of its own. With --sandbox none it reads the secret, so the test
    can tell."""
    if os.geteuid() != 0:
        pytest.skip("the test makes a root-only secret: run it as root")
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    secret = tmp_path / "secret.txt"
    mark = "gpulab-wb-secret-" + str(random.randrange(1 << 30))
    secret.write_text(mark + "\n")
    secret.chmod(0o600)
    solution = kit.solution("01-basic-matmul")
    before = solution.read_bytes()
    prog = tmp_path / "hostile.cu"
    prog.write_text(HOSTILE_WB.replace("@SECRET@", str(secret)).replace("@SOLUTION@", str(solution)))
    data = tmp_path / "in0.raw"
    data.write_text("3\n1.0\n2.0\n3.0\n")
    try:
        p = kit.gpulab("wb", prog, "--backend", "emu", "--", "-i", data, "-e", data, "-o", tmp_path / "out.raw")
        assert mark not in p.stdout + p.stderr, p.stdout[-2000:]
        assert solution.read_bytes() == before, "the program appended to a reference solution"
        assert p.returncode == 0 and "gpulab wb: correct" in p.stdout, p.stdout[-2000:] + p.stderr[-2000:]
        assert (tmp_path / "out.raw").exists(), "-o's file was not copied out of the run's folder"
        p = kit.gpulab("wb", prog, "--backend", "emu", "--sandbox", "none", "--", "-i", data, "-e", data)
        assert mark in p.stdout, p.stdout[-2000:]
    finally:
        solution.write_bytes(before)
