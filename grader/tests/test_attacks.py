"""The attack suite: malicious lab-01 submissions (grader/tests/attacks/)
graded in one batch with honest ones. None earns more than its honest output
earns, the grader survives, the kit and the other records are untouched, no
process outlives the batch, and the honest submissions are graded exactly as
without the attackers."""
import hashlib
import json
import os
import re
import shutil
import socket
import threading
import uuid
from pathlib import Path

import pytest

import kit
from schemas import validate

LAB = "01-basic-matmul"
ATTACKS = kit.ROOT / "grader" / "tests" / "attacks" / LAB
SOLUTION = kit.ROOT / "solutions" / LAB / "basic_matmul.cu"
SKELETON = kit.ROOT / "skeletons" / LAB / "basic_matmul.cu"
PROGRAMS = kit.ROOT / "grader" / "tests" / "programs" / LAB
DATASET = "width-0017"


def expectation(src):
    m = re.search(r"^// expect: (full|zero)$", src, re.M)
    assert m, "an attack says what it must score"
    return m.group(1)


def place_attacks(dest, records, port, mark):
    """Copies every attack into dest/<name>/basic_matmul.cu with its
    placeholders filled in; returns {name: "full" | "zero"}."""
    out = {}
    for f in sorted(ATTACKS.glob("*.cu")):
        src = f.read_text()
        out[f.stem] = expectation(src)
        src = (src.replace("@KIT@", str(kit.ROOT)).replace("@RECORDS@", str(records))
               .replace("@PORT@", str(port)).replace("@MARK@", mark))
        (dest / f.stem).mkdir(parents=True)
        (dest / f.stem / "basic_matmul.cu").write_text(src)
    return out


def place_honest(dest):
    for name, src in (("alice", SOLUTION), ("bob", SKELETON), ("dave", PROGRAMS / "wrong_index.cu"),
                      ("frank", PROGRAMS / "oob_write.cu")):
        (dest / name).mkdir(parents=True)
        shutil.copy(src, dest / name / "basic_matmul.cu")
    return ["alice", "bob", "dave", "frank"]


def tree_hash(root):
    h = hashlib.sha256()
    for f in sorted(Path(root).rglob("*")):
        if f.is_file():
            h.update(str(f).encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def processes_with(mark):
    found = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if mark.encode() in (d / "cmdline").read_bytes():
                    found.append(d.name)
            except OSError:
                pass
    return found


class Listener:
    """A TCP port on 127.0.0.1 that records whether anyone connected."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = []
        self.stop = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while not self.stop:
            try:
                c, _ = self.sock.accept()
                self.connections.append(c.recv(100))
                c.close()
            except OSError:
                pass

    def close(self):
        self.stop = True
        self.thread.join()
        self.sock.close()


def statuses(records_dir, names):
    out = {}
    for n in names:
        rec = json.loads((records_dir / f"{n}.json").read_text())
        out[n] = [(d["name"], d["status"], d["score"]) for d in rec["datasets"]]
    return out


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root here; without it these attacks can reach the kit")
    problem = kit.emu_problem()
    if problem:
        pytest.fail(problem) if (kit.ROOT / "grader" / "emu" / "emu.mk").exists() else pytest.skip(problem)
    tmp = tmp_path_factory.mktemp("attacks")
    mark = "gpulab-attack-" + uuid.uuid4().hex[:12]
    listener = Listener()
    common = ["--backend", "emu", "--jobs", "2", "--timeout", "3", "--dataset", DATASET]

    honest_only = tmp / "honest"
    names = place_honest(honest_only)
    p = kit.gpulab("grade", LAB, honest_only, *common, "--records", tmp / "baseline", "--format", "json")
    assert p.returncode == 0, p.stderr
    baseline = statuses(tmp / "baseline", names)

    mixed = tmp / "class"
    place_honest(mixed)
    records = tmp / "records"
    expect = place_attacks(mixed, records, listener.port, mark)
    kit_before = tree_hash(kit.ROOT / "datasets" / LAB)
    p = kit.gpulab("grade", LAB, mixed, *common, "--records", records, "--csv", tmp / "grades.csv",
                   timeout=900)
    listener.close()
    yield {"tmp": tmp, "p": p, "records": records, "names": names, "baseline": baseline, "expect": expect,
           "kit_before": kit_before, "mark": mark, "listener": listener}
    for pid in processes_with(mark):  # never leave one behind, even when a test failed
        try:
            os.kill(int(pid), 9)
        except OSError:
            pass


def test_grader_survives_and_grades_everyone(batch):
    p = batch["p"]
    assert p.returncode == 0, p.stderr[-3000:]
    recs = sorted(r.stem for r in batch["records"].glob("*.json"))
    assert recs == sorted(batch["names"] + list(batch["expect"]))
    for r in batch["records"].glob("*.json"):
        rec = json.loads(r.read_text())
        validate.check_json(rec, "record.schema.json")
        assert rec["id"] == r.stem, "a record was overwritten by a submission"
        assert rec["sandbox"] == "unshare", rec["sandbox"]


@pytest.mark.parametrize("attack", sorted(p.stem for p in ATTACKS.glob("*.cu")))
def test_attack_earns_nothing_beyond_its_honest_output(batch, attack):
    rec = json.loads((batch["records"] / f"{attack}.json").read_text())
    want = rec["max_score"] if batch["expect"][attack] == "full" else 0
    assert rec["score"] == want, (attack, rec["datasets"][0]["status"], rec["datasets"][0]["message"],
                                  rec["datasets"][0]["stderr"][:500])


def test_honest_submissions_are_graded_as_without_the_attacks(batch):
    assert statuses(batch["records"], batch["names"]) == batch["baseline"]


def test_kit_and_machine_untouched(batch):
    assert tree_hash(kit.ROOT / "datasets" / LAB) == batch["kit_before"], "the kit's datasets changed"
    assert not processes_with(batch["mark"]), "a submission's process outlived the batch"
    assert batch["listener"].connections == [], "a submission reached the network"
    for leftover in ("/tmp/gpulab-attack-cache", "/dev/shm/gpulab-attack-cache", "/var/tmp/gpulab-attack-cache",
                     kit.ROOT / "gpulab-attack-cache", "/tmp/results.json", kit.ROOT / "grades.json"):
        assert not Path(leftover).exists(), f"a submission wrote {leftover}"
    forged = batch["records"] / "write_results.json"
    assert json.loads(forged.read_text())["id"] == "write_results"


def test_the_flood_is_capped(batch):
    rec = json.loads((batch["records"] / "flood_stdout.json").read_text())
    assert len(rec["datasets"][0]["stdout"]) <= 64 * 1024 + 1024
