#!/usr/bin/env python3
"""shared_runs.py - does the repository share text with a folder of files
from elsewhere?

    python3 grader/tests/tools/shared_runs.py REFERENCE_DIR [REPO_ROOT]

Reports every run of RUN (12) consecutive lines that a file tracked by git
in REPO_ROOT (default: this repository; files not yet added count too, ignored ones do not) has in common with a file under
REFERENCE_DIR: whitespace inside a line is ignored and blank lines are
skipped, so a copy that was re-indented or re-spaced is still found. Prints
one line per shared run ("repo-file:LINE = reference-file:LINE") and, last,
the count; exits 1 when there is any. The reference files (the public
Teaching Kit's labs, students' files) stay outside the repository: the kit
ships only its own code (issue 38), and this is how that is checked.
"""
import hashlib
import os
import subprocess
import sys
from pathlib import Path

RUN = 12


def normalized_lines(path):
    """(line number, the line without whitespace) for each non-blank line;
    [] for a file that is not text."""
    try:
        data = path.read_bytes()
    except OSError:
        return []
    if b"\0" in data[:8192]:
        return []
    text = data.decode("utf-8", "replace")
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        squeezed = "".join(line.split())
        if squeezed:
            out.append((n, squeezed))
    return out


def windows(lines):
    """A digest of each run of RUN lines, with the line number it starts at."""
    for i in range(len(lines) - RUN + 1):
        h = hashlib.sha1("\n".join(s for _, s in lines[i:i + RUN]).encode()).digest()
        yield h, lines[i][0]


def reference_index(reference_dir):
    index = {}
    for root, _, files in os.walk(reference_dir):
        for name in sorted(files):
            path = Path(root) / name
            for h, line in windows(normalized_lines(path)):
                index.setdefault(h, f"{path.relative_to(reference_dir)}:{line}")
    return index


def repository_files(repo_root):
    p = subprocess.run(["git", "-C", str(repo_root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"], capture_output=True, check=True)
    return [Path(repo_root) / f for f in p.stdout.decode().split("\0") if f]


def shared_runs(reference_dir, repo_root):
    """[(repo file:line, reference file:line)], one entry per repository file
    and stretch of shared lines (overlapping windows are folded)."""
    index = reference_index(reference_dir)
    found = []
    for path in repository_files(repo_root):
        if not path.is_file() or path.is_symlink():
            continue
        last_end = -1
        lines = normalized_lines(path)
        for i, (h, line) in enumerate(windows(lines)):
            if h in index:
                if i > last_end:
                    found.append((f"{path.relative_to(repo_root)}:{line}", index[h]))
                last_end = i + RUN - 1
    return found


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    reference = Path(argv[1])
    repo = Path(argv[2]) if len(argv) == 3 else Path(__file__).resolve().parents[3]
    if not reference.is_dir():
        print(f"shared_runs.py: {reference}: not a folder", file=sys.stderr)
        return 2
    found = shared_runs(reference, repo)
    for mine, theirs in found:
        print(f"{mine} = {theirs}")
    print(f"{len(found)} runs of {RUN} lines shared with {reference}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
