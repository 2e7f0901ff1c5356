"""The documentation stays true.

1. Every shell command that README.md and docs/student-guide.md mark as
   runnable is run, on the emulator, and must exit as the document says.
   The marker is a fenced block whose info string is `sh runnable`; plain
   `sh` blocks are shown, not run. In a runnable block each line is one
   command (a trailing backslash continues it); a trailing comment that says
   `exits N` gives its expected exit status, otherwise it must exit 0.
   The commands run in a scratch folder that links to the kit's top-level
   entries (so `./gpulab`, `skeletons/`, `datasets/` work as in the kit),
   with HOME set to a scratch home, so nothing lands in the repository or
   the real home.
2. Every output the documents quote from the kit is what the kit prints
   now. The marker is a fenced block whose info string is `output COMMAND`:
   COMMAND is run as the runnable commands are (a scratch kit, a scratch
   home, which the output names as /home/you), and each line of the block
   must be a line of what it printed, in the block's order, with `...`
   inside a line standing for any text and a line of `...` alone for lines
   left out.
3. The examples of docs/formats.md are complete and true: the .raw example
   and a .tensor with the documented header are accepted by `gpulab
   inspect`; the lab.json example is loaded by the real manifest reader
   (GPULAB_HOME pointing at a scratch kit) and a dataset of it is checked;
   the JSON report example has exactly the keys of a real
   `gpulab check --format json`.
"""
import json
import re
import struct
import shutil
import subprocess
from pathlib import Path

import pytest

import kit

RUNNABLE_DOCS = ["README.md", "docs/student-guide.md"]
EXPECT = re.compile(r"#.*\bexits? (\d+)")


def fenced_blocks(path):
    """(info string, [lines], first line number) for every fenced block."""
    blocks, info, lines, start = [], None, [], 0
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        fence = re.match(r"^\s*```+\s*(.*)$", line)
        if fence and info is None:
            info, lines, start = fence.group(1).strip(), [], n + 1
        elif fence and info is not None and not fence.group(1).strip():
            blocks.append((info, lines, start))
            info = None
        elif info is not None:
            lines.append(line)
    assert info is None, f"{path}: a fenced block opened at line {start - 1} is never closed"
    return blocks


def runnable_commands(path):
    """(command, expected exit status, line number) for each runnable command."""
    out = []
    for info, lines, start in fenced_blocks(path):
        if info.split() != ["sh", "runnable"]:
            continue
        pending, first = "", None
        for i, line in enumerate(lines):
            if first is None:
                first = start + i
            if line.rstrip().endswith("\\"):
                pending += line.rstrip()[:-1] + " "
                continue
            cmd = (pending + line).strip()
            pending = ""
            n, first = first, None
            if not cmd or cmd.startswith("#"):
                continue
            m = EXPECT.search(cmd)
            out.append((cmd, int(m.group(1)) if m else 0, n))
    return out


def scratch_kit(tmp_path):
    """A folder whose entries link to the kit's, and a scratch home."""
    work = tmp_path / "kit"
    work.mkdir()
    for entry in kit.ROOT.iterdir():
        if entry.name in (".git", "gpulab-records", "gpulab-errormaps", ".pytest_cache"):
            continue
        (work / entry.name).symlink_to(entry)
    home = tmp_path / "home"
    home.mkdir()
    return work, home


def test_runnable_blocks_exist():
    for doc in RUNNABLE_DOCS:
        assert runnable_commands(kit.ROOT / doc), f"{doc} has no `sh runnable` block"


@pytest.mark.parametrize("doc", RUNNABLE_DOCS)
def test_runnable_commands(doc, tmp_path):
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    work, home = scratch_kit(tmp_path)
    env = {"HOME": str(home), "GPULAB_NO_PROGRESS": "1"}
    for cmd, want, line in runnable_commands(kit.ROOT / doc):
        p = kit.run(["bash", "-c", cmd], cwd=work, env=env, timeout=300)
        assert p.returncode == want, (
            f"{doc}:{line}: `{cmd}` exited {p.returncode}, the document says {want}\n"
            f"stdout:\n{p.stdout[-3000:]}\nstderr:\n{p.stderr[-3000:]}")
    leftovers = {e.name for e in work.iterdir() if not e.is_symlink()}
    assert leftovers <= {"gpulab-errormaps", "gpulab-records"}, leftovers


# ---- quoted outputs ------------------------------------------------------------

ALL_DOCS = [kit.ROOT / "README.md", *sorted((kit.ROOT / "docs").rglob("*.md"))]


def quoted_outputs(path):
    """(command, [lines], first line number) for each `output COMMAND` block."""
    return [(info[len("output"):].strip(), lines, start) for info, lines, start in fenced_blocks(path)
            if info.split()[:1] == ["output"]]


def unmatched_lines(quoted, printed):
    """The quoted lines that are not, in order, lines of printed (`...`
    within a line: any text; a line of `...` alone: skipped)."""
    out_lines = [l.rstrip() for l in printed.splitlines()]
    at, missing = 0, []
    for line in quoted:
        if line.strip() == "...":
            continue
        pattern = re.compile(".*".join(re.escape(part) for part in line.rstrip().split("...")))
        hit = next((i for i in range(at, len(out_lines)) if pattern.fullmatch(out_lines[i])), None)
        if hit is None:
            missing.append(line)
        else:
            at = hit + 1
    return missing


def test_the_lab_walkthrough_quotes_are_marked():
    """The walkthrough whose quoted scores once went stale quotes through
    output blocks, one per mistake it lists."""
    commands = [c for c, _, _ in quoted_outputs(kit.ROOT / "docs" / "labs" / "02-tiled-matmul.md")]
    assert len(commands) >= 8, commands
    assert any("no-tiling.cu" in c for c in commands) and any("missing-second-barrier.cu" in c for c in commands)


@pytest.mark.parametrize("doc", [d for d in ALL_DOCS if quoted_outputs(d)],
                         ids=lambda d: str(d.relative_to(kit.ROOT)))
def test_quoted_outputs_are_what_the_kit_prints(doc, tmp_path):
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    work, home = scratch_kit(tmp_path)
    env = {"HOME": str(home), "GPULAB_NO_PROGRESS": "1"}
    wrong = []
    for cmd, lines, start in quoted_outputs(doc):
        p = kit.run(["bash", "-c", cmd], cwd=work, env=env, timeout=300)
        printed = (p.stdout + p.stderr).replace(str(home), "/home/you")
        missing = unmatched_lines(lines, printed)
        if missing:
            wrong.append(f"{doc.relative_to(kit.ROOT)}:{start}: `{cmd}` printed no line like\n  "
                         + "\n  ".join(missing) + f"\nit printed:\n{printed[-4000:]}")
    assert not wrong, "\n\n".join(wrong)


# ---- formats.md ---------------------------------------------------------------

FORMATS = kit.ROOT / "docs" / "formats.md"


def section_blocks(heading):
    """The fenced blocks of the section of formats.md whose heading contains `heading`."""
    text = FORMATS.read_text().splitlines()
    out, inside, block = [], False, None
    for line in text:
        if line.startswith("## "):
            inside = heading in line
            continue
        if not inside:
            continue
        if line.startswith("```"):
            if block is None:
                block = []
            else:
                out.append("\n".join(block) + "\n")
                block = None
        elif block is not None:
            block.append(line)
    assert out, f"formats.md: no example under a heading with {heading!r}"
    return out


def test_raw_example_is_accepted(tmp_path):
    example = section_blocks("`.raw`")[0]
    f = tmp_path / "example.raw"
    f.write_text(example)
    p = kit.gpulab("inspect", f)
    assert p.returncode == 0, p.stderr
    rows, cols = map(int, example.split("\n")[0].split())
    assert f"matrix {rows} x {cols}" in p.stdout, p.stdout


def test_tensor_header_example_is_accepted(tmp_path):
    example = section_blocks("`.tensor`")[0]
    header = []
    for line in example.splitlines():
        header.append(line)
        if line == "data":
            break
    assert header[0] == "gpulab-tensor 1" and header[-1] == "data", header
    fields = dict(line.split(" ", 1) for line in header[1:-1])
    shape = [int(x) for x in fields["shape"].split()]
    count = 1
    for d in shape:
        count *= d
    count *= len(fields["fields"].split())
    fmt = {"f64": "d", "f32": "f"}[fields["dtype"]]
    data = struct.pack(f"<{count}{fmt}", *[float(i % 7) for i in range(count)])
    f = tmp_path / "example.tensor"
    f.write_bytes(("\n".join(header) + "\n").encode() + data)
    p = kit.gpulab("inspect", f)
    assert p.returncode == 0, p.stderr
    # one value too few is rejected, as the document says
    f.write_bytes(("\n".join(header) + "\n").encode() + data[:-8])
    assert kit.gpulab("inspect", f).returncode != 0


def test_lab_json_example_loads_and_grades(tmp_path):
    example = json.loads(section_blocks("`lab.json`")[0])
    lab = example["id"]
    home = tmp_path / "kit"
    shutil.copytree(kit.ROOT / "labs", home / "labs")
    for entry in ("grader", "build", "datasets"):
        (home / entry).symlink_to(kit.ROOT / entry)
    (home / "labs" / lab / "lab.json").write_text(json.dumps(example))
    env = {"GPULAB_HOME": str(home)}
    p = kit.gpulab("list", env=env)
    assert p.returncode == 0 and example["title"] in p.stdout, p.stdout + p.stderr
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    src = kit.ROOT / "skeletons" / lab / example["source"]
    p = kit.gpulab("check", lab, src, "--backend", "emu", "--no-sanitize", "--format", "json",
                   "--dataset", example["datasets"][0]["name"], env=env, cwd=tmp_path)
    report = json.loads(p.stdout)
    assert [d["name"] for d in report["datasets"]] == [example["datasets"][0]["name"]]
    assert [r["name"] for r in report["requirements"]] == [r["name"] for r in example["requirements"]]


def keys_of(obj, prefix=""):
    """Every key path in a JSON value (list items share the path `[]`)."""
    out = set()
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.add(prefix + k)
            out |= keys_of(v, prefix + k + ".")
    elif isinstance(obj, list):
        for v in obj:
            out |= keys_of(v, prefix + "[].")
    return out


def test_report_example_has_the_real_keys(tmp_path):
    blocks = section_blocks("Reports")
    example = json.loads(blocks[0])
    requirement = json.loads(blocks[1])
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    # A file with a read past the end of M: wrong everywhere, and the
    # sanitizer stage has a finding, so every optional part is filled in.
    src = (kit.ROOT / "solutions" / "01-basic-matmul" / "basic_matmul.cu")
    if not src.exists():
        pytest.skip("no reference solution of lab 01 in this copy of the kit")
    bad = tmp_path / "basic_matmul.cu"
    text = src.read_text()
    assert "k < Width" in text
    bad.write_text(text.replace("k < Width", "k <= Width", 1))
    p = kit.gpulab("check", "01-basic-matmul", bad, "--backend", "emu", "--format", "json",
                   "--dataset", "width-0017", cwd=tmp_path)
    real = json.loads(p.stdout)
    assert real["datasets"][0]["sanitizer"]["findings"], "the sanitizer stage found nothing to compare with"
    assert keys_of(example) == keys_of(real), (
        f"only in formats.md: {sorted(keys_of(example) - keys_of(real))}; "
        f"only in the real report: {sorted(keys_of(real) - keys_of(example))}")
    # a requirement entry, from a lab that has requirements
    skel = kit.ROOT / "skeletons" / "02-tiled-matmul" / "tiled_matmul.cu"
    p = kit.gpulab("check", "02", skel, "--backend", "emu", "--no-sanitize", "--format", "json",
                   "--dataset", "width-0032", cwd=tmp_path)
    real_req = json.loads(p.stdout)["requirements"][0]
    assert set(requirement) == set(real_req)
    assert requirement["status"] == real_req["status"] == "requirement_failed"
    # every status the kit can give is in the table
    table = FORMATS.read_text()
    for status in dataset_statuses():
        assert f"`{status}`" in table, f"formats.md does not name the status {status}"


def dataset_statuses():
    """A dataset's statuses, as the record's schema lists them (every test
    that grades validates what the kit writes against it)."""
    schema = json.loads((kit.ROOT / "grader" / "tests" / "schemas" / "record.schema.json").read_text())
    found = []

    def walk(node):
        if isinstance(node, dict):
            if "status" in node.get("properties", {}) and "wall_s" in node["properties"]:
                found.extend(node["properties"]["status"]["enum"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(schema)
    assert len(found) >= 10, found
    return found


def test_student_guide_names_every_status():
    guide = (kit.ROOT / "docs" / "student-guide.md").read_text()
    for status in dataset_statuses():
        assert f"| `{status}` |" in guide, f"the student guide's status table lacks {status}"


def test_dist_student_leaves_out_instructor_docs():
    makefile = (kit.ROOT / "Makefile").read_text()
    rule = makefile[makefile.index("dist-student:"):]
    assert "docs/instructor/" in rule, "make dist-student must leave docs/instructor/ out"


def test_doc_links_resolve():
    """Relative links in the documents point at files that exist."""
    docs = [kit.ROOT / "README.md", *sorted((kit.ROOT / "docs").rglob("*.md"))]
    for doc in docs:
        text = doc.read_text()
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
            if re.match(r"^[a-z]+:", target):
                continue
            assert (doc.parent / target).exists(), f"{doc.relative_to(kit.ROOT)}: broken link {target}"


# ---- instructor-guide.md -------------------------------------------------------

def test_late_penalty_example_on_a_real_gradebook(tmp_path):
    """The instructor guide's late-penalty line (the block marked
    `sh late-penalty`), run on a gradebook made by `gpulab export`: only the
    late students' totals change, and a reason holding a comma survives."""
    blocks = [lines for info, lines, _ in fenced_blocks(kit.ROOT / "docs" / "instructor-guide.md")
              if info.split() == ["sh", "late-penalty"]]
    assert len(blocks) == 1, "docs/instructor-guide.md: expected one `sh late-penalty` block"
    command = "\n".join(line.strip() for line in blocks[0])
    lab = "02-tiled-matmul"
    records = tmp_path / "records"
    records.mkdir()
    for rid, score, misnamed in (("ann", 3, False), ("bob", 2, True), ("cy", 1, False)):
        rec = {"id": rid, "lab": lab, "file": f"week3/{rid}/{'matmul' if misnamed else 'tiled_matmul'}.cu",
               "score": score, "max_score": 3, "misnamed": misnamed, "build": {"ok": True},
               "requirements": [], "datasets": [{"name": "width-0032", "status": "pass" if score == 3 else "wrong",
                                                 "score": 1 if score == 3 else 0, "max_score": 1, "message": ""}]}
        (records / f"{rid}.json").write_text(json.dumps(rec))
    p = kit.gpulab("export", lab, records, "--csv", tmp_path / "grades-02.csv")
    assert p.returncode == 0, p.stderr
    (tmp_path / "late.csv").write_text("bob,2\ncy,20\n")
    p = kit.run(["bash", "-c", command], cwd=tmp_path)
    assert p.returncode == 0, p.stderr

    import csv
    before = list(csv.reader((tmp_path / "grades-02.csv").open(newline="")))
    after = list(csv.reader((tmp_path / "grades-02-late.csv").open(newline="")))
    assert len(after) == len(before) == 4 and after[0] == before[0]
    totals = {row[0]: float(row[1]) for row in after[1:]}
    assert totals == {"ann": 3.0, "bob": 1.6, "cy": 0.0}, totals
    for b, a in zip(before, after):
        assert b[:1] + b[2:] == a[:1] + a[2:], (b, a)
    assert any("," in row[4] for row in after[1:]), "the example gradebook has no reason with a comma"
