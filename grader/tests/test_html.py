"""The HTML pages (html.c) in a real browser: the distribution's Chromium
loads each page headless and prints the DOM it built (--dump-dom); the test
reads that DOM, not the file, so what is checked is what a browser shows.

A class of four graded on the emulator: the class page names every student
and links to feedback pages that exist; hostile strings (a folder named with
markup, a program printing `</td><script>`, a record whose id is markup) stay
text and leave the DOM's shape alone."""
import base64
import json
import os
import re
import shutil
import struct
import zlib
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest

import kit
from schemas import validate

LAB = "02-tiled-matmul"
SOLUTIONS = kit.ROOT / "solutions" / LAB
SOLUTION = SOLUTIONS / "tiled_matmul.cu"
HOSTILE = "</td></tr></table><script>document.title='pwned'</script><table><tr><td>"
# Prints markup, then leaves the output all zeros: wrong on every dataset.
PRINTS_MARKUP = r'''
#include <stdio.h>
#include "lab.h"
__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < Width * Width)
        P[i] = 0.0f;
}
void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    printf("%s\n", "HOSTILE");
    fprintf(stderr, "%s\n", "HOSTILE");
    MatrixMulKernel<<<(width * width + 255) / 256, 256>>>(M, N, P, width);
}
'''.replace("HOSTILE", HOSTILE.replace("'", "\\'"))
MARKUP_FOLDER = "mallory<b>&<i>"  # a folder name may hold markup (not '/')


def browser():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def dump_dom(page, tmp):
    """The DOM Chromium built from a page, serialised."""
    chromium = browser()
    if not chromium:
        pytest.skip("no Chromium here (grader/install-deps.sh test installs the distribution's chromium "
                    "where it can install packages)")
    profile = tmp / "chromium-profile"
    p = kit.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 f"--user-data-dir={profile}", "--dump-dom", Path(page).resolve().as_uri()], timeout=180)
    assert p.returncode == 0 and "<html" in p.stdout, f"chromium failed ({p.returncode}): {p.stderr[-2000:]}"
    return p.stdout


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent, self.children = tag, dict(attrs), parent, []

    def text(self):
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def all(self, tag):
        for c in self.children:
            if isinstance(c, Node):
                if c.tag == tag:
                    yield c
                yield from c.all(tag)


VOID = {"meta", "img", "br", "hr", "input", "link", "area", "base", "col", "embed", "source", "wbr"}


class Tree(HTMLParser):
    """A DOM from the browser's serialisation (which is always well formed)."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.root = self.at = Node("#document", {}, None)
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.at)
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_startendtag(self, tag, attrs):
        self.at.children.append(Node(tag, attrs, self.at))

    def handle_endtag(self, tag):
        node = self.at
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.at = node.parent

    def handle_data(self, data):
        self.at.children.append(data)


def dom(page, tmp):
    return Tree(dump_dom(page, tmp)).root


def text_outside(node, tag):
    """A node's text without what any `tag` element inside it holds."""
    return "".join(c if isinstance(c, str) else "" if c.tag == tag else text_outside(c, tag) for c in node.children)


def assert_fix_first(node, fix):
    """node is a record's "fix this first" line: the text report's line, its
    backquoted code as <code> elements, no backquote left."""
    assert node.attrs.get("class") == "fix", node.attrs
    assert node.text() == "Fix this first: " + fix.replace("`", ""), (node.text(), fix)
    assert [c.text() for c in node.all("code")] == re.findall(r"`([^`]*)`", fix), node.text()


def students_table(root):
    tables = [t for t in root.all("table") if t.attrs.get("class") == "students"]
    assert len(tables) == 1, "the class page has no single students table"
    rows = list(tables[0].all("tr"))
    return rows[1:]  # after the header


def assert_no_script(root, page):
    assert not list(root.all("script")), f"{page}: a <script> element got into the DOM"
    titles = [t.text() for t in root.all("title")]
    assert "pwned" not in " ".join(titles)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    if kit.sandbox_problem():
        pytest.skip(kit.sandbox_problem())
    problem = kit.emu_problem()
    if problem:
        pytest.fail(problem)
    tmp = tmp_path_factory.mktemp("html")
    cls = tmp / "class"
    for name, text in (("alice", SOLUTION.read_text()),
                       ("grace", (SOLUTIONS / "mutants" / "missing-second-barrier.cu").read_text()),
                       (MARKUP_FOLDER, PRINTS_MARKUP), ("dave", "this is not CUDA\n")):
        (cls / name).mkdir(parents=True)
        (cls / name / "tiled_matmul.cu").write_text(text)
    out = tmp / "site"
    out.mkdir()
    p = kit.gpulab("grade", LAB, cls, "--backend", "emu", "--dataset", "width-0032", "--timeout", "5",
                   "--records", tmp / "records", "--html", out / "class.html", "--feedback-dir", out / "students",
                   timeout=1200)
    assert p.returncode == 0, p.stderr
    return {"tmp": tmp, "cls": cls, "out": out, "records": tmp / "records", "p": p}


def test_class_page_names_every_student_and_links_to_their_pages(graded):
    page = graded["out"] / "class.html"
    root = dom(page, graded["tmp"])
    assert_no_script(root, page)
    records = sorted(json.loads(f.read_text())["id"] for f in graded["records"].glob("*.json"))
    assert len(records) == 4
    rows = students_table(root)
    assert len(rows) == 4, [r.text() for r in rows]
    named = []
    for row in rows:
        cells = list(row.all("td"))
        assert len(cells) == 7, f"a student row has {len(cells)} cells: {row.text()!r}"
        links = list(cells[0].all("a"))
        assert len(links) == 1, f"no link to {cells[0].text()}'s page"
        target = page.parent / unquote(links[0].attrs["href"])
        assert target.is_file(), f"the link {links[0].attrs['href']} leads nowhere"
        assert target.resolve().parent == (graded["out"] / "students").resolve()
        named.append(cells[0].text())
        assert "/" in cells[1].text()  # the score
    assert sorted(named) == records
    text = root.text()
    for what in ("mean", "median", "datasets by status", "checker findings", "sandbox", "seed 202",
                 "width-0032", "Datasets passed"):
        assert what in text, f"the class page does not show {what!r}"
    # the histogram: an inline SVG with a bar per tenth of the maximum
    svgs = list(root.all("svg"))
    assert len(svgs) == 1 and len(list(svgs[0].all("rect"))) == 11
    # the reasons are the gradebook's
    by_id = {list(r.all("td"))[0].text(): list(r.all("td"))[3].text() for r in rows}
    assert "does not compile" in by_id["dave"], by_id
    assert by_id["alice"] == "", by_id
    assert "wrong on 1 dataset" in by_id["mallory_b___i_"], by_id


def test_a_students_printed_markup_stays_text(graded):
    page = graded["out"] / "students" / "mallory_b___i_.html"
    assert page.is_file(), sorted(p.name for p in (graded["out"] / "students").iterdir())
    raw = page.read_text()
    assert "<script>" not in raw and "</td></tr></table><script>" not in raw
    root = dom(page, graded["tmp"])
    assert_no_script(root, page)
    # the markup is shown as what it is: text, in the program's output
    pres = [p.text() for p in root.all("pre")]
    assert any(HOSTILE in t for t in pres), pres
    # and the folder's name is text too
    assert MARKUP_FOLDER in root.text()
    assert not list(root.all("b")) and not list(root.all("i"))
    # the results table kept its shape: a row per dataset and requirement, and the score
    tables = list(root.all("table"))
    results = [r for r in tables[0].all("tr")]
    assert all(len(list(r.all("td"))) in (0, 4) for r in results)
    assert "width-0032" in tables[0].text() and "[barrier]" in tables[0].text()
    assert "What went wrong" in root.text()


def test_a_race_is_shown_with_its_lines(graded):
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    root = dom(graded["out"] / "students" / "grace.html", graded["tmp"])
    findings = [li.text() for li in root.all("li")]
    assert any("race" in f and "line" in f for f in findings), findings
    quoted = [c.text() for li in root.all("li") for c in li.all("code")]
    assert any("ds_M" in q or "ds_N" in q for q in quoted), "the racing source lines are not quoted"


def test_each_submission_leads_with_its_fix_first_line(graded):
    """The text report's "fix this first" line (the record's fix_first) leads
    the student's page, and the class page's row, with the quoted source as
    code; nowhere outside the program's output is a backquote shown."""
    if kit.emu_race_problem():
        pytest.skip(kit.emu_race_problem())
    fix = json.loads((graded["records"] / "grace.json").read_text())["fix_first"]
    assert fix and "`" in fix and "race" in fix, fix
    root = dom(graded["out"] / "students" / "grace.html", graded["tmp"])
    paragraphs = list(root.all("p"))
    leads = [p for p in paragraphs if p.attrs.get("class") in ("fix", "why")]
    assert leads, [p.text() for p in paragraphs]
    assert_fix_first(leads[0], fix)
    assert "`" not in text_outside(root, "pre"), text_outside(root, "pre")
    rows = {list(r.all("td"))[0].text(): r for r in students_table(dom(graded["out"] / "class.html", graded["tmp"]))}
    cell = list(rows["grace"].all("td"))[3]
    assert_fix_first(next(n for n in cell.children if not isinstance(n, str)), fix)
    assert "`" not in cell.text()
    # a submission that passed has nothing to fix
    assert not [n for n in list(rows["alice"].all("td"))[3].children if not isinstance(n, str)]


def test_each_students_page_shows_their_own_error_map(tmp_path):
    """Image labs: a class's files share one name, so each submission's maps
    have a folder of their own, and each feedback page names its own map."""
    if kit.sandbox_problem():
        pytest.skip(kit.sandbox_problem())
    lab = "04-conv-2batch"
    source = json.loads((kit.ROOT / "labs" / lab / "lab.json").read_text())["source"]
    mutants = kit.ROOT / "solutions" / lab / "mutants"
    for name, mutant in (("ann", "ghost-not-zeroed.cu"), ("bo", "mask-flipped.cu")):
        (tmp_path / "class" / name).mkdir(parents=True)
        shutil.copy(mutants / mutant, tmp_path / "class" / name / source)
    p = kit.gpulab("grade", lab, tmp_path / "class", "--backend", "emu", "--no-sanitize", "--dataset", "rgb-17x17",
                   "--records", tmp_path / "records", "--feedback-dir", tmp_path / "fb", cwd=tmp_path, timeout=600)
    assert p.returncode == 0, p.stderr
    maps = {}
    for name in ("ann", "bo"):
        rec = json.loads((tmp_path / "records" / f"{name}.json").read_text())
        (d,) = rec["datasets"]
        assert d["status"] == "wrong", d
        maps[name] = Path(tmp_path / d["comparison"]["error_map"])
        assert maps[name].is_file() and f"/{name}/" in str(maps[name]), maps[name]
        root = dom(tmp_path / "fb" / f"{name}.html", tmp_path)
        figures = list(root.all("figure"))
        assert len(figures) == 1 and maps[name].name in figures[0].text(), [f.text() for f in figures]
        links = [a.attrs["href"] for a in figures[0].all("a")] + [i.attrs["src"] for i in figures[0].all("img")]
        assert len(links) == 1
        if links[0].startswith("file://"):
            assert unquote(links[0][len("file://"):]) == str(maps[name].resolve())
        else:
            assert base64.b64decode(links[0].split(",", 1)[1]) == maps[name].read_bytes()
    assert maps["ann"].read_bytes() != maps["bo"].read_bytes()


def ramp(rgb):
    """Whether a colour is on the wrong elements' scale (errormap.c): dark
    yellow (170, 150, 0) to orange (255, 140, 0), then to red (255, 0, 0)."""
    r, g, b = rgb
    return b == 0 and ((170 <= r <= 254 and 140 <= g <= 150) or (r == 255 and g <= 140))


def test_the_map_key_names_every_colour_of_the_map(tmp_path):
    """Lab 05 with the padding written over: the student's page embeds the
    error map and a key whose swatches hold every colour drawn in it (the
    ramp of wrong as one swatch), the padding's and the filler's included;
    the text report's key names the same."""
    if kit.sandbox_problem():
        pytest.skip(kit.sandbox_problem())
    lab = "05-pitched-conv"
    source = json.loads((kit.ROOT / "labs" / lab / "lab.json").read_text())["source"]
    (tmp_path / "class" / "pat").mkdir(parents=True)
    shutil.copy(kit.ROOT / "solutions" / lab / "mutants" / "memcpy-not-2d.cu", tmp_path / "class" / "pat" / source)
    p = kit.gpulab("grade", lab, tmp_path / "class", "--backend", "emu", "--no-sanitize", "--dataset", "rgb-5x7",
                   "--records", tmp_path / "records", "--feedback-dir", tmp_path / "fb", cwd=tmp_path, timeout=600)
    assert p.returncode == 0, p.stderr
    (d,) = json.loads((tmp_path / "records" / "pat.json").read_text())["datasets"]
    assert d["comparison"]["padding"]["changed"] > 0, d["comparison"]
    _, _, pix = kit.read_png(tmp_path / d["comparison"]["error_map"])
    drawn = {tuple(pix[i:i + 3]) for i in range(0, len(pix), 3)}
    root = dom(tmp_path / "fb" / "pat.html", tmp_path)
    (key,) = [k for k in root.all("div") if k.attrs.get("class") == "key"]
    assert key.text().startswith("Error map key:"), key.text()
    styles = [s.attrs["style"] for s in key.all("span") if s.attrs.get("class") == "sw"]
    plain = {tuple(int(v) for v in m.groups()) for m in
             (re.fullmatch(r"background:rgb\((\d+),(\d+),(\d+)\)", st) for st in styles) if m}
    assert sum("linear-gradient" in st for st in styles) == 1, styles
    assert {c for c in drawn if not ramp(c)} <= plain, ({c for c in drawn if not ramp(c)} - plain, styles)
    for words in ("dark teal: padding intact", "cyan: padding changed", "black: nothing drawn", "mid grey: the frame"):
        assert words in key.text(), key.text()
    # the text report's key: the same list, in words
    text = kit.gpulab("check", lab, tmp_path / "class" / "pat" / source, "--backend", "emu", "--no-sanitize",
                      "--dataset", "rgb-5x7", "--maps", tmp_path / "maps").stdout
    (line,) = [l for l in text.splitlines() if l.startswith("  map key: ")]
    for words in ("dark teal padding intact", "cyan padding changed", "black nothing drawn", "mid grey the frame",
                  "magenta NaN or infinite", "blue never written", "dark grey right"):
        assert words in line, line


def test_hidden_datasets_keep_their_values_off_the_page(tmp_path):
    """With --seed the datasets are hidden: a student's page shows the status,
    the points and the checkers' findings, never the values."""
    if kit.sandbox_problem():
        pytest.skip(kit.sandbox_problem())
    (tmp_path / "class" / "grace").mkdir(parents=True)
    shutil.copy(SOLUTIONS / "mutants" / "missing-second-barrier.cu", tmp_path / "class" / "grace" / "tiled_matmul.cu")
    p = kit.gpulab("grade", LAB, tmp_path / "class", "--backend", "emu", "--seed", "777", "--dataset", "width-0064",
                   "--records", tmp_path / "records", "--feedback-dir", tmp_path / "fb", "--out", tmp_path / "r.txt",
                   timeout=600)
    assert p.returncode == 0, p.stderr
    (d,) = json.loads((tmp_path / "records" / "grace.json").read_text())["datasets"]
    assert d["hidden"] and d["status"] == "wrong" and "expected" in d["message"], d
    root = dom(tmp_path / "fb" / "grace.html", tmp_path)
    text = root.text()
    assert "(hidden dataset)" in text and d["message"] not in text
    for w in d["comparison"]["worst"]:
        assert f"{w['expected']:.9g}" not in text
    if not kit.emu_race_problem():
        assert any("race" in li.text() for li in root.all("li")), text


def test_check_html_for_a_student(tmp_path):
    out = tmp_path / "me.html"
    p = kit.gpulab("check", LAB, SOLUTIONS / "mutants" / "missing-second-barrier.cu", "--backend", "emu",
                   "--dataset", "width-0032", "--html", out)
    assert p.returncode in (0, 1), p.stderr
    assert "score" in p.stdout  # the text report still comes
    root = dom(out, tmp_path)
    assert_no_script(root, out)
    assert "missing-second-barrier" in root.text() and "width-0032" in root.text()
    # - is standard output, instead of the text report
    p = kit.gpulab("check", LAB, SOLUTION, "--backend", "emu", "--dataset", "width-0032", "--html", "-",
                   "--no-sanitize")
    assert p.returncode == kit.UNCHECKED_RC and p.stdout.startswith("<!DOCTYPE html>") and "score 3/" not in p.stdout


def png(width, height, rgb):
    """A small truecolour PNG, made here so the test needs no image library."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
    raw = b"".join(b"\0" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def record(rid, **over):
    rec = {"id": rid, "lab": LAB, "file": f"class/{rid}/tiled_matmul.cu", "backend": "emu", "device": "CPU emulator",
           "score": 1, "max_score": 3, "build": {"ok": True, "message": None, "log": ""}, "hint": None,
           "requirements": [], "seed": "202", "seed_from": "public", "sandbox": "unshare",
           "datasets": [{"name": "width-0032", "status": "wrong", "score": 0, "max_score": 1,
                         "message": "all wrong", "comparison": {"hint": None, "error_map": None, "worst": []},
                         "sanitizer": None, "stdout": "", "stderr": "", "hidden": False}]}
    rec.update(over)
    return rec


def test_records_edited_by_hand_stay_text(tmp_path):
    """export --html from records: an id that is markup (and holds '/', so it
    cannot name a page) is shown as text, unlinked; a PNG error map is
    embedded as a data: URI, byte for byte."""
    records = tmp_path / "records"
    records.mkdir()
    picture = png(3, 2, (255, 0, 0))
    (tmp_path / "map.png").write_bytes(picture)
    good = record("ann")
    good["datasets"][0]["comparison"]["error_map"] = str(tmp_path / "map.png")
    good["datasets"][0]["stdout"] = "bad byte \x01 and \ufffe here\n"
    # the global reads' sentence quotes the dataset's name: text too
    good["global_reads"] = {"dataset": HOSTILE, "unit": "multiply-add", "work": 8, "per_work": 2,
                            "untiled_per_work": 2}
    # the fix-this-first line quotes the student's source: markup in it, in
    # backquotes and after an unclosed one, stays text
    good["fix_first"] = f"the read at line 3 (`{HOSTILE}`) races; an unclosed ` {HOSTILE}"
    (records / "ann.json").write_text(json.dumps(good))
    (records / "evil.json").write_text(json.dumps(record(HOSTILE)))
    site = tmp_path / "site"
    site.mkdir()
    p = kit.gpulab("export", LAB, records, "--html", site / "index.html", "--feedback-dir", site / "fb")
    assert p.returncode == 0, p.stderr
    assert "no feedback page for the record with id" in p.stderr
    assert sorted(f.name for f in (site / "fb").iterdir()) == ["ann.html"]
    root = dom(site / "index.html", tmp_path)
    assert_no_script(root, "index.html")
    rows = students_table(root)
    assert len(rows) == 2 and all(len(list(r.all("td"))) == 7 for r in rows)
    assert [list(r.all("td"))[4].text() for r in rows] == ["2.0 per multiply-add", ""]
    ids = [list(r.all("td"))[0] for r in rows]
    assert [i.text() for i in ids] == ["ann", HOSTILE]
    assert list(ids[0].all("a")) and not list(ids[1].all("a"))
    fix = [n for n in list(rows[0].all("td"))[3].children if not isinstance(n, str)]
    assert fix and fix[0].text() == f"Fix this first: the read at line 3 ({HOSTILE}) races; an unclosed ` {HOSTILE}"
    assert [c.text() for c in fix[0].all("code")] == [HOSTILE]
    root = dom(site / "fb" / "ann.html", tmp_path)
    assert_no_script(root, "ann.html")
    (lead,) = [p for p in root.all("p") if p.attrs.get("class") == "fix"]
    assert lead.text() == fix[0].text() and not list(lead.all("td"))
    imgs = list(root.all("img"))
    assert len(imgs) == 1
    src = imgs[0].attrs["src"]
    assert src.startswith("data:image/png;base64,") and base64.b64decode(src.split(",", 1)[1]) == picture
    # characters XML does not allow are gone, not passed through
    raw = (site / "fb" / "ann.html").read_text()
    assert "\x01" not in raw and "\ufffe" not in raw
    assert f"2.0 per multiply-add on {HOSTILE} (lab 01's kernel: 2.0)" in root.text()


def test_html_outputs_are_safe(tmp_path):
    """--html - is standard output; a link named as the output stays a link."""
    records = tmp_path / "records"
    records.mkdir()
    (records / "ann.json").write_text(json.dumps(record("ann")))
    p = kit.gpulab("export", LAB, records, "--html", "-")
    assert p.returncode == 0 and p.stdout.startswith("<!DOCTYPE html>") and ">ann<" in p.stdout, p.stderr
    real = tmp_path / "kept-elsewhere.html"
    real.write_text("")
    (tmp_path / "class.html").symlink_to(real)
    p = kit.gpulab("export", LAB, records, "--html", tmp_path / "class.html")
    assert p.returncode == 0, p.stderr
    assert (tmp_path / "class.html").is_symlink() and "ann" in real.read_text()
    # grade's text report and the page cannot share standard output
    p = kit.gpulab("grade", LAB, SOLUTION, "--backend", "emu", "--records", tmp_path / "r", "--html", "-")
    assert p.returncode == 2 and "--out FILE" in p.stderr and not p.stdout
    # nor can the report and the gradebook, or two files given as "-"
    p = kit.gpulab("grade", LAB, SOLUTION, "--backend", "emu", "--records", tmp_path / "r", "--csv", "-")
    assert p.returncode == 2 and "standard output already has the report" in p.stderr and not p.stdout
    p = kit.gpulab("grade", LAB, SOLUTION, "--backend", "emu", "--records", tmp_path / "r", "--out",
                   tmp_path / "report.txt", "--csv", "-", "--junit", "-")
    assert p.returncode == 2 and "--junit -" in p.stderr and not p.stdout
    # the page loads nothing from anywhere: no external URL in any attribute
    text = real.read_text()
    for attr in ("src=\"http", "href=\"http", "url("):
        assert attr not in text


def test_no_student_facing_output_holds_the_graders_folders(tmp_path):
    """A class given by its absolute path: the records keep the paths (the
    grader's own evidence), but the pages, the gradebook's reasons, JUnit's
    messages (CI shows them to students) and Gradescope's output show the
    file's name, never the TA's folders."""
    problem = kit.emu_problem()
    if problem:
        pytest.fail(problem)
    private = tmp_path / "home" / "ta" / "course"
    cls = private / "class"
    for name in ("alice", "carl", "dan"):
        (cls / name).mkdir(parents=True)
    shutil.copy(SOLUTION, cls / "alice" / "tiled_matmul.cu")
    (cls / "carl" / "tiled_matmul.cu").write_text(SOLUTION.read_text().replace("int Row", "int Row = ;", 1))
    for two in ("a.cu", "b.cu"):  # which one is it?
        shutil.copy(SOLUTION, cls / "dan" / two)
    out = tmp_path / "site"
    out.mkdir()
    p = kit.gpulab("grade", LAB, cls.resolve(), "--backend", "emu", "--dataset", "width-0032", "--records",
                   tmp_path / "records", "--csv", out / "book.csv", "--html", out / "class.html",
                   "--junit", out / "junit.xml", "--feedback-dir", out / "students", timeout=1200)
    assert p.returncode == 0, p.stderr
    carl = json.loads((tmp_path / "records" / "carl.json").read_text())
    assert str(private) in json.dumps(carl), "the evidence: the compiler named the TA's folders"
    gs = tmp_path / "results.json"
    p = kit.gpulab("grade", LAB, (cls / "carl").resolve(), "--backend", "emu", "--records", tmp_path / "records",
                   "--format", "gradescope", "--out", gs)
    assert p.returncode == 0, p.stderr
    shown = [out / "book.csv", out / "class.html", out / "junit.xml", gs, *sorted((out / "students").iterdir())]
    assert len(shown) == 7
    for f in shown:
        text = f.read_text()
        assert str(tmp_path) not in text and "/home/ta" not in text, f"{f.name} shows the grader's folders"
    assert "tiled_matmul.cu:" in json.loads(gs.read_text())["output"]  # the compiler's words stay, by file name
    rows = {r["id"]: r for r in validate.check_csv((out / "book.csv").read_bytes().decode())}
    assert "which one is it?" in rows["dan"]["reason"], rows["dan"]
    assert rows["carl"]["reason"] == "tiled_matmul.cu does not compile", rows["carl"]


def test_adjustments_reach_the_pages(graded, tmp_path):
    """The TA's late days, points and comment: the class page's final and
    comment columns, and a Final line on the student's own page."""
    adj = tmp_path / "adjustments.csv"
    adj.write_text('id,late_days,points,comment\nalice,1,-2,"see me, <b>please</b>"\n')
    site = tmp_path / "site"
    site.mkdir()
    p = kit.gpulab("export", LAB, graded["records"], "--html", site / "class.html", "--feedback-dir",
                   site / "students", "--adjustments", adj, "--late-penalty", "10")
    assert p.returncode == 0, p.stderr
    alice = json.loads((graded["records"] / "alice.json").read_text())
    final = alice["score"] * 0.9 - 2
    rows = {list(r.all("td"))[0].text(): list(r.all("td")) for r in students_table(dom(site / "class.html", tmp_path))}
    assert float(rows["alice"][5].text()) == pytest.approx(final, abs=1e-3)
    assert rows["alice"][6].text() == "see me, <b>please</b>"  # text, not markup
    assert rows["dave"][5].text() == "0" and rows["dave"][6].text() == ""
    root = dom(site / "students" / "alice.html", tmp_path)
    lines = [p.text() for p in root.all("p") if p.attrs.get("class") == "adjust"]
    assert len(lines) == 1 and "1 late day" in lines[0] and "adjusted -2" in lines[0], lines
    assert "see me, <b>please</b>" in lines[0], lines  # the comment is text
    assert [b.text() for b in root.all("b")] == [f"{final:g}/{alice['max_score']:g}"]  # the final alone is bold
