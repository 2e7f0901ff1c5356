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
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
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


def expectation(src, mode=None):
    """What an attack must score: its `// expect:` line, or in the given
    sandbox mode its `// expect-MODE:` line where it has one."""
    m = mode and re.search(rf"^// expect-{mode}: (full|zero)\b", src, re.M)
    m = m or re.search(r"^// expect: (full|zero)$", src, re.M)
    assert m, "an attack says what it must score"
    return m.group(1)


def place_attacks(dest, records, port, mark, secret, kit_root=kit.ROOT, mode=None):
    """Copies every attack into dest/<name>/basic_matmul.cu with its
    placeholders filled in; returns {name: "full" | "zero"} (as graded in
    the sandbox mode given)."""
    out = {}
    for f in sorted(ATTACKS.glob("*.cu")):
        src = f.read_text()
        out[f.stem] = expectation(src, mode)
        src = (src.replace("@KIT@", str(kit_root)).replace("@RECORDS@", str(records))
               .replace("@PORT@", str(port)).replace("@MARK@", mark).replace("@SECRET@", str(secret)))
        (dest / f.stem).mkdir(parents=True)
        (dest / f.stem / "basic_matmul.cu").write_text(src)
    return out


# Attacks by what a submission is rather than what it does: an id a
# spreadsheet would take for a formula (the solution, under that name),
# and a 3 GB sparse source file.
FORMULA_ID = "-1-1"
SPARSE_SOURCE_BYTES = 3 << 30


def place_by_name(dest):
    (dest / FORMULA_ID).mkdir(parents=True)
    shutil.copy(SOLUTION, dest / FORMULA_ID / "basic_matmul.cu")
    (dest / "sparse_source").mkdir(parents=True)
    with open(dest / "sparse_source" / "basic_matmul.cu", "wb") as f:
        f.truncate(SPARSE_SOURCE_BYTES)
    return {FORMULA_ID: "full", "sparse_source": "zero"}


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


def add_session_key(description, payload):
    """Adds a "user" key to this process's session keyring (which the
    grader inherits); returns its id, or None where keys are not to be had."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    sys_add_key = {"x86_64": 248, "aarch64": 217}.get(os.uname().machine)
    if sys_add_key is None:
        return None
    data = payload.encode()
    k = libc.syscall(ctypes.c_long(sys_add_key), b"user", description.encode(), data, ctypes.c_size_t(len(data)),
                     ctypes.c_long(-3))
    return k if k > 0 else None


def keys_named(text):
    """Lines of /proc/keys (the keys this process can see) naming text."""
    try:
        return [l for l in Path("/proc/keys").read_text().splitlines() if text in l]
    except OSError:
        return []


def add_ta_user_key(description, payload, home):
    """Adds a "user" key to TA_UID's user keyring (an ordinary user's tokens
    and tickets), as the TA."""
    script = ("import ctypes,os,sys; libc=ctypes.CDLL(None,use_errno=True); d=sys.argv[2].encode(); "
              "libc.syscall(ctypes.c_long(int(sys.argv[3])),b'user',sys.argv[1].encode(),d,ctypes.c_size_t(len(d)),"
              "ctypes.c_long(-4))")
    nr = {"x86_64": 248, "aarch64": 217}.get(os.uname().machine)
    if nr is not None:
        subprocess.run(as_ta([sys.executable, "-c", script, description, payload, nr], home), check=True)


def clear_ta_user_keyring(home):
    """Empties TA_UID's user keyring again (keyctl(KEYCTL_CLEAR, @u))."""
    nr = {"x86_64": 250, "aarch64": 219}.get(os.uname().machine)
    if nr is not None:
        subprocess.run(as_ta([sys.executable, "-c", f"import ctypes; ctypes.CDLL(None).syscall({nr}, 7, -4)"], home))


def make_ta_group(mark):
    """A freezer control group the TA owns (as systemd delegates one to a
    user's session), or None where the machine has no v1 freezer."""
    top = Path("/sys/fs/cgroup/freezer")
    if not (top / "freezer.state").exists() and not (top / "cgroup.procs").exists():
        return None
    group = top / f"gpulab-ta-{mark}"
    try:
        group.mkdir()
    except OSError:
        return None
    for f in [group, *group.iterdir()]:
        os.chown(f, TA_UID, TA_UID)
    return group


def sysv_ipc_left(uids_from):
    """System V IPC objects (shared memory, semaphores, queues) whose owner
    is a run's user (uid_from and above) or the TA."""
    left = []
    for kind in ("shm", "sem", "msg"):
        try:
            lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
        except OSError:
            continue
        head = lines[0].split()
        for line in lines[1:]:
            uid = int(dict(zip(head, line.split()))["uid"])
            if uid >= uids_from or uid == TA_UID:
                left.append((kind, line.split()[:2], uid))
    return left


def statuses(records_dir, names):
    out = {}
    for n in names:
        rec = json.loads((records_dir / f"{n}.json").read_text())
        out[n] = [(d["name"], d["status"], d["score"]) for d in rec["datasets"]]
    return out


# An ordinary user for the grader (a TA with no sudo): any unused id will do.
TA_UID = 4242


def kit_open_to_others():
    """Why an unprivileged user cannot run this kit, or None."""
    for d in [kit.ROOT, *kit.ROOT.parents]:
        if not d.stat().st_mode & 0o001:
            return f"an unprivileged user cannot reach the kit here ({d} is not open to others)"
    return None


def as_ta(args, home):
    """args run as TA_UID (setpriv), with a home and TMPDIR of its own."""
    return [shutil.which("setpriv"), f"--reuid={TA_UID}", f"--regid={TA_UID}", "--clear-groups", "--", "env",
            f"HOME={home}", f"TMPDIR={home}", *[str(a) for a in args]]


def private_kit_copy(dest, labs=None):
    """A copy of the kit at dest whose answer keys and datasets only root
    can read, as the uid mode asks (the instructor guide's set-up): what
    grading needs (the programs, their build, the labs, the datasets of
    labs, all of them by default) and every answer an attack reaches for
    (the solutions, the instructors' docs), not the tests' own kit copies."""
    ignore = shutil.ignore_patterns("__pycache__", "test-kits", "test-venv")
    datasets = [f"datasets/{lab}" for lab in labs] if labs else ["datasets"]
    dest.mkdir(parents=True)
    for part in ("gpulab", "Makefile", "grader", "labs", "build", "skeletons", "solutions", "docs", *datasets):
        src = kit.ROOT / part
        if src.is_dir():
            shutil.copytree(src, dest / part, symlinks=True, ignore=ignore)
        else:
            shutil.copy2(src, dest / part)
    for part in ("solutions", "docs/instructor", "datasets"):
        if (dest / part).exists():
            (dest / part).chmod(0o700)
    return dest


def grader_as(who, tmp_path_factory, request, lab=LAB):
    """A folder for the batch, the kit to grade lab with, and how to run the
    grader: as root (the namespaces' "unshare" mode), as an ordinary user
    (user namespaces, "userns"), who owns the folder, the class and the
    secret, or as root where a seccomp filter refuses namespaces and mounts
    as Docker's default profile does (a user per submission, "uid")."""
    if who == "root":
        return tmp_path_factory.mktemp("attacks"), kit.ROOT, lambda args: args
    if who == "container":
        no_ns = request.getfixturevalue("no_namespaces")
        tmp = Path(tempfile.mkdtemp(prefix="gpulab-attacks-container-"))
        tmp.chmod(0o755)
        return tmp, private_kit_copy(tmp / "kit", labs=[lab]), lambda args: [no_ns, *args]
    if not shutil.which("setpriv"):
        pytest.skip("setpriv (util-linux) is missing")
    if kit_open_to_others():
        pytest.skip(kit_open_to_others())
    tmp = Path(tempfile.mkdtemp(prefix="gpulab-attacks-user-"))
    tmp.chmod(0o755)
    (tmp / "home").mkdir()
    return tmp, kit.ROOT, lambda args: as_ta(args, tmp / "home")


def give_to_ta(*paths):
    for top in paths:
        for p in [top, *Path(top).rglob("*")]:
            os.chown(p, TA_UID, TA_UID, follow_symlinks=False)


@pytest.fixture(scope="module", params=["root", "user", "container", pytest.param("gpu", marks=pytest.mark.gpu)])
def batch(request, tmp_path_factory):
    """The class graded once per way of grading: on the emulator as root,
    as an ordinary user and in a container; on the GPU as root ("gpu")."""
    if os.geteuid() != 0:
        pytest.skip("the tests make an ordinary user and a root-only secret: run them as root")
    on_gpu = request.param == "gpu"
    problem = None if on_gpu else kit.emu_problem()
    if problem:
        pytest.fail(problem) if (kit.ROOT / "grader" / "emu" / "emu.mk").exists() else pytest.skip(problem)
    tmp, kit_root, run_as = grader_as("root" if on_gpu else request.param, tmp_path_factory, request)
    mark = "gpulab-attack-" + uuid.uuid4().hex[:12]
    listener = Listener()
    # on the GPU each program also runs under compute-sanitizer: a longer
    # time limit, and the GPU machine's cores
    common = (["--backend", "gpu", "--jobs", "4", "--timeout", "10"] if on_gpu else
              ["--backend", "emu", "--jobs", "2", "--timeout", "3"]) + ["--dataset", DATASET]

    honest_only = tmp / "honest"
    names = place_honest(honest_only)
    p = kit.gpulab("grade", LAB, honest_only, *common, "--records", tmp / "baseline", "--format", "json")
    assert p.returncode == 0, p.stderr
    baseline = statuses(tmp / "baseline", names)

    mixed = tmp / "class"
    place_honest(mixed)
    records = tmp / "records"
    # a root-only file standing for the course's secret, other students' files, keys
    secret_text = "gpulab-secret-" + uuid.uuid4().hex
    secret = tmp / "secret.txt"
    secret.write_text(secret_text + "\n")
    secret.chmod(0o600)
    expect = place_attacks(mixed, records, listener.port, mark, secret, kit_root,
                           "uid" if request.param == "container" else None)
    expect.update(place_by_name(mixed))
    if request.param == "user":  # the TA's own class and secret (0600)
        give_to_ta(tmp)
    if request.param == "container":  # the class, as the uid mode asks
        mixed.chmod(0o700)
    kit_before = tree_hash(kit_root / "datasets" / LAB)
    # the secret in the session keyring the grader inherits, as an
    # instructor's tickets and tokens would be
    key = add_session_key(mark + "-secret", secret_text)
    # ... and in the TA's user keyring, which a run of the ordinary-user
    # mode, with the TA's user, would otherwise reach
    if request.param == "user":
        add_ta_user_key(mark + "-ta-secret", secret_text, tmp / "home")
    # a control group delegated to the TA (sys_cgroup.cu), a shared folder
    # anyone may write (tmp_open_folder.cu)
    ta_group = make_ta_group(mark) if request.param == "user" else None
    open_folder = Path(tempfile.mkdtemp(prefix="gpulab-open-", dir="/tmp"))
    open_folder.chmod(0o1777)
    # ... and one behind a folder others may only enter (a course's
    # /tmp/course at 0755 holding its scratch folder at 1777)
    behind = Path(tempfile.mkdtemp(prefix="gpulab-behind-", dir="/tmp"))
    behind.chmod(0o755)
    (behind / "scratch").mkdir()
    (behind / "scratch").chmod(0o1777)
    # graded from an interactive terminal, the instructor's
    terminal = kit.Terminal()
    p = terminal.run(run_as([kit_root / "gpulab", "grade", LAB, mixed, *common, "--records", records, "--csv",
                             tmp / "grades.csv"]), timeout=900)
    pending = terminal.close()
    listener.close()
    left_in_open_folder = sorted(f.name for f in [*open_folder.iterdir(), *(behind / "scratch").iterdir()])
    shutil.rmtree(open_folder, ignore_errors=True)
    shutil.rmtree(behind, ignore_errors=True)
    ta_group_state = ta_group and (ta_group / "freezer.state").read_text().strip()
    yield {"tmp": tmp, "p": p, "records": records, "names": names, "baseline": baseline, "expect": expect,
           "left_in_open_folder": left_in_open_folder, "ta_group_state": ta_group_state,
           "kit_before": kit_before, "mark": mark, "listener": listener, "secret_text": secret_text,
           "screen": bytes(terminal.screen), "pending": pending, "key": key,
           "mode": {"root": "unshare", "gpu": "unshare", "user": "userns", "container": "uid"}[request.param],
           "kit": kit_root, "backend": "gpu" if on_gpu else "emu"}
    if key is not None:
        import ctypes
        ctypes.CDLL(None).syscall(ctypes.c_long({"x86_64": 250, "aarch64": 219}[os.uname().machine]),
                                  ctypes.c_long(3), ctypes.c_long(key))  # keyctl(KEYCTL_REVOKE, key)
    if ta_group:
        (ta_group / "freezer.state").write_text("THAWED")
        ta_group.rmdir()
    if request.param == "user":
        clear_ta_user_keyring(tmp / "home")
    for pid in processes_with(mark):  # never leave one behind, even when a test failed
        try:
            os.kill(int(pid), 9)
        except OSError:
            pass
    if request.param not in ("root", "gpu"):
        shutil.rmtree(tmp, ignore_errors=True)


def test_grader_survives_and_grades_everyone(batch):
    p = batch["p"]
    assert p.returncode == 0, (p.stderr[-3000:], p.stdout[-3000:])
    recs = sorted(r.stem for r in batch["records"].glob("*.json"))
    assert recs == sorted(batch["names"] + list(batch["expect"]))
    for r in batch["records"].glob("*.json"):
        rec = json.loads(r.read_text())
        validate.check_json(rec, "record.schema.json")
        assert rec["id"] == r.stem, "a record was overwritten by a submission"
        assert rec["sandbox"] == batch["mode"], rec["sandbox"]


@pytest.mark.parametrize("attack", sorted(p.stem for p in ATTACKS.glob("*.cu")))
def test_attack_earns_nothing_beyond_its_honest_output(batch, attack):
    rec = json.loads((batch["records"] / f"{attack}.json").read_text())
    want = kit.checked_max(rec) if batch["expect"][attack] == "full" else 0
    assert rec["score"] == want, (attack, rec["datasets"][0]["status"], rec["datasets"][0]["message"],
                                  rec["datasets"][0]["stderr"][:500])


def test_attacks_by_name_earn_nothing_beyond_their_honest_output(batch):
    """An id such as -1-1 is graded as any other and goes into the CSV
    quoted, as text (a spreadsheet would compute -2); a 3 GB sparse
    source is refused on its size, unread (test_a_huge_source_is_refused_unread)."""
    formula = json.loads((batch["records"] / f"{FORMULA_ID}.json").read_text())
    assert formula["score"] == kit.checked_max(formula), formula["datasets"][0]
    rows = (batch["tmp"] / "grades.csv").read_text().splitlines()
    assert [r for r in rows if r.startswith(f"\"'{FORMULA_ID}\",")], rows[:3]
    assert not [r for r in rows if r.startswith(FORMULA_ID)], rows
    sparse = json.loads((batch["records"] / "sparse_source.json").read_text())
    assert sparse["score"] == 0 and "more than the 1048576 the grader reads" in sparse["build"]["message"], \
        sparse["build"]["message"]


def test_a_huge_source_is_refused_unread(tmp_path):
    """The grader looks at a source file's size before it reads a byte:
    a 3 GB sparse file costs it no memory (before: 3 GB read first)."""
    need_root_and_emu()
    place_by_name(tmp_path / "class")
    shutil.rmtree(tmp_path / "class" / FORMULA_ID)
    script = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:], capture_output=True); "
              "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    p = kit.run([sys.executable, "-c", script, kit.ROOT / "gpulab", "grade", LAB, tmp_path / "class", "--backend",
                 "emu", "--no-sanitize", "--dataset", DATASET, "--records", tmp_path / "records"])
    rc, peak_kb = map(int, p.stdout.split())
    assert rc == 0, p.stderr
    assert peak_kb < 512 * 1024, f"the grader's peak memory was {peak_kb // 1024} MB"
    rec = json.loads((tmp_path / "records" / "sparse_source.json").read_text())
    assert rec["score"] == 0 and "is 3221225472 bytes" in rec["build"]["message"], rec["build"]["message"]


def test_honest_submissions_are_graded_as_without_the_attacks(batch):
    assert statuses(batch["records"], batch["names"]) == batch["baseline"]


def test_kit_and_machine_untouched(batch):
    assert tree_hash(batch["kit"] / "datasets" / LAB) == batch["kit_before"], "the kit's datasets changed"
    assert not processes_with(batch["mark"]), "a submission's process outlived the batch"
    assert batch["listener"].connections == [], "a submission reached the network"
    for leftover in ("/tmp/gpulab-attack-cache", "/dev/shm/gpulab-attack-cache", "/var/tmp/gpulab-attack-cache",
                     batch["kit"] / "gpulab-attack-cache", "/tmp/results.json", batch["kit"] / "grades.json"):
        assert not Path(leftover).exists(), f"a submission wrote {leftover}"
    forged = batch["records"] / "write_results.json"
    assert json.loads(forged.read_text())["id"] == "write_results"


def test_nothing_leaks_into_what_students_and_instructors_see(batch):
    """Neither the secret nor a line of the reference solution reaches a
    record (build logs, messages, stdout, stderr), the CSV or the batch's
    own output."""
    solution_line = next(l for l in SOLUTION.read_text().splitlines() if "Pvalue +=" in l).strip()
    texts = [r.read_text() for r in batch["records"].glob("*.json")]
    texts += [(batch["tmp"] / "grades.csv").read_text(), batch["p"].stdout, batch["p"].stderr]
    for t in texts:
        assert batch["secret_text"] not in t
    # NO_COLOR is set (kit.run): any escape in the text report is a student's
    assert "\x1b" not in batch["p"].stdout and "\x1b" not in batch["p"].stderr
    for r in batch["records"].glob("*.json"):
        if r.stem.startswith("include_solution"):
            rec = json.loads(r.read_text())
            assert solution_line not in rec["build"]["log"], rec["build"]["log"][:2000]


def test_attacks_on_what_the_run_leaves_are_refused_not_followed(batch):
    for name in ("output_symlink", "output_fifo"):
        rec = json.loads((batch["records"] / f"{name}.json").read_text())
        d = rec["datasets"][0]
        assert d["status"] == "no_output" and "did not read the output" in d["message"], (name, d["message"])


def test_a_kit_status_from_student_code_is_the_students_failure(batch):
    rec = json.loads((batch["records"] / "exit_kit_status.json").read_text())
    assert rec["datasets"][0]["status"] == "crash", rec["datasets"][0]["message"]


def test_a_full_disk_stops_its_own_run_only(batch):
    """The run folder is a size-limited mount of its own: the run that fills
    it is stopped by "No space left" at the limit (and its own output no
    longer fits); its neighbours and the grader never notice."""
    rec = json.loads((batch["records"] / "fill_disk.json").read_text())
    if batch["mode"] == "uid":  # test_the_uid_mode_stops_a_run_at_its_folder_limits
        for d in rec["datasets"]:
            assert d["status"] == "timeout" or d["message"] == UID_STOPPED_FOLDER, d
        return
    said = re.search(r"fill_disk: wrote (\d+) MB, stopped: (.*)", rec["datasets"][0]["stdout"])
    if batch["backend"] == "gpu" and not said:
        # on the GPU machine the gigabyte of writes has met the time limit
        # first (test_batch's same_failures): stopped either way, score 0
        assert rec["datasets"][0]["status"] == "timeout" and rec["score"] == 0, rec["datasets"][0]
        return
    assert said, rec["datasets"][0]["stdout"][:500]
    assert said.group(2) == "No space left on device" and int(said.group(1)) <= 1024, said.group(0)


UID_STOPPED_FOLDER = "the program was stopped: its folder held more than 1024 MB or 16384 files, a run's limit"
UID_STOPPED_TMP = ("the program was stopped: it kept more than 256 MB or 16384 files in /tmp, /var/tmp, "
                   "/dev/shm and /run/lock, a run's limit")
UID_STOPPED_DEEP = "the program was stopped: its folders nest more than 32 deep, past what the grader measures"
# Folders nested past what the uid mode measures, with a file at the bottom
# the counts would not see; then the lab, done right.
DEEP_FOLDERS = r"""
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
__attribute__((constructor)) static void nest(void)
{
    char path[4096] = "deep";
    for (int i = 0; i < 40; i++) {
        mkdir(path, 0700);
        strcat(path, "/d");
    }
    FILE *f = fopen(strcat(path, ".bin"), "w");
    static char block[1 << 20];
    for (int i = 0; f && i < 64; i++)
        fwrite(block, 1, sizeof block, f);
    if (f)
        fclose(f);
    sleep(1); /* long enough to be looked at */
}
"""


def owner_uid(path):
    try:
        return path.lstat().st_uid
    except OSError:
        return -1


def test_the_uid_mode_stops_a_run_at_its_folder_limits():
    """Without mounts of its own (the uid mode), a run's folder and its files
    in the machine's shared temporary folders are measured while it runs and
    the run is stopped at the other modes' tmpfs limits: fill_disk.cu at
    1 GB in its folder, many_files.cu at 16 384 files in /tmp, and a run
    that nests folders deeper than the grader measures (where it could hide
    what it writes), and fill_behind_scratch.cu at 256 MB in a scratch
    folder at 1777 behind one at 0755; nothing of theirs is left on the
    machine's disk. (In the attack batch, two programs
    at once on a loaded disk may meet the time limit first.)"""
    need_root_and_emu()
    tmp = Path(tempfile.mkdtemp(prefix="gpulab-uid-limits-"))
    behind = Path(tempfile.mkdtemp(prefix="gpulab-behind-", dir="/tmp"))
    try:
        tmp.chmod(0o755)
        behind.chmod(0o755)
        (behind / "scratch").mkdir()
        (behind / "scratch").chmod(0o1777)
        copy = private_kit_copy(tmp / "kit", labs=[LAB])
        cls = tmp / "class"
        for name in ("fill_disk", "many_files", "fill_behind_scratch"):
            (cls / name).mkdir(parents=True)
            shutil.copy(ATTACKS / f"{name}.cu", cls / name / "basic_matmul.cu")
        (cls / "alice").mkdir()
        shutil.copy(SOLUTION, cls / "alice" / "basic_matmul.cu")
        (cls / "deep").mkdir()
        (cls / "deep" / "basic_matmul.cu").write_text(DEEP_FOLDERS + SOLUTION.read_text())
        cls.chmod(0o700)
        free_before = shutil.disk_usage(tmp).free
        p = kit.run([copy / "gpulab", "grade", LAB, cls, "--backend", "emu", "--sandbox", "uid", "--no-sanitize",
                     "--dataset", DATASET, "--timeout", "30", "--records", tmp / "records"], timeout=600)
        assert p.returncode == 0, p.stderr[-3000:]
        recs = {r.stem: json.loads(r.read_text()) for r in (tmp / "records").glob("*.json")}
        assert all(r["sandbox"] == "uid" for r in recs.values())
        assert recs["alice"]["score"] == kit.checked_max(recs["alice"])
        fill, many = recs["fill_disk"]["datasets"][0], recs["many_files"]["datasets"][0]
        assert (fill["status"], fill["message"]) == ("crash", UID_STOPPED_FOLDER), fill
        assert (many["status"], many["message"]) == ("crash", UID_STOPPED_TMP), many
        deep = recs["deep"]["datasets"][0]
        assert (deep["status"], deep["message"]) == ("crash", UID_STOPPED_DEEP), deep
        behind_scratch = recs["fill_behind_scratch"]["datasets"][0]
        assert (behind_scratch["status"], behind_scratch["message"]) == ("crash", UID_STOPPED_TMP), behind_scratch
        assert not list((behind / "scratch").iterdir()), list((behind / "scratch").iterdir())
        assert shutil.disk_usage(tmp).free > free_before - (256 << 20), "the runs' files stayed on the disk"
        left = [f for d in ("/tmp", "/var/tmp", "/dev/shm") for f in Path(d).glob("f[0-9]*")
                if f.name[1:].isdigit() and owner_uid(f) >= 200000]
        assert not left, left[:5]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(behind, ignore_errors=True)


def test_the_instructors_terminal_is_out_of_reach(batch):
    """The grader ran from a terminal (its controlling terminal and standard
    input): no run, build or checker pushed a line into its input (which the
    instructor's shell would run once gpulab exits), wrote to its screen or
    took its foreground; the run found no terminal at all."""
    mark = batch["mark"].encode()
    assert mark not in batch["pending"], batch["pending"][:300]
    assert batch["pending"] == b"", batch["pending"][:300]
    assert mark not in batch["screen"], batch["screen"][-600:]
    rec = json.loads((batch["records"] / "terminal.json").read_text())
    assert "terminal reached" not in rec["datasets"][0]["stdout"], rec["datasets"][0]["stdout"][:600]


def test_a_terminal_of_its_own_reaches_nothing(batch):
    """pty_script.cu makes a terminal of its own (script -q -c, and by hand:
    posix_openpt, setsid, TIOCSCTTY), pushes a command line into it and
    paints it, and leaves script running on a pty, holding the run's
    output. Judged by what came of it, in every mode (only the uid mode,
    with the machine's /dev/ptmx, gives it a pty at all): its dataset
    passed within the time limit (the grader waited for nothing it left),
    nothing of it outlived the batch, and nothing it pushed or painted
    reached the instructor's terminal."""
    d = json.loads((batch["records"] / "pty_script.json").read_text())["datasets"][0]
    assert d["status"] == "pass", d
    assert "terminal reached" not in d["stdout"], d["stdout"][:600]
    assert not processes_with(batch["mark"] + "-left"), "the script it left outlived the batch"
    mark = batch["mark"].encode()
    assert mark not in batch["pending"] and mark not in batch["screen"], batch["screen"][-600:]


def test_the_graders_keyring_is_out_of_reach(batch):
    """A key in the grader's session keyring is not read by a run (the
    leak test looks for its payload everywhere), and a key a run adds does
    not land there."""
    if batch["key"] is None:
        pytest.skip("this machine gives no session keyring to add a key to")
    assert keys_named(batch["mark"] + "-secret"), "the test's own key is visible to it"
    assert not keys_named(batch["mark"] + "-planted"), keys_named(batch["mark"] + "-planted")
    rec = json.loads((batch["records"] / "keyring.json").read_text())
    assert "keyring:" not in rec["datasets"][0]["stdout"], rec["datasets"][0]["stdout"][:600]


def test_the_tas_control_groups_are_out_of_reach(batch):
    """/sys is read-only with every mount under it: a run with the TA's
    user (the userns mode) freezes no control group of the TA's."""
    rec = json.loads((batch["records"] / "sys_cgroup.json").read_text())
    out = rec["datasets"][0]["stdout"]
    assert "sys_cgroup: froze 0 groups" in out, out[:600]
    assert batch["ta_group_state"] in (None, "THAWED"), batch["ta_group_state"]


def test_no_ipc_object_or_shared_file_outlives_the_batch(batch):
    """What a run leaves in System V IPC (sysv_shm.cu) or in a folder
    anyone may write below /tmp (tmp_open_folder.cu), also one behind a
    folder others may only enter, is gone when the batch ends: an IPC
    namespace of the run's own, or a seccomp filter, and the uid mode's
    clean-up at any depth."""
    assert not sysv_ipc_left(100000), sysv_ipc_left(100000)
    assert batch["left_in_open_folder"] == [], batch["left_in_open_folder"]
    out = json.loads((batch["records"] / "sysv_shm.json").read_text())["datasets"][0]["stdout"]
    assert "an earlier run left" not in out, out[:600]


def test_a_run_writes_nothing_outside_its_folder_unmeasured(batch):
    """fill_build_dir.cu writes 1.5 GB into its build folder: refused
    (read-only) in the namespaced modes, and in the uid mode, where the
    build folder is the run's user's, counted in the run's limit."""
    rec = json.loads((batch["records"] / "fill_build_dir.json").read_text())
    d = rec["datasets"][0]
    if batch["mode"] == "uid":
        assert d["status"] == "timeout" or d["message"] == UID_STOPPED_FOLDER, d
    else:
        assert "fill_build_dir: wrote" not in d["stdout"], d["stdout"][:600]


def test_a_folder_behind_a_closed_one_is_measured_while_the_run_runs(batch):
    """fill_behind_scratch.cu writes 400 MB into a scratch folder at 1777
    behind a folder at 0755 (the batch's /tmp/gpulab-behind-*/scratch): in
    the uid mode that folder, found before the runs, is measured with /tmp,
    and the run is stopped at the shared folders' 256 MB, saying so (before,
    only the sweep at its end saw it); in the namespaced modes its /tmp is
    its own, with no such folder. Nothing is left (the batch's folder is
    looked at by test_no_ipc_object_or_shared_file_outlives_the_batch)."""
    rec = json.loads((batch["records"] / "fill_behind_scratch.json").read_text())
    if batch["mode"] == "uid":
        for d in rec["datasets"]:
            assert d["status"] != "pass" and d["message"] == UID_STOPPED_TMP, d
    else:
        assert "fill_behind_scratch: wrote" not in rec["datasets"][0]["stdout"], rec["datasets"][0]["stdout"][:600]


def test_file_counts_are_limited_too(batch):
    """Every folder a run can write is a tmpfs with a limit on files, not
    only on bytes: a million empty files cost the kernel memory."""
    rec = json.loads((batch["records"] / "many_files.json").read_text())
    if batch["mode"] == "uid":  # test_the_uid_mode_stops_a_run_at_its_folder_limits
        for d in rec["datasets"]:
            assert d["status"] == "timeout" or d["message"] in (UID_STOPPED_FOLDER, UID_STOPPED_TMP), d
        return
    said = re.findall(r"many_files: (\S+) held (\d+) files, stopped: (.*)", rec["datasets"][0]["stdout"])
    assert len(said) == 2, rec["datasets"][0]["stdout"][:600]
    for folder, count, why in said:
        assert int(count) <= 16384 and why == "No space left on device", (folder, count, why)


def test_the_emulators_log_is_in_the_runs_limited_space(batch):
    """The emulator's launch log is the run's to write: it lives on the run's
    own size-limited folder (whose limit fill_disk.cu meets), not on the
    grader's disk."""
    if batch["backend"] != "emu":
        pytest.skip("only the emulator writes a launch log")
    rec = json.loads((batch["records"] / "log_flood.json").read_text())
    said = re.search(r"log_flood: wrote (\d+) MB into the log, in the run's own folder: (\w+)",
                     rec["datasets"][0]["stdout"])
    assert said, rec["datasets"][0]["stdout"][:500]
    assert said.group(2) == "yes" and said.group(1) == "64", said.group(0)


def test_a_run_sees_nothing_of_the_grader_in_proc(tmp_path):
    """The run's first process is the kit's own small program, exec'd (not a
    fork of the grader, whose command line holds --secret), and /proc shows
    the run only its own user's processes: the secret given on the
    grader's command line appears in no record."""
    need_root_and_emu()
    secret = "gpulab-cmdline-secret-" + uuid.uuid4().hex[:12]
    (tmp_path / "class" / "eve").mkdir(parents=True)
    shutil.copy(ATTACKS / "proc_one.cu", tmp_path / "class" / "eve" / "basic_matmul.cu")
    p = kit.gpulab("grade", LAB, tmp_path / "class", "--backend", "emu", "--no-sanitize", "--dataset", DATASET,
                   "--secret", secret, "--records", tmp_path / "records", "--format", "json")
    assert p.returncode == 0, p.stderr
    text = (tmp_path / "records" / "eve.json").read_text()
    assert secret not in text
    out = json.loads(text)["datasets"][0]["stdout"]
    seen = re.findall(r"proc_one: sees pid (\d+) \[(.*)\]", out)
    assert seen and "1" not in [pid for pid, _ in seen], out[:800]
    assert re.search(r"proc_one: pid 1 is \[\]", out), out[:800]


def test_the_secret_is_on_no_command_line(tmp_path, no_namespaces):
    """In the uid mode (no pid namespace) a run sees every process of the
    machine, the grader's command line too and its parents' (timeout's,
    a script's), which the grader cannot blank: there --secret and --seed
    are refused, and --secret-file (0600) puts the secret on no command
    line at all."""
    need_root_and_emu()
    secret = "gpulab-cmdline-secret-" + uuid.uuid4().hex[:12]
    copy = private_kit_copy(tmp_path / "kit", labs=[LAB])
    (tmp_path / "class" / "eve").mkdir(parents=True)
    (tmp_path / "class").chmod(0o700)
    shutil.copy(ATTACKS / "proc_one.cu", tmp_path / "class" / "eve" / "basic_matmul.cu")
    grade = [no_namespaces, copy / "gpulab", "grade", LAB, tmp_path / "class", "--backend", "emu", "--no-sanitize",
             "--dataset", DATASET, "--records", tmp_path / "records", "--format", "json"]
    for option in ("--secret", "--seed"):
        p = kit.run([shutil.which("timeout"), "600", *grade, option, "424242"])
        assert p.returncode == 2 and f"{option}: in the uid mode" in p.stderr and "--secret-file" in p.stderr, \
            p.stderr
        assert not (tmp_path / "records").exists()
    secret_file = tmp_path / "secret"
    secret_file.write_text(secret + "\n")
    secret_file.chmod(0o600)
    p = kit.run([shutil.which("timeout"), "600", *grade, "--secret-file", secret_file])
    assert p.returncode == 0, p.stderr
    rec = json.loads((tmp_path / "records" / "eve.json").read_text())
    assert rec["sandbox"] == "uid"
    out = rec["datasets"][0]["stdout"]
    assert re.search(r"proc_one: sees pid \d+ \[\S*gpulab grade ", out), out[:2000]  # it does see the grader
    assert secret not in json.dumps(rec), out[:2000]


@pytest.mark.parametrize("how", ["exit 4", "kill -BUS $$"])
def test_a_compiler_that_crashes_is_never_the_students_grade(tmp_path, how):
    """A compiler that crashes (GCC's exit status 4, an internal compiler
    error, or a signal such as the Bus error of a compiler rebuilt while it
    ran) failed the kit, not the file: the record is grader_error, graded
    again next time, and the reason is the kit's words (an exit status, a
    signal), never the compiler's log, which a #error fills at will."""
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    crash = tmp_path / "crash.sh"
    crash.write_text(f"#!/bin/sh\n{how}\n")
    crash.chmod(0o755)
    rc, rep = kit.check_json(LAB, SOLUTION, "emu", "--dataset", DATASET, env={"CXX": str(crash)})
    assert rep["datasets"][0]["status"] == "grader_error", rep["datasets"][0]
    assert "the compiler crashed, the kit's or the machine's failure, not the file's" in rep["fix_first"], rep
    # a compiler that refuses the file (status 1) is the file's compile_error
    refuse = tmp_path / "refuse.sh"
    refuse.write_text("#!/bin/sh\nexit 1\n")
    refuse.chmod(0o755)
    rc, rep = kit.check_json(LAB, SOLUTION, "emu", "--dataset", DATASET, env={"CXX": str(refuse)})
    assert rep["datasets"][0]["status"] == "compile_error", rep["datasets"][0]


def test_a_full_machine_is_never_the_students_grade(tmp_path):
    """When the grader's own disk is full (another user's doing, or
    another submission's), the build fails as grader_error, not as the
    student's compile_error, and the record is graded again next time."""
    need_root_and_emu()
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=40m", "tmpfs", str(tmp)]).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        filler = tmp / "filler"
        subprocess.run(["fallocate", "-l", "34m", str(filler)], check=True)
        (tmp_path / "class" / "alice").mkdir(parents=True)
        shutil.copy(SOLUTION, tmp_path / "class" / "alice" / "basic_matmul.cu")
        args = ["grade", LAB, tmp_path / "class", "--backend", "emu", "--no-sanitize", "--dataset", DATASET,
                "--records", tmp_path / "records"]
        p = kit.gpulab(*args, env={"TMPDIR": str(tmp)})
        rec = json.loads((tmp_path / "records" / "alice.json").read_text())
        assert rec["datasets"][0]["status"] == "grader_error", (rec["datasets"][0], p.stderr[-1000:])
        filler.unlink()
        p = kit.gpulab(*args, env={"TMPDIR": str(tmp)})
        assert p.returncode == 0, p.stderr
        rec = json.loads((tmp_path / "records" / "alice.json").read_text())
        assert rec["datasets"][0]["status"] == "pass", rec["datasets"][0]
    finally:
        subprocess.run(["umount", "-l", str(tmp)])


def grader_peak_mb(args, log):
    """Runs a command; returns its exit status and its peak resident memory
    in MB (wait4's, which counts the processes it waited for too)."""
    with open(log, "w") as err:
        proc = subprocess.Popen([str(a) for a in args], env=dict(os.environ, NO_COLOR="1"),
                                stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_maxrss / 1024


def test_a_sparse_output_costs_the_grader_nothing(tmp_path):
    """A run that leaves a sparse output.tensor whose header claims the
    largest shape (1 GiB of floats on no disk) is not read beyond what the
    dataset's output can be: the grader's peak memory stays what an honest
    class costs (58 MB here; 2.1 GB before, for the eight datasets of lab 01)
    and the attacker gets no_output."""
    need_root_and_emu()
    cls = tmp_path / "class"
    (cls / "alice").mkdir(parents=True)
    shutil.copy(SOLUTION, cls / "alice" / "basic_matmul.cu")
    (cls / "sparse").mkdir()
    shutil.copy(ATTACKS / "sparse_output.cu", cls / "sparse" / "basic_matmul.cu")
    rc, peak = grader_peak_mb([kit.GPULAB, "grade", LAB, cls, "--backend", "emu", "--no-sanitize",
                               "--records", tmp_path / "records"], tmp_path / "stderr")
    assert rc == 0, (tmp_path / "stderr").read_text()[-3000:]
    rec = json.loads((tmp_path / "records" / "sparse.json").read_text())
    assert rec["score"] == 0
    for d in rec["datasets"]:
        assert "sparse 1 GiB file" in d["stderr"], d["stderr"][:500]
        assert d["status"] == "no_output" and "more than the" in d["message"], (d["status"], d["message"])
    assert json.loads((tmp_path / "records" / "alice.json").read_text())["score"] == kit.checked_max(rec)
    assert peak < 300, f"the grader's peak memory was {peak:.0f} MB"


def descendants(pid):
    """The processes under pid (the host's view: a sandbox's pid namespace
    does not hide them from here)."""
    children = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(d))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def test_a_slow_checker_build_is_stopped_not_waited_for(tmp_path):
    """A checker build that goes on far longer than the file's graded build
    (here the race build's compiler is frozen with SIGSTOP, as a compile that
    never ends would be) is stopped once it has taken its allowance, a
    multiple of the graded build's time (lowered for the test: 1x, at least
    3 s; 8x and 20 s by default), and reported as the checkers' problem; the
    file keeps its graded datasets and the class goes on, never held for the
    checker build's own 60 s limit."""
    need_root_and_emu()
    cls = tmp_path / "class"
    (cls / "alice").mkdir(parents=True)
    shutil.copy(SOLUTION, cls / "alice" / "basic_matmul.cu")
    env = dict(os.environ, NO_COLOR="1", GPULAB_CHECKER_BUILD_RATIO="1", GPULAB_CHECKER_BUILD_FLOOR_S="3")
    started = time.monotonic()
    proc = subprocess.Popen([str(kit.GPULAB), "grade", LAB, str(cls), "--backend", "emu", "--dataset", DATASET,
                             "--records", str(tmp_path / "records")], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    frozen = set()
    while proc.poll() is None:
        for pid in descendants(proc.pid):
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if pid not in frozen and b"-fsanitize=thread" in cmd:
                try:
                    os.kill(pid, signal.SIGSTOP)
                    frozen.add(pid)
                except OSError:
                    pass
        time.sleep(0.02)
    out, err = proc.communicate()
    took = time.monotonic() - started
    assert proc.returncode == 0, err[-3000:]
    assert frozen, "the race build's compiler was never seen"
    rec = json.loads((tmp_path / "records" / "alice.json").read_text())
    assert rec["datasets"][0]["status"] == "pass", rec["datasets"][0]["message"]
    checks = json.dumps(rec["requirements"]) + json.dumps(rec.get("checkers_fallback"))
    said = re.search(r"build was stopped after (\d+) s: a file's checked build may take 1 times as long as its "
                     r"graded build \((\d+\.\d) s here\), and at least 3 s", checks)
    assert said, checks
    # the allowance is the graded build's own time where that is over the
    # floor: a loaded machine's slower graded build (3.9 s, seen under a
    # load of 60) gives its checkers that much more, and the message says so
    allowance, graded = int(said.group(1)), float(said.group(2))
    assert abs(allowance - max(3.0, graded)) < 1, checks
    assert took < 40, f"the class waited {took:.0f} s for a frozen checker build"
    # the frozen compiler went with its build: gone, or a zombie awaiting its reaper
    left = []
    for pid in frozen:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            left.append((pid, state))
    assert not left, f"checker build processes left behind: {left}"


@pytest.fixture
def no_autogroup():
    """The kernel's session groups off for the test (as in a container or a
    service, where they do not apply): without them, threads share the
    processors one by one unless control groups share them by run."""
    knob = Path("/proc/sys/kernel/sched_autogroup_enabled")
    try:
        before = knob.read_text()
        knob.write_text("0")
    except OSError:
        yield
        return
    try:
        yield
    finally:
        knob.write_text(before)


def test_spinning_threads_take_one_runs_share_of_the_processors(tmp_path, no_autogroup):
    """Graded with --parallel beside honest submissions, a run of 256
    spinning threads gets one run's share of the processors (its control
    group's), not 256 threads' worth: the honest runs beside it finish in
    their time limit (without the groups, on two cores, one took 5.2 s for
    its 0.06 s and timed out)."""
    need_root_and_emu()
    cls = tmp_path / "class"
    (cls / "0-spinners").mkdir(parents=True)  # graded first: it spins while the others run
    shutil.copy(ATTACKS / "spinners.cu", cls / "0-spinners" / "basic_matmul.cu")
    for name in ("alice", "bob", "carol"):
        (cls / name).mkdir()
        shutil.copy(SOLUTION, cls / name / "basic_matmul.cu")
    p = kit.gpulab("grade", LAB, cls, "--backend", "emu", "--no-sanitize", "--parallel", "2", "--timeout", "2",
                   "--dataset", "width-0257", "--records", tmp_path / "records", "--format", "json", timeout=600)
    assert p.returncode == 0, p.stderr
    said = re.search(r"gpulab: note: runs get no control group of their own here \((.*?)\)", p.stderr)
    if said:
        pytest.skip(f"no control groups here: {said.group(1)}")
    subs = {s["id"]: s for s in json.loads(p.stdout)["submissions"]}
    assert subs["0-spinners"]["score"] == 0
    for name in ("alice", "bob", "carol"):
        assert subs[name]["score"] == kit.checked_max(subs[name]), [(d["status"], d["message"][:200])
                                                               for d in subs[name]["datasets"]]


def test_the_flood_is_capped(batch):
    rec = json.loads((batch["records"] / "flood_stdout.json").read_text())
    assert len(rec["datasets"][0]["stdout"]) <= 64 * 1024 + 1024


# ---- evidence for requirement points, and the class as a whole ---------------

UNTILED_02 = r'''
// An untiled lab-02 kernel (right output, no shared memory, no barrier) that
// forges the evidence for the requirement points: @FORGERY@
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
@PRAGMA@
__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    /* a shared array and a barrier in an assembler comment, which the PTX keeps */
    asm volatile("/* .shared .align 4 .b8 _ZZ15MatrixMulKernelE4ds_M[2048]; bar.sync 0; */");
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += M[Row * Width + k] * N[k * Width + Col];
        P[Row * Width + Col] = Pvalue;
    }
}
void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    const char *log = getenv("GPULAB_EMU_LOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        fprintf(f, "{\"event\":\"launch\",\"kernel\":\"MatrixMulKernel\",\"shared_static_bytes\":2048,"
                   "\"shared_dynamic_bytes\":0,\"barriers\":2,\"status\":\"cudaSuccess\",\"ran\":true}\n");
        fclose(f);
    }
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    MatrixMulKernel<<<grid, block>>>(M, N, P, width); /* lab 02 hands over device pointers */
}
'''
PRAGMA = '#pragma message("ptxas info    : Used 32 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0]")'


def need_root_and_emu():
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root here")
    problem = kit.emu_problem()
    if problem:
        pytest.fail(problem)


def test_a_uid_mode_run_does_not_outlive_a_killed_grader():
    """In the uid mode no pid namespace takes a run along when its grader
    dies: gpulab grade and its workers killed outright (SIGKILL to the
    job's process group) while a submission loops forever, its program
    goes all the same (its own parent-death signal,
    set again after its change of user, takes it when its init goes), and
    is not left spinning as another user, unwatched. It failed before."""
    need_root_and_emu()
    tmp = Path(tempfile.mkdtemp(prefix="gpulab-uid-orphan-"))
    p = None
    try:
        tmp.chmod(0o755)
        copy = private_kit_copy(tmp / "kit", labs=[LAB])
        text = SOLUTION.read_text()
        anchor = "    CUDA_CHECK(cudaMemcpy(d_M, M, bytes, cudaMemcpyHostToDevice));\n"
        assert anchor in text
        cls = tmp / "class"
        (cls / "spins").mkdir(parents=True)
        (cls / "spins" / SOLUTION.name).write_text(
            text.replace(anchor, "    for (volatile int spin = 0; spin >= 0; spin += 0) {}\n" + anchor))
        cls.chmod(0o700)
        work = tmp / "work"
        work.mkdir()
        work.chmod(0o755)
        env = dict(os.environ, TMPDIR=str(work), NO_COLOR="1")
        p = subprocess.Popen([copy / "gpulab", "grade", LAB, cls, "--backend", "emu", "--sandbox", "uid",
                              "--no-sanitize", "--timeout", "60", "--records", tmp / "records"],
                             env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 120
        while not kit.lab_programs_under(work) and time.monotonic() < deadline and p.poll() is None:
            time.sleep(0.1)
        assert kit.lab_programs_under(work), "the program never started"
        os.killpg(p.pid, signal.SIGKILL)  # the grader and its workers, as a killed job's are
        p.wait(timeout=30)
        deadline = time.monotonic() + 10
        while kit.lab_programs_under(work) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = kit.lab_programs_under(work)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert not left, f"the program outlived the grader: pids {left}"
    finally:
        if p is not None and p.poll() is None:
            p.kill()
        shutil.rmtree(tmp, ignore_errors=True)


def test_forged_requirement_evidence_earns_nothing(backend, tmp_path):
    """The emulator's launch log is the student's process's to write, and a
    #pragma message prints whatever it likes into nvcc's output: neither is
    evidence. Only the datasets' points are earned (7 of 9)."""
    if backend == "emu":
        need_root_and_emu()
    d = tmp_path / "class" / "forger"
    d.mkdir(parents=True)
    src = UNTILED_02.replace("@FORGERY@", "a fake launch log, a fake ptxas report, PTX in an asm comment")
    src = src.replace("@PRAGMA@", PRAGMA)
    (d / "tiled_matmul.cu").write_text(src)
    p = kit.gpulab("grade", "02-tiled-matmul", tmp_path / "class", "--backend", backend, "--no-sanitize",
                   "--records", tmp_path / "records", "--timeout", "20", timeout=600)
    assert p.returncode == 0, p.stderr
    rec = json.loads((tmp_path / "records" / "forger.json").read_text())
    reqs = {r["name"]: r for r in rec["requirements"]}
    assert all(d["status"] == "pass" for d in rec["datasets"]), [d["message"] for d in rec["datasets"]]
    assert reqs["shared_memory"]["score"] == 0 and reqs["barrier"]["score"] == 0, reqs
    assert rec["score"] == kit.checked_max(rec) - 2


def test_source_facts_under_if_0_earn_nothing(tmp_path):
    """The emulator's count of the source (emucc --facts), which the launch
    log must agree with, is taken after the preprocessor's directives: a
    shared array and a barrier inside #if 0, beside a forged launch log,
    earned lab 02's shared_memory and barrier (9/9); now 7/9, as the
    untiled kernel deserves."""
    need_root_and_emu()
    d = tmp_path / "class" / "forger"
    d.mkdir(parents=True)
    hidden = ("#if 0\n    __shared__ float ds_M[16][16];\n    __syncthreads();\n#endif\n"
              "    int Row = blockIdx.y")
    src = UNTILED_02.replace("@FORGERY@", "a fake launch log, and the shared array and barrier under #if 0")
    src = src.replace("@PRAGMA@", "").replace("    int Row = blockIdx.y", hidden, 1)
    assert "#if 0" in src
    (d / "tiled_matmul.cu").write_text(src)
    p = kit.gpulab("grade", "02-tiled-matmul", tmp_path / "class", "--backend", "emu", "--no-sanitize",
                   "--records", tmp_path / "records", "--timeout", "20", timeout=600)
    assert p.returncode == 0, p.stderr
    rec = json.loads((tmp_path / "records" / "forger.json").read_text())
    reqs = {r["name"]: r for r in rec["requirements"]}
    assert all(d["status"] == "pass" for d in rec["datasets"]), [d["message"] for d in rec["datasets"]]
    assert reqs["shared_memory"]["score"] == 0 and reqs["barrier"]["score"] == 0, reqs
    assert rec["score"] == kit.checked_max(rec) - 2


@pytest.mark.parametrize("who", ["root", "user", "container"])
def test_forged_reuse_counts_earn_nothing(who, tmp_path_factory, request):
    """The counts [global_reuse] judges are written by the checkers' run,
    inside the student's process: forge_reuse_counts.cu, lab 01's kernel
    with a __shared__ tile stored but never read, rewrote the launch log
    with a tiled kernel's counts and earned the point. Now the kit's own
    reading of the source must show a loop that accumulates from shared
    memory and reads no global memory; the reference beside it keeps it.
    As root, as an ordinary user and in a container (the uid mode)."""
    need_root_and_emu()
    tmp, kit_root, run_as = grader_as(who, tmp_path_factory, request, lab="02-tiled-matmul")
    try:
        cls = tmp / "class"
        (cls / "forger").mkdir(parents=True)
        shutil.copy(ATTACKS.parent / "02-tiled-matmul" / "forge_reuse_counts.cu", cls / "forger" / "tiled_matmul.cu")
        (cls / "ref").mkdir()
        shutil.copy(kit.ROOT / "solutions" / "02-tiled-matmul" / "tiled_matmul.cu", cls / "ref" / "tiled_matmul.cu")
        if who == "user":
            give_to_ta(tmp)
        if who == "container":
            cls.chmod(0o700)
        p = kit.run(run_as([kit_root / "gpulab", "grade", "02-tiled-matmul", cls, "--backend", "emu", "--dataset",
                            "width-0064", "--records", tmp / "records", "--timeout", "20"]), timeout=600)
        assert p.returncode == 0, (p.stdout[-2000:], p.stderr[-2000:])
        recs = {r: json.loads((tmp / "records" / f"{r}.json").read_text()) for r in ("forger", "ref")}
        assert recs["ref"]["score"] == kit.checked_max(recs["ref"]) == recs["ref"]["max_score"], recs["ref"]
        rec = recs["forger"]
        reqs = {r["name"]: r for r in rec["requirements"]}
        assert all(d["status"] == "pass" for d in rec["datasets"]), [d["message"] for d in rec["datasets"]]
        assert reqs["shared_memory"]["score"] == 1, reqs["shared_memory"]
        assert reqs["global_reuse"]["score"] == 0 and "no loop of the source accumulates" in \
            reqs["global_reuse"]["message"], reqs["global_reuse"]
        assert rec["score"] == rec["max_score"] - reqs["barrier"]["max_score"] - reqs["global_reuse"]["max_score"]
    finally:
        if who != "root":
            shutil.rmtree(tmp, ignore_errors=True)


def test_forged_reuse_counts_earn_nothing_on_either_backend(backend):
    """On a GPU too the [global_reuse] counts come from the emulator's
    checked run, inside the student's process: there the source's side is
    the checked build's own reading (emucc --facts, read before its run), so
    forge_reuse_counts.cu loses the point on both backends, and the
    reference keeps it."""
    forger = ATTACKS.parent / "02-tiled-matmul" / "forge_reuse_counts.cu"
    for path, met in ((forger, False), (kit.ROOT / "solutions" / "02-tiled-matmul" / "tiled_matmul.cu", True)):
        p = kit.gpulab("check", "02-tiled-matmul", path, "--backend", backend, "--dataset", "width-0064",
                       "--format", "json", timeout=600)
        rec = json.loads(p.stdout)
        reuse = {r["name"]: r for r in rec["requirements"]}["global_reuse"]
        assert (reuse["status"] == "pass") == met, (path.name, reuse)
        if not met:
            assert "no loop of the source accumulates" in reuse["message"], reuse


def test_a_host_loop_earns_nothing_on_either_backend(backend, tmp_path):
    """A right output computed on the host, with lines of guessed kernel
    tokens printed, gets requirement_failed on every dataset; the honest
    kernel beside it gets full marks (its token came back)."""
    if backend == "emu":
        need_root_and_emu()
    cls = tmp_path / "class"
    (cls / "host").mkdir(parents=True)
    shutil.copy(ATTACKS / "host_only.cu", cls / "host" / "basic_matmul.cu")
    (cls / "alice").mkdir()
    shutil.copy(SOLUTION, cls / "alice" / "basic_matmul.cu")
    p = kit.gpulab("grade", LAB, cls, "--backend", backend, "--no-sanitize", "--records", tmp_path / "records",
                   "--format", "json", timeout=600)
    assert p.returncode == 0, p.stderr
    subs = {s["id"]: s for s in json.loads(p.stdout)["submissions"]}
    assert subs["alice"]["score"] == kit.checked_max(subs["alice"]) > 0
    assert subs["host"]["score"] == 0
    for d in subs["host"]["datasets"]:
        assert d["status"] == "requirement_failed" and "no kernel of yours ran" in d["message"], d


READ_THE_TOKEN = r"""
#include <stdio.h>
extern "C" unsigned long long gpulab_kernel_token(void) __attribute__((weak));

/* Reads (and clears) what the kernel stored: the token XORed with its 20 x
 * 20 block. Then prints the token XORed with a 16 x 16 block, as the
 * harness would: the kit would judge the tile against 256 threads. */
static void forge_block(void)
{
    if (!gpulab_kernel_token) {
        fprintf(stderr, "read_token: no reader to call\n");
        return;
    }
    unsigned long long v = gpulab_kernel_token();
    unsigned long long token = v ^ (20ull | 20ull << 11 | 1ull << 22);
    printf("\n@gpulab\tkernel_token\t%llx\n", token ^ (16ull | 16ull << 11 | 1ull << 22));
    fflush(stdout);
    fprintf(stderr, "read_token: read %llx\n", v);
}
"""


def test_the_token_reader_is_out_of_the_students_reach(backend, tmp_path):
    """The harness's reader of the kernel token (read and clear) was a
    function of the student's translation unit that the student could call:
    lab 04's one-thread-per-input-element program (20 x 20 blocks, which
    [two_batch] fails) read it after its launch and printed the token with a
    16 x 16 block, and earned [two_batch] (full marks). The reader now has a
    name as secret as the token's: the call finds nothing, and the program
    scores what it scores honestly, on both backends."""
    if backend == "emu":
        need_root_and_emu()
    lab = "04-conv-2batch"
    src = (PROGRAMS.parent / lab / "one_thread_per_input_element.cu").read_text()
    src = src.replace("void conv_2batch(", READ_THE_TOKEN + "\nvoid conv_2batch(", 1)
    src = src.replace("    CUDA_CHECK(cudaGetLastError());\n}", "    CUDA_CHECK(cudaGetLastError());\n    forge_block();\n}", 1)
    assert src.count("forge_block") == 2 and "<stdio.h>" in src
    (tmp_path / "class" / "mallory").mkdir(parents=True)
    (tmp_path / "class" / "mallory" / "conv_2batch.cu").write_text(src)
    p = kit.gpulab("grade", lab, tmp_path / "class", "--backend", backend, "--no-sanitize", "--dataset",
                   "gray-31x33-checker", "--records", tmp_path / "records", timeout=600)
    assert p.returncode == 0, p.stderr
    rec = json.loads((tmp_path / "records" / "mallory.json").read_text())
    d = rec["datasets"][0]
    assert d["status"] == "pass", (d["status"], d["message"])
    assert "read_token: no reader to call" in d["stderr"], d["stderr"][:500]
    (tb,) = [r for r in rec["requirements"] if r["name"] == "two_batch"]
    assert tb["status"] == "requirement_failed" and "20 x 20 = 400 threads" in tb["message"], tb


def test_links_hidden_names_and_id_clashes(tmp_path):
    """A submission that is a link is refused (graded as its target it could
    be the reference solution or a classmate's folder); a hidden folder is
    named on stderr; two folders that would share an id are both graded,
    under ids of their own, and both flagged: a folder's name cannot stop
    the class."""
    need_root_and_emu()
    cls = tmp_path / "class"
    (cls / "alice").mkdir(parents=True)
    shutil.copy(SOLUTION, cls / "alice" / "basic_matmul.cu")
    (cls / "eve").mkdir()
    (cls / "eve" / "basic_matmul.cu").symlink_to(SOLUTION)
    (cls / "mallory").symlink_to(cls / "alice")
    (cls / ".carol").mkdir()
    shutil.copy(SOLUTION, cls / ".carol" / "basic_matmul.cu")
    common = ["--backend", "emu", "--no-sanitize", "--dataset", DATASET]
    p = kit.gpulab("grade", LAB, cls, *common, "--records", tmp_path / "records", "--format", "json")
    assert p.returncode == 0, p.stderr
    subs = {s["id"]: s for s in json.loads(p.stdout)["submissions"]}
    assert set(subs) == {"alice", "eve", "mallory"}
    assert subs["alice"]["score"] == kit.checked_max(subs["alice"])
    for name in ("eve", "mallory"):
        assert subs[name]["score"] == 0
        assert subs[name]["datasets"][0]["status"] == "refused", subs[name]["datasets"][0]
        assert "symbolic link" in subs[name]["build"]["message"]
    assert ".carol" in p.stderr and "hidden" in p.stderr
    assert all("id_clash" not in s for s in subs.values())


def test_an_id_clash_grades_both_and_flags_both(tmp_path):
    """"s1001 smith" would take the id of the real s1001_smith (sorted
    first, it used to take it, or stop the batch): the folder named as its
    id keeps it, the other is graded as s1001_smith-2, each is scored on its
    own file, both records and gradebook rows say so, and a second run
    reuses both records."""
    need_root_and_emu()
    cls = tmp_path / "class"
    for name, src in (("s1001_smith", SOLUTION), ("s1001 smith", SKELETON), ("alice", SOLUTION)):
        (cls / name).mkdir(parents=True)
        shutil.copy(src, cls / name / "basic_matmul.cu")
    args = ["grade", LAB, cls, "--backend", "emu", "--no-sanitize", "--dataset", DATASET,
            "--records", tmp_path / "records", "--csv", tmp_path / "grades.csv", "--format", "json"]
    p = kit.gpulab(*args)
    assert p.returncode == 0, p.stderr
    assert "'s1001 smith' and 's1001_smith'" in p.stderr and "rename" in p.stderr, p.stderr
    subs = {s["id"]: s for s in json.loads(p.stdout)["submissions"]}
    assert set(subs) == {"alice", "s1001_smith", "s1001_smith-2"}
    real, other = subs["s1001_smith"], subs["s1001_smith-2"]
    assert real["score"] == kit.checked_max(real) > 0 and real["file"].endswith("s1001_smith/basic_matmul.cu")
    assert other["score"] == 0 and other["file"].endswith("s1001 smith/basic_matmul.cu")
    for rec in (real, other):
        validate.check_json(rec, "record.schema.json")
        assert "s1001 smith" in rec["id_clash"] and rec["id"] in rec["id_clash"], rec["id_clash"]
    assert "id_clash" not in subs["alice"]
    rows = {r.split(",")[0]: r for r in (tmp_path / "grades.csv").read_text().splitlines()[1:]}
    assert set(rows) == {"alice", "s1001_smith", "s1001_smith-2"}
    assert "id clash" in rows["s1001_smith"] and "id clash" in rows["s1001_smith-2"]
    assert "id clash" not in rows["alice"]
    again = kit.gpulab(*args)
    assert again.returncode == 0, again.stderr
    assert all(s["grading_s"] == subs[s["id"]]["grading_s"] for s in json.loads(again.stdout)["submissions"])


def test_the_uid_mode_refuses_to_grade_beside_readable_answers(tmp_path, no_namespaces):
    """As root where namespaces are refused, submissions run as users of
    their own, which keeps nothing from them that other users may read:
    grade refuses (exit 3) while the kit's answer keys or the class are
    open to other users, naming the path and the fix."""
    need_root_and_emu()
    if not (kit.ROOT / "solutions").stat().st_mode & 0o005:
        pytest.skip("this kit's solutions are already closed to other users")
    (tmp_path / "class" / "alice").mkdir(parents=True)
    shutil.copy(SOLUTION, tmp_path / "class" / "alice" / "basic_matmul.cu")
    p = kit.run([no_namespaces, kit.GPULAB, "grade", LAB, tmp_path / "class", "--backend", "emu", "--no-sanitize",
                 "--dataset", DATASET, "--records", tmp_path / "records"])
    assert p.returncode == 3, p.stderr
    assert str(kit.ROOT / "solutions") in p.stderr and "chmod o-rwx" in p.stderr, p.stderr
    # every open one at once, not one a refused run
    for part in ("solutions", "datasets", "docs/instructor"):
        if (kit.ROOT / part).stat().st_mode & 0o005:
            assert f"  {kit.ROOT / part}\n" in p.stderr and f"'{kit.ROOT / part}'" in p.stderr, p.stderr
    assert "seccomp" in p.stderr and "sysctl" not in p.stderr, p.stderr
    assert not list((tmp_path / "records").glob("*.json"))


@pytest.mark.parametrize("sandbox", ["userns", "uid"])
def test_the_references_as_a_ta_or_in_a_container(backend, tmp_path, no_namespaces, sandbox):
    """Every lab's reference solution, graded as an ordinary user (user
    namespaces) and as root where namespaces are refused (a user per
    submission), gets full marks on each backend: the GPU's device files
    and driver are there in both modes."""
    need_root_and_emu()
    top = Path(tempfile.mkdtemp(prefix="gpulab-modes-"))
    try:
        top.chmod(0o755)
        if sandbox == "userns":
            if kit_open_to_others():
                pytest.skip(kit_open_to_others())
            probe = kit.run(as_ta(["unshare", "--user", "--map-root-user", "true"], top))
            if probe.returncode != 0:
                pytest.skip(f"this machine refuses user namespaces to an ordinary user: {probe.stderr.strip()}")
            gp, wrap = kit.GPULAB, lambda args: as_ta(args, top / "home")
            (top / "home").mkdir()
            give_to_ta(top / "home")
        else:
            gp, wrap = private_kit_copy(top / "kit") / "gpulab", lambda args: [no_namespaces, *args]
        for lab_json in sorted((kit.ROOT / "labs").glob("*/lab.json")):
            lab = lab_json.parent.name
            src = json.loads(lab_json.read_text())["source"]
            cls = top / lab / "class"
            (cls / "ref").mkdir(parents=True)
            shutil.copy(kit.ROOT / "solutions" / lab / src, cls / "ref" / src)
            cls.chmod(0o700)
            if sandbox == "userns":
                give_to_ta(top / lab)
            p = kit.run(wrap([gp, "grade", lab, cls, "--backend", backend, "--records", top / lab / "records",
                              "--timeout", "60"]), timeout=900)
            assert p.returncode == 0, (lab, p.stdout[-2000:], p.stderr[-2000:])
            rec = json.loads((top / lab / "records" / "ref.json").read_text())
            assert rec["sandbox"] == sandbox, rec["sandbox"]
            # every row that lost points, requirements too: a requirement
            # lost under load says which (once, in CI, lab 03 in uid mode
            # came out 32/33 with every dataset passing)
            assert rec["score"] == kit.checked_max(rec), (
                lab, [(d["name"], d["status"], d["message"][:200]) for d in rec["datasets"] if d["status"] != "pass"],
                [(r["name"], r["status"], r["message"][:300]) for r in rec.get("requirements", [])
                 if r["status"] != "pass"])
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_no_isolation_no_grade(tmp_path, no_namespaces):
    """Where runs cannot be isolated (here: not root, and user namespaces
    refused by a seccomp filter), grade refuses, saying why and what to do,
    unless --sandbox none is explicit, which every output then states."""
    if os.geteuid() != 0:
        pytest.skip("runs as root to drop to an unprivileged user")
    setpriv = shutil.which("setpriv")
    if not setpriv:
        pytest.skip("setpriv (util-linux) is missing")
    if kit.emu_problem():
        pytest.fail(kit.emu_problem())
    for d in [kit.ROOT, *kit.ROOT.parents]:
        if not d.stat().st_mode & 0o001:
            pytest.skip(f"an unprivileged user cannot reach the kit here ({d} is not open to others)")
    top = Path(tempfile.mkdtemp(prefix="gpulab-nosandbox-"))
    try:
        (top / "class" / "alice").mkdir(parents=True)
        shutil.copy(SOLUTION, top / "class" / "alice" / "basic_matmul.cu")
        for p in [top, *top.rglob("*")]:
            p.chmod(0o777 if p.is_dir() else 0o666)
        drop = [no_namespaces, setpriv, "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
        args = [str(kit.GPULAB), "grade", LAB, str(top / "class"), "--backend", "emu", "--no-sanitize",
                "--dataset", DATASET]
        env = {"TMPDIR": str(top), "HOME": str(top)}
        p = kit.run([*drop, *args, "--records", str(top / "rec1")], env=env, cwd=top)
        assert p.returncode == 3, p.stderr
        assert "cannot isolate" in p.stderr and "--sandbox none" in p.stderr
        assert "user namespaces" in p.stderr, p.stderr
        # the cause here is the filter (a container's), not the machine's settings
        assert "seccomp filter" in p.stderr and "sysctl" not in p.stderr, p.stderr
        assert not (top / "rec1").exists()
        p = kit.run([*drop, *args, "--records", str(top / "rec2"), "--sandbox", "none", "--format", "json"],
                    env=env, cwd=top)
        assert p.returncode == 0, p.stderr
        doc = json.loads(p.stdout)
        assert "NOT isolated" in doc["sandbox"]
        assert all("NOT isolated" in s["sandbox"] for s in doc["submissions"])
        assert "warning" in p.stderr and "--sandbox none" in p.stderr
    finally:
        shutil.rmtree(top, ignore_errors=True)


@pytest.mark.parametrize("mode", ["--jobs", "--parallel"])
def test_no_daemon_outlives_a_run_without_the_sandbox(tmp_path, mode):
    """--sandbox none has no pid namespace: the grader is a subreaper, and
    what a run leaves (here a daemon, setsid() and a double fork, that
    waits 2 s and then writes beside the records and appends to the CSV)
    is found and killed when the run ends. With --parallel each worker
    kills only what its own runs left: the honest neighbour is graded."""
    need_root_and_emu()
    mark = "gpulab-daemon-" + uuid.uuid4().hex[:12]
    cls = tmp_path / "class"
    (cls / "alice").mkdir(parents=True)
    shutil.copy(SOLUTION, cls / "alice" / "basic_matmul.cu")
    (cls / "daemon").mkdir()
    src = (ATTACKS / "daemon_rewrites.cu").read_text()
    (cls / "daemon" / "basic_matmul.cu").write_text(
        src.replace("@RECORDS@", str(tmp_path / "records")).replace("@MARK@", mark))
    try:
        p = kit.gpulab("grade", LAB, cls, "--backend", "emu", mode, "2", "--no-sanitize", "--dataset", DATASET,
                       "--sandbox", "none", "--records", tmp_path / "records", "--csv", tmp_path / "grades.csv")
        assert p.returncode == 0, p.stderr
        csv = (tmp_path / "grades.csv").read_text()
        records = {r.name: r.read_text() for r in (tmp_path / "records").glob("*.json")}
        time.sleep(3.5)  # the daemon, had it lived, has written by now
        assert not processes_with(mark), "a run's daemon outlived the grader"
        assert not (tmp_path / "tampered").exists(), "a run's daemon wrote beside the records"
        assert (tmp_path / "grades.csv").read_text() == csv, "a run's daemon changed the CSV"
        assert {r.name: r.read_text() for r in (tmp_path / "records").glob("*.json")} == records
        for name in ("alice", "daemon"):
            rec = json.loads(records[f"{name}.json"])
            assert rec["score"] == kit.checked_max(rec) > 0, (name, rec["datasets"][0]["message"])
    finally:
        for pid in processes_with(mark):
            try:
                os.kill(int(pid), 9)
            except OSError:
                pass


# ---- the checkers' runs look like the graded runs ---------------------------

HIDE_RACE = r'''
// Races in shared memory (a race that leaves the output right) only where
// the run does not look like a checker's: argv[0], the working folder's
// name, the kit's variables in the environment.
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width, int race)
{
    __shared__ int scratch;
    if (race)
        scratch = threadIdx.x; /* every thread, no barrier, nothing reads it */
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += M[Row * Width + k] * N[k * Width + Col];
        P[Row * Width + Col] = Pvalue;
    }
}

static int looks_checked(void)
{
    char cmd[4096] = "", cwd[4096] = "";
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (f) {
        cmd[fread(cmd, 1, sizeof cmd - 1, f)] = '\0';
        fclose(f);
    }
    const char *name = strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd;
    if (!getcwd(cwd, sizeof cwd))
        return 1;
    const char *folder = strrchr(cwd, '/') ? strrchr(cwd, '/') + 1 : cwd;
    return strcmp(name, "lab-program") != 0 || strncmp(folder, "run-", 4) != 0 ||
           getenv("GPULAB_NO_GUARDS") || getenv("GPULAB_EMU_FAULTS") || !getenv("GPULAB_EMU_LOG");
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    int race = !looks_checked();
    fprintf(stderr, "hide_race: %s\n", race ? "racing" : "behaving");
    size_t bytes = (size_t)width * width * sizeof(float);
    float *d_M, *d_N, *d_P;
    CUDA_CHECK(cudaMalloc((void **)&d_M, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_N, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_P, bytes));
    CUDA_CHECK(cudaMemcpy(d_M, M, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    MatrixMulKernel<<<grid, block>>>(d_M, d_N, d_P, width, race);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_M));
    CUDA_CHECK(cudaFree(d_N));
    CUDA_CHECK(cudaFree(d_P));
}
'''


def test_a_race_hidden_from_the_checkers_is_found(tmp_path):
    """A submission that races only where its run does not look like a
    checker's (argv[0], its folder's name, the kit's variables) cannot tell
    them apart: the checkers see the race, and its right output is
    `unsafe`, worth nothing, and no_hazards fails."""
    need_root_and_emu()
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    (tmp_path / "class" / "mallory").mkdir(parents=True)
    (tmp_path / "class" / "mallory" / "basic_matmul.cu").write_text(HIDE_RACE)
    p = kit.gpulab("grade", LAB, tmp_path / "class", "--backend", "emu", "--dataset", DATASET,
                   "--records", tmp_path / "records")
    assert p.returncode == 0, p.stderr
    rec = json.loads((tmp_path / "records" / "mallory.json").read_text())
    d = rec["datasets"][0]
    assert "hide_race: racing" in d["stderr"], d["stderr"][:500]
    assert d["status"] == "unsafe" and d["score"] == 0, (d["status"], d["message"])
    assert [f["kind"] for f in d["sanitizer"]["findings"]] == ["race"], d["sanitizer"]
    (hazards,) = [r for r in rec["requirements"] if r["name"] == "no_hazards"]
    assert hazards["status"] == "requirement_failed" and rec["score"] == 0


SLEEPS_UNDER_THE_CHECKERS = r"""
// A right kernel, and a constructor that sleeps for ten minutes where the
// race detector is linked in (its memcpy, a weak reference that the graded
// build leaves null): the checkers' run never gets ready.
#include "lab.h"
#include <stddef.h>
#include <unistd.h>
extern "C" void *emu_race_memcpy_(void *, const void *, size_t) __attribute__((weak));
__attribute__((constructor)) static void stall_the_checkers(void)
{
    if (emu_race_memcpy_)
        sleep(600);
}
__global__ void Product(const float *M, const float *N, float *P, int width)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < width && c < width) {
        float v = 0;
        for (int k = 0; k < width; ++k)
            v += M[r * width + k] * N[k * width + c];
        P[r * width + c] = v;
    }
}
void basic_matmul(const float *M, const float *N, float *P, int width)
{
    float *dM, *dN, *dP;
    size_t bytes = (size_t)width * width * sizeof(float);
    cudaMalloc(&dM, bytes); cudaMalloc(&dN, bytes); cudaMalloc(&dP, bytes);
    cudaMemcpy(dM, M, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dN, N, bytes, cudaMemcpyHostToDevice);
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    Product<<<grid, block>>>(dM, dN, dP, width);
    cudaMemcpy(P, dP, bytes, cudaMemcpyDeviceToHost);
    cudaFree(dM); cudaFree(dN); cudaFree(dP);
}
"""


def test_a_checker_run_that_never_gets_ready_is_stopped_at_the_start_up_limit(tmp_path):
    """A checker's run has the graded run's start-up limit and as long again
    (40 s), whatever the checkers' own time limit: a constructor that
    sleeps only where the race detector is linked cost the batch the
    checkers' whole limit (two minutes at least; ten with --timeout 60),
    now 40 s, and the record says why no_hazards was not earned."""
    need_root_and_emu()
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    (tmp_path / "class" / "mallory").mkdir(parents=True)
    (tmp_path / "class" / "mallory" / "basic_matmul.cu").write_text(SLEEPS_UNDER_THE_CHECKERS)
    start = time.monotonic()
    p = kit.gpulab("grade", LAB, tmp_path / "class", "--backend", "emu", "--dataset", DATASET, "--timeout", "60",
                   "--records", tmp_path / "records", timeout=900)
    took = time.monotonic() - start
    assert p.returncode == 0, p.stderr
    rec = json.loads((tmp_path / "records" / "mallory.json").read_text())
    d = rec["datasets"][0]
    assert d["status"] == "pass", (d["status"], d["message"])
    assert "was not ready for its dataset within 40 s" in json.dumps(d["sanitizer"]), d["sanitizer"]
    (hazards,) = [r for r in rec["requirements"] if r["name"] == "no_hazards"]
    assert hazards["score"] == 0, hazards
    assert took < 100, f"the batch took {took:.0f} s"


# Races in shared memory (the output stays right) only where the build is
# not instrumented for ThreadSanitizer (the race build): the compiler's own
# macro, spelt by pasting two halves that no scan of the source finds.
HIDE_RACE_PASTED = r"""#include "lab.h"

__global__ void Product(const float *M, const float *N, float *P, int width)
{
    __shared__ int scratch;
#define GLUE(a, b) a##b
#if !GLUE(__SANITIZE_, THREAD__)
    scratch = threadIdx.x; /* every thread, no barrier: a race nothing reads */
#endif
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < width && c < width) {
        float v = 0;
        for (int k = 0; k < width; ++k)
            v += M[r * width + k] * N[k * width + c];
        P[r * width + c] = v;
    }
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    float *dM, *dN, *dP;
    size_t bytes = (size_t)width * width * sizeof(float);
    cudaMalloc(&dM, bytes); cudaMalloc(&dN, bytes); cudaMalloc(&dP, bytes);
    cudaMemcpy(dM, M, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dN, N, bytes, cudaMemcpyHostToDevice);
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    Product<<<grid, block>>>(dM, dN, dP, width);
    cudaMemcpy(P, dP, bytes, cudaMemcpyDeviceToHost);
    cudaFree(dM); cudaFree(dN); cudaFree(dP);
}
"""


def test_a_race_hidden_by_a_macro_is_found(tmp_path):
    """No macro in the student's file tells the race build from the graded
    one: __SANITIZE_THREAD__, spelt by token pasting where a scan of the
    source cannot see it, is undefined in the race build too, so the race
    the graded build runs is the race the checkers see (5/5 before, now
    unsafe, 0). hide_race_macro.cu, which names EMU_MODE_RACE, is in the
    attack batch (refused)."""
    need_root_and_emu()
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    (tmp_path / "class" / "mallory").mkdir(parents=True)
    (tmp_path / "class" / "mallory" / "basic_matmul.cu").write_text(HIDE_RACE_PASTED)
    p = kit.gpulab("grade", LAB, tmp_path / "class", "--backend", "emu", "--dataset", DATASET,
                   "--records", tmp_path / "records")
    assert p.returncode == 0, p.stderr
    rec = json.loads((tmp_path / "records" / "mallory.json").read_text())
    d = rec["datasets"][0]
    assert d["status"] == "unsafe" and d["score"] == 0, (d["status"], d["message"])
    assert [f["kind"] for f in d["sanitizer"]["findings"]] == ["race"], d["sanitizer"]
    assert rec["score"] == 0


# Lab 04 (its checkers list the faulting threads of a run that left no
# output): one line per run, of what the run can see of itself cheaply.
OBSERVER = r'''
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
extern char **environ;

static const char *base(const char *path)
{
    return strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
}

void conv_2batch(const float *I, float *P, int height, int width, int channels, const float *mask)
{
    (void)I; (void)P; (void)height; (void)width; (void)channels; (void)mask;
    char cmd[4096], cwd[4096];
    FILE *f = fopen("/proc/self/cmdline", "r");
    size_t n = f ? fread(cmd, 1, sizeof cmd - 1, f) : 0;
    if (f)
        fclose(f);
    cmd[n] = '\0';
    FILE *out = fopen("@OUT@", "a");
    if (!out || !getcwd(cwd, sizeof cwd))
        abort();
    fprintf(out, "argv %s", base(cmd));
    for (size_t i = strlen(cmd) + 1; i < n; i += strlen(cmd + i) + 1)
        fprintf(out, " %s", cmd + i);
    fprintf(out, " | cwd %s | env", base(cwd));
    for (char **e = environ; *e; e++) {
        size_t len = strcspn(*e, "=");
        fprintf(out, " %.*s", (int)len, *e);
        if (strncmp(*e, "GPULAB", 6) == 0)
            fprintf(out, "=%s", base(*e + len + 1));
    }
    fprintf(out, "\n");
    fclose(out);
    if (@CRASH@)
        abort(); /* no output: the checkers list the faulting threads */
}
'''


@pytest.mark.parametrize("crash", [0, 1])
def test_checker_runs_look_like_the_graded_run(tmp_path, crash):
    """Every run of a dataset, graded or under the checkers (the emulator's
    checked build, its race and bounds checks in one run, linked to list
    faulting threads where the run left no output), has the same program name, arguments, folder name
    and environment (the kit's variables' values too, but for their
    folder). --sandbox none, so that the program can tell the test."""
    need_root_and_emu()
    seen = tmp_path / "seen.txt"
    (tmp_path / "class" / "eve").mkdir(parents=True)
    src = OBSERVER.replace("@OUT@", str(seen)).replace("@CRASH@", str(crash))
    (tmp_path / "class" / "eve" / "conv_2batch.cu").write_text(src)
    p = kit.gpulab("grade", "04-conv-2batch", tmp_path / "class", "--backend", "emu", "--dataset", "gray-1x1",
                   "--sandbox", "none", "--records", tmp_path / "records", "--format", "json")
    assert p.returncode == 0, p.stderr
    rec = json.loads((tmp_path / "records" / "eve.json").read_text())
    assert rec["datasets"][0]["status"] == ("crash" if crash else "wrong"), rec["datasets"][0]["message"]
    assert rec["datasets"][0]["sanitizer"]["ran"], rec["datasets"][0]["sanitizer"]
    # the graded run, the checked build's; then, the output being wrong, the
    # repair search's runs of candidate edits (diagnosis only: they award
    # nothing, and each says which edit is live), not held to this: a
    # candidate's edit of the program may write anything there, bytes that
    # are no text among them, so only the first two lines are decoded
    lines = [l.decode("utf-8", "replace") for l in seen.read_bytes().split(b"\n")[:2]]
    assert len(lines) == 2, lines
    assert lines[0].startswith("argv lab-program . output.tensor | cwd run-gray-1x1 | env"), lines[0]
    assert "GPULAB_EMU_LOG=gpulab-emu.log" in lines[0], lines[0]
    for line in lines[1:]:
        assert line == lines[0], ("differs: ", set(line.split()) ^ set(lines[0].split()), line[:120])


READ_EVERYTHING = r'''
// Prints whatever it can read: the secret and a classmate's file named by
// their absolute paths, the kit's reference solution, and the run's mounts.
#include "lab.h"
#include <stdio.h>
static void show(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[512];
    fprintf(stderr, "== %s: %s\n", path, f ? "opened" : "not opened");
    while (f && fgets(line, sizeof line, f))
        fputs(line, stderr);
    if (f)
        fclose(f);
}
void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N; (void)P; (void)width;
    show("@SECRET@");
    show("@CLASSMATE@");
    show("@KIT@/solutions/01-basic-matmul/basic_matmul.cu");
    show("/proc/self/mountinfo");
}
'''


def test_runs_see_nothing_wherever_the_class_and_secret_live(tmp_path):
    """A class and a secret kept among the machine's software (/usr/local),
    which every run's root shows read-only, are still out of reach; the
    run's mounts do not name the kit."""
    need_root_and_emu()
    top = Path(tempfile.mkdtemp(prefix="gpulab-attack-", dir="/usr/local/share"))
    try:
        secret = top / "secret.txt"
        secret.write_text("gpulab-usr-secret-" + uuid.uuid4().hex + "\n")
        secret.chmod(0o644)  # even readable by all: hidden
        cls = top / "class"
        (cls / "alice").mkdir(parents=True)
        shutil.copy(SOLUTION, cls / "alice" / "basic_matmul.cu")
        (cls / "mallory").mkdir()
        src = READ_EVERYTHING.replace("@SECRET@", str(secret)).replace("@KIT@", str(kit.ROOT))
        src = src.replace("@CLASSMATE@", str(cls / "alice" / "basic_matmul.cu"))
        (cls / "mallory" / "basic_matmul.cu").write_text(src)
        p = kit.gpulab("grade", LAB, cls, "--backend", "emu", "--no-sanitize", "--dataset", DATASET,
                       "--secret-file", secret, "--records", tmp_path / "records", "--format", "json")
        assert p.returncode == 0, p.stderr
        rec = json.loads((tmp_path / "records" / "mallory.json").read_text())
        err = rec["datasets"][0]["stderr"]
        assert err.count("not opened") == 3, err[:3000]
        assert "== /proc/self/mountinfo: opened" in err, err[:3000]
        assert secret.read_text().strip() not in json.dumps(rec)
        assert "Pvalue" not in err
        assert str(kit.ROOT) not in err.split("== /proc/self/mountinfo")[1], "the run's mounts name the kit"
        assert json.loads((tmp_path / "records" / "alice.json").read_text())["score"] == 1
    finally:
        shutil.rmtree(top, ignore_errors=True)


def test_a_linked_upload_is_refused_not_quoted(tmp_path):
    """A Gradescope upload is one student's folder; an uploaded zip can hold
    a link. A lab file that links to a root-only file (the package's copy of
    the secret) must not be compiled: the compiler would quote it back."""
    need_root_and_emu()
    secret = tmp_path / "secret"
    secret.write_text("gpulab-upload-secret-" + uuid.uuid4().hex + "\n")
    secret.chmod(0o600)
    upload = tmp_path / "submission"
    upload.mkdir()
    (upload / "basic_matmul.cu").symlink_to(secret)
    out = tmp_path / "results.json"
    p = kit.gpulab("grade", LAB, upload, "--backend", "emu", "--no-sanitize", "--format", "gradescope",
                   "--records", tmp_path / "records", "--out", out)
    assert p.returncode == 0, p.stderr
    res = out.read_text()
    assert secret.read_text().strip() not in res + p.stdout + p.stderr
    assert json.loads(res)["score"] == 0 and "symbolic link" in res


def test_grading_under_umask_077_is_private_and_works(tmp_path):
    """An instructor's umask 077 (a Slurm task's): the builds and runs,
    each a user of its own, still read the kit's copies in their work
    folders (before: every build a compile_error, 'Permission denied'), and
    the records and the gradebook are the instructor's alone."""
    need_root_and_emu()
    (tmp_path / "class" / "alice").mkdir(parents=True)
    shutil.copy(SOLUTION, tmp_path / "class" / "alice" / "basic_matmul.cu")
    records = tmp_path / "out" / "records"
    p = kit.run(["sh", "-c", 'umask 077 && exec "$@"', "sh", kit.ROOT / "gpulab", "grade", LAB, tmp_path / "class",
                 "--backend", "emu", "--no-sanitize", "--dataset", DATASET, "--records", records, "--csv",
                 tmp_path / "out" / "grades.csv"])
    assert p.returncode == 0, p.stderr
    rec = json.loads((records / "alice.json").read_text())
    assert rec["datasets"][0]["status"] == "pass", rec["build"]["message"]
    for f in (records, records / "alice.json", tmp_path / "out" / "grades.csv"):
        assert f.stat().st_mode & 0o077 == 0, (f, oct(f.stat().st_mode))
    old = os.umask(0o022)  # and under the usual umask too
    try:
        p = kit.gpulab("grade", LAB, tmp_path / "class", "--backend", "emu", "--no-sanitize", "--dataset", DATASET,
                       "--records", tmp_path / "again", "--csv", tmp_path / "again.csv")
    finally:
        os.umask(old)
    assert p.returncode == 0, p.stderr
    for f in (tmp_path / "again", tmp_path / "again" / "alice.json", tmp_path / "again.csv"):
        assert f.stat().st_mode & 0o077 == 0, (f, oct(f.stat().st_mode))


def children_of(pid):
    """The pids whose parent is pid."""
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                if int((d / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(d.name))
            except (OSError, IndexError, ValueError):
                pass
    return out


def test_a_dead_worker_is_its_submissions_grader_error(tmp_path):
    """A grading worker (--parallel) that dies before writing its record
    (killed here; a full disk under the grader's own copies did it in the
    uid mode) makes that submission's record grader_error, to be graded
    again next time; the class is graded to its end and gpulab leaves
    nothing running."""
    need_root_and_emu()
    cls = tmp_path / "class"
    (cls / "alice").mkdir(parents=True)
    shutil.copy(SOLUTION, cls / "alice" / "basic_matmul.cu")
    (cls / "loop").mkdir()
    shutil.copy(ATTACKS / "kernel_loop.cu", cls / "loop" / "basic_matmul.cu")
    records = tmp_path / "records"
    p = subprocess.Popen([kit.ROOT / "gpulab", "grade", LAB, cls, "--backend", "emu", "--no-sanitize", "--parallel",
                          "2", "--dataset", DATASET, "--timeout", "60", "--records", records],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        t0 = time.monotonic()
        while not (records / "alice.json").exists() and time.monotonic() - t0 < 300:
            time.sleep(0.2)
        time.sleep(1)
        workers = children_of(p.pid)
        assert workers, "no grading worker left to stop"
        for w in workers:
            os.kill(w, signal.SIGKILL)
        out, err = p.communicate(timeout=300)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 2, err[-2000:]  # a grader_error: gpulab says so in its status
    alice = json.loads((records / "alice.json").read_text())
    assert alice["datasets"][0]["status"] == "pass"
    loop = json.loads((records / "loop.json").read_text())
    d = loop["datasets"][0]
    assert d["status"] == "grader_error" and "the grader failed while grading" in d["message"], d
    assert "loop: the grader failed while grading" in err, err[-2000:]


def test_a_full_disk_under_the_graders_copies_is_that_submissions_grader_error():
    """In the uid mode a run's build folder is on the disk of the grader's
    work folders: fill_build_dir.cu, here without its output, fills that
    disk (a 48 MB tmpfs, as TMPDIR), and the grader's own copy of a
    dataset's inputs for the submission's next run meets ENOSPC. Without
    --parallel that copy stopped the whole batch ("cannot copy ...: No
    space left on device": no record for it or for the students after it,
    no gradebook); now it is that submission's grader_error, graded again
    next time, and the class is graded to its end."""
    need_root_and_emu()
    tmp = Path(tempfile.mkdtemp(prefix="gpulab-full-copy-"))
    small = tmp / "small"
    mounted = False
    try:
        tmp.chmod(0o755)
        copy = private_kit_copy(tmp / "kit", labs=[LAB])
        cls = tmp / "class"
        filler = (ATTACKS / "fill_build_dir.cu").read_text()
        assert filler.count("    honest(M, N, P, width);\n") == 1
        filler = filler.replace("    honest(M, N, P, width);\n", "    (void)M, (void)N, (void)P, (void)width;\n")
        for name in ("alice", "filler", "zoe"):
            (cls / name).mkdir(parents=True)
            (cls / name / "basic_matmul.cu").write_text(filler if name == "filler" else SOLUTION.read_text())
        cls.chmod(0o700)
        small.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=48m,mode=1777", "tmpfs", small], check=True)
        mounted = True
        p = kit.run([copy / "gpulab", "grade", LAB, cls, "--backend", "emu", "--sandbox", "uid", "--no-sanitize",
                     "--jobs", "1", "--timeout", "30", "--records", tmp / "records", "--csv", tmp / "grades.csv"],
                    env={"TMPDIR": str(small)}, timeout=600)
        assert p.returncode == 2, p.stderr[-3000:]  # a grader_error: gpulab says so in its status
        assert "No space left on device" in p.stderr, p.stderr[-3000:]
        recs = {r.stem: json.loads(r.read_text()) for r in (tmp / "records").glob("*.json")}
        assert sorted(recs) == ["alice", "filler", "zoe"], p.stderr[-3000:]
        assert recs["alice"]["score"] == kit.checked_max(recs["alice"])
        d = recs["filler"]["datasets"][0]
        assert d["status"] == "grader_error" and "the grader failed while grading" in d["message"], d
        assert "filler: the grader failed while grading" in p.stderr, p.stderr[-3000:]
        # zoe's build may have met the full disk too: a grader_error, never a grade
        assert all(d["status"] in ("pass", "grader_error") for d in recs["zoe"]["datasets"]), recs["zoe"]
        assert "zoe" in (tmp / "grades.csv").read_text()
        assert list(small.iterdir()) == [], list(small.iterdir())
    finally:
        if mounted:
            subprocess.run(["umount", "-l", small])
        shutil.rmtree(tmp, ignore_errors=True)
