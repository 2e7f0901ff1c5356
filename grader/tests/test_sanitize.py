"""The sanitizer stage's reading of compute-sanitizer, on a report captured
from CUDA 13 on an H200 (grader/tests/data/), for the probe program
grader/tests/programs/probe_sanitizer.cu."""
import json
import re

import pytest

import kit

REPORT = kit.ROOT / "grader" / "tests" / "data" / "compute-sanitizer-cuda13-h200.txt"
SOURCE = kit.ROOT / "grader" / "tests" / "programs" / "probe_sanitizer.cu"


@pytest.fixture(scope="module")
def findings():
    p = kit.gpulab("explain-sanitizer", REPORT, SOURCE)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)["findings"]


def by_kind(findings, kind):
    return [f for f in findings if f["kind"] == kind]


def test_out_of_bounds_read_names_line_element_and_thread(findings):
    (f,) = by_kind(findings, "out-of-bounds")
    assert f["line"] == 6
    assert "element 100 of a 100-element array" in f["message"]
    assert "thread (100,0,0)" in f["message"]
    assert "a[i]" in f["message"]  # quotes the student's own line


def test_race_names_both_lines(findings):
    (f,) = by_kind(findings, "race")
    assert (f["line"], f["line2"]) == (11, 14)
    assert "__syncthreads()" in f["message"] and "128 hazards" in f["message"]


def test_divergent_barrier(findings):
    (f,) = by_kind(findings, "barrier")
    assert f["line"] == 13


def test_repeated_reports_are_one_finding(findings):
    # memcheck printed three out-of-bounds reads of the same line: one finding
    assert len(by_kind(findings, "out-of-bounds")) == 1


def test_clean_report_has_no_findings(tmp_path):
    clean = tmp_path / "clean.txt"
    clean.write_text("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n")
    p = kit.gpulab("explain-sanitizer", clean)
    assert json.loads(p.stdout)["findings"] == []


# ---- the stage end to end, on each backend ---------------------------------

def line_of(path, text):
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if text in line:
            return n
    raise AssertionError(f"{text!r} not in {path}")


@pytest.mark.parametrize("lab", kit.labs())
def test_reference_solutions_have_no_findings(backend, lab):
    src = kit.ROOT / "solutions" / lab / kit.manifest(lab)["source"]
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=0)
    assert rep["checkers"] == "emulator", rep["checkers"]  # the default on both backends
    checked = [d for d in rep["datasets"] if d["sanitizer"]]
    assert checked, "the sanitizer stage ran on no dataset"
    for d in checked:
        assert d["sanitizer"]["ran"], d["sanitizer"]
        assert d["sanitizer"]["findings"] == [], d["sanitizer"]["findings"]


def test_a_kernel_hidden_from_the_checkers_earns_no_hazard_points(backend, tmp_path):
    """A racing kernel marked no_sanitize_thread (the emulator's checkers
    would not see its accesses) loses no_hazards instead of passing it: the
    emulator's checking builds refuse the attribute and the report says why;
    on a GPU compute-sanitizer, which no attribute hides from, checks it
    instead and finds the race."""
    lab = "02-tiled-matmul"
    src = (kit.ROOT / "solutions" / lab / "mutants" / "missing-second-barrier.cu").read_text()
    hidden = src.replace("__global__ void MatrixMulKernel",
                         "__global__ __attribute__((no_sanitize_thread, no_sanitize_address)) void MatrixMulKernel")
    assert hidden != src
    path = tmp_path / kit.manifest(lab)["source"]
    path.write_text(hidden)
    rc, rep = kit.check_json(lab, path, backend, sanitize=True, expect_rc=1)
    hz = next(r for r in rep["requirements"] if r["name"] == "no_hazards")
    assert hz["status"] == "requirement_failed" and hz["score"] == 0, hz
    if rep["checkers"] == "emulator":
        assert "takes code out of the kit's checkers" in hz["message"], hz
        assert rep["checkers_fallback"] is None, rep["checkers_fallback"]
    else:
        assert backend == "gpu" and "race" in hz["message"], (rep["checkers"], hz)
        # the record, and the text report, say why the emulator's checkers did not run
        assert "takes code out of the kit's checkers" in rep["checkers_fallback"], rep["checkers_fallback"]
        p = kit.gpulab("check", lab, path, "--backend", backend)
        assert "checkers: compute-sanitizer, not the emulator's: the emulator's --race build failed" in p.stdout, \
            p.stdout


@pytest.mark.parametrize("checkers", ["compute-sanitizer", "emulator"])
def test_missing_second_barrier_race_names_both_lines(backend, checkers):
    """Whoever's checkers run (the emulator's by default, on both backends;
    compute-sanitizer on a GPU when asked for), the race is named by both
    its lines."""
    if checkers == "compute-sanitizer" and backend != "gpu":
        pytest.skip("compute-sanitizer runs on a GPU only")
    if checkers == "emulator" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "02-tiled-matmul"
    src = kit.ROOT / "solutions" / lab / "mutants" / "missing-second-barrier.cu"
    write = line_of(src, "ds_M[ty][tx] =")
    read = line_of(src, "Pvalue +=")
    rc, rep = kit.check_json(lab, src, backend, "--checkers", checkers, sanitize=True, expect_rc=1)
    assert rep["checkers"] == checkers, rep["checkers"]
    problems = {d["sanitizer"]["problem"] for d in rep["datasets"] if d["sanitizer"]} - {None}
    assert not problems, f"the sanitizer stage could not run: {problems}"
    races = [f for d in rep["datasets"] if d["sanitizer"] for f in d["sanitizer"]["findings"]
             if f["kind"] == "race"]
    assert any((f["line"], f["line2"]) == (write, read) for f in races), races
    # A dataset the checker saw race is never `pass`; where its output matched
    # (the GPU often gets this right by luck) it is `unsafe`, worth nothing.
    for d in rep["datasets"]:
        if d["sanitizer"] and d["sanitizer"]["findings"]:
            assert d["status"] != "pass", d["name"]
            c = d["comparison"]
            if c and c["mismatches"] == 0:
                assert d["status"] == "unsafe" and d["score"] == 0, (d["name"], d["status"])


# ---- memcheck's records of faulting threads: the fault map's data ------------

# Written by hand in the format of the capture above (its first lines say
# how): memcheck on second-batch-unbounded, a 2 x 2 grid of 16 x 16 blocks,
# where every thread with threadIdx.y >= 9 writes past the end of N_ds.
MEMCHECK = kit.ROOT / "grader" / "tests" / "data" / "compute-sanitizer-memcheck-second-batch-unbounded.txt"
MUTANT = kit.ROOT / "solutions" / "04-conv-2batch" / "mutants" / "second-batch-unbounded.cu"


def explain(path, source=MUTANT):
    p = kit.gpulab("explain-sanitizer", path, source)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_memcheck_records_give_every_faulting_thread():
    r = explain(MEMCHECK)
    f = r["faulting_threads"]
    assert f["kernel"] == "conv_2batch_kernel" and f["count"] == 4 * 7 * 16
    # memcheck does not print a launch's size: the smallest that holds every thread it named
    assert f["grid"] == [2, 2, 1] and f["block"] == [16, 16, 1] and f["launch_size_known"] is False
    assert f["complete"] is True
    assert "the threads in rows 9 to 15 (threadIdx.y = 9..15) of each of the 4 blocks it named" in f["summary"]
    assert "does not report the launch's size" in f["summary"]
    # 448 records of one line are one finding
    assert [(x["kind"], x["line"]) for x in r["findings"]] == [("out-of-bounds", 66)]
    assert r["fault_map"] is None  # explain-sanitizer draws nothing


HAZARDS = kit.ROOT / "grader" / "tests" / "data" / "compute-sanitizer-racecheck-hazards-h200.txt"


def test_racecheck_hazards_give_the_racing_threads():
    # Recorded on an H200 (CUDA 13.0): racecheck --racecheck-report hazard
    # --print-limit 40 on lab 04's no-barrier-between-channels mutant, rgb-47x29.
    r = explain(HAZARDS)
    f = r["racing_threads"]
    assert f["kernel"] == "conv_2batch_kernel"
    text = HAZARDS.read_text()
    named = set()
    for line in text.splitlines():
        m = re.search(r"(Read|Write) Thread \((\d+),(\d+),(\d+)\)", line)
        if m:
            named.add(tuple(int(g) for g in m.groups()[1:]))
    assert f["count"] == len(named) == 20
    # 40 hazards shown of 23516 errors and 1564 warnings: the list is cut short
    assert f["complete"] is False and "more threads may have raced" in f["summary"]
    assert f["launch_size_known"] is False and f["grid"] == [1, 1, 1] and f["block"] == [10, 5, 1]
    assert "took part in a shared-memory race" in f["summary"]
    assert r["race_map"] is None  # explain-sanitizer draws nothing


def test_memcheck_print_limit_marks_the_threads_incomplete(tmp_path):
    text = MEMCHECK.read_text()
    records = text.split("========= Invalid __shared__")
    cut = "========= Invalid __shared__".join(records[:101])  # the header and 100 records
    short = tmp_path / "limited.txt"
    short.write_text(cut + "========= ERROR SUMMARY: 449 errors\n"
                     "========= ERROR SUMMARY: 349 errors were not printed. Use --print-limit option to "
                     "adjust the number of printed errors\n")
    f = explain(short)["faulting_threads"]
    assert f["count"] == 100 and f["complete"] is False
    assert "more threads may have faulted" in f["summary"]


def test_memcheck_threads_are_those_of_the_first_faulting_kernel(tmp_path):
    other = ("========= Invalid __global__ read of size 4 bytes\n"
             "=========     at other_kernel(float *)+0x90 in conv_2batch.cu:20\n"
             "=========     by thread (3,3,0) in block (7,7,0)\n"
             "=========     Access to 0x7f69dc800190 is out of bounds\n"
             "========= \n")
    both = tmp_path / "both.txt"
    both.write_text(MEMCHECK.read_text() + other)
    f = explain(both)["faulting_threads"]
    assert f["kernel"] == "conv_2batch_kernel" and f["count"] == 448 and f["grid"] == [2, 2, 1]


def test_faulting_threads_come_from_memcheck_records_only():
    # the capture's memcheck part: three records of one launch, the rest not
    # printed; its racecheck, synccheck and initcheck parts add none
    f = explain(REPORT, SOURCE)["faulting_threads"]
    assert f["kernel"] == "oob_read" and f["count"] == 3 and f["complete"] is False
    assert "threadIdx.x = 100..102" in f["summary"]
    assert explain(MUTANT)["faulting_threads"] is None  # no report lines at all


def test_a_race_between_iterations_is_said_so(tmp_path):
    """The write before the read in a loop's body, a __syncthreads() between
    them: the race is between iterations, and the barrier missing is at the
    end of the loop (racecheck's report; the emulator's says the same, see
    the missing-second-barrier mutants' First line)."""
    src = kit.ROOT / "solutions" / "02-tiled-matmul" / "mutants" / "missing-second-barrier.cu"
    if not src.exists():
        pytest.skip("no mutants in this copy of the kit")
    load = line_of(src, "ds_M[ty][tx] = M[")
    use = line_of(src, "Pvalue += ds_M[ty][i]")
    report = tmp_path / "racecheck.txt"
    sig = "MatrixMulKernel(const float *, const float *, float *, int)"
    report.write_text("========= COMPUTE-SANITIZER\n"
                      f"========= Error: Race reported between Write access at {sig}+0x90 in {src.name}:{load}\n"
                      f"=========     and Read access at {sig}+0xe0 in {src.name}:{use} [128 hazards]\n"
                      "========= \n")
    (f,) = explain(report, src)["findings"]
    assert f["kind"] == "race" and f["line"] == load
    assert f"race between iterations of the loop at line {line_of(src, 'for (int ph = 0;')}" in f["message"]
    assert f"can overwrite ds_M while slower threads still read it at line {use}" in f["message"]
    assert f"add a __syncthreads() at the end of the loop, after the reads at line {use}" in f["message"]
    assert "no __syncthreads() separates them" not in f["message"]


# ---- every dataset checked; device memory nothing stored; use after cudaFree ---

SHAPE_MUTANTS = [("03-arbitrary-matmul", "m-load-tested-against-l"), ("03-arbitrary-matmul", "n-load-tested-against-j")]


@pytest.mark.parametrize("lab,mutant", SHAPE_MUTANTS)
def test_no_dataset_unsafe_alone_passes_in_a_full_check(backend, lab, mutant):
    """A bounds mistake that reads outside an array on some shapes only
    (lab 03's M load tested against l: past the end of M only where k < l)
    is caught on every dataset, not only on the few the full checks take:
    each dataset that passes in a full check passes when checked alone too,
    and the datasets the bounds series found are `unsafe` with the line."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = kit.ROOT / "solutions" / lab / "mutants" / f"{mutant}.cu"
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    unsafe = [d for d in rep["datasets"] if d["status"] == "unsafe"]
    # more datasets are unsafe than the full checks ran on: the rest came from
    # the bounds check on every dataset that passed
    assert len(unsafe) > 3, [(d["name"], d["status"]) for d in rep["datasets"]]
    load = line_of(src, "ds_M[ty][tx] = M[" if mutant.startswith("m-") else "ds_N[ty][tx] = N[")
    for d in unsafe:
        assert d["score"] == 0
        assert any(f["line"] == load for f in d["sanitizer"]["findings"]), (d["name"], d["sanitizer"])
    for d in rep["datasets"]:
        if d["status"] != "pass":
            continue
        _, alone = kit.check_json(lab, src, backend, "--dataset", d["name"], sanitize=True)
        (a,) = alone["datasets"]
        assert a["status"] == "pass", (d["name"], a["status"], a["message"])


def test_a_running_index_stepped_before_its_use_names_the_step(tmp_path):
    """Lab 03's nRow kept across phases, `int nRow = ty;` before the loop and
    `nRow += TILE_WIDTH;` at the top of its body: phase 0 already loads the
    rows of phase 1, and the bounds test sends the small dataset's threads
    to the zero store. The first line names the step that runs before the
    test, with the value one step ahead of the tile's row, not the test."""
    sol = kit.solution("03-arbitrary-matmul")
    text = sol.read_text()
    head = "    for (int ph = 0; ph < numPhases; ++ph) {"
    made = "        int nRow = ph * TILE_WIDTH + ty;"
    assert text.count(head) == 1 and text.count(made) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(head, "    int nRow = ty;\n" + head).replace(made, "        nRow += TILE_WIDTH;"))
    line = line_of(src, "        nRow += TILE_WIDTH;")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", "--dataset", "under-one-tile-5x7x3", sanitize=True,
                             expect_rc=1)
    first = rep["fix_first"]
    assert "nRow is 16 for thread (" in first and "16 more than the" in first, first
    assert f"line {line} (`nRow += TILE_WIDTH;`) moves it on before the test uses it" in first, first


def test_a_phase_count_in_other_units_than_a_phase_is_named_with_the_step(tmp_path):
    """Lab 03's phases counted in double tiles, `(k + 2 * TILE_WIDTH - 1) /
    (2 * TILE_WIDTH)`, while each phase steps by TILE_WIDTH: half the
    phases, the dot products cut short. The first line names the count's
    divisor and the phase's step, from the source."""
    src = edited(tmp_path, "03-arbitrary-matmul", "numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;",
                 "numPhases = (k + 2 * TILE_WIDTH - 1) / (2 * TILE_WIDTH);")
    line = line_of(src, "numPhases = (k + 2 * TILE_WIDTH - 1) / (2 * TILE_WIDTH);")
    loop = line_of(src, "for (int ph = 0; ph < numPhases; ++ph)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", "--dataset", "square-100x100x100", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and f"divides by `2*TILE_WIDTH`, but each phase of the loop at line " \
        f"{loop} covers TILE_WIDTH" in first, first
    assert "divide by TILE_WIDTH" in first, first


def test_a_bounds_test_of_one_value_of_both_indices_is_named_as_flattened(tmp_path):
    """Lab 01's bounds test written on the product of the two indices against
    the whole matrix, `Col * Row < Width * Width`: a thread of row 0 past
    the one column passes it. The first line names that test, not the loop
    that held, on the one-element dataset whose count is 1 (no rule against
    a coincidence of one element may drop it there)."""
    src = edited(tmp_path, "01-basic-matmul", "if (Row < Width && Col < Width)", "if (Col * Row < Width * Width)")
    line = line_of(src, "if (Col * Row < Width * Width)")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", "--dataset", "width-0001", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (`if (Col * Row < Width * Width)") and "bounds `Col * Row` (" \
        in first and "by the whole array's 1 element:" in first, first
    assert "test each index against its own bound" in first, first


def test_a_kernel_s_static_local_tile_is_named_at_its_declaration(tmp_path):
    """Lab 03's ds_M declared `static` for `__shared__`: one array of the
    whole grid's in global memory, which every block stores into at once.
    The first line names the declaration and `__shared__`."""
    src = edited(tmp_path, "03-arbitrary-matmul", "__shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];",
                 "static float ds_M[TILE_WIDTH][TILE_WIDTH];")
    line = line_of(src, "static float ds_M[TILE_WIDTH][TILE_WIDTH];")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", "--dataset", "rect-67x45x89", sanitize=True,
                             expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`static float ds_M[TILE_WIDTH][TILE_WIDTH];`) declares ds_M `static`, "
                            "not `__shared__`"), first
    assert "declare it `__shared__`" in first, first


def test_a_for_loop_without_its_step_is_named_at_its_header(tmp_path):
    """Lab 01's dot loop with its `++k` left out of the header: k never
    moves on and the run's time runs out. The first line names the loop's
    header and the step to write, not where the threads were found."""
    src = edited(tmp_path, "01-basic-matmul", "for (int k = 0; k < Width; ++k)", "for (int k = 0; k < Width;)")
    line = line_of(src, "for (int k = 0; k < Width;)")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", "--dataset", "width-0001", "--timeout", "2",
                             expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {line} (`for (int k = 0; k < Width;)") and "has no step after its " \
        "second `;`" in first, first
    assert "write the step (`++k`) in the header" in first, first


def test_an_accumulator_declared_shared_is_named_at_its_declaration(tmp_path):
    """Lab 02's Pvalue declared `__shared__`: one sum for the whole block,
    which every thread resets and adds into. The race finding names the
    declaration and says to make it a plain local, not a barrier."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "02-tiled-matmul", "float Pvalue = 0;", "__shared__ float Pvalue; Pvalue = 0;")
    line = line_of(src, "__shared__ float Pvalue; Pvalue = 0;")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", "--dataset", "width-0032", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`__shared__ float Pvalue; Pvalue = 0;`) declares Pvalue `__shared__`: one "
                            "variable for the whole block"), first
    assert "declare it without `__shared__`" in first, first


def test_a_store_test_on_one_flat_value_is_named_for_the_race_it_lets_through(tmp_path):
    """Lab 03's store under `if (Col + Row * l < l * j)`: a thread whose
    column is past its row's end passes it and stores into the next row's
    element, which that row's thread stores too. The race finding names
    the test, not only the store."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    old = "if (Row < j && Col < l)"
    text = kit.solution("03-arbitrary-matmul").read_text()
    count = text.count(old)
    src = edited(tmp_path, "03-arbitrary-matmul", old, "if (Col + Row * l < l * j)", count=count)
    line = line_of(src, "if (Col + Row * l < l * j)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", "--dataset", "rect-67x45x89", sanitize=True,
                             expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (`if (Col + Row * l < l * j)`) bounds one value made of both "
                            "indices, `Col + Row * l`, by the whole output's count, `l * j`"), first
    assert "test each index against its own bound" in first, first


def test_a_bound_rounded_up_to_whole_tiles_is_named_with_the_size_its_twin_test_uses(tmp_path):
    """Lab 03's M load tested `mCol < numPhases * TILE_WIDTH`: the extent
    rounded up to whole tiles, which in the last phase lets a thread read
    past M's row (and, on the last row, past M). The first line names the
    bound, and the size the N load's test bounds its phase-made name by."""
    src = edited(tmp_path, "03-arbitrary-matmul", "if (Row < j && mCol < k)",
                 "if (Row < j && mCol < numPhases * TILE_WIDTH)")
    line = line_of(src, "if (Row < j && mCol < numPhases * TILE_WIDTH)")
    twin = line_of(src, "if (nRow < k && Col < l)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", "--dataset", "primes-31x37x41", sanitize=True,
                             expect_rc=1)
    first = rep["fix_first"]
    assert f"the test at line {line} (`if (Row < j && mCol < numPhases * TILE_WIDTH)`) bounds mCol by " \
           "`numPhases * TILE_WIDTH`" in first, first
    assert f"as the test at line {twin} bounds nRow by k: `mCol < k`" in first, first


def test_a_dataset_that_faulted_is_checked_where_the_chosen_ones_did_not(tmp_path):
    """Lab 03's dot loop run to k / 16 terms: where k is 300 (long-dot) it
    reads past ds_N's 16 rows and the run faults; every other dataset is
    just wrong, and the smallest failure and the kinds of input are checked
    first. The faulting dataset is checked too, and the first line names
    the loop from its checked run, not the raw illegal-address error."""
    src = edited(tmp_path, "03-arbitrary-matmul", "for (int i = 0; i < TILE_WIDTH; ++i)",
                 "for (int i = 0; i < k / 16; ++i)")
    line = line_of(src, "for (int i = 0; i < k / 16; ++i)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    statuses = kit.statuses(rep)
    assert statuses["long-dot-3x300x5"] == "cuda_error", statuses
    assert (next(d for d in rep["datasets"] if d["name"] == "long-dot-3x300x5").get("sanitizer") or {}).get("ran"), \
        "the faulting dataset was not checked"
    first = rep["fix_first"]
    assert f"the loop at line {line} (`for (int i = 0; i < k / 16; ++i)`)" in first, first
    assert "cudaErrorIllegalAddress" not in first, first


def test_a_race_the_full_checks_found_is_checked_on_every_dataset(backend, tmp_path):
    """Every thread of lab 02's reference stores the phase count into one
    __shared__ int and reads it back with no barrier between: a race on
    every dataset, whose output is right wherever the threads happen to
    agree (they store the same value). The full checks run on a few
    datasets; the race they find sends every other dataset that passed
    through the race check too, so none of them earns its point by luck."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "02-tiled-matmul"
    text = (kit.ROOT / "solutions" / lab / "tiled_matmul.cu").read_text()
    loop = "    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {\n"
    assert text.count(loop) == 1
    src = tmp_path / "tiled_matmul.cu"
    src.write_text(text.replace(loop, "    __shared__ int phases;\n    phases = Width / TILE_WIDTH;\n"
                                      "    for (int ph = 0; ph < phases; ++ph) {\n"))
    store = line_of(src, "phases = Width / TILE_WIDTH;")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    statuses = kit.statuses(rep)
    assert set(statuses.values()) == {"unsafe"}, statuses
    for d in rep["datasets"]:
        races = [f for f in d["sanitizer"]["findings"] if f["kind"] == "race"]
        assert races and all(f["line"] == store for f in races), (d["name"], d["sanitizer"])
    assert "race series" in rep["stages"], rep["stages"]


def test_a_bounds_mistake_of_the_largest_size_alone_is_never_pass(backend, tmp_path):
    """A read one past M's end that only rows longer than 128 make (each
    term read one step ahead), so only lab 01's largest dataset, width-0257
    (over 1 MiB of input), shows it: within the emulator's slack after the
    buffer, and within a GPU's allocation, its graded run passes, and the
    full checks (two small datasets) find nothing. The bounds series takes
    every dataset that passed, the largest too: width-0257 is `unsafe` in
    the full check as when it is checked alone, at the read's line."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "01-basic-matmul"
    ref = kit.ROOT / "solutions" / lab / "basic_matmul.cu"
    straight = ("        for (int k = 0; k < Width; ++k)\n"
                "            Pvalue += M[Row * Width + k] * N[k * Width + Col];\n")
    ahead = ("        if (Width > 128) { /* long rows: each term of M read one step ahead */\n"
             "            float m = M[Row * Width];\n"
             "            for (int k = 0; k < Width; ++k) {\n"
             "                float next = M[Row * Width + k + 1];\n"
             "                Pvalue += m * N[k * Width + Col];\n"
             "                m = next;\n"
             "            }\n"
             "        } else {\n" + straight + "        }\n")
    text = ref.read_text()
    assert straight in text
    src = tmp_path / "basic_matmul.cu"
    src.write_text(text.replace(straight, ahead))
    read = line_of(src, "float next = M[Row * Width + k + 1];")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    got = kit.statuses(rep)
    assert got["width-0257"] == "unsafe", got
    assert [n for n, s in got.items() if s != "pass"] == ["width-0257"], got
    (big,) = [d for d in rep["datasets"] if d["name"] == "width-0257"]
    assert big["score"] == 0
    assert any(f["line"] == read for f in big["sanitizer"]["findings"]), big["sanitizer"]
    _, alone = kit.check_json(lab, src, backend, "--dataset", "width-0257", sanitize=True, expect_rc=1)
    assert [d["status"] for d in alone["datasets"]] == ["unsafe"], kit.statuses(alone)


def test_the_bounds_series_names_the_test_that_let_the_thread_through(backend):
    """The series of every dataset records no kernel tests (that bookkeeping
    was most of its cost); a dataset it finds an invalid access on runs
    again alone with them, so that every `unsafe` dataset's finding names
    the test that let the thread through, the series' as the full checks'
    (more datasets are unsafe than the full checks take: the test above)."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab, mutant = SHAPE_MUTANTS[0]
    src = kit.ROOT / "solutions" / lab / "mutants" / f"{mutant}.cu"
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    guard = line_of(src, "if (Row < j && mCol < l)")
    unsafe = [d for d in rep["datasets"] if d["status"] == "unsafe"]
    assert len(unsafe) > 3, [(d["name"], d["status"]) for d in rep["datasets"]]
    for d in unsafe:
        first = d["sanitizer"]["findings"][0]["message"]
        assert f"the test at line {guard} " in first and "let this thread through" in first, (d["name"], first)


def test_a_sum_into_unzeroed_memory_names_the_buffer_and_the_line(backend):
    """P[i] += ... into a buffer cudaMalloc gave and nothing zeroed: on the
    emulator NaN (wrong), on a GPU often right by luck (unsafe); either way
    no points, and the checkers name d_P, its cudaMalloc line and the
    line that read it before anything stored it."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "01-basic-matmul"
    src = kit.ROOT / "solutions" / lab / "mutants" / "sum-into-unzeroed-output.cu"
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    assert rep["score"] == 0, rep["score"]
    assert all(d["status"] != "pass" for d in rep["datasets"]), kit.statuses(rep)
    read, made = line_of(src, "P[Row * Width + Col] += M"), line_of(src, "cudaMalloc((void **)&d_P")
    found = [f for d in rep["datasets"] if d["sanitizer"] for f in d["sanitizer"]["findings"]]
    unset = [f for f in found if f["kind"] == "uninitialised"]
    assert unset and all((f["line"], f["line2"]) == (read, made) for f in unset), found
    assert "d_P" in unset[0]["message"] and "before anything stored it" in unset[0]["message"]
    assert "cudaMalloc does not zero memory" in unset[0]["message"]
    assert f"line {read}" in rep["fix_first"] and "d_P" in rep["fix_first"], rep["fix_first"]


@pytest.mark.parametrize("case", ["after-launch", "never"])
def test_a_constant_mask_read_before_any_copy_stored_it(backend, tmp_path, case):
    """Lab 04's reference with its cudaMemcpyToSymbol moved after the launch,
    or taken out: the kernel reads Mc before anything stored it (zeros on a
    GPU, a mask it was never given either way). The emulator's checked run
    names Mc, the read's line and the launch's, and the late copy's line
    where there is one; that finding is the report's first line on both
    backends, and no dataset passes."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "04-conv-2batch"
    ref = kit.ROOT / "solutions" / lab / "conv_2batch.cu"
    text = ref.read_text()
    copy = "    CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));\n"
    check = "    CUDA_CHECK(cudaGetLastError());\n"
    assert text.count(copy) == 1 and text.count(check) == 1
    text = text.replace(copy, "")
    if case == "after-launch":
        text = text.replace(check, check + copy)
    src = tmp_path / "conv_2batch.cu"
    src.write_text(text)
    read = line_of(src, "Mc[i][j]")
    launch = line_of(src, "conv_2batch_kernel<<<")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    assert all(d["status"] != "pass" for d in rep["datasets"]), kit.statuses(rep)
    first = rep["fix_first"]
    assert first.startswith(f"Mc is read at line {read} ") and f"by the launch at line {launch} " in first, first
    assert "before anything stored it" in first, first
    if case == "after-launch":
        late = line_of(src, "cudaMemcpyToSymbol(Mc")
        assert late > launch and f"the cudaMemcpyToSymbol at line {late} " in first, first
        assert "comes after the launch" in first, first
    else:
        assert "no cudaMemcpyToSymbol copies into Mc, before the launch or after it" in first, first
        # lab 04's host function gets its inputs on the device: no copy of
        # them to stand beside (lab 05's does: test_repair's own case)
        assert first.endswith("copy into Mc with cudaMemcpyToSymbol before the launch"), first


def test_a_constant_never_copied_is_placed_beside_the_inputs_copy(tmp_path):
    """Lab 05's mask copy left out: the first line says where the copy
    goes, beside the copy of the input image to the device."""
    lab = "05-pitched-conv"
    copy = "    CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));\n"
    src = edited(tmp_path, lab, copy, "")
    inputs = max(i + 1 for i, l in enumerate(src.read_text().splitlines()) if "cudaMemcpy2D(d_in" in l)
    rc, rep = kit.check_json(lab, src, "emu", "--dataset", "rgb-13x13", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "no cudaMemcpyToSymbol copies into Mc" in first, first
    assert first.endswith(f"before the launch, beside the copy of the inputs at line {inputs}"), first


def test_an_input_never_copied_to_the_device_is_named_with_where_its_copy_goes(backend, tmp_path):
    """Lab 01's reference without the cudaMemcpy that fills d_N: the kernel
    reads a buffer no call of the file ever stores into (NaN on the
    emulator, whatever was there on a GPU). The first line, on both
    backends, says that nothing copies into d_N and where the copy goes
    (beside the copy of M), not "store every element before reading"."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "01-basic-matmul"
    text = (kit.ROOT / "solutions" / lab / "basic_matmul.cu").read_text()
    copy = "    CUDA_CHECK(cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice));\n"
    assert text.count(copy) == 1
    src = tmp_path / "basic_matmul.cu"
    src.write_text(text.replace(copy, ""))
    beside, launch = line_of(src, "cudaMemcpy(d_M, M"), line_of(src, "MatrixMulKernel<<<")
    rc, rep = kit.check_json(lab, src, backend, "--dataset", "width-0017", sanitize=True, expect_rc=1)
    assert rep["score"] < rep["max_score"], kit.statuses(rep)
    first = rep["fix_first"]
    assert first.startswith("no call of the file ever stores into d_N"), first
    assert f"beside the copy at line {beside}, before the launch at line {launch}" in first, first


def test_a_copy_into_the_wrong_buffer_is_named_at_its_destination(backend, tmp_path):
    """Lab 01's copy of M written into d_N: no call stores into d_M, and the
    edit that makes every dataset right puts d_M in that copy. The repair
    leads, at the copy, where the finding alone said to add a copy into
    d_M beside it (which would leave M's copy overwriting d_N's)."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "01-basic-matmul"
    src = edited(tmp_path, lab, "cudaMemcpy(d_M, M, bytes", "cudaMemcpy(d_N, M, bytes")
    line = line_of(src, "cudaMemcpy(d_N, M, bytes")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `d_N` in `CUDA_CHECK(cudaMemcpy(d_N, M, bytes"), first
    assert "with `d_M` there" in first, first


def test_a_sum_typed_eq_plus_is_said_as_that_typo(backend, tmp_path):
    """Lab 04's weighted sum typed `acc =+ ...`: each term replaces the sum,
    and the line says that `=+` is an assignment with a plus sign, where
    `+=` was meant, at the statement."""
    lab = "04-conv-2batch"
    src = edited(tmp_path, lab, "acc += Mc[i][j]", "acc =+ Mc[i][j]")
    line = line_of(src, "acc =+ Mc[i][j]")
    rc, rep = kit.check_json(lab, src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert f"look at the assignment at line {line} (`acc =+ Mc[i][j]" in first, first
    assert "(`=+` is `= +`, an assignment of the term with a plus sign: write `+=`)" in first, first
    assert "not `=`)" not in first, first


def test_a_symbol_named_by_a_string_is_an_invalid_symbol(backend, tmp_path):
    """cudaMemcpyToSymbol("Mc", ...), the form CUDA 5.0 dropped: a GPU's
    runtime answers cudaErrorInvalidSymbol, and so does the emulator (it
    wrote the string's read-only bytes before), saying to pass Mc itself."""
    lab = "04-conv-2batch"
    text = (kit.ROOT / "solutions" / lab / "conv_2batch.cu").read_text()
    assert text.count("cudaMemcpyToSymbol(Mc, ") == 1
    src = tmp_path / "conv_2batch.cu"
    src.write_text(text.replace("cudaMemcpyToSymbol(Mc, ", 'cudaMemcpyToSymbol("Mc", '))
    rc, rep = kit.check_json(lab, src, backend, "--dataset", "gray-1x1", expect_rc=1)
    assert kit.statuses(rep) == {"gray-1x1": "cuda_error"}, kit.statuses(rep)
    first = rep["fix_first"]
    assert "cudaErrorInvalidSymbol" in first, first
    if backend == "emu":
        assert "the symbol is given as a string" in first and "variable itself, Mc," in first, first


def test_a_symbol_given_as_its_address_is_an_invalid_symbol(backend, tmp_path):
    """cudaMemcpyToSymbol(&Mc, ...): nvcc compiles it (the runtime's template
    takes the symbol by reference, here a temporary pointer), and a GPU's
    runtime finds no device symbol at that address. The emulator compiles
    it too, where it used to stop the build, and answers as the GPU does,
    saying to drop the &."""
    lab = "05-pitched-conv"
    src = edited(tmp_path, lab, "cudaMemcpyToSymbol(Mc, ", "cudaMemcpyToSymbol(&Mc, ")
    line = line_of(src, "cudaMemcpyToSymbol(&Mc, ")
    rc, rep = kit.check_json(lab, src, backend, "--dataset", "gray-1x1", expect_rc=1)
    assert kit.statuses(rep) == {"gray-1x1": "cuda_error"}, kit.statuses(rep)
    first = rep["fix_first"]
    assert "cudaErrorInvalidSymbol" in first and f":{line}" in first, first
    if backend == "emu":
        assert "the symbol is given as its address, &Mc" in first and "variable itself, Mc, without the &" in first, \
            first


def test_a_mask_declared_device_names_its_declaration(backend, tmp_path):
    """A mask declared __device__ and filled with cudaMemcpyToSymbol: every
    output is right, but the mask sits in global memory. The requirement
    is not met on either backend, and the line says which declaration to
    make __constant__."""
    lab = "04-conv-2batch"
    text = (kit.ROOT / "solutions" / lab / "conv_2batch.cu").read_text()
    decl = "__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];"
    assert text.count(decl) == 1
    src = tmp_path / "conv_2batch.cu"
    src.write_text(text.replace(decl, decl.replace("__constant__", "__device__")))
    line = line_of(src, "__device__ float Mc")
    rc, rep = kit.check_json(lab, src, backend, "--dataset", "gray-1x1", expect_rc=1)
    assert all(d["status"] == "pass" for d in rep["datasets"]), kit.statuses(rep)
    first = rep["fix_first"]
    assert f"line {line} declares Mc __device__" in first and f"declare Mc __constant__ at line {line}" in first, first


def test_a_tile_subscript_past_its_declared_dimension_leads(backend, tmp_path):
    """Lab 02's reference with both tiles declared [TILE_WIDTH][8]: the
    stores ds_M[ty][tx] with tx up to 15 land in the next row's slots (and
    past the end for the last rows), and the rows' threads race on them.
    The report's first line is the subscript, its values and the
    declaration, not the race it causes."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "02-tiled-matmul"
    text = (kit.ROOT / "solutions" / lab / "tiled_matmul.cu").read_text()
    decl = "__shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];"
    assert text.count(decl) == 1
    text = text.replace(decl, "__shared__ float ds_M[TILE_WIDTH][8];")
    text = text.replace("__shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];", "__shared__ float ds_N[TILE_WIDTH][8];")
    src = tmp_path / "tiled_matmul.cu"
    src.write_text(text)
    store = line_of(src, "ds_M[ty][tx] = ")
    declared = line_of(src, "__shared__ float ds_M[TILE_WIDTH][8];")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    assert all(d["status"] != "pass" for d in rep["datasets"]), kit.statuses(rep)
    # the emulator's checked run, on either backend: the subscript leads its findings
    checked = [d["sanitizer"]["findings"] for d in rep["datasets"] if d["sanitizer"] and d["sanitizer"]["findings"]]
    assert checked, kit.statuses(rep)
    for found in checked:
        first = found[0]["message"]
        assert (found[0]["line"], found[0]["line2"]) == (store, declared), found
        # tx is the thread's own x: no test keeps it below 8 without leaving
        # threads out, so the declaration leads, and no "keep it below"
        assert first.startswith(f"ds_M is declared at line {declared} (`__shared__ float ds_M[TILE_WIDTH][8];`) "
                                f"with 8 in its second dimension (0 to 7), but its second subscript at line {store} "), first
        assert "`tx`, is the thread's x in its block and takes the values 8 to 15" in first, first
        assert "keep it below" not in first, first
    if backend == "emu":  # on a GPU the run's own fault may speak first (not measured here)
        assert rep["fix_first"].startswith(f"ds_M is declared at line {declared} "), rep["fix_first"]


def test_a_copy_back_after_cudafree_is_named_a_use_after_free(backend):
    """A copy back from a buffer freed one line before: a use after
    cudaFree at the copy's line, with the cudaFree's line, never a pointer
    that is not device memory."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "01-basic-matmul"
    src = kit.ROOT / "solutions" / lab / "mutants" / "copy-back-after-free.cu"
    rc, rep = kit.check_json(lab, src, backend, "--dataset", "width-0017", sanitize=True, expect_rc=1)
    copy, free = line_of(src, "CUDA_CHECK(cudaMemcpy(P, d_P"), line_of(src, "CUDA_CHECK(cudaFree(d_P)")
    (d,) = rep["datasets"]
    found = d["sanitizer"]["findings"]
    assert [(f["kind"], f["line"], f["line2"]) for f in found] == [("use-after-free", copy, free)], found
    assert "d_P" in found[0]["message"] and "not device memory" not in found[0]["message"]
    if backend == "emu":
        assert "use after cudaFree" in d["stderr"] and "not device memory" not in d["stderr"]


def test_a_buffer_never_freed_is_a_note(backend, tmp_path):
    """Lab 01's reference without its cudaFree(d_P): the output is right
    and nothing reads freed or unset memory, so full marks; the emulator's
    checked build lists the allocations alive at exit, and the report says
    which buffer was never freed, with its cudaMalloc line, as a note."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "01-basic-matmul"
    ref = next((kit.ROOT / "solutions" / lab).glob("*.cu"))
    src = tmp_path / ref.name
    text = ref.read_text()
    assert "    CUDA_CHECK(cudaFree(d_P));\n" in text
    src.write_text(text.replace("    CUDA_CHECK(cudaFree(d_P));\n", ""))
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=0)
    assert rep["score"] == rep["max_score"], kit.statuses(rep)
    made = line_of(src, "cudaMalloc((void **)&d_P")
    assert [n for n in rep["notes"] if "never freed" in n] == [
        f"d_P (the buffer of the cudaMalloc at line {made} (`CUDA_CHECK(cudaMalloc((void **)&d_P, bytes));`)) is never "
        "freed: cudaFree each device buffer once nothing uses it (no points depend on it)"], rep["notes"]
    _, clean = kit.check_json(lab, ref, backend, sanitize=True, expect_rc=0)
    assert clean["notes"] == [], clean["notes"]



def test_a_pointer_tested_against_null_keeps_the_checkers(backend, tmp_path):
    """`if (P != NULL && M != 0 && ...)` in a kernel compiles with nvcc and
    g++; the checked build, which wraps each comparison of a test, must
    compile it too (a null constant passed through the wrapper is an
    integer, which C++ will not compare with a pointer): the checkers run,
    find nothing, and the file keeps full marks."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "01-basic-matmul"
    ref = next((kit.ROOT / "solutions" / lab).glob("*.cu"))
    text = ref.read_text()
    test = "if (Row < Width && Col < Width) {"
    assert test in text
    src = tmp_path / ref.name
    src.write_text(text.replace(test, "if (P != NULL && M != 0 && Row < Width && Col < Width) {"))
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=0)
    assert rep["score"] == rep["max_score"], (kit.statuses(rep), rep["requirements"])
    assert rep["checkers"] == "emulator" and rep["checkers_fallback"] is None, rep["checkers_fallback"]

def test_the_bounds_series_is_hidden_from_the_program(tmp_path):
    """The checked build's run of every dataset is told to skip its race
    check through the environment; the runtime takes that variable out
    before main(), so the program sees its graded run's environment."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = tmp_path / "env.cu"
    src.write_text('#include <stdio.h>\n#include <stdlib.h>\n'
                   'int main(void) { printf("[%s]\\n", getenv("GPULAB_EMU_CHECKS") ? "seen" : "unseen"); return 0; }\n')
    prog = tmp_path / "env"
    p = kit.run([kit.EMUCC, "--race", src, "-o", prog], timeout=300)
    assert p.returncode == 0, p.stderr
    r = kit.run([prog], env={"GPULAB_EMU_CHECKS": "bounds"}, timeout=60)
    assert r.stdout.strip() == "[unseen]", r.stdout


# ---- the bounds series runs a large grid's edge only (GPULAB_EMU_BLOCKS=edge) ---

BLOCKS_RAN = r'''#include <stdio.h>
#include <stdlib.h>
__global__ void mark(int *ran) {
    if (threadIdx.x == 0 && threadIdx.y == 0)
        ran[blockIdx.y * gridDim.x + blockIdx.x] = 1;
}
static void launch(int side) {
    int *d, n = side * side;
    int *h = (int *)malloc(n * sizeof(int));
    cudaMalloc((void **)&d, n * sizeof(int));
    mark<<<dim3(side, side), dim3(4, 4)>>>(d);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    printf("%d:", side);
    for (int y = 0; y < side; y++)
        for (int x = 0; x < side; x++)
            if (h[y * side + x] == 1)
                printf(" %d,%d", x, y);
    printf("\n");
    cudaFree(d);
    free(h);
}
int main(void) {
    printf("[%s]\n", getenv("GPULAB_EMU_BLOCKS") ? "seen" : "unseen");
    launch(10);
    launch(8);
    return 0;
}
'''


def blocks_that_ran(stdout):
    lines = stdout.splitlines()
    got = {}
    for line in lines[1:]:
        side, cells = line.split(":")
        got[int(side)] = {tuple(map(int, c.split(","))) for c in cells.split()}
    return lines[0], got


def test_the_bounds_series_runs_a_large_grids_edge_only(tmp_path):
    """Under the bounds check, GPULAB_EMU_BLOCKS=edge runs a grid of more
    than 64 blocks only within two blocks of its border, and its centre
    block; a grid of 64 blocks runs whole; without the bounds mode (the
    full checks: races, counts, tiles need every block) the switch changes
    nothing. The blocks the launch skipped would have stored into the
    buffer: its copy back is no read of memory nothing stored. The program
    never sees the variable."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = tmp_path / "blocks.cu"
    src.write_text(BLOCKS_RAN)
    prog = tmp_path / "blocks"
    p = kit.run([kit.EMUCC, "--race", src, "-o", prog], timeout=300)
    assert p.returncode == 0, p.stderr
    every = {s: {(x, y) for x in range(s) for y in range(s)} for s in (10, 8)}
    edge = {(x, y) for (x, y) in every[10] if min(x, y) < 2 or max(x, y) >= 8} | {(5, 5)}
    r = kit.run([prog], env={"GPULAB_EMU_CHECKS": "bounds", "GPULAB_EMU_BLOCKS": "edge"}, timeout=60)
    assert r.returncode == 0, r.stderr
    seen, got = blocks_that_ran(r.stdout)
    assert seen == "[unseen]", r.stdout
    assert got == {10: edge, 8: every[8]}, r.stdout
    assert len(edge) == 65
    assert "unset" not in r.stderr, r.stderr
    for env in ({"GPULAB_EMU_CHECKS": "bounds"}, {"GPULAB_EMU_BLOCKS": "edge"}):
        r = kit.run([prog], env=env, timeout=60)
        assert r.returncode == 0 and blocks_that_ran(r.stdout)[1] == every, (env, r.stdout)


def test_a_read_before_the_start_on_the_largest_size_alone_is_never_pass(backend, tmp_path):
    """The twin of the test above it, at the other end: a read one float
    before M's start that only rows longer than 128 make (each term's
    predecessor read too), made by the first row of blocks alone, on lab
    01's width-0257, whose 17 x 17 grid the bounds series runs at its edge
    only: inside the default build's page before the buffer its graded
    run passes (the value cancels out), and the series must still find it
    on the grid's first blocks."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "01-basic-matmul"
    ref = kit.ROOT / "solutions" / lab / "basic_matmul.cu"
    straight = ("        for (int k = 0; k < Width; ++k)\n"
                "            Pvalue += M[Row * Width + k] * N[k * Width + Col];\n")
    behind = ("        if (Width > 128) { /* long rows: each term's predecessor read too */\n"
              "            for (int k = 0; k < Width; ++k) {\n"
              "                float before = M[Row * Width + k - 1];\n"
              "                Pvalue += M[Row * Width + k] * N[k * Width + Col] + (before - before);\n"
              "            }\n"
              "        } else {\n" + straight + "        }\n")
    text = ref.read_text()
    assert straight in text
    src = tmp_path / "basic_matmul.cu"
    src.write_text(text.replace(straight, behind))
    read = line_of(src, "float before = M[Row * Width + k - 1];")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    got = kit.statuses(rep)
    assert [n for n, s in got.items() if s != "pass"] == ["width-0257"], got
    (big,) = [d for d in rep["datasets"] if d["name"] == "width-0257"]
    assert big["status"] == "unsafe" and big["score"] == 0, big["status"]
    assert any(f["line"] == read for f in big["sanitizer"]["findings"]), big["sanitizer"]


def test_a_bounds_test_missing_a_coordinate_names_it(tmp_path):
    """Lab 01's reference whose bounds test compares Col only: the threads
    of the rounded-up grid past the last row read M and write P past their
    ends. The first line names Row, which no test the thread passed bounds,
    at the bounds test's line, not the loop's test the thread passed last."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "01-basic-matmul"
    src = next((kit.ROOT / "solutions" / lab).glob("*.cu")).read_text()
    test = "if (Row < Width && Col < Width)"
    assert test in src
    bad = tmp_path / "row-not-tested.cu"
    bad.write_text(src.replace(test, "if (Col < Width)"))
    line = line_of(bad, "if (Col < Width)")
    _, rep = kit.check_json(lab, bad, "emu", "--dataset", "width-0017", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("no test this thread passed bounds `Row`"), first
    assert f"the test at line {line} (`if (Col < Width)" in first and "test `Row` there too" in first, first


# ---- an output region nothing stored: the test that kept its threads out ------------


def test_an_unstored_region_names_the_test_whose_bound_it_starts_at(backend, tmp_path):
    """Lab 05's reference whose store test bounds the column by the output
    tile's width (O_TILE_WIDTH, 12) where the image's width belongs: the
    columns from 12 on are never stored. The first line names that test,
    the bound the region starts at and the store it kept the threads from,
    from the checked run's record of the threads' tests, not the copy back
    that reads the memory nothing stored."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "05-pitched-conv"
    text = (kit.ROOT / "solutions" / lab / "pitched_conv.cu").read_text()
    test = "if (row_o < out.height && col_o < out.width)"
    assert text.count(test) == 1
    src = tmp_path / "pitched_conv.cu"
    src.write_text(text.replace(test, "if (row_o < out.height && col_o < O_TILE_WIDTH)"))
    line = line_of(src, "col_o < O_TILE_WIDTH)")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} "), first
    assert f"keeps threads from the store at line {line + 1}" in first, first
    assert "`col_o < O_TILE_WIDTH` is false" in first and "against 12" in first, first
    assert "exactly those at or past 12" in first, first


def test_a_barrier_above_the_load_is_told_to_move_where_it_orders_the_tile(backend, tmp_path):
    """Lab 04's barrier after the two batches written at the top of the
    channel loop, above the first batch's load: the race says where one
    goes, and that the barrier above the store orders nothing between them,
    so it moves there. With the loop's last barrier gone too, that barrier
    is the one that keeps the next channel's stores after this one's reads:
    it is not told to move."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "04-conv-2batch"
    wait = "        //@@ TODO 4: Wait until the whole tile is loaded.\n        __syncthreads();\n"
    load = "        int dest = threadIdx.y * TILE_WIDTH + threadIdx.x;\n"
    text = kit.solution(lab).read_text()
    assert text.count(wait) == 1 and text.count(load) == 1
    moved = text.replace(wait, wait.split("\n")[0] + "\n").replace(load, "        __syncthreads();\n" + load)
    src = tmp_path / kit.solution(lab).name
    src.write_text(moved)
    barrier = line_of(src, load.strip()) - 1
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "no __syncthreads() separates them" in first, first
    assert f"the __syncthreads() at line {barrier}, before the store, orders nothing between them; move it there" \
        in first, first
    last = "        //@@ No thread may start that while another still reads channel k.\n        __syncthreads();\n"
    assert moved.count(last) == 1
    src.write_text(moved.replace(last, last.split("\n")[0] + "\n"))
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "no __syncthreads() separates them" in first and "move it there" not in first, first


def test_a_bound_joined_to_the_ghost_test_is_named_for_the_else_it_lets_store(backend, tmp_path):
    """Lab 04's second batch with `destY < w` joined, last, to the ghost
    test: the threads past the tile's rows fail the test and go to its
    else, which stores 0 past N_ds's end. The first line names the test and
    the clause, and the else's store at its own line (the compiler makes
    the two branches' stores one instruction, named after the first)."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "04-conv-2batch"
    old = ("        if (destY < w) {\n"
           "            if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)\n"
           "                N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];\n"
           "            else\n"
           "                N_ds[destY][destX] = 0.0f;\n"
           "        }\n")
    new = ("        if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width && destY < w)\n"
           "            N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];\n"
           "        else\n"
           "            N_ds[destY][destX] = 0.0f;\n")
    src = edited(tmp_path, lab, old, new)
    test = line_of(src, "&& destY < w)")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {test} "), first
    assert "joins `destY < w` to its other clauses" in first, first
    assert f"goes to the else at line {test + 3} (`N_ds[destY][destX] = 0.0f;`)" in first, first


def test_a_loop_unrolled_by_two_is_named_for_its_last_odd_pass(backend, tmp_path):
    """Lab 04's mask loop over j unrolled by two, with no pass for an odd
    last term: MASK_WIDTH is 5, so the last pass reads Mc[i][j + 1] with
    j + 1 = 5, past the mask. The test `j < MASK_WIDTH` held there (4
    against 5): the first line names the loop, its step, the `j + 1` the
    test does not bound, and what to do, not the test as the one that let
    the thread out."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "04-conv-2batch"
    src = edited(tmp_path, lab,
                 "            for (int j = 0; j < MASK_WIDTH; j++)\n"
                 "                acc += Mc[i][j] * N_ds[threadIdx.y + i][threadIdx.x + j];",
                 "            for (int j = 0; j < MASK_WIDTH; j += 2)\n"
                 "                acc += Mc[i][j] * N_ds[threadIdx.y + i][threadIdx.x + j] +\n"
                 "                       Mc[i][j + 1] * N_ds[threadIdx.y + i][threadIdx.x + j + 1];")
    loop = line_of(src, "j += 2)")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {loop} ("), first
    assert "steps j by 2, and each pass reads `j + 1` as well as j" in first, first
    assert "reads j + 1 = 5, past the end" in first and "(`j + 1 < MASK_WIDTH`)" in first, first


def test_a_loop_over_a_tile_bounded_by_the_data_size_is_named_at_the_loop(backend, tmp_path):
    """Lab 02's partial dot product looping to Width, not TILE_WIDTH: the
    pass i = 16 reads past ds_M though `i < Width` held (16 against 32).
    The first line names the loop, its bound and the tile's declaration,
    not the test as one that let the thread through."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "02-tiled-matmul"
    src = edited(tmp_path, lab, "for (int i = 0; i < TILE_WIDTH; ++i)", "for (int i = 0; i < Width; ++i)")
    loop = line_of(src, "for (int i = 0; i < Width; ++i)")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {loop} ("), first
    assert "runs i up to Width (32 here), but line " in first and "i = 16 is already past it" in first, first
    assert "a loop over a tile runs the tile's extent" in first, first


def test_a_tile_coordinate_without_its_halo_shift_is_named_where_it_is_made(backend, tmp_path):
    """Lab 05's row_i written as row_o, without `- MASK_RADIUS`: the tile's
    top rows, which lie above the image and should hold 0, hold the image's
    rows. The ghost test held for what the load read, rightly; the first
    line names row_i's line, not the test."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "05-pitched-conv"
    src = edited(tmp_path, lab, "int row_i = row_o - MASK_RADIUS;", "int row_i = row_o;")
    line = line_of(src, "int row_i = row_o;")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    head = first.split("; after ")[0]
    assert f"its row is row_i, set at line {line} (`int row_i = row_o;`)" in head, first
    assert "look at that test" not in first, first


def test_a_tile_subscript_not_made_again_for_the_second_batch_is_named(backend, tmp_path):
    """Lab 04's second batch sets dest anew but not destY: its stores use
    the first batch's row, and two threads store to one slot. The first
    line names destY, where it was set from dest, and the line that set
    dest again, not only the stores' collision."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "04-conv-2batch"
    second = "        dest = threadIdx.y * TILE_WIDTH + threadIdx.x + TILE_WIDTH * TILE_WIDTH;\n"
    src = edited(tmp_path, lab, second + "        destY = dest / w;\n", second)
    made, again = line_of(src, "int destY = dest / w;"), line_of(src, "TILE_WIDTH * TILE_WIDTH;")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the store at line "), first
    assert f"stores with destY, set at line {made} from dest; line {again} sets dest again after that, but " \
        "nothing sets destY again before the store" in first, first


def test_a_planar_index_into_an_interleaved_image_is_named(backend, tmp_path):
    """Lab 04's first batch reading the image as planar, `I[(k * height +
    srcY) * width + srcX]`: every read stays inside the buffer, and the
    tile's slots hold other pixels' channels. The first line names the
    load's line and the interleaved layout, not only the slot."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "04-conv-2batch"
    text = kit.solution(lab).read_text()
    load = "N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];"
    assert text.count(load) == 2
    i = text.index(load)
    src = tmp_path / kit.solution(lab).name
    src.write_text(text[:i] + "N_ds[destY][destX] = I[(k * height + srcY) * width + srcX];" + text[i + len(load):])
    line = line_of(src, "I[(k * height + srcY) * width + srcX]")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"line {line} multiplies the channel, k, into the index" in first.split(": after ")[0], first
    assert "but the images are interleaved" in first, first


def test_a_tile_coordinate_that_moves_one_a_phase_says_to_scale_the_phase(backend, tmp_path):
    """Lab 03's M column made `ph + tx`: phase 1's tile starts one column
    past phase 0's. The first line names mCol's line and says to multiply
    the phase by the tile's width there, not only to look at the line: the
    repair's `stride` edit says it (`* TILE_WIDTH` after ph, as the file
    writes it in the N load), ahead of the tile's own reading, which says
    the same where no edit of the file's mends it."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "03-arbitrary-matmul"
    src = edited(tmp_path, lab, "int mCol = ph * TILE_WIDTH + tx;", "int mCol = ph + tx;")
    line = line_of(src, "int mCol = ph + tx;")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `* TILE_WIDTH` looks missing after `ph`: with it added there, all "), \
        first


def test_a_launch_passing_the_hosts_image_is_named_with_the_device_descriptor(backend, tmp_path):
    """Lab 05's launch passing `*out`, the host's image, where the file made
    d_out_img with its data set to the device buffer: the kernel's stores
    go to host memory. The first line names the launch and says to pass
    d_out_img, not only that out.data must be the device copy."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "05-pitched-conv"
    src = edited(tmp_path, lab, "<<<dimGrid, dimBlock>>>(d_in_img, d_out_img);", "<<<dimGrid, dimBlock>>>(d_in_img, *out);")
    launch, data = line_of(src, "(d_in_img, *out);"), line_of(src, "d_out_img.data = d_out;")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the launch at line {launch} (") and "passes the host's out for the kernel's out" in first, \
        first
    assert f"pass d_out_img, whose data line {data} sets to the device copy" in first, first


def test_a_block_too_small_for_two_batches_to_fill_the_tile_is_named(backend, tmp_path):
    """Lab 04 with TILE_WIDTH 9: two batches of 81 threads store 162 of the
    13 x 13 tile's 169 slots, whatever their indices. The first line says
    the block is too small for the tile, at the block's dim3 and the
    #define that sizes it, not the stores' indices."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "04-conv-2batch"
    src = edited(tmp_path, lab, "#define TILE_WIDTH 16", "#define TILE_WIDTH 9")
    define = line_of(src, "#define TILE_WIDTH 9")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "the block's 81 threads stored 162 slots of N_ds, 2 each, and it has 169 (13 x 13)" in first, first
    assert f"whose side is TILE_WIDTH, set at line {define} (`#define TILE_WIDTH 9`)" in first, first


def test_a_loop_counting_down_from_the_bound_is_named_as_such(backend, tmp_path):
    """Lab 02's partial dot product counting down, `for (int i = TILE_WIDTH;
    i > 0; i--)`: the first pass reads ds_M[ty][16], past the tile, and i = 0
    is never read. The `>` is right for a count down: the first line says
    where such a loop starts and ends, not to turn the test round or to
    start i at 0."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "02-tiled-matmul"
    src = edited(tmp_path, lab, "for (int i = 0; i < TILE_WIDTH; ++i)", "for (int i = TILE_WIDTH; i > 0; i--)")
    loop = line_of(src, "for (int i = TILE_WIDTH; i > 0; i--)")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {loop} (") and "counts i down, and its first pass reads with i = 16" in \
        first, first
    assert "runs from n - 1 to 0 (`i = n - 1; i >= 0`)" in first and "wrong way round" not in first, first


def test_a_second_barrier_moved_up_to_the_first_is_told_to_move_back(backend, tmp_path):
    """Lab 03's second __syncthreads() written right after the first, before
    the partial dot product: the next phase's loads race with this phase's
    reads. The first line says that barrier orders nothing where it stands
    and goes to the loop's end, ahead of the race."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "03-arbitrary-matmul"
    first_wait = "        //@@ TODO 5: Wait until both tiles are complete.\n        __syncthreads();\n"
    second_wait = "        //@@ TODO 7: Wait until every thread is done with the tiles.\n        __syncthreads();\n"
    text = kit.solution(lab).read_text()
    assert text.count(first_wait) == 1 and text.count(second_wait) == 1
    moved = text.replace(second_wait, second_wait.split("\n")[0] + "\n").replace(
        first_wait, first_wait + "        __syncthreads();\n")
    src = tmp_path / kit.solution(lab).name
    src.write_text(moved)
    one = line_of(src, "//@@ TODO 5:") + 1
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the __syncthreads() at line {one + 1} stands right after the one at line {one}, where "
                            "it orders nothing the other does not: move it to the loop's end; "), first


def test_a_ghost_store_without_its_else_is_named_as_such(backend, tmp_path):
    """Lab 04's first batch with the `else` before its ghost store left out:
    every thread stores 0 over the element the if just loaded. The first
    line names that store, the if before it, and the missing `else`, not
    the test that let a thread through."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "04-conv-2batch"
    load = "            N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];\n"
    src = edited(tmp_path, lab, load + "        else\n            N_ds[destY][destX] = 0.0f;\n",
                 load + "        N_ds[destY][destX] = 0.0f;\n")
    store = line_of(src, "        N_ds[destY][destX] = 0.0f;")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"].split(": ", 1)[1]
    assert first.startswith(f"the store at line {store} (`N_ds[destY][destX] = 0.0f;`) follows the if at line "
                            f"{store - 2}, which stores the same element, with no `else` before it"), first


def test_a_ghost_store_after_an_empty_else_names_the_else_s_semicolon(tmp_path):
    """Lab 04's first batch's `else` ended by a stray `;`: the ghost store
    under it is no body of the else and runs for every thread, over what
    the if loaded. The first line names the `else`, its `;`, and the store
    after it."""
    lab = "04-conv-2batch"
    load = "            N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];\n"
    src = edited(tmp_path, lab, load + "        else\n            N_ds[destY][destX] = 0.0f;\n",
                 load + "        else;\n            N_ds[destY][destX] = 0.0f;\n")
    els = line_of(src, "        else;")
    rc, rep = kit.check_json(lab, src, "emu", "--dataset", "gray-15x15", sanitize=True, expect_rc=1)
    first = rep["fix_first"].split(": ", 1)[1]
    assert first.startswith(f"the `else` at line {els} ends at its own `;`, an empty statement, so the store at "
                            f"line {els + 1} (`N_ds[destY][destX] = 0.0f;`) is not its body"), first
    assert "take out the `;` after `else`" in first, first


def test_a_tile_of_zeros_is_named_for_the_input_its_array_is_named_after(tmp_path):
    """Lab 03's ds_N all zeros on the 1 x 1 x 1 dataset (its ghost store
    after the if, with no else): its slots fit no input, and the sentence
    names N's element there, from the array's name, not M's."""
    lab = "03-arbitrary-matmul"
    load = "            ds_N[ty][tx] = N[nRow * l + Col];\n"
    src = edited(tmp_path, lab, load + "        else\n            ds_N[ty][tx] = 0.0f;\n",
                 load + "        ds_N[ty][tx] = 0.0f;\n")
    rc, rep = kit.check_json(lab, src, "emu", "--dataset", "one-1x1x1", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "ds_N[0][0] of block (0, 0) holds 0" in first, first
    assert "of N) puts N(0, 0) there" in first and "of M)" not in first, first


def test_a_repair_of_the_test_that_let_a_thread_out_leads_over_the_read(backend, tmp_path):
    """Lab 03's N load tested `nRow < l`: a thread whose row is past N's k
    rows reads past N. The finding only says the test let it through; the
    edit of that test (`k` for `l`) is the cause and leads, the read after
    it in brackets."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "03-arbitrary-matmul"
    src = edited(tmp_path, lab, "if (nRow < k && Col < l)", "if (nRow < l && Col < l)")
    line = line_of(src, "if (nRow < l && Col < l)")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `l` in `nRow < l && Col < l` (its first `l`) looks like the mistake: "
                            "with `k` there"), first
    assert f"(the test at line {line} (`if (nRow < l && Col < l)`) let this thread through, so the access at " in first, \
        first


def test_a_copy_in_after_the_launch_of_a_descriptor_is_named(backend, tmp_path):
    """Lab 05's copy of the input written after the launch, just before the
    copy back: the kernel reads d_in through d_in_img, whose data line
    sets to it, before the copy stores it. The first line names the copy
    and the launch (the descriptor carries d_in into it)."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "05-pitched-conv"
    copy_in = ("    CUDA_CHECK(cudaMemcpy2D(d_in, in_pitch_bytes, in->data, (size_t)in->pitch * sizeof(float),\n"
               "                            row_bytes, in->height, cudaMemcpyHostToDevice));\n")
    back = "    CUDA_CHECK(cudaMemcpy2D(out->data, "
    text = kit.solution(lab).read_text()
    assert text.count(copy_in) == 1 and text.count(back) == 1
    src = tmp_path / kit.solution(lab).name
    src.write_text(text.replace(copy_in, "").replace(back, copy_in + back))
    copy, launch = line_of(src, "cudaMemcpy2D(d_in, "), line_of(src, "<<<dimGrid, dimBlock>>>")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the copy at line {copy} (") and "the first call that stores into d_in" in first, first
    assert f"comes after the launch at line {launch} (" in first and "move that copy before the launch" in first, first


def test_a_mask_symbol_of_another_element_type_is_named(backend, tmp_path):
    """Lab 05's mask declared `__constant__ int Mc`: cudaMemcpyToSymbol
    copies the float mask's bytes into it, and every weight is a float's
    bits read as an int. No checker sees a fault; the first line names the
    declaration, the copy and the type to give it."""
    lab = "05-pitched-conv"
    src = edited(tmp_path, lab, "__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];",
                 "__constant__ int Mc[MASK_WIDTH][MASK_WIDTH];")
    decl, copy = line_of(src, "__constant__ int Mc"), line_of(src, "cudaMemcpyToSymbol(Mc, ")
    rc, rep = kit.check_json(lab, src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {decl} (`__constant__ int Mc[MASK_WIDTH][MASK_WIDTH];`) declares Mc of `int`, but "
                            f"the cudaMemcpyToSymbol at line {copy} copies mask into it"), first
    assert "declare Mc of `float`" in first, first


def test_a_loop_that_held_its_counter_inside_its_bound_blames_the_index(backend, tmp_path):
    """Lab 01's M read as `M[(Row + k) * Width]`: the dot product's loop
    keeps k below Width, yet the read goes past M's end. The first line
    names the index as what is wrong, not the loop's test that let the
    thread through: the repair's `grouping` edit, `(Row) * Width + k`, at
    the read's line (ahead of the guard reading that the loop held k inside
    its bound, which says so where no edit mends the index)."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "01-basic-matmul"
    src = edited(tmp_path, lab, "M[Row * Width + k]", "M[(Row + k) * Width]")
    loop, read = line_of(src, "for (int k = 0; k < Width; ++k)"), line_of(src, "M[(Row + k) * Width]")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {read}: `(Row + k) * Width` in `") and "with `(Row) * Width + k` there" in first, \
        first
    assert f"line {loop}" not in first, first


def test_a_load_whose_index_has_no_term_for_the_tiles_column_is_named(backend, tmp_path):
    """Lab 03's N load without its column's thread term, `N[nRow * l + bx *
    TILE_WIDTH]`: every column of the tile holds the same column of N. The
    first line names the load and the term it lacks, not only the slot."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "03-arbitrary-matmul"
    src = edited(tmp_path, lab, "ds_N[ty][tx] = N[nRow * l + Col];", "ds_N[ty][tx] = N[nRow * l + bx * TILE_WIDTH];")
    line = line_of(src, "N[nRow * l + bx * TILE_WIDTH]")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"].split(": ", 1)[1]
    assert first.startswith(f"the load at line {line} (") and "into every column of the tile" in first, first
    assert "its index has no term that varies with the tile's column" in first, first


def test_a_conditional_that_took_the_whole_sum_as_its_condition_is_named(backend, tmp_path):
    """Lab 03's phase count written `k / TILE_WIDTH + k % TILE_WIDTH > 0 ? 1
    : 0`: `?:` binds looser than `+`, so numPhases is 1 or 0. The first
    line says how C reads it and where the parentheses go."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "03-arbitrary-matmul"
    src = edited(tmp_path, lab, "    numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;",
                 "    numPhases = k / TILE_WIDTH + k % TILE_WIDTH > 0 ? 1 : 0;")
    line = line_of(src, "numPhases = k / TILE_WIDTH + k % TILE_WIDTH > 0 ? 1 : 0;")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "which C reads as `(k / TILE_WIDTH + k % TILE_WIDTH > 0) ?...`" in first, \
        first
    assert "put the conditional in parentheses: `k / TILE_WIDTH + (k % TILE_WIDTH > 0 ? 1 : 0)`" in first, first


def test_a_store_test_with_its_two_bounds_swapped_says_both(backend, tmp_path):
    """Lab 05's store test bounds the row by the width and the column by the
    height: the columns past the height are never stored. The first line
    names the column's clause by the data, and the other clause that holds
    the width: the two are swapped, and both comparisons to write."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "05-pitched-conv"
    src = edited(tmp_path, lab, "if (row_o < out.height && col_o < out.width)",
                 "if (row_o < out.width && col_o < out.height)")
    line = line_of(src, "if (row_o < out.width && col_o < out.height)")
    rc, rep = kit.check_json(lab, src, backend, "--dataset", "rgb-5x7", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} "), first
    assert "bounds col_o by out.height" in first, first
    assert "the two bounds are swapped (write `row_o < out.height` and `col_o < out.width`)" in first, first
    # the write past the output's rows that the swapped test let through
    # says the same (on a GPU, where the run does not fault, it leads)
    found = [f["message"] for d in rep["datasets"] for f in (d.get("sanitizer") or {}).get("findings", [])]
    assert any("bounds col_o by out.height and row_o by out.width: the two bounds are swapped" in m for m in found), \
        found


def test_a_ghost_test_without_a_lower_bound_on_one_name_says_the_bound_to_add(backend, tmp_path):
    """Lab 04's first batch tests srcY from both sides and srcX only from
    above: a halo column of the left blocks (srcX -2) reads before the
    start of the image. The test held on each clause it has; the first line
    names the bound it leaves out, not the index's stride."""
    lab = "04-conv-2batch"
    src = edited(tmp_path, lab, "\n        if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)",
                 "\n        if (srcY >= 0 && srcY < height && srcX < width)")
    line = line_of(src, "if (srcY >= 0 && srcY < height && srcX < width)")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} "), first
    assert "bounds srcX only from above (`srcX < width`)" in first, first
    assert "(as `srcY >= 0` does for srcY): add `srcX >= 0` to the test" in first, first


def test_a_bounds_test_joined_by_or_leads_with_the_or(backend, tmp_path):
    """Lab 03's N-tile test joined by `||`: on 1 x 1 x 1 a thread whose
    column is past N's only one passes on its row's clause and reads past
    N. The first line starts at that test and its `||`, not at the phase
    loop the thread also passed."""
    lab = "03-arbitrary-matmul"
    src = edited(tmp_path, lab, "if (nRow < k && Col < l)", "if (nRow < k || Col < l)")
    line = line_of(src, "if (nRow < k || Col < l)")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (`if (nRow < k || Col < l)`) joins its bounds with `||`"), first
    assert "join them with `&&`" in first and "the whole array's" not in first, first


def test_a_tile_row_no_test_bounds_is_named_with_the_test_to_add(backend, tmp_path):
    """Lab 04's second batch guarded by `srcY < height` where `destY < w`
    belongs: the threads with no slot left write past N_ds. No test around
    the store has destY; the first line says so, with the tile's rows and
    the if (and its else) to put under `if (destY < w)`, not that the tile
    is too small."""
    lab = "04-conv-2batch"
    src = edited(tmp_path, lab, "if (destY < w) {", "if (srcY < height) {")
    test = line_of(src, "            if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("no test around the access at line ") and "has destY, its row in N_ds" in first, first
    assert f"put the if at line {test} (" in first and "with its else, under `if (destY < w)`" in first, first
    assert "too small" not in first, first


def test_the_output_read_as_a_factor_is_said_as_an_input_taken_for_it(backend, tmp_path):
    """Lab 01's dot product reads P where M belongs, `P[Row * Width + k] *
    N[...]`: the output, which nothing stored, multiplied in, and M, an
    input, read nowhere. The first line names M as the input that belongs
    there, not that the sum should start from 0 (a product of 0 is no
    better)."""
    lab = "01-basic-matmul"
    src = edited(tmp_path, lab, "M[Row * Width + k] * N[k * Width + Col]", "P[Row * Width + k] * N[k * Width + Col]")
    line = line_of(src, "P[Row * Width + k] * N[k * Width + Col]")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"at line {line} (" in first and "reads P, the output it stores at line " in first, first
    assert "where an input belongs: the kernel never reads M" in first and "write M there" in first, first
    assert "start from 0" not in first, first


def test_a_loop_header_that_steps_the_outer_counter_says_to_step_its_own(backend, tmp_path):
    """Lab 04's inner mask loop steps i, the outer loop's counter, in its
    header (`for (int j = 0; j < MASK_WIDTH; i++)`): j never changes and
    the loop does not end by its own test. The first line names the header
    and says to step j there, not to take a `++` out of a body."""
    lab = "04-conv-2batch"
    src = edited(tmp_path, lab, "for (int j = 0; j < MASK_WIDTH; j++)", "for (int j = 0; j < MASK_WIDTH; i++)")
    line = line_of(src, "for (int j = 0; j < MASK_WIDTH; i++)")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {line} (`for (int j = 0; j < MASK_WIDTH; i++)`) steps i"), first
    assert "and not its own counter j: j never changes" in first and first.endswith("step j there (`++j`)"), first


def test_a_window_read_without_the_mask_row_offset_is_named_by_the_numbers(backend, tmp_path):
    """Lab 05's weighted sum reads the tile at row ty for every mask row
    (`N_ds[ty][tx + j]`, the `+ i` left out): each output is the window's
    top row weighted by the mask's column sums. No checker sees it; the
    numbers match that reading exactly, and the first line says the row
    index leaves out the mask's row index, at the sum's line."""
    lab = "05-pitched-conv"
    src = edited(tmp_path, lab, "N_ds[ty + i][tx + j]", "N_ds[ty][tx + j]")
    line = line_of(src, "N_ds[ty][tx + j]")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "exactly what you get if the input is read at row y - 2, the same for every row of the mask" in first, first
    assert "the input's row index leaves out the mask's row index (`+ i`)" in first and f"at line {line} (" in first, \
        first


def test_a_block_past_the_kernel_s_launch_bounds_names_the_bound(backend, tmp_path):
    """Lab 01's kernel declared `__launch_bounds__(MAX_THREADS)` with
    MAX_THREADS 64, launched with 16 x 16 blocks: a GPU refuses the launch
    (within the hardware's 1024, past the kernel's own bound). The first
    line names the bound's line and both numbers, not the launch alone."""
    lab = "01-basic-matmul"
    src = edited(tmp_path, lab, "__global__ void MatrixMulKernel(",
                 "#define MAX_THREADS 64\n__global__ void __launch_bounds__(MAX_THREADS) MatrixMulKernel(")
    line = line_of(src, "__launch_bounds__(MAX_THREADS)")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "gives MatrixMulKernel `__launch_bounds__(64)`" in first, first
    assert "blocks of 16 x 16 = 256 threads" in first and "make the bound at least the block's 256 threads" in first, \
        first


def test_a_shared_array_sized_by_a_parameter_says_it_needs_a_constant(backend, tmp_path):
    """Lab 03's ds_M declared `[TILE_WIDTH][k]`, k a kernel parameter: the
    file does not compile (g++ and nvcc both refuse a __shared__ array of a
    run-time size). After the compiler's error, the first line says why
    and what to size it with."""
    lab = "03-arbitrary-matmul"
    src = edited(tmp_path, lab, "__shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];", "__shared__ float ds_M[TILE_WIDTH][k];")
    line = line_of(src, "__shared__ float ds_M[TILE_WIDTH][k];")
    rc, rep = kit.check_json(lab, src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert f"line {line} (`__shared__ float ds_M[TILE_WIDTH][k];`) sizes a __shared__ array with a value the kernel " \
           "gets at run time" in first, first
    assert "size it with a constant (a #define, as the tile's width)" in first, first


def test_a_buffer_allocated_after_the_launch_is_named_at_its_allocation(backend, tmp_path):
    """Lab 01's d_P allocated between the launch and its check: the kernel
    stores through d_P while it is still NULL. The emulator's fault says
    null pointer; the first line names the launch that passes d_P and the
    cudaMalloc after it, to move before the launch."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "01-basic-matmul"
    alloc = "    CUDA_CHECK(cudaMalloc((void **)&d_P, bytes));\n"
    check = "    CUDA_CHECK(cudaGetLastError());\n"
    sol = kit.solution(lab)
    text = sol.read_text()
    assert text.count(alloc) == 1 and text.count(check) == 1
    src = tmp_path / sol.name
    src.write_text(text.replace(alloc, "").replace(check, alloc + check))
    malloc = line_of(src, "cudaMalloc((void **)&d_P, bytes)")
    launch = line_of(src, "MatrixMulKernel<<<")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the launch at line {launch} passes d_P, but line {malloc} (") and \
        "allocates d_P only after it" in first and "move that cudaMalloc before the launch" in first, first


def test_a_bounds_test_copied_from_the_other_load_says_so(backend, tmp_path):
    """Lab 03's M load guarded by the N load's test, `if (nRow < k && Col <
    l)` twice: the M read at Row and mCol is bounded by names it does not
    read. The first line names the test as the other one, copied, not one
    missing clause."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "03-arbitrary-matmul"
    src = edited(tmp_path, lab, "if (Row < j && mCol < k)", "if (nRow < k && Col < l)")
    lines = [i + 1 for i, l in enumerate(src.read_text().splitlines()) if "if (nRow < k && Col < l)" in l]
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {lines[0]} (") and f"is the test at line {lines[1]} (" in first, first
    assert "it bounds nRow and Col, which the access at line " in first and "a test copied" in first, first


def test_a_kernel_argument_whose_member_was_never_set_is_traced_to_its_initialiser(backend, tmp_path):
    """The output's descriptor starts as {0} and only its data and pitch are
    set: the kernel's out.height is 0, its store test is false for every
    thread and nothing of the output is stored. The first line starts at
    the initialiser's line, with the test it made false."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    lab = "05-pitched-conv"
    text = (kit.ROOT / "solutions" / lab / "pitched_conv.cu").read_text()
    decl = "Image_t d_in_img = *in, d_out_img = *out;"
    assert text.count(decl) == 1
    src = tmp_path / "pitched_conv.cu"
    src.write_text(text.replace(decl, "Image_t d_in_img = *in, d_out_img = {0};"))
    line = line_of(src, "d_out_img = {0};")
    test = line_of(src, "if (row_o < out.height && col_o < out.width)")
    rc, rep = kit.check_json(lab, src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} starts d_out_img as `{{0}}`, so the kernel's out.height is 0"), first
    assert f"the test at line {test} " in first and "no element of the output is ever stored" in first, first


# ---- newcomer set T's kinds, each in a file of our own -----------------------------


def edited(tmp_path, lab, old, new, count=1):
    sol = kit.solution(lab)
    text = sol.read_text()
    assert text.count(old) == count, old
    src = tmp_path / sol.name
    src.write_text(text.replace(old, new))
    return src


def test_a_local_array_hiding_the_constant_mask_is_named(backend, tmp_path):
    """A local `float Mc[...]` in the host function hides the __constant__
    Mc: cudaMemcpyToSymbol gets the stack array, which a GPU's runtime
    refuses (cudaErrorInvalidSymbol) and the emulator refuses as it does;
    the first line names the local declaration and the one it hides."""
    copy = "    CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));"
    src = edited(tmp_path, "05-pitched-conv", copy, "    float Mc[MASK_WIDTH][MASK_WIDTH];\n" + copy)
    local, glob = line_of(src, "    float Mc[MASK_WIDTH][MASK_WIDTH];"), line_of(src, "__constant__ float Mc")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, "--dataset", "rgb-5x7", expect_rc=1)
    assert kit.statuses(rep) == {"rgb-5x7": "cuda_error"}, kit.statuses(rep)
    first = rep["fix_first"]
    assert first.startswith(f"line {local} ") and f"declares a local Mc, which hides" in first, first
    assert f"Mc of line {glob}" in first and "delete the local declaration" in first, first


def test_a_kernel_parameter_made_a_loop_counter_is_named(backend, tmp_path):
    """Lab 03's dot product counts with j, the kernel's row count: after the
    first phase j holds TILE_WIDTH, and the next phase's load test reads
    that. The first line names the loop and the parameter."""
    src = edited(tmp_path, "03-arbitrary-matmul",
                 "        for (int i = 0; i < TILE_WIDTH; ++i)\n            Pvalue += ds_M[ty][i] * ds_N[i][tx];",
                 "        for (j = 0; j < TILE_WIDTH; ++j)\n            Pvalue += ds_M[ty][j] * ds_N[j][tx];")
    loop = line_of(src, "for (j = 0; j < TILE_WIDTH; ++j)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {loop} "), first
    assert "counts with j, a parameter of the kernel" in first and "a variable of its own" in first, first


def test_a_block_too_large_by_a_dimension_the_kernel_never_reads_names_that_dimension(backend, tmp_path):
    """Lab 01's block given 8 threads in z, which the kernel never reads:
    16 x 16 x 8 = 2048 threads, a launch the runtime refuses. The first
    line names the block's z, not BLOCK_WIDTH (16 x 16 is within the
    limit): the dimension to leave out."""
    src = edited(tmp_path, "01-basic-matmul", "dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH);",
                 "dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 8);")
    block = line_of(src, "dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 8);")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, "--dataset", "width-0033", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the block at line {block} (`dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 8);`) has 8 threads "
                            "in z, and kernel MatrixMulKernel never reads threadIdx.z"), first
    assert "16 x 16 x 8 = 2048 threads" in first and "give the block 1 thread in z" in first, first
    assert "smaller" not in first, first


def test_a_block_too_large_is_traced_to_its_define(backend, tmp_path):
    """Lab 02 with TILE_WIDTH 64: blocks of 4096 threads, a launch the
    runtime refuses. The first line starts at the #define that chose 64,
    names the block's declaration and the limit, and offers no edit of the
    launch."""
    src = edited(tmp_path, "02-tiled-matmul", "#define TILE_WIDTH 16", "#define TILE_WIDTH 64")
    define = line_of(src, "#define TILE_WIDTH 64")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, "--dataset", "width-0128", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {define} (`#define TILE_WIDTH 64`) makes TILE_WIDTH 64"), first
    assert "64 x 64 = 4096 threads: at most 1024 a block" in first and "make TILE_WIDTH smaller" in first, first
    assert "looks like the mistake" not in first, first


def test_a_tile_holding_another_channels_pixels_is_wrong(backend, tmp_path):
    """Lab 05's load without its channel offset: every channel's tile holds
    channel 0's pixels. Each slot holds what the tiling puts there in some
    channel, so only the tile's own phase tells it wrong: the first line
    names the slot, the channel it holds and the load."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "05-pitched-conv", "in.data[row_i * in.pitch + col_i * in.channels + k]",
                 "in.data[row_i * in.pitch + col_i * in.channels]")
    load = line_of(src, "in.data[row_i * in.pitch + col_i * in.channels];")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "of channel 0, but the channel-1 tile" in first and f"the load at line {load}" in first, first


def test_a_loop_bound_only_one_thread_sets_is_named(backend, tmp_path):
    """Lab 02's phase count kept in a local that only the threads with
    threadIdx.x == 0 set: the others keep 0, skip the phase loop and its
    barriers. The first line names the variable, the test that leaves the
    other threads out and the loop, and offers no edit of the loop."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    loop = "    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {\n"
    src = edited(tmp_path, "02-tiled-matmul", loop,
                 "    int phases = 0;\n    if (threadIdx.x == 0)\n        phases = Width / TILE_WIDTH;\n"
                 "    for (int ph = 0; ph < phases; ++ph) {\n")
    test, at = line_of(src, "if (threadIdx.x == 0)"), line_of(src, "for (int ph = 0; ph < phases; ++ph)")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("phases is each thread's own variable, and only the threads that pass the test at "
                            f"line {test} "), first
    assert f"set it (line {test + 1})" in first and f"the loop at line {at} runs a different number" in first, first
    assert "looks like the mistake" not in first, first


@pytest.mark.gpu
def test_a_gpu_run_that_hangs_at_a_barrier_names_the_barrier(tmp_path):
    """Held-out P/04-e2 (counted in its set): a __syncthreads() inside the
    second batch's if. On an H200 every block waits there for ever and the
    datasets run out of time, so no dataset ran to its end for the checkers
    to look at; the emulator's checked run of the smallest one, with a
    short limit, ends at once at that barrier, and the first line names it
    as the emulator's own run does."""
    path = kit.ROOT / "grader" / "tests" / "data" / "held-out-2026-11-28" / "setP" / \
        "04-e2-barrier-inside-second-batch.cu"
    _, rep = kit.check_json("04-conv-2batch", path, "gpu", sanitize=True)
    statuses = set(kit.statuses(rep).values())
    if "timeout" not in statuses:
        pytest.skip(f"this GPU did not hang on it ({sorted(statuses)}): nothing ran out of time")
    first = rep["fix_first"]
    assert first.startswith("the __syncthreads() at line 63"), first
    assert "inside the test at line 58" in first, first


@pytest.mark.gpu
def test_nvccs_refusal_of_a_device_kernel_names_its_declaration(tmp_path):
    """nvcc refuses a launch of a __device__ function at the launch's line;
    the first line adds the declaration that is the cause."""
    src = edited(tmp_path, "02-tiled-matmul", "__global__ void MatrixMulKernel", "__device__ void MatrixMulKernel")
    decl = line_of(src, "__device__ void MatrixMulKernel")
    rc, rep = kit.check_json("02-tiled-matmul", src, "gpu", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: ") and "error" in first, first
    assert f"line {decl} (`__device__ void MatrixMulKernel" in first, first
    assert "declares MatrixMulKernel __device__, not __global__" in first, first


# ---- newcomer set U's kinds, each in a file of our own -----------------------------


def test_a_chained_comparison_is_named_with_how_c_reads_it(backend, tmp_path):
    """`0 <= Row < Width`, as in mathematics: C compares (0 <= Row), a 0 or
    a 1, with Width. The first line names the clause and how to write it."""
    src = edited(tmp_path, "01-basic-matmul", "if (Row < Width && Col < Width) {",
                 "if (0 <= Row < Width && Col < Width) {")
    line = line_of(src, "if (0 <= Row < Width && Col < Width) {")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} "), first
    assert "chains two comparisons, `0 <= Row < Width`" in first and "write `0 <= Row && Row < Width`" in first, first


def test_a_define_ending_in_a_semicolon_is_named_after_the_compilers_error(backend, tmp_path):
    src = edited(tmp_path, "02-tiled-matmul", "#define TILE_WIDTH 16", "#define TILE_WIDTH 16;")
    line = line_of(src, "#define TILE_WIDTH 16;")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: "), first
    assert f"the #define at line {line} (`#define TILE_WIDTH 16;`) ends with `;`" in first, first


def test_a_float_used_as_an_index_is_named_at_its_declaration(backend, tmp_path):
    """`float Row`: the compiler's error is at the first subscript that uses
    Row (g++: "invalid types 'const float*[float]'", nvcc: "must have
    integral or unscoped enum type"); the first line names the declaration
    and the type to give it."""
    src = edited(tmp_path, "02-tiled-matmul", "    int Row = by * TILE_WIDTH + ty;",
                 "    float Row = by * TILE_WIDTH + ty;")
    decl = line_of(src, "float Row = by * TILE_WIDTH + ty;")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: ") and "error" in first, first
    assert f"line {decl} declares `float Row`, and line " in first and "declare it `int Row`" in first, first


def test_a_copy_width_made_wrong_where_it_is_declared_is_named_there(backend, tmp_path):
    """row_bytes without the channels: both copies' widths leave part of
    each row out. The first line names the copy the run's record shows, and
    the declaration that made its width, which the other copy takes too."""
    src = edited(tmp_path, "05-pitched-conv", "size_t row_bytes = (size_t)in->width * in->channels * sizeof(float);",
                 "size_t row_bytes = (size_t)in->width * sizeof(float);")
    decl = line_of(src, "size_t row_bytes = ")
    back = line_of(src, "CUDA_CHECK(cudaMemcpy2D(out->data")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "so the copy leaves part of each row out" in first, first
    assert f"that width is row_bytes, set at line {decl} (" in first, first
    assert f"which the cudaMemcpy2D at line {back} takes as its width too: fix it at line {decl}" in first, first


def test_a_barrier_under_an_if_is_named_for_the_race_it_lets_through(backend, tmp_path):
    """The barrier after the loads written `if (ph > 0) __syncthreads();`:
    in phase 0 nothing keeps the dot product's reads after the other
    threads' loads. The race's sentence names the if that guards the
    barrier, not a barrier missing at the end of the loop (there is one)."""
    src = edited(tmp_path, "02-tiled-matmul", "        __syncthreads();\n        //@@ end\n\n        //@@ TODO 5",
                 "        if (ph > 0) __syncthreads();\n        //@@ end\n\n        //@@ TODO 5")
    line = line_of(src, "if (ph > 0) __syncthreads();")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"the __syncthreads() between them, at line {line}, is under the test at line {line} (" in first, first
    assert "call __syncthreads() for every thread, outside the if" in first, first
    assert "add a __syncthreads() at the end of the loop" not in first, first


def test_a_grid_with_whole_blocks_past_the_output_is_named(backend, tmp_path):
    """Lab 02's grid given one block more each way than the output's tiles:
    its kernel, written for whole tiles, reads and writes past the arrays'
    ends in those blocks. The first line names the grid's line and the
    blocks it should have, not the loads where the reads went past."""
    src = edited(tmp_path, "02-tiled-matmul", "dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);",
                 "dim3 dimGrid(width / TILE_WIDTH + 1, width / TILE_WIDTH + 1);")
    line = line_of(src, "dim3 dimGrid(width / TILE_WIDTH + 1")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the grid at line {line} (") and " blocks where 2 x 2 cover the 32 x 32 output" in first, first
    assert "count the blocks as the output's tiles" in first, first


def test_a_block_smaller_than_the_tiles_on_some_datasets_is_named_where_it_is_made(backend, tmp_path):
    """Lab 03's block shrunk to the matrix for small sizes (`j < TILE_WIDTH
    ? j : TILE_WIDTH`): on the datasets under a tile the block is smaller
    than the tiles, and the slots no thread exists to load stay NaN. The
    first line names that dataset's block against the tiles and the line
    that makes the block."""
    src = edited(tmp_path, "03-arbitrary-matmul", "dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);",
                 "dim3 dimBlock(l < TILE_WIDTH ? l : TILE_WIDTH, j < TILE_WIDTH ? j : TILE_WIDTH);")
    line = line_of(src, "dim3 dimBlock(l < TILE_WIDTH")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "keeps two tiles of 16 x 16 floats in shared memory" in first and "but runs in blocks of" in first, first
    assert f"the block is made at line {line} (" in first, first


def test_a_pointer_to_the_wrong_type_is_named_at_the_declaration(backend, tmp_path):
    """The pitches declared `unsigned int`: cudaMallocPitch's `&in_pitch_bytes`
    is refused where a `size_t *` belongs (g++: "cannot convert", nvcc:
    "incompatible with parameter of type"); the first line names the
    declaration and the type to give it."""
    src = edited(tmp_path, "05-pitched-conv", "size_t in_pitch_bytes = 0, out_pitch_bytes = 0;",
                 "unsigned int in_pitch_bytes = 0, out_pitch_bytes = 0;")
    decl = line_of(src, "unsigned int in_pitch_bytes = 0")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: "), first
    assert f"line {decl} declares `unsigned int in_pitch_bytes`, and line {decl + 1} passes &in_pitch_bytes" in first, first
    assert "declare it `size_t in_pitch_bytes`" in first, first


def test_a_maths_call_whose_value_goes_nowhere_is_named(backend, tmp_path):
    """`fmaf(M[..], N[..], Pvalue);` as if it added into Pvalue: the value it
    returns is thrown away and P is all zeros. The first line names the
    call's line and says to assign its value."""
    src = edited(tmp_path, "01-basic-matmul", "Pvalue += M[Row * Width + k] * N[k * Width + Col];",
                 "fmaf(M[Row * Width + k], N[k * Width + Col], Pvalue);")
    line = line_of(src, "fmaf(M[Row * Width + k]")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`fmaf(") and "calls fmaf and throws away what it returns" in first, first


def test_a_tile_element_from_the_wrong_column_names_where_the_column_is_made(backend, tmp_path):
    """Lab 04's first batch takes its source column from threadIdx.x, not
    the tile column destX it stores into: the slots hold pixels of the
    wrong columns. The first line names the local the load's column comes
    from and the line that sets it, not only the load."""
    src = edited(tmp_path, "04-conv-2batch", "int srcX = blockIdx.x * TILE_WIDTH + destX - MASK_RADIUS;",
                 "int srcX = blockIdx.x * TILE_WIDTH + threadIdx.x - MASK_RADIUS;")
    line = line_of(src, "int srcX = blockIdx.x * TILE_WIDTH + threadIdx.x")
    rc, rep = kit.check_json("04-conv-2batch", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    # the slot holds a pixel of the wrong column, or the else's 0 where the
    # test compared that wrong column with the image's width
    assert (f"its column is srcX, set at line {line} (" in first or
            f"srcX, the column of the load at line {line + 2}, is set at line {line} (" in first), first
    # the second batch sets srcX the same way but with destX: that word is the fix
    assert "sets srcX the same way but with `destX` where this line has `threadIdx.x`: write `destX` there" in first, \
        first


def test_a_loop_counter_too_narrow_for_its_bound_is_named(tmp_path):
    """`for (signed char k = 0; k < Width; ++k)`: k wraps at 127, so width
    257 never ends the loop. The timeout's line names the counter's type
    and the loop's line (the emulator knows where the thread was)."""
    src = edited(tmp_path, "01-basic-matmul", "for (int k = 0; k < Width; ++k)", "for (signed char k = 0; k < Width; ++k)")
    line = line_of(src, "for (signed char k = 0;")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", "--dataset", "width-0257", "--timeout", "4", expect_rc=1)
    first = rep["fix_first"]
    assert f"the loop at line {line} counts with k, declared `signed char`, which holds at most 127" in first, first
    assert "declare k an int" in first, first


def test_a_read_in_a_pitched_buffers_padding_is_said_as_the_wrong_row_stride(tmp_path):
    """Lab 05's load indexes the device image as if packed, `(row_i *
    in.width + col_i) * in.channels + k`: rows past the first are read
    from the pitched buffer's padding, which no copy stores. The
    emulator's checked run knows the buffer's pitch and row width, and the
    first line says the rows are stepped by another stride than the pitch."""
    src = edited(tmp_path, "05-pitched-conv", "in.data[row_i * in.pitch + col_i * in.channels + k]",
                 "in.data[(row_i * in.width + col_i) * in.channels + k]")
    line = line_of(src, "in.data[(row_i * in.width + col_i) * in.channels + k]")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"is read at line {line} (" in first and "in the padding after its row" in first, first
    assert "step the rows by the pitch" in first, first


def test_a_second_batch_that_starts_inside_the_first_is_named_at_its_offset(tmp_path):
    """Lab 04's second batch offset by 8 rows of the block instead of the
    whole block: each thread's second element is the first element of the
    thread 8 rows down, so the batches' stores race. The first line names
    the second batch's dest, by how much it is ahead of the first's, not
    the first batch's lines."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "04-conv-2batch", "dest = threadIdx.y * TILE_WIDTH + threadIdx.x + TILE_WIDTH * TILE_WIDTH;",
                 "dest = threadIdx.y * TILE_WIDTH + threadIdx.x + 8 * TILE_WIDTH;")
    line = line_of(src, "dest = threadIdx.y * TILE_WIDTH + threadIdx.x + 8 * TILE_WIDTH;")
    first_line = line_of(src, "int dest = threadIdx.y * TILE_WIDTH + threadIdx.x;")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", "--dataset", "gray-15x15", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`dest = threadIdx.y * TILE_WIDTH + threadIdx.x + 8 * TILE_WIDTH;`) "
                            f"makes dest 128 more than line {first_line} "), first
    assert "so the second batch starts inside the first" in first, first


def test_a_first_batch_that_does_not_start_at_the_tiles_first_slot_is_named(tmp_path):
    """Lab 04's first batch offset by 3: the second batch is right, but each
    thread's first element runs 3 slots on, into the second batch, and
    slots 0 to 2 are stored by no one. The first line names the first
    batch's dest, by its value for thread (0,0,0), not the second batch's."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "04-conv-2batch", "int dest = threadIdx.y * TILE_WIDTH + threadIdx.x;",
                 "int dest = threadIdx.y * TILE_WIDTH + threadIdx.x + 3;")
    line = line_of(src, "int dest = threadIdx.y * TILE_WIDTH + threadIdx.x + 3;")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", "--dataset", "gray-15x15", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`int dest = threadIdx.y * TILE_WIDTH + threadIdx.x + 3;`) makes dest 3 "
                            "for thread (0,0,0), where the tile's first slot, 0, belongs: the first batch starts 3 "
                            "slots into the tile"), first
    assert "the second batch starts inside" not in first, first


def test_a_ghost_test_without_a_lower_bound_is_named_for_the_pixel_it_loads(tmp_path):
    """Lab 04's first batch's ghost-cell test without `srcX >= 0`: in the
    left column of blocks the halo's columns -2 and -1 load the end of the
    row above (inside the image's memory, so no access is out of bounds)
    where the tile wants 0. The first line names the test and the bound it
    leaves out, from the value the thread compared, not the load."""
    src = edited(tmp_path, "04-conv-2batch", "\n        if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)",
                 "\n        if (srcY >= 0 && srcY < height && srcX < width)")
    line = line_of(src, "        if (srcY >= 0 && srcY < height && srcX < width)")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", "--dataset", "gray-15x15", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"the test at line {line} (`if (srcY >= 0 && srcY < height && srcX < width)`) bounds srcX only from " \
           "above (`srcX < width`), and srcX is -" in first, first
    assert "(as `srcY >= 0` does for srcY)" in first and "add `srcX >= 0` to the test" in first, first


def test_a_mask_subscript_that_adds_to_its_loop_counter_is_named_not_the_loop(tmp_path):
    """Lab 05's mask read as `Mc[i][j + tx]`: the loop keeps j inside the
    mask's MASK_WIDTH columns, and the thread's column added to it reads
    past Mc. The checked run sees the read past the end with the loop's
    test held; the first line names the subscript, not the loop's bound."""
    src = edited(tmp_path, "05-pitched-conv", "acc += Mc[i][j] * N_ds[ty + i][tx + j];",
                 "acc += Mc[i][j + tx] * N_ds[ty + i][tx + j];")
    line = line_of(src, "acc += Mc[i][j + tx] * N_ds[ty + i][tx + j];")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", "--dataset", "gray-16x16", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "keeps j inside Mc's MASK_WIDTH columns (j = " in first, first
    assert f"but the access at line {line} (" in first and "indexes them with `j + tx`" in first, first
    assert "index Mc's columns with j alone" in first, first


def test_a_tile_declared_narrower_than_its_column_reaches_is_named_at_its_declaration(tmp_path):
    """Lab 02's ds_N declared with rows of TILE_WIDTH - 1: the store at
    [ty][tx] gives tx = 15 a slot past its row's end, the next row's first,
    which another thread stores too. The race finding names the
    declaration and the columns it needs, not how ty and tx are made."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "02-tiled-matmul", "__shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];",
                 "__shared__ float ds_N[TILE_WIDTH][TILE_WIDTH - 1];")
    decl = line_of(src, "__shared__ float ds_N[TILE_WIDTH][TILE_WIDTH - 1];")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", "--dataset", "width-0064", sanitize=True, expect_rc=1)
    races = [f["message"] for d in rep["datasets"] for f in ((d.get("sanitizer") or {}).get("findings") or [])
             if f["kind"] == "race"]
    assert races, rep["fix_first"]
    said = [m for m in races if m.startswith(f"ds_N's rows are 15 long (declared at line {decl} (")]
    assert said, races
    # as wide as the block's threads reach, not one past the thread the race saw
    assert "declare ds_N as wide as its column subscript reaches for every thread of the block (more than 15 " \
        "columns" in said[0], said[0]


def test_a_tile_s_row_length_from_the_lab_header_is_read_for_the_narrow_tile(tmp_path):
    """Lab 05's N_ds declared with rows of BLOCK_WIDTH - 2, BLOCK_WIDTH being
    a sum with lab.h's MASK_WIDTH: the declaration's value needs the lab's
    header, and the race finding names the declaration with it."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "05-pitched-conv", "__shared__ float N_ds[BLOCK_WIDTH][BLOCK_WIDTH];",
                 "__shared__ float N_ds[BLOCK_WIDTH][BLOCK_WIDTH - 2];")
    decl = line_of(src, "__shared__ float N_ds[BLOCK_WIDTH][BLOCK_WIDTH - 2];")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", "--dataset", "gray-16x16", sanitize=True, expect_rc=1)
    races = [f["message"] for d in rep["datasets"] for f in ((d.get("sanitizer") or {}).get("findings") or [])
             if f["kind"] == "race"]
    assert any(m.startswith(f"N_ds's rows are 14 long (declared at line {decl} (") for m in races), races


@pytest.mark.parametrize("old, new, said", [
    # the column by another width: elements 5 apart land in one slot
    ("int destX = dest % w;", "int destX = dest % MASK_WIDTH;",
     "takes the remainder of the flat index by MASK_WIDTH, where line {other} (`int destY = dest / w;`) divides it "
     "by w"),
    # the row by another width: the row wraps a slot early, onto the next row's
    ("int destY = dest / w;", "int destY = dest / (w + 1);",
     "divides the flat index by (w + 1), where line {other} (`int destX = dest % w;`) takes the remainder of it by w"),
])
def test_a_flat_index_split_by_two_widths_names_the_one_the_tile_is_not(tmp_path, old, new, said):
    """Lab 04's first batch's flat index split by two widths, one of them
    the tile's declared row length: two threads' elements land in one
    slot, and the store races with itself. The first line names the line
    whose width is not the tile's, and the width to write."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "04-conv-2batch", old, new)
    line = line_of(src, new)
    other = line + 1 if "destY" in new else line - 1
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", "--dataset", "gray-15x15", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`{new}`) " + said.format(other=other)), first
    assert "write w there" in first, first


def test_a_mask_loop_run_to_the_tile_s_width_names_the_loop_s_bound(tmp_path):
    """Lab 05's inner mask loop run to BLOCK_WIDTH, the tile's width, not
    MASK_WIDTH: the loop keeps j inside N_ds's columns, but Mc, which j
    indexes alone, has MASK_WIDTH of them. The first line names the loop's
    bound and the mask's extent, not N_ds's subscript."""
    src = edited(tmp_path, "05-pitched-conv", "for (int j = 0; j < MASK_WIDTH; j++)",
                 "for (int j = 0; j < BLOCK_WIDTH; j++)")
    line = line_of(src, "for (int j = 0; j < BLOCK_WIDTH; j++)")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", "--dataset", "gray-16x16", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {line} (`for (int j = 0; j < BLOCK_WIDTH; j++)`) runs j up to "
                            "BLOCK_WIDTH"), first
    assert "indexes Mc with j alone, whose MASK_WIDTH columns" in first, first
    assert "runs its extent, MASK_WIDTH, not BLOCK_WIDTH" in first, first
    assert "with j alone:" not in first and "index N_ds" not in first, first


def test_two_stores_of_a_tile_into_one_slot_are_said_as_colliding_indices(tmp_path):
    """Lab 04's first batch's tile row wrapped at 8, `(dest / w) % 8`: two
    threads of the batch compute the same slot, so its store races with
    itself. The race finding says the indices collide, with the line that
    makes them, not that a barrier is missing (none between stores of one
    tile mends it)."""
    src = edited(tmp_path, "04-conv-2batch", "int destY = dest / w;", "int destY = (dest / w) % 8;")
    line = line_of(src, "int destY = (dest / w) % 8;")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    races = [f["message"] for d in rep["datasets"] for f in ((d.get("sanitizer") or {}).get("findings") or [])
             if f["kind"] == "race"]
    assert races, rep["fix_first"]
    for message in races:
        assert "races with itself" in message and "two threads store to the same slot of N_ds" in message, message
        assert f"look at how destY, destX are made (lines {line}, " in message, message
        assert "no __syncthreads() separates them" not in message, message


def test_a_grid_dimension_the_kernel_never_reads_is_named(backend, tmp_path):
    """Lab 02's grid given 2 blocks in z: the kernel never reads blockIdx.z,
    so the z = 1 blocks store what the z = 0 ones do (a race between
    blocks). The checkers find the race; the first line is the grid's, not
    the race's. (One dataset: on all of them the race series runs every
    other dataset under the race check, 512 x 512 among them.)"""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "02-tiled-matmul", "dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);",
                 "dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH, 2);")
    line = line_of(src, "dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH, 2);")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, "--dataset", "width-0064", sanitize=True, expect_rc=1)
    assert kit.statuses(rep) == {"width-0064": "unsafe"}, rep["datasets"]
    first = rep["fix_first"]
    assert first.startswith(f"the grid at line {line} "), first
    assert "has 2 blocks in z, but kernel MatrixMulKernel never reads blockIdx.z" in first, first


def test_a_row_without_its_block_offset_is_named_where_the_row_is_made(backend, tmp_path):
    """Lab 01's row from threadIdx.y alone: the grid's blocks in y are just
    what the rows need, so the kernel is blamed, and the first line names
    the line that makes the row (not only the grid's line, which is right)."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "01-basic-matmul", "int Row = blockIdx.y * blockDim.y + threadIdx.y;",
                 "int Row = threadIdx.y;")
    line = line_of(src, "int Row = threadIdx.y;")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, "--dataset", "width-0017", sanitize=True,
                             expect_rc=1)
    first = rep["fix_first"]
    assert "never reads blockIdx.y" in first, first
    assert f"where it computes its row at line {line} (`int Row = threadIdx.y;`)" in first, first


def test_too_much_dynamic_shared_memory_is_named_at_the_launch(backend, tmp_path):
    """A launch whose third argument asks for a whole matrix of dynamic
    shared memory: over 48 KiB a block, the runtime refuses the launch."""
    src = edited(tmp_path, "02-tiled-matmul", "MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);",
                 "MatrixMulKernel<<<dimGrid, dimBlock, width * width * sizeof(float)>>>(M, N, P, width);")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, "--dataset", "width-0128", sanitize=True,
                             expect_rc=1)
    first = rep["fix_first"]
    assert "bytes of shared memory a block" in first and "at most 49152 (48 KiB)" in first, first
    assert "third <<< >>> argument" in first, first


def test_a_constant_declared_larger_than_its_copy_names_the_declaration(backend, tmp_path):
    """Lab 05's Mc declared with its rows padded to 8 floats: the copy
    fills 100 of its 160 bytes, rows from 1 on hold the wrong weights and
    the kernel reads bytes nothing stored. The first line starts at the
    declaration, with both sizes."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "05-pitched-conv", "__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];",
                 "__constant__ float Mc[MASK_WIDTH][8];")
    line = line_of(src, "__constant__ float Mc[MASK_WIDTH][8];")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"Mc is declared at line {line} "), first
    assert "with 160 bytes, but the cudaMemcpyToSymbol at line" in first and "stores 100" in first, first


# ---- newcomer set Y's kinds, each in a file of our own -----------------------------


def test_a_name_lab_h_declares_without_its_include_names_the_include(backend, tmp_path):
    """Lab 04 without `#include "lab.h"`: the compiler stops at the first
    CUDA_CHECK; the first line says the name comes from lab.h, which the
    file does not include, and where to put the include."""
    src = edited(tmp_path, "04-conv-2batch", '#include "lab.h"\n', "")
    rc, rep = kit.check_json("04-conv-2batch", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: ") and "error" in first, first
    assert "is declared in lab.h, the lab's interface with the kit, and this file does not #include it" in first, first
    assert 'add `#include "lab.h"` at the top of the file, before line ' in first, first


def test_a_name_spelt_two_ways_is_named_with_both_lines(backend, tmp_path):
    """Lab 02's accumulator declared `Pvaule` (two letters swapped): the
    compiler stops at the first use of Pvalue; the first line names the
    declaration one slip away and the use."""
    src = edited(tmp_path, "02-tiled-matmul", "float Pvalue = 0", "float Pvaule = 0")
    decl = line_of(src, "float Pvaule = 0")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert f"; line {decl} declares `Pvaule` and line " in first and "uses `Pvalue`: one name spelt two ways" in first, first


def test_a_name_declared_inside_a_loop_is_named_for_its_scope_not_its_spelling(backend, tmp_path):
    """Lab 02's Col declared at the top of the phase loop, and a `Cols`
    beside Row: the compiler stops at the store after the loop, where Col
    is out of scope. The name one slip away is no cause where the name
    itself is declared: the first line names the declaration inside the
    loop and the block's end."""
    src = edited(tmp_path, "02-tiled-matmul", "    int Col = bx * TILE_WIDTH + tx;\n",
                 "    int Cols = Width;\n")
    text = src.read_text().replace("for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {\n",
                                   "for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {\n        int Col = bx * TILE_WIDTH + tx;\n", 1)
    src.write_text(text)
    decl, store = line_of(src, "        int Col = bx * TILE_WIDTH + tx;"), line_of(src, "P[Row * Width + Col] = Pvalue;")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: "), first
    assert f"; line {decl} declares Col inside the block that ends at line " in first, first
    assert f"and line {store}, after that block, is outside its scope: declare Col before the block" in first, first
    assert "spelt two ways" not in first, first


def test_a_define_the_file_lost_is_named_from_the_skeleton(backend, tmp_path):
    """Lab 03 without its `#define TILE_WIDTH 16`: the compiler stops at
    the first tile's bounds; the first line says nothing declares
    TILE_WIDTH and quotes the skeleton's declaration."""
    src = edited(tmp_path, "03-arbitrary-matmul", "#define TILE_WIDTH 16\n", "")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert "nothing in this file declares TILE_WIDTH, which line " in first, first
    assert "the skeleton declares it at its line " in first and "(`#define TILE_WIDTH 16`)" in first, first


def test_a_bounds_test_used_as_a_factor_names_the_read_it_does_not_stop(backend, tmp_path):
    """Lab 03's N load written without its if, its value multiplied by the
    bounds test: the read is made for every thread, past N's end for the
    last rows. The first line names the test beside the read, not the
    phase loop's test the thread passed."""
    src = edited(tmp_path, "03-arbitrary-matmul",
                 "        if (nRow < k && Col < l)\n            ds_N[ty][tx] = N[nRow * l + Col];\n"
                 "        else\n            ds_N[ty][tx] = 0.0f;\n",
                 "        ds_N[ty][tx] = (nRow < k && Col < l) * N[nRow * l + Col];\n")
    line = line_of(src, "ds_N[ty][tx] = (nRow < k && Col < l) * N[")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the access at line {line} (") and "is made whatever `(nRow < k && Col < l)` says" in first, first
    assert "make the access only inside `if (nRow < k && Col < l)`" in first, first


def test_the_output_stored_inside_the_phase_loop_before_the_sum_is_named(backend, tmp_path):
    """Lab 02's store of P moved into the phase loop, after the loads and
    before the partial dot product: the last phase's terms never reach P.
    The first line names the store and the loop, not a loop bound whose
    extra phase would make up for it."""
    text = kit.solution("02-tiled-matmul").read_text()
    store = "    P[Row * Width + Col] = Pvalue;\n"
    assert text.count(store) == 1
    text = text.replace(store, "")
    loads = "        ds_N[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];\n"
    assert text.count(loads) == 1
    text = text.replace(loads, loads + "    " + store)
    src = tmp_path / "tiled_matmul.cu"
    src.write_text(text)
    line, loop = line_of(src, "P[Row * Width + Col] = Pvalue;"), line_of(src, "for (int ph = 0;")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the store at line {line} (") and f"is inside the loop at line {loop} (" in first, first
    assert "the output misses the last pass's terms; move the store after the loop's closing brace" in first, first


def test_a_tile_read_no_thread_coordinate_reaches_is_named_in_the_sum(backend, tmp_path):
    """Lab 02's dot product reading ds_N[i][i], a column no thread
    coordinate moves: every thread of a block reads the same elements of
    ds_N. The first line names the read in the sum, and does not say every
    output of a block is one value (ds_M's read still moves with ty)."""
    src = edited(tmp_path, "02-tiled-matmul", "Pvalue += ds_M[ty][i] * ds_N[i][tx];",
                 "Pvalue += ds_M[ty][i] * ds_N[i][i];")
    line = line_of(src, "Pvalue += ds_M[ty][i] * ds_N[i][i];")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert f"the sum at line {line} (" in first and "reads ds_N[i][i], whose subscripts vary with no thread" in first, first
    assert "each block's outputs all get one value" not in first, first


def test_a_pitch_in_floats_added_to_a_byte_address_is_named_with_its_host_line(backend, tmp_path):
    """Lab 05's store into out through a char * cast, stepped by out.pitch,
    which the host sets in floats: rows are a quarter of their pitch
    apart. The first line names the kernel's line and the host's, not the
    host's division (taking it out would only suit this line)."""
    src = edited(tmp_path, "05-pitched-conv", "out.data[row_o * out.pitch + col_o * out.channels + k] = acc;",
                 "((float *)((char *)out.data + row_o * out.pitch))[col_o * out.channels + k] = acc;")
    line, host = line_of(src, "(char *)out.data + row_o * out.pitch"), line_of(src, "d_out_img.pitch = ")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "adds a multiple of out.pitch to a char * (a step in bytes)" in first, first
    assert f"but line {host} (" in first and "makes it a count of floats" in first, first


# ---- newcomer set Z's kinds, each in a file of our own -----------------------------


def test_kernel_parameters_in_another_order_than_the_skeletons_are_named(backend, tmp_path):
    """Lab 03's kernel declared with j and k exchanged: the launch passes
    (j, k, l) in the skeleton's order, so inside the kernel j is k. The
    first line names the declaration against the skeleton's order, not an
    exchange of the launch's arguments that would make up for it."""
    src = edited(tmp_path, "03-arbitrary-matmul", "MatrixMulKernel(const float *M, const float *N, float *P, int j, int k",
                 "MatrixMulKernel(const float *M, const float *N, float *P, int k, int j")
    line = line_of(src, "float *P, int k, int j, int l)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "declares MatrixMulKernel's parameters as (M, N, P, k, j, l), " \
        "where the skeleton has (M, N, P, j, k, l)" in first, first


def test_a_barrier_named_and_not_called_is_named(backend, tmp_path):
    """Lab 05's first barrier written `__syncthreads;`: the compiler takes
    the function's name as a statement, and no barrier runs. The first line
    names the statement and its `()`, not a barrier missing elsewhere."""
    text = kit.solution("05-pitched-conv").read_text()
    src = tmp_path / "pitched_conv.cu"
    src.write_text(text.replace("        __syncthreads();\n", "        __syncthreads;\n", 1))
    line = line_of(src, "__syncthreads;")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`__syncthreads;`) names __syncthreads without calling it") and \
        "write `__syncthreads();`" in first, first


def test_a_comparison_as_a_statement_is_named(backend, tmp_path):
    """Lab 01's store of P written `P[Row * Width + Col] == Pvalue;`, a
    comparison where the assignment was meant: nothing is stored. The
    first line names that statement, which does nothing."""
    src = edited(tmp_path, "01-basic-matmul", "P[Row * Width + Col] = Pvalue;", "P[Row * Width + Col] == Pvalue;")
    line = line_of(src, "P[Row * Width + Col] == Pvalue;")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`P[Row * Width + Col] == Pvalue;`) compares (`==`) and throws the result "
                            "away") and "write `=`" in first, first


def test_a_comparison_an_else_governs_is_named(backend, tmp_path):
    """Lab 03's zero for M's tile written `else ds_M[ty][tx] == 0.0f;`: the
    statement after the else compares and stores nothing, so the slots
    past M's edge keep what was there. The first line names it, not the
    test of the if (whose else it is)."""
    src = edited(tmp_path, "03-arbitrary-matmul", "        else\n            ds_M[ty][tx] = 0.0f;",
                 "        else ds_M[ty][tx] == 0.0f;")
    line = line_of(src, "else ds_M[ty][tx] == 0.0f;")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`else ds_M[ty][tx] == 0.0f;`) compares (`==`)") and "write `=`" in first


def test_an_exclusive_or_written_as_a_power_is_named(backend, tmp_path):
    """Lab 05's mask copy sized `(MASK_WIDTH^2) * sizeof(float)`: `^` is
    exclusive or, 5^2 is 7, and the copy stores 7 of the 25 weights. The
    first line names the `^`."""
    src = edited(tmp_path, "05-pitched-conv", "cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float))",
                 "cudaMemcpyToSymbol(Mc, mask, (MASK_WIDTH^2) * sizeof(float))")
    line = line_of(src, "(MASK_WIDTH^2)")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "writes `MASK_WIDTH^2`, but `^` in C is exclusive or" in first, first


def test_an_assignment_to_a_const_is_named_at_its_declaration(backend, tmp_path):
    """Lab 01's accumulator declared `const float`: the compiler stops at
    the sum (g++: "assignment of read-only variable", nvcc: "expression
    must be a modifiable lvalue"); the first line names the declaration."""
    src = edited(tmp_path, "01-basic-matmul", "        float Pvalue = 0;", "        const float Pvalue = 0;")
    decl = line_of(src, "const float Pvalue = 0;")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: ") and f"; line {decl} (" in first, first
    assert "declares Pvalue const, and line " in first and "take the const out of its declaration" in first, first


def test_a_mask_loop_that_covers_part_of_the_mask_is_named(backend, tmp_path):
    """Lab 04's loop over the mask's columns starts at 1: every output
    misses the mask's first column. The numbers match that part of the
    mask on every wrong element; the first line names the columns covered
    and the loop over them. The mask's first rows alone are what a short
    copy into constant memory gives as well: both are said."""
    src = edited(tmp_path, "04-conv-2batch", "for (int j = 0; j < MASK_WIDTH; j++)",
                 "for (int j = 1; j < MASK_WIDTH; j++)")
    line = line_of(src, "for (int j = 1; j < MASK_WIDTH; j++)")
    rc, rep = kit.check_json("04-conv-2batch", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert "if the sum covers only every row and columns 1 to 4 of the 5 x 5 mask" in first, first
    assert f"look at the start and the bound of the loop at line {line} (" in first and "over the mask's columns" in first, first

    src = edited(tmp_path, "04-conv-2batch", "for (int i = 0; i < MASK_WIDTH; i++)",
                 "for (int i = 0; i < MASK_WIDTH - 1; i++)")
    line = line_of(src, "for (int i = 0; i < MASK_WIDTH - 1; i++)")
    rc, rep = kit.check_json("04-conv-2batch", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert "if only the first 20 of the mask's 25 values reached constant memory" in first, first
    assert "the same numbers come from a sum over only the mask's first 4 rows: if the copy is right, look at the " \
        f"start and the bound of the loop at line {line} (" in first, first


# ---- newcomer set AA's kinds, each in a file of our own ----------------------------


def test_a_bounds_test_against_the_grids_extent_is_named_over_the_loop_inside_it(backend, tmp_path):
    """Lab 01's bounds test on Col written against the grid's extent
    (`gridDim.x * blockDim.x`), which every thread is inside: the threads
    past the matrix read past N's end inside the dot product's loop. The
    first line names the if and its bound, not the loop's test the thread
    passed last."""
    src = edited(tmp_path, "01-basic-matmul", "if (Row < Width && Col < Width) {",
                 "if (Row < Width && Col < gridDim.x * blockDim.x) {")
    line = line_of(src, "Col < gridDim.x * blockDim.x")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, "--dataset", "width-0015", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "bounds Col by `gridDim.x * blockDim.x`, the extent " \
        "of the grid" in first, first


def test_a_device_buffer_allocated_as_pinned_host_memory_is_named_at_its_allocation(backend, tmp_path):
    """Lab 01's d_M allocated with cudaMallocHost: a CUDA call that takes it
    as device memory fails (the copy in on the emulator, its cudaFree on a
    GPU). The first line names the allocation."""
    src = edited(tmp_path, "01-basic-matmul", "CUDA_CHECK(cudaMalloc((void **)&d_M, bytes));",
                 "CUDA_CHECK(cudaMallocHost((void **)&d_M, bytes));")
    line = line_of(src, "cudaMallocHost((void **)&d_M")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, "--dataset", "width-0015")
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "allocates d_M with cudaMallocHost, which gives pinned memory on " \
        "the host" in first and "allocate it with cudaMalloc" in first, first


def test_a_shift_by_a_named_size_is_named(backend, tmp_path):
    """Lab 03's phase count written `(k + TILE_WIDTH - 1) >> TILE_WIDTH`, a
    shift by 16 bits: no phase runs for any k here. The first line names
    the shift and the division it should be."""
    src = edited(tmp_path, "03-arbitrary-matmul", "numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;",
                 "numPhases = (k + TILE_WIDTH - 1) >> TILE_WIDTH;")
    line = line_of(src, ">> TILE_WIDTH;")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "a shift by TILE_WIDTH = 16 bits" in first, first
    assert "divide by TILE_WIDTH with `/`" in first, first


def test_a_count_that_rounds_down_leads_over_the_loop_bound_that_makes_up_for_it(backend, tmp_path):
    """Lab 03's phase count without its round-up: `ph <= numPhases` makes
    every dataset right (an extra phase of zeros), but the count is the
    mistake. The first line names the count's line with the count rounded
    up there (the repair search's round-up), not the loop edit."""
    src = edited(tmp_path, "03-arbitrary-matmul", "numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;",
                 "numPhases = k / TILE_WIDTH;")
    line, loop = line_of(src, "numPhases = k / TILE_WIDTH;"), line_of(src, "for (int ph = 0; ph < numPhases")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `k / TILE_WIDTH` in `numPhases = k / TILE_WIDTH` looks like the mistake: "
                            "the division rounds down"), first
    assert "with `(k + TILE_WIDTH - 1) / TILE_WIDTH` there, all 19 datasets come out right" in first, first
    assert f"line {loop}" not in first, first


def test_an_array_bound_that_is_not_const_is_named_at_its_declaration(backend, tmp_path):
    """Lab 02's tiles sized by a local `int tile = TILE_WIDTH;`: the
    compiler refuses the bound (g++: "not an integral constant-expression",
    nvcc: "a variable length array cannot have static storage duration");
    the first line names the local's declaration."""
    src = edited(tmp_path, "02-tiled-matmul", "    __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];",
                 "    int tile = TILE_WIDTH;\n    __shared__ float ds_M[tile][tile];")
    decl = line_of(src, "int tile = TILE_WIDTH;")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: ") and f"; line {decl} (" in first, first
    assert "declares tile without const, and line " in first and "declare it `const`" in first, first


def test_a_symbol_copied_the_other_way_is_named_at_that_copy(backend, tmp_path):
    """Lab 05's mask copied with cudaMemcpyFromSymbol (out of Mc, into the
    host's mask): Mc is never filled. The first line names that copy."""
    src = edited(tmp_path, "05-pitched-conv", "CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));",
                 "CUDA_CHECK(cudaMemcpyFromSymbol((void *)mask, Mc, MASK_WIDTH * MASK_WIDTH * sizeof(float)));")
    line = line_of(src, "cudaMemcpyFromSymbol")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, "--dataset", "rgb-5x7", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "copies out of Mc with cudaMemcpyFromSymbol, the other way round" in first, first


def test_launch_arguments_named_for_each_others_parameters_are_named(backend, tmp_path):
    """Lab 01's launch passing d_P first and d_M third: each goes to the
    parameter the other is named for (M, P). The first line names the
    launch and the two."""
    src = edited(tmp_path, "01-basic-matmul", "MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, width);",
                 "MatrixMulKernel<<<dimGrid, dimBlock>>>(d_P, d_N, d_M, width);")
    line = line_of(src, "(d_P, d_N, d_M, width)")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the launch at line {line} (") and "passes d_P as MatrixMulKernel's parameter `M` and " \
        "d_M as its `P`" in first, first


# ---- newcomer set AB's kinds, each in a file of our own ----------------------------


def test_a_grid_counted_zero_is_named_where_it_is_counted(backend, tmp_path):
    """Lab 05's grid counted `(in->width - 1) / O_TILE_WIDTH` without its
    + 1: 0 blocks across for an image narrower than a tile, and the launch
    is refused. The first line names the dim3 that counts 0, not the
    launch."""
    src = edited(tmp_path, "05-pitched-conv", "dim3 dimGrid((in->width - 1) / O_TILE_WIDTH + 1,",
                 "dim3 dimGrid((in->width - 1) / O_TILE_WIDTH,")
    line = line_of(src, "dim3 dimGrid((in->width - 1) / O_TILE_WIDTH,")
    # on a GPU the launch's shape comes from the checkers' run
    rc, rep = kit.check_json("05-pitched-conv", src, backend, "--dataset", "rgb-5x7", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the grid at line {line} (") and "comes to 0 x 1 for this dataset" in first, first


def test_a_block_axis_the_kernel_never_reads_is_named(backend, tmp_path):
    """Lab 01's block given 2 threads in z, which MatrixMulKernel never
    reads: the two layers store the same elements. The first line names
    the block and the axis."""
    src = edited(tmp_path, "01-basic-matmul", "dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH);",
                 "dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 2);")
    line = line_of(src, "dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 2);")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, "--dataset", "width-0015", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the block at line {line} (") and "has 2 threads in z, but kernel MatrixMulKernel " \
        "never reads threadIdx.z" in first, first


def test_a_device_pointer_declared_const_is_named_at_its_declaration(backend, tmp_path):
    """Lab 05's device images declared `const float *`: the compiler refuses
    them where a call writes through them (g++: "invalid conversion from
    'const void*'", nvcc: "incompatible with parameter of type"); the
    first line names the declaration."""
    src = edited(tmp_path, "05-pitched-conv", "    float *d_in = NULL, *d_out = NULL;",
                 "    const float *d_in = NULL, *d_out = NULL;")
    decl = line_of(src, "const float *d_in = NULL")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: ") and f"; line {decl} (" in first, first
    assert "a pointer to const, and line " in first and "drop the const from its declaration" in first, first


def test_an_input_the_function_takes_as_const_is_named_as_an_input(backend, tmp_path):
    """Lab 01's copy back written into N, and, apart, the copy of M in with
    its two pointers the other way round: the compiler refuses the const
    input where the call writes. Its declaration is the lab's own interface
    (the host function's parameter, not the kernel's of the same name), so
    the line says what the call should write into: the output P for the
    copy back, the device buffer, first, for the copy in."""
    back = edited(tmp_path, "01-basic-matmul", "cudaMemcpy(P, d_P, bytes", "cudaMemcpy(N, d_P, bytes")
    at = line_of(back, "cudaMemcpy(N, d_P, bytes")
    header = line_of(back, "void basic_matmul(")
    rc, rep = kit.check_json("01-basic-matmul", back, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: "), first
    assert f"line {at} passes N where the call writes through it, but N is an input of the function, declared a " \
        f"pointer to const at line {header} (" in first and "writes into its output, P: put P there" in first, first
    sub = tmp_path / "in"
    sub.mkdir()
    copy_in = edited(sub, "01-basic-matmul", "cudaMemcpy(d_M, M, bytes", "cudaMemcpy(M, d_M, bytes")
    at = line_of(copy_in, "cudaMemcpy(M, d_M, bytes")
    rc, rep = kit.check_json("01-basic-matmul", copy_in, backend, expect_rc=1)
    first = rep["fix_first"]
    assert f"line {at} passes M, an input of the function (a pointer to const at line {header} (" in first, first
    assert "the destination comes first, cudaMemcpy(dst, src, bytes, kind)" in first, first
    assert "drop the const" not in first, first


def test_a_const_float_tile_size_keeps_its_const(backend, tmp_path):
    """Lab 04's tile side declared `const double w`: it sizes N_ds and is
    an operand of %, which need an integer. The line says to declare it
    `const int w`: a plain `int` would not size an array."""
    src = edited(tmp_path, "04-conv-2batch", "const int w = TILE_WIDTH + MASK_WIDTH - 1;",
                 "const double w = TILE_WIDTH + MASK_WIDTH - 1;")
    line = line_of(src, "const double w")
    rc, rep = kit.check_json("04-conv-2batch", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert f"line {line} declares `const double w`" in first and "declare it `const int w`" in first, first


def test_a_count_kept_in_a_bool_is_named_at_its_declaration(backend, tmp_path):
    """Lab 01's Row declared `bool`: it holds 0 or 1, so every thread past
    the first row works on row 1. The first line names the declaration."""
    src = edited(tmp_path, "01-basic-matmul", "    int Row = blockIdx.y * blockDim.y + threadIdx.y;",
                 "    bool Row = blockIdx.y * blockDim.y + threadIdx.y;")
    decl = line_of(src, "bool Row = ")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, "--dataset", "width-0015", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {decl} (") and "declares Row bool, which holds only 0 or 1" in first, first


def test_a_tile_read_at_a_global_row_is_named_as_its_index_not_its_size(backend, tmp_path):
    """Lab 02's dot product reading ds_M[Row][i]: Row runs past the tile in
    every block row but the first. The bounds sentence names the tile
    whose subscript went global (not the first tile of the line) and says
    the index, not the tile's size, is wrong."""
    src = edited(tmp_path, "02-tiled-matmul", "Pvalue += ds_M[ty][i] * ds_N[i][tx];",
                 "Pvalue += ds_N[i][tx] * ds_M[Row][i];")
    line = line_of(src, "ds_M[Row][i]")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, "--dataset", "width-0032", sanitize=True)
    first = rep["fix_first"]
    assert f"the access at line {line} indexes the tile ds_M with `Row`, which varies with the block" in first, first
    assert "too small" not in first, first


# ---- a kernel that reaches host memory -------------------------------------------


def test_a_struct_whose_pointer_stays_the_hosts_is_named_where_it_is_copied(backend, tmp_path):
    """Lab 05's output descriptor copied whole from *out and its data never
    made the device buffer: the kernel writes the host's image. A GPU
    faults there; the emulator's kernels share the host's address space, so
    its race build names the access (a buffer the harness made, or one a
    copy of the program's used), and the first line names the copy of the
    struct and the member no line sets. No repair is searched: the
    emulator's outputs prove nothing where a kernel reaches host memory."""
    src = edited(tmp_path, "05-pitched-conv", "    d_out_img.data = d_out;\n", "")
    copy = line_of(src, "Image_t d_in_img = *in, d_out_img = *out;")
    store = line_of(src, "out.data[row_o * out.pitch + col_o * out.channels + k] = acc;")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, "--dataset", "gray-1x1", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {copy} (") and "makes d_out_img a copy of `*out`, the host's" in first, first
    assert "no line after it sets d_out_img.data" in first and f"the access at line {store} (" in first, first
    assert "writes it" in first and "set d_out_img.data to the device copy" in first, first
    assert not rep.get("repair"), rep.get("repair")


def test_a_kernel_reading_a_copied_host_buffer_loses_the_points_of_its_passes(tmp_path):
    """Lab 05's input descriptor given the host image's pointer: the kernel
    reads the host's buffer, which the emulator can and a GPU cannot. The
    datasets whose output matched earn nothing (unsafe); the first line
    names the host's assignment, the copy that used the buffer and the
    device copy to pass instead."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "05-pitched-conv", "    d_in_img.data = d_in;", "    d_in_img.data = in->data;")
    set_at, copy_in = line_of(src, "d_in_img.data = in->data;"), line_of(src, "CUDA_CHECK(cudaMemcpy2D(d_in, ")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    st = kit.statuses(rep)
    assert "pass" not in st.values() and "unsafe" in st.values(), st
    first = rep["fix_first"]
    assert first.startswith(f"line {set_at} (") and "sets d_in_img.data to `in->data`, which points at host" in first
    assert f"the host buffer in->data that the cudaMemcpy2D at line {copy_in} (" in first, first
    assert "set d_in_img.data to the device copy (d_in, which that cudaMemcpy2D filled)" in first, first


def test_an_output_cut_to_a_range_is_named_at_the_line_that_cuts_it(tmp_path):
    """Lab 04's sum stored through fmaxf(acc, 0.0f), as if negative pixels
    could not be: every output whose right value is negative comes out 0
    and every other is right. The numbers say so (the right value cut at
    0), and the first line names the line that cuts it."""
    store = "            P[(y * width + x) * channels + k] = acc;"
    src = edited(tmp_path, "04-conv-2batch", store, store.replace("= acc;", "= fmaxf(acc, 0.0f);"))
    line = line_of(src, "= fmaxf(acc, 0.0f);")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", "--dataset", "rgb-5x7", expect_rc=1)
    first = rep["fix_first"]
    assert "are exactly the right value raised to at least 0: every right value below 0 came out 0" in first, first
    assert f"before it is stored at line {line} (" in first and "which cuts it: store the sum itself" in first, first


@pytest.mark.parametrize("cut", ["on-the-store", "into-the-sum"])
def test_the_cut_named_is_the_one_that_reaches_the_stored_value(tmp_path, cut):
    """Two cuts in lab 04's kernel: an index clamped on the way, which
    changes nothing (destX = min(destX, w - 1), destX is below w anyway),
    and the sum cut at 0 before it is stored, on the store itself or into
    the sum on a line of its own. The line named is the one whose value
    the store writes, not the first min in the kernel."""
    base = kit.ROOT / "solutions" / "04-conv-2batch" / "conv_2batch.cu"
    text = base.read_text()
    text = text.replace("        int destX = dest % w;\n", "        int destX = dest % w;\n        destX = min(destX, w - 1);\n", 1)
    store = "            P[(y * width + x) * channels + k] = acc;"
    if cut == "on-the-store":
        text, at = text.replace(store, store.replace("= acc;", "= fmaxf(acc, 0.0f);")), "= fmaxf(acc, 0.0f);"
    else:
        sum_done = "        //@@ TODO 6:"
        text, at = text.replace(sum_done, "        acc = fmaxf(0.0f, acc);\n" + sum_done), "acc = fmaxf(0.0f, acc);"
    src = tmp_path / "conv_2batch.cu"
    src.write_text(text)
    line = line_of(src, at)
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", "--dataset", "rgb-5x7", expect_rc=1)
    first = rep["fix_first"]
    assert "every right value below 0 came out 0" in first, first
    assert f"before it is stored at line {line} (" in first and "which cuts it" in first, first


def test_a_load_whose_branches_are_the_wrong_way_round_is_named_at_its_if(tmp_path):
    """Lab 03's M load with its if and else swapped: the if stores 0 where
    the element exists and the else reads M where it does not. Whatever
    test let the thread reach the read, the first line names the if whose
    false branch makes it, and says to swap the branches."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    load = "            ds_M[ty][tx] = M[Row * k + mCol];\n        else\n            ds_M[ty][tx] = 0.0f;"
    src = edited(tmp_path, "03-arbitrary-matmul", load,
                 "            ds_M[ty][tx] = 0.0f;\n        else\n            ds_M[ty][tx] = M[Row * k + mCol];")
    test, read = line_of(src, "if (Row < j && mCol < k)"), line_of(src, "            ds_M[ty][tx] = M[Row * k + mCol];")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the if at line {test} (`if (Row < j && mCol < k)`) makes the read at line {read} in "
                            "its else, taken when `Row < j && mCol < k` is false"), first
    assert "its two branches are the wrong way round; swap them" in first, first


def test_an_int_computed_with_a_fraction_is_named(backend, tmp_path):
    """Lab 04's first batch's srcX computed with `0.5f * MASK_WIDTH` (2.5)
    for MASK_RADIUS: the int keeps the floating sum truncated toward 0, so
    the tile's columns are one off for most threads. The first line names
    the declaration and the fraction."""
    src = edited(tmp_path, "04-conv-2batch", "int srcX = blockIdx.x * TILE_WIDTH + destX - MASK_RADIUS;",
                 "int srcX = blockIdx.x * TILE_WIDTH + destX - 0.5f * MASK_WIDTH;")
    line = line_of(src, "- 0.5f * MASK_WIDTH;")
    rc, rep = kit.check_json("04-conv-2batch", src, backend, "--dataset", "rgb-5x7", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "computes the int srcX with `0.5f * MASK_WIDTH`, which is 2.5, " \
        "not a whole number" in first, first
    assert "truncated toward 0" in first, first


def test_a_value_set_into_another_member_is_named_beside_its_sibling(backend, tmp_path):
    """Lab 05's output descriptor given its pitch in .height: the line beside
    it sets the input's .pitch from the input's pitch, and nothing sets the
    output's .pitch. The first line names the member the value went into,
    the sibling line and the member to set."""
    src = edited(tmp_path, "05-pitched-conv", "d_out_img.pitch = (int)(out_pitch_bytes / sizeof(float));",
                 "d_out_img.height = (int)(out_pitch_bytes / sizeof(float));")
    line, sib = line_of(src, "d_out_img.height = (int)"), line_of(src, "d_in_img.pitch = (int)")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, "--dataset", "gray-11x11", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "sets d_out_img.height from a value named for the pitch, as " \
        f"line {sib} (" in first, first
    assert "no line sets d_out_img.pitch" in first and "set d_out_img.pitch there" in first, first


# ---- set AG's kinds, on edits of our own ----------------------------------------------


def test_a_shift_whose_right_side_is_a_sum_is_named(backend, tmp_path):
    """Lab 01's Col written `blockIdx.x << 4 + threadIdx.x`: C shifts by the
    sum. The first line names the line and the bracketing meant."""
    src = edited(tmp_path, "01-basic-matmul", "int Col = blockIdx.x * blockDim.x + threadIdx.x;",
                 "int Col = blockIdx.x << 4 + threadIdx.x;")
    line = line_of(src, "blockIdx.x << 4 + threadIdx.x")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, "--dataset", "width-0017", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "writes `blockIdx.x << 4 + threadIdx.x`, which C reads as a shift " \
        "by the sum" in first, first
    assert "`(blockIdx.x << 4) + threadIdx.x`" in first, first


def test_a_call_given_the_variable_it_sets_is_named(backend, tmp_path):
    """Lab 05's output buffer allocated with out_pitch_bytes as its height,
    the variable the same cudaMallocPitch writes the pitch into: the call
    reads it before it is set. The first line names the call and the
    variable."""
    src = edited(tmp_path, "05-pitched-conv",
                 "cudaMallocPitch((void **)&d_out, &out_pitch_bytes, row_bytes, in->height)",
                 "cudaMallocPitch((void **)&d_out, &out_pitch_bytes, row_bytes, out_pitch_bytes)")
    line = line_of(src, "row_bytes, out_pitch_bytes)")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, "--dataset", "gray-11x11", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the cudaMallocPitch at line {line} (") and "is given out_pitch_bytes as a value to " \
        "read and &out_pitch_bytes as where to write its result" in first, first


def test_a_bounds_test_written_the_wrong_way_round_is_named(tmp_path):
    """Lab 03's store test inverted, `Row >= j || Col >= l`: only the
    threads outside P store. The first line calls the test the wrong way
    round, not an off-by-one."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "03-arbitrary-matmul", "    if (Row < j && Col < l)", "    if (Row >= j || Col >= l)")
    line = line_of(src, "if (Row >= j || Col >= l)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "is the wrong way round" in first, first
    assert "the one value" not in first, first


def test_a_sum_whose_terms_are_taken_away_is_named_at_its_line(tmp_path):
    """Lab 04's weighted sum written `acc -= ...`: every output is the right
    one negated. The numbers say so, and the first line names the `-=`."""
    src = edited(tmp_path, "04-conv-2batch", "acc += Mc[i][j]", "acc -= Mc[i][j]")
    line = line_of(src, "acc -= Mc[i][j]")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", "--dataset", "rgb-5x7", expect_rc=1)
    first = rep["fix_first"]
    assert "are exactly the right value times -1, its sign flipped" in first, first
    assert f"look at how the terms go into the sum at line {line} (" in first, first


@pytest.mark.parametrize("lab,old,new,way", [
    ("04-conv-2batch", "P[(y * width + x) * channels + k] = acc;", "P[(y * width + x) * channels + k] = rintf(acc);",
     "to the nearest whole number"),
    ("02-tiled-matmul", "P[Row * Width + Col] = Pvalue;", "P[Row * Width + Col] = floorf(Pvalue);",
     "down to a whole number"),
])
def test_an_output_rounded_to_whole_numbers_is_named_at_the_rounding(tmp_path, lab, old, new, way):
    """The output stored through a rounding function (`rintf(acc)`): every
    wrong element is the right one rounded, one way throughout. The numbers
    say which way, and the first line names the call's line."""
    src = edited(tmp_path, lab, old, new)
    line = line_of(src, new)
    _, rep = kit.check_json(lab, src, "emu", expect_rc=1)
    first = rep["fix_first"]
    assert f"are exactly the right value rounded {way}: " in first, first
    assert f"before it is stored at line {line} (" in first and "which rounds it: store the sum itself" in first, first


GRID_01 = "    dim3 dimGrid((width + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH);\n"


@pytest.mark.parametrize("members,named,says", [
    # the x member set twice, the second where y belonged
    (["dimGrid.y = (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH;", "dimGrid.y = (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH;"],
     1, "sets dimGrid.y a second time (line {0} set it already), and no line sets dimGrid.x, which stays 1"),
    # only one member set
    (["dimGrid.y = (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH;"], None, "no line sets dimGrid.x, which stays 1"),
])
def test_a_grid_set_member_by_member_names_the_member_of_its_short_side(tmp_path, members, named, says):
    """Lab 01's grid declared `dim3 dimGrid;` and its members set one by
    one: where a member is never set it stays 1 and the grid falls short
    on that side. The first line names the line that set the other member
    a second time (a copy-paste's slip), or says that no line sets it."""
    body = "    dim3 dimGrid;\n" + "".join(f"    {m}\n" for m in members)
    src = edited(tmp_path, "01-basic-matmul", GRID_01, body)
    first_set = line_of(src, members[0])
    _, rep = kit.check_json("01-basic-matmul", src, "emu", "--dataset", "width-0033", expect_rc=1)
    first = rep["fix_first"]
    if named is not None:
        assert f"line {first_set + named} (`{members[named]}`) " + says.format(first_set) in first, first
    else:
        assert says in first, first


def test_output_tiles_stepped_further_apart_than_a_block_writes_are_named_at_the_step(tmp_path):
    """Lab 05's output coordinates stepped by BLOCK_WIDTH (16) where each
    block writes O_TILE_WIDTH (12): the wrong elements are exactly columns
    12 to 15 of every 16, written by no thread. The numbers say the step,
    and the first line names the index line whose block step it is."""
    old = "    int row_o = blockIdx.y * O_TILE_WIDTH + ty;\n    int col_o = blockIdx.x * O_TILE_WIDTH + tx;\n"
    src = edited(tmp_path, "05-pitched-conv", old, old.replace("O_TILE_WIDTH", "BLOCK_WIDTH"))
    line = line_of(src, "int col_o = blockIdx.x * BLOCK_WIDTH + tx;")
    _, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "the wrong elements are exactly columns 12 to 15 of every 16: " in first, first
    assert f"look at the block's step in the output's index at line {line} (" in first, first
    assert "which starts the blocks' tiles 16 columns apart where each block writes 12" in first, first


def test_gaps_between_tiles_a_store_test_leaves_are_named_at_the_test(tmp_path):
    """Lab 02's store under `tx < TILE_WIDTH - 1`: column 15 of every 16
    is never written, but the blocks step one tile apart; the gap's
    sentence names the test before the store, not the step."""
    src = edited(tmp_path, "02-tiled-matmul", "    P[Row * Width + Col] = Pvalue;",
                 "    if (tx < TILE_WIDTH - 1)\n        P[Row * Width + Col] = Pvalue;")
    line = line_of(src, "if (tx < TILE_WIDTH - 1)")
    _, rep = kit.check_json("02-tiled-matmul", src, "emu", "--dataset", "width-0032", expect_rc=1)
    hint = rep["datasets"][0]["comparison"]["hint"]
    assert hint.startswith("the wrong elements are exactly column 15 of every 16: "), hint
    assert f"but only its first 15 columns are stored: look at the test before the store at line {line} (" in hint, hint
    assert "block's step" not in hint, hint


def test_a_macro_argument_pasted_without_parentheses_is_named_at_the_define(tmp_path):
    """Lab 03's N read through `#define AT(row, col, w) row * w + col`
    given `ph * TILE_WIDTH + ty` as its row: the preprocessor pastes it,
    and `* l` takes `ty` alone. The first line names the #define, the use
    and how C reads it, and writes the macro with its parameters in
    parentheses."""
    src = edited(tmp_path, "03-arbitrary-matmul", "#define TILE_WIDTH 16\n",
                 "#define TILE_WIDTH 16\n#define AT(row, col, w) row * w + col\n")
    text = src.read_text()
    old = "ds_N[ty][tx] = N[nRow * l + Col];"
    assert text.count(old) == 1
    src.write_text(text.replace(old, "ds_N[ty][tx] = N[AT(ph * TILE_WIDTH + ty, Col, l)];"))
    define, use = line_of(src, "#define AT("), line_of(src, "N[AT(")
    _, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the macro AT at line {define} (`#define AT(row, col, w) row * w + col`) pastes its "
                            "argument row as text"), first
    assert f"`AT(ph * TILE_WIDTH + ty, Col, l)` at line {use} reads as `ph * TILE_WIDTH + ty * l + Col`" in first, first
    assert "`#define AT(row, col, w) ((row) * (w) + (col))`" in first, first


def test_a_tile_load_with_no_else_in_the_phase_loop_is_named_where_nothing_else_shows(tmp_path):
    """Lab 03's tiles set to 0 once, before the phase loop, and loaded
    under their bounds tests with no else: the first phase's padding is 0,
    but in the last, partial phase each slot past k keeps the element an
    earlier phase stored there, which no checker sees (no slot is unset, no
    read out of bounds). The first line names the load, its test, the loop
    and the else to write."""
    src = edited(tmp_path, "03-arbitrary-matmul", "        else\n            ds_N[ty][tx] = 0.0f;\n", "")
    text = src.read_text()
    for drop in ("        else\n            ds_M[ty][tx] = 0.0f;\n",):
        assert text.count(drop) == 1
        text = text.replace(drop, "")
    loop = "    for (int ph = 0; ph < numPhases; ++ph) {\n"
    assert text.count(loop) == 1
    src.write_text(text.replace(loop, "    ds_N[ty][tx] = 0.0f;\n    ds_M[ty][tx] = 0.0f;\n" + loop))
    test, store, head = line_of(src, "if (Row < j && mCol < k)"), line_of(src, "= M[Row * k + mCol];"), \
        line_of(src, "for (int ph = 0;")
    _, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the load at line {store} (`ds_M[ty][tx] = M[Row * k + mCol];`) stores into ds_M only "
                            f"where the test at line {test} (`if (Row < j && mCol < k)`) holds, and the test has no "
                            f"else: in a pass of the loop at line {head} ("), first
    assert "give the test an else that stores 0 into the same slot (and the load at line " in first, first


def test_a_pointer_walked_twice_a_pass_is_named_with_both_steps(tmp_path):
    """Lab 01's column of N walked by a pointer stepped in the loop's
    header (`q += Width`) and again where it is read (`*q++`): it moves
    Width + 1 a pass, off the column and past N's end. The first line names
    both steps, not a loop counter the read should use."""
    old = ("        for (int k = 0; k < Width; ++k)\n"
           "            Pvalue += M[Row * Width + k] * N[k * Width + Col];\n")
    new = ("        const float *q = N + Col;\n"
           "        for (int k = 0; k < Width; ++k, q += Width)\n"
           "            Pvalue += M[Row * Width + k] * *q++;\n")
    src = edited(tmp_path, "01-basic-matmul", old, new)
    read, loop = line_of(src, "* *q++;"), line_of(src, "q += Width)")
    _, rep = kit.check_json("01-basic-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the access at line {read} (`Pvalue += M[Row * Width + k] * *q++;`) reads through the "
                            f"pointer q, which each pass of the loop steps more than once, by `q++` at line {read} "
                            f"and `q += Width` in the header of the loop at line {loop}: "), first
    assert "never uses k" not in first, first


def test_a_macro_body_without_parentheses_regrouped_at_its_use_is_named_at_the_define(tmp_path):
    """Lab 01's bounds test written `!OUTSIDE(Row, Col, Width)` with
    `#define OUTSIDE(r, c, w) r >= w || c >= w`: the `!` takes `Row` alone.
    The first line names the #define, the use with its `!`, how C reads
    it, and the body in parentheses."""
    src = edited(tmp_path, "01-basic-matmul", "#define BLOCK_WIDTH 16\n",
                 "#define BLOCK_WIDTH 16\n#define OUTSIDE(r, c, w) r >= w || c >= w\n")
    text = src.read_text()
    old = "if (Row < Width && Col < Width) {"
    assert text.count(old) == 1
    src.write_text(text.replace(old, "if (!OUTSIDE(Row, Col, Width)) {"))
    define, use = line_of(src, "#define OUTSIDE("), line_of(src, "if (!OUTSIDE(")
    _, rep = kit.check_json("01-basic-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the macro OUTSIDE at line {define} (") and "has no parentheses around its body" in first, \
        first
    assert f"`!OUTSIDE(Row, Col, Width)` at line {use} reads as `!Row >= Width || Col >= Width`" in first, first
    assert "`#define OUTSIDE(r, c, w) ((r) >= (w) || (c) >= (w))`" in first, first


def test_a_local_declared_with_no_value_and_read_is_named_at_its_declaration(tmp_path):
    """Lab 01's Col declared beside Row with no value of its own (`int Row
    = ..., Col;`) and read by the bounds test: it holds whatever was in its
    register. The first line names the declaration and the read, ahead of
    what the checkers find from it."""
    old = ("    int Row = blockIdx.y * blockDim.y + threadIdx.y;\n"
           "    int Col = blockIdx.x * blockDim.x + threadIdx.x;\n")
    src = edited(tmp_path, "01-basic-matmul", old, "    int Row = blockIdx.y * blockDim.y + threadIdx.y, Col;\n")
    decl, read = line_of(src, ", Col;"), line_of(src, "if (Row < Width && Col < Width)")
    _, rep = kit.check_json("01-basic-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {decl} (`int Row = blockIdx.y * blockDim.y + threadIdx.y, Col;`) declares Col "
                            f"with no value"), first
    assert f"and line {read} (`if (Row < Width && Col < Width) {{`) reads it before anything sets it" in first, first


def test_an_index_kept_in_a_narrow_type_is_named_at_its_declaration(tmp_path):
    """Lab 01's output index kept in an `unsigned short` (`unsigned short at
    = Row * Width + Col;` then `P[at]`): past 65535 (width-0257's 66049
    elements) it wraps. The index reads no built-in itself, but it
    subscripts P: the first line names its declaration and the type."""
    src = edited(tmp_path, "01-basic-matmul", "        P[Row * Width + Col] = Pvalue;\n",
                 "        unsigned short at = Row * Width + Col;\n        P[at] = Pvalue;\n")
    line = line_of(src, "unsigned short at")
    _, rep = kit.check_json("01-basic-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`unsigned short at = Row * Width + Col;`) declares at `unsigned short`, "
                            "which holds at most 65535"), first


def test_an_allocation_into_a_helpers_copy_of_the_pointer_is_named(tmp_path):
    """Lab 01's d_M allocated by a helper that takes the pointer by value
    (`static void make_buffer(float *b, size_t n) { cudaMalloc(&b, n); }`,
    called `make_buffer(d_M, bytes)`): cudaMalloc sets the helper's copy,
    and d_M stays NULL. The first line names the allocation, the helper's
    parameter and the call."""
    src = edited(tmp_path, "01-basic-matmul", "void basic_matmul(",
                 "static void make_buffer(float *b, size_t n)\n{\n    CUDA_CHECK(cudaMalloc(&b, n));\n}\n\n"
                 "void basic_matmul(")
    text = src.read_text()
    old = "CUDA_CHECK(cudaMalloc((void **)&d_M, bytes));"
    assert text.count(old) == 1
    src.write_text(text.replace(old, "make_buffer(d_M, bytes);"))
    alloc, call = line_of(src, "cudaMalloc(&b, n)"), line_of(src, "make_buffer(d_M, bytes);")
    _, rep = kit.check_json("01-basic-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {alloc} (`CUDA_CHECK(cudaMalloc(&b, n));`) allocates into b, make_buffer's own "
                            f"copy of the pointer it is given"), first
    assert f"the call at line {call} (`make_buffer(d_M, bytes);`) hands it the value of d_M" in first, first


def test_a_pointer_parameter_stepped_while_indexed_is_named(backend, tmp_path):
    """Lab 01's sum loop stepping N too (`++k, ++N`) while the body reads
    N[k * Width + Col]: each read lands further on. The first line names the
    loop's header, not an edit of the read's index."""
    src = edited(tmp_path, "01-basic-matmul", "for (int k = 0; k < Width; ++k)", "for (int k = 0; k < Width; ++k, ++N)")
    line = line_of(src, "++k, ++N)")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, "--dataset", "width-0017", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "steps N, a pointer the kernel was given, while line " in first, first


def test_a_loop_bound_set_after_its_loop_is_named(backend, tmp_path):
    """Lab 02's phase count kept in `phases`, declared 0 before the loop and
    set only after it: no phase runs. The first line names the late
    assignment and the loop."""
    loop = "    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {"
    src = edited(tmp_path, "02-tiled-matmul", loop, "    int phases = 0;\n    for (int ph = 0; ph < phases; ++ph) {")
    text = src.read_text().replace("    P[Row * Width + Col] = Pvalue;",
                                   "    phases = Width / TILE_WIDTH;\n    P[Row * Width + Col] = Pvalue;", 1)
    src.write_text(text)
    line, at = line_of(src, "    phases = Width / TILE_WIDTH;"), line_of(src, "ph < phases")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, "--dataset", "width-0032", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and f"sets phases after the loop at line {at} (" in first, first


def test_a_launch_that_passes_a_number_for_a_variable_is_named(backend, tmp_path):
    """Lab 04's launch given 64 for the kernel's width, in a function given
    width: every image is computed as 64 wide. The first line names the
    launch, the number and the parameter."""
    src = edited(tmp_path, "04-conv-2batch", "(I, P, height, width, channels);", "(I, P, height, 64, channels);")
    line = line_of(src, "(I, P, height, 64, channels);")
    rc, rep = kit.check_json("04-conv-2batch", src, backend, "--dataset", "rgb-5x7", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the launch at line {line} (") and "passes 64 for conv_2batch_kernel's parameter " \
        "width, where this function has width itself" in first, first


def test_a_tile_under_a_second_name_is_named_at_its_declaration(backend, tmp_path):
    """Lab 02's ds_M declared as a pointer to ds_N: the two loads store into
    one tile. The first line names the declaration and both stores."""
    src = edited(tmp_path, "02-tiled-matmul",
                 "    __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];\n    __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];",
                 "    __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];\n    float (*ds_M)[TILE_WIDTH] = ds_N;")
    line = line_of(src, "float (*ds_M)[TILE_WIDTH] = ds_N;")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, "--dataset", "width-0032", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "makes ds_M another name for ds_N, not an array of its own" in first
    assert "declare ds_M a __shared__ array of its own" in first, first


def test_a_member_set_again_for_another_object_is_named(backend, tmp_path):
    """Lab 05's output buffer given to d_in_img.data, set a line before from
    d_in: d_out_img.data is never set. The first line names the second
    assignment, the first and the object it was meant for."""
    src = edited(tmp_path, "05-pitched-conv", "    d_out_img.data = d_out;", "    d_in_img.data = d_out;")
    line, first_set = line_of(src, "    d_in_img.data = d_out;"), line_of(src, "    d_in_img.data = d_in;")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, "--dataset", "gray-11x11", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and f"sets d_in_img.data a second time (line {first_set} set it " \
        "first), from a value named for d_out_img, and no line sets d_out_img.data" in first, first


def test_a_load_moved_below_the_reads_of_its_tile_is_named(tmp_path):
    """Lab 02's ds_M load moved below the dot product that reads ds_M: the
    race check sees the read and the store race, and the first line names
    the misplaced load and the barrier to put it before, not a missing
    barrier."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    load = "        ds_M[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];\n"
    src = edited(tmp_path, "02-tiled-matmul", load, "")
    text = src.read_text().replace("            Pvalue += ds_M[ty][i] * ds_N[i][tx];\n",
                                   "            Pvalue += ds_M[ty][i] * ds_N[i][tx];\n" + load, 1)
    src.write_text(text)
    at = line_of(src, "ds_M[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", "--dataset", "width-0032", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the load into ds_M at line {at} (") and "comes after the read of ds_M at line " in first
    assert "move the load up before the __syncthreads() at line " in first, first


def test_a_round_up_by_one_size_divided_by_another_is_named(backend, tmp_path):
    """Lab 03's phase count rounded up by j and divided by TILE_WIDTH: the
    round-up must add TILE_WIDTH - 1 for a divisor of TILE_WIDTH (the
    defined size), not j - 1. The first line names the count's line and
    which of the two to change."""
    src = edited(tmp_path, "03-arbitrary-matmul", "numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;",
                 "numPhases = (k + j - 1) / TILE_WIDTH;")
    line = line_of(src, "numPhases = (k + j - 1) / TILE_WIDTH;")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "rounds up by j (`+ j - 1`) but divides by TILE_WIDTH" in first, first
    assert first.endswith("round up by TILE_WIDTH"), first


def test_a_while_whose_body_never_changes_its_test_is_named(tmp_path):
    """Lab 03's store test written `while`: its body changes neither Row nor
    Col, so the threads inside P never leave. The first line names the
    loop and says to write `if`, not only that a loop never ends."""
    src = edited(tmp_path, "03-arbitrary-matmul", "    if (Row < j && Col < l)", "    while (Row < j && Col < l)")
    line = line_of(src, "while (Row < j && Col < l)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", "--dataset", "one-1x1x1", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {line} (") and "its body changes nothing that test reads" in first, first
    assert "write `if`" in first, first


def test_a_thread_coordinate_given_the_other_axis_is_named(backend, tmp_path):
    """Lab 02's tx set from threadIdx.y as ty is (a copy of ty's
    declaration): the first line names the declaration that gives tx the
    other axis. (Both swapped is no mistake with square blocks.)"""
    src = edited(tmp_path, "02-tiled-matmul", "int tx = threadIdx.x, ty = threadIdx.y;",
                 "int tx = threadIdx.y, ty = threadIdx.y;")
    line = line_of(src, "int tx = threadIdx.y, ty = threadIdx.y;")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, "--dataset", "width-0032", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "sets tx to threadIdx.y: the name says one axis" in first, first


@pytest.mark.parametrize("name", ["blk_x", "blockX"])
def test_a_longer_name_of_an_axis_given_the_other_axis_is_named(tmp_path, name):
    """Lab 03's bx renamed (blk_x, blockX: the axis is the name's last
    part) and set from blockIdx.y: the first line names the declaration
    that gives it the other axis, as for the short name."""
    text = (kit.ROOT / "solutions" / "03-arbitrary-matmul" / "arbitrary_matmul.cu").read_text()
    text = re.sub(r"\bbx\b", name, text).replace(f"int {name} = blockIdx.x,", f"int {name} = blockIdx.y,")
    src = tmp_path / "arbitrary_matmul.cu"
    src.write_text(text)
    line = line_of(src, f"int {name} = blockIdx.y,")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", "--dataset", "rect-67x45x89", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and f"sets {name} to blockIdx.y: the name says one axis" in first, first


def test_a_name_given_a_coordinate_the_launch_has_one_of_is_said_as_zero(tmp_path):
    """Lab 02's bx set from blockIdx.z, the grid 1 in z: bx is 0 for every
    block, not another axis's values; the first line says so."""
    src = edited(tmp_path, "02-tiled-matmul", "int bx = blockIdx.x, by = blockIdx.y;",
                 "int bx = blockIdx.z, by = blockIdx.y;")
    line = line_of(src, "int bx = blockIdx.z, by = blockIdx.y;")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", "--dataset", "width-0064", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "sets bx to blockIdx.z, which is 0 for every thread (the launch " \
        "gives the grid 1 in z)" in first, first
    assert "runs along the other axis" not in first, first


def test_a_block_larger_than_the_kernels_launch_bounds_is_refused(backend, tmp_path):
    """Lab 03's kernel declared __launch_bounds__(128) and launched with
    blocks of 16 x 16 = 256 threads: a GPU refuses every launch, and so
    does the emulator (it used to ignore the bounds and give full marks).
    No dataset passes on either backend; on the emulator the first line
    names the launch and says why."""
    src = edited(tmp_path, "03-arbitrary-matmul", "__global__ void MatrixMulKernel(",
                 "__global__ void __launch_bounds__(128) MatrixMulKernel(")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, "--dataset", "rect-67x45x89", expect_rc=1)
    # (a GPU build earns the requirements its PTX shows, __shared__ and the barrier, whatever the runs did)
    assert set(kit.statuses(rep).values()) == {"cuda_error"}, kit.statuses(rep)
    first = rep["fix_first"]
    if backend == "emu":
        decl = line_of(src, "__launch_bounds__(128) MatrixMulKernel(")
        assert rep["score"] == 0 and first.startswith(f"line {decl} (") and \
            "gives MatrixMulKernel `__launch_bounds__(128)`, at most 128 threads a block" in first, first
        # the dataset's own line keeps the launch's error and the emulator's reason
        msg = rep["datasets"][0]["message"]
        assert "cudaErrorInvalidValue" in msg and "more than the kernel's __launch_bounds__ (128) allows" in msg, msg


def test_a_kernel_image_by_reference_earns_nothing(backend, tmp_path):
    """Lab 05's kernel given its input image by reference (`const Image_t
    &in`): the kernel gets the address of the host's d_in_img, host memory.
    The emulator used to copy the argument and give full marks; now the
    launch fails, as a kernel's reach into host memory does, and the first
    line names the launch, the argument and the `&`."""
    src = edited(tmp_path, "05-pitched-conv", "pitched_conv_kernel(Image_t in, Image_t out)",
                 "pitched_conv_kernel(const Image_t &in, Image_t out)")
    launch = line_of(src, "pitched_conv_kernel<<<")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, "--dataset", "rgb-5x7", expect_rc=1, sanitize=True)
    assert "pass" not in kit.statuses(rep).values(), kit.statuses(rep)
    if backend == "emu":
        first = rep["fix_first"]
        assert first.startswith(f"the launch at line {launch} (") and "is bound to a reference parameter" in first, first
        assert "declare that parameter by value" in first, first


def test_a_store_kept_to_one_pass_of_its_loop_is_named_at_its_test(tmp_path):
    """Lab 04's store of channel k written `if (y < height && x < width &&
    k == 0)`: only channel 0 is ever stored, the others are what the output
    buffer held. The first line names the test and the term to take out,
    not the copy back of bytes nothing stored."""
    src = edited(tmp_path, "04-conv-2batch", "        if (y < height && x < width)\n",
                 "        if (y < height && x < width && k == 0)\n")
    line = line_of(src, "if (y < height && x < width && k == 0)")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", "--dataset", "rgb-5x7", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "run only where `k == 0`" in first, first
    assert "take `k == 0` out of the test" in first, first


def test_a_store_before_the_loop_that_sums_is_named(tmp_path):
    """Lab 01's store of Pvalue written just after `float Pvalue = 0;`,
    above the loop that adds the terms, and not again after it: every
    element is 0. The first line names the store and the loop it should
    follow, not the three guesses of an all-zero output."""
    old = """        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += M[Row * Width + k] * N[k * Width + Col];
        P[Row * Width + Col] = Pvalue;"""
    new = """        float Pvalue = 0;
        P[Row * Width + Col] = Pvalue;
        for (int k = 0; k < Width; ++k)
            Pvalue += M[Row * Width + k] * N[k * Width + Col];"""
    src = edited(tmp_path, "01-basic-matmul", old, new)
    store, loop = line_of(src, "P[Row * Width + Col] = Pvalue;"), line_of(src, "for (int k = 0; k < Width; ++k)")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", "--dataset", "width-0015", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the store at line {store} (") and f"comes before the loop at line {loop} (" in first, first
    assert "move the store after the loop's closing brace" in first, first


def test_a_defined_size_divided_by_a_variable_is_named(tmp_path):
    """Lab 03's phase count written `numPhases = TILE_WIDTH / k` instead
    of rounding k up to whole tiles: 0 for every k above 16, so no phase
    runs and most outputs are 0. The first line names the division the
    wrong way round."""
    src = edited(tmp_path, "03-arbitrary-matmul", "(k + TILE_WIDTH - 1) / TILE_WIDTH", "TILE_WIDTH / k")
    line = line_of(src, "TILE_WIDTH / k")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", "--dataset", "rect-67x45x89", expect_rc=1,
                             sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "divides TILE_WIDTH (16) by k, the wrong way round" in first, first
    assert "write k / TILE_WIDTH" in first, first


def test_a_phase_count_divided_in_floating_point_is_said_cut_toward_0_not_divided_by_its_cast(tmp_path):
    """Lab 03's phase count written `numPhases = k / (double)TILE_WIDTH;`:
    the quotient has its fraction, but the int takes it cut toward 0, so
    the partial last phase is never run. The divisor is TILE_WIDTH, the
    phase's own step, its cast no divisor of its own: the first line is
    the round-up at that line, said as a floating-point quotient cut
    toward 0, never as a division by `double`."""
    src = edited(tmp_path, "03-arbitrary-matmul", "(k + TILE_WIDTH - 1) / TILE_WIDTH", "k / (double)TILE_WIDTH")
    line = line_of(src, "k / (double)TILE_WIDTH")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert "divides by `double`" not in first, first
    assert first.startswith(f"line {line}: `k / (double)TILE_WIDTH` in "), first
    assert "the division is in floating point, but its quotient is cut toward 0 where it becomes an int" in first, first
    assert "round it up" in first, first


def test_a_test_on_a_loop_s_counter_at_its_bound_never_holds_inside_the_loop(tmp_path):
    """Lab 03's store moved into the phase loop under `ph == numPhases`,
    meant as after the last phase: the loop runs ph < numPhases, so the
    test never holds there and no element of P is written. The first line
    names the test, the loop, and what to write (the last pass, or the
    store after the loop), not a repair that makes the test always hold.
    (A store whose index reads the counter is one pass's, a reading of its
    own: lab 04's `k == channels` is said to take out.)"""
    text = (kit.ROOT / "solutions" / "03-arbitrary-matmul" / "arbitrary_matmul.cu").read_text()
    store = "    if (Row < j && Col < l)\n        P[Row * l + Col] = Pvalue;\n"
    barrier = "        //@@ TODO 7: Wait until every thread is done with the tiles.\n        __syncthreads();\n"
    assert text.count(store) == 1 and text.count(barrier) == 1
    text = text.replace(store, "").replace(
        barrier, barrier + "        if (ph == numPhases && Row < j && Col < l)\n            P[Row * l + Col] = Pvalue;\n")
    src = tmp_path / "arbitrary_matmul.cu"
    src.write_text(text)
    line = line_of(src, "if (ph == numPhases && Row < j")
    loop = line_of(src, "for (int ph = 0; ph < numPhases; ++ph)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", "--dataset", "rect-67x45x89", expect_rc=1,
                             sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "holds only where `ph == numPhases`" in first, first
    assert f"the loop at line {loop} runs only while ph < numPhases" in first, first
    assert "ph == numPhases - 1" in first and "after the loop's closing brace" in first, first
    assert "looks like the mistake" not in first, first


@pytest.mark.parametrize("lab, store, compound", [
    ("02-tiled-matmul", "P[Row * Width + Col] = Pvalue;", "atomicAdd(&P[Row * Width + Col], Pvalue);"),
    ("03-arbitrary-matmul", "P[Row * l + Col] = Pvalue;", "P[Row * l + Col] += Pvalue;"),
])
def test_an_output_store_that_adds_into_the_output_is_said_as_the_store_to_write(tmp_path, lab, store, compound):
    """The output's store written as an add into it (`+=`, or an
    atomicAdd, a student's guard of a write each element gets once): the
    output was never set, so the add reads what cudaMalloc left. The
    first line names that store and the plain store to write there, not
    a copy into the output buffer."""
    src = edited(tmp_path, lab, store, compound)
    line = line_of(src, compound)
    rc, rep = kit.check_json(lab, src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert f"is read at line {line} (`{compound}`)" in first, first
    assert "that store adds its value into the output instead of storing it" in first, first
    assert first.endswith(f"write `{store}`"), first
    assert "copy the input into" not in first, first


def test_a_sum_made_in_the_output_over_its_loop_is_not_said_as_one_value_to_store(tmp_path):
    """Lab 01's sum made in P itself, `P[...] += M[...] * N[...]` inside
    the loop over k (the mutant sum-into-unzeroed-output): the added value
    reads the loop's counter, so it is a sum, not one value; the first
    line says to store every element first, never to write the term as
    the whole store."""
    lab = "01-basic-matmul"
    src = kit.ROOT / "solutions" / lab / "mutants" / "sum-into-unzeroed-output.cu"
    rc, rep = kit.check_json(lab, src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "before anything stored it" in first, first
    assert "each thread computes its element whole" not in first, first


def test_a_block_too_large_through_a_macro_of_a_macro_names_the_number_chosen(tmp_path):
    """Lab 05's output tile defined 30 wide: BLOCK_WIDTH, `(O_TILE_WIDTH +
    MASK_WIDTH - 1)`, comes to 34, and a 34 x 34 block is past 1024
    threads, so every launch fails. The first line names the number's
    definition, through the macro the block is given, not the block as
    sized by the data."""
    src = edited(tmp_path, "05-pitched-conv", "#define O_TILE_WIDTH 12", "#define O_TILE_WIDTH 30")
    line = line_of(src, "#define O_TILE_WIDTH 30")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", "--dataset", "gray-1x1", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`#define O_TILE_WIDTH 30`) makes BLOCK_WIDTH 34 (BLOCK_WIDTH is "
                            "`(O_TILE_WIDTH + MASK_WIDTH - 1)`)"), first
    assert "34 x 34 = 1156 threads" in first and "make O_TILE_WIDTH smaller" in first, first
    assert "whatever the data's size" not in first, first


def test_a_ghost_test_on_the_names_a_read_is_made_from_says_to_test_the_read_s_own(tmp_path):
    """Lab 04's second batch's ghost test written on the tile's coordinates,
    `destY >= 0 && destY < height && destX >= 0 && destX < width`, where
    the read indexes the image with srcY and srcX, made from them: the test
    keeps nothing of the read inside the image, and the halo's reads run
    off it. The first line names the test and the names to test instead."""
    text = (kit.ROOT / "solutions" / "04-conv-2batch" / "conv_2batch.cu").read_text()
    old = "            if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)"
    assert text.count(old) == 1
    src = tmp_path / "conv_2batch.cu"
    src.write_text(text.replace(old, "            if (destY >= 0 && destY < height && destX >= 0 && destX < width)"))
    line = line_of(src, "if (destY >= 0 && destY < height")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "bounds destY and destX" in first, first
    assert "indexes with srcY and srcX, made from them" in first, first
    assert "test srcY and srcX there in place of destY and destX" in first, first


def test_a_tile_width_that_divides_only_the_passing_sizes_is_named_at_its_define(tmp_path):
    """Lab 02's TILE_WIDTH defined 12: of the widths, all multiples of 32,
    it divides 96 alone (so the grid and the phases cover 96 whole, and
    nothing else), and 96 alone passes. The first line names the define,
    the sizes that pass and fail, and what every size is a multiple of."""
    src = edited(tmp_path, "02-tiled-matmul", "#define TILE_WIDTH 16", "#define TILE_WIDTH 12")
    line = line_of(src, "#define TILE_WIDTH 12")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`#define TILE_WIDTH 12`) makes TILE_WIDTH 12"), first
    assert "those whose sizes 12 divides (96)" in first, first
    assert "every dataset's size is a multiple of 32, so give TILE_WIDTH a value that divides 32" in first, first


@pytest.mark.parametrize("lab, old, new, what, unit, builtin", [
    ("02-tiled-matmul", "dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);",
     "int dimGrid = width / TILE_WIDTH;", "grid", "blocks", "blockIdx"),
    ("01-basic-matmul", "dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH);", "int dimBlock = BLOCK_WIDTH;", "block",
     "threads", "threadIdx"),
])
def test_a_grid_or_block_declared_an_integer_for_a_2d_kernel_is_named_at_its_declaration(tmp_path, lab, old, new, what,
                                                                                       unit, builtin):
    """A launch's grid (or block) declared `int`: a number there is that
    many in x and 1 in y, where the kernel reads the y coordinate. The
    first line names the declaration and the dim3 to declare, ahead of
    the launch record's uncovered rows."""
    src = edited(tmp_path, lab, old, new)
    line = line_of(src, new)
    rc, rep = kit.check_json(lab, src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    name = new.split()[1]
    assert first.startswith(f"line {line} (`{new}`) declares {name} an integer"), first
    assert f"gives it as the {what}: a number there is that many {unit} in x and 1 in y" in first, first
    assert f"the kernel reads {builtin}.y" in first and f"`dim3 {name}(n, n)`" in first, first


def test_a_dim3_initialised_with_a_bracketed_pair_is_said_as_a_comma_expression(tmp_path):
    """Lab 04's grid written `dim3 dimGrid = (A, B);`: a comma expression,
    B alone, so the grid is B x 1 x 1 and the blocks below the first row
    are never launched. The first line names the declaration, the comma
    expression and its value, ahead of the launch record."""
    old = "dim3 dimGrid((width + TILE_WIDTH - 1) / TILE_WIDTH, (height + TILE_WIDTH - 1) / TILE_WIDTH);"
    src = edited(tmp_path, "04-conv-2batch", old, old.replace("dimGrid((", "dimGrid = ((", 1))
    line = line_of(src, "dim3 dimGrid = ((width")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "initialises dimGrid with `= (...)`" in first, first
    assert "comma expression, whose value is its last operand alone ((height + TILE_WIDTH - 1) / TILE_WIDTH)" in first, \
        first
    assert "`dim3 dimGrid(...)`, without the `=`" in first, first


def test_a_symbol_copy_counted_with_another_type_s_size_is_named_at_the_copy(tmp_path):
    """Lab 05's mask copy counted `MASK_WIDTH * MASK_WIDTH * sizeof(long)`:
    200 bytes for Mc's 100, so the runtime refuses it. The count's type is
    the mistake, not Mc's declaration: the first line names the copy, the
    two types, and sizeof(float) to write."""
    old = "CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));"
    src = edited(tmp_path, "05-pitched-conv", old, old.replace("sizeof(float)", "sizeof(long)"))
    line = line_of(src, "sizeof(long)")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "counts its bytes with sizeof(long), but Mc's elements are float" \
        in first, first
    assert "count with sizeof(float)" in first and "declare Mc as large" not in first, first


def test_a_bounds_test_written_with_not_equal_is_named_where_a_value_past_the_bound_got_through(tmp_path):
    """Lab 03's M load tested `Row != j && mCol != k`: `!=` stops the one
    value equal to the bound, and a grid rounded up to whole tiles has
    threads past it, which read past M. The first line names the test, the
    value that got through, and `<` to write."""
    src = edited(tmp_path, "03-arbitrary-matmul", "if (Row < j && mCol < k)", "if (Row != j && mCol != k)")
    line = line_of(src, "if (Row != j && mCol != k)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (`if (Row != j && mCol != k)`) bounds "), first
    assert "with `!=`" in first and "past it, gets through" in first, first
    assert "(and `<` for each `!=` bound of that test)" in first, first


def test_a_ghost_test_that_bounds_a_coordinate_from_below_only_names_the_upper_bound_its_twin_has(tmp_path):
    """Lab 04's second batch's ghost test without `srcX < width`: srcX is
    bounded from below only, and the halo's columns past the image read
    past a row's end (past the image on its last row). The first batch's
    test has the bound: the first line names the second test, the value
    that got through, and the clause to add."""
    text = (kit.ROOT / "solutions" / "04-conv-2batch" / "conv_2batch.cu").read_text()
    old = "            if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)"
    assert text.count(old) == 1
    src = tmp_path / "conv_2batch.cu"
    src.write_text(text.replace(old, "            if (srcY >= 0 && srcY < height && srcX >= 0)"))
    line = line_of(src, "if (srcY >= 0 && srcY < height && srcX >= 0)")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "bounds srcX from below only (`srcX >= 0`)" in first, \
        first
    assert "also has `srcX < width`" in first and "add `srcX < width` there" in first, first


def test_a_pitched_index_with_row_and_column_exchanged_is_named_not_the_pitch(tmp_path):
    """Lab 05's store written `out.data[col_o * out.pitch + row_o *
    out.channels + k]`: the test before it bounds col_o by the width and
    row_o by the height, and held, so the pitch multiplies a column. The
    first line names the exchange and the line to write, not the pitch's
    value (which is right)."""
    old = "out.data[row_o * out.pitch + col_o * out.channels + k]"
    new = "out.data[col_o * out.pitch + row_o * out.channels + k]"
    src = edited(tmp_path, "05-pitched-conv", old, new)
    line = line_of(src, new)
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the index of the access at line {line} multiplies col_o by out.pitch"), first
    assert "the row and the column are exchanged in the index" in first, first
    assert f"(write `{old} = acc;`)" in first, first
    assert "the stride's value is not" not in first, first


def test_an_inner_loop_started_only_in_the_outer_loop_s_header_is_named(tmp_path):
    """Lab 05's mask loops with j started in the row loop's header, `for
    (int i = 0, j = 0; ...)`, and the column loop written `for (; j <
    MASK_WIDTH; j++)`: j ends the first row at 5 and stays there, so every
    later row adds nothing. The first line names the inner loop, the header
    that alone sets j, and the start to write."""
    text = (kit.ROOT / "solutions" / "05-pitched-conv" / "pitched_conv.cu").read_text()
    old = ("            for (int i = 0; i < MASK_WIDTH; i++)\n"
           "                for (int j = 0; j < MASK_WIDTH; j++)\n")
    assert text.count(old) == 1
    src = tmp_path / "pitched_conv.cu"
    src.write_text(text.replace(old, "            for (int i = 0, j = 0; i < MASK_WIDTH; i++)\n"
                                     "                for (; j < MASK_WIDTH; j++)\n"))
    line = line_of(src, "for (; j < MASK_WIDTH; j++)")
    outer = line_of(src, "for (int i = 0, j = 0; i < MASK_WIDTH; i++)")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {line} (`for (; j < MASK_WIDTH; j++)`) gives j no start"), first
    assert f"only the start of the loop around it, line {outer} (" in first, first
    assert "start it in the header, `j = 0`" in first, first


def test_a_comparison_written_as_a_statement_is_named_as_the_assignment_meant(tmp_path):
    """Lab 05's output pitch written `d_out_img.pitch == (int)(...);`: the
    statement compares and throws the answer away, so the pitch keeps the
    host's. The first line names the statement and the assignment to
    write, before what the wrong stride did to the output."""
    old = "    d_out_img.pitch = (int)(out_pitch_bytes / sizeof(float));"
    src = edited(tmp_path, "05-pitched-conv", old, old.replace(" = ", " == "))
    line = line_of(src, "d_out_img.pitch == (int)")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`d_out_img.pitch == (int)(out_pitch_bytes / sizeof(float));`) compares "
                            "(`==`) and throws the result away"), first
    assert "write `=`: `d_out_img.pitch = (int)(out_pitch_bytes / sizeof(float));`" in first, first


def test_a_kernel_index_declared_in_a_narrow_type_is_named_at_its_declaration(tmp_path):
    """Lab 01's Col declared `unsigned char`: on the 257-wide dataset
    column 256 wraps to 0, and two threads store one element (a race the
    checkers see at the store). The first line names the declaration and
    the type to write, not the race."""
    old = "    int Col = blockIdx.x * blockDim.x + threadIdx.x;"
    src = edited(tmp_path, "01-basic-matmul", old, old.replace("int Col", "unsigned char Col"))
    line = line_of(src, "unsigned char Col")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`unsigned char Col = blockIdx.x * blockDim.x + threadIdx.x;`) declares "
                            "Col `unsigned char`, which holds at most 255"), first
    assert first.endswith("declare Col int"), first


def test_a_thread_s_coordinate_kept_in_a_shared_scalar_is_named_before_the_tile_s_race(tmp_path):
    """Lab 03's Row kept in a `__shared__ int`: every thread of the block
    stores its own row into the one variable, and the tile loads that read
    it race with those stores (which a barrier placed elsewhere would seem
    to mend). The first line names the declaration and says to make it a
    plain local, by the race's reading or by the repair search's edit."""
    old = "    int Row = by * TILE_WIDTH + ty;"
    src = edited(tmp_path, "03-arbitrary-matmul", old, "    __shared__ int Row; Row = by * TILE_WIDTH + ty;")
    line = line_of(src, "__shared__ int Row;")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    # the race's reading, or the repair that drops `__shared__` (both say the declaration)
    assert first.startswith(f"line {line}"), first
    assert ("declares Row `__shared__`: one variable for the whole block" in first and
            "declare it without `__shared__`" in first) or "with `int Row;` there" in first, first
    assert "comes after the read" not in first and "move it up" not in first, first


def test_a_launch_that_passes_one_buffer_for_two_parameters_names_the_one_left_out(tmp_path):
    """Lab 01's launch passes d_M for both M and N: d_N, declared beside
    d_M, goes to no argument. The first line names the launch, the name
    passed twice and the one to pass."""
    src = edited(tmp_path, "01-basic-matmul", "(d_M, d_N, d_P, width)", "(d_M, d_M, d_P, width)")
    line = line_of(src, "(d_M, d_M, d_P, width)")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the launch at line {line} (") and "passes d_M twice, as MatrixMulKernel's `M` and as " \
        "its `N`" in first, first
    assert "pass d_N as `N`" in first, first


def test_a_column_bounded_by_the_pitch_is_named_at_its_test_not_as_a_row_stride(tmp_path):
    """Lab 05's load tests `col_i < in.pitch`: the pitch counts each row's
    padding, so the columns past the width pass and the load reads the
    padding, which no copy stores. The row stride is right: the first line
    names the test's bound, not the index's stride."""
    old = "col_i >= 0 && col_i < in.width)"
    src = edited(tmp_path, "05-pitched-conv", old, "col_i >= 0 && col_i < in.pitch)")
    line = line_of(src, "col_i < in.pitch)")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "bounds col_i by `in.pitch`, which counts each row's " \
        "padding too" in first, first
    assert "bound col_i by the width" in first and "step the rows by the pitch" not in first, first


def test_a_sum_that_adds_itself_each_pass_is_named_at_its_statement(tmp_path):
    """Lab 02's dot product written `Pvalue += Pvalue + ds_M[ty][i] *
    ds_N[i][tx];`: each pass adds the sum to itself besides the product,
    so it doubles and overflows (values a guard zone would hold, read from
    no array). The first line names the statement, not a bounds test."""
    old = "Pvalue += ds_M[ty][i] * ds_N[i][tx];"
    src = edited(tmp_path, "02-tiled-matmul", old, "Pvalue += Pvalue + ds_M[ty][i] * ds_N[i][tx];")
    line = line_of(src, "Pvalue += Pvalue + ")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`Pvalue += Pvalue + ds_M[ty][i] * ds_N[i][tx];`) adds "), first
    assert "and that value reads Pvalue again" in first and "bounds test" not in first, first


def test_a_body_unrolled_by_two_in_a_loop_stepped_by_one_says_to_step_by_two(tmp_path):
    """Lab 01's dot product unrolled by two, `M[.. + k] * N[k * ..] + M[..
    + k + 1] * N[(k + 1) * ..]`, in a loop still stepped `++k`: every term
    is added twice and the last pass reads past the end. The first line
    names the loop and the step to write, not a bound for `k + 1`."""
    old = "            Pvalue += M[Row * Width + k] * N[k * Width + Col];"
    src = edited(tmp_path, "01-basic-matmul", old,
                 "            Pvalue += M[Row * Width + k] * N[k * Width + Col] + M[Row * Width + k + 1] * "
                 "N[(k + 1) * Width + Col];")
    loop = line_of(src, "for (int k = 0; k < Width; ++k)")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {loop} (`for (int k = 0; k < Width; ++k)`) steps k by 1"), first
    assert "a body unrolled to 2 terms" in first and "step by 2 (`k += 2`)" in first, first
    assert "bound what the access reads" not in first, first


def test_a_pitched_read_whose_stride_is_not_the_allocation_s_pitch_names_where_it_is_set(tmp_path):
    """Lab 05's input stride set from the packed row, `d_in_img.pitch =
    in->width * in->channels;`: the reads land in the padding of d_in's
    rows. The first line names the line that sets the stride and the pitch
    cudaMallocPitch gave, not the index's stride in the abstract."""
    old = "    d_in_img.pitch = (int)(in_pitch_bytes / sizeof(float));"
    src = edited(tmp_path, "05-pitched-conv", old, "    d_in_img.pitch = in->width * in->channels;")
    line = line_of(src, "d_in_img.pitch = in->width * in->channels;")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"in.pitch, the row stride the read at line "), first
    assert f"is set at line {line} (" in first and "from another value than in_pitch_bytes" in first, first
    assert "in_pitch_bytes / sizeof(float)" in first, first


def test_an_output_stride_from_the_host_is_not_blamed_on_the_store_s_test(tmp_path):
    """Lab 05's output stride taken from the host image, `d_out_img.pitch =
    out->pitch;`: rows past the first land elsewhere, and on the one-column
    image every element below row 0 is never stored. The store's test
    bounds the column (col_o < out.width) and held for every column there
    is: it is not named as the test that kept the rows out, and dropping
    the statement that hands d_out to the kernel (which the emulator, whose
    device memory is the host's, would take) is no repair."""
    old = "    d_out_img.pitch = (int)(out_pitch_bytes / sizeof(float));"
    src = edited(tmp_path, "05-pitched-conv", old, "    d_out_img.pitch = out->pitch;")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert "keeps threads from the store" not in first, first
    assert rep["repair"]["from"] != "d_out_img.data = d_out;", rep["repair"]


def test_an_image_descriptor_declared_with_no_value_is_named_as_the_store_test_s_bound(tmp_path):
    """Lab 05's output descriptor declared with no value, `Image_t
    d_out_img, d_in_img = *in;`: only its data and pitch are set after, so
    the kernel's out.height and out.width are whatever the stack held, and
    the store's test keeps every thread out. The first line names the
    declaration, not the test's bound."""
    old = "    Image_t d_in_img = *in, d_out_img = *out;"
    src = edited(tmp_path, "05-pitched-conv", old, "    Image_t d_out_img, d_in_img = *in;")
    line = line_of(src, "Image_t d_out_img, d_in_img = *in;")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} declares d_out_img with no value"), first
    assert "give d_out_img its value there" in first and "fix that test's bound" not in first, first


def test_a_row_stride_in_brackets_is_named_as_the_stride_with_the_size_to_write(tmp_path):
    """Lab 03's M load steps its rows by the grid's extent, `M[Row *
    (gridDim.y * TILE_WIDTH) + mCol]`, rounded up to whole tiles, where the
    rows of M are k apart. The test before it held; the first line names
    the bracketed stride and k to write."""
    old = "M[Row * k + mCol]"
    src = edited(tmp_path, "03-arbitrary-matmul", old, "M[Row * (gridDim.y * TILE_WIDTH) + mCol]")
    line = line_of(src, "M[Row * (gridDim.y * TILE_WIDTH) + mCol]")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the index of the access at line {line} steps Row by (gridDim.y * TILE_WIDTH)"), first
    assert "write Row * k" in first, first


def test_an_output_transposed_by_the_tile_s_read_names_that_read_not_the_store(tmp_path):
    """Lab 05's sum reads the tile `N_ds[tx + i][ty + j]`: on a one-block
    image every result is its mirror's, as if stored transposed, but the
    store's index is right; the read has the thread's x in the tile's row.
    The first line names the read and writes it with tx and ty exchanged."""
    old = "acc += Mc[i][j] * N_ds[ty + i][tx + j];"
    src = edited(tmp_path, "05-pitched-conv", old, "acc += Mc[i][j] * N_ds[tx + i][ty + j];")
    line = line_of(src, "N_ds[tx + i][ty + j]")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert f"the read of the tile N_ds at line {line} (" in first, first
    assert "write `N_ds[ty + i][tx + j]` (the output's store is right)" in first, first


def test_a_launch_given_one_member_of_its_dim3_names_the_whole_dim3(tmp_path):
    """Lab 02's launch gives `dimBlock.x` as its block: one count, 16
    threads in x and 1 in y, where the kernel reads threadIdx.y. The first
    line names the launch and the dim3 to pass."""
    src = edited(tmp_path, "02-tiled-matmul", "<<<dimGrid, dimBlock>>>", "<<<dimGrid, dimBlock.x>>>")
    line = line_of(src, "<<<dimGrid, dimBlock.x>>>")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the launch at line {line} (") and "gives dimBlock.x as the block" in first, first
    assert first.endswith("pass the whole dim3, dimBlock"), first


def test_a_built_in_size_read_in_the_host_s_code_is_named_there(tmp_path):
    """Lab 01's block declared `dim3 dimBlock(blockDim.x, blockDim.y)` in
    the host's code, where blockDim is no launch's. The first line names
    that line and the value to use, whatever the run then did."""
    old = "    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH);"
    src = edited(tmp_path, "01-basic-matmul", old, "    dim3 dimBlock(blockDim.x, blockDim.y);")
    line = line_of(src, "dim3 dimBlock(blockDim.x, blockDim.y);")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`dim3 dimBlock(blockDim.x, blockDim.y);`) reads blockDim in the host's "
                            "code"), first
    assert "have a launch's values only inside a kernel" in first, first


def test_a_symbol_copy_too_large_for_the_skeleton_s_declaration_names_the_copy(tmp_path):
    """Lab 04's mask copied with `TILE_WIDTH * TILE_WIDTH * sizeof(float)`
    bytes into Mc, declared as the skeleton declares it: the copy does not
    fit and is refused. The declaration is the lab's; the first line names
    the copy's count, not a larger Mc."""
    import re
    text = (kit.ROOT / "solutions" / "04-conv-2batch" / "conv_2batch.cu").read_text()
    m = re.search(r"cudaMemcpyToSymbol\(Mc, [^,]+, ([^)]+\)[^)]*)\)", text)
    assert m, "no symbol copy in the reference"
    src = tmp_path / "conv_2batch.cu"
    src.write_text(text.replace(m.group(1), "TILE_WIDTH * TILE_WIDTH * sizeof(float)", 1))
    line = line_of(src, "TILE_WIDTH * TILE_WIDTH * sizeof(float)")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "as the skeleton does" in first, first
    assert "count Mc's own bytes (`sizeof(Mc)`)" in first and "as large as what it holds" not in first, first


def test_a_loop_started_below_zero_over_a_tile_s_subscript_names_the_loop(tmp_path):
    """Lab 05's mask row loop centred, `for (int i = -MASK_RADIUS; i <=
    MASK_RADIUS; i++)`, over `N_ds[ty + i]`: the first threads read below
    the tile's start. The first line names the loop's start, not an offset
    to look for."""
    old = "            for (int i = 0; i < MASK_WIDTH; i++)"
    src = edited(tmp_path, "05-pitched-conv", old, "            for (int i = -MASK_RADIUS; i <= MASK_RADIUS; i++)")
    line = line_of(src, "for (int i = -MASK_RADIUS; i <= MASK_RADIUS; i++)")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {line} (") and "starts i at -MASK_RADIUS" in first, first
    assert "start the loop at 0" in first, first


def test_a_square_s_row_stride_written_as_the_block_s_size_is_named_not_its_test(tmp_path):
    """Lab 01's store steps its rows by the block, `P[Row * blockDim.y +
    Col]`, where they are Width apart. The test before it, `Row < Width &&
    Col < Width`, bounds both by the square's side and held: the first line
    names the stride and Width to write, not the test as one that bounds a
    row by the columns' count."""
    old = "P[Row * Width + Col] = Pvalue"
    src = edited(tmp_path, "01-basic-matmul", old, "P[Row * blockDim.y + Col] = Pvalue")
    line = line_of(src, "P[Row * blockDim.y + Col]")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", expect_rc=1, sanitize=True)
    # the repair search's edit of that factor (a block's size where a
    # product wants the function's Width) leads, at the same line; the
    # checkers' finding says the stride as the index's, not the test's
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `blockDim.y` in `P[Row * blockDim.y + Col] = Pvalue` looks like the "
                            "mistake: with `Width` there"), first
    found = [f["message"] for d in rep["datasets"] if d["sanitizer"] for f in d["sanitizer"]["findings"]]
    assert any(m.startswith(f"the index of the access at line {line} steps Row by blockDim.y") and
               "write Row * Width" in m for m in found), found
    assert all("the columns' count" not in m for m in found) and "the columns' count" not in first, found


def test_a_load_test_that_leaves_out_the_name_made_from_the_phase_names_it(tmp_path):
    """Lab 03's N load tests Col only, `if (Col < l)`: nRow, made from the
    phase loop's counter, goes past N's rows in the last pass over a k that
    is no multiple of the tile. The first line names nRow as the name no
    test bounds, made from ph, to test there too."""
    src = edited(tmp_path, "03-arbitrary-matmul", "if (nRow < k && Col < l)", "if (Col < l)")
    line = line_of(src, "if (Col < l)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith("no test this thread passed bounds `nRow`"), first
    assert f"the test at line {line} (" in first and "`nRow` is made from ph, the loop's counter" in first, first


def test_a_pitched_copy_whose_width_is_the_pitch_names_the_width_to_give(tmp_path):
    """Lab 05's copy in given the device pitch as its width, `...,
    in_pitch_bytes, in->height, cudaMemcpyHostToDevice)`: 512 bytes a row,
    more than the host's pitch, refused. The first line names the width
    argument as d_in's pitch and row_bytes, what cudaMallocPitch was given,
    as the width to write."""
    old = "                            row_bytes, in->height, cudaMemcpyHostToDevice));"
    src = edited(tmp_path, "05-pitched-conv", old, old.replace("row_bytes,", "in_pitch_bytes,"))
    line = line_of(src, "cudaMemcpy2D(d_in, in_pitch_bytes")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the cudaMemcpy2D at line {line} ("), first
    assert "its width, in_pitch_bytes, is the pitch cudaMallocPitch gave d_in" in first and "(`row_bytes`)" in first, \
        first


def test_a_tile_load_stored_transposed_beside_its_else_names_that_store(tmp_path):
    """Lab 03's M tile loaded at `ds_M[tx][ty]` while its else stores
    `ds_M[ty][tx] = 0.0f`: the two put different threads in one slot, a
    race. The first line names the load's store, with x in the row
    subscript, and the subscripts to write, not how tx and ty are made."""
    old = "ds_M[ty][tx] = M[Row * k + mCol];"
    src = edited(tmp_path, "03-arbitrary-matmul", old, "ds_M[tx][ty] = M[Row * k + mCol];")
    line = line_of(src, "ds_M[tx][ty] = M[")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert f"line {line} (`ds_M[tx][ty] = M[Row * k + mCol];`) has the thread's x in the tile's row subscript" in first, \
        first
    assert "write `ds_M[ty][tx]`" in first, first


def test_a_pitch_divided_by_another_number_than_an_element_s_size_names_the_division(tmp_path):
    """Lab 05's input stride set as `in_pitch_bytes / 8`: half the stride
    in floats, so rows are read from inside other rows' padding. The first
    line names the line and the division to write."""
    old = "d_in_img.pitch = (int)(in_pitch_bytes / sizeof(float));"
    src = edited(tmp_path, "05-pitched-conv", old, "d_in_img.pitch = (int)(in_pitch_bytes / 8);")
    line = line_of(src, "in_pitch_bytes / 8")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert f"is set at line {line} (" in first and "from in_pitch_bytes divided by `8`" in first, first
    assert "(`in_pitch_bytes / sizeof(float)`)" in first, first


def test_an_output_read_where_a_twin_line_reads_an_input_names_that_input(tmp_path):
    """Lab 04's first batch loads from P, `N_ds[destY][destX] = P[...]`,
    where the second batch's load, written the same way, reads I. The
    first line names I as what to read there, not a sum to start at 0."""
    text = (kit.ROOT / "solutions" / "04-conv-2batch" / "conv_2batch.cu").read_text()
    old = "            N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];"
    assert text.count(old) == 2
    src = tmp_path / "conv_2batch.cu"
    src.write_text(text.replace(old, old.replace("= I[", "= P["), 1))
    line = line_of(src, "= P[(srcY * width + srcX) * channels + k];")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert f"at line {line} (" in first and "reads P, the output it stores at line" in first, first
    assert "written the same way, reads I: write I there" in first and "start from 0" not in first, first


def test_a_test_on_a_term_of_the_read_s_index_name_says_to_test_the_name(tmp_path):
    """Lab 03's N load tested `ph * TILE_WIDTH < k`, the phase's first
    row, where the read takes nRow = ph * TILE_WIDTH + ty: in the last
    phase the threads whose nRow is past k get through and read past N.
    The first line names the test, the name it is a part of, and the
    test to write."""
    src = edited(tmp_path, "03-arbitrary-matmul", "if (nRow < k && Col < l)", "if (ph * TILE_WIDTH < k && Col < l)")
    line = line_of(src, "if (ph * TILE_WIDTH < k && Col < l)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "bounds `ph * TILE_WIDTH`, which is only a part of nRow" \
        in first, first
    assert "test nRow there (`nRow < k`)" in first, first


def test_a_tile_declared_wider_than_its_block_s_window_is_named_at_its_size(tmp_path):
    """Lab 04's input tile declared `TILE_WIDTH + 3 * MASK_WIDTH` (31) a
    side, where a block of 16 x 16 reads a window of 20: the two batches'
    512 slots, counted in rows of 31, stop short of slots the sum reads.
    The block's threads could fill the window; the first line names the
    tile's size, and the side to declare, not the block."""
    src = edited(tmp_path, "04-conv-2batch", "const int w = TILE_WIDTH + MASK_WIDTH - 1;",
                 "const int w = TILE_WIDTH + 3 * MASK_WIDTH;")
    line = line_of(src, "const int w = TILE_WIDTH + 3 * MASK_WIDTH;")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", "--dataset", "rgb-16x16", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert "N_ds is declared 31 x 31, but the block's 16 x 16 threads, one output each, read a window of 16 + 4 = 20" \
        in first, first
    assert f"declare it 20 a side (its size is set at line {line} (" in first, first
    assert "the block is too small" not in first, first


def test_a_tile_s_ghost_test_on_one_flat_value_is_named(tmp_path):
    """Lab 05's load tested on one flat value of both coordinates,
    `row_i * in.width + col_i < in.height * in.width` (and `>= 0`): a halo
    pixel left or right of the image in a row inside it passes, and the
    load takes the neighbouring row's pixel where 0 belongs. The first
    line names the test and says to test each coordinate."""
    old = "if (row_i >= 0 && row_i < in.height && col_i >= 0 && col_i < in.width)"
    new = "if (row_i * in.width + col_i >= 0 && row_i * in.width + col_i < in.height * in.width)"
    src = edited(tmp_path, "05-pitched-conv", old, new)
    line = line_of(src, new)
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and \
        "bounds one value made of both coordinates, `row_i * in.width + col_i`, by the whole count, " \
        "`in.height * in.width`" in first, first
    assert "test each coordinate against its own bounds" in first, first


def test_an_output_value_cast_to_an_integer_at_its_store_is_named(tmp_path):
    """Lab 04's output stored as `(long)acc`: every value is cut toward 0
    to a whole number. The first line names the store's cast and says to
    store the value without it."""
    old = "P[(y * width + x) * channels + k] = acc;"
    src = edited(tmp_path, "04-conv-2batch", old, "P[(y * width + x) * channels + k] = (long)acc;")
    line = line_of(src, "= (long)acc;")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "casts the value it stores to long" in first, first
    assert "store the value as it is, without the cast" in first, first


def test_an_output_never_copied_back_is_named_at_the_entry_point_s_parameter(tmp_path):
    """Lab 05's copy of the result back into out left out: the kernel
    writes d_out, and nothing brings it back, so no element of the output
    is written. The first line names out, the entry point's output, the
    launch, and the copy to add."""
    old = ("    CUDA_CHECK(cudaMemcpy2D(out->data, (size_t)out->pitch * sizeof(float), d_out, out_pitch_bytes,\n"
           "                            row_bytes, out->height, cudaMemcpyDeviceToHost));\n")
    src = edited(tmp_path, "05-pitched-conv", old, "")
    decl = line_of(src, "Image_t *out")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", "--dataset", "rgb-5x7", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"no call of the file copies the result into out, the output (line {decl} ("), first
    assert "copy the device result into out (a cudaMemcpy, or a cudaMemcpy2D" in first, first
    # a copy that names the output, the wrong way round or a host memcpy,
    # is another reading's: never said as no copy at all (on a GPU too,
    # where no earlier record of the copies leads)
    for wrong in ("CUDA_CHECK(cudaMemcpy(d_P, P, bytes, cudaMemcpyDeviceToHost));", "memcpy(P, d_P, bytes);"):
        other = edited(tmp_path, "01-basic-matmul", "CUDA_CHECK(cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost));",
                       wrong)
        rc, rep = kit.check_json("01-basic-matmul", other, "emu", "--dataset", "width-0017", sanitize=True)
        assert "no call of the file copies the result into" not in rep["fix_first"], rep["fix_first"]


def test_a_count_one_less_than_its_name_is_named_over_the_loops_repair(tmp_path):
    """Lab 02's phase count kept in a name set one short (`int phases =
    Width / TILE_WIDTH - 1;`): the last phase's terms are missing. `ph <=
    phases` in the loop mends every dataset, but only makes up for it: the
    first line names the count's line and the `- 1`."""
    text = (kit.ROOT / "solutions" / "02-tiled-matmul" / "tiled_matmul.cu").read_text()
    loop = "    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {"
    assert loop in text
    text = text.replace(loop, "    int phases = Width / TILE_WIDTH - 1;\n    for (int ph = 0; ph < phases; ++ph) {")
    src = tmp_path / "tiled_matmul.cu"
    src.write_text(text)
    line = line_of(src, "int phases = Width / TILE_WIDTH - 1;")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "one less than the count it is named for" in first, first
    assert "take out the `- 1`" in first, first


def test_an_index_made_without_the_coordinate_its_twin_has_is_named(tmp_path):
    """Lab 04's first batch's flat index written `int dest = threadIdx.x;`
    (the second batch's, `threadIdx.y * TILE_WIDTH + threadIdx.x + ...`,
    keeps its threadIdx.y term): threads that differ only in threadIdx.y
    store to one tile slot. The race is seen at the tile's store; the first
    line names the line that made dest without threadIdx.y, two steps back
    through destY and destX, and the twin that has it."""
    src = edited(tmp_path, "04-conv-2batch", "int dest = threadIdx.y * TILE_WIDTH + threadIdx.x;",
                 "int dest = threadIdx.x;")
    line, twin = line_of(src, "int dest = threadIdx.x;"), line_of(src, "dest = threadIdx.y * TILE_WIDTH + threadIdx.x +")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", "--dataset", "rgb-5x7", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "sets dest to `threadIdx.x`, which does not vary with threadIdx.y" \
        in first, first
    assert f"where line {twin} sets it to" in first and "give dest its threadIdx.y term" in first, first


def test_a_sum_whose_terms_are_tested_by_value_is_named_at_the_test(tmp_path):
    """Lab 01's sum adds a term only `if (N[k * Width + Col] >= 0.0f)`, on
    a line of its own above it: the terms of negative elements of N are
    left out. The first line names the test, not a loop's bound."""
    sum_line = "            Pvalue += M[Row * Width + k] * N[k * Width + Col];"
    src = edited(tmp_path, "01-basic-matmul", sum_line,
                 "            if (N[k * Width + Col] >= 0.0f)\n    " + sum_line)
    line = line_of(src, "if (N[k * Width + Col] >= 0.0f)")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", "--dataset", "width-0015", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "only where `N[k * Width + Col] >= 0.0f`" in first, first
    assert "take the test out" in first, first


def test_a_lower_bound_in_the_stores_test_is_said_as_one(tmp_path):
    """Lab 05's store test given `row_i >= 0` in front (the input row the
    output's window starts at, which is below 0 at the top edge): on a 1 x
    1 image no output is stored. The first line names the test, the term
    that was false with the value it tested below its bound (not the bound
    read as the value), and says to take it out."""
    src = edited(tmp_path, "05-pitched-conv", "if (ty < O_TILE_WIDTH && tx < O_TILE_WIDTH) {",
                 "if (row_i >= 0 && ty < O_TILE_WIDTH && tx < O_TILE_WIDTH) {")
    line = line_of(src, "if (row_i >= 0 && ty < O_TILE_WIDTH")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", "--dataset", "gray-1x1", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "`row_i >= 0` is false for" in first, first
    assert "below 0)" in first and "take it out of the store's test" in first, first


def test_a_lower_bound_that_keeps_out_the_left_edge_is_named_at_its_test(tmp_path):
    """Lab 05's store test given `col_i >= 0` (the input column the
    output's window starts at, below 0 for the first two columns of the
    image): those columns are never stored. The compare sees the unstored
    region at the left edge, and the checked run's record of the tests
    names the term, its values below its bound and the columns, not the
    copy back of bytes nothing stored."""
    src = edited(tmp_path, "05-pitched-conv", "if (ty < O_TILE_WIDTH && tx < O_TILE_WIDTH) {",
                 "if (ty < O_TILE_WIDTH && tx < O_TILE_WIDTH && col_i >= 0) {")
    line = line_of(src, "tx < O_TILE_WIDTH && col_i >= 0) {")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", "--dataset", "rgb-13x13", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "`col_i >= 0` is false for" in first, first
    assert "(col_i from -2 to -1, below 0)" in first and "the output's first 2 columns are never stored" in first, first


def test_a_lab_constant_defined_again_with_another_value_is_named(tmp_path):
    """Lab 05's file defining MASK_WIDTH again as 7 after lab.h's 5 (with an
    #undef first, so no compiler warns): every mask read and every tile is
    laid out for another mask than the harness's. The first line names the
    definition and both values, not a tile slot that follows from it."""
    src = edited(tmp_path, "05-pitched-conv", '#include "lab.h"\n', '#include "lab.h"\n#undef MASK_WIDTH\n#define MASK_WIDTH 7\n')
    line = line_of(src, "#define MASK_WIDTH 7")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", "--dataset", "rgb-13x13", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`#define MASK_WIDTH 7`) defines MASK_WIDTH as 7, where the lab's lab.h "
                            "defines it as 5"), first


def test_a_brace_initializer_out_of_the_structs_order_is_named(tmp_path):
    """Lab 05's output descriptor started as `{out->height, out->width,
    ...}`: Image_t's fields are width, height, pitch, channels, data, so
    the kernel's out.width is the height and out.height the width. The
    first line names the initializer, the fields' order and both fields."""
    src = edited(tmp_path, "05-pitched-conv", "d_out_img = *out;",
                 "d_out_img = {out->height, out->width, out->pitch, out->channels, out->data};")
    line = line_of(src, "d_out_img = {out->height, out->width,")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", "--dataset", "rgb-47x29", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "fills the fields in their declared order (width, height, pitch, " \
        "channels, data)" in first, first
    assert "d_out_img.width gets `out->height` and d_out_img.height gets `out->width`" in first, first


def test_an_assignment_after_the_lines_that_read_it_is_named(tmp_path):
    """Lab 04's first batch with dest declared 0 and set only after destY
    and destX are split from it: they take 0, the value set is read by no
    line (the second batch sets dest again). The first line names the late
    assignment and the reads above it."""
    old = """        int dest = threadIdx.y * TILE_WIDTH + threadIdx.x;
        int destY = dest / w;
        int destX = dest % w;"""
    new = """        int dest = 0;
        int destY = dest / w;
        int destX = dest % w;
        dest = threadIdx.y * TILE_WIDTH + threadIdx.x;"""
    src = edited(tmp_path, "04-conv-2batch", old, new)
    line, first_read = line_of(src, "dest = threadIdx.y * TILE_WIDTH + threadIdx.x;"), line_of(src, "int destY = dest / w;")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", "--dataset", "rgb-5x7", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "sets dest, and nothing reads that value" in first, first
    assert f"lines {first_read} and {first_read + 1}, above it, read dest before it is set" in first, first


def test_a_size_kept_in_a_narrow_type_is_named_at_its_declaration(tmp_path):
    """Lab 05's row_bytes declared `unsigned char`: a row of more than 255
    bytes (64 RGB pixels) wraps round, and cudaMallocPitch makes rows too
    short for the larger images. The first line names the declaration,
    its type's most and the call that takes it as a size."""
    src = edited(tmp_path, "05-pitched-conv", "    size_t row_bytes = ", "    unsigned char row_bytes = ")
    line, call = line_of(src, "unsigned char row_bytes ="), line_of(src, "cudaMallocPitch((void **)&d_in,")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "declares row_bytes `unsigned char`, which holds at most 255" in first, first
    assert f"the cudaMallocPitch at line {call} takes it as a size in bytes" in first and "declare row_bytes size_t" in first, first


def test_a_block_left_without_its_closing_brace_is_named_at_its_opening(tmp_path):
    """Lab 02's phase loop without its `}`: the kernel's own `}` closes the
    loop, the store of P falls inside it, and tiled_matmul is defined inside
    the kernel, where the compiler stops. The first line keeps the
    compiler's error and names the loop's `{`, the brace that closes it
    instead and where its own goes."""
    text = (kit.ROOT / "solutions" / "02-tiled-matmul" / "tiled_matmul.cu").read_text()
    lines = text.split("\n")
    loop_close = 59  # 0-based: the `    }` that ends the phase loop
    assert lines[loop_close] == "    }", lines[loop_close]
    del lines[loop_close]
    src = tmp_path / "tiled_matmul.cu"
    src.write_text("\n".join(lines))
    loop, kernel_close = line_of(src, "for (int ph = 0;"), line_of(src, "P[Row * Width + Col] = Pvalue;") + 2
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: ") and f"the `{{` at line {loop} (" in first, first
    assert f"the `}}` at line {kernel_close}, indented as an outer block's, closes it" in first, first


def test_a_products_factors_a_step_apart_are_named_at_the_term(tmp_path):
    """Lab 03's partial dot product unrolled by two, its second product
    written `ds_M[ty][i] * ds_N[i + 1][tx]` (M's element i again where
    i + 1 belongs): nothing races and the tiles are right; the first line
    names the term and the two offsets of i."""
    old = """        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += ds_M[ty][i] * ds_N[i][tx];"""
    new = """        for (int i = 0; i < TILE_WIDTH; i += 2)
            Pvalue += ds_M[ty][i] * ds_N[i][tx] + ds_M[ty][i] * ds_N[i + 1][tx];"""
    src = edited(tmp_path, "03-arbitrary-matmul", old, new)
    line = line_of(src, "Pvalue += ds_M[ty][i] * ds_N[i][tx] + ds_M[ty][i]")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", "--dataset", "rect-67x45x89", expect_rc=1,
                             sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the term `ds_M[ty][i] * ds_N[i + 1][tx]` at line {line} (") and \
        "multiplies ds_M's element i by ds_N's element i + 1" in first, first


def test_an_output_store_that_misses_the_channel_loops_counter_is_named(tmp_path):
    """Lab 04's output store without its `+ k`: every pass of the channel
    loop stores channel 0 of the pixel, so the last channel's sum stays
    there and the other channels are never stored. The first line names
    the store, the loop and its counter, not the copy back of bytes nothing
    stored."""
    store = "            P[(y * width + x) * channels + k] = acc;"
    src = edited(tmp_path, "04-conv-2batch", store, store.replace(" + k] = acc;", "] = acc;"))
    line, loop = line_of(src, "P[(y * width + x) * channels] = acc;"), line_of(src, "for (int k = 0; k < channels; k++)")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", "--dataset", "rgb-5x7", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the store at line {line} (") and f"is inside the loop at line {loop} over k, and its " \
        "index does not read k" in first, first


def test_a_copy_in_after_the_launch_that_reads_it_is_named(backend, tmp_path):
    """Lab 01's copy of N into d_N moved below the launch: the kernel reads
    d_N before anything stored it. The first line names the copy, the
    launch it should come before and the read, on both backends (on a GPU
    the checkers' run sees the read of memory nothing stored)."""
    copy_n = "    CUDA_CHECK(cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice));\n"
    text = (kit.ROOT / "solutions" / "01-basic-matmul" / "basic_matmul.cu").read_text()
    assert copy_n in text
    text = text.replace(copy_n, "")
    launch = "MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, width);\n"
    assert launch in text
    text = text.replace(launch, launch + copy_n)
    src = tmp_path / "basic_matmul.cu"
    src.write_text(text)
    at, launched = line_of(src, "cudaMemcpy(d_N, N, bytes"), line_of(src, "MatrixMulKernel<<<")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, "--dataset", "width-0015", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the copy at line {at} (") and f"comes after the launch at line {launched} (" in first, first
    assert "move that copy before the launch" in first, first


def test_a_kernel_parameter_of_another_type_than_its_buffer_is_named(backend, tmp_path):
    """Lab 02's kernel declares its output `int *P`, and the launch passes
    the float buffer P: the compiler stops at the launch (emucc's g++ and
    nvcc word it differently). After that error the first line names the
    kernel's definition, the parameter and what the launch passes."""
    src = edited(tmp_path, "02-tiled-matmul", "const float *N, float *P, int Width)",
                 "const float *N, int *P, int Width)")
    decl = line_of(src, "const float *N, int *P, int Width)")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, "--dataset", "width-0032", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: ") and f"line {decl} (" in first, first
    assert "declares MatrixMulKernel's parameter 3 as `int *P`, and the launch at line " in first, first


def test_a_store_indexed_by_the_threads_place_in_its_block_is_named_at_the_store(tmp_path):
    """Lab 03's store written `P[Row * l + tx]`: tx is threadIdx.x alone,
    right for the tiles' loads, and Col adds the block's place to it. The
    first line names the store and Col, not tx's declaration (which the
    loads need as it is)."""
    src = edited(tmp_path, "03-arbitrary-matmul", "P[Row * l + Col]", "P[Row * l + tx]")
    line, col = line_of(src, "P[Row * l + tx]"), line_of(src, "int Col = bx * TILE_WIDTH + tx;")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", "--dataset", "rect-67x45x89", expect_rc=1,
                             sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the store at line {line} (") and "indexes with tx, the thread's place in its block" \
        in first, first
    assert f"where line {col} (" in first and "index with Col there" in first, first


def test_a_barrier_after_the_reads_it_was_to_keep_after_the_stores_is_named(tmp_path):
    """Lab 02's first barrier moved below the partial dot product (two
    barriers left at the end of the phase): nothing stands between the
    tiles' loads and their reads. The first line names the race and the
    barrier to move up, not a barrier a repair adds somewhere else that
    only orders this run by chance. (With the first barrier deleted
    instead, the last one is in its place and is not blamed.)"""
    old = """        __syncthreads();
        //@@ end

        //@@ TODO 5"""
    new = """        //@@ end

        //@@ TODO 5"""
    text = (kit.ROOT / "solutions" / "02-tiled-matmul" / "tiled_matmul.cu").read_text()
    assert old in text
    text = text.replace(old, new, 1)
    dot = "            Pvalue += ds_M[ty][i] * ds_N[i][tx];\n"
    text = text.replace(dot, dot + "        __syncthreads();\n", 1)
    src = tmp_path / "tiled_matmul.cu"
    src.write_text(text)
    moved = line_of(src, "Pvalue += ds_M[ty][i] * ds_N[i][tx];") + 1
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", "--dataset", "width-0032", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert f"and the one at line {moved} comes after the read" in first and "move it up" in first, first
    (tmp_path / "b").mkdir()
    src = edited(tmp_path / "b", "02-tiled-matmul", old, new)
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", "--dataset", "width-0032", expect_rc=1, sanitize=True)
    assert "move it up" not in rep["fix_first"], rep["fix_first"]


def test_a_kernel_called_without_a_launch_configuration_does_not_build(backend, tmp_path):
    """Lab 04's kernel called like a host function, without <<<grid,
    block>>>: nvcc refuses it ("a __global__ function call must be
    configured"), and so does the emulator's emucc now, which used to run
    the kernel's body once on the host (and then blamed host code reading
    device memory). The file does not build on either backend; on the
    emulator the first line names the call and the kernel's line."""
    src = edited(tmp_path, "04-conv-2batch", "conv_2batch_kernel<<<dimGrid, dimBlock>>>(", "conv_2batch_kernel(")
    call, kernel = line_of(src, "conv_2batch_kernel(I, P,"), line_of(src, "__global__ void conv_2batch_kernel(")
    rc, rep = kit.check_json("04-conv-2batch", src, backend, "--dataset", "rgb-5x7", expect_rc=1)
    assert set(kit.statuses(rep).values()) == {"compile_error"}, kit.statuses(rep)
    if backend == "emu":
        first = rep["fix_first"]
        assert first.startswith("the build: ") and f":{call}: error: conv_2batch_kernel is a __global__ function " \
            f"(line {kernel}), called here like a host function" in first, first


def test_a_host_variable_read_in_a_kernel_does_not_build(backend, tmp_path):
    """Lab 05's mask declared a plain global, `float Mc[...]`, with no
    __constant__: nvcc refuses the kernel's read ("identifier "Mc" is
    undefined in device code"), and so does emucc now, which used to let
    the kernel read the host's copy (a file a GPU gives 0 graded 29/30 on
    the emulator). The file builds on neither backend; on both the first
    line names the read and the declaration's line (on a GPU after nvcc's
    own words)."""
    decl = "__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];"
    src = edited(tmp_path, "05-pitched-conv", decl, "float Mc[MASK_WIDTH][MASK_WIDTH];")
    line = line_of(src, "float Mc[MASK_WIDTH][MASK_WIDTH];")
    read = line_of(src, "acc += Mc[i][j]")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, "--dataset", "rgb-5x7", expect_rc=1)
    assert set(kit.statuses(rep).values()) == {"compile_error"}, kit.statuses(rep)
    first = rep["fix_first"]
    if backend == "emu":
        assert first.startswith("the build: ") and f":{read}: error: Mc is a host variable (declared at line {line} " \
            "with no __constant__ or __device__), read here in a kernel" in first, first
    else:
        # nvcc's own words, and the kit's reading of them after
        assert first.startswith("the build: ") and 'identifier "Mc" is undefined in device code' in first, first
        assert f"Mc is a host variable (declared at line {line} with no __constant__ or __device__), read at line " \
            f"{read} in a kernel" in first, first


def test_a_pointer_given_cudamalloc_s_value_is_named_where_it_is_stored(tmp_path):
    """Lab 01's d_N set to cudaMalloc's value, `d_N = (float *)cudaMalloc(
    (void **)&d_N, bytes);`: the error code (0) overwrites the address the
    call wrote, and the copy into d_N is refused for its NULL destination.
    The first line names the assignment, not the copy's byte count."""
    old = "CUDA_CHECK(cudaMalloc((void **)&d_N, bytes));"
    src = edited(tmp_path, "01-basic-matmul", old, "d_N = (float *)cudaMalloc((void **)&d_N, bytes);")
    line = line_of(src, "d_N = (float *)cudaMalloc((void **)&d_N, bytes);")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", "--dataset", "width-0016", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"the destination pointer is NULL: line {line} (`d_N = (float *)cudaMalloc((void **)&d_N, bytes);`) " \
        "stores cudaMalloc's value in d_N: an error code" in first, first
    assert "call cudaMalloc without storing its value" in first, first


def test_a_copy_s_kind_given_as_the_symbol_copy_s_offset_is_named_as_the_argument_order(tmp_path):
    """Lab 05's mask copy given the kind in the offset's place,
    `cudaMemcpyToSymbol(Mc, mask, size, cudaMemcpyDeviceToDevice)`: the
    kind's value, 3, is taken as the offset, and the copy runs 3 bytes past
    Mc. The first line names the fourth argument, not Mc's declaration."""
    old = "cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float))"
    src = edited(tmp_path, "05-pitched-conv", old,
                 "cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float), cudaMemcpyDeviceToDevice)")
    line = line_of(src, "cudaMemcpyDeviceToDevice)")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", "--dataset", "rgb-5x7", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "gives cudaMemcpyToSymbol `cudaMemcpyDeviceToDevice` as its " \
        "fourth argument, which is the offset in bytes into Mc" in first, first
    assert "its value, 3, starts the copy 3 bytes in" in first and "declares Mc" not in first, first


def test_a_pointer_made_another_s_buffer_is_named_at_the_assignment(tmp_path):
    """Lab 01's d_N made d_M's buffer after its own allocation, `d_N = d_M;`:
    the kernel reads M for N, and the two frees free one buffer twice. The
    first line names the assignment, not only the second free."""
    old = "CUDA_CHECK(cudaMalloc((void **)&d_P, bytes));"
    src = edited(tmp_path, "01-basic-matmul", old, old + "\n    d_N = d_M;")
    line = line_of(src, "    d_N = d_M;")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", "--dataset", "width-0016", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`d_N = d_M;`) makes d_N and d_M one buffer"), first
    assert "take that assignment out" in first, first


def test_a_kernel_argument_from_a_host_allocation_is_named_at_the_allocation(backend, tmp_path):
    """Lab 01's d_P taken from calloc, host memory, and passed to the
    kernel: the launch fails on a GPU and the emulator refuses it as one
    does. The first line names the calloc's line and says to cudaMalloc
    it, not only the launch."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "01-basic-matmul", "CUDA_CHECK(cudaMalloc((void **)&d_P, bytes));",
                 "d_P = (float *)calloc((size_t)width * width, sizeof(float));")
    line = line_of(src, "d_P = (float *)calloc(")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "sets d_P with calloc, host memory" in first, first
    assert "allocate d_P with cudaMalloc((void **)&d_P, ...)" in first, first


def test_an_if_that_bounds_the_index_by_a_constant_is_named_over_the_loop(backend, tmp_path):
    """Lab 01's bounds test written with the block's width as a number,
    `if (Row < 16 && Col < 16)`: on 1 x 1 a thread past the matrix passes
    it and the dot product reads past M. The first line names that if, its
    constant and the data's size, not the loop that held k inside Width."""
    if backend == "emu" and kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "01-basic-matmul", "if (Row < Width && Col < Width) {", "if (Row < 16 && Col < 16) {")
    line = line_of(src, "if (Row < 16 && Col < 16) {")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "bounds Row and Col by 16, a constant" in first, \
        first
    assert "where the data's size belongs (Width = " in first and "its index is what is wrong" not in first, first


def test_a_buffer_sized_in_another_types_bytes_is_named_at_the_sizeof(tmp_path):
    """Lab 05's row_bytes counted with sizeof(char), for rows of floats:
    cudaMallocPitch makes rows a quarter of their size and the copies move
    a quarter of each row. The first line names the sizeof, the buffer's
    type and its allocation, not the copy that shows it."""
    src = edited(tmp_path, "05-pitched-conv", "in->channels * sizeof(float);", "in->channels * sizeof(char);")
    line, alloc = line_of(src, "in->channels * sizeof(char);"), line_of(src, "cudaMallocPitch((void **)&d_in,")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", "--dataset", "rgb-13x13", expect_rc=1, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "with sizeof(char), but d_in holds float (the cudaMalloc at " \
        f"line {alloc})" in first, first


def test_a_tile_added_into_and_never_stored_is_named(backend, tmp_path):
    """Lab 02's M load written `ds_M[ty][tx] += ...`: nothing stores ds_M
    with `=`, so the tile adds to what shared memory held. The first line
    names the load."""
    src = edited(tmp_path, "02-tiled-matmul", "ds_M[ty][tx] = M[", "ds_M[ty][tx] += M[")
    line = line_of(src, "ds_M[ty][tx] += M[")
    rc, rep = kit.check_json("02-tiled-matmul", src, backend, "--dataset", "width-0032", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "adds into ds_M (a compound `op=`), and no line stores ds_M" in first


def test_a_constant_declared_smaller_than_its_copy_is_named_at_its_declaration(tmp_path):
    """Lab 05's mask declared MASK_WIDTH x MASK_RADIUS: the copy of 25
    floats does not fit the 40-byte symbol. The emulator's refusal gives
    both sizes; the first line names the declaration."""
    src = edited(tmp_path, "05-pitched-conv", "__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];",
                 "__constant__ float Mc[MASK_WIDTH][MASK_RADIUS];")
    line = line_of(src, "__constant__ float Mc[MASK_WIDTH][MASK_RADIUS];")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", "--dataset", "gray-11x11", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "declares Mc with 40 bytes, and the cudaMemcpyToSymbol copies " \
        "100 bytes into it" in first, first
    # what to declare, from the copy's own count: a square of floats
    assert first.endswith("declare Mc as large as what it holds (100 bytes: 25 floats, 5 x 5)"), first


# ---- host code that reaches device memory -------------------------------------------


def test_a_plain_memcpy_for_the_copy_back_earns_nothing_and_is_named(backend, tmp_path):
    """Lab 01's copy back written `memcpy(P, d_P, bytes)`: the host reads a
    device pointer. A GPU's process dies of it (SIGSEGV); the emulator's
    graded build keeps device memory sealed outside the CUDA calls and the
    launches, so it dies there too, and its line names the memcpy and the
    cudaMalloc of the buffer it read. The checkers' race build seals it as
    well, so the first line says the same on a GPU, whose run only
    crashed."""
    src = edited(tmp_path, "01-basic-matmul", "CUDA_CHECK(cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost));",
                 "memcpy(P, d_P, bytes);")
    at, made = line_of(src, "memcpy(P, d_P, bytes);"), line_of(src, "cudaMalloc((void **)&d_P, bytes)")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, "--dataset", "width-0017", sanitize=True, expect_rc=1)
    assert set(kit.statuses(rep).values()) == {"crash"}, kit.statuses(rep)
    assert rep["score"] == 0, rep["score"]
    first = rep["fix_first"]
    assert first.startswith(f"host code at line {at} (`memcpy(P, d_P, bytes);`) read device memory "
                            f"(from the cudaMalloc at line {made} ("), first
    assert "cudaMemcpyDeviceToHost" in first, first
    if backend == "emu":  # the graded run's own crash message says it too
        (row,) = rep["datasets"]
        assert row["message"].startswith(f"the program crashed: host code at line {at} ("), row["message"]


def test_a_device_buffer_freed_with_free_is_named_with_cudafree(backend, tmp_path):
    """Lab 05's d_out released with the C library's free(): free reads the
    allocator's header before the pointer, device memory, and the process
    dies (a GPU's of the same, an invalid pointer). The first line names the
    free and the cudaMalloc and says cudaFree, and no repair that frees
    some host buffer instead (every dataset "right") is offered."""
    src = edited(tmp_path, "05-pitched-conv", "CUDA_CHECK(cudaFree(d_out));", "free(d_out);")
    at = line_of(src, "free(d_out);")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, "--dataset", "rgb-5x7", sanitize=True, expect_rc=1)
    assert "pass" not in kit.statuses(rep).values(), kit.statuses(rep)
    first = rep["fix_first"]
    assert first.startswith(f"host code at line {at} (`free(d_out);`) read device memory (from the cudaMallocPitch "
                            f"at line "), first
    assert first.endswith("release device memory with cudaFree(d_out)"), first


def test_a_host_loop_over_a_device_buffer_is_named_at_its_line(tmp_path):
    """Lab 01's result copied back element by element in a host loop
    (`P[i] = d_P[i]`), and, in a second file, an input's first element set
    through its device pointer: the faulting instruction is the student's
    own, and the emulator names it with the buffer's allocation, as a read
    and as a write."""
    back = "CUDA_CHECK(cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost));"
    src = edited(tmp_path, "01-basic-matmul", back, "for (int i = 0; i < width * width; i++)\n        P[i] = d_P[i];")
    at, made = line_of(src, "P[i] = d_P[i];"), line_of(src, "cudaMalloc((void **)&d_P, bytes)")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", "--dataset", "width-0015", expect_rc=1)
    first = rep["fix_first"]
    assert f"host code at line {at} (`P[i] = d_P[i];`) read device memory (from the cudaMalloc at line {made} (" \
        in first, first
    copy_n = "CUDA_CHECK(cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice));"
    (tmp_path / "w").mkdir()
    src = edited(tmp_path / "w", "01-basic-matmul", copy_n, copy_n + "\n    d_N[0] = N[0];")
    at, made = line_of(src, "d_N[0] = N[0];"), line_of(src, "cudaMalloc((void **)&d_N, bytes)")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", "--dataset", "width-0015", expect_rc=1)
    first = rep["fix_first"]
    assert f"host code at line {at} (`d_N[0] = N[0];`) wrote device memory (from the cudaMalloc at line {made} (" \
        in first, first
    assert "cudaMemcpyHostToDevice" in first, first


def test_a_test_that_keeps_threads_from_the_zero_store_is_named_not_a_missing_else(tmp_path):
    """Lab 04's second batch guarded by `threadIdx.y <= MASK_WIDTH` instead
    of `destY < w`: the tile's last rows are stored by no thread. Where the
    store the test keeps them from is itself the one that puts 0 there (the
    inner if's else), the test is what is wrong: no "give it an else",
    which would only hide it where those rows lie outside the image."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "04-conv-2batch", "        if (destY < w) {", "        if (threadIdx.y <= MASK_WIDTH) {")
    line = line_of(src, "if (threadIdx.y <= MASK_WIDTH) {")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"the test at line {line} (" in first and "is false for threads" in first, first
    assert f"the test at line {line} keeps their threads from it: the test is what is wrong" in first, first
    assert "give it an else" not in first, first


def test_a_copy_before_its_buffers_allocation_is_named_with_the_allocation(backend, tmp_path):
    """Lab 05's cudaMallocPitch of d_in moved after the copy into it: at the
    copy d_in is still NULL, which the runtime refuses. The first line
    says why it is NULL (its allocation comes later, at that line), not
    to count the copy's rows and pitches."""
    alloc = "    CUDA_CHECK(cudaMallocPitch((void **)&d_in, &in_pitch_bytes, row_bytes, in->height));\n"
    copy = "                            row_bytes, in->height, cudaMemcpyHostToDevice));\n"
    sol = kit.solution("05-pitched-conv").read_text()
    assert sol.count(alloc) == 1 and sol.count(copy) == 1
    src = tmp_path / "pitched_conv.cu"
    src.write_text(sol.replace(alloc, "").replace(copy, copy + alloc))
    at, made = line_of(src, "CUDA_CHECK(cudaMemcpy2D(d_in, "), line_of(src, "cudaMallocPitch((void **)&d_in,")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, "--dataset", "rgb-5x7", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"the cudaMemcpy2D at line {at} (" in first, first
    assert f"d_in has no buffer yet there: the cudaMallocPitch that gives it one comes after, at line {made}" in first
    assert "count its rows" not in first, first


def test_an_array_indexed_past_its_dimensions_is_named_at_its_declaration(backend, tmp_path):
    """Lab 04's tile declared flat, `N_ds[w * w]`, and read `N_ds[destY][destX]`:
    the compiler stops at the first use (g++: "invalid types 'float[int]'
    for array subscript", nvcc: "expression must have pointer-to-object
    type"). The first line names the declaration and both counts."""
    src = edited(tmp_path, "04-conv-2batch", "__shared__ float N_ds[w][w];", "__shared__ float N_ds[w * w];")
    decl = line_of(src, "__shared__ float N_ds[w * w];")
    rc, rep = kit.check_json("04-conv-2batch", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the build: ") and f"; line {decl} (" in first, first
    assert "declares N_ds with 1 dimension, and line " in first and "indexes it with 2 subscripts" in first, first


def test_a_refused_copys_count_that_a_repair_names_is_said_with_the_repair(tmp_path):
    """Lab 05's copy back of `out->height - 2` rows: on the one-row image the
    count goes below 0 and, a size_t, runs past the device image (the copy
    is refused); on the others the last two rows never come back. The
    finding can only say what to count; the edit of the count that makes
    every dataset right leads the first line, the refusal after it."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "05-pitched-conv", "row_bytes, out->height, cudaMemcpyDeviceToHost",
                 "row_bytes, out->height - 2, cudaMemcpyDeviceToHost")
    line = line_of(src, "out->height - 2, cudaMemcpyDeviceToHost")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `out->height - 2`"), first
    assert "count its rows" in first and "with `out->height` there, all " in first, first


def test_a_buffer_the_harness_gave_freed_by_the_function_is_named_at_its_cudafree(tmp_path):
    """Lab 02's function frees P, which the lab's harness allocated and
    reads the product from after the call: the harness's copy back is a use
    after cudaFree. The first line is the student's cudaFree, named as
    freeing a buffer the file did not allocate, not advice on where to move
    it."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "02-tiled-matmul", "    CUDA_CHECK(cudaGetLastError());\n",
                 "    CUDA_CHECK(cudaGetLastError());\n    CUDA_CHECK(cudaFree(P));\n")
    line = line_of(src, "CUDA_CHECK(cudaFree(P));")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the cudaFree at line {line} (") and "which this file did not allocate" in first, first
    assert "delete that cudaFree" in first and "(after the copy back)" not in first, first


def test_a_loop_counter_stepped_in_the_body_too_is_named(backend, tmp_path):
    """Lab 03's dot product reads `ds_M[ty][i++]`: the loop's header steps i
    as well, so every other term is skipped and the terms taken pair the
    wrong columns with rows. The first line names the body's step and the
    loop."""
    src = edited(tmp_path, "03-arbitrary-matmul", "Pvalue += ds_M[ty][i] * ds_N[i][tx];",
                 "Pvalue += ds_M[ty][i++] * ds_N[i][tx];")
    line, loop = line_of(src, "ds_M[ty][i++]"), line_of(src, "for (int i = 0; i < TILE_WIDTH; ++i)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and f"changes i, the counter of the loop at line {loop} (" in first


def test_a_continue_that_skips_the_barriers_is_named(tmp_path):
    """Lab 05's channel loop left early by threads whose output pixel lies
    outside the image (`if (...) continue;` at the loop's top): they skip
    the loop's barriers, where the rest of the block waits for them (and
    their loads). The first line names the continue, not the barrier."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    head = "    for (int k = 0; k < in.channels; k++) {\n"
    src = edited(tmp_path, "05-pitched-conv", head,
                 head + "        if (row_o >= out.height || col_o >= out.width)\n            continue;\n")
    line = line_of(src, "            continue;")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the continue at line {line} (") and "past the __syncthreads() at line " in first, first


def test_a_bound_set_only_under_a_test_leads_over_the_edit_that_makes_up_for_it(backend, tmp_path):
    """Lab 03's numPhases set only `if (k >= 2 * TILE_WIDTH)`: for a smaller k
    it keeps the 0 it was declared with and no phase runs. An edit of the
    loop's test (`ph < k`) makes every dataset right by running passes the
    count left out; the first line names the assignment under its test."""
    src = edited(tmp_path, "03-arbitrary-matmul", "    numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;",
                 "    if (k >= 2 * TILE_WIDTH)\n        numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;")
    line, test = line_of(src, "        numPhases = (k + TILE_WIDTH"), line_of(src, "if (k >= 2 * TILE_WIDTH)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and f"sets numPhases only where the test at line {test} (" in first
    assert "elsewhere it keeps 0" in first and "only makes up for it" in first, first
    assert "; writing `" in first and "` for `numPhases` at line " in first, first  # the edit said whole


def test_a_block_taller_than_the_tiles_is_named_not_the_grid(backend, tmp_path):
    """Lab 03 launched with 8 x 32 blocks (the tile's 256 threads, another
    shape) for its 16 x 16 tiles: the rows of threads past 15 fall outside
    the tiles and their columns from 8 on are filled by no thread. The
    first line names the block, not the grid that the block's shape makes
    look too large."""
    src = edited(tmp_path, "03-arbitrary-matmul", "dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);",
                 "dim3 dimBlock(TILE_WIDTH / 2, TILE_WIDTH * 2);")
    line = line_of(src, "dim3 dimBlock(TILE_WIDTH / 2, TILE_WIDTH * 2);")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the block at line {line} (") and "is 8 x 32 threads, but kernel " in first, first
    assert "keeps two tiles of 16 x 16 floats" in first and "the rows of threads past the tile's 16" in first, first


def test_a_term_added_after_the_bracket_is_named_beside_the_read_with_it_inside(backend, tmp_path):
    """Lab 04's second batch reads `I[(srcY * width + srcX) * channels] + k`:
    the bracket closes before `+ k`, so channel 0 is read and k added to the
    value, where the first batch's read has `+ k` inside. The first line
    names the read and the sibling that has it right."""
    right = "N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];"
    sol = kit.solution("04-conv-2batch").read_text()
    assert sol.count(right) == 2
    first_at = sol.index(right) + len(right)
    text = sol[:first_at] + sol[first_at:].replace(right, "N_ds[destY][destX] = I[(srcY * width + srcX) * channels] + k;")
    src = tmp_path / "conv_2batch.cu"
    src.write_text(text)
    line, sibling = line_of(src, "* channels] + k;"), line_of(src, right)
    rc, rep = kit.check_json("04-conv-2batch", src, backend, "--dataset", "rgb-17x17", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and f"adds k to the value it reads" in first, first
    assert f"where line {sibling} (" in first and "move `+ k` inside it" in first, first


def test_a_kernel_storing_its_result_into_an_input_is_named_at_the_store(backend, tmp_path):
    """Lab 01's kernel stores its product into N (cast from const) instead of
    P: the copy back reads d_P, which nothing stored, and the race build
    knows a kernel stored into d_N, which a copy filled. The first line is
    the store, with both buffers, not the copy back's unset bytes."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "01-basic-matmul", "P[Row * Width + Col] = Pvalue;",
                 "((float *)N)[Row * Width + Col] = Pvalue;")
    line = line_of(src, "((float *)N)[Row * Width + Col] = Pvalue;")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the store at line {line} (") and "writes into d_N (" in first, first
    assert "nothing stores into d_P (" in first and "not an input's" in first, first


def test_a_return_before_the_launch_under_a_test_is_named(backend, tmp_path):
    """Lab 05's host function returns early unless the width is a multiple of
    the output tile: for the other images no kernel runs and nothing is
    computed. The kit's record of those runs has no launch; the first line
    names the return and its test."""
    row = "    size_t row_bytes = (size_t)in->width * in->channels * sizeof(float);\n"
    src = edited(tmp_path, "05-pitched-conv", row, row + "    if (in->width % O_TILE_WIDTH != 0)\n        return;\n")
    ret, test = line_of(src, "        return;"), line_of(src, "if (in->width % O_TILE_WIDTH != 0)")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {ret} (`return;`) leaves the function before the launch at line ") and \
        f"where the test at line {test} (" in first and "launched no kernel" in first, first


def test_an_early_break_whose_test_a_repair_edits_is_named_as_the_break(backend, tmp_path):
    """Lab 05's mask loop breaks at the first zero weight of a row: the taps
    after it are lost for masks with zeros. A full repair that edits the
    break's test (any edit that stops it from holding makes every dataset
    right: `Mc[i][k]`, whose first channel's weights are never 0) has the
    first line name the break under its test, not a name in the test;
    without one (the candidates past the search's cap), the inputs'
    reading of the sum names the break and the loop it ends."""
    old = """                for (int j = 0; j < MASK_WIDTH; j++)
                    acc += Mc[i][j] * N_ds[ty + i][tx + j];"""
    new = """                for (int j = 0; j < MASK_WIDTH; j++) {
                    if (Mc[i][j] == 0.0f)
                        break;
                    acc += Mc[i][j] * N_ds[ty + i][tx + j];
                }"""
    src = edited(tmp_path, "05-pitched-conv", old, new)
    brk, test = line_of(src, "                        break;"), line_of(src, "if (Mc[i][j] == 0.0f)")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    if rep["repair"]["found"] == "full":
        assert first.startswith(f"the break at line {brk} (`break;`), under the test at line {test} (") and \
            "take the test and its break out" in first, first
    else:
        assert f"look at the break at line {brk} (`break;`): it ends the loop at line {brk - 2} (" in first, first


def test_a_tile_loaded_in_one_pass_of_its_loop_is_named_at_the_test(backend, tmp_path):
    """Lab 03's N tile loaded only `if (ph == 0)`: every later phase reuses
    the first phase's rows of N. The inputs reproduce it (every phase the
    same tile of N); the first line names the test that picks one pass."""
    old = """        if (nRow < k && Col < l)
            ds_N[ty][tx] = N[nRow * l + Col];
        else
            ds_N[ty][tx] = 0.0f;"""
    new = """        if (ph == 0) {
            if (nRow < k && Col < l)
                ds_N[ty][tx] = N[nRow * l + Col];
            else
                ds_N[ty][tx] = 0.0f;
        }"""
    src = edited(tmp_path, "03-arbitrary-matmul", old, new)
    line = line_of(src, "if (ph == 0) {")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, backend, sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"the tile is loaded only where the test at line {line} (`if (ph == 0)`) holds" in first, first


def test_a_window_origin_from_a_name_set_again_is_named_not_the_tiles_size(tmp_path):
    """Lab 04's sum lays the mask at row destY, which the second batch set
    again (dest = ... + TILE_WIDTH * TILE_WIDTH): the reads run past N_ds.
    The loop's test is on its last value; the first line names destY and
    its two assignments, not N_ds's size."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "04-conv-2batch", "N_ds[threadIdx.y + i][threadIdx.x + j]", "N_ds[destY + i][threadIdx.x + j]")
    line = line_of(src, "N_ds[destY + i][threadIdx.x + j]")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"the access at line {line} indexes with destY, which the kernel set at line " in first, first
    assert "too small" not in first, first


def test_a_guard_no_thread_passes_is_named_with_its_values(tmp_path):
    """Lab 04's second batch guarded by `dest < w` (the flat index against
    the tile's side): no thread of a block passes, so the second batch's
    store never runs and the tile's last rows stay unset. The first line
    names the test as false for every thread, with the values it compared,
    and, the compared value lying inside the tile (dest 256 to 511), the
    test as what to look at, not the assignment of dest. Where the repair
    search finds the edit of the test (destY for dest), the edit leads and
    the test's values follow it."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "04-conv-2batch", "        if (destY < w) {", "        if (dest < w) {")
    line = line_of(src, "if (dest < w) {")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"the test at line {line} (`if (dest < w) {{`) is false for every thread of the block (dest 256 to 511, " \
           "against 20)" in first, first
    if first.startswith(f"line {line}: `dest` in `dest < w` looks like the mistake: with `destY` there"):
        assert "which is 256 to 511 across the block: the test is what keeps them out" in rep["tile_contents"], rep
    else:
        assert "which is 256 to 511 across the block: the test is what keeps them out" in first, first


def test_an_empty_statement_after_an_if_with_an_else_below_is_named_at_the_build(tmp_path):
    """Lab 04's second batch's ghost-cell test ended by a `;`: the else two
    lines below has no if, and the build fails there. The first line names
    the `;` after the test's header, with its line, not only the
    compiler's words at the else."""
    old = "            if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)\n"
    src = edited(tmp_path, "04-conv-2batch", old, old.replace(")\n", ");\n"))
    line = line_of(src, "srcX < width);")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", expect_rc=1)
    first = rep["fix_first"]
    assert f"the `;` right after `if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)` at line {line} " \
           "ends the if there" in first, first
    assert f"so the else at line {line + 2} (`else`) has no if to belong to: take the `;` out" in first, first


def test_a_race_between_a_loops_passes_leads_over_a_barrier_a_repair_adds_elsewhere(tmp_path):
    """Lab 03's second __syncthreads() (after the dot product) deleted: the
    next phase's loads race with this phase's reads. The repair search
    finds a barrier at the top of the loop that the emulator's schedule
    accepts; the first line is the race, which names the two accesses and
    puts the barrier at the loop's end, and the repair stays on its own
    line."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    old = """        //@@ TODO 7: Wait until every thread is done with the tiles.
        __syncthreads();"""
    src = edited(tmp_path, "03-arbitrary-matmul", old, old.split("\n")[0])
    read = line_of(src, "Pvalue += ds_M[ty][i] * ds_N[i][tx];")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "race between iterations of the loop at line" in first, first
    assert f"add a __syncthreads() at the end of the loop, after the reads at line {read}, before the loop's " \
        "closing brace at line " in first, first
    assert "looks missing" not in first, first


def test_a_count_of_blocks_that_rounds_down_is_repaired_by_rounding_it_up(tmp_path):
    """Lab 03's grid counts its columns of blocks as `l / TILE_WIDTH`: the
    division dropped would mend every dataset too (l blocks, the kernel's
    test idling the rest), but the repair the first line quotes is the
    count rounded up, which is what was meant."""
    old = "dim3 dimGrid((l + TILE_WIDTH - 1) / TILE_WIDTH,"
    src = edited(tmp_path, "03-arbitrary-matmul", old, "dim3 dimGrid(l / TILE_WIDTH,")
    line = line_of(src, "dim3 dimGrid(l / TILE_WIDTH,")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"line {line}: `l / TILE_WIDTH` in " in first, first
    assert "with `(l + TILE_WIDTH - 1) / TILE_WIDTH` there, all 19 datasets come out right" in first, first


def test_of_two_repairs_of_one_declaration_the_one_that_gives_a_name_its_axis_is_quoted(tmp_path):
    """Lab 02's `int tx = threadIdx.x, ty = threadIdx.x;`: on its square
    tiles either coordinate made .y mends every dataset (tx = threadIdx.y
    only relabels the threads). The repair quoted is ty's, the name whose
    axis is y, and it quotes ty's declarator alone, not the statement in
    which `threadIdx.x` is written twice."""
    src = edited(tmp_path, "02-tiled-matmul", "int tx = threadIdx.x, ty = threadIdx.y;",
                 "int tx = threadIdx.x, ty = threadIdx.x;")
    line = line_of(src, "int tx = threadIdx.x, ty = threadIdx.x;")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"line {line}: `threadIdx.x` in `ty = threadIdx.x` looks like the mistake: with `threadIdx.y` there" in first, \
        first


def test_a_symbol_copy_sized_in_elements_is_named_at_the_copy(tmp_path):
    """Lab 05's mask copied with a size of `MASK_WIDTH * MASK_WIDTH * 1`:
    a count of elements, where cudaMemcpyToSymbol takes bytes, so a
    quarter of the mask arrives. The first line starts at the copy, says
    its size counts elements, and says to multiply it by sizeof(float), not
    to declare Mc with the shape of what is copied."""
    old = "cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float))"
    src = edited(tmp_path, "05-pitched-conv", old, "cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * 1)")
    line = line_of(src, "MASK_WIDTH * MASK_WIDTH * 1")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the cudaMemcpyToSymbol at line {line} ("), first
    assert "copies `MASK_WIDTH * MASK_WIDTH * 1` = 25 bytes into Mc, which is its count of elements" in first, first
    assert "multiply the size by sizeof(float)" in first and "with the shape of what you copy" not in first, first


def test_a_mask_copy_shorter_than_the_labs_mask_is_told_to_copy_all_of_it(tmp_path):
    """Lab 04's mask copied with `MASK_WIDTH * 3` floats: Mc is declared
    the lab's MASK_WIDTH x MASK_WIDTH, the mask's own shape, so the copy is
    the short one. The first line says so, and does not offer to declare
    Mc with the shape of what is copied."""
    old = "cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float))"
    src = edited(tmp_path, "04-conv-2batch", old, "cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * 3 * sizeof(float))")
    line = line_of(src, "MASK_WIDTH * 3 * sizeof(float)")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"but the cudaMemcpyToSymbol at line {line} stores 60 (`MASK_WIDTH * 3 * sizeof(float)`)" in first, first
    assert ("the lab's mask is MASK_WIDTH x MASK_WIDTH floats, as many bytes as Mc holds: copy all of them "
            "(`MASK_WIDTH * MASK_WIDTH * sizeof(float)`)") in first, first
    assert "with the shape of what you copy" not in first, first


def test_a_constant_declared_larger_than_the_labs_mask_is_told_its_shape(tmp_path):
    """Lab 04's Mc declared [MASK_WIDTH][MASK_WIDTH + 1]: the copy holds
    the lab's whole mask, so the declaration is the one to change."""
    src = edited(tmp_path, "04-conv-2batch", "__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];",
                 "__constant__ float Mc[MASK_WIDTH][MASK_WIDTH + 1];")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "Mc is declared at line" in first and "with 120 bytes" in first, first
    assert "the copy holds the lab's mask, MASK_WIDTH x MASK_WIDTH floats: declare Mc with that shape" in first, first


def test_a_mask_copied_with_the_device_to_device_kind_from_the_host_earns_nothing(backend, tmp_path):
    """Lab 04's mask copied by cudaMemcpyToSymbol(..., 0,
    cudaMemcpyDeviceToDevice) from the host's array: a GPU refuses the copy
    (cudaErrorInvalidValue, the mask stays zero), and so does the emulator,
    where it once copied anyway and gave full marks. The first line names
    the copy and says the kind is what to change."""
    old = "cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float))"
    src = edited(tmp_path, "04-conv-2batch", old,
                 "cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float), 0, cudaMemcpyDeviceToDevice)")
    line = line_of(src, "cudaMemcpyDeviceToDevice")
    rc, rep = kit.check_json("04-conv-2batch", src, backend, sanitize=backend == "emu", expect_rc=1)
    assert rep["score"] <= rep["max_score"] - 14, rep["score"]  # no dataset's point
    if backend == "emu":
        first = rep["fix_first"]
        assert first.startswith(f"the cudaMemcpyToSymbol at line {line} ("), first
        assert "its last argument, the kind, must say where the source is" in first, first


def test_a_quotient_where_the_remainder_is_meant_is_repaired_at_its_line(tmp_path):
    """Lab 04's second batch's column as `destX = dest / w`, its row's twin:
    the repair search's `%` for `/` names the line with the remainder."""
    src = edited(tmp_path, "04-conv-2batch", "        destX = dest % w;", "        destX = dest / w;")
    line = line_of(src, "        destX = dest / w;")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"line {line}: `dest / w` in `destX = dest / w` looks like the mistake: with `dest % w` there" in first, first


def test_an_index_name_that_keeps_one_value_along_a_thread_axis_is_named_at_its_assignment(tmp_path):
    """Lab 03's `int Col = bx * (TILE_WIDTH + tx);`: the brackets put the
    thread's column inside the block's product, so every thread of the
    first column of blocks gets Col 0 and the output store races with
    itself. Computed from the source for the launch the kit saw, Col is one
    value along threadIdx.x there: the first line names Col's line, not
    the store and its bounds test."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "03-arbitrary-matmul", "int Col = bx * TILE_WIDTH + tx;", "int Col = bx * (TILE_WIDTH + tx);")
    line = line_of(src, "int Col = bx * (TILE_WIDTH + tx);")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"Col, set at line {line} (`int Col = bx * (TILE_WIDTH + tx);`), reads threadIdx.x, yet it "
                            "is 0 for every thread of block (0, 0) along it"), first
    assert f"look at how line {line} combines threadIdx.x with the rest" in first, first


def test_a_copy_in_of_a_count_of_elements_is_said_as_a_quarter(tmp_path):
    """Lab 01's copy of N in given `(size_t)width * width`, the count of its
    floats: a quarter of the buffer arrives, whatever the dataset's size,
    and the line says so (not only the byte counts of the smallest
    dataset)."""
    src = edited(tmp_path, "01-basic-matmul", "cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice)",
                 "cudaMemcpy(d_N, N, (size_t)width * width, cudaMemcpyHostToDevice)")
    line = line_of(src, "cudaMemcpy(d_N, N, (size_t)width * width")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"line {line}" in first and "(a quarter of it: the count of its elements, not of their bytes)" in first, \
        first


def test_a_barrier_under_an_if_on_its_own_line_is_named_with_that_test(tmp_path):
    """Lab 03's last barrier written `if (Row < j) __syncthreads();` on one
    line: the test around that line's statement is that if (not the phase
    loop), and the first line says which thread does not pass it and to
    put the barrier outside the test."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    old = """        //@@ TODO 7: Wait until every thread is done with the tiles.
        __syncthreads();"""
    src = edited(tmp_path, "03-arbitrary-matmul", old, old.replace("        __syncthreads();",
                                                                   "        if (Row < j) __syncthreads();"))
    line = line_of(src, "if (Row < j) __syncthreads();")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"is inside the test at line {line} (`if (Row < j)`), which thread" in first, first
    assert "put it where every thread gets, outside the test" in first, first


def test_a_barrier_some_threads_skip_is_never_repaired_by_deleting_it(tmp_path):
    """Lab 05's end-of-channel barrier written `if (tx < O_TILE_WIDTH && ty <
    O_TILE_WIDTH) __syncthreads();`: deleting it mended every dataset on the
    emulator's schedule (the first line said so) and would leave the race
    it was there for. The repair search offers no barrier deleted; the
    first line names the if and says to put the barrier where every thread
    gets."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    old = """        //@@ thread must be done reading it.
        __syncthreads();"""
    src = edited(tmp_path, "05-pitched-conv", old, old.replace(
        "        __syncthreads();", "        if (tx < O_TILE_WIDTH && ty < O_TILE_WIDTH) __syncthreads();"))
    line = line_of(src, "if (tx < O_TILE_WIDTH && ty < O_TILE_WIDTH) __syncthreads();")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"the __syncthreads() at line {line} (" in first and "outside the test" in first, first
    assert "without it" not in first, first
    repair = rep.get("repair") or {}
    assert not (repair.get("kind") == "drop" and "__syncthreads" in repair.get("from", "")), repair


def test_a_local_read_once_whose_use_an_edit_replaces_is_named_where_it_is_set(tmp_path):
    """Lab 03's phase count set to `numPhases = TILE_WIDTH;`: `k` for
    numPhases in the loop's test mends every dataset (the extra phases
    load zeros), and numPhases is read nowhere else, so its value is what
    is wrong: the first line starts at the assignment, and the loop's edit
    only works round it."""
    src = edited(tmp_path, "03-arbitrary-matmul", "numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;",
                 "numPhases = TILE_WIDTH;")
    line, loop = line_of(src, "numPhases = TILE_WIDTH;"), line_of(src, "for (int ph = 0; ph < numPhases")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`numPhases = TILE_WIDTH;`) sets numPhases to `TILE_WIDTH`, and only line "
                            f"{loop} reads it"), first
    assert f"(`k` at line {loop} only works round it)" in first, first


def test_a_launch_whose_arguments_are_rotated_is_named_with_their_order(tmp_path):
    """Lab 01's launch with its three buffers rotated, (d_N, d_P, d_M, ...):
    each goes where another's name says it belongs; the first line names
    the launch, where each went, and the order they belong in."""
    src = edited(tmp_path, "01-basic-matmul", "MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, width);",
                 "MatrixMulKernel<<<dimGrid, dimBlock>>>(d_N, d_P, d_M, width);")
    line = line_of(src, "MatrixMulKernel<<<dimGrid, dimBlock>>>(d_N, d_P, d_M, width);")
    rc, rep = kit.check_json("01-basic-matmul", src, "emu", expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the launch at line {line} ("), first
    assert "passes MatrixMulKernel's arguments out of their order: d_N as its `M`, d_P as its `N` and d_M as its `P`" \
        in first, first
    assert "(d_M, d_N, d_P, width)" in first, first


def test_a_2d_copy_with_its_width_and_height_the_other_way_round_is_named(tmp_path):
    """Lab 05's copy back with `out->height, row_bytes` where `row_bytes,
    out->height` belong: on the one-pixel-high image its width is the
    image's count of rows and its height the bytes of a row, which the
    first line says as the two given the other way round (not only a
    width too small)."""
    src = edited(tmp_path, "05-pitched-conv", "                            row_bytes, out->height, cudaMemcpyDeviceToHost));",
                 "                            out->height, row_bytes, cudaMemcpyDeviceToHost));")
    line = line_of(src, "cudaMemcpy2D(out->data")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"the cudaMemcpy2D at line {line} (" in first, first
    assert "its width and its height are given the other way round" in first, first


def test_a_load_test_that_bounds_another_name_than_its_index_is_named(tmp_path):
    """Lab 03's N load tested `mCol < k && Col < l`, the M load's column,
    where its own index reads nRow: a read past N's end is let through.
    The first line names the test, the name it bounds that the index does
    not read, and the index's name it leaves out."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "03-arbitrary-matmul", "if (nRow < k && Col < l)", "if (mCol < k && Col < l)")
    line = line_of(src, "if (mCol < k && Col < l)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (`if (mCol < k && Col < l)`) bounds mCol (`mCol < k`), which the "
                            f"access at line {line + 1} does not read, and not nRow, which it reads"), first


def test_a_tile_read_by_a_loop_that_starts_past_zero_is_named_at_the_loop(tmp_path):
    """Lab 03's dot product looped `for (int i = tx; i < tx + TILE_WIDTH;
    ++i)`: the tiles are read past their ends from the second thread on.
    The first line names the loop's start, not the bound that let the
    read through."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "03-arbitrary-matmul", "for (int i = 0; i < TILE_WIDTH; ++i)",
                 "for (int i = tx; i < tx + TILE_WIDTH; ++i)")
    line = line_of(src, "for (int i = tx; i < tx + TILE_WIDTH; ++i)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {line} (`for (int i = tx; i < tx + TILE_WIDTH; ++i)`) starts i at `tx`, "
                            f"and line {line + 1} indexes a tile with i"), first


def test_a_host_runtime_call_in_a_kernel_does_not_build(backend, tmp_path):
    """Lab 01's kernel calling cudaDeviceSynchronize() after its store, a
    wait the host does: nvcc refuses a __host__ function called from a
    __global__ one, and so does emucc now, which ran the call on the host
    (2 of 15 for set AR's 02-j4, whose kernel waited so instead of at a
    __syncthreads()). The first line on the emulator names the call."""
    src = edited(tmp_path, "01-basic-matmul", "        P[Row * Width + Col] = Pvalue;",
                 "        P[Row * Width + Col] = Pvalue;\n        cudaDeviceSynchronize();")
    line = line_of(src, "cudaDeviceSynchronize();")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, "--dataset", "width-0017", expect_rc=1)
    assert set(kit.statuses(rep).values()) == {"compile_error"}, kit.statuses(rep)
    if backend == "emu":
        first = rep["fix_first"]
        assert f":{line}: error: cudaDeviceSynchronize is a host function of the CUDA runtime, called here in a " \
               "kernel" in first and "__syncthreads()" in first, first


def test_a_load_test_that_leaves_out_a_name_of_its_index_is_named_with_its_bound(tmp_path):
    """Lab 03's M load tested `if (mCol < k)` alone, its row Row in no
    clause: a read past M's last row is let through. The first line names
    the test, the name it leaves out and the bound the kernel gives it
    elsewhere (`Row < j`, at the store)."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    src = edited(tmp_path, "03-arbitrary-matmul", "if (Row < j && mCol < k)", "if (mCol < k)")
    line = line_of(src, "if (mCol < k)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (`if (mCol < k)`) does not bound Row, which the access at line "
                            f"{line + 1} reads: add `Row < j` to it"), first


def test_a_loop_counter_never_restarted_in_its_outer_loop_is_named(tmp_path):
    """Lab 05's mask columns counted by a j declared before the row loop,
    `for (; j < MASK_WIDTH; j++)`: after the first row j stays at
    MASK_WIDTH, and each sum takes only the mask's first row. The first
    line names the inner loop with no start and the line that sets j."""
    old = """            for (int i = 0; i < MASK_WIDTH; i++)
                for (int j = 0; j < MASK_WIDTH; j++)"""
    new = """            int j = 0;
            for (int i = 0; i < MASK_WIDTH; i++)
                for (; j < MASK_WIDTH; j++)"""
    src = edited(tmp_path, "05-pitched-conv", old, new)
    line, set_line = line_of(src, "for (; j < MASK_WIDTH; j++)"), line_of(src, "int j = 0;")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {line} (`for (; j < MASK_WIDTH; j++)`) gives j no start, and only line "
                            f"{set_line} ("), first


def test_a_plus_typed_for_a_times_in_a_size_is_named_with_the_product(tmp_path):
    """Lab 05's mask copied with `MASK_WIDTH * MASK_WIDTH + sizeof(float)`
    bytes: `+` for `*`, 29 bytes of 100. The first line ends with the size
    made a product there (the repair search's `+` for `*`, an edit of every
    sum)."""
    old = "MASK_WIDTH * MASK_WIDTH * sizeof(float)));"
    src = edited(tmp_path, "05-pitched-conv", old, "MASK_WIDTH * MASK_WIDTH + sizeof(float)));")
    line = line_of(src, "MASK_WIDTH * MASK_WIDTH + sizeof(float)")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"line {line}: `MASK_WIDTH * MASK_WIDTH + sizeof(float)` in " in first, first
    assert "with `MASK_WIDTH * MASK_WIDTH * sizeof(float)` there, all 16 datasets come out right" in first, first


def test_a_times_typed_for_a_plus_in_an_index_is_named_with_the_sum(tmp_path):
    """Lab 04's first batch reading `I[(srcY * width * srcX) * channels +
    k]`: `*` for `+` between the row's offset and the column, no built-in
    index beside it. The first line names that line with the sum there,
    not the bounds test the read got through."""
    src = tmp_path / "conv_2batch.cu"
    text = kit.solution("04-conv-2batch").read_text()
    old = "I[(srcY * width + srcX) * channels + k]"
    assert text.count(old) == 2
    src.write_text(text.replace(old, "I[(srcY * width * srcX) * channels + k]", 1))
    line = line_of(src, "srcY * width * srcX")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `srcY * width * srcX` in ") and \
        "with `srcY * width + srcX` there, all 14 datasets come out right" in first, first


def test_a_tile_bounded_by_a_macro_where_a_const_local_belongs_is_named(tmp_path):
    """Lab 04's tile declared `N_ds[MASK_WIDTH][MASK_WIDTH]` where the
    kernel's `const int w` (the tile with its halo) belongs: the repair
    search's bounds take the function's constant locals as they take the
    file's macros."""
    src = edited(tmp_path, "04-conv-2batch", "__shared__ float N_ds[w][w];",
                 "__shared__ float N_ds[MASK_WIDTH][MASK_WIDTH];")
    line = line_of(src, "N_ds[MASK_WIDTH][MASK_WIDTH]")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `[MASK_WIDTH][MASK_WIDTH]` in ") and "with `[w][w]` there" in first, first


def test_a_barrier_under_an_if_is_not_repaired_by_a_test_made_true(tmp_path):
    """Lab 02's first barrier under `if (ph < Width / TILE_WIDTH - 1)`: the
    race's first line says to call __syncthreads() outside the if; the
    repair search's `<=` there (a test true for every phase) keeps a
    barrier under an if, and is said neither after the race nor on the
    report's repair line."""
    old = "elements: the dot product below reads elements other threads load.\n        __syncthreads();"
    src = edited(tmp_path, "02-tiled-matmul", old,
                 old.replace("__syncthreads();", "if (ph < Width / TILE_WIDTH - 1) __syncthreads();"))
    line = line_of(src, "if (ph < Width / TILE_WIDTH - 1)")
    p = kit.gpulab("check", "02-tiled-matmul", src, "--backend", "emu")
    assert p.returncode == 1, p.stderr
    out = p.stdout
    first = out[out.index("fix this first:"):]
    assert f"is under the test at line {line} (" in first and \
        "call __syncthreads() for every thread, outside the if" in first, first
    assert "looks like the mistake" not in out and "repair:" not in out, out


def test_a_tile_load_that_reads_its_matrix_transposed_is_said_so(tmp_path):
    """Lab 02's M load written `M[(ph * TILE_WIDTH + tx) * Width + Row]`:
    every slot holds the element at the transposed place, which no edit of
    one name mends. The first line names the load and says it reads the
    matrix transposed."""
    src = edited(tmp_path, "02-tiled-matmul", "M[Row * Width + ph * TILE_WIDTH + tx]",
                 "M[(ph * TILE_WIDTH + tx) * Width + Row]")
    line = line_of(src, "M[(ph * TILE_WIDTH + tx) * Width + Row]")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"the load at line {line} (" in first and "reads the matrix transposed" in first and \
        first.endswith("swap the two"), first


def test_an_access_whose_only_test_bounds_the_thread_in_its_tile_is_named_at_the_access(tmp_path):
    """Lab 05's output test written `if (tx < O_TILE_WIDTH)`: a test of the
    thread's place in its tile, by a constant, which the output's index
    reaches only through col_o; no test bounds col_o by the image. The
    first line says that no test bounds col_o and to put the write under
    one, not to test other coordinates at that if."""
    src = edited(tmp_path, "05-pitched-conv", "            if (row_o < out.height && col_o < out.width)",
                 "            if (tx < O_TILE_WIDTH)")
    line = line_of(src, "if (tx < O_TILE_WIDTH)")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"no test bounds `col_o`, which the index of the access at line {line + 1} reads, by the "
                            f"data's size: the test at line {line} (`if (tx < O_TILE_WIDTH)`) checks only `tx`"), first
    assert f"put the access at line {line + 1} under a test of `col_o`" in first, first


def test_a_test_at_its_bound_says_the_comparison_to_write(tmp_path):
    """Lab 03's N load tested `nRow <= k`: the thread of row k, one past N's
    last row, reads past N. The first line names the clause at its bound
    and says what to write there."""
    src = edited(tmp_path, "03-arbitrary-matmul", "if (nRow < k && Col < l)", "if (nRow <= k && Col < l)")
    line = line_of(src, "if (nRow <= k && Col < l)")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {line} (") and "`nRow <= k` holds with nRow = " in first and \
        "the one value `<` would stop (write `nRow < k` there)" in first, first


def test_a_read_left_without_the_test_its_twin_has_is_given_that_test(tmp_path):
    """Lab 04's first batch loading without its ghost test (the if and its
    else left out, the read alone): the same read in the second batch
    stands under `if (srcY >= 0 && ...)` with an else that stores 0. The
    first line names the unguarded read's line and gives it that test and
    its else, not a bounds test the thread passed."""
    old = """        if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)
            N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];
        else
            N_ds[destY][destX] = 0.0f;
        //@@ end"""
    src = edited(tmp_path, "04-conv-2batch", old, """        N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];
        //@@ end""")
    line = line_of(src, "        N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];")
    twin = line_of(src, "                N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} reads `I[(srcY * width + srcX) * channels + k]` under no test of its index, "
                            f"where line {twin} reads it under the test at line {twin - 1} (`if (srcY >= 0 && srcY < "
                            "height && srcX >= 0 && srcX < width)`), whose else stores in its place: give line "
                            f"{line} that test and its else"), first


def test_a_symbol_copy_too_large_by_its_own_size_leads_over_the_declaration(tmp_path):
    """Lab 05's mask copied with `sizeof(Mc) * 2` bytes: 200 into the
    100-byte Mc, refused. The declaration is what the kernel reads (the
    skeleton's); the copy's line leads, with the repair search's edit of
    its size (`1` for `2`), not the advice to declare Mc larger."""
    old = "MASK_WIDTH * MASK_WIDTH * sizeof(float)));"
    src = edited(tmp_path, "05-pitched-conv", old, "sizeof(Mc) * 2));")
    line = line_of(src, "sizeof(Mc) * 2")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    # the copy's line first: the count named (the declaration is the
    # skeleton's), with the repair search's edit of it
    assert first.startswith(f"line {line}") and "in `CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, sizeof(Mc) * 2))` " \
        "looks like the mistake" in first, first
    assert "declare Mc as large as what it holds" not in first, first


def test_a_buffer_freed_before_its_use_is_said_to_move_not_to_go(tmp_path):
    """Lab 05's input freed right before the launch: the repair search's
    edit is the free taken out, and the first line says to move it after
    the buffer's last use, not to delete it (the buffer would never be
    freed)."""
    text = kit.solution("05-pitched-conv").read_text()
    launch = "    pitched_conv_kernel<<<dimGrid, dimBlock>>>(d_in_img, d_out_img);"
    free_in = "    CUDA_CHECK(cudaFree(d_in));\n"
    assert text.count(launch) == 1 and text.count(free_in) == 1
    src = tmp_path / "pitched_conv.cu"
    src.write_text(text.replace(free_in, "").replace(launch, free_in + launch))
    line = line_of(src, "cudaFree(d_in)")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line}: `CUDA_CHECK(cudaFree(d_in));` looks like the mistake: it frees the buffer "
                            "before the program is done with it"), first
    assert "move it after the buffer's last use" in first, first


def test_a_tile_load_whose_phase_is_not_scaled_by_the_tile_is_said_so(tmp_path):
    """Lab 02's N load written `N[(ph + ty) * Width + Col]`: each phase's
    tile starts one row past the last where a tile's width belongs. The
    first line names the load and says to multiply the phase by the
    tile's width: the repair's `stride` edit, ahead of the tile reading that
    says the same where no single edit mends it."""
    src = edited(tmp_path, "02-tiled-matmul", "N[(ph * TILE_WIDTH + ty) * Width + Col]", "N[(ph + ty) * Width + Col]")
    line = line_of(src, "N[(ph + ty) * Width + Col]")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    # (the repair's `stride` edit says it first, `* TILE_WIDTH` after ph at the load's line)
    assert first.startswith(f"line {line}: `* TILE_WIDTH` looks missing after `ph`: with it added there, all "), first


def test_a_loop_end_barrier_written_after_the_loop_is_said_to_move(tmp_path):
    """Lab 02's second barrier written after the phase loop's brace: the
    race between phases names the loop's end as the barrier's place, and
    says to move there the one after the loop."""
    old = """        __syncthreads();
        //@@ end
    }

    //@@ TODO 7"""
    new = """        //@@ end
    }
    __syncthreads();

    //@@ TODO 7"""
    src = edited(tmp_path, "02-tiled-matmul", old, new)
    after = src.read_text().splitlines().index("    __syncthreads();") + 1
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "race between iterations of the loop at line" in first and \
        "there belongs a __syncthreads() at the end of the loop" in first and \
        first.startswith(f"the __syncthreads() at line {after}, after the loop, orders nothing between its "
                         "iterations: move it to the loop's end; "), first


def test_an_output_whose_border_is_never_stored_names_the_stores_test(tmp_path):
    """Lab 05's output test written to keep out a border of MASK_RADIUS on
    every side (a 'valid' convolution's habit): the unstored elements make
    a frame 2 wide, nothing inside it wrong. The first line names that
    frame, the store and the test it stands under, and says the output has
    its border."""
    src = edited(tmp_path, "05-pitched-conv", "            if (row_o < out.height && col_o < out.width)",
                 "            if (row_o >= MASK_RADIUS && row_o < out.height - MASK_RADIUS && col_o >= MASK_RADIUS &&"
                 " col_o < out.width - MASK_RADIUS)")
    line = line_of(src, "if (row_o >= MASK_RADIUS")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "the output's border, 2 wide on every side, is never stored, and nothing inside it is wrong: the store " \
           f"at line {line + 1} stands under the test at line {line} (" in first, first
    assert first.endswith("test only that the element lies inside the output"), first


def test_a_tile_load_that_reads_the_same_tile_in_every_phase_is_said_so(tmp_path):
    """Lab 02's M load without its phase, `M[Row * Width + tx]`: the tile
    of phase 0 in every round. Slot by slot each element is some phase's;
    two rounds of one block holding the same tile are what shows it. The
    first line names the load and says it reads the same elements in
    every phase."""
    src = edited(tmp_path, "02-tiled-matmul", "M[Row * Width + ph * TILE_WIDTH + tx]", "M[Row * Width + tx]")
    line = line_of(src, "M[Row * Width + tx]")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "holds the same elements in phase 0 and in phase 1, the phase-0 tile" in first and \
        f"the load at line {line} (" in first and "reads the same elements in every phase" in first, first


def test_a_count_made_by_the_other_round_up_without_its_plus_one_is_named(tmp_path):
    """Lab 03's phase count written `(k - 1) / TILE_WIDTH`, the round-up
    `(k - 1) / T + 1` without its `+ 1`: one phase short for every k. The
    repair search's `ph <= numPhases` only makes up for it; the first line
    names the count and the `+ 1` it lacks."""
    src = edited(tmp_path, "03-arbitrary-matmul", "numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;",
                 "numPhases = (k - 1) / TILE_WIDTH;")
    line = line_of(src, "numPhases = (k - 1) / TILE_WIDTH;")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "the round-up `(k - 1) / TILE_WIDTH + 1` without its `+ 1`" in first \
        and "write `(k - 1) / TILE_WIDTH + 1`" in first, first


def test_a_sum_started_from_the_output_it_computes_is_named_at_that_read(tmp_path):
    """Lab 05's sum started from the output, `float acc = out.data[...]`,
    which no copy fills: the first line names that read as reading the
    kernel's own output, and says to start from 0, not to copy something
    into the output's buffer."""
    src = edited(tmp_path, "05-pitched-conv", "            float acc = 0.0f;",
                 "            float acc = out.data[row_o * out.pitch + col_o * out.channels + k];")
    line = line_of(src, "float acc = out.data[")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"at line {line} (" in first and "reads out.data, the output it stores at line" in first and \
        "start from 0 (a sum's first value) instead of reading it" in first, first


def test_a_missing_barrier_between_a_guarded_load_and_the_sum_says_where_it_goes(tmp_path):
    """Lab 04's barrier after the two batches left out: the race between the
    second batch's store and the sum's read says to put one after the
    statement that stores the tile, at the level every thread reaches."""
    src = edited(tmp_path, "04-conv-2batch", "        //@@ TODO 4: Wait until the whole tile is loaded.\n        __syncthreads();\n",
                 "        //@@ TODO 4: Wait until the whole tile is loaded.\n")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "no __syncthreads() separates them" in first and "; put one after line " in first and \
        "where every thread of the block reaches it" in first, first
    # after the second batch's store too, not only the first's (the race names the first)
    after = int(first.split("; put one after line ")[1].split(",")[0])
    assert after > line_of(src, "if (destY < w) {"), first


def test_a_product_accumulated_from_zero_is_named_at_its_multiply(tmp_path):
    """Lab 05's weighted sum written `acc *= ...` from `float acc = 0.0f;`:
    every output 0. The first line names the `*=` and the 0 it starts from,
    and says to add each term."""
    src = edited(tmp_path, "05-pitched-conv", "acc += Mc[i][j] * N_ds[ty + i][tx + j];",
                 "acc *= Mc[i][j] * N_ds[ty + i][tx + j];")
    line, start = line_of(src, "acc *= Mc[i][j]"), line_of(src, "float acc = 0.0f;")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and f"multiplies acc by each term (`*=`), and acc starts at 0 (line " \
        f"{start})" in first and first.endswith("add each term to it (`+=`)"), first


def test_a_block_sized_by_the_data_past_the_limit_is_named_at_its_dim3(tmp_path):
    """Lab 02's block declared `dim3 dimBlock(width, width)`: past
    1024 threads on the larger matrices the launch fails (width-0064, 4096
    threads a block, checked alone). The first line
    names the dim3, not the launch, and says a block is a fixed number of
    threads."""
    src = edited(tmp_path, "02-tiled-matmul", "dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);",
                 "dim3 dimBlock(width, width);")
    line = line_of(src, "dim3 dimBlock(width, width);")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", "--dataset", "width-0064", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the block at line {line} (`dim3 dimBlock(width, width);`) comes to ") and \
        "a block is a fixed number of threads, at most 1024, whatever the data's size" in first, first


def test_a_fence_at_the_loops_end_where_its_barrier_belongs_is_named(tmp_path):
    """Lab 03's second barrier written `__threadfence_block();`: a fence
    orders memory but waits for no thread, and the phases race. The race
    between passes names the fence at the loop's end as the one to make
    __syncthreads()."""
    text = kit.solution("03-arbitrary-matmul").read_text()
    lines = text.splitlines(keepends=True)
    second = [i for i, l in enumerate(lines) if l.strip() == "__syncthreads();"][1]
    lines[second] = lines[second].replace("__syncthreads();", "__threadfence_block();")
    src = tmp_path / "arbitrary_matmul.cu"
    src.write_text("".join(lines))
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "race between iterations of the loop at line" in first and \
        first.startswith(f"the __threadfence_block() at line {second + 1} orders memory but waits for no thread: "
                         "make it __syncthreads(); "), first


def test_a_buffer_allocated_too_small_for_its_own_copy_is_named_at_the_allocation(backend, tmp_path):
    """Lab 05's output allocated with the image's width for its rows
    (`in->width` for `in->height`): on images taller than wide the kernel
    writes past the buffer's end, and the checkers name the store and the
    bounds test that let it through. But the program's own copy back reads
    every row, farther than the buffer holds, and the writes stay within
    that copy: the allocation is too small, not the index too large. The
    first line says so at the cudaMallocPitch's line, with both sizes."""
    src = edited(tmp_path, "05-pitched-conv",
                 "cudaMallocPitch((void **)&d_out, &out_pitch_bytes, row_bytes, in->height)",
                 "cudaMallocPitch((void **)&d_out, &out_pitch_bytes, row_bytes, in->width)")
    made, copy = line_of(src, "&d_out, &out_pitch_bytes"), line_of(src, "cudaMemcpy2D(out->data")
    rc, rep = kit.check_json("05-pitched-conv", src, backend, sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {made} (`CUDA_CHECK(cudaMallocPitch("), first
    assert f"but the copy at line {copy} reads " in first, first
    assert "the allocation is too small, not an index too large" in first, first
    assert re.search(r"allocates (\d+) bytes, .* reads (\d+) bytes", first), first
    small, copied = map(int, re.search(r"allocates (\d+) bytes, .* reads (\d+) bytes", first).groups())
    assert small < copied, first


def test_a_write_past_a_buffer_s_end_with_its_copy_in_bounds_is_no_allocation_too_small(backend, tmp_path):
    """The other side of the reading above: lab 01's bounds test dropped,
    so the rounded-up grid writes past P's end, while the copy back reads
    exactly P's bytes. The writes go past what the program uses: the
    guard's words stay those of a bounds test, never an allocation."""
    src = edited(tmp_path, "01-basic-matmul", "if (Row < Width && Col < Width) {", "{")
    rc, rep = kit.check_json("01-basic-matmul", src, backend, sanitize=True)
    said = [d["message"] for d in rep["datasets"] if d["status"] == "cuda_error"]
    assert said and all("smaller than the program uses it" not in m for m in said), said
    assert "allocation is too small" not in rep["fix_first"], rep["fix_first"]


@pytest.mark.parametrize("weak, words", [
    ("__syncwarp", "waits only for the threads of one warp (32), and the block has several"),
    ("__threadfence_block", "orders memory but waits for no thread"),
])
def test_a_barrier_of_less_than_the_block_between_a_tile_s_stores_and_reads_is_named_first(tmp_path, weak, words):
    """Lab 02's first barrier, between the tiles' loads and the dot
    product, written as a barrier of less than the block: the race check
    sees the loads and the reads race. The barrier the student chose
    stands where the block's belongs: the finding names it, its line and
    its kind first, and says what to write there (not where to add
    another)."""
    text = kit.solution("02-tiled-matmul").read_text()
    old = "        __syncthreads();\n        //@@ end\n\n        //@@ TODO 5"
    assert text.count(old) == 1
    src = tmp_path / "tiled_matmul.cu"
    src.write_text(text.replace(old, old.replace("__syncthreads", weak)))
    line = line_of(src, f"{weak}();")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True)
    races = [f["message"] for d in rep["datasets"] if d["sanitizer"] for f in d["sanitizer"]["findings"]
             if f["kind"] == "race"]
    assert races, rep["fix_first"]
    assert races[0].startswith(f"the {weak}() at line {line}, between the tile's stores and its reads, {words}: "
                               "make it __syncthreads(); "), races[0]
    assert "; put one after line" not in races[0], races[0]
    assert rep["fix_first"].startswith(f"the {weak}() at line {line}") or \
        rep["fix_first"].startswith(f"line {line}: `{weak}();`"), rep["fix_first"]


def test_a_2d_copy_s_pitch_and_width_in_each_other_s_places_are_named_as_exchanged(tmp_path):
    """Lab 05's copy back with its destination pitch and its width in each
    other's places: the width is the host's pitch in bytes, the pitch a
    row's bytes. Where the host's rows are padded, the width is more than
    the pitch and cudaMemcpy2D refuses it. The two values exchanged fit,
    and the width is written as a pitch: the finding names both arguments,
    by their text and value, and says to exchange them."""
    text = kit.solution("05-pitched-conv").read_text()
    old = ("cudaMemcpy2D(out->data, (size_t)out->pitch * sizeof(float), d_out, out_pitch_bytes,\n"
           "                            row_bytes, out->height")
    assert text.count(old) == 1
    src = tmp_path / "pitched_conv.cu"
    src.write_text(text.replace(old, "cudaMemcpy2D(out->data, row_bytes, d_out, out_pitch_bytes,\n"
                                     "                            (size_t)out->pitch * sizeof(float), out->height"))
    line = line_of(src, "cudaMemcpy2D(out->data, row_bytes")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert f"the cudaMemcpy2D at line {line} (" in first, first
    assert re.search(r"its destination pitch, `row_bytes` \(\d+ bytes\), and its width, "
                     r"`\(size_t\)out->pitch \* sizeof\(float\)` \(\d+\), are in each other's places", first), first
    assert first.endswith("exchange the two"), first


def test_a_grid_given_a_z_of_0_is_named_by_its_z(tmp_path):
    """Lab 03's grid with a third argument of 0: x and y are counted right,
    and the dim3's z, given 0, makes the launch fail for every dataset.
    The first line shows the grid's z (1 x 1 x 0, not 1 x 1) and says to
    give it 1 or leave it out, not to count x and y again."""
    text = kit.solution("03-arbitrary-matmul").read_text()
    m = re.search(r"dim3 dimGrid\(([^;]*)\);", text)
    assert m and text.count(m.group(0)) == 1
    src = tmp_path / "arbitrary_matmul.cu"
    src.write_text(text.replace(m.group(0), f"dim3 dimGrid({m.group(1)}, 0);"))
    line = line_of(src, "dim3 dimGrid(")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the grid at line {line} (") and re.search(r"comes to \d+ x \d+ x 0 for this dataset: "
                                                                        r"its z is 0", first), first
    assert "give the dim3's third argument 1, or leave it out" in first, first
    assert "rounding up" not in first, first


def test_a_static_sum_is_told_to_drop_static_not_to_be_shared(tmp_path):
    """Lab 04's sum declared `static float acc = 0.0f;`: one variable for
    the whole grid, which every thread adds into at once. A sum is each
    thread's own value: the first line says to drop `static`, and that
    `__shared__` (what a static tile wants) would not do, one variable for
    each block's threads."""
    src = edited(tmp_path, "04-conv-2batch", "        float acc = 0.0f;", "        static float acc = 0.0f;")
    line = line_of(src, "static float acc = 0.0f;")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (`static float acc = 0.0f;`) declares acc `static`: "), first
    assert "drop `static` (not `__shared__`" in first and "declare it `__shared__`" not in first, first


def test_a_tile_index_hoisted_out_of_the_channel_loop_is_named_with_its_later_set(tmp_path):
    """Lab 04's first batch's tile coordinates (dest, destY, destX) moved
    above the channel loop, where they do not seem to depend on k; the
    second batch sets the same names again inside the loop. From channel 1
    on, the first batch's store takes the second batch's slot, past the
    tile's last row for some threads. The first line names the name, its
    set before the loop, the loop and the set again after the access, not
    a bounds test to add."""
    text = kit.solution("04-conv-2batch").read_text()
    head = ("        int dest = threadIdx.y * TILE_WIDTH + threadIdx.x;\n"
            "        int destY = dest / w;\n"
            "        int destX = dest % w;\n")
    loop = "    for (int k = 0; k < channels; k++) {\n"
    assert text.count(head) == 1 and text.count(loop) == 1
    text = text.replace(head, "").replace(loop, head.replace("        ", "    ") + loop)
    src = tmp_path / "conv_2batch.cu"
    src.write_text(text)
    before, k_loop = line_of(src, "    int destY = dest / w;"), line_of(src, loop.strip())
    again = line_of(src, "        destY = dest / w;")
    rc, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert re.search(rf"the access at line \d+ indexes with destY, set at line {before} \(`int destY = dest / w;`\), "
                     rf"before the loop at line {k_loop}, and set again inside that loop at line {again} ", first), first
    assert "from the loop's second pass on, destY holds that later value" in first, first


@pytest.mark.parametrize("bound, counts", [("Width / TILE_WIDTH", True), ("Width", False)])
def test_a_phase_loop_stepped_by_the_tile_says_what_its_bound_allows(tmp_path, bound, counts):
    """Lab 02's phase loop stepped by TILE_WIDTH while its body scales ph
    by TILE_WIDTH again. Where the loop's bound counts tiles (the
    reference's `Width / TILE_WIDTH`), only a step of 1 mends it; where a
    student also bounds it in elements (`ph < Width`), using ph unscaled
    would do too. The first line offers what the bound allows."""
    src = edited(tmp_path, "02-tiled-matmul", "for (int ph = 0; ph < Width / TILE_WIDTH; ++ph)",
                 f"for (int ph = 0; ph < {bound}; ph += TILE_WIDTH)")
    line = line_of(src, "ph += TILE_WIDTH")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the loop at line {line} (") and "steps ph by TILE_WIDTH" in first, first
    if counts:
        assert "step ph by 1 (ph++), as its bound counts passes, not elements" in first, first
    else:
        assert "step ph by 1 (ph++) or use it unscaled" in first, first


def test_a_tile_loaded_from_the_output_struct_names_the_input_member_never_read(tmp_path):
    """Lab 05's tile loaded from the output image, every member of `out`
    where `in`'s belong: the load reads out.data, which nothing stored, and
    the kernel reads in.data nowhere. The first line names the load's line
    and says to read in.data there, not to start a sum from 0."""
    text = kit.solution("05-pitched-conv").read_text()
    old = "in.data[row_i * in.pitch + col_i * in.channels + k]"
    assert text.count(old) == 1
    src = tmp_path / "pitched_conv.cu"
    src.write_text(text.replace(old, old.replace("in.", "out.")))
    line = line_of(src, "out.data[row_i * out.pitch")
    rc, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert f"at line {line} (" in first and "reads out.data, the output it stores at line" in first, first
    assert "the kernel never reads in.data" in first and "write in.data there" in first, first
    assert "start from 0" not in first, first


def test_a_grid_counted_with_a_shift_by_the_tile_names_the_shift_not_the_zero(tmp_path):
    """Lab 02's grid's y counted `width >> TILE_WIDTH`: a shift by 16
    bits, 0 for every width the lab has, so the launch asks for no blocks.
    The launch record says the grid came to N x 0; the first line names
    the shift at the grid's line and says to divide, the why of that 0."""
    src = edited(tmp_path, "02-tiled-matmul", "dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);",
                 "dim3 dimGrid(width / TILE_WIDTH, width >> TILE_WIDTH);")
    line = line_of(src, "width >> TILE_WIDTH")
    rc, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"line {line} (") and "writes `width >> TILE_WIDTH`, a shift by TILE_WIDTH = 16 bits" \
        in first, first
    assert "divide by TILE_WIDTH with `/`" in first and "rounding up" not in first, first


def test_a_launch_that_passes_a_size_for_two_parameters_names_the_size_left_out(tmp_path):
    """Lab 03's launch passes k for both of the kernel's k and l: the
    host function's own l, a parameter of the launching function, goes to
    no argument. Nothing is declared beside k; the name passed is one of
    the two parameters' own, and the other's is in reach and passed
    nowhere: the first line names the launch and says to pass l as `l`."""
    src = edited(tmp_path, "03-arbitrary-matmul", "(M, N, P, j, k, l);", "(M, N, P, j, k, k);")
    line = line_of(src, "(M, N, P, j, k, k);")
    rc, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True)
    first = rep["fix_first"]
    assert first.startswith(f"the launch at line {line} (") and "passes k twice, as MatrixMulKernel's `k` and as " \
        "its `l`" in first, first
    assert "pass l as `l`" in first, first


# ---- newcomer set DQ's kinds, each in a file of our own ------------------------


def test_a_test_that_reads_a_name_its_body_sets_later_is_named(tmp_path):
    """Lab 01 with Col started at 0 and worked out only inside the bounds
    test: the test saw 0 and let every column through, so the right
    threads of a rounded-up grid read past N. The first line names the
    test, the line that sets Col after it and the value it tested."""
    src = edited(tmp_path, "01-basic-matmul", "    int Col = blockIdx.x * blockDim.x + threadIdx.x;\n",
                 "    int Col = 0;\n")
    src.write_text(src.read_text().replace(
        "        float Pvalue = 0;\n",
        "        float Pvalue = 0;\n        Col = blockIdx.x * blockDim.x + threadIdx.x;\n"))
    test, late, start = line_of(src, "if (Row < Width && Col < Width)"), \
        line_of(src, "        Col = blockIdx.x"), line_of(src, "int Col = 0;")
    _, rep = kit.check_json("01-basic-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {test} (`if (Row < Width && Col < Width) {{`) reads Col before line "
                            f"{late} ("), first
    assert f"at the test it is still the value of line {start} (`int Col = 0;`)" in first, first
    assert "work out Col before the test" in first, first


def test_a_test_worked_out_before_the_phase_loop_is_named(tmp_path):
    """Lab 03 with N's bounds test worked out once, before the phase loop,
    for phase 0's row (`ty < k`): in the last phase the test still holds
    and nRow runs past N's rows. The first line names the test, the line
    that worked it out, the loop, and nRow, which each pass sets anew."""
    src = edited(tmp_path, "03-arbitrary-matmul", "    for (int ph = 0; ph < numPhases; ++ph) {\n",
                 "    int nInside = ty < k && Col < l;\n    for (int ph = 0; ph < numPhases; ++ph) {\n")
    src.write_text(src.read_text().replace("        if (nRow < k && Col < l)\n", "        if (nInside)\n"))
    test, ahead = line_of(src, "if (nInside)"), line_of(src, "int nInside =")
    loop, row = line_of(src, "for (int ph = 0;"), line_of(src, "int nRow = ")
    _, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {test} (`if (nInside)`) tests nInside, worked out once at line {ahead} "
                            f"(`int nInside = ty < k && Col < l;`), before the loop at line {loop}: "), first
    assert f"reads at nRow, which line {row} sets anew each pass" in first, first


def test_a_block_declared_with_no_size_is_named_at_its_declaration(tmp_path):
    """Lab 01 with its grid and block declared on one line, the block with
    no size (`dim3 threads, blocks(...)`): every block is one thread, and
    the grid counted for 16 x 16 blocks covers a corner of P. The first
    line names the declaration, the 1 x 1 block and what the grid covers;
    not the grid's count, which is right."""
    old = ("    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH);\n"
           "    dim3 dimGrid((width + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH);\n"
           "    MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, width);\n")
    new = ("    dim3 threads, blocks((width + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH);\n"
           "    MatrixMulKernel<<<blocks, threads>>>(d_M, d_N, d_P, width);\n")
    src = edited(tmp_path, "01-basic-matmul", old, new)
    decl, launch = line_of(src, "dim3 threads, blocks("), line_of(src, "<<<blocks, threads>>>")
    _, rep = kit.check_json("01-basic-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {decl} (`dim3 threads, blocks(") and "declares threads with no size" in first, first
    assert f"every block of the launch at line {launch} is one thread and computes 1 x 1 output element," in first, \
        first
    assert "give threads the block's size where it is declared" in first, first


def test_a_host_fill_of_the_pitched_output_is_named_for_its_padding(tmp_path):
    """Lab 05 with the host's out cleared by one memset of pitch x height
    floats before the launch: the pixels come back right through
    cudaMemcpy2D, but the padding the harness set is now 0. The first
    line names the memset and the row-by-row copy that leaves the padding
    alone."""
    launch = "    pitched_conv_kernel<<<dimGrid, dimBlock>>>(d_in_img, d_out_img);\n"
    src = edited(tmp_path, "05-pitched-conv", launch,
                 "    memset(out->data, 0, sizeof(float) * out->height * out->pitch);\n" + launch)
    fill, copy = line_of(src, "memset(out->data"), line_of(src, "cudaMemcpy2D(out->data")
    _, rep = kit.check_json("05-pitched-conv", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"line {fill} (`memset(out->data, 0, ") and "fills out with memset as one block of memory, " \
        "padding included" in first, first
    assert f"(the cudaMemcpy2D at line {copy} writes each row's pixels and leaves the padding alone)" in first, first


def test_a_store_of_a_threads_own_value_after_the_tiles_read_is_no_load(tmp_path):
    """Lab 02 with each thread writing its running Pvalue into its slot of
    ds_N right after the dot product, before the pass's second barrier:
    the others may still be reading that slot. It is a store of the
    thread's own value, not a load placed late, so the first line says a
    store must wait for the barrier, not to move a load up."""
    dot = "            Pvalue += ds_M[ty][i] * ds_N[i][tx];\n"
    src = edited(tmp_path, "02-tiled-matmul", dot, dot + "        ds_N[ty][tx] = Pvalue;\n")
    at, read = line_of(src, "ds_N[ty][tx] = Pvalue;"), line_of(src, "Pvalue += ds_M[ty][i]")
    _, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the store into ds_N at line {at} (`ds_N[ty][tx] = Pvalue;`) in MatrixMulKernel comes "
                            f"after the read of ds_N at line {read}, in the same pass, with no __syncthreads() "
                            "between"), first
    assert "move the load up" not in first, first


def test_a_subscript_past_its_dimension_names_the_line_that_set_it(tmp_path):
    """Lab 04 with the second batch's column made by taking away whole rows
    of the block's width (`destX = dest - destY * TILE_WIDTH`), not the
    tile's: destX runs past the tile's 20 columns. The row's test is
    right, so the finding that the subscript left its dimension leads,
    with the line that last set destX; not a tile too small."""
    src = edited(tmp_path, "04-conv-2batch", "        destY = dest / w;\n        destX = dest % w;\n",
                 "        destY = dest / w;\n        destX = dest - destY * TILE_WIDTH;\n")
    setx = line_of(src, "destX = dest - destY * TILE_WIDTH;")
    _, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith("the second subscript of N_ds at line "), first
    assert f"`destX` (last set at line {setx} (`destX = dest - destY * TILE_WIDTH;`)), takes the values " in first, \
        first
    assert "is too small" not in first.split(";")[0], first


def test_a_grid_count_made_through_locals_names_where_each_was_set(tmp_path):
    """Lab 03 with the grid's x counted through two locals, the first set
    from j, the rows, where the columns' l belongs: the launch covers too
    few columns when l > j. The first line follows the grid's x back to
    where each local was set."""
    old = "    dim3 dimGrid((l + TILE_WIDTH - 1) / TILE_WIDTH, (j + TILE_WIDTH - 1) / TILE_WIDTH);\n"
    new = ("    int across = j;\n"
           "    int blocks_x = (across + TILE_WIDTH - 1) / TILE_WIDTH;\n"
           "    dim3 dimGrid(blocks_x, (j + TILE_WIDTH - 1) / TILE_WIDTH);\n")
    src = edited(tmp_path, "03-arbitrary-matmul", old, new)
    a, b = line_of(src, "int across = j;"), line_of(src, "int blocks_x =")
    _, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"its x, blocks_x, is set at line {b} (`int blocks_x = (across + TILE_WIDTH - 1) / TILE_WIDTH;`), from " \
        f"across, set at line {a} (`int across = j;`)" in first, first


def test_a_test_worked_out_before_its_names_were_set_again_is_named(tmp_path):
    """Lab 04 with the second batch's `destY < w` worked out once, right
    after the first batch's destY (`int fits = destY < w;`), and tested as
    `if (fits)` after destY was set for the second batch: the old verdict
    lets the rows past the tile through. The first line names the test,
    the line that worked it out and the line that set destY again."""
    src = edited(tmp_path, "04-conv-2batch", "        int destX = dest % w;\n",
                 "        int destX = dest % w;\n        int fits = destY < w;\n")
    src.write_text(src.read_text().replace("        if (destY < w) {\n", "        if (fits) {\n"))
    test, made = line_of(src, "if (fits) {"), line_of(src, "int fits = destY < w;")
    again = line_of(src, "        destY = dest / w;")
    _, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {test} (`if (fits) {{`) tests fits, worked out at line {made} "
                            f"(`int fits = destY < w;`) from destY, which line {again} sets again after it"), first


def test_a_name_alone_in_a_bounds_test_is_named_with_its_bound(tmp_path):
    """Lab 03's store written `if (Row < j && Col)`: Col alone only asks
    that it is not 0, so column 0 of P is never written and the columns
    past l are. The first line names the clause and the bound the file
    gives Col elsewhere (`Col < l`), not the other clause's j."""
    src = edited(tmp_path, "03-arbitrary-matmul", "    if (Row < j && Col < l)\n        P[Row * l + Col]",
                 "    if (Row < j && Col)\n        P[Row * l + Col]")
    test = line_of(src, "if (Row < j && Col)")
    _, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {test} (`if (Row < j && Col)`) tests Col alone: "), first
    assert first.endswith("write `Col < l`"), first


def test_an_unsigned_difference_compared_with_zero_is_named(tmp_path):
    """Lab 03 with nRow declared unsigned and N's test written as a
    difference, `k - nRow != 0`: past k the difference wraps round and is
    never 0, so the last phase reads rows of N past its end. The first
    line names the test, the difference and nRow's unsigned declaration."""
    src = edited(tmp_path, "03-arbitrary-matmul", "        int nRow = ph * TILE_WIDTH + ty;\n",
                 "        unsigned nRow = ph * TILE_WIDTH + ty;\n")
    src.write_text(src.read_text().replace("if (nRow < k && Col < l)", "if (k - nRow != 0 && Col < l)"))
    test, decl = line_of(src, "if (k - nRow != 0 && Col < l)"), line_of(src, "unsigned nRow =")
    _, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {test} (`if (k - nRow != 0 && Col < l)`) works out `k - nRow` in "
                            f"unsigned arithmetic (nRow is declared unsigned at line {decl})"), first


def test_an_output_whose_blocks_are_stored_in_each_others_places_is_named(tmp_path):
    """Lab 02 storing through its own row and column made with the block
    offsets exchanged (`outRow = bx * TILE_WIDTH + ty`): every block's
    results are right and land in the mirrored block. The first line says
    so, with the blocks' size, at the store's line."""
    store = "    P[Row * Width + Col] = Pvalue;\n"
    src = edited(tmp_path, "02-tiled-matmul", store,
                 "    int outRow = bx * TILE_WIDTH + ty, outCol = by * TILE_WIDTH + tx;\n"
                 "    P[outRow * Width + outCol] = Pvalue;\n")
    at = line_of(src, "P[outRow * Width + outCol] = Pvalue;")
    _, rep = kit.check_json("02-tiled-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert "are exactly the right value of their own place in the mirrored block (the output's 16 x 16 block" in first, \
        first
    assert f"look at the block offsets in the index of the store of the output at line {at} (" in first, first


def test_a_tiles_padding_filled_with_a_number_other_than_0_is_named(tmp_path):
    """Lab 03 whose loads fill the slots past the matrices with -1.0f: the
    sum adds (-1)(-1) for each padded term, so every output is off by the
    same amount. The first line says the slots' products make the offset
    and names the store, not the accumulator's start."""
    src = edited(tmp_path, "03-arbitrary-matmul", "            ds_M[ty][tx] = 0.0f;\n",
                 "            ds_M[ty][tx] = -1.0f;\n")
    src.write_text(src.read_text().replace("            ds_N[ty][tx] = 0.0f;\n", "            ds_N[ty][tx] = -1.0f;\n"))
    at = line_of(src, "ds_M[ty][tx] = -1.0f;")
    _, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"line {at} (`ds_M[ty][tx] = -1.0f;`) stores -1.0f into a tile's slot" in first, first
    assert "look at where the accumulator is first set" not in first, first


def test_a_bitwise_or_of_two_indices_in_a_bounds_test_is_named(tmp_path):
    """Lab 03's store guarded by `(Row | Col) < j` on a square output's
    side: the OR of two indices inside can reach the bound, so some
    elements are never stored. The first line names the clause and the
    two comparisons it stands for."""
    src = edited(tmp_path, "03-arbitrary-matmul", "    if (Row < j && Col < l)\n        P[Row * l + Col]",
                 "    if ((Row | Col) < l)\n        P[Row * l + Col]")
    test = line_of(src, "if ((Row | Col) < l)")
    _, rep = kit.check_json("03-arbitrary-matmul", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert first.startswith(f"the test at line {test} (`if ((Row | Col) < l)`) compares `(Row | Col)`, a bitwise OR "
                            "of the two indices, with the bound"), first
    assert first.endswith("`Row < j && Col < l`"), first


def test_an_array_base_moved_on_every_pass_is_named_at_its_step(tmp_path):
    """Lab 04 whose channel loop moves a local pointer to the input by the
    channel (`pixels += k;`) and reads without `+ k`: the steps add up (0, 1, 3), so
    channel 2 reads the next pixel's values and the last pixels read past
    the image. The first line names the read and the step, not the
    index's terms."""
    loop = "    for (int k = 0; k < channels; k++) {\n"
    src = edited(tmp_path, "04-conv-2batch", loop, "    const float *pixels = I;\n" + loop + "        pixels += k;\n")
    src.write_text(src.read_text().replace("I[(srcY * width + srcX) * channels + k]",
                                           "pixels[(srcY * width + srcX) * channels]"))
    step = line_of(src, "        pixels += k;")
    _, rep = kit.check_json("04-conv-2batch", src, "emu", sanitize=True, expect_rc=1)
    first = rep["fix_first"]
    assert f"reads through pixels, which line {step} (`pixels += k;`) moves on every pass of the loop at line " \
        f"{step - 1}" in first, first
