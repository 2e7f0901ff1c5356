"""The repair search (grader/src/pipeline/repair.c): for a file whose output
is wrong, or that faults, the one candidate edit of emucc's schemata build
that makes every dataset right, named in the first line with its line.

The files of data/repair/ are single mistakes written for these tests (the
reference solution with one edit), each with a header line

    * Repair: line=N; from=TEXT; to=TEXT

saying where the mistake is and what the repair must put there. They run
through the real `gpulab check` on the emulator, with the checkers (the
search runs with them; --no-sanitize skips both).
"""
import re
import subprocess
from pathlib import Path

import pytest

import kit

DATA = Path(__file__).resolve().parent / "data" / "repair"
FILES = sorted(DATA.glob("*.cu"))
LABS = {p.name: p.name for p in (kit.ROOT / "labs").iterdir()}


def lab_of(path):
    prefix = path.name.split("-", 1)[0]
    return next(name for name in LABS if name.startswith(prefix + "-"))


def repair_header(path):
    m = re.search(r"^ \* Repair: line=(\d+); from=(.*); to=(.*)$", path.read_text(), re.M)
    assert m, f"{path.name} has no Repair: line"
    return int(m.group(1)), m.group(2).strip(), m.group(3).strip()


def schemata_problem():
    """Why this kit's emucc cannot build a schemata program, or None."""
    emucc = kit.ROOT / "build" / "emu" / "emucc"
    p = subprocess.run([str(emucc), "--help"], capture_output=True, text=True)
    return None if "--schemata" in p.stdout + p.stderr else "this emucc has no --schemata"


needs_schemata = pytest.mark.skipif(schemata_problem() is not None, reason=str(schemata_problem()))


@needs_schemata
@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_repair_names_the_line_and_the_edit(path):
    line, frm, to = repair_header(path)
    # the file as it stands: the repair's line must be the mistake's
    assert frm.split(",")[0].strip() in path.read_text().splitlines()[line - 1], (path.name, line)
    _, rep = kit.check_json(lab_of(path), path, "emu", sanitize=True)
    r = rep["repair"]
    assert r is not None, f"no repair found:\n{rep['fix_first']}"
    assert r["found"] == "full", r
    assert r["line"] == line, r
    assert r["datasets_right"] == r["datasets"] == len(rep["datasets"]), r
    # the edit: what was there, and what goes there (an argument swap lists both)
    assert frm.replace(" ", "") in (r["from"] + r.get("also", {}).get("from", "")).replace(" ", ""), r
    assert to.replace(" ", "") in (r["to"] + r.get("also", {}).get("to", "")).replace(" ", ""), r
    # the first line names that line: the repair's own sentence, or a
    # cause of the kit's own record at the same line
    first = rep["fix_first"]
    assert f"line {line}" in first, first
    if first.startswith(f"line {line}:"):
        assert f"`{r['to']}`" in first and "datasets come out right" in first, first
    # the text report carries it too
    p = kit.gpulab("check", lab_of(path), path, "--backend", "emu")
    assert f"line {line}" in p.stdout, p.stdout


@needs_schemata
def test_a_size_passed_one_too_large_is_found_past_a_dataset_it_leaves_right(tmp_path):
    """Lab 03 launched with `k + 1` for k: each row's dot product reads one
    element past M's row, and on 1 x 1 x 1 the search's own build finds 0
    there, so the smallest failing dataset comes out right as written and
    gives no verdict. The search screens on the next failing dataset
    instead, and the edit that takes out the `+ 1` is said as that, not as
    `1` made `0`."""
    lab = "03-arbitrary-matmul"
    sol = kit.solution(lab)
    launch = "MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, j, k, l);"
    text = sol.read_text()
    assert text.count(launch) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(launch, launch.replace("j, k, l", "j, k + 1, l")))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "j, k + 1, l" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line, r
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `+ 1` in `") and "looks like the mistake: without it, all " in first, first


@needs_schemata
def test_two_subscripts_swapped_are_said_as_the_element_written(tmp_path):
    """Lab 05's weighted sum reading the mask as Mc[j][i]: the repair is the
    swap of the two subscripts, said as the element the statement writes
    and the one to write, not as a pair of names (`j, i`) the line does
    not hold."""
    lab = "05-pitched-conv"
    sol = kit.solution(lab)
    text = sol.read_text()
    assert text.count("Mc[i][j]") == 1
    src = tmp_path / sol.name
    src.write_text(text.replace("Mc[i][j]", "Mc[j][i]"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "Mc[j][i]" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `Mc[j][i]` in `"), first
    assert "with its two subscripts the other way round, `Mc[i][j]`, there, all " in first, first


@needs_schemata
def test_a_conditional_where_one_branch_serves_every_case_is_said_as_the_conditional(tmp_path):
    """Lab 02's dot loop runs one term short in phase 0 alone, its bound a
    conditional `(ph == 0 ? TILE_WIDTH - 1 : TILE_WIDTH)`: the repair puts
    the branch that serves every case in place of the whole conditional,
    not an edit of its condition that makes it never hold."""
    lab = "02-tiled-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "for (int i = 0; i < TILE_WIDTH; ++i)"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "for (int i = 0; i < (ph == 0 ? TILE_WIDTH - 1 : TILE_WIDTH); ++i)"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "ph == 0 ? TILE_WIDTH - 1" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "conditional" and r["to"] == "TILE_WIDTH", r
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: the conditional `ph == 0 ? TILE_WIDTH - 1 : TILE_WIDTH` looks like the "
                            "mistake"), first
    assert "with `TILE_WIDTH` in place of the whole conditional, all " in first, first


@needs_schemata
def test_a_quotient_that_already_rounds_up_is_no_place_for_an_edit(tmp_path):
    """emucc --schemata lists no edit of a grid's `(l + TILE_WIDTH - 1) /
    TILE_WIDTH` division (another operator, the dividend alone, rounding
    up again), while the file's `k / TILE_WIDTH` is still rounded up:
    the idiom is written right, and an edit there only makes up for a
    mistake elsewhere (a loop's bound that drops a phase's terms, which
    one more phase mends on every dataset)."""
    sol = kit.solution("03-arbitrary-matmul")
    text = sol.read_text()
    assert text.count("numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;") == 1
    path = tmp_path / sol.name
    path.write_text(text.replace("numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;", "numPhases = k / TILE_WIDTH;"))
    schemata = tmp_path / "s.json"
    subprocess.run([str(kit.ROOT / "build" / "emu" / "emucc"), "--schemata", str(schemata), "-c", str(path),
                    "-o", str(tmp_path / "s.o"), "-I", str(kit.ROOT / "labs" / "03-arbitrary-matmul"),
                    "-I", str(kit.ROOT / "grader" / "runtime")], check=True, capture_output=True)
    import json
    cands = json.loads(schemata.read_text())
    idiom = [c for c in cands if c["from"] in ("(l + TILE_WIDTH - 1) / TILE_WIDTH", "(j + TILE_WIDTH - 1) / TILE_WIDTH")]
    assert not idiom, idiom
    # a quotient that rounds down is still rounded up
    assert any(c["kind"] == "round-up" and c["from"] == "k / TILE_WIDTH" for c in cands), cands


@needs_schemata
def test_of_two_repairs_alike_the_one_at_a_line_the_reference_lacks_is_named(tmp_path):
    """Lab 03's last phase cut to k % TILE_WIDTH terms by an if (0 terms
    where k fills its tiles): one more phase (`k + TILE_WIDTH + 1` in the
    count, a line the reference solution has word for word) and a test
    that never holds (`numPhases + 1` in the if) both mend every dataset,
    and the words tell them no apart. The one at the line that departs
    from the reference is named, alone."""
    lab = "03-arbitrary-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "        for (int i = 0; i < TILE_WIDTH; ++i)"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "        int last = TILE_WIDTH;\n        if (ph == numPhases - 1) last = k % TILE_WIDTH;\n"
                                     "        for (int i = 0; i < last; ++i)"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "if (ph == numPhases - 1)" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line, r
    assert r["repairs"] >= 2, r
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: "), first
    assert "look at both" not in first, first


@needs_schemata
@pytest.mark.parametrize("lab, old, new, to", [
    # the factor meant for the last term alone, the sum's head taken in too
    ("05-pitched-conv", "in.data[row_i * in.pitch + col_i * in.channels + k]",
     "in.data[(row_i * in.pitch + col_i) * in.channels + k]", "row_i * in.pitch + col_i * in.channels"),
    # the factor meant for the first term alone, the thread's part taken in too
    ("01-basic-matmul", "int Row = blockIdx.y * blockDim.y + threadIdx.y;",
     "int Row = blockIdx.y * (blockDim.y + threadIdx.y);", "blockIdx.y * blockDim.y + threadIdx.y"),
])
def test_parentheses_that_take_in_a_term_too_many_are_said_as_the_grouping(tmp_path, lab, old, new, to):
    """A factor beside a parenthesised sum that was meant for one of its
    terms: the repair regroups it, the factor on that term alone."""
    sol = kit.solution(lab)
    text = sol.read_text()
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, new))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if new in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "grouping" and r["to"] == to, r
    first = rep["fix_first"]
    assert f"line {line}: `" in first and f"with `{to}` there, all " in first, first


@needs_schemata
def test_a_size_s_other_axis_is_offered_for_a_member_copied_along(tmp_path):
    """Lab 05's grid counting its columns from in->height, a copy of the
    rows' count: the member edit offers the size's other axis (width for
    height) among its few alternatives, and the repair names it, not a
    literal made larger so that the grid covers every dataset anyway."""
    lab = "05-pitched-conv"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "dim3 dimGrid((in->width - 1) / O_TILE_WIDTH + 1, (in->height - 1) / O_TILE_WIDTH + 1);"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "dim3 dimGrid((in->height - 1) / O_TILE_WIDTH + 1, (in->height - 1) / O_TILE_WIDTH + 1);"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "dim3 dimGrid((in->height" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["from"] == "in->height" and r["to"] == "in->width", r


@needs_schemata
def test_a_name_a_twin_statement_has_is_offered_as_this_statement_would_write_it(tmp_path):
    """Lab 05's output pitch made from row_bytes: the twin statement beside
    it (`d_in_img.pitch = ... in_pitch_bytes ...`) puts in_pitch_bytes
    there, and both pitches mend every dataset (they are equal here). The
    name offered is the twin's as this statement would write it, its `in`
    made the `out` of d_out_img: out_pitch_bytes."""
    lab = "05-pitched-conv"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "d_out_img.pitch = (int)(out_pitch_bytes / sizeof(float));"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "d_out_img.pitch = (int)(row_bytes / sizeof(float));"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "d_out_img.pitch = (int)(row_bytes" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["from"] == "row_bytes", r
    assert r["to"] == "out_pitch_bytes", r


@needs_schemata
def test_a_comparison_after_a_sum_whose_parenthesis_closed_early_is_regrouped(tmp_path):
    """Lab 03's phase count written `k / TILE_WIDTH + (k % TILE_WIDTH) !=
    0`: `!=` binds after `+`, so the whole sum is compared and the count is
    1. The repair moves the parenthesis past the comparison, at the line
    that sets the count, and the regrouped value is the sum's (not cast
    to the comparison's truth value, which would make it 1 again)."""
    lab = "03-arbitrary-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "numPhases = k / TILE_WIDTH + (k % TILE_WIDTH) != 0;"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "(k % TILE_WIDTH) != 0" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "grouping", r
    assert r["to"] == "k / TILE_WIDTH + (k % TILE_WIDTH != 0)", r
    assert rep["fix_first"].startswith(f"line {line}: "), rep["fix_first"]


@needs_schemata
def test_one_mistake_in_both_of_a_dim3_s_counts_written_alike_is_mended_at_both(tmp_path):
    """Lab 04's grid with `-` for the first `+` in both counts, `(width -
    TILE_WIDTH - 1) / TILE_WIDTH` and the same of height: no edit of one
    argument mends it, and the two are not the same count. The edit made
    in both at once (`parallel-args`) does, and the first line names it."""
    lab = "04-conv-2batch"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "dim3 dimGrid((width + TILE_WIDTH - 1) / TILE_WIDTH, (height + TILE_WIDTH - 1) / TILE_WIDTH);"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, old.replace("+ TILE_WIDTH", "- TILE_WIDTH")))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "dim3 dimGrid((width - " in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "parallel-args", r
    assert r["from"] == "width - TILE_WIDTH" and r["to"] == "width + TILE_WIDTH", r
    assert rep["fix_first"].startswith(f"line {line}: `width - TILE_WIDTH`"), rep["fix_first"]
    assert "written in both of the dim3's arguments" in rep["fix_first"], rep["fix_first"]


@needs_schemata
def test_a_coordinate_declared_in_a_type_narrower_than_an_int_is_given_int(tmp_path):
    """Lab 05's output column declared `char col_o`: past 127 it wraps,
    and the wide images' right parts are computed in the wrong place. The
    repair search offers int for a narrow integer's declaration, and it
    mends every dataset."""
    lab = "05-pitched-conv"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "    int col_o = blockIdx.x * O_TILE_WIDTH + tx;"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "    char col_o = blockIdx.x * O_TILE_WIDTH + tx;"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "char col_o" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "type", r
    assert r["from"] == "char" and r["to"] == "int", r
    # the first line is the repair's, or the narrow-type finding whose
    # advice is the repair's edit (then the repair is not said twice)
    first = rep["fix_first"]
    assert (f"line {line}: `char` in `char col_o" in first or
            (first.startswith(f"line {line} (`char col_o") and "declare col_o int" in first)), first


@needs_schemata
def test_a_block_coordinate_scaled_by_the_grid_is_mended_at_the_scale_not_by_exchange(tmp_path):
    """Lab 03's Row written `by * gridDim.y + ty`: exchanging by and ty
    (`ty * gridDim.y + by`) also makes every output right, by interleaving
    the rows, a mapping no correct file writes. The exchange is not a
    candidate; the repair names the scale, gridDim.y, with the block's
    size there: TILE_WIDTH, the name the lab's reference writes in that
    statement, which as a factor of the row's product is among the
    candidates for a block's or grid's size (blockDim.y mends it too; the
    reference's statement breaks the tie)."""
    lab = "03-arbitrary-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "    int Row = by * TILE_WIDTH + ty;"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "    int Row = by * gridDim.y + ty;"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "by * gridDim.y" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["from"] == "gridDim.y", r
    assert r["to"] == "TILE_WIDTH", r


@needs_schemata
def test_a_term_added_after_a_product_where_the_last_factor_should_scale_it_is_regrouped(tmp_path):
    """Lab 04's first-batch load reads `I[srcY * width * channels + srcX +
    k]`: srcX belongs with the row before the channels scale them. The
    repair regroups the product and the term, `(srcY * width + srcX) *
    channels`, which no edit of a name or an operator does."""
    lab = "04-conv-2batch"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "            N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];"
    assert text.count(old) == 2
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "            N_ds[destY][destX] = I[srcY * width * channels + srcX + k];", 1))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "srcY * width * channels" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "grouping", r
    assert r["from"] == "srcY * width * channels + srcX" and r["to"] == "(srcY * width + srcX) * channels", r


@needs_schemata
def test_of_two_edits_of_one_line_the_one_that_writes_the_reference_s_statement_is_named(tmp_path):
    """Lab 04's second batch starts two past the first's end, `dest = ... +
    TILE_WIDTH * TILE_WIDTH + 2`. Making `+ threadIdx.x` a `-` mends every
    dataset too, by accident (a mapping that only happens to cover the
    tile). The repair names the edit that writes the statement the
    reference solution writes: the `+ 2` dropped."""
    lab = "04-conv-2batch"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "dest = threadIdx.y * TILE_WIDTH + threadIdx.x + TILE_WIDTH * TILE_WIDTH;"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, old[:-1] + " + 2;"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "TILE_WIDTH * TILE_WIDTH + 2;" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line, r
    assert r["to"].replace(" ", "") == "threadIdx.y*TILE_WIDTH+threadIdx.x+TILE_WIDTH*TILE_WIDTH", r


@needs_schemata
def test_a_fence_where_the_tile_s_barrier_belongs_is_said_as_the_weaker_barrier(tmp_path):
    """Lab 05's barrier after the tile's load written `__threadfence_block();`:
    it orders memory and waits for no thread. The repair adds a
    __syncthreads() beside it; the sentence names the fence as the mistake
    and says to write the barrier in its place."""
    lab = "05-pitched-conv"
    sol = kit.solution(lab)
    text = sol.read_text()
    assert text.count("__syncthreads();") == 2
    src = tmp_path / sol.name
    src.write_text(text.replace("__syncthreads();", "__threadfence_block();", 1))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "__threadfence_block();" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line, r
    first = rep["fix_first"]
    assert f"line {line}: `__threadfence_block();` looks like the mistake: __threadfence_block() orders memory " \
        "and waits for no thread" in first, first
    assert "write `__syncthreads();` in its place" in first, first


@needs_schemata
@pytest.mark.parametrize("count, kind, edit_from, edit_to", [
    # a round-up with its addend wrong, in both arguments
    ("(width - 1) / BLOCK_WIDTH", "twin-round-up", "(width - 1) / BLOCK_WIDTH", "(width + BLOCK_WIDTH - 1) / BLOCK_WIDTH"),
    # a remainder's test written the wrong way, in both
    ("width / BLOCK_WIDTH + (width % BLOCK_WIDTH < 0)", "twin-args", "width % BLOCK_WIDTH < 0",
     "width % BLOCK_WIDTH > 0"),
])
def test_a_mistake_written_in_both_of_a_dim3_s_arguments_is_mended_at_both(tmp_path, count, kind, edit_from, edit_to):
    """Lab 01's grid with one count given twice, wrong the same way in
    both: no edit of one argument mends it, the same edit at both does.
    A round-up is said as one (with the wrong addend replaced, not a
    block more counted); a count that rounds up by a remainder's term of
    its own has that term's test mended, not its quotient rounded up."""
    lab = "01-basic-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "(width + BLOCK_WIDTH - 1) / BLOCK_WIDTH"
    assert text.count(old) == 2
    src = tmp_path / sol.name
    src.write_text(text.replace(old, count))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "dim3 dimGrid(" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == kind, r
    assert (r["from"], r["to"]) == (edit_from, edit_to), r
    assert f"line {line}: `{edit_from}` in `dim3 dimGrid(" in rep["fix_first"], rep["fix_first"]
    assert f"written in both of the dim3's arguments" in rep["fix_first"], rep["fix_first"]
    assert f"with `{edit_to}` in both, all 9 datasets come out right" in rep["fix_first"], rep["fix_first"]


@needs_schemata
def test_a_term_that_ends_both_subscripts_of_an_element_is_dropped_from_both(tmp_path):
    """Lab 05's weighted sum reading `N_ds[ty + i + 1][tx + j + 1]`: one
    offset added to each subscript, so the window is one place off and the
    last threads read past the tile. No edit of one subscript mends it;
    the term dropped from both does, and the line names that term."""
    lab = "05-pitched-conv"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "acc += Mc[i][j] * N_ds[ty + i][tx + j];"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "acc += Mc[i][j] * N_ds[ty + i + 1][tx + j + 1];"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "N_ds[ty + i + 1]" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "twin-subscripts", r
    assert (r["from"], r["to"]) == ("+ 1", ""), r
    assert f"line {line}: the `+ 1` that ends both subscripts of the element in " in rep["fix_first"], \
        rep["fix_first"]
    assert f"line {line}" in rep["fix_first"][:120], rep["fix_first"]
    assert "without it in both, all 16 datasets come out right" in rep["fix_first"], rep["fix_first"]


@needs_schemata
def test_a_clause_that_a_name_edit_makes_always_true_is_named_to_drop(tmp_path):
    """Lab 03's partial dot product's loop given a clause of the thread's
    own load row, `i < TILE_WIDTH && nRow < k`: in the last phase the
    loop stops early for some threads. `nRow` made `ph` mends every
    dataset only by making the clause hold always; the condition without
    the clause mends it too, and is the edit named."""
    lab = "03-arbitrary-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "for (int i = 0; i < TILE_WIDTH; ++i)"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "for (int i = 0; i < TILE_WIDTH && nRow < k; ++i)"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "nRow < k; ++i" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "drop-right", r
    assert (r["from"], r["to"]) == ("i < TILE_WIDTH && nRow < k", "i < TILE_WIDTH"), r
    assert f"line {line}: `i < TILE_WIDTH && nRow < k`" in rep["fix_first"], rep["fix_first"]


@needs_schemata
def test_a_term_its_twin_declaration_has_is_added_where_it_is_left_out(tmp_path):
    """Lab 05's input coordinates declared column first, and the row's
    written without the halo's shift: `int col_i = col_o - MASK_RADIUS;`
    then `int row_i = row_o;`. The two names and their sources differ the
    same way (col for row), so the term the first has is the candidate for
    the second, and it mends every dataset."""
    lab = "05-pitched-conv"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "    int row_i = row_o - MASK_RADIUS;\n    int col_i = col_o - MASK_RADIUS;\n"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "    int col_i = col_o - MASK_RADIUS;\n    int row_i = row_o;\n"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "int row_i = row_o;" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "twin-term", r
    assert (r["from"], r["to"]) == ("row_o", "row_o - MASK_RADIUS"), r
    assert rep["fix_first"].startswith(f"line {line}: `- MASK_RADIUS` looks missing after `row_o`"), rep["fix_first"]


@needs_schemata
def test_a_loop_started_at_a_thread_s_coordinate_is_started_at_0(tmp_path):
    """Lab 03's partial dot product started at the thread's row, `for (int
    i = ty; ...)`: each thread skips the tile's first ty terms. The loop's
    start made 0 mends every dataset, and the repair names it."""
    lab = "03-arbitrary-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "for (int i = 0; i < TILE_WIDTH; ++i)"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "for (int i = ty; i < TILE_WIDTH; ++i)"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "int i = ty;" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and (r["from"], r["to"]) == ("ty", "0"), r
    assert rep["fix_first"].startswith(f"line {line}: `ty` in `int i = ty; i < TILE_WIDTH; ++i`"), rep["fix_first"]


@needs_schemata
def test_an_exchange_at_a_line_the_reference_writes_gives_way_to_one_where_it_departs(tmp_path):
    """Lab 01's sum reading N where M belongs and M where N belongs,
    `M[k * Width + Col] * N[Row * Width + k]`: exchanging the launch's d_M
    and d_N mends every dataset too, but that line is the reference's, word
    for word; the exchange of the product's arrays, at the line that
    departs from it, is named instead."""
    lab = "01-basic-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "Pvalue += M[Row * Width + k] * N[k * Width + Col];"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "Pvalue += M[k * Width + Col] * N[Row * Width + k];"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "M[k * Width + Col] * N" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "exchange", r
    assert rep["fix_first"].startswith(f"line {line}: "), rep["fix_first"]


@needs_schemata
def test_a_buffer_freed_twice_is_mended_at_the_second_free_in_the_finding_s_words(tmp_path):
    """Lab 01's frees with d_N's written `cudaFree(d_M)` again: d_M is
    freed twice and d_N never. Either free, made d_N's, mends it; the line
    the reference writes in that order (the first) is kept, and the repair
    at the second follows the double free's finding, which names it."""
    lab = "01-basic-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    assert text.count("CUDA_CHECK(cudaFree(d_N));") == 1
    src = tmp_path / sol.name
    src.write_text(text.replace("CUDA_CHECK(cudaFree(d_N));", "CUDA_CHECK(cudaFree(d_M));"))
    lines = src.read_text().splitlines()
    first, second = [i + 1 for i, l in enumerate(lines) if "cudaFree(d_M)" in l]
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == second and (r["from"], r["to"]) == ("d_M", "d_N"), r
    words = rep["fix_first"]
    assert words.startswith(f"the cudaFree at line {second} "), words
    assert f"a second time: the cudaFree at line {first} " in words, words
    assert words.endswith(f"; line {second}: `d_M` in `CUDA_CHECK(cudaFree(d_M))` looks like the mistake: with "
                          "`d_N` there, all 9 datasets come out right"), words


@needs_schemata
def test_a_fence_past_comments_from_the_barrier_s_place_is_the_one_named(tmp_path):
    """Lab 02's barrier after the tiles' loads written
    `__threadfence_block();`, with the skeleton's comments between it and
    the loads: the repair adds a __syncthreads() after the second load,
    lines above the fence. The sentence names the fence at its
    own line, not the load's, and says to write the barrier in its place."""
    lab = "02-tiled-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    assert text.count("__syncthreads();") == 2
    src = tmp_path / sol.name
    src.write_text(text.replace("__syncthreads();", "__threadfence_block();", 1))
    lines = src.read_text().splitlines()
    line = next(i + 1 for i, l in enumerate(lines) if "__threadfence_block();" in l)
    assert lines[line - 2].strip().startswith("//"), "the test needs a comment between the load and the fence"
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full", r
    assert r["sentence"].startswith(f"line {line}: `__threadfence_block();` looks like the mistake: "
                                    "__threadfence_block() orders memory and waits for no thread"), r["sentence"]
    assert "write `__syncthreads();` in its place" in r["sentence"], r["sentence"]
    # the race the checkers saw names the fence first, at the barrier's
    # place, and the repair follows it with its evidence
    first = rep["fix_first"]
    assert first.startswith(f"the __threadfence_block() at line {line}, between the tile's stores and its reads, "
                            "orders memory but waits for no thread: make it __syncthreads(); "), first
    assert first.endswith(r["sentence"]), first


@needs_schemata
def test_a_phase_and_a_coordinate_exchanged_in_a_tile_s_load_are_swapped_back(tmp_path):
    """Lab 02's M load with the phase and the thread's column exchanged,
    `ph * TILE_WIDTH + tx` written `tx * TILE_WIDTH + ph`: the index-swap
    candidates take the factor a constant scales first, before the row's
    `Row * Width`, so the swap that mends it is among the subscript's two."""
    lab = "02-tiled-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "M[Row * Width + ph * TILE_WIDTH + tx]"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "M[Row * Width + tx * TILE_WIDTH + ph]"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "tx * TILE_WIDTH + ph]" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "index-swap", r
    assert rep["fix_first"].startswith(f"line {line}: `tx, ph` in "), rep["fix_first"]


@needs_schemata
def test_a_count_one_long_in_both_of_a_grid_s_dimensions_is_one_edit(tmp_path):
    """Lab 02's grid of `width / TILE_WIDTH + 1` blocks in x and in y: the
    blocks past the matrix read and write past it. The `+ 1` is in both
    arguments, which no single edit of one of them mends; the grid's
    shape candidate drops it from both, and the repair names it."""
    lab = "02-tiled-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "dim3 dimGrid(width / TILE_WIDTH + 1, width / TILE_WIDTH + 1);"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "TILE_WIDTH + 1, width" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "shape", r
    assert r["to"] == "width / TILE_WIDTH, width / TILE_WIDTH", r


@needs_schemata
def test_a_free_of_the_caller_s_member_names_the_buffer_to_free_instead(tmp_path):
    """Lab 05's cudaFree of `out->data`, the caller's host image, where its
    device copy d_out belongs: the call fails. The repair deletes it, and
    the sentence names d_out, which the file allocates and never frees, as
    the one to free there."""
    lab = "05-pitched-conv"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "CUDA_CHECK(cudaFree(d_out));"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "CUDA_CHECK(cudaFree(out->data));"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "cudaFree(out->data)" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: ") and "it frees out->data, which no allocation of this file made" in first, \
        first
    assert "delete it, and free d_out there instead, which the file allocates and never frees" in first, first


@needs_schemata
def test_a_call_that_wipes_the_output_is_said_dropped_not_pointed_elsewhere(tmp_path):
    """Lab 03's output zeroed after the launch, `cudaMemset(P, 0, ...)`: the
    edit of its pointer to an input (M, read no more) mends every dataset,
    and so does the call dropped. The repair names the call, without it,
    not a memset of the caller's input."""
    lab = "03-arbitrary-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    check = "    CUDA_CHECK(cudaGetLastError());\n"
    assert text.count(check) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(check, check + "    CUDA_CHECK(cudaMemset(P, 0, (size_t)j * l * sizeof(float)));\n"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "cudaMemset(P, 0" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "drop", r
    assert "without it, all " in rep["fix_first"], rep["fix_first"]


@needs_schemata
def test_the_grid_s_extent_where_a_size_belongs_is_said_with_the_size(tmp_path):
    """Lab 03's N read with the row stride of the grid's extent,
    `blockDim.x * gridDim.x`, where N's own width `l` belongs: the grid is
    rounded up to whole tiles, so it is l only where l is a multiple of
    the tile. The repair puts the size in place of the whole product (no
    edit of one of its names mends it), and the first line says so."""
    lab = "03-arbitrary-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    assert text.count("N[nRow * l + Col]") == 1
    src = tmp_path / sol.name
    src.write_text(text.replace("N[nRow * l + Col]", "N[nRow * (blockDim.x * gridDim.x) + Col]"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "gridDim.x) + Col]" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["to"] == "l", r
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `blockDim.x * gridDim.x` in `"), first
    assert "with `l` there, all " in first, first


@needs_schemata
def test_a_free_of_a_pointer_s_address_is_said_as_the_address(tmp_path):
    """Lab 05 frees `&d_out`, the address of the host variable, which no
    cudaMalloc returned: the call fails. The repair drops the call; its
    sentence says the `&` is the mistake and what to write, not that the
    buffer was freed too early (moving the call mends nothing)."""
    lab = "05-pitched-conv"
    sol = kit.solution(lab)
    text = sol.read_text()
    assert text.count("cudaFree(d_out)") == 1
    src = tmp_path / sol.name
    src.write_text(text.replace("cudaFree(d_out)", "cudaFree(&d_out)"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "cudaFree(&d_out)" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `"), first
    assert "it gives cudaFree `&d_out`, the address of the variable d_out" in first, first
    assert first.endswith("write `cudaFree(d_out)`") and "frees the buffer before" not in first, first


FREES = [
    # cudaFreeHost of device memory: refused, as a GPU's runtime refuses it
    ("05-pitched-conv", "cudaFree(d_in)", "cudaFreeHost(d_in)",
     "it frees d_in with cudaFreeHost, which frees only page-locked host memory", "`cudaFree(d_in)`"),
    # the caller's buffer freed by the student's function: delete it, not move it
    ("03-arbitrary-matmul", "    CUDA_CHECK(cudaGetLastError());\n    //@@ end\n}",
     "    CUDA_CHECK(cudaGetLastError());\n    CUDA_CHECK(cudaFree(N));\n    //@@ end\n}",
     "it frees N, which no allocation of this file made (the caller's buffer", ": delete it"),
]


@needs_schemata
@pytest.mark.parametrize("lab, old, new, says, fix", FREES, ids=["cudafreehost-of-device-memory",
                                                                 "caller-s-buffer-freed"])
def test_a_free_the_repair_takes_out_is_said_for_what_it_frees(tmp_path, lab, old, new, says, fix):
    """A free whose removal makes every dataset right is said for what it
    frees and how: device memory given to cudaFreeHost (free it with
    cudaFree), the caller's buffer (delete the call); "freed too early,
    move it" would mend neither."""
    sol = kit.solution(lab)
    text = sol.read_text()
    assert text.count(old) == 1, old
    src = tmp_path / sol.name
    src.write_text(text.replace(old, new))
    marker = "cudaFreeHost(d_in)" if "cudaFreeHost" in new else "cudaFree(N)"
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if marker in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `"), first
    assert says in first and first.endswith(fix) and "frees the buffer before" not in first, first


@needs_schemata
def test_a_row_added_without_its_stride_is_said_with_the_stride(tmp_path):
    """Lab 02's M tile load reads `M[Row + ph * TILE_WIDTH + tx]`, Row added
    bare where the store multiplies it by the width, `P[Row * Width +
    Col]`. No edit of a name or an operator mends it; Row times the factor
    the file gives it does, and the first line says `* Width` is missing
    after Row."""
    lab = "02-tiled-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    assert text.count("M[Row * Width + ph * TILE_WIDTH + tx]") == 1
    src = tmp_path / sol.name
    src.write_text(text.replace("M[Row * Width + ph * TILE_WIDTH + tx]", "M[Row + ph * TILE_WIDTH + tx]"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "M[Row + ph * TILE_WIDTH + tx]" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert f"line {line}: `* Width` looks missing after `Row`" in first, first


@needs_schemata
def test_an_early_exit_joined_the_wrong_way_is_said_as_its_join(tmp_path):
    """Lab 01's bounds test written as an early exit whose clauses are
    joined the wrong way, `if (!(Row < Width || Col < Width)) return;`:
    threads past one edge go on. The repair joins them with `&&`; the
    first line says so, not that the exit should be taken out (the exit is
    needed, its join is the mistake)."""
    lab = "01-basic-matmul"
    sol = kit.solution(lab)
    text = sol.read_text()
    old = "if (Row < Width && Col < Width) {"
    assert text.count(old) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(old, "if (!(Row < Width || Col < Width)) return;\n    {"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "return;" in l and "||" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: ") and "with `Row < Width && Col < Width` there" in first, first
    assert "take the test" not in first, first


GROUPINGS = [
    # a subscript closed before its last term: an element plus an int
    ("03-arbitrary-matmul", "ds_N[ty][tx] = N[nRow * l + Col];", "ds_N[ty][tx] = N[nRow * l] + Col;",
     "N[nRow * l] + Col", "N[nRow * l + Col]"),
    # a term inside a product's parentheses that belongs after it
    ("05-pitched-conv", "in.data[row_i * in.pitch + col_i * in.channels + k]",
     "in.data[row_i * in.pitch + (col_i + k) * in.channels]", "(col_i + k) * in.channels",
     "(col_i) * in.channels + k"),
    # a product that should take the sum before it, its parentheses left out
    ("04-conv-2batch", "P[(y * width + x) * channels + k] = acc;", "P[y * width + x * channels + k] = acc;",
     "y * width + x * channels", "(y * width + x) * channels"),
]


@needs_schemata
@pytest.mark.parametrize("lab, old, new, frm, to", GROUPINGS, ids=["subscript-closed-early", "term-inside-parentheses",
                                                                   "parentheses-left-out"])
def test_a_sum_grouped_otherwise_is_said_regrouped(tmp_path, lab, old, new, frm, to):
    """An index whose brackets or parentheses group its terms otherwise
    than meant: no edit of a name or an operator mends it, the same terms
    regrouped do, and the first line says the text as written and as
    regrouped, at its line."""
    sol = kit.solution(lab)
    text = sol.read_text()
    assert text.count(old) == 1, old
    src = tmp_path / sol.name
    src.write_text(text.replace(old, new))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if new.split("\n")[0] in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "grouping", r
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `{frm}` in `"), first
    assert f"with `{to}` there, all " in first, first


@needs_schemata
def test_a_count_rounded_to_the_nearest_is_said_so(tmp_path):
    """Lab 03's phase count rounded with rint: 97 / 16 comes to 6 phases,
    a last tile less than half full left out. The repair rounds it up, and
    its sentence says rint rounds to the nearest, not that the division
    rounds down."""
    lab = "03-arbitrary-matmul"
    sol = kit.solution(lab)
    count = "numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;"
    text = sol.read_text()
    assert text.count(count) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(count, "numPhases = (int)rint(k / (double)TILE_WIDTH);"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "(int)rint(" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: ") and "`rint` rounds it to the nearest whole number" in first, first
    assert "the division rounds down" not in first, first


@needs_schemata
def test_a_grid_made_the_block_is_no_repair(tmp_path):
    """Lab 04's grid counted for tiles twice as wide: the grid falls short.
    `<<<dimBlock, dimBlock>>>` makes every public dataset right (16 x 16
    blocks cover every image the lab has) but counts nothing, so it is no
    repair: the first line is the launch's record, at the grid's line."""
    lab = "04-conv-2batch"
    sol = kit.solution(lab)
    grid = "dim3 dimGrid((width + TILE_WIDTH - 1) / TILE_WIDTH, (height + TILE_WIDTH - 1) / TILE_WIDTH);"
    text = sol.read_text()
    assert text.count(grid) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(grid, "dim3 dimGrid(width / (2 * TILE_WIDTH) + 1, height / (2 * TILE_WIDTH) + 1);"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "dim3 dimGrid(width / (2" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    assert rep["repair"] is None or rep["repair"]["to"] != "dimBlock", rep["repair"]
    first = rep["fix_first"]
    assert f"count the grid at line {line} (" in first and "were never launched" in first, first


@needs_schemata
def test_a_launch_s_grid_and_block_exchanged_are_named_as_an_exchange(tmp_path):
    """Lab 02's launch with its grid and block in each other's places
    (`<<<dimBlock, dimGrid>>>`). Making the block's slot dimBlock too makes
    every public dataset right by the sizes' chance (16 x 16 blocks), as in
    the test above; the exchange of the two mends it for every size, and
    is what the first line names, with no word of the one run's block
    shape that the exchange made."""
    lab = "02-tiled-matmul"
    sol = kit.solution(lab)
    launch = "MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);"
    text = sol.read_text()
    assert text.count(launch) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(launch, "MatrixMulKernel<<<dimBlock, dimGrid>>>(M, N, P, width);"))
    line = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "<<<dimBlock, dimGrid>>>" in l)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    assert rep["repair"]["kind"] == "swap" and rep["repair"]["to"] == "dimGrid, dimBlock", rep["repair"]
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `dimBlock, dimGrid`") and \
        first.endswith("the launch gives the grid and the block in each other's places"), first


@needs_schemata
def test_a_right_file_pays_nothing_for_the_search():
    sol = next((kit.ROOT / "solutions" / "01-basic-matmul").glob("*.cu"))
    _, rep = kit.check_json("01-basic-matmul", sol, "emu", sanitize=True)
    assert rep["repair"] is None
    assert not [k for k in rep["stages"] if k.startswith("repair")], rep["stages"]


@needs_schemata
def test_no_search_without_the_checkers_or_a_build(tmp_path):
    path = DATA / "01-col-from-thread-y.cu"
    _, rep = kit.check_json("01-basic-matmul", path, "emu")  # --no-sanitize
    assert rep["repair"] is None
    broken = tmp_path / "broken.cu"
    broken.write_text(path.read_text().replace("int Col =", "int Col = = "))
    _, rep = kit.check_json("01-basic-matmul", broken, "emu", sanitize=True)
    assert not rep["build"]["ok"] and rep["repair"] is None


@needs_schemata
def test_a_repair_at_the_launch_leads_where_the_record_points_first_to_the_grid(tmp_path):
    """Lab 03 launched `<<<dimGrid, dimGrid>>>`: the record sees a grid too
    small for its blocks, or a flat block, and points first to the dim3 a
    line above the launch; the edit that makes every dataset right is the
    launch's block. The record names the launch too, but only after that
    line: the repair leads, the record follows in brackets."""
    sol = kit.ROOT / "solutions" / "03-arbitrary-matmul" / "arbitrary_matmul.cu"
    src = tmp_path / sol.name
    src.write_text(sol.read_text().replace("MatrixMulKernel<<<dimGrid, dimBlock>>>", "MatrixMulKernel<<<dimGrid, dimGrid>>>"))
    launch = next(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "<<<dimGrid, dimGrid>>>" in l)
    _, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {launch}: `dimGrid` in ") and "with `dimBlock` there" in first, first
    assert f"(the block at line {launch - 1} " in first or "(the grid of" in first, first


@needs_schemata
def test_the_run_s_record_of_a_launch_leads_unless_a_repair_names_another_line():
    """The launch's record names the grid's dim3 line, which counts 0
    blocks for the dataset; a grid not rounded up is rounded up in both of
    its arguments at once (twin-round-up), at that line: the record leads
    and the repair says what to write there. A grid whose row count is
    taken from the wrong size a line above the launch: one edit there makes
    every dataset right; the record names that dim3 line too (count the
    grid there), so it leads and the repair says what to write there."""
    uncovered = DATA / "cause-first" / "01-grid-not-rounded-up.cu"
    _, rep = kit.check_json("01-basic-matmul", uncovered, "emu", sanitize=True)
    first = rep["fix_first"]
    assert rep["repair"]["found"] == "full" and rep["repair"]["kind"] == "twin-round-up", rep["repair"]
    assert first.startswith("the grid at line ") and "comes to 0 x 0 for this dataset: the launch at line" in first, \
        first
    assert first.endswith("with `(width + BLOCK_WIDTH - 1) / BLOCK_WIDTH` in both, all 9 datasets come out right"), \
        first
    rows = DATA / "cause-first" / "03-grid-rows-from-k.cu"
    grid = next(i + 1 for i, l in enumerate(rows.read_text().splitlines()) if "dim3 dimGrid(" in l)
    _, rep = kit.check_json("03-arbitrary-matmul", rows, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith("the grid of") and f"count the grid at line {grid} " in first, first
    assert f"which the launch at line {grid + 1} uses" in first and "never launched" in first, first
    assert f"; line {grid}: `k`" in first and "with `j` there" in first, first


@needs_schemata
@pytest.mark.slow  # candidates that hang out their allowance by design (12 s); make test runs it
def test_candidates_that_crash_or_hang_cost_only_themselves(tmp_path):
    """The program itself ends its process or spins for every candidate
    but the one that mends it: the series starts again after each, and the
    screening still reaches the repair."""
    path = DATA / "01-col-from-thread-y.cu"
    line, frm, to = repair_header(path)
    text = path.read_text()
    schemata = tmp_path / "s.json"
    subprocess.run([str(kit.ROOT / "build" / "emu" / "emucc"), "--schemata", str(schemata), "-c", str(path),
                    "-o", str(tmp_path / "s.o"), "-I", str(kit.ROOT / "labs" / "01-basic-matmul"),
                    "-I", str(kit.ROOT / "grader" / "runtime")], check=True, capture_output=True)
    import json
    cands = json.loads(schemata.read_text())
    fix = [c for c in cands if c["line"] == line and c["from"] == frm and c["to"] == to]
    assert fix, cands
    # host code that reads the live candidate (every emulator build has it,
    # emu_schemata.h): every other candidate crashes (odd) or never ends
    # (even); no line moves and the kernel's candidates come first, so the
    # mending one keeps its id
    hostile = text.replace(
        "    CUDA_CHECK(cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost));",
        "    CUDA_CHECK(cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost));"
        " if (gpulab_emu_mutant && gpulab_emu_mutant != FIX) { if (gpulab_emu_mutant % 2) __builtin_trap();"
        " for (;;) { static volatile int spin; spin++; } }".replace("FIX", str(fix[0]["id"])))
    assert hostile != text
    f = tmp_path / "hostile.cu"
    f.write_text(hostile)
    _, rep = kit.check_json("01-basic-matmul", f, "emu", sanitize=True)
    r = rep["repair"]
    assert r and r["found"] == "full" and r["to"] == to, r
    assert r["ended"] >= 2, r


@needs_schemata
def test_an_edit_that_comes_out_right_only_by_reading_past_an_array_is_no_repair():
    """A candidate run has no harness guard zones (which hand a read past
    the end 3.4e38, cancelled by a zero) and the emulator's guards of 256
    MiB: `||` for `&&` in a bounds test whose sizes are swapped reads past
    M, faults, and is not named; the kit at 01ae652 named it."""
    path = DATA / "false" / "03-m-test-sizes-swapped.cu"
    _, rep = kit.check_json(lab_of(path), path, "emu", sanitize=True)
    r = rep["repair"]
    assert r is not None and r["candidates"] > 0, r
    assert not (r["found"] == "full" and "||" in r["to"]), r
    assert "||" not in (rep.get("fix_first") or ""), rep.get("fix_first")


def test_a_macro_whose_value_regroups_is_pasted_before_the_candidates(tmp_path):
    """`#define TILE_WIDTH 8 + 8` left as a name in the schemata build sat
    alone in a switch's branch (`width / (cond ? 1 : TILE_WIDTH)`, a
    drop-right candidate), where its value is grouped whole: with any
    candidate live the precedence mistake was gone, and every edit seemed
    to mend every dataset (the kit at 105d7fe named a barrier added at a
    load). The build pastes such a macro's value first, as the preprocessor
    does: the search runs and no switch mends it (the one repair is the
    skeleton's value on the #define's line, a build of its own), and the
    #define leads."""
    if schemata_problem():
        pytest.skip(schemata_problem())
    sol = kit.solution("02-tiled-matmul")
    src = tmp_path / sol.name
    text = sol.read_text()
    assert text.count("#define TILE_WIDTH 16") == 1
    src.write_text(text.replace("#define TILE_WIDTH 16", "#define TILE_WIDTH 8 + 8"))
    _, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True, expect_rc=1)
    r = rep["repair"]
    assert r["candidates"] > 0 and r["screened"] > 0, r
    assert r["found"] == "none" or (r["kind"] == "define" and r["line"] == 14 and r["to"] == "16"), r
    assert rep["fix_first"].startswith("the #define at line 14 (`#define TILE_WIDTH 8 + 8`) has no parentheses"), \
        rep["fix_first"]


def with_define(tmp_path, lab, name, value):
    """The lab's reference with its `#define NAME ...` given value; the
    file and the line."""
    sol = kit.solution(lab)
    lines = sol.read_text().splitlines(keepends=True)
    at = [i for i, l in enumerate(lines) if re.match(rf"#define {name}\b", l)]
    assert len(at) == 1, at
    lines[at[0]] = f"#define {name} {value}\n"
    src = tmp_path / sol.name
    src.write_text("".join(lines))
    return src, at[0] + 1


@needs_schemata
@pytest.mark.parametrize("lab,name,value,skeleton_value,octal", [
    # a leading 0 makes it octal, 14: the tiles miss the width's last columns
    ("02-tiled-matmul", "TILE_WIDTH", "016", "16", " (a number written with a leading 0 is octal: `016` is 14)"),
    # the block one short of the tile it loads
    ("05-pitched-conv", "BLOCK_WIDTH", "15", "(O_TILE_WIDTH + MASK_WIDTH - 1)", ""),
])
def test_a_constant_of_the_skeleton_given_another_value_is_mended_with_the_skeletons(
        tmp_path, lab, name, value, skeleton_value, octal):
    """A #define the skeleton has, given another value: it sizes the
    shared tiles, which no switch of the schemata build can edit, so the
    file is built again with the skeleton's value on that line; that
    mends every dataset, and the first line says so."""
    src, line = with_define(tmp_path, lab, name, value)
    _, rep = kit.check_json(lab, src, "emu", sanitize=True)
    r = rep["repair"]
    assert r["found"] == "full" and r["line"] == line and r["kind"] == "define", r
    assert r["from"] == value and r["to"] == skeleton_value, r
    assert rep["fix_first"].startswith(
        f"line {line}: `{value}` in `#define {name} {value}` looks like the mistake{octal}: the skeleton's value is "
        f"`{skeleton_value}`, and with it there, all "), rep["fix_first"]


@needs_schemata
def test_a_constant_changed_on_purpose_is_no_repair_of_another_mistake(tmp_path):
    """TILE_WIDTH 32, which lab 02 allows, in a file whose mistake is
    elsewhere (the phase loop one short): the skeleton's 16 mends nothing,
    and no repair names the #define."""
    src, line = with_define(tmp_path, "02-tiled-matmul", "TILE_WIDTH", "32")
    text = src.read_text()
    old = "ph < Width / TILE_WIDTH;"
    assert text.count(old) == 1
    src.write_text(text.replace(old, "ph < Width / TILE_WIDTH - 1;"))
    _, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True)
    assert rep["repair"].get("line") != line, rep["repair"]
    assert f"line {line}:" not in (rep.get("fix_first") or ""), rep["fix_first"]
