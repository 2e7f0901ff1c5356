"""The Teaching Kit's labs and its students' habits, on programs of the
kit's own (issue 38; before it, issue 29's items 6b, 7 and 8 on copies of
the Kit's files, which the kit no longer ships).

data/kit-like/ is a small tree of lab folders laid out as the Kit's
(WeekN/LAB/template.cu, solution.cu and dataset_generator.cpp, no Dataset
folder), written here: `gpulab import-wb --all` imports every one it can,
each with the datasets its own generator writes, and prints a table; each
Kit solution gets full marks and each template does not. The folders
between them call every libwb function the Kit's labs call (each wbImport
kind: vectors, matrices, .csv, PPM in and a P5 .pbm out, "Text",
"Integer", a flag; wbSolution of floats, images, ints and unsigned ints;
wbTime, wbLog, wbAssert, wbArg, wbPath_join, wbDirectory_*,
wbDataset_generate). programs/wb/kit_era/ holds students' programs for
those labs, written here as students of the Kit's years wrote them (CUDA
headers with and without __CUDACC__, a host variable named blockDim, the
`<< < ... >> >` launch, main() without return, calls CUDA 13 removed), the
correct ones and ones with the kinds of bugs students made.

Compatibility with the real Kit and real students' files is measured
outside the repository (docs/teaching-kit.md gives the commands and the
figures); GPULAB_KIT_REFERENCE=FOLDER makes the last test here check that
no file of the repository shares a run of 12 lines with the files under
FOLDER (tools/shared_runs.py).
"""
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

import kit
from test_wb import copy_of_the_kit

KIT_LIKE = kit.ROOT / "grader" / "tests" / "data" / "kit-like"
STUDENTS = kit.ROOT / "grader" / "tests" / "programs" / "wb" / "kit_era"
SHARED_RUNS = kit.ROOT / "grader" / "tests" / "tools" / "shared_runs.py"
# lab id (what --all names it) -> (folder, the requirements its solution shows)
LABS = {
    "kit-vectorsum": ("Week1/VectorSum", []),
    "kit-grayimage": ("Week2/GrayImage", []),  # its output is output.pbm
    "kit-matrixproduct": ("Week3/MatrixProduct", ["shared_memory", "barrier"]),  # output.csv
    "kit-lettercount": ("Week4/LetterCount", ["shared_memory", "barrier"]),  # its input is text
    "kit-blocksum": ("Week5/BlockSum", ["shared_memory", "barrier"]),
    "kit-clamptolimit": ("Week6/ClampToLimit", []),  # "Integer" values and a flag
}
NOT_IMPORTED = {"Week0/DeviceInfo": "no Dataset/ folder and no dataset_generator.cpp"}


def no_make_env():
    return {k: "" for k in os.environ if k.startswith("MAKE")}


@pytest.fixture(scope="module")
def kit_like(tmp_path_factory):
    """A copy of the kit (import-wb writes into its kit) with every lab of
    data/kit-like/ it can import imported by one `import-wb --all`."""
    root = copy_of_the_kit(kit.ROOT / "build" / "test-kits" / f"kit-like-{os.getpid()}")
    p = kit.run([root / "gpulab", "import-wb", "--all", KIT_LIKE, "--backend", "emu"], env=no_make_env(),
                timeout=3600)
    yield {"root": root, "all": p, "folders": tmp_path_factory.mktemp("kit-like")}
    shutil.rmtree(root, ignore_errors=True)


def table_rows(text):
    """The table's rows: folder -> the rest of its line."""
    rows = {}
    for line in text.splitlines()[1:]:
        parts = line.split(None, 1)
        if len(parts) == 2 and "/" in parts[0]:
            rows[parts[0]] = parts[1]
    return rows


def test_import_all_prints_a_table(kit_like):
    p = kit_like["all"]
    assert p.returncode == 0, p.stdout + p.stderr[-3000:]
    rows = table_rows(p.stdout)
    assert sorted(rows) == sorted([f for f, _ in LABS.values()] + list(NOT_IMPORTED)), p.stdout
    for lab, (folder, reqs) in LABS.items():
        m = json.loads((kit_like["root"] / "labs" / lab / "lab.json").read_text())
        full = len(m["datasets"]) + len(reqs)
        assert re.fullmatch(rf"imported as {lab}\s+{full}/{full}", rows[folder]), (folder, rows[folder])
    for folder, why in NOT_IMPORTED.items():
        assert rows[folder].startswith("no: ") and why in rows[folder], rows[folder]
        assert "No such file or directory" not in rows[folder]
    assert p.stdout.splitlines()[-1] == f"{len(LABS)} of {len(LABS) + len(NOT_IMPORTED)} lab folders imported"


def test_import_all_on_a_folder_with_no_lab(tmp_path):
    (tmp_path / "Week1" / "Notes").mkdir(parents=True)
    (tmp_path / "Week1" / "Notes" / "README.md").write_text("nothing to import\n")
    p = kit.gpulab("import-wb", "--all", tmp_path)
    assert p.returncode == 2 and f"no lab folder under {tmp_path}" in p.stderr, p.stderr
    p = kit.gpulab("import-wb", "--all", tmp_path, "extra-word")
    assert p.returncode == 2 and "usage: gpulab import-wb" in p.stderr, p.stderr


@pytest.mark.parametrize("lab", sorted(LABS))
def test_a_kit_lab_imports_with_its_generators_datasets(kit_like, lab):
    m = json.loads((kit_like["root"] / "labs" / lab / "lab.json").read_text())
    assert [r["name"] for r in m["requirements"]] == LABS[lab][1]
    assert len(m["datasets"]) == 6  # every one the generator wrote
    for d in m["datasets"]:
        files = sorted(f.name for f in (kit_like["root"] / "datasets" / lab / d["name"]).iterdir())
        assert "expected.tensor" in files and any(f.startswith("input0.") for f in files), files


@pytest.mark.parametrize("lab", sorted(LABS))
def test_the_kits_solution_gets_full_marks(backend, kit_like, lab):
    root = kit_like["root"]
    scores = {}
    for name in ("solutions", "skeletons"):
        p = kit.run([root / "gpulab", "check", lab, root / name / lab / "template.cu", "--backend", backend,
                     "--format", "json", "--no-sanitize"])
        report = json.loads(p.stdout)
        scores[name] = (report["score"], report["max_score"])
    full = len(json.loads((root / "labs" / lab / "lab.json").read_text())["datasets"]) + len(LABS[lab][1])
    assert scores["solutions"] == (full, full), scores
    assert scores["skeletons"][0] < full, scores


def test_the_checkers_of_a_kindless_lab_look_at_its_largest_input(kit_like):
    """An imported lab's datasets do not say their kind: besides the two
    smallest, the checkers look at the dataset with the most input, where a
    reduction's extra blocks write past its output (its output is one number
    on every dataset, so the output's size cannot tell them apart)."""
    root = kit_like["root"]
    lab = "kit-blocksum"
    p = kit.run([root / "gpulab", "check", lab, root / "solutions" / lab / "template.cu", "--backend", "emu",
                 "--format", "json"])
    report = json.loads(p.stdout)
    sizes = {d["name"]: sum(f.stat().st_size for f in (root / "datasets" / lab / d["name"]).glob("input*"))
             for d in report["datasets"]}
    checked = [d["name"] for d in report["datasets"] if d["sanitizer"]]
    assert max(sizes, key=sizes.get) in checked, (checked, sizes)
    assert len(checked) == 3, checked


def import_changed(kit_like, folder, name, change=None):
    """import-wb of a copy of a kit-like folder, its generator changed by
    change(text) -> text."""
    copy = kit_like["folders"] / name / os.path.basename(folder)
    shutil.copytree(KIT_LIKE / folder, copy)
    if change:
        gen = copy / "dataset_generator.cpp"
        gen.write_text(change(gen.read_text()))
    return kit.run([kit_like["root"] / "gpulab", "import-wb", copy, name, "--backend", "emu"], env=no_make_env(),
                   timeout=1200)


def replaced(old, new):
    def change(text):
        assert old in text
        return text.replace(old, new, 1)
    return change


def test_a_generator_that_disagrees_with_its_solution_is_refused(kit_like):
    """A generator whose output.raw is not what the Kit's solution computes
    (a difference for a sum): nothing is imported."""
    p = import_changed(kit_like, "Week1/VectorSum", "kit-disagrees", replaced("sum[k] = a[k] + b[k];",
                                                                             "sum[k] = a[k] - b[k];"))
    assert p.returncode == 2, p.stdout + p.stderr
    assert "the Kit's solution.cu does not reproduce" in p.stderr and "Dataset/0/output.raw" in p.stderr
    assert not (kit_like["root"] / "labs" / "kit-disagrees").exists()


def test_a_folder_with_neither_datasets_nor_a_generator(kit_like):
    """The one line says that a dataset_generator.cpp would also do."""
    p = import_changed(kit_like, "Week0/DeviceInfo", "kit-nodata")
    assert p.returncode == 2, p.stdout + p.stderr
    assert "has no Dataset/ folder and no dataset_generator.cpp: a Kit lab folder needs one or the other" \
        in p.stderr, p.stderr
    assert "No such file or directory" not in p.stderr


def test_a_generator_is_run_in_the_sandbox(kit_like):
    """A generator is the Kit folder's code: it runs where the kit's
    reference solutions cannot be written; one that tries fails the import."""
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root or user namespaces")
    target = kit_like["root"] / "solutions" / "kit-vectorsum" / "template.cu"
    before = target.read_text()
    p = import_changed(kit_like, "Week1/VectorSum", "kit-hostile", replaced(
        "int main() {", 'int main() {\n  FILE *w = fopen("%s", "a");\n'
        '  if (w && fputs("// rewritten\\n", w) >= 0 && fclose(w) == 0) return 1;\n' % target))
    assert p.returncode == 0, p.stdout + p.stderr
    assert target.read_text() == before


@pytest.mark.parametrize("change, message", [
    ('int main() {\n  wbDirectory_create(wbPath_join(wbDirectory_current(), "Other", "Dataset", 0));',
     "wrote more than one <name>/Dataset/ folder"),
    ("int main() {\n  return 0;", "wrote no <name>/Dataset/ folder"),
    ("int main() {\n  return 3;", "the Kit's dataset_generator.cpp failed"),
    ("int main() { undeclared_thing();", "the Kit's dataset_generator.cpp does not build"),
    # a link among what it wrote, to a file only root reads: the import
    # walks the generator's output without following links, and copies
    # nothing the generator did not write itself
    ('#include <unistd.h>\nstruct Plant { ~Plant() { unlink("VectorSum/Dataset/0/input1.raw"); '
     'symlink("/etc/shadow", "VectorSum/Dataset/0/input1.raw"); } };\nstatic Plant plant;\nint main() {',
     "VectorSum/Dataset/0/input1.raw, a link, which the import does not follow or read"),
])
def test_a_generator_that_goes_wrong_imports_nothing(kit_like, change, message):
    """What the generator made must be one lab's Dataset folder, from a run
    that ended well; a generator that does not build says so."""
    name = f"kit-broken-{abs(hash(change)) % 10000}"
    p = import_changed(kit_like, "Week1/VectorSum", name, replaced("int main() {", change))
    assert p.returncode == 2 and message in p.stderr, p.stderr[-2000:]
    assert not (kit_like["root"] / "labs" / name).exists()


# ---- Students' programs for the kit-like labs ----
# What each should get, and why:
#   full     - correct: full marks, the checkers finding nothing
#   removed  - correct, calling what CUDA 13 removed: full marks, and the
#              report's one note naming the replacement it ran as
#   wrong    - a bug of its own: points lost on the datasets (a wrong output,
#              or what the checkers find where the output came out right),
#              never a build error
STUDENT_VERDICTS = {
    "vecsum_threadsync.cu": ("kit-vectorsum", "removed", "cudaThreadSynchronize() after the launch"),
    "vecsum_habits.cu": ("kit-vectorsum", "full",
                         "CUDA headers after #define __CUDACC__, dim3 blockDim/gridDim in main, << < >> >, "
                         "main() without return"),
    "vecsum_bytes.cu": ("kit-vectorsum", "wrong",
                        "the length in bytes as the kernel's length: its threads write past the output"),
    "gray_ok.cu": ("kit-grayimage", "full", "a correct conversion under gputk.h's names"),
    "gray_row_stride.cu": ("kit-grayimage", "wrong", "row * height + col: right only for square images"),
    "matprod_tiled_old_api.cu": ("kit-matrixproduct", "removed",
                                 "cudaThreadSynchronize() and cudaThreadExit() around a correct tiled product"),
    "matprod_floor_grid.cu": ("kit-matrixproduct", "wrong",
                              "the grid in integer division: the last partial tiles are never computed"),
    "matprod_unguarded_rows.cu": ("kit-matrixproduct", "wrong",
                                  "tile loads that test only the shared dimension: they read past A and B"),
    "lettercount_ok.cu": ("kit-lettercount", "full", "a correct shared-memory histogram"),
    "lettercount_no_barrier.cu": ("kit-lettercount", "wrong",
                                  "no barrier between zeroing the block's bins, counting and adding them up"),
    "blocksum_ok.cu": ("kit-blocksum", "full", "a correct reduction (the host adds the blocks' sums)"),
    "blocksum_extra_blocks.cu": ("kit-blocksum", "wrong",
                                 "a block per 512 inputs, an output slot per 1024: on the large datasets the "
                                 "extra blocks write past the output (the answer still right)"),
    "clamp_ok.cu": ("kit-clamptolimit", "full", "a correct clamp of whole numbers to a flag's limit"),
    "clamp_off_by_one.cu": ("kit-clamptolimit", "wrong", "n / 128 blocks: the last values are never written"),
}
REMOVED_CALL = "cudaThreadSynchronize"


def line_of_call(path):
    """The line of the program's first call of REMOVED_CALL (not its
    header comment's mention)."""
    return next(i for i, l in enumerate(path.read_text().splitlines(), 1)
                if REMOVED_CALL + "(" in l and not l.lstrip().startswith("//"))


def test_every_student_file_has_a_verdict():
    assert sorted(p.name for p in STUDENTS.glob("*.cu")) == sorted(STUDENT_VERDICTS)
    assert {lab for lab, _, _ in STUDENT_VERDICTS.values()} == set(LABS)


def grade_student(kit_like, name, backend, hide_cuda=False):
    lab = STUDENT_VERDICTS[name][0]
    # With the sanitizer stage: a race that comes out right on a GPU by luck
    # still costs the dataset there (status unsafe), as it should.
    args = [kit_like["root"] / "gpulab", "check", lab, STUDENTS / name, "--backend", backend, "--format", "json"]
    if hide_cuda:
        args = kit.without_cuda(args)
        if args is None:
            pytest.skip("cannot hide this machine's CUDA from the compiler (no mount namespace, or CUDA in "
                        "/usr/include)")
    p = kit.run(args, timeout=900)
    return json.loads(p.stdout)


def assert_verdict(report, name):
    lab, verdict, why = STUDENT_VERDICTS[name]
    statuses = {d["name"]: d["status"] for d in report["datasets"]}
    said = f"{name} ({why}): {statuses}, {report['score']}/{report['max_score']}, {report['build']}"
    if verdict in ("full", "removed"):
        assert report["score"] == report["max_score"], said
    else:
        assert report["build"]["ok"] and "compile_error" not in statuses.values(), said
        assert report["score"] < report["max_score"], said
        assert set(statuses.values()) - {"pass"}, said
    if verdict == "removed":
        path = STUDENTS / name
        line = line_of_call(path)
        assert report["build"]["message"] == (f"{path}:{line}: {REMOVED_CALL}() was removed in CUDA 13; it ran "
                                               "as cudaDeviceSynchronize(): use that"), said
    else:
        assert report["build"]["message"] is None, said


@pytest.mark.parametrize("name", sorted(STUDENT_VERDICTS))
def test_a_students_file_gets_its_verdict(backend, kit_like, name):
    assert_verdict(grade_student(kit_like, name, backend), name)


@pytest.mark.parametrize("name", sorted(STUDENT_VERDICTS))
def test_a_students_file_gets_its_verdict_without_cuda(kit_like, name):
    """The same on a machine without CUDA (a laptop, Gradescope)."""
    assert_verdict(grade_student(kit_like, name, "emu", hide_cuda=True), name)


def test_the_text_report_has_the_removed_calls_note(kit_like):
    name = "matprod_tiled_old_api.cu"
    path = STUDENTS / name
    line = line_of_call(path)
    p = kit.run([kit_like["root"] / "gpulab", "check", "kit-matrixproduct", path, "--backend", "emu",
                 "--no-sanitize"])
    assert p.returncode == 0, p.stdout + p.stderr
    assert (f"  note: {path}:{line}: cudaThreadSynchronize() was removed in CUDA 13; it ran as "
            "cudaDeviceSynchronize(): use that\n") in p.stdout, p.stdout


def test_a_kit_lab_takes_the_kits_file_names(kit_like, tmp_path):
    """In an imported Kit lab a student's folder may hold template.cu (the
    lab's file) or solution.cu (the Kit's name for the finished one): both
    are named right; any other single .cu file is misnamed."""
    if kit.sandbox_problem():
        pytest.skip(kit.sandbox_problem())
    cls = tmp_path / "class"
    for student, file_name in (("alice", "template.cu"), ("bob", "solution.cu"), ("carol", "vecsum.cu")):
        (cls / student).mkdir(parents=True)
        shutil.copy(STUDENTS / "vecsum_habits.cu", cls / student / file_name)
    records = tmp_path / "records"
    p = kit.run([kit_like["root"] / "gpulab", "grade", "kit-vectorsum", cls, "--backend", "emu", "--no-sanitize",
                 "--records", records], timeout=1200)
    assert p.returncode == 0, p.stdout + p.stderr
    recs = {}
    for f in records.rglob("*.json"):
        r = json.loads(f.read_text())
        if isinstance(r, dict) and "misnamed" in r:
            recs[r["id"]] = r
    assert {k: v["misnamed"] for k, v in recs.items()} == {"alice": False, "bob": False, "carol": True}, recs
    assert all(r["score"] == r["max_score"] for r in recs.values()), recs


# ---- The kit ships only its own code ----

def shared_runs(reference, repo):
    return subprocess.run([sys.executable, SHARED_RUNS, reference, repo], capture_output=True, text=True)


def test_shared_runs_finds_a_reindented_copy_and_nothing_shorter(tmp_path):
    """The checker itself: a file of the repository copied with other
    indentation and blank lines is found; 11 lines of it are not."""
    mine = (STUDENTS / "blocksum_ok.cu").read_text().splitlines()
    body = [l for l in mine if l.strip()]
    (tmp_path / "ref").mkdir()
    (tmp_path / "ref" / "copy.cu").write_text("\n\n".join("\t" + " ".join(l.split()) for l in body[5:25]) + "\n")
    (tmp_path / "ref" / "short.cu").write_text("\n".join(body[30:41]) + "\n")
    p = shared_runs(tmp_path / "ref", kit.ROOT)
    assert p.returncode == 1, p.stdout + p.stderr
    found = [l for l in p.stdout.splitlines() if " = " in l]
    assert found and all(l.endswith("copy.cu:1") or "copy.cu:" in l for l in found), p.stdout
    assert any("programs/wb/kit_era/blocksum_ok.cu" in l for l in found), p.stdout
    assert not any("short.cu" in l for l in found), p.stdout


def test_no_repository_file_shares_a_run_with_the_reference():
    """GPULAB_KIT_REFERENCE=FOLDER (the public Kit's labs and the students'
    files it held, kept outside the repository): no file of the repository
    shares a run of 12 lines with them."""
    reference = os.environ.get("GPULAB_KIT_REFERENCE")
    if not reference:
        pytest.skip("GPULAB_KIT_REFERENCE (a folder of the real Kit's files) is not set")
    p = shared_runs(reference, kit.ROOT)
    assert p.returncode == 0 and p.stdout.splitlines()[-1].startswith("0 runs of 12 lines"), p.stdout
