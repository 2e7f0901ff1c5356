#!/usr/bin/env python3
"""The mutation matrix: every kit mutant (solutions/LAB/mutants/*.cu) checked
on each of its lab's public datasets alone, with the checkers, and whether
that dataset catches it (its status is anything but `pass`: wrong, crash,
unsafe, cuda_error, timeout ...). Prints, per lab, a matrix (a row per
mutant, a column per dataset, `X` caught, `.` not), then a summary:

  - mutants caught by no dataset (and the requirements that catch them, if
    any: a mutant that only skips the lab's technique fails a requirement,
    not a dataset);
  - mutants caught by exactly one dataset (a dataset removed or reshaped
    would let them pass);
  - datasets that catch no mutant;
  - with --full, each mutant's whole check too (every dataset at once: the
    first few under the full checkers, the rest in the bounds series on
    every dataset, whose large grids run only their edge), and any dataset
    caught alone that this whole check calls `pass` (the whole check must
    never be kinder than the dataset checked alone).

Usage (the kit built: make kit):
    grader/bench/mutation-matrix.py [LAB ...] [--datasets A,B] [--mutants M,N]
                                    [--jobs N] [--backend emu|gpu] [--json FILE] [--strict] [--full]

LAB may be a lab's id or its number (01 ... 05); without one, every lab with
mutants. --strict exits 1 when a mutant is caught by exactly one dataset or
a dataset catches nothing, or (with --full) a whole check passes a dataset
that catches the mutant alone. Each cell is one `gpulab check LAB FILE
--dataset NAME --format json` (a build and a checked run: about 3 s on the
emulator; the whole kit is some 700 cells). docs/mistakes.md gives the
latest summary.
"""
import argparse
import concurrent.futures
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GPULAB = ROOT / "gpulab"


def lab_id(name):
    """A lab's directory name from its id or number."""
    for d in sorted((ROOT / "labs").iterdir()):
        if d.name == name or d.name.split("-", 1)[0] == name.zfill(2):
            return d.name
    sys.exit(f"mutation-matrix: no lab {name!r} under {ROOT / 'labs'}")


def public_datasets(lab):
    manifest = json.loads((ROOT / "labs" / lab / "lab.json").read_text())
    return [d["name"] for d in manifest["datasets"] if not d.get("on_demand")]


def check(lab, mutant, dataset, backend):
    """One cell: (status, requirements that failed while the dataset passed)."""
    p = subprocess.run([str(GPULAB), "check", lab, str(mutant), "--dataset", dataset, "--backend", backend,
                        "--format", "json"], capture_output=True, text=True, timeout=900)
    try:
        rep = json.loads(p.stdout)
        status = rep["datasets"][0]["status"]
    except (ValueError, KeyError, IndexError):
        return "grader_error", []
    failed = [r["name"] for r in rep.get("requirements", [])
              if status == "pass" and r["status"] == "requirement_failed"]
    return status, failed


def check_whole(lab, mutant, backend):
    """A mutant's whole check: {dataset: status}, or None for a grader error."""
    p = subprocess.run([str(GPULAB), "check", lab, str(mutant), "--backend", backend, "--format", "json"],
                       capture_output=True, text=True, timeout=1800)
    try:
        return {d["name"]: d["status"] for d in json.loads(p.stdout)["datasets"]}
    except (ValueError, KeyError, TypeError):
        return None


def run_lab(lab, args):
    datasets = public_datasets(lab)
    if args.datasets:
        datasets = [d for d in datasets if d in args.datasets]
    mutants = sorted((ROOT / "solutions" / lab / "mutants").glob("*.cu"))
    if args.mutants:
        mutants = [m for m in mutants if m.stem in args.mutants]
    cells = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(check, lab, m, d, args.backend): (m.stem, d) for m in mutants for d in datasets}
        wholes = {pool.submit(check_whole, lab, m, args.backend): m.stem for m in mutants} if args.full else {}
        for f in concurrent.futures.as_completed(futures):
            cells[futures[f]] = f.result()
        whole = {wholes[f]: f.result() for f in concurrent.futures.as_completed(wholes)}
    result = {"lab": lab, "datasets": datasets, "mutants": [m.stem for m in mutants],
              "cells": {f"{m}|{d}": {"status": s, "requirements": r} for (m, d), (s, r) in cells.items()}}
    if args.full:
        result["whole"] = whole
    return result


def caught(cell):
    return cell["status"] not in ("pass", "grader_error")


def summarise(result):
    """The lab's findings: {"none": {mutant: [requirements]}, "one": {mutant: dataset},
    "idle": [datasets], "errors": [cells]}."""
    cells, out = result["cells"], {"none": {}, "one": {}, "idle": [], "errors": []}
    for m in result["mutants"]:
        by = [d for d in result["datasets"] if caught(cells[f"{m}|{d}"])]
        if not by:
            reqs = sorted({r for d in result["datasets"] for r in cells[f"{m}|{d}"]["requirements"]})
            out["none"][m] = reqs
        elif len(by) == 1:
            out["one"][m] = by[0]
    for d in result["datasets"]:
        if not any(caught(cells[f"{m}|{d}"]) for m in result["mutants"]):
            out["idle"].append(d)
    out["errors"] = [k for k, c in cells.items() if c["status"] == "grader_error"]
    if "whole" in result:
        out["kinder"] = []
        for m, statuses in result["whole"].items():
            if statuses is None:
                out["errors"].append(f"{m}|whole check")
                continue
            out["kinder"] += [f"{m}|{d}" for d in result["datasets"]
                              if caught(cells[f"{m}|{d}"]) and statuses.get(d) == "pass"]
    return out


def print_lab(result, summary):
    lab, datasets, mutants = result["lab"], result["datasets"], result["mutants"]
    print(f"{lab}: {len(mutants)} mutants x {len(datasets)} datasets")
    for i, d in enumerate(datasets):
        print(f"  [{i:2}] {d}")
    width = max([len(m) for m in mutants] + [6])
    print("  " + " " * width + " " + "".join(f"{i % 100:>3}" for i in range(len(datasets))) + "  caught by")
    for m in mutants:
        row = [result["cells"][f"{m}|{d}"] for d in datasets]
        marks = "".join(f"{'X' if caught(c) else '!' if c['status'] == 'grader_error' else '.':>3}" for c in row)
        print(f"  {m:<{width}} {marks}  {sum(caught(c) for c in row)}")
    for m, reqs in summary["none"].items():
        print(f"  caught by no dataset: {m}" + (f" (fails {', '.join(reqs)})" if reqs else " (nor a requirement)"))
    for m, d in summary["one"].items():
        print(f"  caught by one dataset only: {m} ({d})")
    for d in summary["idle"]:
        print(f"  catches nothing: {d}")
    for k in summary.get("kinder", []):
        m, d = k.split("|")
        print(f"  pass in the whole check, caught alone: {m} on {d} ({result['cells'][k]['status']} alone)")
    for k in summary["errors"]:
        print(f"  grader error: {k.replace('|', ' on ')}")
    print(flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("labs", nargs="*")
    ap.add_argument("--datasets", type=lambda s: set(s.split(",")))
    ap.add_argument("--mutants", type=lambda s: set(s.split(",")))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--backend", default="emu", choices=("emu", "gpu"))
    ap.add_argument("--json", help="the matrix as JSON too, into this file")
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--full", action="store_true", help="each mutant's whole check too, against its cells")
    args = ap.parse_args()
    if not GPULAB.exists():
        sys.exit(f"mutation-matrix: {GPULAB} is not built: run make kit")
    labs = [lab_id(l) for l in args.labs] or sorted(
        d.name for d in (ROOT / "labs").iterdir() if (ROOT / "solutions" / d.name / "mutants").is_dir())
    results, totals = [], {"mutants": 0, "cells": 0, "none": 0, "one": 0, "idle": 0, "errors": 0}
    if args.full:
        totals["kinder"] = 0
    for lab in labs:
        r = run_lab(lab, args)
        s = summarise(r)
        r["summary"] = s
        results.append(r)
        print_lab(r, s)
        totals["mutants"] += len(r["mutants"])
        totals["cells"] += len(r["cells"])
        for k in totals.keys() & {"none", "one", "idle", "errors", "kinder"}:
            totals[k] += len(s.get(k, []))
    print(f"summary: {totals['mutants']} mutants, {totals['cells']} checks; caught by no dataset: "
          f"{totals['none']}; by one dataset only: {totals['one']}; datasets that catch nothing: "
          f"{totals['idle']}; grader errors: {totals['errors']}"
          + (f"; whole checks that pass a dataset caught alone: {totals['kinder']}" if args.full else ""))
    if args.json:
        Path(args.json).write_text(json.dumps({"labs": results, "totals": totals}, indent=1) + "\n")
    if args.strict and (totals["one"] or totals["idle"] or totals["errors"] or totals.get("kinder")):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
