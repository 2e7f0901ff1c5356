"""grader/src's layers include one way (docs/architecture.md): a file
includes headers of its own folder and of the layers below it, never of one
above it or beside it. Read from the include lines themselves."""
import re

import kit

SRC = kit.ROOT / "grader" / "src"
# the order docs/architecture.md draws: common -> jail, checkers -> pipeline
# -> commands, class -> main.c; layers of one rank know nothing of each other
RANK = {"common": 0, "jail": 1, "checkers": 1, "pipeline": 2, "commands": 3, "class": 3}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"/]+\.h)"', re.M)


def home_of_headers():
    homes = {}
    for layer in RANK:
        for h in (SRC / layer).glob("*.h"):
            assert h.name not in homes, f"two headers called {h.name}"
            homes[h.name] = layer
    return homes


def test_every_layer_folder_is_in_the_makefile():
    makefile = (kit.ROOT / "Makefile").read_text()
    layers = re.search(r"^GRADER_LAYERS := (.*)$", makefile, re.M).group(1).split()
    assert sorted(layers) == sorted(RANK)
    assert sorted(p.name for p in SRC.iterdir() if p.is_dir() and p.name != "libexec") == sorted(RANK)


def test_no_file_includes_a_layer_above_or_beside_it():
    homes = home_of_headers()
    wrong = []
    files = [(f, layer) for layer in RANK for f in (SRC / layer).glob("*.[ch]")] + [(SRC / "main.c", None)]
    for f, layer in files:
        for name in INCLUDE.findall(f.read_text()):
            home = homes.get(name)
            if home is None or home == layer:
                continue  # a system header in quotes, or its own folder's
            if layer is not None and RANK[home] >= RANK[layer]:
                wrong.append(f"{f.relative_to(SRC)} includes {home}/{name}")
    assert not wrong, wrong


def test_jail_knows_nothing_of_the_lab_harness():
    for f in (SRC / "jail").glob("*.[ch]"):
        text = f.read_text()
        assert "@gpulab" not in text and "harness_protocol.h" not in text and "GPULAB_READY_FD" not in text, f.name
