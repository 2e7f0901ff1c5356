"""The text report (grader/src/pipeline/report.c) stays short enough to read.

One mistake gets at most 40 lines: one line per dataset and requirement, the
details of each kind of failure once (datasets that fail the same way are
folded: "and 4 more datasets, same pattern"), a line when the checkers ran
and found nothing, and one "fix this first" line above the score. --verbose
shows every dataset's details; the JSON report is never folded.
"""
import json
import os
import pty
import re
import select
import subprocess
import time

import pytest

import kit

# Every mutant with the checkers on takes about 100 s on a 2-core machine
# (33 mutants, every public dataset each), too slow for the CI run, so the
# line limit is checked on a dozen chosen across the labs and kinds of
# failure: the longest reports of a full measurement (lab 03 has 19 datasets,
# so its table alone is 22 lines), a race found only by the checkers, a
# requirement failure, a fault map (no output), a harness finding (lab 05's
# padding) and a diagnosis from the inputs.
SHORT = [
    ("02-tiled-matmul", "missing-first-barrier"),   # race: the checkers' finding
    ("02-tiled-matmul", "no-tiling"),               # requirements fail, outputs right
    ("03-arbitrary-matmul", "single-width"),        # five different failures at once
    ("03-arbitrary-matmul", "floor-phase-count"),   # three patterns
    ("03-arbitrary-matmul", "swapped-tx-ty"),
    ("03-arbitrary-matmul", "no-zero-fill"),
    ("03-arbitrary-matmul", "missing-second-barrier"),
    ("04-conv-2batch", "no-barrier-between-channels"),
    ("04-conv-2batch", "second-batch-unbounded"),   # no output: the fault map
    ("04-conv-2batch", "mask-flipped"),             # named from the inputs
    ("04-conv-2batch", "window-centred-twice"),     # an unsigned index wrapped round
    ("05-pitched-conv", "byte-pitch-as-floats"),
    ("05-pitched-conv", "memcpy-not-2d"),           # the harness's padding finding
]
MAX_LINES = 40
# On a GPU these four (a race, a fault, a diagnosis, and the wrapped index
# that only the emulator's checkers, a GPU's default, name there) keep that
# run short.
ON_GPU = {("04-conv-2batch", "no-barrier-between-channels"), ("04-conv-2batch", "second-batch-unbounded"),
          ("04-conv-2batch", "mask-flipped"), ("04-conv-2batch", "window-centred-twice")}


def emulator_race_check():
    """A skip where the emulator's race check cannot work on this machine."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())


def mutant(lab, stem):
    return kit.ROOT / "solutions" / lab / "mutants" / f"{stem}.cu"


def text_report(lab, path, tmp_path, *extra, backend="emu"):
    p = kit.gpulab("check", lab, path, "--backend", backend, "--maps", tmp_path / "maps", *extra)
    assert p.returncode in (0, 1, kit.UNCHECKED_RC), p.stderr
    return p.stdout


@pytest.fixture(autouse=True)
def emulator(request):
    if "backend" not in request.fixturenames and kit.emu_problem():
        pytest.skip(kit.emu_problem())


@pytest.mark.parametrize("lab, stem", SHORT, ids=[f"{l}/{s}" for l, s in SHORT])
def test_one_mistake_fits_in_40_lines(backend, lab, stem, tmp_path):
    if backend == "gpu" and (lab, stem) not in ON_GPU:
        pytest.skip("on a GPU only the four lab 04 mistakes in ON_GPU run (a check there takes seconds)")
    text = text_report(lab, mutant(lab, stem), tmp_path, backend=backend)
    lines = text.splitlines()
    assert len(lines) <= MAX_LINES, f"{len(lines)} lines:\n{text}"
    # the one thing to fix, right above the score
    assert lines[-1].startswith("  score "), lines[-1]
    assert lines[-2].startswith("  fix this first: "), text
    assert sum(l.startswith("  fix this first: ") for l in lines) == 1
    # no dataset block is a heading alone
    for k, l in enumerate(lines):
        if re.match(r"^  \S+: (wrong|unsafe|cuda_error|crash|timeout|no_output)$", l):
            assert lines[k + 1].startswith("    "), (l, text)
    # a map key is never about maps the report does not name
    if any(l.startswith("  map key: ") for l in lines):
        assert re.search(r"(error|fault|race) map: |their error maps are beside", text), text
    if any(l.startswith("  fault map key: ") for l in lines):
        assert re.search(r"^    fault map: ", text, re.M), text


def test_every_wrong_dataset_has_its_error_map_named(tmp_path):
    """Lab 05's halo ring storing outside the inner test: the race is the
    finding to fix first, and the datasets it made wrong (which ones varies
    from run to run: it is a race) fall into blocks and one-line "other
    failures". Each wrong dataset's error map is named: in its block, as
    "beside this one", or on its own line."""
    prog = kit.ROOT / "grader" / "tests" / "programs" / "05-pitched-conv" / "store_outside_inner_test.cu"
    for attempt in range(5):  # a race: now and then no dataset comes out wrong
        text = text_report("05-pitched-conv", prog, tmp_path)
        wrong = re.findall(r"^  (\S+) +wrong +0/1 ", text, re.M)
        if wrong:
            break
    assert wrong, text
    covered = set()
    for name in wrong:  # a block of its own, with its map
        if re.search(rf"^    error map: \S*{re.escape(prog.stem)}-{re.escape(name)}\.png$", text, re.M):
            covered.add(name)
    beside = re.search(r"^  and \d+ more datasets?, same pattern: (.*) \(their error maps are beside this one\)$",
                       text, re.M)
    covered |= set(beside.group(1).split(", ")) if beside else set()
    others = text.split("  other failures", 1)[1] if "  other failures" in text else ""
    lines = re.findall(r"^    (\S+)(?: and (\d+) more)?: wrong: (.*)$", others, re.M)
    for name, more, rest in lines:
        assert f"(error map: " in rest and f"{prog.stem}-{name}.png" in rest, rest
        if more:
            assert "the others' beside it" in rest, rest
        covered.add(name)
    assert len(covered) + sum(int(m or 0) for _, m, _ in lines) == len(wrong), (wrong, covered, text)


def test_same_pattern_is_folded_and_verbose_shows_each(tmp_path):
    # every failing dataset of this mutant is wrong the same way (the
    # missing barrier between channels is no longer one: since the race
    # series, its rgb-5x7 is unsafe, said apart from the wrong ones)
    lab = "04-conv-2batch"
    path = mutant(lab, "no-channel-offset")
    text = text_report(lab, path, tmp_path)
    rc, rep = kit.check_json(lab, path, "emu", "--maps", tmp_path / "maps", sanitize=True)
    failing = [d["name"] for d in rep["datasets"] if d["status"] != "pass"]
    assert len(failing) >= 3, failing
    blocks = [l for l in text.splitlines() if re.match(r"^  \S+: (wrong|unsafe|cuda_error|crash)$", l)]
    assert len(blocks) == 1, text
    m = re.search(r"^  and (\d+) more datasets, same pattern: (.*)$", text, re.M)
    assert m, text
    assert int(m.group(1)) == len(failing) - 1
    folded = m.group(2).replace(" (their error maps are beside this one)", "").split(", ")
    assert sorted(folded + [blocks[0].split(":")[0].strip()]) == sorted(failing)

    verbose = text_report(lab, path, tmp_path, "--verbose")
    for name in failing:
        assert re.search(rf"^  {re.escape(name)}: \w+$", verbose, re.M), (name, verbose)
    assert "same pattern" not in verbose
    # the JSON is never folded: every failing dataset keeps its comparison,
    # its hint and its map
    for d in rep["datasets"]:
        if d["status"] == "wrong":
            assert d["comparison"]["hint"] and d["comparison"]["error_map"], d["name"]


def test_fix_first_is_the_checkers_finding_with_its_line(tmp_path):
    lab = "02-tiled-matmul"
    text = text_report(lab, mutant(lab, "missing-first-barrier"), tmp_path, "--dataset", "width-0064")
    (fix,) = [l for l in text.splitlines() if l.startswith("  fix this first: ")]
    assert "race" in fix and re.search(r"line \d+", fix), fix
    # the requirement line does not say the barriers are right
    (barrier,) = [l for l in text.splitlines() if l.startswith("  [barrier]")]
    assert "a __syncthreads() is present" in barrier and "synchronises" not in barrier, barrier


def test_fix_first_is_the_diagnosis_when_no_checker_found_anything(tmp_path):
    lab = "04-conv-2batch"
    text = text_report(lab, mutant(lab, "mask-flipped"), tmp_path, "--dataset", "rgb-47x29", "--no-sanitize")
    (fix,) = [l for l in text.splitlines() if l.startswith("  fix this first: ")]
    assert "mask flipped" in fix, fix
    # and not the plain count of wrong elements
    assert "elements wrong" not in fix


def test_a_variable_declared_again_in_an_inner_block_is_the_cause():
    """A second `float acc = 0.0f;` inside the mask's row loop (the kit's
    own file): the sum goes into the inner acc and the store writes the
    outer one, still 0. The first line names the inner declaration, the
    outer one and the line that uses it, from the source as written."""
    lab = "04-conv-2batch"
    src = kit.ROOT / "grader" / "tests" / "data" / "scope" / "04-acc-declared-in-row-loop.cu"
    lines = src.read_text().splitlines()
    decls = [i + 1 for i, l in enumerate(lines) if l.strip() == "float acc = 0.0f;"]
    use = next(i + 1 for i, l in enumerate(lines) if "= acc;" in l)
    _, rep = kit.check_json(lab, src, "emu", "--dataset", "gray-15x15", expect_rc=1)
    assert rep["score"] < rep["max_score"]
    first = rep["fix_first"]
    assert first.startswith(f"line {decls[1]} (`float acc = 0.0f;`) declares acc again"), first
    assert f"declared at line {decls[0]}" in first and f"line {use} uses the outer one" in first, first


def test_checkers_say_when_they_found_nothing(tmp_path):
    lab = "02-tiled-matmul"
    text = text_report(lab, kit.solution(lab), tmp_path, "--dataset", "width-0064")
    assert re.search(r"^  checkers: the race check and the bounds check ran on width-0064 and found nothing$",
                     text, re.M), text
    assert "fix this first" not in text
    quiet = text_report(lab, kit.solution(lab), tmp_path, "--dataset", "width-0064", "--no-sanitize")
    assert "checkers:" not in quiet


def run_on_terminal(args, env_extra=None, timeout=120):
    """Runs a command with its standard output on a pseudo-terminal; returns
    what it wrote there."""
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env["TERM"] = "xterm-256color"
    env.update(env_extra or {})
    master, slave = pty.openpty()
    p = subprocess.Popen([str(a) for a in args], stdout=slave, stderr=subprocess.DEVNULL, env=env)
    os.close(slave)
    out = b""
    while True:
        ready, _, _ = select.select([master], [], [], timeout)
        if not ready:
            p.kill()
            break
        try:
            chunk = os.read(master, 65536)
        except OSError:  # the other side closed
            break
        if not chunk:
            break
        out += chunk
    p.wait(timeout=timeout)
    os.close(master)
    return out.decode("utf-8", "replace")


HALF_BLOCK = "\u2580"


def test_small_map_is_drawn_on_a_terminal_only(tmp_path):
    lab, ds = "04-conv-2batch", "gray-15x15"
    args = [kit.GPULAB, "check", lab, mutant(lab, "mask-flipped"), "--backend", "emu", "--dataset", ds,
            "--no-sanitize", "--maps", tmp_path / "maps"]
    shown = run_on_terminal(args)
    rows = [l for l in shown.splitlines() if HALF_BLOCK in l]
    # 15 x 15 pixels, two to a character cell: 8 lines of 15 cells
    assert len(rows) == 8, shown
    assert all(l.count(HALF_BLOCK) == 15 for l in rows), rows
    assert "\x1b[38;5;" in rows[0] and "\x1b[48;5;" in rows[0]
    # NO_COLOR: no colours, and no picture
    plain = run_on_terminal(args, {"NO_COLOR": "1"})
    assert "score" in plain and HALF_BLOCK not in plain and "\x1b[" not in plain
    # not a terminal: neither
    p = kit.gpulab(*[str(a) for a in args[1:]])
    assert HALF_BLOCK not in p.stdout and "\x1b[" not in p.stdout


def test_json_report_keeps_every_dataset(tmp_path):
    """Folding is for the text only: the JSON of a lab 03 mistake that fails
    in several ways lists every dataset with its message and comparison."""
    lab = "03-arbitrary-matmul"
    rc, rep = kit.check_json(lab, mutant(lab, "single-width"), "emu", "--maps", tmp_path / "maps")
    names = [d["name"] for d in rep["datasets"]]
    assert names == kit.public_datasets(lab)
    for d in rep["datasets"]:
        assert d["message"], d["name"]
    text = text_report(lab, mutant(lab, "single-width"), tmp_path, "--no-sanitize")
    for name in names:  # and the text's table still has a line for each
        assert re.search(rf"^  {re.escape(name)}\s+\w+\s+\d", text, re.M), name
    json.dumps(rep)


def test_verbose_lists_each_blocks_own_findings(tmp_path):
    """With --verbose, two datasets the checkers looked at each list their
    findings, even when they are the same race."""
    lab = "02-tiled-matmul"
    text = text_report(lab, mutant(lab, "missing-first-barrier"), tmp_path, "--verbose")
    lines = text.splitlines()
    headers = [i for i, l in enumerate(lines) if l == "    the sanitizer found:"]
    assert headers, text
    for i in headers:
        assert lines[i + 1].startswith("      - race: "), lines[i:i + 2]


def test_fix_first_prefers_a_named_mistake_over_a_generic_hint(tmp_path):
    """Lab 03 with tx and ty swapped: the first failing dataset (1 x 97 x 1)
    only shows NaN, later ones are recognised as the transposed tile; the fix
    line and the one full block are the named mistake."""
    lab = "03-arbitrary-matmul"
    text = text_report(lab, mutant(lab, "swapped-tx-ty"), tmp_path, "--no-sanitize")
    (fix,) = [l for l in text.splitlines() if l.startswith("  fix this first: ")]
    assert "stored transposed" in fix, fix
    blocks = [l for l in text.splitlines() if re.match(r"^  \S+: wrong$", l)]
    assert len(blocks) == 1
    block = text.split(blocks[0], 1)[1]
    assert "stored transposed" in block.split("\n  and ", 1)[0], text


def test_a_wrapped_unsigned_index_is_named_at_its_line(backend, tmp_path):
    """N_ds[threadIdx.y + i - MASK_RADIUS] wraps round below 0 (threadIdx is
    unsigned): on the emulator the run fails as a GPU's would with 64-bit
    shared addresses (an illegal address, not a crash), on a GPU the output
    is wrong almost everywhere; on both the report names the kernel's line
    and the unsigned arithmetic, not the launch's line or a host pointer."""
    lab = "04-conv-2batch"
    path = mutant(lab, "window-centred-twice")
    line = next(i for i, l in enumerate(path.read_text().splitlines(), 1) if "acc += Mc[i][j] * N_ds[threadIdx.y + i - MASK_RADIUS]" in l)
    text = text_report(lab, path, tmp_path, backend=backend)
    (fix,) = [l for l in text.splitlines() if l.startswith("  fix this first: ")]
    assert f"line {line}" in fix and "unsigned" in fix, fix
    assert "crash" not in text and "host pointer" not in text and "no kernel of yours" not in text, text
    if backend == "gpu":
        # a GPU's 32-bit shared addresses land the wrapped index inside
        # shared memory: the output is wrong, and only the emulator's bounds
        # check (the default checkers, on the CPU) names the line
        assert "wrong" in text, text
        return
    quiet = text_report(lab, path, tmp_path, "--no-sanitize")
    assert "cuda_error" in quiet and f"{path.name}:{line}" in quiet and "unsigned" in quiet, quiet


def test_a_race_between_blocks_points_to_the_store_not_a_barrier(backend, tmp_path):
    """Halo-ring threads storing into the next block's outputs (errata 11):
    the race is named as two stores to one element that no barrier can
    order, with the guard before the store as the fix."""
    lab = "05-pitched-conv"
    path = kit.ROOT / "grader" / "tests" / "programs" / lab / "store_outside_inner_test.cu"
    line = next(i for i, l in enumerate(path.read_text().splitlines(), 1) if l.strip().startswith("out.data["))
    emulator_race_check()
    text = text_report(lab, path, tmp_path, backend=backend)
    (fix,) = [l for l in text.splitlines() if l.startswith("  fix this first: ")]
    assert f"line {line}" in fix and "two threads store to the same element" in fix, fix
    assert "never two blocks" in fix and "test before the store" in fix, fix
    # the two threads, of two different blocks, as the race detector saw them
    pair = re.search(r"\(thread \(\d+,\d+,\d+\) of block (\(\d+,\d+,\d+\)) and "
                     r"thread \(\d+,\d+,\d+\) of block (\(\d+,\d+,\d+\))\)", fix)
    assert pair and pair.group(1) != pair.group(2), fix
    assert "no __syncthreads() separates them" not in text, text
    assert len(text.splitlines()) <= MAX_LINES, text


def test_a_race_stored_through_memcpy_is_found_all_the_same(backend, tmp_path):
    """The same halo-ring store made with memcpy, which the compiler's
    instrumentation does not see: the race check still names it, and the
    submission earns no hazard points."""
    lab = "05-pitched-conv"
    text = (kit.ROOT / "grader" / "tests" / "programs" / lab / "store_outside_inner_test.cu").read_text()
    store = "            out.data[row_o * out.pitch + col_o * out.channels + k] = acc;"
    assert store in text
    copied = text.replace('#include "lab.h"', '#include "lab.h"\n#include <string.h>', 1).replace(
        store, "            memcpy(&out.data[row_o * out.pitch + col_o * out.channels + k], &acc, sizeof acc);")
    path = tmp_path / "store_with_memcpy.cu"
    path.write_text(copied)
    line = next(i for i, l in enumerate(copied.splitlines(), 1) if l.strip().startswith("memcpy(&out.data["))
    emulator_race_check()
    rep = kit.check_json(lab, path, backend, sanitize=True)[1]
    hazards = next(r for r in rep["requirements"] if r["name"] == "no_hazards")
    assert hazards["status"] == "requirement_failed" and hazards["score"] == 0, hazards
    text = text_report(lab, path, tmp_path, backend=backend)
    (fix,) = [l for l in text.splitlines() if l.startswith("  fix this first: ")]
    assert f"line {line}" in fix and "two threads store to the same element" in fix, fix


def test_an_early_return_before_the_barriers_is_named(backend, tmp_path):
    """A return before the tile loop: the report's first line to fix names
    the return's line first (the emulator notes each kernel return a thread
    takes), then the barrier the others wait at, says that threads had
    returned, and what to do instead (keep them, guard the loads and the
    store). A failure said again in the table is "as above"."""
    lab = "03-arbitrary-matmul"
    path = kit.ROOT / "grader" / "tests" / "programs" / lab / "early_return.cu"
    lines = path.read_text().splitlines()
    ret = next(i for i, l in enumerate(lines, 1) if l.strip().startswith("return;"))
    text = text_report(lab, path, tmp_path, backend=backend)
    (fix,) = [l for l in text.splitlines() if l.startswith("  fix this first: ")]
    assert fix.startswith(f"  fix this first: the return at line {ret} "), fix
    assert re.search(r"before the __syncthreads\(\) at line \d+", fix), fix
    assert "already returned from the kernel" in fix and "keep every thread through the barriers" in fix, fix
    assert len(text.splitlines()) <= MAX_LINES, text
    if backend == "emu":
        table = [l for l in text.splitlines() if re.match(r"^  \S+ +(pass|cuda_error) ", l)]
        again = [l for above, l in zip(table, table[1:]) if " cuda_error " in above and " cuda_error " in l]
        assert len(again) > 2 and all(l.endswith("  as above") for l in again), table


def test_blocks_smaller_than_the_tiles_are_named(backend, tmp_path):
    """Blocks of 8 x 8 threads with 16 x 16 tiles: every element NaN, and the
    first thing to fix is the launch's block, with both shapes (the block
    the kernel itself stored, on either backend)."""
    lab = "03-arbitrary-matmul"
    path = kit.ROOT / "grader" / "tests" / "programs" / lab / "blocks_smaller_than_tiles.cu"
    text = text_report(lab, path, tmp_path, "--no-sanitize", backend=backend)
    (fix,) = [l for l in text.splitlines() if l.startswith("  fix this first: ")]
    assert "two tiles of 16 x 16 floats" in fix and "blocks of 8 x 8 threads" in fix, fix
    assert "dimBlock(TILE_WIDTH, TILE_WIDTH)" in fix, fix
    # the reference solution gets no such hint
    assert "blocks of" not in text_report(lab, kit.solution(lab), tmp_path, "--no-sanitize", backend=backend)


@pytest.mark.parametrize("lab, stem, words", [
    ("03-arbitrary-matmul", "single-width", "every dataset whose sizes are all equal passes"),
    ("03-arbitrary-matmul", "swapped-tx-ty", "only the 1 x 1 x 1 product passes"),
])
# (05-pitched-conv/memcpy-not-2d used to show the image case, "only the 1 x 1
# image passes"; since the labs have a 1-row image, which a copy of the
# unpitched rows gets right too, two images pass and the hint rightly stays
# silent: the fix line names the cudaMemcpy.)
def test_patterns_across_kinds_of_input(tmp_path, lab, stem, words):
    """What only shows across datasets: every square dataset passes and
    every ragged one fails (one size used for another), or only the 1 x 1
    one passes. The hint says it; a more specific finding (a checker's line,
    the harness's padding, a named mistake) still leads the fix line."""
    text = text_report(lab, mutant(lab, stem), tmp_path, "--no-sanitize")
    (hint,) = [l for l in text.splitlines() if l.startswith("  hint: ")]
    assert words in hint, hint
    (fix,) = [l for l in text.splitlines() if l.startswith("  fix this first: ")]
    assert words not in fix, fix
    # the reference solutions get no such hint
    assert "  hint: " not in text_report(lab, kit.solution(lab), tmp_path, "--no-sanitize")


def test_a_copy_past_a_pitched_allocation_is_named(tmp_path):
    """cudaMemcpy2D of two rows more than cudaMallocPitch allocated: the
    checkers name the copy's line, and no_hazards fails."""
    lab = "05-pitched-conv"
    path = kit.ROOT / "grader" / "tests" / "programs" / lab / "copy_rows_past_the_allocation.cu"
    line = next(i for i, l in enumerate(path.read_text().splitlines(), 1) if "in->height + 2, cudaMemcpyHostToDevice" in l)
    text = text_report(lab, path, tmp_path)
    (fix,) = [l for l in text.splitlines() if l.startswith("  fix this first: ")]
    # the call starts a line above its last argument
    assert re.search(rf"the cudaMemcpy2D at line ({line}|{line - 1}) ", fix), fix
    assert "runs past the end of its cudaMallocPitch allocation" in fix, fix  # the call that made it
    rc, rep = kit.check_json(lab, path, "emu", sanitize=True)
    hz = next(r for r in rep["requirements"] if r["name"] == "no_hazards")
    assert hz["status"] == "requirement_failed", hz


def test_a_long_hint_is_never_cut(tmp_path):
    """Lab 05 copying rows with cudaMemcpy instead of cudaMemcpy2D: the
    dataset's hint joins the map's sentence, the NaN diagnosis and the
    padding's (over 600 characters) and ends with its last sentence whole."""
    lab = "05-pitched-conv"
    rc, rep = kit.check_json(lab, mutant(lab, "memcpy-not-2d"), "emu", "--dataset", "rgb-5x7")
    hint = rep["datasets"][0]["comparison"]["hint"]
    assert len(hint) > 511, hint
    assert hint.endswith("look at what writes whole rows of out."), hint


@pytest.mark.parametrize("lab, stem", [("04-conv-2batch", "mask-transposed"), ("04-conv-2batch", "mask-flipped"),
                                       ("05-pitched-conv", "mask-flipped")])
def test_a_mask_mistake_named_from_the_inputs_points_at_the_line_that_reads_the_mask(lab, stem, tmp_path):
    """The comparison names a flipped or transposed mask from numbers alone;
    the kit's view of the source adds the line where the __constant__ mask
    is read in the sum. Where the mask is read through a pointer there is
    no such line, and the sentence stays as it was."""
    path = mutant(lab, stem)
    line = next(i for i, l in enumerate(path.read_text().splitlines(), 1)
                if "+=" in l and re.search(r"\bMc\s*\[[^\]]*\]\s*\[", l))
    (fix,) = [l for l in text_report(lab, path, tmp_path, "--no-sanitize").splitlines()
              if l.startswith("  fix this first: ")]
    assert f"in the sum at line {line} (`" in fix, fix
    # the same mistake with the mask read through a pointer: named, no line
    src = path.read_text()
    flat = r"mask_flat[(\1) * MASK_WIDTH + (\2)]"
    through = "#define mask_flat (&Mc[0][0])\n" + "\n".join(re.sub(r"\bMc\s*\[([^\]]*)\]\s*\[([^\]]*)\]", flat, l) if "+=" in l else l
                        for l in src.splitlines()) + "\n"
    assert through != src
    other = tmp_path / path.name
    other.write_text(through)
    (fix,) = [l for l in text_report(lab, other, tmp_path, "--no-sanitize").splitlines()
              if l.startswith("  fix this first: ")]
    assert f"mask {stem.split('-')[1]}" in fix and "in the sum" in fix and "in the sum at line" not in fix, fix


def test_the_fix_this_first_finding_is_printed_once_in_full(tmp_path):
    """The early return's barrier divergence is the finding to fix first: the
    [no_hazards] row points to that line instead of quoting it again (the
    new user's trial found it three times over)."""
    prog = kit.ROOT / "grader" / "tests" / "programs" / "03-arbitrary-matmul" / "early_return.cu"
    text = text_report("03-arbitrary-matmul", prog, tmp_path)
    (fix,) = [l for l in text.splitlines() if l.startswith("  fix this first: ")]
    finding = fix[len("  fix this first: "):]
    assert "line" in finding and len(finding) > 60, fix
    assert text.count(finding) == 1, text
    (row,) = [l for l in text.splitlines() if l.startswith("  [no_hazards]")]
    assert 'see "fix this first" below' in row, row


# What the report says an element's place is, as the dataset's row and the
# details write it; a bare pair or triple "(6, 4)" is not one of them.
TUPLE = re.compile(r"\(\d+, \d+(, (channel )?\d+)?\)")


def test_an_elements_place_is_written_one_way_in_words(tmp_path):
    """The table's row, the worst elements' table and the error map's
    sentence name a place the same way, "row R, column C, channel K" (an
    RGB image), "row R, column C" (a gray image, a matrix); never "(R, C)"
    in one place and "row R, column C" in another."""
    lab = "04-conv-2batch"
    path = mutant(lab, "no-barrier-between-channels")
    text = text_report(lab, path, tmp_path, "--dataset", "rgb-16x16", "--no-sanitize")
    rc, rep = kit.check_json(lab, path, "emu", "--dataset", "rgb-16x16", "--maps", tmp_path / "maps")
    worst = rep["datasets"][0]["comparison"]["worst"]
    first = worst[0]
    (row,) = [l for l in text.splitlines() if l.startswith("  rgb-16x16 ")]
    assert f"worst at row {first['row']}, column {first['col']}, channel {first['channel']}: got " in row, row
    for w in worst[:3]:
        assert re.search(rf"^      row {w['row']}, column {w['col']}, channel {w['channel']}  +\S", text, re.M), text
    assert re.search(r"the first is at row \d+, column \d+\.", text), text
    assert not TUPLE.search(text), text
    # a gray image and a matrix: no channel
    gray = text_report(lab, mutant(lab, "tile-width-8"), tmp_path, "--dataset", "gray-15x15", "--no-sanitize")
    assert re.search(r"worst at row \d+, column \d+: got ", gray) and not TUPLE.search(gray), gray
    matrix = text_report("03-arbitrary-matmul", mutant("03-arbitrary-matmul", "unguarded-loads"), tmp_path,
                         "--dataset", "one-1x1x1", "--no-sanitize")
    assert "worst at row 0, column 0: got " in matrix, matrix
    assert "    the wrong element, at row 0, column 0: got inf, expected " in matrix, matrix
    assert not TUPLE.search(matrix), matrix
    # lab 05's harness names the first changed padding float the same way
    lab = "05-pitched-conv"
    padded = text_report(lab, mutant(lab, "memcpy-not-2d"), tmp_path, "--dataset", "rgb-5x7", "--no-sanitize")
    assert re.search(r"the first at row \d+, column \d+ \(padding float \d+ of that row", padded), padded


FAULT_KEY = "  fault map key: "


def test_a_fault_map_has_a_key_printed_once(tmp_path):
    """A dataset that ended in a fault with no output gets a fault map; the
    report says once, under the details, what its colours mean, like the
    error maps' key. --verbose names two fault maps and still one key; with
    no fault map named (no sanitizer stage) there is no key."""
    lab = "04-conv-2batch"
    path = mutant(lab, "second-batch-unbounded")
    text = text_report(lab, path, tmp_path, "--verbose")
    assert len(re.findall(r"^    fault map: \S+\.png$", text, re.M)) >= 2, text
    keys = [l for l in text.splitlines() if l.startswith(FAULT_KEY)]
    assert len(keys) == 1, text
    assert "orange a thread that made an invalid access" in keys[0] and "grey-blue lines the blocks" in keys[0]
    assert text.index("    fault map: ") < text.index(FAULT_KEY) < text.index("  fix this first: ")
    quiet = text_report(lab, path, tmp_path, "--no-sanitize")
    assert "fault map" not in quiet, quiet


UNSAFE_WHY = ("  unsafe: the output matched, but the checkers found a hazard on that dataset, "
              "so it matched by luck and earns nothing")


def test_an_unsafe_dataset_says_why_it_earns_nothing(tmp_path):
    """A stray read past the end of M that never changes a sum: the outputs
    match, the checkers see the read, and the datasets they looked at are
    unsafe with 0 points. One line, once, says why; a report with no unsafe
    dataset has none."""
    lab = "02-tiled-matmul"
    src = kit.solution(lab).read_text()
    assert "float Pvalue = 0;" in src
    stray = tmp_path / "tiled_matmul.cu"
    stray.write_text(src.replace("float Pvalue = 0;", "float Pvalue = 0 * M[Width * Width];", 1))
    text = text_report(lab, stray, tmp_path)
    unsafe = re.findall(r"^  \S+ +unsafe +0/1 ", text, re.M)
    assert len(unsafe) >= 2, text
    assert text.splitlines().count(UNSAFE_WHY) == 1, text
    assert len(text.splitlines()) <= MAX_LINES, text
    assert "unsafe" not in text_report(lab, kit.solution(lab), tmp_path, "--dataset", "width-0032")


def test_stages_say_where_the_time_went(tmp_path):
    """Every JSON report gives each stage's seconds ("stages", stages.h):
    the build, the runs, the comparisons, the checkers' runs; the text
    report only with --verbose. And each says what ran: on the emulator the
    smallest dataset runs alone first; a right file's others run in one
    series, a wrong file's each alone, once (none in a series, so none
    twice)."""
    lab = "01-basic-matmul"
    names = kit.public_datasets(lab)
    right, wrong = kit.solution(lab), mutant(lab, "copy-back-swapped")
    t0 = time.monotonic()
    rc, rep = kit.check_json(lab, wrong, "emu", "--maps", tmp_path / "maps", sanitize=True)
    wall = time.monotonic() - t0
    stages = rep["stages"]
    assert list(stages)[0] == "build", stages
    for name, seconds in stages.items():
        assert 0 <= seconds <= wall, (name, seconds, wall)
        assert round(seconds, 3) == seconds, (name, seconds)
    assert all(d["status"] != "pass" for d in rep["datasets"]), rep["datasets"]
    runs = [name for name in stages if name.startswith("run ")]
    assert sorted(runs) == sorted(f"run {name}" for name in names), stages
    checked = [d["name"] for d in rep["datasets"] if d["sanitizer"] and d["sanitizer"]["ran"]]
    assert checked and all(f"checkers {name}" in stages for name in checked), (checked, stages)
    assert "requirements" in stages, stages
    assert ("compare" in stages) == any(d["comparison"] for d in rep["datasets"]), stages

    rc, rep = kit.check_json(lab, right, "emu", "--maps", tmp_path / "maps", sanitize=True)
    assert all(d["status"] == "pass" for d in rep["datasets"]), rep["datasets"]
    runs = [name for name in rep["stages"] if name.startswith("run ")]
    assert len(runs) == 2 and "run series-1" in runs, rep["stages"]
    assert runs[0] == f"run {names[0]}", rep["stages"]  # the smallest: lab 01's first
    assert rep["stages"]["bounds series"] > 0 and rep["stages"]["compare"] > 0, rep["stages"]

    # the text keeps its size: the times only with --verbose
    assert "time:" not in text_report(lab, wrong, tmp_path)
    verbose = text_report(lab, right, tmp_path, "--verbose")
    m = re.search(r"^  time: build \d+\.\d{3} s, run width-\d+ \d+\.\d{3} s, .*requirements \d+\.\d{3} s$",
                  verbose, re.M)
    assert m, verbose
