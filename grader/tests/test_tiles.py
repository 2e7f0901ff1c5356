"""What the shared tiles held (checkers/tiles.c, lab.json's "tiles"): a slot
that holds an element of none of its block's tiles is named with the load
that put it there; tiles that hold the right elements, in any layout the
kit's correct variants use, are never blamed, and the first line then says
so among what was ruled out."""
import json
import shutil

import pytest

import kit

SOLUTIONS = kit.ROOT / "solutions"


def checked(lab, path, dataset):
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    _, rep = kit.check_json(lab, path, "emu", "--dataset", dataset, sanitize=True)
    assert rep["build"]["ok"], rep["build"]["log"]
    return rep


def test_a_load_with_row_and_column_mixed_is_named():
    path = SOLUTIONS / "02-tiled-matmul" / "mutants" / "n-load-row-and-column-mixed.cu"
    if not path.exists():
        pytest.skip("no mutants in this copy of the kit")
    rep = checked("02-tiled-matmul", path, "width-0064")
    tile = rep["tile_contents"]
    assert tile and tile.startswith("width-0064: after the __syncthreads() at line 54, ")
    assert "ds_N[0][0] of block (1, 0) holds N(0, 0)" in tile
    assert "puts N(0, 16) there: look at the load at line 49" in tile
    assert rep["fix_first"] == tile


# Correct tilings, made wrong after the tiles are used: the output's value
# is off by one in even rows of threads and by 1.5 in odd ones (no mistake the
# inputs know: not one offset for all), so the dataset fails, and the tiles
# are right. judged: the
# tile is one "tiles" describes (a square, or a flat square), so the first
# line says it held the right elements; else the check says nothing of it.
RIGHT_TILES = [
    # flat arrays, N's tile stored transposed and read so
    ("02-tiled-matmul", "variants/flat-tiles.cu", "P[(size_t)row * width + col] = acc;",
     "P[(size_t)row * width + col] = acc + 1.0f + 0.5f * (float)(threadIdx.y % 2);", "width-0064", True),
    # tiles of 8
    ("02-tiled-matmul", "variants/tile-8.cu", "P[Row * Width + Col] = Pvalue;",
     "P[Row * Width + Col] = Pvalue + 1.0f + 0.5f * (float)(threadIdx.y % 2);", "width-0064", True),
    # a halo tile of every channel at once, loaded in strides: no square
    ("04-conv-2batch", "variants/strided-load.cu", "* channels + ch] = sum;",
     "* channels + ch] = sum + 1.0f + 0.5f * (float)(threadIdx.y % 2);", "rgb-47x29", False),
    # the halo tile loaded in two batches
    ("04-conv-2batch", "conv_2batch.cu", "P[(y * width + x) * channels + k] = acc;",
     "P[(y * width + x) * channels + k] = acc + 1.0f + 0.5f * (float)(threadIdx.y % 2);", "rgb-47x29", True),
    # a tile as large as the block (lab 05's)
    ("05-pitched-conv", "pitched_conv.cu", "col_o * out.channels + k] = acc;",
     "col_o * out.channels + k] = acc + 1.0f + 0.5f * (float)(threadIdx.y % 2);", "rgb-47x29", True),
]


@pytest.mark.parametrize("lab,rel,old,new,dataset,judged", RIGHT_TILES,
                         ids=[f"{l}/{r}" for l, r, *_ in RIGHT_TILES])
def test_right_tiles_are_never_blamed(tmp_path, lab, rel, old, new, dataset, judged):
    src = SOLUTIONS / lab / rel
    if not src.exists():
        pytest.skip(f"no {rel} in this copy of the kit")
    text = src.read_text()
    assert old in text, (src, old)
    path = tmp_path / src.name
    path.write_text(text.replace(old, new, 1))
    rep = checked(lab, path, dataset)
    assert rep["datasets"][0]["status"] == "wrong"
    assert rep["tile_contents"] is None
    first = rep["fix_first"]
    # nothing names a cause: the first line says what was ruled out, not a
    # requirement lost because no dataset passed
    assert not first.startswith("["), first
    held = "the shared tiles held the elements the lab's tiling puts there"
    # or the repair search names the line the mistake was put at: a cause,
    # and no tile blamed
    line = text[:text.index(old)].count("\n") + 1
    if first.startswith(f"line {line}: "):
        return
    assert (held in first) == judged, first
    assert "ames a cause: the race check and the bounds check found nothing on " + dataset in first, first


def scratch_tiles(tmp_path, tiles):
    """A copy of the kit's labs with lab 02's "tiles" replaced."""
    home = tmp_path / "kit"
    shutil.copytree(kit.ROOT / "labs", home / "labs")
    for entry in ("grader", "build", "datasets", "solutions"):
        (home / entry).symlink_to(kit.ROOT / entry)
    man = home / "labs" / "02-tiled-matmul" / "lab.json"
    data = json.loads(man.read_text())
    data["tiles"] = tiles
    man.write_text(json.dumps(data, indent=2))
    return {"GPULAB_HOME": str(home)}


GOOD = {"input": "input0", "name": "M", "row": "by*T + i", "col": "ph*T + j", "phases": "(cols + T - 1) / T"}


@pytest.mark.parametrize("change,words", [
    ({"row": "by*T + k"}, 'an unknown name "k"'),
    ({"col": "ph*T + (j"}, "a '(' without its ')'"),
    ({"phases": "cols / 0"}, "a division by 0"),
    ({"row": "by*T +"}, "an expression that ends too soon"),
    ({"rows": "i"}, 'unknown key "rows"'),
])
def test_bad_tile_expressions_are_named(tmp_path, change, words):
    env = scratch_tiles(tmp_path, [{**GOOD, **change}])
    p = kit.gpulab("list", env=env)
    assert p.returncode == 2 and "lab.json" in p.stderr and words in p.stderr, p.stderr


@pytest.mark.parametrize("lab,mutant,dataset,words,first", [
    # the threads whose load would store the slots by its index were kept
    # from it by the test: the test, its line and the values it compared
    ("03-arbitrary-matmul", "no-zero-fill", "one-1x1x1",
     "ds_M[0][1] to ds_M[15][15] in block (0, 0) were never stored (the phase-0 tile (rows 0 to 15, columns 0 "
     "to 15 of M) puts 0 (M(0, 1) lies outside M) at ds_M[0][1])",
     "the test at line 59 (`if (Row < j && mCol < k)`) is false for threads (1, 0) to (15, 15) (mCol 1 to 15, "
     "against 1)"),
    # no thread's store reaches them: what each store covered
    ("04-conv-2batch", "second-batch-skipped", "gray-15x15",
     "N_ds[12][16] to N_ds[19][19] in block (0, 0) were never stored (the channel-0 tile (rows -2 to 17, columns "
     "-2 to 17 of the image) puts the image's pixel (10, 14) at N_ds[12][16])",
     "the store at line 51 (`N_ds[destY][destX] = 0.0f;`) stored 92 slots in rows 0 to 12; the load at line 49 "
     "(`N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];`) stored 164 slots in rows 2 to 12; no "
     "store's index reaches them (N_ds is 20 x 20)"),
])
def test_a_slot_no_store_covered_is_named_where_the_output_holds_nan(lab, mutant, dataset, words, first):
    path = SOLUTIONS / lab / "mutants" / f"{mutant}.cu"
    if not path.exists():
        pytest.skip("no mutants in this copy of the kit")
    rep = checked(lab, path, dataset)
    assert rep["datasets"][0]["status"] == "wrong"
    assert words in (rep["tile_contents"] or ""), rep["tile_contents"]
    assert first in rep["fix_first"], rep["fix_first"]


def test_the_launch_against_the_tiles_comes_before_a_slot_no_store_covered():
    """Blocks of 8 x 8 for tiles of 16 x 16 leave slots unstored: the launch's
    shape is the cause, and the first line says it; the slot is in the
    record's tile_contents."""
    path = kit.ROOT / "grader" / "tests" / "programs" / "03-arbitrary-matmul" / "blocks_smaller_than_tiles.cu"
    rep = checked("03-arbitrary-matmul", path, "one-1x1x1")
    assert "runs in blocks of 8 x 8 threads" in rep["fix_first"], rep["fix_first"]
    assert "were never stored" in (rep["tile_contents"] or ""), rep["tile_contents"]


# A slot holding a value the wrong branch stored: the store named is the one
# that wrote it (its own line, even where the compiler makes both branches'
# stores one instruction), with the test that chose its branch.
GHOST_TEST = "if (row_i >= 0 && row_i < in.height && col_i >= 0 && col_i < in.width)"
ZERO_FIRST = ("if (row_i < 0 || row_i >= in.height || col_i < 1 || col_i >= in.width)\n"
              "            N_ds[ty][tx] = 0.0f;\n"
              "        else\n"
              "            N_ds[ty][tx] = in.data[row_i * in.pitch + col_i * in.channels + k];\n")


@pytest.mark.parametrize("old,new,dataset,test_words,store_words", [
    # the zero store in the then-branch of an inverted test: a thread that
    # took it is told apart from the threads whose else loaded their pixel
    (GHOST_TEST + "\n            N_ds[ty][tx] = in.data[row_i * in.pitch + col_i * in.channels + k];\n"
     "        else\n            N_ds[ty][tx] = 0.0f;\n", ZERO_FIRST, "gray-11x11",
     "`if (row_i < 0 || row_i >= in.height || col_i < 1 || col_i >= in.width)`) was true for thread",
     "`N_ds[ty][tx] = 0.0f;`), so the branch it took stored 0 there: look at that test"),
    # one pixel, and the test's upper bound one short: every thread goes to
    # the else, none to tell them apart; the else written in the source names it
    ("row_i < in.height &&", "row_i < in.height - 1 &&", "gray-1x1",
     "the test at line 42 (`if (row_i >= 0 && row_i < in.height - 1 && col_i >= 0 && col_i < in...`) was false "
     "for thread (2, 2), which stored it (row_i = 0, against 0)",
     "through the store at line 45 (`N_ds[ty][tx] = 0.0f;`), so the branch it took stored 0 there"),
])
def test_the_store_that_wrote_a_slot_and_the_test_that_chose_it(tmp_path, old, new, dataset, test_words,
                                                                store_words):
    src = SOLUTIONS / "05-pitched-conv" / "pitched_conv.cu"
    text = src.read_text()
    assert old in text, old
    path = tmp_path / src.name
    path.write_text(text.replace(old, new, 1))
    rep = checked("05-pitched-conv", path, dataset)
    assert rep["datasets"][0]["status"] == "wrong"
    first = rep["fix_first"]
    assert "holds 0, but the channel-0 tile" in first, first
    assert test_words in first and store_words in first, first


def test_a_load_whose_index_was_computed_before_its_inputs_changed(tmp_path):
    """The second batch sets destX again but not srcX, which was computed
    from the first batch's destX: the load names srcX, the line that set it
    and the line that changed destX after it (the source as text, over the
    slot the tiles show wrong)."""
    src = SOLUTIONS / "04-conv-2batch" / "conv_2batch.cu"
    text = src.read_text()
    second = "        srcX = blockIdx.x * TILE_WIDTH + destX - MASK_RADIUS;\n"
    assert text.count(second) == 1
    path = tmp_path / src.name
    path.write_text(text.replace(second, "", 1))
    lines = path.read_text().splitlines()
    first = 1 + next(i for i, l in enumerate(lines) if "int srcX = " in l)
    again = 1 + next(i for i, l in enumerate(lines) if l.strip() == "destX = dest % w;")
    rep = checked("04-conv-2batch", path, "rgb-47x29")
    assert rep["datasets"][0]["status"] == "wrong"
    first_line = rep["fix_first"]
    assert (f"reads with srcX, set at line {first} from destX; line {again} sets destX again after that, but "
            "nothing sets srcX again before the load, so it reads the element the earlier destX picked") in first_line, \
        first_line
