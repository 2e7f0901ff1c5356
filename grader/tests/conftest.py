"""pytest set-up: the `gpu` marker and a `backend` fixture.

Tests marked `gpu` need a usable NVIDIA GPU; without one they are skipped
with the reason shown (pytest -rs). Tests that take the `backend` fixture run
once per backend: `emu` always (the CPU emulator is part of the kit and must
work in CI), `gpu` under the `gpu` marker. `no_namespaces` is a program
that runs a command the way a container without namespaces would.
"""
import os
import resource
import shutil
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kit  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a usable NVIDIA GPU; skipped with a reason otherwise")
    config.addinivalue_line("markers", "gpu_exclusive: on the GPU, needs the GPU to itself (run these serially)")
    config.addinivalue_line("markers", "slow: a test file of minutes on 2 cores (a class graded, every mutant, "
                                       "the attack batch); `make check` leaves these out, `make test` runs them")
    config.addinivalue_line("markers", "later_case: a parametrized test's parameter sets after its first on a "
                                       "backend (every lab, mutant or file but one); `make check` leaves these "
                                       "out, `make test` runs them")
    if hasattr(config.option, "loadscopereorder"):
        # newer xdist sorts the units by their number of tests; keep ours
        # (shared_work_first), which puts what costs most first
        config.option.loadscopereorder = False


# GPU tests that hold only when no other process uses the GPU at the same
# time: the harness fills shared memory with NaN just before the student's
# call, and another process's kernels can overwrite it in between (seen on an
# H200 under ten parallel test workers); a 4 s time limit can starve. The GPU
# script (run-on-gpu.sh) runs them alone, after the parallel part.
# The attack batch on the GPU too: four dozen programs starting CUDA at once
# beside ten workers' took CUDA's start-up past its own 20 s limit (an H100).
GPU_EXCLUSIVE = ("ghost-not-zeroed", "tile-width-8", "no-zero-fill", "second-batch-skipped",
                 "test_infinite_loop_times_out", "test_attacks.py")


# The test files that grade classes, every mutant or the attack batch: each
# takes minutes on a 2-core machine. `make check` (the edit loop) runs the
# rest; `make test` and CI run everything.
SLOW_FILES = ("test_attacks.py", "test_batch.py", "test_class.py", "test_exports.py", "test_html.py",
              "test_mistakes.py", "test_slurm.py", "test_stretch.py", "test_wb_kit_like.py", "test_docs.py",
              "test_bench.py", "test_tiles.py", "test_counts.py", "test_sanitize.py")


# Of each slow file, the quick tests that `make check` runs all the same (a
# few seconds each, none that grades a class or builds a fixture of one), so
# that the edit loop touches every part of the kit once: the docs' JSON
# example, the mutants' catalogue, the counts, the tiles, bench's checks, a
# class's hidden datasets, the exports, the web page, a refused attack, the
# stretch solutions. (Slurm's needs its one-node cluster: make test only.)
QUICK_IN_SLOW = {
    # the checkers' own words and a few first-line readings of each kind (a
    # report parsed, a build's cause, a launch the emulator refuses, a
    # reading of a checked run); the other readings' tests are a check of a
    # wrong file each, with the checkers and the repair search, about a
    # second of processor time apiece and half of the edit loop's time
    # (2026-11-30): `pytest grader/tests/test_sanitize.py` runs them all
    "test_sanitize.py": ("test_clean_report_has_no_findings", "test_race_names_both_lines",
                         "test_out_of_bounds_read_names_line_element_and_thread", "test_repeated_reports_are_one_finding",
                         "test_memcheck_records_give_every_faulting_thread", "test_racecheck_hazards_give_the_racing_threads",
                         "test_faulting_threads_come_from_memcheck_records_only", "test_divergent_barrier",
                         "test_a_name_spelt_two_ways_is_named_with_both_lines",
                         "test_a_define_ending_in_a_semicolon_is_named_after_the_compilers_error",
                         "test_a_block_left_without_its_closing_brace_is_named_at_its_opening",
                         "test_a_kernel_parameter_of_another_type_than_its_buffer_is_named",
                         "test_a_block_larger_than_the_kernels_launch_bounds_is_refused",
                         "test_a_kernel_called_without_a_launch_configuration_does_not_build",
                         "test_the_cut_named_is_the_one_that_reaches_the_stored_value",
                         "test_a_longer_name_of_an_axis_given_the_other_axis_is_named",
                         "test_the_bounds_series_runs_a_large_grids_edge_only",
                         "test_missing_second_barrier_race_names_both_lines"),
    "test_docs.py": ("test_report_example_has_the_real_keys", "test_the_lab_walkthrough_quotes_are_marked"),
    "test_mistakes.py": ("test_every_mutant_has_the_header_lines", "test_the_catalogue_matches_the_mutants"),
    "test_counts.py": ("test_lab01_report_shows_reads_per_multiply_add",),
    "test_tiles.py": ("test_a_load_with_row_and_column_mixed_is_named",),
    "test_bench.py": ("test_bench_usage_errors",),
    "test_batch.py": ("test_hidden_datasets_from_a_seed",),
    "test_class.py": ("test_help_on_every_command",),
    "test_exports.py": ("test_gradescope_needs_one_submission",),
    "test_html.py": ("test_check_html_for_a_student",),
    "test_attacks.py": ("test_a_huge_source_is_refused_unread",),
    "test_stretch.py": ("test_stretch_solution_passes_everything",),
    # the Kit-like labs' import (`import-wb --all`, about 45 processor-s) is
    # make test's; test_wb.py's imported labs keep import-wb in the edit loop
    "test_wb_kit_like.py": ("test_import_all_on_a_folder_with_no_lab", "test_every_student_file_has_a_verdict",
                            "test_shared_runs_finds_a_reindented_copy_and_nothing_shorter",
                            "test_no_repository_file_shares_a_run_with_the_reference"),
}


# How `make test` spreads the suite over its workers (pytest-xdist's
# --dist loadgroup): tests that share a fixture made once per module (a
# class graded, a program built) run together on one worker, one group per
# parameter of such a fixture (the attack batch's ways of grading are three
# groups); every other test is a unit of its own. The units go out
# largest first (shared_work_first below), so that no worker is left with
# one long file at the end while the other waits.
SHARED_SCOPES = ("module", "class", "package")


def shared_fixtures(item):
    """The module-scoped fixtures that item uses, each with the index of
    its parameter where it has several ("batch-1")."""
    info = getattr(item, "_fixtureinfo", None)
    callspec = getattr(item, "callspec", None)
    out = []
    for name in (info.names_closure if info else ()):
        defs = info.name2fixturedefs.get(name)
        if defs and defs[-1].scope in SHARED_SCOPES:
            index = callspec.indices.get(name) if callspec else None
            out.append(name if index is None else f"{name}-{index}")
    return out


def shared_fixture_groups(items):
    """{item: group} for the items that use a module-scoped fixture: two
    tests of a file that share one (directly or through a third) are in one
    group, named after the file and the fixtures."""
    parent = {}

    def find(key):
        while parent.setdefault(key, key) != key:
            key = parent[key]
        return key
    keyed = {}
    for item in items:
        keys = [(item.path.name, f) for f in shared_fixtures(item)]
        if keys:
            keyed[item] = keys[0]
            for key in keys:
                parent[find(key)] = find(keys[0])
    members = {}
    for key in list(parent):
        members.setdefault(find(key), []).append(key[1])
    return {item: f"{key[0]}:{','.join(sorted(members[find(key)]))}" for item, key in keyed.items()}


def shared_work_first(items, groups):
    """items reordered so that the units of work that cost most come
    first: the groups that share a module fixture (the more tests, the
    earlier), then the tests marked slow, then the rest, each in its
    collected order. xdist hands units out in this order."""
    sizes = {}
    for group in groups.values():
        sizes[group] = sizes.get(group, 0) + 1

    def weight(item):
        if item in groups:
            return (0, -sizes[groups[item]])
        return (1 if "slow" in item.keywords else 2, 0)
    return sorted(items, key=weight)  # stable: each group keeps its order


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups into the test ids
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in SLOW_FILES and item.originalname not in QUICK_IN_SLOW.get(item.path.name, ()):
            item.add_marker(pytest.mark.slow)
        if "[gpu" in item.nodeid and any(k in item.nodeid for k in GPU_EXCLUSIVE):
            item.add_marker(pytest.mark.gpu_exclusive)
    # the edit loop runs each test once per backend: its first case (the
    # first lab, mutant or file); make test runs every case
    first_cases = set()
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is None:
            continue
        key = (item.path, item.originalname, callspec.params.get("backend"))
        if key in first_cases:
            item.add_marker(pytest.mark.later_case)
        first_cases.add(key)
    groups = shared_fixture_groups(items)
    keep_shard(config, items, groups)
    if config.getoption("dist", "no") == "loadgroup" or getattr(config.option, "loadgroup", False):
        for item, group in groups.items():
            item.add_marker(pytest.mark.xdist_group(group))
        items[:] = shared_work_first(items, groups)
    problem = kit.gpu_problem()
    if problem is None:
        return
    skip = pytest.mark.skip(reason=f"gpu test: {problem}")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


# GPULAB_TEST_SHARD=K/N keeps the K-th of N shards of the selected tests, for
# a machine lent by the ten-minute command (run-on-gpu.sh's PART=shared1 and
# shared2): the units of work (a group that shares a module fixture, or one
# test) sorted by name and dealt out in turn, so that the shards are alike
# in size and the same on every machine, and a shared fixture is made in one
# shard only.
def keep_shard(config, items, groups):
    spec = os.environ.get("GPULAB_TEST_SHARD")
    if not spec:
        return
    try:
        k, n = (int(v) for v in spec.split("/"))
        if not 1 <= k <= n:
            raise ValueError
    except ValueError:
        raise pytest.UsageError(f"GPULAB_TEST_SHARD={spec!r}: expected K/N with 1 <= K <= N (1/2, 2/2)")
    units = sorted({groups.get(item, item.nodeid) for item in items})
    shard_of = {unit: i % n + 1 for i, unit in enumerate(units)}
    kept = [item for item in items if shard_of[groups.get(item, item.nodeid)] == k]
    dropped = [item for item in items if shard_of[groups.get(item, item.nodeid)] != k]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


# What each test costs, for finding where the suite's time goes:
# GPULAB_TEST_COST=FILE appends to FILE one line a test, "wall cpu nodeid",
# its set-up (a module fixture's included, on the test that made it), call
# and teardown, cpu being the processor time (user + system) of the pytest
# process and of every program it ran and waited for (grader/tests/tools/
# test-cost.py sums and sorts the lines). Wall time on a shared machine
# says how busy it was; processor time says how much work the test is.
TEST_COST = os.environ.get("GPULAB_TEST_COST")


def processor_seconds():
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if not TEST_COST:
        yield
        return
    wall, cpu = time.monotonic(), processor_seconds()
    yield
    line = f"{time.monotonic() - wall:.2f} {processor_seconds() - cpu:.2f} {item.nodeid}\n"
    with open(TEST_COST, "a") as f:  # one write of one short line: workers' lines do not mix
        f.write(line)


@pytest.fixture(params=["emu", pytest.param("gpu", marks=pytest.mark.gpu)])
def backend(request):
    if request.param == "emu":
        problem = kit.emu_problem()
        if problem and (kit.ROOT / "grader" / "emu" / "emu.mk").exists():
            pytest.fail(problem)  # the kit has an emulator: it must be built and working
        if problem:
            pytest.skip(problem)
    return request.param


@pytest.fixture(scope="session")
def no_namespaces(tmp_path_factory):
    """A program that runs a command where namespaces and mounts are refused,
    as Docker's default seccomp profile refuses them
    (grader/tests/programs/no_namespaces.c)."""
    cc = shutil.which("gcc") or shutil.which("cc")
    if not cc:
        pytest.skip("no C compiler to build the seccomp filter's program")
    if os.uname().machine != "x86_64":
        pytest.skip("the seccomp filter is written for x86_64")
    out = tmp_path_factory.mktemp("seccomp") / "no_namespaces"
    p = kit.run([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-o", out,
                 kit.ROOT / "grader" / "tests" / "programs" / "no_namespaces.c"])
    assert p.returncode == 0, p.stderr
    out.parent.chmod(0o755)
    p = kit.run([out, "unshare", "--user", "true"])
    assert p.returncode != 0, "the filter let a user namespace through"
    return out
