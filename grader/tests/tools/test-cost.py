#!/usr/bin/env python3
"""test-cost.py - where the test suite's time goes.

    GPULAB_TEST_COST=/tmp/cost.txt make check      (or make test, or pytest ...)
    python3 grader/tests/tools/test-cost.py /tmp/cost.txt [N]

Reads the lines conftest.py writes under GPULAB_TEST_COST ("wall cpu
nodeid", one a test) and prints the totals, the processor seconds of each
test file, and the N (default 40) tests that cost most processor time.
Processor time (user + system, the tests' programs included) is the work a
test is; its wall time also counts what else the machine was doing.
"""
import sys
from collections import defaultdict


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[3].strip())
    top = int(sys.argv[2]) if len(sys.argv) == 3 else 40
    tests = []
    with open(sys.argv[1]) as f:
        for number, line in enumerate(f, 1):
            parts = line.rstrip("\n").split(" ", 2)
            if len(parts) != 3:
                sys.exit(f"{sys.argv[1]}:{number}: not a line of \"wall cpu nodeid\": {line!r}")
            tests.append((float(parts[0]), float(parts[1]), parts[2]))
    files = defaultdict(lambda: [0, 0.0, 0.0])
    for wall, cpu, nodeid in tests:
        entry = files[nodeid.split("::")[0]]
        entry[0] += 1
        entry[1] += wall
        entry[2] += cpu
    print(f"{len(tests)} tests: {sum(t[1] for t in tests):.0f} processor-s, "
          f"{sum(t[0] for t in tests):.0f} s of summed wall time")
    print("\nprocessor-s    wall-s  tests  file")
    for name, (n, wall, cpu) in sorted(files.items(), key=lambda kv: -kv[1][2]):
        print(f"{cpu:11.1f} {wall:9.1f} {n:6d}  {name}")
    print(f"\nthe {top} costliest tests\nprocessor-s    wall-s  test")
    for wall, cpu, nodeid in sorted(tests, key=lambda t: -t[1])[:top]:
        print(f"{cpu:11.1f} {wall:9.1f}  {nodeid}")


if __name__ == "__main__":
    main()
