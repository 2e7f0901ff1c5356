"""The catalogue of common mistakes: every lab's mutants, what the kit says
about each, and docs/mistakes.md, kept in step.

Each mutant (solutions/<lab>/mutants/*.cu) carries header lines:

    * Category: what kind of mistake it is
    * Look at: where in the code a student should look
    * Kit says: dataset=NAME; sanitize=yes|no; status=STATUS; words=W1|W2...
    * Named by: the dataset's inputs (diagnose_inputs)      (optional)
    * On a GPU: status=STATUS[|STATUS]; words=W1|W2...       (optional)
    * First line: W1|W2...                                    (optional)

`Kit says` is checked against the real grader: `gpulab check --dataset NAME`
(with the sanitizer stage when sanitize=yes) must give STATUS (the dataset's
status, or the first failing requirement's when the dataset passes) and every
word must appear in what the student reads: the dataset's message, its
comparison hint, its sanitizer findings, the requirements' messages, the
record's hint, its tile contents or its "fix this first" line. `First line` words must all be in the report's "fix this
first" line (the record's fix_first), the one line a student reads first,
on the emulator (on a GPU too unless `On a GPU` names other words).
docs/mistakes.md must list the same mutants with the same
statuses and words.
"""
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import kit

MUTANTS = sorted(kit.ROOT.glob("solutions/*/mutants/*.cu"))
DOC = kit.ROOT / "docs" / "mistakes.md"
GCC = shutil.which("gcc")
FIELDS = ("dataset", "sanitize", "status", "words")


def header(path):
    """The mutant's header lines as a dict: category, look, kit (a dict of
    FIELDS, words a list), inputs (bool)."""
    head = path.read_text().split("*/", 1)[0]
    lines = [re.sub(r"^\s*\*\s?", "", l) for l in head.splitlines()]
    out = {"inputs": False}
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("Category: "):
            out["category"] = line[len("Category: "):].strip()
        elif line.startswith("Look at: "):
            text = line[len("Look at: "):].strip()
            while i + 1 < len(lines) and lines[i + 1].startswith("  "):
                i += 1
                text += " " + lines[i].strip()
            out["look"] = text
        elif line.startswith("Kit says: "):
            kv = dict(part.strip().split("=", 1) for part in line[len("Kit says: "):].split(";"))
            assert set(kv) == set(FIELDS), (path, kv)
            assert kv["sanitize"] in ("yes", "no"), (path, kv)
            kv["words"] = kv["words"].split("|")
            out["kit"] = kv
        elif line.startswith("On a GPU: "):
            kv = dict(part.strip().split("=", 1) for part in line[len("On a GPU: "):].split(";"))
            assert set(kv) <= {"status", "words"}, (path, kv)
            if "words" in kv:
                kv["words"] = kv["words"].split("|")
            out["gpu"] = kv
        elif line.startswith("First line: "):
            out["first"] = line[len("First line: "):].strip().split("|")
        elif line.startswith("Named by: "):
            out["inputs"] = "diagnose_inputs" in line
        i += 1
    return out


def mutant_id(path):
    return f"{path.parent.parent.name}/{path.stem}"


def record_texts(report):
    """Everything a student reads about the submission, as one list."""
    texts = [report.get("hint") or "", report.get("fix_first") or "", report.get("tile_contents") or ""]
    for d in report["datasets"]:
        texts.append(d.get("message") or "")
        texts.append((d.get("comparison") or {}).get("hint") or "")
        texts += [f["message"] for f in ((d.get("sanitizer") or {}).get("findings") or [])]
    texts += [r.get("message") or "" for r in report.get("requirements", [])]
    return texts


def shown_status(report):
    """The dataset's status, or the first failing requirement's when it passed
    (one not checked, without the checkers, is no failure)."""
    (d,) = report["datasets"]
    if d["status"] != "pass":
        return d["status"]
    return next((r["status"] for r in report.get("requirements", []) if r["status"] not in ("pass", "not_checked")),
                "pass")


# ---- the headers themselves ---------------------------------------------------

def test_every_mutant_has_the_header_lines():
    assert len(MUTANTS) >= 30
    for p in MUTANTS:
        h = header(p)
        assert h.get("category") and h.get("look") and h.get("kit"), (p, h)
        datasets = [d["name"] for d in kit.manifest(p.parent.parent.name)["datasets"]]
        assert h["kit"]["dataset"] in datasets, (p, h["kit"]["dataset"])


# ---- what the kit says, per mutant ----------------------------------------------

def mutant_params():
    return [pytest.param(p, id=mutant_id(p)) for p in MUTANTS]


@pytest.mark.parametrize("path", mutant_params())
def test_kit_names_the_mistake(backend, path):
    h = header(path)
    want = dict(h["kit"])
    if backend == "gpu":
        # where a GPU shows the mistake differently (fresh device memory is
        # not NaN there, for one), the header says so
        want.update(h.get("gpu", {}))
    lab = path.parent.parent.name
    sanitize = want["sanitize"] == "yes"
    if backend == "emu" and sanitize and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    rc, rep = kit.check_json(lab, path, backend, "--dataset", want["dataset"], sanitize=sanitize)
    assert rep["build"]["ok"], rep["build"]["log"]
    status = shown_status(rep)
    # a GPU's verdict may be one of several (`On a GPU: status=A|B`): a read
    # past a shared array takes whatever that memory holds on that run
    allowed = set(want["status"].split("|")) if backend == "gpu" else {want["status"]}
    if backend == "gpu" and sanitize:
        # a race may give the right answer on a GPU: the sanitizer stage then
        # ends it `unsafe`, with the same finding
        allowed.add("unsafe")
    texts = "\n".join(record_texts(rep))
    missing = [w for w in want["words"] if w not in texts]
    assert status in allowed, (status, allowed, texts)
    assert not missing, f"missing {missing} in:\n{texts}"
    if h.get("first") and (backend == "emu" or "words" not in h.get("gpu", {})):
        first = rep.get("fix_first") or ""
        absent = [w for w in h["first"] if w not in first]
        assert not absent, f"missing {absent} in the first line: {first}"


DRIVER = r"""
/* Test driver for diagnose_inputs(): OUTPUT.tensor EXPECTED DATASET_DIR TILED.
 * Marks the elements outside the default tolerance (sum_ulps 2) as wrong
 * and prints the sentence, or nothing. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diagnose.h"

int main(int argc, char **argv)
{
    if (argc != 5)
        return 2;
    gl_matrix got;
    gl_reference want;
    gl_error err;
    if (gl_read_output(argv[1], &got, &err) || gl_read_expected(argv[2], &want, &err)) {
        fprintf(stderr, "%s\n", err.msg);
        return 3;
    }
    size_t n = gl_matrix_count(&got);
    if (n != gl_reference_count(&want))
        return 3;
    unsigned char *bad = calloc(n, 1);
    if (!bad)
        return 3;
    compare_result r;
    memset(&r, 0, sizeof r);
    for (size_t i = 0; i < n; i++) {
        double mag = want.magnitude ? want.magnitude[i] : fabs(want.value[i]);
        double t = 2.0 * (want.terms > 0 ? want.terms : 1) * 5.9604644775390625e-08 * mag + 1e-6;
        uint32_t bits;
        memcpy(&bits, &got.data[i], sizeof bits);
        if (isfinite(got.data[i]) && fabs(got.data[i] - want.value[i]) <= t)
            continue;
        bad[i] = 1;
        r.mismatches++;
        if (bits == GL_POISON_BITS)
            r.poisoned++;
        else if (!isfinite(got.data[i]))
            r.nonfinite++;
    }
    const char *label = NULL;
    char *s = diagnose_inputs(argv[3], &got, &want, bad, &r, atoi(argv[4]), &label);
    if (s)
        printf("%s\n", s);
    if (s && !label)
        printf("(no label)\n");
    free(s);
    free(bad);
    gl_matrix_free(&got);
    gl_reference_free(&want);
    return 0;
}
"""


def tiled(lab):
    """"1" where the lab keeps shared tiles (lab.json's "tiles"), else "0"."""
    return "1" if json.loads((kit.ROOT / "labs" / lab / "lab.json").read_text()).get("tiles") else "0"


@pytest.fixture(scope="module")
def inputs_driver(tmp_path_factory):
    if GCC is None:
        pytest.skip("gcc is not installed")
    d = tmp_path_factory.mktemp("diagnose")
    (d / "driver.c").write_text(DRIVER)
    exe = d / "driver"
    p = kit.run([GCC, "-std=c11", "-Wall", "-Wextra", "-Werror", *kit.grader_includes(), "-I", kit.ROOT / "grader" / "runtime",
                 d / "driver.c", kit.grader_src("diagnose.c"), kit.grader_src("util.c"),
                 kit.ROOT / "grader" / "runtime" / "dataset.c",
                 "-o", exe, "-lm"], timeout=120)
    assert p.returncode == 0, p.stderr
    return exe


def kept_output(lab, path, dataset):
    """Runs the mutant on the emulator with --keep; returns (workdir, output)."""
    p = kit.gpulab("check", lab, path, "--backend", "emu", "--format", "json", "--no-sanitize",
                   "--dataset", dataset, "--keep")
    m = re.search(r"kept the work directory (\S+)", p.stderr)
    assert m, p.stderr
    work = Path(m.group(1))
    return work, work / f"run-{dataset}" / "output.tensor"


@pytest.mark.parametrize("path", [pytest.param(p, id=mutant_id(p)) for p in MUTANTS if header(p)["inputs"]])
def test_inputs_name_the_mistake(inputs_driver, path):
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    h = header(path)
    lab, ds = path.parent.parent.name, h["kit"]["dataset"]
    work, out = kept_output(lab, path, ds)
    try:
        dataset = kit.ROOT / "datasets" / lab / ds
        p = kit.run([inputs_driver, out, dataset / "expected.tensor", dataset, tiled(lab)])
        assert p.returncode == 0, p.stderr
        sentence = p.stdout.strip()
        for w in h["kit"]["words"]:
            assert w in sentence, (w, sentence)
        # every named mistake has its few words for the gradebook
        assert "(no label)" not in sentence
    finally:
        shutil.rmtree(work, ignore_errors=True)


@pytest.mark.parametrize("lab", ["02-tiled-matmul", "04-conv-2batch"])
def test_inputs_name_nothing_for_a_race_or_a_right_answer(inputs_driver, lab):
    """No made-up hypothesis: a race's output matches none of them."""
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    stem = "missing-second-barrier" if lab == "02-tiled-matmul" else "ghost-not-zeroed"
    path = kit.ROOT / "solutions" / lab / "mutants" / f"{stem}.cu"
    ds = header(path)["kit"]["dataset"]
    work, out = kept_output(lab, path, ds)
    try:
        dataset = kit.ROOT / "datasets" / lab / ds
        p = kit.run([inputs_driver, out, dataset / "expected.tensor", dataset, tiled(lab)])
        assert p.returncode == 0 and p.stdout.strip() == "", p.stdout
    finally:
        shutil.rmtree(work, ignore_errors=True)


@pytest.mark.parametrize("ds", ["gray-1x40", "gray-32x45-lines"])
def test_an_all_zero_output_is_no_evidence_for_a_mistake_that_makes_zeros(inputs_driver, ds, tmp_path):
    """An output of zeros (a mask never copied): a one-row image's last mask
    row lies outside it, so the last term alone is 0 too; a mask whose rows
    each sum to 0 gives 0 for an input read along a row. Zeros agreeing
    with zeros are no evidence: no hypothesis is named."""
    dataset = kit.ROOT / "datasets" / "04-conv-2batch" / ds
    head = (dataset / "expected.tensor").read_bytes().split(b"\ndata\n")[0].decode()
    shape = next(l for l in head.splitlines() if l.startswith("shape ")).split()[1:]
    n = 1
    for d in shape:
        n *= int(d)
    out = tmp_path / "output.tensor"
    out.write_bytes(f"gpulab-tensor 1\nshape {' '.join(shape)}\ndtype f32\nfields value\ndata\n".encode()
                    + b"\0" * (4 * n))
    p = kit.run([inputs_driver, out, dataset / "expected.tensor", dataset, tiled("04-conv-2batch")])
    assert p.returncode == 0 and p.stdout.strip() == "", p.stdout


# ---- docs/mistakes.md -------------------------------------------------------------

def doc_rows():
    """{lab/mutant: (status, [words])} from the tables of docs/mistakes.md.
    A row: | `mutant` | mistake | `status`: "word", "word" | where to look |"""
    rows, lab = {}, None
    for line in DOC.read_text().splitlines():
        m = re.match(r"^## Lab (\S+)", line)
        if m:
            lab = m.group(1)
            continue
        m = re.match(r"^\|\s*`([a-z0-9-]+)`\s*\|[^|]*\|\s*`([a-z_]+)`:?(.*?)\|", line)
        if m and lab:
            words = re.findall(r"“([^”]+)”", m.group(3))
            key = f"{lab}/{m.group(1)}"
            assert key not in rows, f"{key} twice in {DOC}"
            rows[key] = (m.group(2), words)
    return rows


def test_the_catalogue_matches_the_mutants():
    assert DOC.exists(), DOC
    rows = doc_rows()
    want = {mutant_id(p): (header(p)["kit"]["status"], header(p)["kit"]["words"]) for p in MUTANTS}
    assert set(rows) == set(want), (sorted(set(want) - set(rows)), sorted(set(rows) - set(want)))
    for key, (status, words) in want.items():
        assert rows[key] == (status, words), (key, rows[key], (status, words))


def test_a_grid_counted_in_threads_is_named_at_its_line(tmp_path):
    """Lab 02's reference with the grid's x counted in threads (width
    blocks where width / TILE_WIDTH belong): the blocks past the output
    read and write past the arrays; the first line names the grid's line
    and says a grid counts blocks."""
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    lab = "02-tiled-matmul"
    src = (kit.ROOT / "solutions" / lab / "tiled_matmul.cu").read_text()
    grid = "dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);"
    assert grid in src
    bad = tmp_path / "grid-x-in-threads.cu"
    bad.write_text(src.replace(grid, "dim3 dimGrid(width, width / TILE_WIDTH);"))
    line = next(i + 1 for i, l in enumerate(bad.read_text().splitlines()) if "dim3 dimGrid(" in l)
    _, rep = kit.check_json(lab, bad, "emu", "--dataset", "width-0032", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the grid at line {line} "), first
    assert "its x (32) is as many blocks as the output has columns (32)" in first, first
    assert "a grid counts blocks, not threads (2 blocks" in first, first
