"""emucc --schemata (docs/emulator.md, Mutant schemata): one build of a lab
file that holds its candidate single edits, candidate k live when the
program runs with GPULAB_EMU_MUTANT=k. With none live (0) the program is
the plain build's: every reference solution, variant, stretch kernel and
mutant of the kit gives the same output, launch log, messages and status
on its lab's smallest dataset. For kit mutants (a reference with one
mistake), the list holds the edit that turns the mistake back into the
reference's line, and the program with it live passes `gpulab compare`."""
import difflib
import json
import re
from pathlib import Path

import pytest

import kit
from test_emu_conformance import EMUCC, ROOT, emu, run  # noqa: F401  (emu is a fixture)

HARNESS = ROOT / "build" / "harness" / "emu"
SOLUTIONS = ROOT / "solutions"
KIT_FILES = sorted(
    [p for p in SOLUTIONS.glob("0*/*.cu")] + [p for p in SOLUTIONS.glob("0*/variants/*.cu")]
    + [p for p in SOLUTIONS.glob("stretch/*/*.cu")] + [p for p in SOLUTIONS.glob("0*/mutants/*.cu")])
# what a run prints that no two runs share: its timings, addresses
VOLATILE = re.compile(r"^@gpulab\t(time_ms|call)\t.*$", re.M)
ADDRESS = re.compile(r"0x[0-9a-f]+")


def lab_of(path):
    return next(part for part in Path(path).relative_to(SOLUTIONS).parts if part[:2].isdigit())


def datasets_by_size(lab):
    sets = [d for d in (ROOT / "datasets" / lab).iterdir() if d.is_dir()]
    return sorted(sets, key=lambda d: (sum(f.stat().st_size for f in d.iterdir()), d.name))


def smallest_dataset(lab):
    return datasets_by_size(lab)[0]


def build(src, lab, prog, schemata=None):
    """src compiled by emucc (with --schemata FILE when given) and linked with the lab's harness."""
    obj = prog.with_suffix(".o")
    flags = ["--schemata", schemata] if schemata else []
    p = run([EMUCC, "-c", src, "-o", obj, "-I", ROOT / "labs" / lab, "-I", ROOT / "grader" / "runtime", *flags])
    assert p.returncode == 0, f"emucc -c {src} {' '.join(map(str, flags))} failed:\n{p.stderr[-3000:]}"
    p = run([EMUCC, obj, HARNESS / lab / "harness.o", HARNESS / "harness_main.o", HARNESS / "libgpulab_runtime.a",
             HARNESS / "libgpulab_wb.a", "-o", prog])
    assert p.returncode == 0, p.stderr[-3000:]
    return prog


def run_program(prog, dataset, out, mutant=None):
    """The program's status, messages (timings and addresses out), output bytes and launch log."""
    out.unlink(missing_ok=True)
    log = out.with_suffix(".log")
    log.unlink(missing_ok=True)
    env = {"GPULAB_EMU_LOG": str(log)}
    if mutant is not None:
        env["GPULAB_EMU_MUTANT"] = str(mutant)
    p = kit.run([prog, dataset, out], cwd=out.parent, env=env, timeout=300)
    said = ADDRESS.sub("0x", VOLATILE.sub("", p.stdout + p.stderr))
    return (p.returncode, said, out.read_bytes() if out.exists() else None,
            log.read_text() if log.exists() else None)


@pytest.fixture(scope="module")
def harness(emu):
    problem = kit.emu_problem()
    if problem:
        pytest.skip(problem)
    missing = [lab for lab in {lab_of(f) for f in KIT_FILES} if not (HARNESS / lab / "harness.o").exists()]
    assert not missing, f"make kit builds the labs' harnesses; missing: {missing}"
    return HARNESS


@pytest.mark.parametrize("src", KIT_FILES, ids=lambda p: str(p.relative_to(SOLUTIONS)))
def test_mutant_zero_is_the_plain_program(harness, tmp_path, src):
    lab = lab_of(src)
    dataset = smallest_dataset(lab)
    plain = build(src, lab, tmp_path / "plain")
    schemata = build(src, lab, tmp_path / "schemata", schemata=tmp_path / "candidates.json")
    candidates = json.loads((tmp_path / "candidates.json").read_text())
    assert candidates, f"{src}: no candidate edits"
    a = run_program(plain, dataset, tmp_path / "plain.out")
    b = run_program(schemata, dataset, tmp_path / "schemata.out", mutant=0)
    assert b[0] == a[0], f"status {b[0]} with --schemata, {a[0]} without"
    assert b[1] == a[1], "what the program says differs"
    assert b[3] == a[3], "the launch log differs"
    if b[2] != a[2]:
        # an output that is not the program's own: the plain build gives
        # another on a second run (a copy from the host's stack, say)
        again = run_program(plain, dataset, tmp_path / "again.out")
        assert again[2] != a[2], "the output differs, and the plain program's is the same on every run"


def test_env_variable_must_be_a_number(harness, tmp_path):
    src = SOLUTIONS / "01-basic-matmul" / "basic_matmul.cu"
    prog = build(src, "01-basic-matmul", tmp_path / "p", schemata=tmp_path / "c.json")
    rc, said, out, _ = run_program(prog, smallest_dataset("01-basic-matmul"), tmp_path / "o", mutant="seven")
    assert rc == 2 and "GPULAB_EMU_MUTANT=seven" in said and out is None


def test_the_list_is_documented_json(harness, tmp_path):
    src = SOLUTIONS / "03-arbitrary-matmul" / "arbitrary_matmul.cu"
    build(src, "03-arbitrary-matmul", tmp_path / "p", schemata=tmp_path / "c.json")
    candidates = json.loads((tmp_path / "c.json").read_text())
    lines = src.read_text().splitlines()
    assert 0 < len(candidates) <= 440
    assert [c["id"] for c in candidates] == list(range(1, len(candidates) + 1))
    kinds = {"name", "builtin", "literal", "operator", "drop-left", "drop-right", "swap", "drop", "barrier",
             "initialise", "unshare", "shape", "sizeof", "type", "bound", "operators", "range", "index-swap",
             "member", "factor", "sibling", "exchange", "round-up", "twin-args", "twin-round-up", "twin-subscripts",
             "twin-term", "parallel-args", "step", "grouping", "square"}
    for c in candidates:
        assert set(c) == {"id", "line", "at", "kind", "from", "to", "context"}, c
        assert c["kind"] in kinds, c
        # `at`: where in the context the edited place starts; a name's
        # edit stands there word for word
        assert -1 <= c["at"] < max(len(c["context"]), 1), c
        if c["kind"] == "name" and c["at"] >= 0 and c["context"]:
            assert c["context"][c["at"]:].startswith(c["from"]), c
        squeezed = re.sub(r"\s+", "", lines[c["line"] - 1])
        # what is replaced starts on its line (an operator's operands may go on);
        # a swap's two parts both are there (a[i][j]'s subscripts too)
        parts = c["from"].split(", ") if c["kind"] in ("swap", "index-swap") else [c["from"]]
        assert all(re.sub(r"\s+", "", part)[:8] in squeezed for part in parts), c
        assert c["from"] != c["to"], c
    assert [c["line"] for c in candidates] == sorted(c["line"] for c in candidates)
    assert {"name", "builtin", "literal", "operator", "swap", "drop", "barrier", "unshare"} <= {
        c["kind"] for c in candidates}


def squeeze(text):
    return re.sub(r"\s+", "", text)


def reverting_candidates(mutant, candidates):
    """The candidates that turn a line where the mutant differs from its
    reference into the reference's line (lines compared without blanks)."""
    reference = next((mutant.parents[1]).glob("*.cu"))
    a, b = reference.read_text().splitlines(), mutant.read_text().splitlines()
    changed = {}
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "replace" and i2 - i1 == j2 - j1:
            changed.update({j1 + k + 1: (a[i1 + k], b[j1 + k]) for k in range(i2 - i1)})
    assert changed, f"{mutant.name}: no line of it replaces one of {reference.name}'s"
    found = []
    for c in candidates:
        if c["line"] in changed and c["from"]:
            ref, mut = map(squeeze, changed[c["line"]])
            if mut.replace(squeeze(c["from"]), squeeze(c["to"]), 1) == ref:
                found.append(c)
    return found


# each a reference with one mistake, of a different kind of edit
REPAIRABLE = [
    "01-basic-matmul/mutants/row-from-thread-x.cu",            # a built-in's component
    "01-basic-matmul/mutants/dot-product-misses-last-term.cu",  # a term dropped
    "01-basic-matmul/mutants/copy-back-swapped.cu",            # a copy's arguments, inside CUDA_CHECK
    "01-basic-matmul/mutants/copies-n-into-d-m.cu",            # another pointer of the same type
    "02-tiled-matmul/mutants/launch-grid-block-swapped.cu",    # a launch's configuration
]


@pytest.mark.parametrize("name", REPAIRABLE)
def test_a_candidate_repairs_the_kit_mutant(harness, tmp_path, name):
    mutant = SOLUTIONS / name
    lab = lab_of(mutant)
    prog = build(mutant, lab, tmp_path / "p", schemata=tmp_path / "c.json")
    found = reverting_candidates(mutant, json.loads((tmp_path / "c.json").read_text()))
    assert found, f"no candidate turns {name}'s mistake back into the reference's line"
    # the smallest dataset the mutant gets wrong
    for dataset in datasets_by_size(lab)[:4]:
        expected = dataset / "expected.tensor"
        rc, said, out, _ = run_program(prog, dataset, tmp_path / "wrong.out", mutant=0)
        if out is None or kit.gpulab("compare", lab, tmp_path / "wrong.out", expected).returncode != 0:
            break
    else:
        pytest.fail(f"{name} passes the lab's four smallest datasets as it is: nothing to repair there")
    for c in found:
        rc, said, out, _ = run_program(prog, dataset, tmp_path / "fixed.out", mutant=c["id"])
        assert out is not None, f"candidate {c} left no output: {said[-500:]}"
        p = kit.gpulab("compare", lab, tmp_path / "fixed.out", expected)
        assert p.returncode == 0, f"candidate {c} does not repair {name}: {p.stdout}"


def test_a_shared_accumulator_is_repaired(harness, tmp_path):
    """A running sum declared __shared__ (every thread of the block adds
    into one): the candidate that makes it the thread's own again repairs
    it. Written here from lab 02's reference, on the reference's lines."""
    lab = "02-tiled-matmul"
    text = (SOLUTIONS / lab / "tiled_matmul.cu").read_text()
    assert "    float Pvalue = 0;\n" in text
    src = tmp_path / "shared_sum.cu"
    src.write_text(text.replace("    float Pvalue = 0;\n", "    __shared__ float Pvalue; Pvalue = 0;\n"))
    prog = build(src, lab, tmp_path / "p", schemata=tmp_path / "c.json")
    line = text[:text.index("    float Pvalue = 0;")].count("\n") + 1
    found = [c for c in json.loads((tmp_path / "c.json").read_text())
             if c["kind"] == "unshare" and c["line"] == line]
    assert len(found) == 1 and found[0]["to"].startswith("float Pvalue"), found
    dataset = smallest_dataset(lab)
    expected = dataset / "expected.tensor"
    run_program(prog, dataset, tmp_path / "wrong.out", mutant=0)
    assert kit.gpulab("compare", lab, tmp_path / "wrong.out", expected).returncode != 0
    run_program(prog, dataset, tmp_path / "fixed.out", mutant=found[0]["id"])
    p = kit.gpulab("compare", lab, tmp_path / "fixed.out", expected)
    assert p.returncode == 0, p.stdout


def mends(harness, tmp_path, lab, reference, wrong, kind, to, text=None, frm=None, at=None):
    """The reference of lab (or text) with `reference` written as `wrong`
    (a mistake written here, on the reference's lines): emucc lists a
    candidate of kind at that line whose new text is to (in place of frm,
    when given, at byte at of its context), the program as
    written gets one of the four smallest datasets wrong (or ends badly:
    a copy past a host array), and with the candidate live it gets it
    right."""
    text = text or next((SOLUTIONS / lab).glob("*.cu")).read_text()
    assert text.count(reference) == 1, reference
    src = tmp_path / "mistake.cu"
    src.write_text(text.replace(reference, wrong))
    line = text[:text.index(reference)].count("\n") + 1
    prog = build(src, lab, tmp_path / "p", schemata=tmp_path / "c.json")
    found = [c for c in json.loads((tmp_path / "c.json").read_text())
             if c["kind"] == kind and c["line"] == line and c["to"] == to and frm in (None, c["from"]) and
             at in (None, c["at"])]
    assert len(found) == 1, found
    for dataset in datasets_by_size(lab)[:4]:
        expected = dataset / "expected.tensor"
        rc, _, out, _ = run_program(prog, dataset, tmp_path / "wrong.out", mutant=0)
        if rc != 0 or out is None or kit.gpulab("compare", lab, tmp_path / "wrong.out", expected).returncode != 0:
            break
    else:
        pytest.fail("the mistake passes the lab's four smallest datasets: nothing to repair there")
    rc, said, out, _ = run_program(prog, dataset, tmp_path / "fixed.out", mutant=found[0]["id"])
    assert rc == 0 and out is not None, said[-500:]
    p = kit.gpulab("compare", lab, tmp_path / "fixed.out", expected)
    assert p.returncode == 0, p.stdout


@pytest.mark.parametrize("lab, reference, wrong, to", [
    # a grid of one row of blocks: the square it should be
    ("02-tiled-matmul", "dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);", "dim3 dimGrid(width / TILE_WIDTH, 1);",
     "width / TILE_WIDTH, width / TILE_WIDTH"),
    # a one-dimensional block
    ("01-basic-matmul", "dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH);", "dim3 dimBlock(BLOCK_WIDTH);",
     "BLOCK_WIDTH, BLOCK_WIDTH"),
])
def test_a_launch_shape_is_repaired(harness, tmp_path, lab, reference, wrong, to):
    mends(harness, tmp_path, lab, reference, wrong, "shape", to)


def test_a_square_of_another_macro_is_repaired(harness, tmp_path):
    """A square block of another of the file's constants than the one the
    kernel's tiles are (8 x 8 blocks for 16 x 16 tiles)."""
    lab = "02-tiled-matmul"
    text = (SOLUTIONS / lab / "tiled_matmul.cu").read_text()
    assert "#define TILE_WIDTH 16\n" in text
    text = text.replace("#define TILE_WIDTH 16\n", "#define TILE_WIDTH 16\n#define HALF_TILE 8\n")
    mends(harness, tmp_path, lab, "dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);", "dim3 dimBlock(HALF_TILE, HALF_TILE);",
          "shape", "TILE_WIDTH, TILE_WIDTH", text=text)


def test_a_size_in_elements_is_repaired(harness, tmp_path):
    """A byte count computed without sizeof in a variable upstream of the
    copies and allocations that use it: the candidate is at the variable's
    initialiser, where every use takes it."""
    mends(harness, tmp_path, "01-basic-matmul", "size_t bytes = (size_t)width * width * sizeof(float);",
          "size_t bytes = (size_t)width * width;", "sizeof", "(size_t)width * width * sizeof(float)")


def test_an_int_tile_of_floats_is_repaired(harness, tmp_path):
    """A __shared__ tile declared int that the loads fill from a float
    array: the candidate that declares it float (a copy of the kernel of
    its own: a type is no run's choice)."""
    mends(harness, tmp_path, "03-arbitrary-matmul", "__shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];",
          "__shared__ int ds_N[TILE_WIDTH][TILE_WIDTH];", "type", "float")


def test_an_array_bound_is_repaired(harness, tmp_path):
    """A tile declared with a number where the file's constant was meant
    (8 x 8 for 16 x 16 threads): the candidate bounds it by the constant."""
    mends(harness, tmp_path, "02-tiled-matmul", "__shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];",
          "__shared__ float ds_M[8][8];", "bound", "[TILE_WIDTH][TILE_WIDTH]")


def test_a_name_from_the_labs_header_is_a_candidate(harness, tmp_path):
    """MASK_WIDTH where MASK_RADIUS belongs, both defined in the lab's own
    header (lab.h, included with quotes from the include path), not in the
    student's file: emucc reads the header's #define lines, so the names it
    defines are among those a candidate may put in place."""
    mends(harness, tmp_path, "04-conv-2batch", "int srcX = blockIdx.x * TILE_WIDTH + destX - MASK_RADIUS;",
          "int srcX = blockIdx.x * TILE_WIDTH + destX - MASK_WIDTH;", "name", "MASK_RADIUS")


def test_a_block_size_as_a_row_s_length_is_repaired(harness, tmp_path):
    """A row of M stepped blockDim.x floats apart where its length is Width
    (`M[Row * blockDim.x + k]`): right only where the matrix is as wide as
    a block. A block's size as a product's factor gets the function's int
    names that it multiplies elsewhere as candidates."""
    mends(harness, tmp_path, "01-basic-matmul", "Pvalue += M[Row * Width + k] * N[k * Width + Col];",
          "Pvalue += M[Row * blockDim.x + k] * N[k * Width + Col];", "name", "Width", frm="blockDim.x")


def test_an_int_for_a_size_t_in_a_host_call_is_repaired(harness, tmp_path):
    """A copy given the matrix's width, an int, for its count of bytes, a
    size_t: an argument of a call in host code takes an integer name of
    another integer type (here `bytes` for `width`; at a launch, `width`
    for a byte count passed as the kernel's Width)."""
    mends(harness, tmp_path, "01-basic-matmul", "CUDA_CHECK(cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice));",
          "CUDA_CHECK(cudaMemcpy(d_N, N, width, cudaMemcpyHostToDevice));", "name", "bytes", frm="width")


def test_a_count_of_tiles_for_the_tile_s_size_is_repaired(harness, tmp_path):
    """A column's block scaled by the count of tiles across the output
    (`bx * (l / TILE_WIDTH)`) where the tile's size belongs: a quotient's
    divisor alone is a candidate of its own (kind `drop-left`)."""
    mends(harness, tmp_path, "03-arbitrary-matmul", "int Col = bx * TILE_WIDTH + tx;",
          "int Col = bx * (l / TILE_WIDTH) + tx;", "drop-left", "TILE_WIDTH", frm="l / TILE_WIDTH")


def test_a_sum_started_at_a_value_of_its_own_is_repaired(harness, tmp_path):
    """A kernel's sum started at another value than 0 (here 1, a product's
    habit; the tile's centre element, say, in a convolution) and then
    added into: the sum started at 0 is a candidate (kind `initialise`,
    the declaration's new text its `to`)."""
    mends(harness, tmp_path, "02-tiled-matmul", "float Pvalue = 0;", "float Pvalue = 1;", "initialise",
          "float Pvalue = 0;")


def test_a_shift_by_the_bytes_for_their_log_is_repaired(harness, tmp_path):
    """A byte pitch made floats with a shift by the float's size, `>> 4`,
    where its log belongs, `>> 2`: a shift's power of two gets its log as
    a literal candidate (beside its neighbours, 3 and 5)."""
    mends(harness, tmp_path, "05-pitched-conv", "d_out_img.pitch = (int)(out_pitch_bytes / sizeof(float));",
          "d_out_img.pitch = (int)(out_pitch_bytes >> 4);", "literal", "2")


def test_a_loop_stepped_past_the_values_its_body_needs_is_repaired(harness, tmp_path):
    """Lab 03's dot product over the tiles' i stepped by the block's height
    (`i += blockDim.y`), its body reading i alone: every pass skips the
    values between. The step by one is a candidate (kind `step`); a loop
    whose body walks those values itself (`ph + tx`) gets none."""
    mends(harness, tmp_path, "03-arbitrary-matmul", "for (int i = 0; i < TILE_WIDTH; ++i)",
          "for (int i = 0; i < TILE_WIDTH; i += blockDim.y)", "step", "++i")


def test_a_loop_stepped_by_a_tile_whose_body_walks_it_gets_no_step(harness, tmp_path):
    """Lab 02's phase loop written over elements, `ph += TILE_WIDTH`, its
    loads at `ph + tx` and `ph + ty`: right, and each pass's threads cover
    the values the step skips. No step candidate is made for it."""
    text = (SOLUTIONS / "02-tiled-matmul" / "tiled_matmul.cu").read_text()
    for old, new in [("for (int ph = 0; ph < Width / TILE_WIDTH; ++ph)", "for (int ph = 0; ph < Width; ph += TILE_WIDTH)"),
                     ("ph * TILE_WIDTH + tx", "ph + tx"), ("(ph * TILE_WIDTH + ty)", "(ph + ty)")]:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    src = tmp_path / "tiled_matmul.cu"
    src.write_text(text)
    build(src, "02-tiled-matmul", tmp_path / "p", schemata=tmp_path / "c.json")
    steps = [c for c in json.loads((tmp_path / "c.json").read_text()) if c["kind"] == "step"]
    assert not steps, steps


def test_two_names_exchanged_between_a_product_s_operands_are_repaired(harness, tmp_path):
    """Lab 03's dot product with the thread's x and y each in the other's
    tile (`ds_M[tx][i] * ds_N[i][ty]`): no edit of one name mends it. The
    two names exchanged between the operands' subscripts are one
    candidate (kind `exchange`)."""
    mends(harness, tmp_path, "03-arbitrary-matmul", "Pvalue += ds_M[ty][i] * ds_N[i][tx];",
          "Pvalue += ds_M[tx][i] * ds_N[i][ty];", "exchange", "ds_M[ty][i] * ds_N[i][tx]")


# Edits of several places at once: a mistake repeated at parallel places
# (sibling declarations, each test of one condition, a loop's two ends),
# which no single edit mends; one candidate makes the same edit at all.

def test_sibling_declarations_bounds_are_repaired_together(harness, tmp_path):
    """Both tiles declared with a number where the file's constant was
    meant (8 x 8 for 16 x 16 threads): one candidate bounds both, in a
    copy of the kernel of its own, on the same lines (the reference
    declares them on consecutive lines)."""
    lab = "02-tiled-matmul"
    tiles = "__shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];\n    __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];"
    mends(harness, tmp_path, lab, tiles, tiles.replace("[TILE_WIDTH]", "[8]"), "bound",
          "__shared__ float ds_M[TILE_WIDTH][TILE_WIDTH]; __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];")


def test_each_test_of_a_condition_is_repaired_together(harness, tmp_path):
    """A ghost-cell test strict at both lower bounds (`> 0` twice, image
    row 0 and column 0 taken for outside): one candidate makes both `>=`."""
    test = "row_i >= 0 && row_i < in.height && col_i >= 0 && col_i < in.width"
    mends(harness, tmp_path, "05-pitched-conv", test, test.replace(">=", ">"), "operators", test)


def test_a_test_on_the_threads_place_in_its_block_is_repaired_with_the_locals_made_from_it(harness, tmp_path):
    """Lab 05's store test written on the thread's place in its block
    (`ty < out.height && tx < out.width`) where its output pixel's
    belongs: one candidate puts in each the local the kernel computes from
    it (`row_o` from ty, `col_o` from tx); no edit of one name mends it."""
    mends(harness, tmp_path, "05-pitched-conv", "if (row_o < out.height && col_o < out.width)",
          "if (ty < out.height && tx < out.width)", "operators", "row_o < out.height && col_o < out.width")


def test_of_two_locals_made_from_a_tested_name_the_guarded_statement_reads_comes_first(tmp_path):
    """Lab 03's M-tile load test on `ty < j && tx < k`: ty makes both nRow
    (nearer) and Row; the load under the test reads Row, so the candidate
    of both names takes Row (and mCol for tx), not nRow."""
    text = next((SOLUTIONS / "03-arbitrary-matmul").glob("*.cu")).read_text()
    src = tmp_path / "mistake.cu"
    src.write_text(text.replace("if (Row < j && mCol < k)", "if (ty < j && tx < k)"))
    build(src, "03-arbitrary-matmul", tmp_path / "p", schemata=tmp_path / "c.json")
    both = [c["to"] for c in json.loads((tmp_path / "c.json").read_text())
            if c["kind"] == "operators" and c["from"] == "ty < j && tx < k" and "Row" in c["to"] + c["from"] or
            c["kind"] == "operators" and "nRow < j" in c["to"]]
    assert both == ["Row < j && mCol < k"], both


def test_a_host_calls_size_written_out_is_repaired_with_its_siblings_argument(harness, tmp_path):
    """Lab 01's cudaMalloc of d_N given one row's bytes (`width *
    sizeof(float)`) where the other two cudaMallocs give `bytes`: one
    candidate, kind `sibling`, takes the other calls' argument."""
    mends(harness, tmp_path, "01-basic-matmul", "CUDA_CHECK(cudaMalloc((void **)&d_N, bytes));",
          "CUDA_CHECK(cudaMalloc((void **)&d_N, width * sizeof(float)));", "sibling", "bytes")


def test_a_local_written_out_with_a_slipped_name_is_repaired_as_the_local(harness, tmp_path):
    """Lab 02's M tile loaded from row `(bx * TILE_WIDTH + ty)`: Row's own
    initialiser written out again with bx slipped for by. One candidate
    puts Row there (a run of tokens that is no node of the parse: a copy
    of the kernel of its own)."""
    mends(harness, tmp_path, "02-tiled-matmul", "ds_M[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];",
          "ds_M[ty][tx] = M[(bx * TILE_WIDTH + ty) * Width + ph * TILE_WIDTH + tx];", "name", "Row",
          frm="bx * TILE_WIDTH + ty")


def test_a_pointer_the_function_reads_nowhere_is_the_first_name_for_a_copys_source(harness, tmp_path):
    """Lab 04's mask copied from the output's buffer (`cudaMemcpyToSymbol(Mc,
    P, ...)`): the host function's `mask`, read nowhere else in it, is the
    first name offered there, so the cap on candidates keeps it."""
    old = "CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));"
    mends(harness, tmp_path, "04-conv-2batch", old, old.replace("(Mc, mask,", "(Mc, P,"), "name", "mask", frm="P")


def test_an_edit_inside_a_run_a_static_edit_crosses_stays_live(harness, tmp_path):
    """Lab 02's M tile loaded from column `ph * TILE_WIDTH + ty`: that run
    is Row's initialiser with by slipped to ph, so a static edit puts Row
    there; the run crosses the sum's groups (`Row * Width + ph *
    TILE_WIDTH` is the left side of the last `+`), and when the static
    edit was a node of the rendering's tree, the edit of the run's own ty
    went unrendered: its candidate ran the program as written."""
    mends(harness, tmp_path, "02-tiled-matmul", "ds_M[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];",
          "ds_M[ty][tx] = M[Row * Width + ph * TILE_WIDTH + ty];", "name", "tx",
          frm="ty", at=len("ds_M[ty][tx] = M[Row * Width + ph * TILE_WIDTH + "))


def test_a_copy_the_other_way_lends_no_argument(tmp_path):
    """Lab 05's two cudaMemcpy2D calls, in and out, are no siblings: their
    pitches and buffers are each other's on purpose."""
    src = next((SOLUTIONS / "05-pitched-conv").glob("*.cu"))
    build(src, "05-pitched-conv", tmp_path / "p", schemata=tmp_path / "c.json")
    assert not [c for c in json.loads((tmp_path / "c.json").read_text())
                if c["kind"] == "sibling" and "cudaMemcpy2D" in c["context"]]


def test_a_loop_range_one_off_at_both_ends_is_repaired(harness, tmp_path):
    """The dot product's loop from 1 to TILE_WIDTH inclusive: one candidate
    moves both ends (`i = 0; i < TILE_WIDTH`); neither alone mends it."""
    lab = "02-tiled-matmul"
    text = (SOLUTIONS / lab / "tiled_matmul.cu").read_text()
    loop = "for (int i = 0; i < TILE_WIDTH; ++i)"
    assert loop in text
    mends(harness, tmp_path, lab, loop, "for (int i = 1; i <= TILE_WIDTH; ++i)", "range",
          "int i = 0; i < TILE_WIDTH")


def test_a_product_where_the_coordinate_adds_is_repaired(harness, tmp_path):
    """`blockIdx.x * blockDim.x * threadIdx.x`: the thread's place in its
    block multiplied in where it is added; a product with a built-in index
    alone on one side has `+` for `*` among its edits."""
    mends(harness, tmp_path, "01-basic-matmul", "int Col = blockIdx.x * blockDim.x + threadIdx.x;",
          "int Col = blockIdx.x * blockDim.x * threadIdx.x;", "operator", "blockIdx.x * blockDim.x + threadIdx.x")


def test_a_clause_too_many_in_a_condition_is_repaired(harness, tmp_path):
    """The output's store tested with one clause more than its bounds
    (`Row > 0`: row 0 never stored): the condition without that clause is
    a candidate. `a && b && c` is read ((a && b) && c): each operator drops
    its right clause, the first its left too."""
    mends(harness, tmp_path, "01-basic-matmul", "if (Row < Width && Col < Width) {",
          "if (Row < Width && Col < Width && Row > 0) {", "drop-right", "Row < Width && Col < Width")
    text = (SOLUTIONS / "01-basic-matmul" / "basic_matmul.cu").read_text()
    src = tmp_path / "first.cu"
    src.write_text(text.replace("if (Row < Width && Col < Width) {", "if (Row > 0 && Row < Width && Col < Width) {"))
    build(src, "01-basic-matmul", tmp_path / "q", schemata=tmp_path / "d.json")
    drops = [(c["kind"], c["to"]) for c in json.loads((tmp_path / "d.json").read_text())
             if c["kind"] in ("drop-left", "drop-right") and "Row > 0" in c["from"] and "&&" in c["from"]]
    assert ("drop-left", "Row < Width") in drops and ("drop-right", "Row > 0 && Row < Width") in drops, drops
    assert all(to != "Col < Width" for _, to in drops), drops  # no edit drops two clauses


def test_two_names_exchanged_in_a_kernels_index_variable_are_repaired(harness, tmp_path):
    """N's row for the phase computed `int nRow = ty * TILE_WIDTH + ph;`:
    a kernel's int local is an index as a subscript is, and the candidate
    that exchanges its two names mends it."""
    mends(harness, tmp_path, "03-arbitrary-matmul", "int nRow = ph * TILE_WIDTH + ty;",
          "int nRow = ty * TILE_WIDTH + ph;", "index-swap", "ph, ty")


def test_an_array_read_where_another_of_its_kind_belongs_is_repaired(harness, tmp_path):
    """The dot product reads ds_N twice, `ds_N[ty][i] * ds_N[i][tx]`: an
    array's use as another array of the same type, bounds and memory space
    is a candidate, said with its subscripts (which tell the two uses
    apart)."""
    mends(harness, tmp_path, "02-tiled-matmul", "Pvalue += ds_M[ty][i] * ds_N[i][tx];",
          "Pvalue += ds_N[ty][i] * ds_N[i][tx];", "name", "ds_M[ty][i]")


def test_a_block_index_added_unscaled_is_repaired(harness, tmp_path):
    """`int Row = blockIdx.y + threadIdx.y;`: the blocks overlap, and no
    edit of one name mends it; the candidate scales the block's index by
    the block's size."""
    lab = "01-basic-matmul"
    text = (SOLUTIONS / lab / "basic_matmul.cu").read_text()
    right = "int Row = blockIdx.y * blockDim.y + threadIdx.y;"
    src = tmp_path / "unscaled.cu"
    src.write_text(text.replace(right, "int Row = blockIdx.y + threadIdx.y;"))
    prog = build(src, lab, tmp_path / "p", schemata=tmp_path / "c.json")
    line = text[:text.index(right)].count("\n") + 1
    found = [c for c in json.loads((tmp_path / "c.json").read_text())
             if c["kind"] == "coordinates" and c["line"] == line and c["to"] == "blockIdx.y * blockDim.y + threadIdx.y"]
    assert len(found) == 1, found
    # widths up to 17 come out right (the overlap covers them): the first that does not
    for dataset in datasets_by_size(lab):
        expected = dataset / "expected.tensor"
        run_program(prog, dataset, tmp_path / "wrong.out", mutant=0)
        if kit.gpulab("compare", lab, tmp_path / "wrong.out", expected).returncode != 0:
            break
    else:
        pytest.fail("the mistake passes every dataset")
    run_program(prog, dataset, tmp_path / "fixed.out", mutant=found[0]["id"])
    assert kit.gpulab("compare", lab, tmp_path / "fixed.out", expected).returncode == 0


def test_two_names_exchanged_in_one_subscript_are_repaired(harness, tmp_path):
    """M read down a column (`M[k * Width + Row]`, transpose(M) x N): the
    candidate that exchanges the two names of the subscript mends it."""
    mends(harness, tmp_path, "01-basic-matmul", "M[Row * Width + k]", "M[k * Width + Row]", "index-swap", "Row, k")


def test_sizeof_a_pointer_is_repaired(harness, tmp_path):
    """The byte count sized by the element's pointer (8 bytes for 4): every
    copy runs past the host's arrays, every dataset a CUDA error; the
    candidate sizeof(float) mends it."""
    mends(harness, tmp_path, "01-basic-matmul", "size_t bytes = (size_t)width * width * sizeof(float);",
          "size_t bytes = (size_t)width * width * sizeof(float *);", "sizeof", "sizeof(float)")


def test_a_number_where_the_size_belongs_is_repaired(harness, tmp_path):
    """The dot product's loop bounded by a number (the size the student
    tried, 16) where the matrix's width belongs: the candidate puts the
    int parameter that the function compares and writes beside k
    (`Row * Width + k`) in the number's place."""
    mends(harness, tmp_path, "01-basic-matmul", "for (int k = 0; k < Width; ++k)", "for (int k = 0; k < 16; ++k)",
          "name", "Width", frm="16")


def test_a_member_for_another_of_its_structure_is_repaired(harness, tmp_path):
    """The input's rows stepped by its width where its pitch belongs (a
    pitched image read as if packed): the candidate reads the other member
    of the same structure, the one the file uses the same way (`out.pitch`
    multiplies a row too)."""
    mends(harness, tmp_path, "05-pitched-conv", "in.data[row_i * in.pitch + col_i * in.channels + k]",
          "in.data[row_i * in.width + col_i * in.channels + k]", "member", "in.pitch", frm="in.width")


@pytest.mark.parametrize("lab, wrong", [
    # the mask copied one row short: a factor dropped from the size
    ("04-conv-2batch", "MASK_WIDTH * sizeof(float)"),
    # one dimension too many: a copy past the mask's end
    ("05-pitched-conv", "MASK_WIDTH * MASK_WIDTH * MASK_WIDTH * sizeof(float)"),
])
def test_a_size_a_dimension_short_or_long_is_repaired(harness, tmp_path, lab, wrong):
    """A byte count with a factor too few or too many: the candidate that
    adds one of the product's own factors, or leaves out one written
    twice, mends it."""
    size = "MASK_WIDTH * MASK_WIDTH * sizeof(float)"
    mends(harness, tmp_path, lab, f"cudaMemcpyToSymbol(Mc, mask, {size})", f"cudaMemcpyToSymbol(Mc, mask, {wrong})",
          "factor", size)


@pytest.mark.parametrize("lab, reference, wrong", [
    # the tiles of a dot product read from each other's array
    ("02-tiled-matmul", "Pvalue += ds_M[ty][i] * ds_N[i][tx];", "Pvalue += ds_N[ty][i] * ds_M[i][tx];"),
    # the inputs of lab 01's product, each indexed as the other should be
    ("01-basic-matmul", "Pvalue += M[Row * Width + k] * N[k * Width + Col];",
     "Pvalue += N[Row * Width + k] * M[k * Width + Col];"),
])
def test_a_products_arrays_exchanged_are_repaired(harness, tmp_path, lab, reference, wrong):
    """The two arrays of a product exchanged, their subscripts kept: one
    candidate of two places (kind `exchange`) mends it, which no edit of
    one name can (each alone reads one array twice)."""
    frm = wrong.split("+= ")[1].rstrip(";")
    mends(harness, tmp_path, lab, reference, wrong, "exchange", reference.split("+= ")[1].rstrip(";"), frm=frm)


def test_a_square_of_a_slipped_name_is_mended_at_both_operands(harness, tmp_path):
    """Lab 01's buffers sized `BLOCK_WIDTH * BLOCK_WIDTH * sizeof(float)`,
    one block's worth: width is slipped at both operands of the square, and
    no edit of one mends it (`width * BLOCK_WIDTH` is still short, or long);
    one candidate puts the name at both."""
    old = "size_t bytes = (size_t)width * width * sizeof(float);"
    mends(harness, tmp_path, "01-basic-matmul", old, "size_t bytes = BLOCK_WIDTH * BLOCK_WIDTH * sizeof(float);",
          "square", "width * width")
