"""gpulab grade for a class: some 60 submissions (solutions, skeletons,
failing programs, the whole attack suite, a folder without the file) with
--jobs 2, killed halfway and run again (nothing lost, nothing graded
twice); hidden datasets from a seed or a secret."""
import json
import os
import shutil
import signal
import subprocess
import time

import pytest

import kit
from schemas import validate
from test_attacks import ATTACKS, Listener, place_attacks, processes_with

LAB = "01-basic-matmul"
SOLUTION = kit.ROOT / "solutions" / LAB / "basic_matmul.cu"
SKELETON = kit.ROOT / "skeletons" / LAB / "basic_matmul.cu"
PROGRAMS = kit.ROOT / "grader" / "tests" / "programs" / LAB
NDATASETS = len([d for d in kit.manifest(LAB)["datasets"] if not d.get("on_demand")])
COMMON = ["--backend", "emu", "--jobs", "2", "--timeout", "2", "--no-sanitize"]
SOLUTIONS_IN_CLASS = 4


def need_emu():
    problem = kit.emu_problem()
    if problem and (kit.ROOT / "grader" / "emu" / "emu.mk").exists():
        pytest.fail(problem)
    if problem:
        pytest.skip(problem)


def grade(*args, **kw):
    return kit.gpulab("grade", LAB, *args, **kw)


def records_of(folder):
    return {r.stem: json.loads(r.read_text()) for r in sorted(folder.glob("*.json"))}


@pytest.fixture(scope="module")
def class_of_40(tmp_path_factory):
    need_emu()
    if kit.sandbox_problem():
        pytest.skip(kit.sandbox_problem())
    tmp = tmp_path_factory.mktemp("batch")
    subs = tmp / "class"
    subs.mkdir()
    expected = {}
    # a few right answers among the rest: each is graded as the others are,
    # so more of them would only cost time (there were 12)
    for i in range(SOLUTIONS_IN_CLASS):
        (subs / f"sol{i:02d}").mkdir()
        shutil.copy(SOLUTION, subs / f"sol{i:02d}" / "basic_matmul.cu")
        expected[f"sol{i:02d}"] = NDATASETS
    for i in range(3):
        (subs / f"skel{i}").mkdir()
        shutil.copy(SKELETON, subs / f"skel{i}" / "basic_matmul.cu")
        expected[f"skel{i}"] = 0
    programs = sorted(PROGRAMS.glob("*.cu"))
    # the failing programs' own scores, graded alone: the batch must agree
    alone = tmp / "alone"
    alone.mkdir()
    for f in programs:
        shutil.copy(f, alone / f.name)
    p = grade(alone, *COMMON, "--records", tmp / "alone-records", "--format", "json")
    assert p.returncode == 0, p.stderr
    for name, rec in records_of(tmp / "alone-records").items():
        shutil.copy(PROGRAMS / f"{name}.cu", subs / f"{name}.cu")
        expected[name] = rec["score"]
    listener = Listener()
    secret = tmp / "secret.txt"
    secret.write_text("gpulab-batch-secret\n")
    secret.chmod(0o600)
    for name, want in place_attacks(subs, tmp / "records", listener.port, "gpulab-batch-mark", secret).items():
        expected[name] = NDATASETS if want == "full" else 0
    (subs / "zoe").mkdir()  # handed in nothing
    (subs / "zoe" / "README").write_text("sorry\n")
    expected["zoe"] = 0
    n = len(expected)
    assert n == SOLUTIONS_IN_CLASS + 3 + len(programs) + len(list(ATTACKS.glob("*.cu"))) + 1
    assert n >= 38, n
    yield {"tmp": tmp, "subs": subs, "expected": expected, "listener": listener}
    listener.close()


def test_40_submissions_killed_halfway_then_resumed(class_of_40):
    tmp, subs, expected = class_of_40["tmp"], class_of_40["subs"], class_of_40["expected"]
    records = tmp / "records"
    out = tmp / "first.txt"
    env = dict(os.environ, NO_COLOR="1")
    t0 = time.monotonic()
    with open(out, "w") as fh:
        proc = subprocess.Popen([str(kit.GPULAB), "grade", LAB, str(subs), *COMMON, "--records", str(records)],
                                stdout=fh, stderr=subprocess.STDOUT, env=env)
        half = len(expected) // 2
        while proc.poll() is None and len(list(records.glob("*.json"))) < half:
            time.sleep(0.05)
            assert time.monotonic() - t0 < 600
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    before = {r.name: r.read_bytes() for r in records.glob("*.json")}
    assert half <= len(before) < len(expected), len(before)

    p = grade(subs, *COMMON, "--records", records, "--csv", tmp / "grades.csv", "--junit", tmp / "junit.xml",
              "--format", "json", "--out", tmp / "grades.json", timeout=900)
    assert p.returncode == 0, p.stderr
    summary = p.stderr.strip().splitlines()[-1]
    assert f"{len(expected) - len(before)} graded, {len(before)} already graded" in summary, summary
    for name, data in before.items():  # nothing graded twice: the records are the same bytes
        assert (records / name).read_bytes() == data, name

    recs = records_of(records)
    assert set(recs) == set(expected), set(recs) ^ set(expected)
    for name, rec in recs.items():
        validate.check_json(rec, "record.schema.json")
        assert rec["score"] == expected[name], (name, [(d["name"], d["status"]) for d in rec["datasets"]])
    doc = json.loads((tmp / "grades.json").read_text())
    assert len(doc["submissions"]) == len(expected)
    rows = validate.check_csv((tmp / "grades.csv").read_bytes().decode())
    assert {r["id"]: float(r["total"]) for r in rows} == {k: float(v) for k, v in expected.items()}
    validate.check_junit((tmp / "junit.xml").read_text())
    assert not processes_with("gpulab-batch-mark")
    assert class_of_40["listener"].connections == []

    # a third run grades nothing
    p = grade(subs, *COMMON, "--records", records, "--format", "json", "--out", tmp / "again.json")
    assert p.returncode == 0 and f"0 graded, {len(expected)} already graded" in p.stderr, p.stderr


HARDCODED = r'''
// Copies the public expected output: a program with the answers built in
// (and a kernel that does nothing, launched so that a kernel ran).
#include "lab.h"
#include <stdio.h>
#include <string.h>
__global__ void Nothing(void) {}
void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N;
    Nothing<<<1, 1>>>();
    cudaDeviceSynchronize();
    char path[4096], line[256];
    snprintf(path, sizeof path, "%s/datasets/01-basic-matmul/width-%04d/expected.tensor", "@KIT@", width);
    FILE *f = fopen(path, "rb");
    if (!f) return;
    while (fgets(line, sizeof line, f) && strcmp(line, "data\n") != 0) ;
    for (int i = 0; i < width * width; i++) {
        double v[2];
        if (fread(v, sizeof(double), 2, f) != 2) break;
        P[i] = (float)v[0];
    }
    fclose(f);
}
'''


def test_hidden_datasets_from_a_seed(tmp_path):
    need_emu()
    subs = tmp_path / "class"
    (subs / "honest").mkdir(parents=True)
    shutil.copy(SOLUTION, subs / "honest" / "basic_matmul.cu")
    (subs / "cheat").mkdir()
    (subs / "cheat" / "basic_matmul.cu").write_text(HARDCODED.replace("@KIT@", str(kit.ROOT)))
    # without the sandbox (so the kit is readable) the built-in answers work on the public datasets ...
    p = grade(subs, *COMMON, "--sandbox", "none", "--records", tmp_path / "public")
    assert p.returncode == 0, p.stderr
    public = records_of(tmp_path / "public")
    assert public["cheat"]["score"] == NDATASETS and public["cheat"]["sandbox"].startswith("none (")
    # ... and fail on datasets regenerated from another seed
    p = grade(subs, *COMMON, "--sandbox", "none", "--seed", "4242", "--records", tmp_path / "hidden")
    assert p.returncode == 0, p.stderr
    hidden = records_of(tmp_path / "hidden")
    assert hidden["honest"]["score"] == NDATASETS
    assert hidden["cheat"]["score"] < 2  # width 1 may still match by chance: it is one number
    for rec in hidden.values():
        validate.check_json(rec, "record.schema.json")
        assert rec["seed"] == "4242" and rec["seed_from"] == "seed" and rec["hidden_datasets"] is True
        assert all(d["hidden"] for d in rec["datasets"])
        assert rec["datasets_sha256"] != public["honest"]["datasets_sha256"]
    # the same seed makes the same datasets: a regrade reproduces them
    p = grade(subs, *COMMON, "--sandbox", "none", "--seed", "4242", "--records", tmp_path / "hidden2")
    again = records_of(tmp_path / "hidden2")
    assert again["honest"]["datasets_sha256"] == hidden["honest"]["datasets_sha256"]


def test_hidden_datasets_from_a_secret(tmp_path):
    need_emu()
    subs = tmp_path / "class"
    for name in ("ann", "ben"):
        (subs / name).mkdir(parents=True)
        shutil.copy(SOLUTION, subs / name / "basic_matmul.cu")
    secret = tmp_path / "secret"
    secret.write_text("correct horse battery staple\n")
    p = grade(subs, *COMMON, "--dataset", "width-0017", "--secret-file", secret, "--records", tmp_path / "r")
    assert p.returncode == 0, p.stderr
    recs = records_of(tmp_path / "r")
    assert recs["ann"]["seed"] != recs["ben"]["seed"], "each submission gets its own datasets"
    assert all(r["seed_from"] == "secret" and r["score"] == 1 for r in recs.values())
    assert "correct horse" not in json.dumps(recs), "the secret never goes into a record"
    p = grade(subs, *COMMON, "--dataset", "width-0017", "--secret-file", secret, "--records", tmp_path / "r2")
    assert {n: r["seed"] for n, r in records_of(tmp_path / "r2").items()} == {n: r["seed"] for n, r in recs.items()}


def test_a_changed_submission_is_graded_again(tmp_path):
    need_emu()
    subs = tmp_path / "class"
    (subs / "amy").mkdir(parents=True)
    shutil.copy(SKELETON, subs / "amy" / "basic_matmul.cu")
    args = (*COMMON, "--dataset", "width-0017", "--records", tmp_path / "r")
    assert grade(subs, *args).returncode == 0
    assert records_of(tmp_path / "r")["amy"]["score"] == 0
    shutil.copy(SOLUTION, subs / "amy" / "basic_matmul.cu")  # a late fix: new bytes, new grade
    p = grade(subs, *args)
    assert p.returncode == 0 and "1 graded, 0 already graded" in p.stdout, p.stdout
    assert records_of(tmp_path / "r")["amy"]["score"] == 1


@pytest.mark.gpu
# alone on the GPU: beside other GPU tests a flood of output or a gigabyte of
# writes ran past a 6 s limit once in a while on an H100 (a timeout where
# the emulator crashed, 7/8 where it gave 8/8), and on 2026-11-24 fill_disk
# did so once alone too (every dataset a timeout, the score 0 as on the
# emulator): hence 12 s
@pytest.mark.gpu_exclusive
def test_40_submissions_on_the_gpu_match_the_emulator(class_of_40):
    """The same class graded on the GPU: every submission's score and every
    dataset's status as on the emulator (the attack suite included)."""
    tmp, subs, expected = class_of_40["tmp"], class_of_40["subs"], class_of_40["expected"]
    runs = {}
    # a 12 s limit, not 2: a gigabyte written to the run's tmpfs is not a
    # time the machine promises, and a submission whose datasets time out
    # twice loses the rest (grade.c)
    common = [f if f != "2" else "12" for f in COMMON]
    assert common != COMMON
    for backend in ("emu", "gpu"):
        flags = [f if f != "emu" else backend for f in common]
        records = tmp / f"records-{backend}"
        p = grade(subs, *flags, "--records", records, timeout=1800)
        assert p.returncode == 0, p.stderr
        runs[backend] = {name: ([d["status"] for d in rec["datasets"]], rec["score"])
                         for name, rec in records_of(records).items()}
    assert set(runs["gpu"]) == set(runs["emu"]) == set(expected)
    scores = {name: runs["gpu"][name][1] for name in expected}
    wrong = {name: (scores[name], expected[name], runs["gpu"][name][0], runs["emu"][name][0])
             for name in expected if float(scores[name]) != float(expected[name])}
    assert not wrong, f"(gpu score, expected, gpu statuses, emu statuses): {wrong}"
    differ = {name: (runs["emu"][name][0], runs["gpu"][name][0]) for name in expected
              if same_failures(name, runs["emu"][name][0]) != same_failures(name, runs["gpu"][name][0])}
    assert not differ, differ


def same_failures(name, statuses):
    """fill_disk writes until the run's disk is full: whether a dataset
    first crashes on the full disk or first runs out of time is a race
    between the disk and the clock, on either backend (seen on 2026-11-24:
    5 crashes then a timeout on the emulator where the GPU crashed every
    time; both score 0). For it the two count as one failure.

    incbin_token's .incbin finds no marked copy on the emulator (emucc pipes
    it to the compiler: compile_error), while on a GPU it finds the copy
    nvcc compiles, whose token is a decoy: the token it prints is not the
    kernel's (requirement_failed). Either way no kernel of its counted."""
    if name == "incbin_token":
        return ["no_kernel_token" if s in ("compile_error", "requirement_failed") else s for s in statuses]
    if name != "fill_disk":
        return statuses
    return ["exhausted" if s in ("crash", "timeout") else s for s in statuses]


ENDLESS = (PROGRAMS / "spin_when_width_1.cu").read_text().replace("if (Width == 1) {", "if (Width > 0) {")


def test_an_endless_loop_everywhere_costs_two_timeouts_and_no_more(tmp_path):
    """A kernel that never ends on any dataset: two timeouts of the whole
    limit (each dataset first in its series), then the rest not run. On the
    emulator a limit is work (twice the limit in processor time,
    docs/emulator.md), so what a timeout costs on the clock depends on the
    share of the processors the run gets: about twice the limit for a loop
    in one block on an idle machine, more while the machine is busy, and
    never more than the backstop of 10 times the limit. The grader's cost,
    the record's grading time, is at most two such timeouts more than that
    of the solution graded in the same batch (build and runs): the other
    datasets are not run."""
    need_emu()
    assert ENDLESS != (PROGRAMS / "spin_when_width_1.cu").read_text()
    subs = tmp_path / "class"
    (subs / "loop").mkdir(parents=True)
    (subs / "loop" / "basic_matmul.cu").write_text(ENDLESS)
    (subs / "sol").mkdir()
    shutil.copy(SOLUTION, subs / "sol" / "basic_matmul.cu")
    timeout = 2
    p = grade(subs, "--backend", "emu", "--jobs", "1", "--timeout", str(timeout), "--no-sanitize",
              "--records", tmp_path / "records")
    assert p.returncode == 0, p.stderr
    recs = records_of(tmp_path / "records")
    loop, sol = recs["loop"], recs["sol"]
    st = [d["status"] for d in loop["datasets"]]
    assert st == ["timeout"] * NDATASETS, st
    assert [d["message"].startswith("not run") for d in loop["datasets"]] == [False] * 2 + [True] * (NDATASETS - 2)
    # the emulator says where the kernel was when the time ran out: the loop's line
    spin = next(i for i, l in enumerate(ENDLESS.splitlines(), 1) if "while (m[0] == m[0])" in l)
    for d in loop["datasets"][:2]:
        assert f"of kernel Kernel was still running at line {spin} (`while" in d["message"], d["message"]
    assert sol["score"] == kit.checked_max(sol)
    # each: at most the clock's backstop (process.c, WALL_BACKSTOP), the
    # watch's look (a quarter second) and the moment's grace before the kill
    one_timeout = 10 * timeout + 0.25 + timeout / 10
    assert loop["grading_s"] < sol["grading_s"] + 2 * one_timeout + 1, (loop["grading_s"], sol["grading_s"])
    # and the datasets after the two timeouts cost nothing: not one ran
    assert all(d.get("wall_s", 0) == 0 for d in loop["datasets"][2:]), [d.get("wall_s") for d in loop["datasets"]]


def small_class(root):
    subs = root / "class"
    for name, src in (("a", SOLUTION), ("b", SKELETON), ("c", PROGRAMS / "wrong_index.cu"),
                      ("d", kit.ROOT / "grader" / "tests" / "attacks" / LAB / "host_only.cu"),
                      ("f", SOLUTION)):
        (subs / name).mkdir(parents=True)
        shutil.copy(src, subs / name / "basic_matmul.cu")
    (subs / "e").mkdir()  # no file: a record all the same
    return subs


def comparable(rec):
    return (rec["score"], rec["seed"], rec["datasets_sha256"],
            [(d["name"], d["status"], d["score"]) for d in rec["datasets"]])


@pytest.mark.parametrize("hidden", [[], ["--secret", "k1"]])
def test_parallel_grading_gives_the_same_records_and_report(tmp_path, hidden):
    """--parallel 3: each submission built and graded in a worker of its own;
    the records (with per-submission hidden datasets too) and the text
    report, in the entries' order, are those of one at a time."""
    need_emu()
    if kit.sandbox_problem():
        pytest.skip(kit.sandbox_problem())
    subs = small_class(tmp_path)
    out = {}
    for k in ("1", "3"):
        p = grade(subs, *COMMON, *hidden, "--parallel", k, "--records", tmp_path / f"r{k}")
        assert p.returncode == 0, p.stderr
        out[k] = p
    r1, r3 = records_of(tmp_path / "r1"), records_of(tmp_path / "r3")
    assert sorted(r1) == sorted(r3) == ["a", "b", "c", "d", "e", "f"]
    assert {k: comparable(v) for k, v in r1.items()} == {k: comparable(v) for k, v in r3.items()}
    assert r3["a"]["score"] == NDATASETS and r3["d"]["score"] == 0
    # the same report, in the same order, but for the timings
    def text(p):
        return [line for line in p.stdout.splitlines() if " ms" not in line and " s " not in line]
    assert text(out["1"]) == text(out["3"])


@pytest.mark.gpu
def test_parallel_grading_spreads_over_the_gpus(tmp_path):
    """On a GPU the default is several submissions per GPU, spread over every
    GPU the runs may use: each record names its GPU."""
    subs = small_class(tmp_path)
    for i in range(6):
        (subs / f"s{i}").mkdir()
        shutil.copy(SOLUTION, subs / f"s{i}" / "basic_matmul.cu")
    p = grade(subs, "--backend", "gpu", "--no-sanitize", "--records", tmp_path / "r", timeout=900)
    assert p.returncode == 0, p.stderr
    recs = records_of(tmp_path / "r")
    assert all(recs[f"s{i}"]["score"] == NDATASETS for i in range(6))
    used = {r["gpu"] for r in recs.values() if r["datasets"][0]["status"] != "compile_error"}
    smi = subprocess.run(["nvidia-smi", "--query-gpu=index", "--format=csv,noheader"], capture_output=True,
                         text=True).stdout.split()
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    want = set(visible.split(",")) if visible else set(smi)
    assert used == want, (used, want)
