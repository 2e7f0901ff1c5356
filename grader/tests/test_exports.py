"""gpulab grade's exports: the records, --format json, the CSV gradebook,
JUnit XML, Gradescope's results.json and autograder zip, each checked against
its schema in grader/tests/schemas/ (docs/formats.md documents them)."""
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

import kit
from schemas import validate

LAB = "01-basic-matmul"
SOLUTION = kit.ROOT / "solutions" / LAB / "basic_matmul.cu"
SKELETON = kit.ROOT / "skeletons" / LAB / "basic_matmul.cu"
PROGRAMS = kit.ROOT / "grader" / "tests" / "programs" / LAB
NDATASETS = len([d for d in kit.manifest(LAB)["datasets"] if not d.get("on_demand")])
NREQUIREMENTS = len(kit.manifest(LAB).get("requirements", []))
FULL_MARKS = kit.max_score(LAB)  # grade runs the checkers: no_hazards counts


def emu_or_skip():
    problem = kit.emu_problem()
    if problem and (kit.ROOT / "grader" / "emu" / "emu.mk").exists():
        pytest.fail(problem)
    if problem:
        pytest.skip(problem)


def small_class(root):
    """alice (the solution), bob (the skeleton), dave.cu (a lone file), and
    erin's folder without the lab's file."""
    for name, src in (("alice", SOLUTION), ("bob", SKELETON)):
        (root / name).mkdir(parents=True)
        shutil.copy(src, root / name / "basic_matmul.cu")
    shutil.copy(PROGRAMS / "wrong_index.cu", root / "dave.cu")
    (root / "erin").mkdir()
    (root / "erin" / "notes.txt").write_text("I ran out of time\n")
    return root


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    emu_or_skip()
    tmp = tmp_path_factory.mktemp("exports")
    subs = small_class(tmp / "class")
    p = kit.gpulab("grade", LAB, subs, "--backend", "emu", "--jobs", "2", "--records", tmp / "records",
                   "--format", "json", "--out", tmp / "grades.json", "--csv", tmp / "grades.csv",
                   "--junit", tmp / "junit.xml")
    assert p.returncode == 0, p.stderr
    return tmp


def test_records_validate(graded):
    recs = sorted((graded / "records").glob("*.json"))
    assert [r.stem for r in recs] == ["alice", "bob", "dave", "erin"]
    for r in recs:
        validate.check_json(json.loads(r.read_text()), "record.schema.json")
    alice = json.loads((graded / "records" / "alice.json").read_text())
    assert alice["score"] == alice["max_score"] == FULL_MARKS
    assert alice["seed_from"] == "public" and alice["hidden_datasets"] is False
    assert alice["seed"] == str(kit.manifest(LAB)["seed"])
    import hashlib
    assert alice["submission_sha256"] == hashlib.sha256(SOLUTION.read_bytes()).hexdigest()
    erin = json.loads((graded / "records" / "erin.json").read_text())
    assert erin["build"]["ok"] is False and "has no basic_matmul.cu" in erin["build"]["message"]


def test_dataset_hashes_are_the_files(graded):
    """A dataset's sha256 covers its files, names and bytes (docs/formats.md)."""
    import hashlib
    alice = json.loads((graded / "records" / "alice.json").read_text())
    d = alice["datasets"][3]
    folder = kit.ROOT / "datasets" / LAB / d["name"]
    h = hashlib.sha256()
    for f in sorted(folder.iterdir(), key=lambda f: f.name.encode()):
        if f.name.startswith(".") or not f.is_file():
            continue
        data = f.read_bytes()
        h.update(f.name.encode() + b"\0" + str(len(data)).encode() + b"\0" + data)
    assert d["sha256"] == h.hexdigest()


def test_json_report_holds_the_records(graded):
    doc = json.loads((graded / "grades.json").read_text())
    assert doc["lab"] == LAB and doc["backend"] == "emu" and doc["grader_version"]
    assert [s["id"] for s in doc["submissions"]] == ["alice", "bob", "dave", "erin"]
    for s in doc["submissions"]:
        validate.check_json(s, "record.schema.json")


def test_csv_gradebook(graded):
    rows = validate.check_csv((graded / "grades.csv").read_bytes().decode())
    by_id = {r["id"]: r for r in rows}
    assert list(by_id) == ["alice", "bob", "dave", "erin"]
    assert by_id["alice"]["total"] == str(FULL_MARKS) and by_id["alice"]["status"] == "pass"
    assert by_id["bob"]["total"] == "0" and by_id["bob"]["status"] == "fail"
    assert by_id["dave"]["width-0001"] == "1" and by_id["dave"]["width-0017"] == "0"
    assert by_id["erin"]["status"] == "missing"


def test_junit(graded):
    root = validate.check_junit((graded / "junit.xml").read_text())
    suites = {s.attrib["name"]: s for s in root.findall("testsuite")}
    assert set(suites) == {"alice", "bob", "dave", "erin"}
    assert suites["alice"].attrib["failures"] == "0"
    # every dataset, and no_hazards (no dataset passed, so nothing was checked)
    assert suites["bob"].attrib["failures"] == str(NDATASETS + NREQUIREMENTS)


def test_export_command_remakes_the_same_files(graded, tmp_path):
    p = kit.gpulab("export", LAB, graded / "records", "--csv", tmp_path / "again.csv",
                   "--junit", tmp_path / "again.xml")
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "again.csv").read_bytes() == (graded / "grades.csv").read_bytes()
    assert (tmp_path / "again.xml").read_text() == (graded / "junit.xml").read_text()


def test_gradescope_results(tmp_path):
    emu_or_skip()
    sub = tmp_path / "submission"
    sub.mkdir()
    shutil.copy(PROGRAMS / "wrong_index.cu", sub / "basic_matmul.cu")
    out = tmp_path / "results.json"
    p = kit.gpulab("grade", LAB, sub, "--backend", "emu", "--format", "gradescope", "--out", out,
                   "--records", tmp_path / "records", "--seed", "777")
    assert p.returncode == 0, p.stderr
    res = json.loads(out.read_text())
    validate.check_json(res, "gradescope.schema.json")
    assert len(res["tests"]) == NDATASETS + NREQUIREMENTS
    assert res["score"] == sum(t["score"] for t in res["tests"])
    data = [t for t in res["tests"] if t["name"].startswith("hidden dataset")]
    assert len(data) == NDATASETS
    assert all(t["visibility"] == "hidden" for t in data), "regenerated datasets are hidden"
    assert {t["status"] for t in res["tests"]} <= {"passed", "failed"}


def test_points_not_checked_are_not_full_marks_anywhere(tmp_path):
    """The solution graded with --no-sanitize: no_hazards was not checked.
    The record, the gradebook and Gradescope's results keep the full
    maximum, say which points were not checked, and never give them."""
    emu_or_skip()
    hazards = kit.unchecked_points(kit.manifest(LAB))
    out = tmp_path / "results.json"
    p = kit.gpulab("grade", LAB, SOLUTION, "--backend", "emu", "--no-sanitize", "--sandbox", "none",
                   "--format", "gradescope", "--out", out, "--records", tmp_path / "records",
                   "--csv", tmp_path / "book.csv")
    assert p.returncode == 0, p.stderr
    (rec,) = [json.loads(r.read_text()) for r in (tmp_path / "records").glob("*.json")]
    validate.check_json(rec, "record.schema.json")
    assert rec["max_score"] == FULL_MARKS and rec["score"] == FULL_MARKS - hazards > 0
    said = f"{hazards} points not checked: [no_hazards] needs the checkers; run without --no-sanitize"
    assert rec["not_checked"] == {"points": hazards, "message": said}, rec["not_checked"]
    (row,) = validate.check_csv((tmp_path / "book.csv").read_bytes().decode())
    assert (row["total"], row["max"], row["status"]) == (str(FULL_MARKS - hazards), str(FULL_MARKS), "not_checked")
    assert said in row["reason"], row
    res = json.loads(out.read_text())
    validate.check_json(res, "gradescope.schema.json")
    assert res["score"] == FULL_MARKS - hazards == sum(t["score"] for t in res["tests"])
    assert sum(t["max_score"] for t in res["tests"]) == FULL_MARKS
    (nh,) = [t for t in res["tests"] if t["name"] == "requirement no_hazards"]
    assert nh["score"] == 0 and nh["max_score"] == hazards and nh["status"] == "failed", nh
    assert nh["output"].startswith("not_checked: ") and said in res["output"], res["output"]


def test_gradescope_needs_one_submission(tmp_path):
    skeleton = tmp_path / "skeleton" / "basic_matmul.cu"
    skeleton.parent.mkdir()
    skeleton.write_bytes(SKELETON.read_bytes())
    p = kit.gpulab("grade", LAB, SOLUTION, skeleton, "--format", "gradescope", "--records", tmp_path / "r")
    assert p.returncode == 2 and "one submission" in p.stderr


@pytest.mark.parametrize("writer", ["zip-cli", "built-in"])
def test_gradescope_package(tmp_path, writer):
    if writer == "zip-cli" and not shutil.which("zip"):
        pytest.skip("no zip command here")
    env = {"GPULAB_NO_ZIP_CLI": "1"} if writer == "built-in" else {}
    out = tmp_path / "autograder.zip"
    p = kit.gpulab("gradescope-package", LAB, out, "--seed", "2027", env=env)
    assert p.returncode == 0, p.stderr
    with zipfile.ZipFile(out) as z:
        assert z.testzip() is None
        names = set(z.namelist())
        assert {"setup.sh", "run_autograder", "kit/Makefile", "kit/grader/src/main.c",
                f"kit/labs/{LAB}/lab.json"} <= names
        assert not any(n.startswith(("kit/solutions/", "kit/grader/tests/", "kit/docs/instructor/"))
                       for n in names), "the autograder carries no solutions, tests or answer keys"
        run = z.read("run_autograder").decode()
        # the seed in a file of its own, 0600, never in the script's text (a
        # run of the uid mode reads the container's world-readable files)
        assert f"grade {LAB} /autograder/submission" in run and "--seed-file /autograder/source/seed" in run
        assert "2027" not in run and "2027" not in z.read("setup.sh").decode()
        assert z.read("seed") == b"2027" and (z.getinfo("seed").external_attr >> 16) & 0o077 == 0
        assert "/autograder/results/results.json" in run
        mode = z.getinfo("run_autograder").external_attr >> 16
        assert mode & 0o111, "run_autograder must be executable"
    assert out.stat().st_mode & 0o077 == 0, "the package holds the seed: its zip is the instructor's alone"
    if shutil.which("unzip"):
        listing = subprocess.run(["unzip", "-l", str(out)], capture_output=True, text=True)
        assert listing.returncode == 0 and "setup.sh" in listing.stdout


GRADESCOPE_LAB = "02-tiled-matmul"
MEM_ROOT = Path("/sys/fs/cgroup/memory")
CPU_ROOT = Path("/sys/fs/cgroup/cpu")


@pytest.fixture(scope="module")
def gradescope_image(tmp_path_factory):
    """Lab 02's autograder as Gradescope builds its image, once for the
    tests that grade in it: the zip unpacked into source/ and setup.sh run
    (it builds the kit from the zip and makes the lab's datasets). Each test
    grades in a copy of it (image_copy), as each submission runs in a fresh
    container of the one image."""
    if os.geteuid() != 0:
        pytest.skip("the sandbox and the cgroup need root here")
    if not (MEM_ROOT / "memory.limit_in_bytes").exists() or not (CPU_ROOT / "cpu.cfs_quota_us").exists():
        pytest.skip("no cgroup v1 memory and cpu controllers here to stand for Gradescope's container")
    if kit.emu_problem():
        pytest.fail(kit.emu_problem())
    top = tmp_path_factory.mktemp("gradescope-image") / "autograder"
    zip_path = top.parent / "autograder.zip"
    p = kit.gpulab("gradescope-package", GRADESCOPE_LAB, zip_path, "--seed", "2027")
    assert p.returncode == 0, p.stderr
    assert zip_path.stat().st_size < 5 * 1024 * 1024, zip_path.stat().st_size
    with zipfile.ZipFile(zip_path) as z:
        assert not any(n.startswith("kit/datasets/") for n in z.namelist())
        z.extractall(top / "source")
    for f in ("setup.sh", "run_autograder"):
        text = (top / "source" / f).read_text().replace("/autograder", str(top))
        (top / "source" / f).write_text(text)
        (top / "source" / f).chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    p = subprocess.run(["bash", str(top / "source" / "setup.sh")], capture_output=True, text=True, env=env,
                       timeout=900)
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
    return top


def image_copy(image, top):
    """A container of the image at top: a copy of what setup.sh left, its
    run_autograder's paths those of the copy."""
    shutil.copytree(image, top, symlinks=True)
    run = top / "source" / "run_autograder"
    run.write_text(run.read_text().replace(str(image), str(top)))
    return top


@pytest.mark.parametrize("namespaces", ["allowed", "refused"])
def test_gradescope_package_in_gradescopes_default_container(gradescope_image, tmp_path, request, namespaces):
    """Lab 02's autograder, unpacked and set up as Gradescope does, grades a
    submission with a race on hidden datasets inside Gradescope's default
    container limits (0.5 CPU, 768 MB, 10 minutes; a cgroup here): the zip
    is small, the race and its lines are in the visible output, and the
    peak memory of the whole run stays under the limit. Where the container
    refuses namespaces (Docker's default seccomp profile), the submission
    runs as a user of its own (the uid mode), never without isolation."""
    top = image_copy(gradescope_image, tmp_path / "autograder")
    (top / "submission").mkdir()
    shutil.copy(kit.ROOT / "solutions" / GRADESCOPE_LAB / "mutants" / "missing-second-barrier.cu",
                top / "submission" / "tiled_matmul.cu")
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    name = f"gpulab-gradescope-{os.getpid()}"
    mem, cpu = MEM_ROOT / name, CPU_ROOT / name
    try:
        mem.mkdir()
        cpu.mkdir()
        (mem / "memory.limit_in_bytes").write_text(str(768 * 1024 * 1024))
        (cpu / "cpu.cfs_period_us").write_text("100000")
        (cpu / "cpu.cfs_quota_us").write_text("50000")
        wrap = f"{request.getfixturevalue('no_namespaces')} " if namespaces == "refused" else ""
        p = subprocess.run(["sh", "-c", f'echo $$ > {mem}/cgroup.procs && echo $$ > {cpu}/cgroup.procs && '
                            f'exec {wrap}bash {top}/source/run_autograder'], capture_output=True, text=True,
                           env=env, timeout=600)
        peak = int((mem / "memory.max_usage_in_bytes").read_text())
        failcnt = int((mem / "memory.failcnt").read_text())
    finally:
        for d in (mem, cpu):
            try:
                d.rmdir()
            except OSError:
                pass
    assert p.returncode == 0, p.stderr[-3000:]
    res = json.loads((top / "results" / "results.json").read_text())
    assert any(t["visibility"] == "hidden" for t in res["tests"]), "the datasets were hidden"
    assert "race at lines" in res["output"] and "checker (race, line" in res["output"], res["output"]
    records = list((top / "gpulab-records").glob("*.json"))
    assert len(records) == 1
    assert json.loads(records[0].read_text())["sandbox"] == ("unshare" if namespaces == "allowed" else "uid")
    print(f"peak memory {peak / 2**20:.0f} MiB of 768 MiB")
    assert peak < 768 * 1024 * 1024 and failcnt == 0, (peak, failcnt)


def test_gradescope_says_when_a_submission_was_not_isolated(tmp_path):
    """Graded with --sandbox none (by hand), the results say so; the
    package's run_autograder never falls back to it: where grade cannot
    isolate (exit 3), the results say the submission was not graded."""
    out = tmp_path / "results.json"
    p = kit.gpulab("grade", LAB, SOLUTION, "--format", "gradescope", "--sandbox", "none", "--no-sanitize",
                   "--records", tmp_path / "r", "--out", out)
    assert p.returncode == 0, p.stderr
    assert "Graded without isolation" in json.loads(out.read_text())["output"]
    zip_path = tmp_path / "autograder.zip"
    assert kit.gpulab("gradescope-package", LAB, zip_path).returncode == 0
    with zipfile.ZipFile(zip_path) as z:
        run = z.read("run_autograder").decode()
    assert "grade --sandbox auto" in run and "[ $rc -eq 3 ]" in run and "--sandbox none" not in run


def snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_gradescope_refuses_a_class_and_writes_nothing(graded, tmp_path):
    """A class folder given to --format gradescope is refused (exit 2) before
    anything is written: no record of a phantom "submission", no record
    removed by --regrade, no results.json, no gradebook."""
    records = tmp_path / "records"
    shutil.copytree(graded / "records", records)
    before = snapshot(records)
    cls = small_class(tmp_path / "class")
    out, book = tmp_path / "results.json", tmp_path / "book.csv"
    p = kit.gpulab("grade", LAB, cls, "--backend", "emu", "--format", "gradescope", "--out", out, "--csv", book,
                   "--records", records, "--regrade", "alice")
    assert p.returncode == 2, p.stderr
    assert "one submission's results.json" in p.stderr and "nothing was written" in p.stderr, p.stderr
    assert snapshot(records) == before
    assert not out.exists() and not book.exists()
    # and the class's gradebook has no phantom row
    assert kit.gpulab("export", LAB, records, "--csv", book).returncode == 0
    rows = validate.check_csv(book.read_bytes().decode())
    assert [r["id"] for r in rows] == ["alice", "bob", "dave", "erin"]


@pytest.fixture(scope="module")
def lms_class(tmp_path_factory):
    """Two students whose folders are named as an LMS names them."""
    emu_or_skip()
    tmp = tmp_path_factory.mktemp("lms")
    cls = tmp / "class"
    for name in ("s1099 smith", "s1100 jones"):
        (cls / name).mkdir(parents=True)
        shutil.copy(SOLUTION, cls / name / "basic_matmul.cu")
    p = kit.gpulab("grade", LAB, cls, "--backend", "emu", "--records", tmp / "records")
    assert p.returncode == 0, p.stderr
    adj = tmp / "adjustments.csv"
    # as an LMS writes it: its own ids, a quoted comment with a comma, CRLF
    adj.write_bytes(b'id,late_days,points,comment\r\n"s1099 smith",2,1.5,"late, but a fine report"\r\n'
                    b's1100 jones,30,,\r\nnobody,1,,\r\n')
    return {"tmp": tmp, "cls": cls, "records": tmp / "records", "adj": adj}


def test_adjustments_reach_the_final_column(lms_class, tmp_path):
    c = lms_class
    p = kit.gpulab("export", LAB, c["records"], "--csv", tmp_path / "book.csv", "--adjustments", c["adj"],
                   "--late-penalty", "10")
    assert p.returncode == 0, p.stderr
    assert "adjustments.csv:4: no submission has the id nobody" in p.stderr, p.stderr
    rows = {r["id"]: r for r in validate.check_csv((tmp_path / "book.csv").read_bytes().decode())}
    smith, jones = rows["s1099_smith"], rows["s1100_jones"]
    score = float(smith["total"])
    assert score == FULL_MARKS
    assert (smith["late_days"], smith["adjustment"], smith["comment"]) == ("2", "1.5", "late, but a fine report")
    assert float(smith["final"]) == pytest.approx(min(FULL_MARKS, score * 0.8 + 1.5))
    assert smith["status"] == "pass" and "2 late days" in smith["reason"]
    # 30 days at 10% a day: a final of 0 is not a pass, whatever was right
    assert jones["final"] == "0" and jones["status"] == "fail" and "final 0" in jones["reason"], jones
    # the records themselves are the grader's: no adjustment is written into them
    for r in c["records"].glob("*.json"):
        assert "final" not in json.loads(r.read_text())
    # without adjustments, the final is the score
    assert kit.gpulab("export", LAB, c["records"], "--csv", tmp_path / "plain.csv").returncode == 0
    plain = {r["id"]: r for r in validate.check_csv((tmp_path / "plain.csv").read_bytes().decode())}
    assert plain["s1100_jones"]["final"] == plain["s1100_jones"]["total"] and plain["s1100_jones"]["status"] == "pass"


def test_a_regrade_keeps_the_adjustments_and_gradescope_shows_them(lms_class, tmp_path):
    c = lms_class
    p = kit.gpulab("grade", LAB, c["cls"], "--backend", "emu", "--records", c["records"], "--regrade",
                   "s1099_smith", "--csv", tmp_path / "book.csv", "--adjustments", c["adj"], "--late-penalty", "10")
    assert p.returncode == 0, p.stderr
    rows = {r["id"]: r for r in validate.check_csv((tmp_path / "book.csv").read_bytes().decode())}
    assert float(rows["s1099_smith"]["final"]) == pytest.approx(FULL_MARKS * 0.8 + 1.5)
    out = tmp_path / "results.json"
    p = kit.gpulab("grade", LAB, c["cls"] / "s1099 smith", "--backend", "emu", "--records", c["records"],
                   "--format", "gradescope", "--out", out, "--adjustments", c["adj"], "--late-penalty", "10")
    assert p.returncode == 0, p.stderr
    res = json.loads(out.read_text())
    validate.check_json(res, "gradescope.schema.json")
    assert res["score"] == pytest.approx(FULL_MARKS * 0.8 + 1.5)
    assert "2 late days" in res["output"] and "late, but a fine report" in res["output"], res["output"]


@pytest.mark.parametrize("text, said", [
    ("id,days\nalice,1\n", "bad.csv:1: column \"days\""),
    ("late_days\n1\n", "bad.csv:1: no id column"),
    ("id,late_days\nalice,two\n", "bad.csv:2: late_days \"two\""),
    ("id,points\nalice,1\nalice,2\n", "bad.csv:3: alice again (line 2"),
    ("id,comment\nalice,\"never closed\n", "bad.csv:2: a quoted field is not closed"),
])
def test_adjustments_that_cannot_be_read_say_where(graded, tmp_path, text, said):
    bad = tmp_path / "bad.csv"
    bad.write_text(text)
    p = kit.gpulab("export", LAB, graded / "records", "--csv", tmp_path / "book.csv", "--adjustments", bad)
    assert p.returncode == 2 and said in p.stderr, p.stderr
    assert not (tmp_path / "book.csv").exists()


def test_a_labs_own_late_penalty(lms_class, tmp_path):
    """lab.json's late_penalty is the lab's rule; --late-penalty overrides it."""
    home = tmp_path / "kit"
    shutil.copytree(kit.ROOT / "labs", home / "labs")
    (home / "grader").mkdir()
    man = home / "labs" / LAB / "lab.json"
    doc = json.loads(man.read_text())
    doc["late_penalty"] = 25
    man.write_text(json.dumps(doc, indent=2))
    env = {"GPULAB_HOME": str(home)}
    finals = {}
    for extra in ([], ["--late-penalty", "40"]):
        book = tmp_path / f"book{len(extra)}.csv"
        p = kit.gpulab("export", LAB, lms_class["records"], "--csv", book, "--adjustments", lms_class["adj"], *extra,
                       env=env)
        assert p.returncode == 0, p.stderr
        rows = {r["id"]: r for r in validate.check_csv(book.read_bytes().decode())}
        finals[len(extra)] = float(rows["s1099_smith"]["final"])
    assert finals[0] == pytest.approx(FULL_MARKS * 0.5 + 1.5)  # 2 days at the lab's 25%
    assert finals[2] == pytest.approx(FULL_MARKS * 0.2 + 1.5)  # 2 days at 40%
