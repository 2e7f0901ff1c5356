"""The Teaching Kit's own labs, as a public mirror holds them (issue 29,
items 6b and 7): each lab folder of data/teaching-kit/ (template.cu,
solution.cu and dataset_generator.cpp, no Dataset folder; its README names
the mirror, the commit and the licence) is imported with `gpulab import-wb`
unchanged, its datasets written by its own generator, and the Kit's
solution gets full marks while the template does not. The table of
docs/teaching-kit.md says which labs of the mirror import and why the
others do not; BasicMatrixMultiplication is here for one of those reasons.
"""
import json
import os
import shutil

import pytest

import kit
from test_wb import copy_of_the_kit

MIRROR = kit.ROOT / "grader" / "tests" / "data" / "teaching-kit"
# lab id -> (folder in the mirror, the requirements its solution shows)
LABS = {
    "kit-vectoradd": ("Module3/VectorAdd", []),
    "kit-histogram": ("Module7/Histogram", ["shared_memory", "barrier"]),
    "kit-convolution": ("Module8/Convolution", ["shared_memory", "barrier"]),
    "kit-reduction": ("Module9/Reduction", ["shared_memory", "barrier"]),
    "kit-listscan": ("Module10/ListScan", ["shared_memory", "barrier"]),
}


def no_make_env():
    return {k: "" for k in os.environ if k.startswith("MAKE")}


@pytest.fixture(scope="module")
def mirror_kit(tmp_path_factory):
    """A copy of the kit (import-wb writes into its kit) with the mirror's
    labs imported; what each import printed."""
    if not MIRROR.is_dir():
        pytest.skip(f"{MIRROR} (the Kit labs' test data) is missing")
    root = copy_of_the_kit(kit.ROOT / "build" / "test-kits" / f"mirror-{os.getpid()}")
    folders = tmp_path_factory.mktemp("mirror")
    said = {}
    for lab, (folder, _) in LABS.items():
        copy = folders / folder
        shutil.copytree(MIRROR / folder, copy)
        assert not (copy / "Dataset").exists()
        p = kit.run([root / "gpulab", "import-wb", copy, lab, "--backend", "emu"], env=no_make_env(), timeout=1200)
        said[lab] = p
    yield {"root": root, "said": said, "folders": folders}
    shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("lab", sorted(LABS))
def test_a_kit_lab_imports_with_its_generators_datasets(mirror_kit, lab):
    p = mirror_kit["said"][lab]
    assert p.returncode == 0, p.stdout + p.stderr
    assert "no Dataset folder: building and running the Kit's dataset_generator.cpp" in p.stderr
    m = json.loads((mirror_kit["root"] / "labs" / lab / "lab.json").read_text())
    assert [r["name"] for r in m["requirements"]] == LABS[lab][1]
    assert len(m["datasets"]) >= 6  # every one the generator wrote
    for d in m["datasets"]:
        files = sorted(f.name for f in (mirror_kit["root"] / "datasets" / lab / d["name"]).iterdir())
        assert "expected.tensor" in files and any(f.startswith("input0.") for f in files), files


@pytest.mark.parametrize("lab", sorted(LABS))
def test_the_kits_solution_gets_full_marks(backend, mirror_kit, lab):
    root = mirror_kit["root"]
    scores = {}
    for name in ("solutions", "skeletons"):
        p = kit.run([root / "gpulab", "check", lab, root / name / lab / "template.cu", "--backend", backend,
                     "--format", "json", "--no-sanitize"])
        report = json.loads(p.stdout)
        scores[name] = (report["score"], report["max_score"])
    full = len(json.loads((root / "labs" / lab / "lab.json").read_text())["datasets"]) + len(LABS[lab][1])
    assert scores["solutions"] == (full, full), scores
    assert scores["skeletons"][0] < full, scores


def test_a_generator_that_disagrees_with_its_solution_is_refused(mirror_kit):
    """The mirror's matrix-multiplication generator writes input0.raw
    transposed: the Kit's own solution does not reproduce the generator's
    output, and nothing is imported."""
    copy = mirror_kit["folders"] / "BasicMatrixMultiplication"
    shutil.copytree(MIRROR / "Module4" / "BasicMatrixMultiplication", copy)
    p = kit.run([mirror_kit["root"] / "gpulab", "import-wb", copy, "kit-matmul", "--backend", "emu"],
                env=no_make_env(), timeout=1200)
    assert p.returncode == 2, p.stdout + p.stderr
    assert "the Kit's solution.cu does not reproduce" in p.stderr and "Dataset/0/output.raw" in p.stderr
    assert not (mirror_kit["root"] / "labs" / "kit-matmul").exists()


def test_a_generator_is_run_in_the_sandbox(mirror_kit):
    """A generator is the Kit folder's code: it runs where the kit's
    reference solutions cannot be written; one that tries fails the import."""
    if os.geteuid() != 0:
        pytest.skip("the sandbox needs root or user namespaces")
    target = mirror_kit["root"] / "solutions" / "kit-vectoradd" / "template.cu"
    before = target.read_text()
    copy = mirror_kit["folders"] / "HostileGenerator"
    shutil.copytree(MIRROR / "Module3" / "VectorAdd", copy)
    gen = copy / "dataset_generator.cpp"
    text = gen.read_text()
    assert "int main() {" in text
    gen.write_text(text.replace("int main() {", 'int main() {\n  FILE *w = fopen("%s", "a");\n'
                                '  if (w && fputs("// rewritten\\n", w) >= 0 && fclose(w) == 0) return 1;\n'
                                % target, 1))
    p = kit.run([mirror_kit["root"] / "gpulab", "import-wb", copy, "kit-hostile", "--backend", "emu"], env=no_make_env(), timeout=1200)
    assert p.returncode == 0, p.stdout + p.stderr
    assert target.read_text() == before
