#!/usr/bin/env python3
"""Where a check's time goes (docs/performance.md): `gpulab check --format
json` of each file, REPS times, its record's "stages" summed into groups,
and the check's own wall and CPU seconds (its processes', as the system
counts them: the machine's other work does not add to them). Prints a
table of medians. Usage (from the kit's root; grader-speed.sh calls it):

    check-stages.py BACKEND REPS table LAB:FILE ...     one row a file
    check-stages.py BACKEND REPS wrong LAB ...          per lab: the reference
        solution against the median of its wrong files (the held-out sets'
        single mistakes, grader/tests/data/held-out-*/set*/LAB-*.cu, and
        solutions/LAB/mutants/), each checked once, the reference REPS times

Extra arguments for every check go in CHECK_ARGS (e.g. --no-sanitize);
JOBS=N checks N files at a time (the reference's checks among them);
GPULAB names another grader binary of this kit (the build before a change,
copied beside ./gpulab) to measure against.
"""
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GROUPS = ["build", "token", "runs", "compare", "diagnosis", "maps", "checkers build", "checkers",
          "bounds series", "requirements"]


def group(name):
    """The table's column of a stage: every dataset's run in one, the
    checkers' runs (which overlap) in one, the bounds series in one."""
    if name.startswith("run "):
        return "runs"
    if name.startswith("checkers ") and name != "checkers build":
        return "checkers"
    if name.startswith("bounds series"):
        return "bounds series"
    return name if name in GROUPS else "other"


def check(backend, lab, path, maps):
    """One check: (wall s, cpu s, {group: s}, score text). Its processor
    time is its own process's and its descendants' (wait4), so checks run
    side by side (JOBS) are each counted apart."""
    t0 = time.monotonic()
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen([os.environ.get("GPULAB", str(ROOT / "gpulab")), "check", lab, str(path), "--backend",
                              backend, "--format", "json", "--maps", maps, *os.environ.get("CHECK_ARGS", "").split()],
                             cwd=ROOT, stdout=out, stderr=subprocess.DEVNULL)
        _, _, usage = os.wait4(p.pid, 0)
        p.returncode = 0  # reaped by wait4
        wall = time.monotonic() - t0
        cpu = usage.ru_utime + usage.ru_stime
        out.seek(0)
        rep = json.loads(out.read().decode())
    groups = {}
    for name, seconds in rep.get("stages", {}).items():
        groups[group(name)] = groups.get(group(name), 0) + seconds
    return wall, cpu, groups, f"{rep['score']:g}/{rep['max_score']:g}"


def measure(backend, lab, path, reps, maps):
    """Medians of reps checks: (wall, cpu, {group: s}, score)."""
    runs = [check(backend, lab, path, maps) for _ in range(reps)]
    med = lambda xs: statistics.median(xs) if xs else 0.0
    groups = {g: med([r[2].get(g, 0.0) for r in runs]) for g in GROUPS + ["other"]}
    return med([r[0] for r in runs]), med([r[1] for r in runs]), groups, runs[-1][3]


def lab_dir(lab):
    found = sorted((ROOT / "labs").glob(f"{lab}*"))
    if not found:
        sys.exit(f"check-stages.py: no lab {lab!r} under labs/")
    return found[0].name


def label(path):
    """A file's name in the table: the reference solution and the skeleton
    by what they are (both have the lab's file name), else the file's."""
    parts = Path(path).parts
    if len(parts) >= 3 and parts[-3] == "solutions":
        return "reference"
    if len(parts) >= 3 and parts[-3] == "skeletons":
        return "skeleton"
    return Path(path).name


def table(backend, reps, items, maps):
    rows = []
    for item in items:
        lab, _, path = item.partition(":")
        wall, cpu, groups, score = measure(backend, lab, path, reps, maps)
        rows.append((lab, path, score, wall, cpu, groups))
    used = [g for g in GROUPS + ["other"] if any(r[5][g] > 0.0005 for r in rows)]
    print(f"medians of {reps} checks, seconds; backend {backend}, {os.cpu_count()} cores")
    print("| lab | file | score | wall | cpu | " + " | ".join(used) + " |")
    print("| --- | --- | --- | " + " | ".join("---:" for _ in range(2 + len(used))) + " |")
    for lab, path, score, wall, cpu, groups in rows:
        cells = " | ".join(f"{groups[g]:.3f}" for g in used)
        print(f"| {lab[:2]} | {label(path)} | {score} | {wall:.2f} | {cpu:.2f} | {cells} |")


def wrong(backend, reps, labs, maps):
    print(f"cpu seconds of a check; the reference: median of {reps}, the wrong files: each once, "
          f"their median; backend {backend}, {os.cpu_count()} cores")
    print("| lab | reference | wrong files (n) | median | max (file) | median / reference |")
    print("| --- | ---: | ---: | ---: | --- | ---: |")
    for lab in labs:
        name = lab_dir(lab)
        ref = sorted((ROOT / "solutions" / name).glob("*.cu"))[0]
        files = sorted(ROOT.glob(f"grader/tests/data/held-out-*/set*/{name[:2]}-*.cu"))
        files += sorted((ROOT / "solutions" / name / "mutants").glob("*.cu"))
        # the reference's checks among the wrong files', so that side by
        # side (JOBS) both share the machine alike
        order = [ref] * reps + files
        with concurrent.futures.ThreadPoolExecutor(int(os.environ.get("JOBS", "1"))) as pool:
            done = list(pool.map(lambda f: (measure(backend, name, f, 1, maps)[1], f.name), order))
        ref_cpu = statistics.median(c for c, _ in done[:reps])
        cpus = done[reps:]
        med = statistics.median(c for c, _ in cpus)
        top = max(cpus)
        print(f"| {name[:2]} | {ref_cpu:.2f} | {len(cpus)} | {med:.2f} | {top[0]:.2f} ({top[1]}) | "
              f"{med / ref_cpu:.2f} |")
        sys.stdout.flush()


def main():
    if len(sys.argv) < 5 or sys.argv[3] not in ("table", "wrong"):
        sys.exit(__doc__)
    backend, reps, mode, rest = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    with tempfile.TemporaryDirectory(prefix="gpulab-stages.") as maps:
        (table if mode == "table" else wrong)(backend, reps, rest, maps)


if __name__ == "__main__":
    main()
