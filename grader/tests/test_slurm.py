"""gpulab slurm against a real Slurm: a one-node cluster on this machine
(Debian's slurm-wlm and munge), started by the `cluster` fixture as root
and stopped at the end; skipped with its reason where it cannot start.

A class of 12 (the reference solution, the skeleton, a program that never
ends on width 1) graded as 3 array tasks gives the gradebook of `gpulab
grade` on one machine; with one task cancelled mid-way, submitting again
grades only what has no record, and nothing twice. A job submitted by an
ordinary user (nobody) grades in the user-namespace sandbox.
"""
import hashlib
import json
import os
import pwd
import re
import shutil
import socket
import tempfile
import subprocess
import time
from pathlib import Path

import pytest

import kit

LAB = "01-basic-matmul"
SOLUTION = kit.ROOT / "solutions" / LAB / "basic_matmul.cu"
SKELETON = kit.ROOT / "skeletons" / LAB / "basic_matmul.cu"
SPINNER = kit.ROOT / "grader" / "tests" / "programs" / LAB / "spin_when_width_1.cu"
# one dataset, on which the spinner runs out of time (2 s): a slow submission
OPTIONS = ["--backend", "emu", "--dataset", "width-0001", "--timeout", "2", "--no-sanitize"]
DAEMONS = ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cluster_problem():
    """None where a one-node cluster can be started here, else why not."""
    if os.geteuid() != 0:
        return "starting Slurm's daemons (munged, slurmctld, slurmd) needs root"
    missing = [d for d in DAEMONS if not shutil.which(d) and not os.path.exists(f"/usr/sbin/{d}")]
    if missing:
        return ("Slurm is not installed (no " + ", ".join(missing) + "): apt-get install slurm-wlm munge, "
                "or make test, which installs them where it can")
    return kit.emu_problem()


def daemon(name):
    return shutil.which(name) or f"/usr/sbin/{name}"


def node_line(env):
    """This machine as slurmd sees it (slurmd -C), with the loopback address."""
    p = kit.run([daemon("slurmd"), "-C"], env=env, timeout=60)
    assert p.returncode == 0, p.stderr
    line = next(x for x in p.stdout.splitlines() if x.startswith("NodeName="))
    return line + " NodeAddr=127.0.0.1 State=UNKNOWN"


def write_config(tmp, env):
    for d in ("state", "spool", "log", "munge"):
        (tmp / d).mkdir(mode=0o700)
    # an ordinary user submits too (test_an_ordinary_users_job): munge's socket is everyone's
    (tmp / "munge").chmod(0o755)
    tmp.chmod(0o755)
    key = tmp / "munge" / "munge.key"
    key.write_bytes(os.urandom(1024))
    key.chmod(0o400)
    node = node_line(env)
    host = node.split()[0].split("=", 1)[1]
    conf = tmp / "slurm.conf"
    conf.write_text(f"""# one node on localhost, for grader/tests/test_slurm.py
ClusterName=gpulabtest
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={free_port()}
SlurmdPort={free_port()}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket={tmp}/munge/munge.socket
CredType=cred/munge
StateSaveLocation={tmp}/state
SlurmdSpoolDir={tmp}/spool
SlurmctldPidFile={tmp}/slurmctld.pid
SlurmdPidFile={tmp}/slurmd.pid
SlurmctldLogFile={tmp}/log/slurmctld.log
SlurmdLogFile={tmp}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
{node}
PartitionName=grading Nodes=ALL Default=YES MaxTime=INFINITE State=UP
""")
    return conf


@pytest.fixture(scope="module")
def cluster():
    problem = cluster_problem()
    if problem:
        pytest.skip(problem)
    # outside pytest's folder, which pytest keeps to root alone (0700): an
    # ordinary user's sbatch and squeue read slurm.conf and munge's socket
    tmp = Path(tempfile.mkdtemp(prefix="gpulab-slurm-"))
    env = dict(os.environ)
    conf = write_config(tmp, env)
    env["SLURM_CONF"] = str(conf)
    logs = open(tmp / "log" / "daemons.txt", "w")
    started = []

    def start(*argv):
        started.append(subprocess.Popen([str(a) for a in argv], env=env, stdout=logs, stderr=logs))

    try:
        start(daemon("munged"), "-F", "--force", f"--socket={tmp}/munge/munge.socket",
              f"--key-file={tmp}/munge/munge.key", f"--pid-file={tmp}/munge/munged.pid",
              f"--log-file={tmp}/log/munged.log", f"--seed-file={tmp}/munge/seed")
        deadline = time.monotonic() + 30
        while not (tmp / "munge" / "munge.socket").exists():
            assert time.monotonic() < deadline, "munged did not start: " + (tmp / "log" / "daemons.txt").read_text()
            time.sleep(0.1)
        start(daemon("slurmctld"), "-D", "-c")
        start(daemon("slurmd"), "-D")
        while True:
            p = kit.run(["sinfo", "--noheader", "--format=%t"], env=env, timeout=30)
            if p.returncode == 0 and p.stdout.strip() == "idle":
                break
            if time.monotonic() > deadline or any(d.poll() is not None for d in started):
                ctld = (tmp / "log" / "slurmctld.log").read_text()[-2000:] if (tmp / "log" / "slurmctld.log").exists() else ""
                pytest.skip(f"the one-node Slurm did not come up (sinfo: {p.stdout.strip()} {p.stderr.strip()}); "
                            f"slurmctld's log ends: {ctld}")
            time.sleep(0.3)
        yield {"env": {"SLURM_CONF": str(conf)}, "tmp": tmp}
    finally:
        kit.run(["scancel", "--full", "--quiet", "--partition", "grading"], env=env, timeout=60)
        for d in reversed(started):
            d.terminate()
            try:
                d.wait(timeout=30)
            except subprocess.TimeoutExpired:
                d.kill()
                d.wait()
        logs.close()
        shutil.rmtree(tmp, ignore_errors=True)


def shard_of(sub_id, n):
    """formats.md: the first 13 hex digits of sha256("gpulab-shard 1", NUL, id), mod n."""
    return int(hashlib.sha256(b"gpulab-shard 1\0" + sub_id.encode()).hexdigest()[:13], 16) % n


@pytest.fixture(scope="module")
def class_of_12(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("slurm-class")
    subs = tmp / "class"
    kinds = {}
    for i in range(4):
        for kind, src in (("sol", SOLUTION), ("skel", SKELETON), ("spin", SPINNER)):
            (subs / f"{kind}{i}").mkdir(parents=True)
            shutil.copy(src, subs / f"{kind}{i}" / "basic_matmul.cu")
            kinds[f"{kind}{i}"] = kind
    return {"tmp": tmp, "subs": subs, "kinds": kinds}


def records_of(folder):
    return {r.stem: json.loads(r.read_text()) for r in sorted(folder.glob("*.json"))}


def gradebook(records):
    return {k: (r["score"], [(d["name"], d["status"]) for d in r["datasets"]]) for k, r in records.items()}


def one_machine(class_of_12):
    """The class graded by gpulab grade alone (once per module)."""
    tmp = class_of_12["tmp"]
    if not (tmp / "one-machine").exists():
        t0 = time.monotonic()
        p = kit.gpulab("grade", LAB, class_of_12["subs"], *OPTIONS, "--records", tmp / "one-machine", timeout=600)
        assert p.returncode == 0, p.stderr
        class_of_12["one_machine_s"] = time.monotonic() - t0
    return gradebook(records_of(tmp / "one-machine"))


def slurm(cluster, *args, **kw):
    return kit.gpulab("slurm", LAB, *args, env=cluster["env"], **kw)


def job_of(out):
    m = re.search(r"submitted Slurm job (\d+)", out)
    assert m, out
    return m.group(1)


def task_logs(records, job):
    """Each task's log: {task: (shard size, graded, already graded)}; None where the task did not finish."""
    out = {}
    for log in (records / "slurm").glob(f"{job}_*.log"):
        text = log.read_text()
        task = int(log.stem.split("_")[1])
        size = re.search(r"shard \d+/\d+: (\d+) of the class's", text)
        done = re.search(r"(\d+) graded, (\d+) already graded", text)
        out[task] = (int(size.group(1)) if size else None,
                     (int(done.group(1)), int(done.group(2))) if done else None)
    return out


def wait_gone(cluster, job, limit=600):
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        p = kit.run(["squeue", "--noheader", "--jobs", job], env=cluster["env"], timeout=60)
        if p.returncode == 0 and not p.stdout.strip():
            return
        time.sleep(0.5)
    pytest.fail(f"job {job} still in the queue after {limit} s")


def test_three_tasks_give_the_one_machine_gradebook(cluster, class_of_12):
    want = one_machine(class_of_12)
    records = class_of_12["tmp"] / "records-3"
    t0 = time.monotonic()
    p = slurm(cluster, class_of_12["subs"], "--tasks", "3", *OPTIONS, "--records", records, "--wait",
              "--", "--cpus-per-task=1", timeout=900)
    took = time.monotonic() - t0
    assert p.returncode == 0, p.stdout + p.stderr
    job = job_of(p.stdout)
    for line in (f"squeue -j {job}", f"scancel {job}", f"{records}/slurm/{job}_K.log"):
        assert line in p.stdout, (line, p.stdout)
    assert "12 of the class's 12 submissions have a record" in p.stdout, p.stdout
    assert "class summary: 12 submissions" in p.stdout, p.stdout
    assert gradebook(records_of(records)) == want
    logs = task_logs(records, job)
    assert sorted(logs) == [0, 1, 2], logs
    # each task graded its own shard, every submission once, nothing reused
    assert sum(size for size, _ in logs.values()) == 12, logs
    for task, (size, done) in logs.items():
        assert done == (size, 0), (task, logs)
        assert size == sum(shard_of(i, 3) == task for i in class_of_12["kinds"]), (task, logs)
    print(f"\none machine: {class_of_12['one_machine_s']:.1f} s; 3 array tasks, 1 CPU each: {took:.1f} s "
          f"(shards of {[logs[t][0] for t in range(3)]})")


def test_a_cancelled_task_is_finished_by_submitting_again(cluster, class_of_12):
    want = one_machine(class_of_12)
    kinds = class_of_12["kinds"]
    records = class_of_12["tmp"] / "records-cancelled"
    shards = {k: sorted(i for i in kinds if shard_of(i, 3) == k) for k in range(3)}
    # the task to cancel: one with a spinner (2 s or more) after its first
    # submission, so that it is still grading when its first record appears
    victim = next(k for k, ids in shards.items() if any(kinds[i] == "spin" for i in ids[1:]))
    waiting = subprocess.Popen([str(kit.GPULAB), "slurm", LAB, str(class_of_12["subs"]), "--tasks", "3", *OPTIONS,
                                "--records", str(records), "--wait", "--", "--cpus-per-task=1"],
                               env={**os.environ, **cluster["env"], "NO_COLOR": "1"}, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    job = job_of(waiting.stdout.readline())  # said (and flushed) before the wait
    t0 = time.monotonic()
    while not any((records / f"{i}.json").exists() for i in shards[victim]):
        assert time.monotonic() - t0 < 300, "the task to cancel wrote no record"
        time.sleep(0.05)
    c = kit.run(["scancel", f"{job}_{victim}"], env=cluster["env"], timeout=60)
    assert c.returncode == 0, c.stderr
    out, err = waiting.communicate(timeout=600)
    wait_gone(cluster, job)
    before = {r.name: r.read_bytes() for r in records.glob("*.json")}
    lost = [i for i in shards[victim] if f"{i}.json" not in before]
    assert lost, "the cancelled task had finished its shard before it was cancelled"
    # --wait said what is missing, by name, and exited 1
    assert waiting.returncode == 1, out + err
    assert f"{12 - len(lost)} of the class's 12 submissions have a record" in out, out
    assert f"{len(lost)} without one ({', '.join(lost)})" in out, out
    assert 0 < len(before) < 12, sorted(before)
    first = task_logs(records, job)
    assert first[victim][1] is None, first  # it never got to its summary line

    # a record the cancel cut short at a grader's step (its compiler killed
    # under it, before the task itself got the signal) is grader_error, which
    # is graded again by design (formats.md); every other one stays as it is
    # (the batch's rule, reusable_record: any dataset of it grader_error; a
    # record has no status of its own, so the test of that alone missed a
    # record whose build the cancel killed, on a loaded machine)
    retried = sorted(n for n, data in before.items()
                     if json.loads(data).get("status") == "grader_error" or
                     any(d.get("status") == "grader_error" for d in json.loads(data).get("datasets", [])))
    p = slurm(cluster, class_of_12["subs"], "--tasks", "3", *OPTIONS, "--records", records, "--wait",
              "--", "--cpus-per-task=1", timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    again = job_of(p.stdout)
    assert "12 of the class's 12 submissions have a record" in p.stdout, p.stdout
    for name, data in before.items():  # nothing graded twice: the same bytes
        if name not in retried:
            assert (records / name).read_bytes() == data, name
    second = task_logs(records, again)
    assert sum(done[0] for _, done in second.values()) == len(lost) + len(retried), (second, lost, retried)
    assert len(lost) == 12 - len(before), lost
    assert sum(done[1] for _, done in second.values()) == len(before) - len(retried), second
    assert gradebook(records_of(records)) == want
    # no torn record: every .json is a whole record; a cancelled write leaves at most a .tmp. file
    assert all(r["lab"] == LAB for r in records_of(records).values())


def test_an_ordinary_users_job_grades_in_the_userns_sandbox(cluster, request):
    """Slurm runs a job as the user who submitted it: nobody's tasks grade
    as an ordinary user, in the user-namespace sandbox."""
    if not shutil.which("runuser"):
        pytest.skip("runuser (util-linux) is not installed")
    base = Path(tempfile.mkdtemp(prefix="gpulab-slurm-user-"))  # not in pytest's root-only folder
    request.addfinalizer(lambda: shutil.rmtree(base, ignore_errors=True))
    base.chmod(0o755)
    subs = base / "class"
    for name, src in (("alice", SOLUTION), ("bob", SKELETON), ("carol", SOLUTION)):
        (subs / name).mkdir(parents=True)
        shutil.copy(src, subs / name / "basic_matmul.cu")
    for f in [subs, *subs.rglob("*")]:
        f.chmod(0o755 if f.is_dir() else 0o644)
    records = base / "records"
    records.mkdir()
    shutil.chown(records, "nobody")
    probe = kit.run(["runuser", "-u", "nobody", "--", kit.GPULAB, "list"], cwd=base)
    if probe.returncode != 0:
        pytest.skip("nobody cannot run this kit's gpulab (a kit in a folder only root can read?): "
                    + probe.stderr[-300:])
    p = kit.run(["runuser", "-u", "nobody", "--", kit.GPULAB, "slurm", LAB, subs, "--tasks", "2", *OPTIONS,
                 "--records", records, "--wait", "--", "--cpus-per-task=1"],
                cwd=base, env={**cluster["env"], "HOME": str(base)}, timeout=600)
    logs = "".join(f.read_text() for f in (records / "slurm").glob("*.log")) if (records / "slurm").exists() else ""
    if p.returncode != 0 and "user namespace" in logs:
        pytest.skip("this machine refuses an ordinary user's namespaces: " + logs[-300:])
    assert p.returncode == 0, p.stdout + p.stderr + logs
    recs = records_of(records)
    assert {k: r["score"] for k, r in recs.items()} == {"alice": 1, "bob": 0, "carol": 1}, logs
    assert {r["sandbox"] for r in recs.values()} == {"userns"}
    assert all((records / f"{k}.json").stat().st_uid == pwd.getpwnam("nobody").pw_uid for k in recs)


def test_a_seed_reaches_the_tasks_in_a_file_not_on_their_command_lines(cluster, class_of_12, tmp_path):
    """--seed S regenerates the hidden datasets on every task, as on one
    machine, but S is never in a task's command line (scontrol show job and
    ps on the nodes show those): slurm writes it into a file of the records
    folder only its owner reads and gives the tasks --seed-file."""
    seed = "424242"
    records = tmp_path / "records-seed"
    one = tmp_path / "one-seed"
    p = kit.gpulab("grade", LAB, class_of_12["subs"], *OPTIONS, "--seed", seed, "--records", one, timeout=600)
    assert p.returncode == 0, p.stderr
    p = slurm(cluster, class_of_12["subs"], "--tasks", "2", *OPTIONS, "--seed", seed, "--records", records,
              "--wait", "--", "--cpus-per-task=1", timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    seed_file = records / "slurm" / "seed"
    assert seed_file.read_text() == seed and (seed_file.stat().st_mode & 0o077) == 0, oct(seed_file.stat().st_mode)
    recs = records_of(records)
    assert {r["seed"] for r in recs.values()} == {seed}, {r["seed"] for r in recs.values()}
    assert gradebook(recs) == gradebook(records_of(one))
    # what Slurm shows every user of the cluster of the job: its command line
    shown = kit.run(["scontrol", "show", "job", job_of(p.stdout)], env=cluster["env"])
    assert "Command=" in shown.stdout and "--seed-file" in shown.stdout, shown.stdout + shown.stderr
    assert seed not in shown.stdout, shown.stdout
    # nothing of it for another account of the cluster: records, the seed,
    # the tasks' logs, the gradebook and the class page, whatever the umask
    old = os.umask(0o022)
    try:
        p = kit.gpulab("export", LAB, records, "--csv", records / "grades.csv", "--html", records / "class.html")
    finally:
        os.umask(old)
    assert p.returncode == 0, p.stderr
    assert (records / "grades.csv").exists() and (records / "class.html").exists()
    assert_private(records)


def assert_private(folder):
    """Every file under folder 0600 or less, every folder 0700 or less:
    nothing for the group or others."""
    opened = [(str(f), oct(f.stat().st_mode & 0o777)) for f in [folder, *folder.rglob("*")]
              if f.stat().st_mode & 0o077]
    assert not opened, opened


def test_refusals(cluster, class_of_12):
    subs = class_of_12["subs"]
    for args, words in ((["--backend", "emu"], "--tasks"),
                        (["--tasks", "0"], "--tasks 0"),
                        (["--tasks", "2", "--csv", "g.csv"], "gpulab export"),
                        (["--tasks", "2", "--secret", "k"], "--secret-file"),
                        (["--tasks", "2", "--shard", "0/2"], "its own shard"),
                        (["--tasks", "2", "--backend", "cpu"], "expected gpu or emu"),
                        (["--tasks", "2", "--", "-p", "debug"], "'debug' is not one"),
                        (["--tasks", "2", "--", "--array=0-9"], "the array (--tasks N)"),
                        (["--tasks", "2", "--", "--wrap=hostname"], "the batch script")):
        p = slurm(cluster, subs, *args)
        assert p.returncode == 2 and words in p.stderr, (args, p.stderr)
    # what Slurm refuses is said with Slurm's words
    p = slurm(cluster, subs, "--tasks", "2", *OPTIONS, "--records", class_of_12["tmp"] / "refused",
              "--", "--partition=nosuch")
    assert p.returncode == 2 and "sbatch refused the job" in p.stderr and "partition" in p.stderr.lower(), p.stderr
    # the GPU backend asks for a GPU a task, which this cluster has none of
    p = slurm(cluster, subs, "--tasks", "2", "--records", class_of_12["tmp"] / "refused", "--backend", "gpu")
    assert p.returncode == 2 and "sbatch refused the job" in p.stderr and "gres" in p.stderr.lower(), p.stderr
    assert "pass --backend emu" in p.stderr, p.stderr


def test_a_partition_without_gpus_grades_on_the_emulator(cluster, class_of_12):
    """No --backend, on a cluster whose partition has no GPUs (sinfo says
    so): the job goes to the emulator, and says so, instead of being refused
    by sbatch's "Invalid generic resource (gres) specification"."""
    records = class_of_12["tmp"] / "records-no-gpus"
    options = OPTIONS[2:]
    assert "--backend" not in options
    p = slurm(cluster, class_of_12["subs"], "--tasks", "2", *options, "--records", records, "--wait",
              "--", "--cpus-per-task=1", timeout=900)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "has no GPUs (sinfo): grading on the emulator" in p.stderr, p.stderr
    assert "12 of the class's 12 submissions have a record" in p.stdout, p.stdout
    assert {r["backend"] for r in records_of(records).values()} == {"emu"}


def test_grade_shards_split_the_class(class_of_12, tmp_path):
    """grade --shard K/N, without Slurm: the N shards together are the class,
    each submission in one; K and N are checked."""
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    seen = []
    for k in range(3):
        p = kit.gpulab("grade", LAB, class_of_12["subs"], "--shard", f"{k}/3", "--sandbox", "none",
                       "--backend", "emu", "--dataset", "width-0017", "--no-sanitize",
                       "--records", tmp_path / f"shard{k}")
        assert p.returncode == 0, p.stderr
        ids = sorted(r.stem for r in (tmp_path / f"shard{k}").glob("*.json"))
        assert ids == sorted(i for i in class_of_12["kinds"] if shard_of(i, 3) == k)
        assert f"shard {k}/3: {len(ids)} of the class's 12 submissions" in p.stderr, p.stderr
        seen += ids
    assert sorted(seen) == sorted(class_of_12["kinds"])
    for bad in ("3/3", "-1/3", "1/0", "+1/3", "1", "a/b", "1/3x"):
        p = kit.gpulab("grade", LAB, class_of_12["subs"], "--shard", bad, "--sandbox", "none")
        assert p.returncode == 2 and f"--shard {bad}: expected K/N" in p.stderr, (bad, p.stderr)
