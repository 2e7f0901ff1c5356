"""A lab program's start-up is not part of its time limit (process.h,
RUN_STARTUP_S in run.h): the limit starts when the harness says it is ready
(after CUDA's context, before the first dataset), so a loaded GPU's slow
start-up costs no student a timeout; start-up has a limit of its own."""
import re

import pytest

import kit

LAB = "01-basic-matmul"
SOLUTION = kit.ROOT / "solutions" / LAB / "basic_matmul.cu"


def with_constructor(tmp_path, body):
    """The reference solution with a constructor (run before main) doing body."""
    src = SOLUTION.read_text()
    ctor = ("#include <unistd.h>\n"
            "__attribute__((constructor)) static void before_main(void)\n{\n" + body + "\n}\n")
    path = tmp_path / "basic_matmul.cu"
    path.write_text(ctor + src)
    return path


def test_a_slow_start_is_not_counted_against_the_limit(backend, tmp_path):
    # 4 s before main, a limit of 3 s: only the dataset's own time counts.
    # (With 1 s, the dataset's own first launch, which loads the kernel's
    # module, ran past it on a GPU loaded by the suite's other tests.)
    slow = with_constructor(tmp_path, "    usleep(4000000);")
    rc, rep = kit.check_json(LAB, slow, backend, "--timeout", "3", "--dataset", "width-0017")
    assert kit.statuses(rep) == {"width-0017": "pass"}, rep["datasets"]
    assert rep["datasets"][0]["wall_s"] >= 4


def test_a_program_that_runs_itself_says_it_is_ready_twice_and_lives(backend, tmp_path):
    # the program runs itself once from a constructor (its own harness: a
    # second ready byte, after the grader has had the first); the second
    # write must not kill it with SIGPIPE
    twice = with_constructor(tmp_path, """    if (!getenv("RAN_ONCE")) {
        setenv("RAN_ONCE", "1", 1);
        pid_t kid = fork();
        if (kid == 0) {
            char self[4096];
            ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
            if (n > 0) {
                self[n] = 0;
                char *args[] = { self, (char *)".", (char *)"mine.tensor", NULL };
                execv(self, args);
            }
            _exit(1);
        }
        waitpid(kid, NULL, 0);
    }""")
    twice.write_text("#include <stdlib.h>\n#include <sys/wait.h>\n" + twice.read_text())
    rc, rep = kit.check_json(LAB, twice, backend, "--dataset", "width-0017")
    assert kit.statuses(rep) == {"width-0017": "pass"}, rep["datasets"]


@pytest.mark.slow  # waits out the 20 s start-up limit by design; make test runs it
def test_a_start_that_never_ends_is_stopped_at_the_start_up_limit(tmp_path):
    if kit.emu_problem():
        pytest.skip(kit.emu_problem())
    # the limit the student guide gives (`--timeout S` in its options table)
    guide = (kit.ROOT / "docs" / "student-guide.md").read_text()
    limit = float(re.search(r"start-up has a limit of its own, (\d+) s", guide).group(1))
    stuck = with_constructor(tmp_path, "    for (;;)\n        pause();")
    rc, rep = kit.check_json(LAB, stuck, "emu", "--timeout", "1", "--dataset", "width-0017")
    (d,) = rep["datasets"]
    assert d["status"] == "timeout", d
    assert f"was not ready for its first dataset within {limit:g} s" in d["message"], d["message"]
    assert "constructor" in d["message"]
