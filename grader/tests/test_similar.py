"""gpulab similar: a class of independent solutions, each written in its own
style into the lab's skeleton as students hand them in, and disguised copies
of some of them (names changed, layout changed, comments rewritten): every
copy pair ranks above every independent pair, for two labs; the skeleton's
own lines never make two students alike; the page escapes what students
wrote."""
import json
import re

import pytest

import kit

# Each student's answers, by the skeleton's TODO number. Written for this
# test, in the ways students write them: the textbook's, early returns and
# pointer walks, while loops and tables of buffers, fmaf and pragmas.
LAB01 = {
    "alice": {
        1: "int Row = blockIdx.y * blockDim.y + threadIdx.y;\nint Col = blockIdx.x * blockDim.x + threadIdx.x;",
        2: "if ((Row < Width) && (Col < Width)) {\n    float Pvalue = 0.0f;\n    for (int k = 0; k < Width; k++) {\n"
           "        Pvalue += M[Row*Width+k] * N[k*Width+Col];\n    }\n    P[Row*Width+Col] = Pvalue;\n}",
        3: "float *d_M, *d_N, *d_P;\nint size = width * width * sizeof(float);\ncudaMalloc((void **) &d_M, size);\n"
           "cudaMalloc((void **) &d_N, size);\ncudaMalloc((void **) &d_P, size);",
        4: "cudaMemcpy(d_M, M, size, cudaMemcpyHostToDevice);\ncudaMemcpy(d_N, N, size, cudaMemcpyHostToDevice);",
        5: "dim3 dimGrid(ceil(width / (float)BLOCK_WIDTH), ceil(width / (float)BLOCK_WIDTH), 1);\n"
           "dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);\nMatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, width);\n"
           "cudaError_t err = cudaGetLastError();\n"
           "if (err != cudaSuccess) printf(\"launch failed: %s\\n\", cudaGetErrorString(err));",
        6: "cudaMemcpy(P, d_P, size, cudaMemcpyDeviceToHost);",
        7: "cudaFree(d_M); cudaFree(d_N); cudaFree(d_P);",
    },
    "bob": {
        1: "const int col = blockIdx.x * BLOCK_WIDTH + threadIdx.x;\nconst int row = blockIdx.y * BLOCK_WIDTH + threadIdx.y;",
        2: "if (row >= Width || col >= Width)\n    return;\nconst float *a = M + (size_t)row * Width;\n"
           "const float *b = N + col;\nfloat acc = 0.f;\nfor (int i = 0; i < Width; ++i, b += Width)\n"
           "    acc += a[i] * *b;\nP[(size_t)row * Width + col] = acc;",
        3: "const size_t n = (size_t)width * width;\nfloat *d_M = nullptr;\nfloat *d_N = nullptr;\n"
           "float *d_P = nullptr;\nCUDA_CHECK(cudaMalloc(&d_M, n * sizeof *d_M));\n"
           "CUDA_CHECK(cudaMalloc(&d_N, n * sizeof *d_N));\nCUDA_CHECK(cudaMalloc(&d_P, n * sizeof *d_P));",
        4: "CUDA_CHECK(cudaMemcpy(d_M, M, n * sizeof *M, cudaMemcpyHostToDevice));\n"
           "CUDA_CHECK(cudaMemcpy(d_N, N, n * sizeof *N, cudaMemcpyHostToDevice));",
        5: "const int blocks = (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH;\n"
           "MatrixMulKernel<<<dim3(blocks, blocks), dim3(BLOCK_WIDTH, BLOCK_WIDTH)>>>(d_M, d_N, d_P, width);\n"
           "CUDA_CHECK(cudaPeekAtLastError());\nCUDA_CHECK(cudaDeviceSynchronize());",
        6: "CUDA_CHECK(cudaMemcpy(P, d_P, n * sizeof *P, cudaMemcpyDeviceToHost));",
        7: "CUDA_CHECK(cudaFree(d_P));\nCUDA_CHECK(cudaFree(d_N));\nCUDA_CHECK(cudaFree(d_M));",
    },
    "carol": {
        1: "int Col = threadIdx.x + blockDim.x * blockIdx.x;\nint Row = threadIdx.y + blockDim.y * blockIdx.y;",
        2: "if (Row < Width) {\n    if (Col < Width) {\n        float sum = 0;\n        int k = 0;\n"
           "        while (k < Width) {\n            float m = M[Row * Width + k];\n"
           "            float n = N[k * Width + Col];\n            sum = sum + m * n;\n            k = k + 1;\n"
           "        }\n        P[Row * Width + Col] = sum;\n    }\n}",
        3: "float *d_M, *d_N, *d_P;\nfloat **bufs[3] = { &d_M, &d_N, &d_P };\nfor (int b = 0; b < 3; b++)\n"
           "    CUDA_CHECK(cudaMalloc((void **)bufs[b], sizeof(float) * width * width));",
        4: "const float *from[2] = { M, N };\nfor (int b = 0; b < 2; b++)\n"
           "    CUDA_CHECK(cudaMemcpy(*bufs[b], from[b], sizeof(float) * width * width, cudaMemcpyHostToDevice));",
        5: "dim3 threads(BLOCK_WIDTH, BLOCK_WIDTH);\ndim3 grid;\n"
           "grid.x = width / BLOCK_WIDTH + (width % BLOCK_WIDTH != 0);\ngrid.y = grid.x;\n"
           "MatrixMulKernel<<<grid, threads>>>(d_M, d_N, d_P, width);\nCUDA_CHECK(cudaGetLastError());",
        6: "CUDA_CHECK(cudaMemcpy(P, d_P, sizeof(float) * width * width, cudaMemcpyDeviceToHost));",
        7: "for (int b = 0; b < 3; b++)\n    CUDA_CHECK(cudaFree(*bufs[b]));",
    },
    "dave": {
        1: "int tx = threadIdx.x, ty = threadIdx.y;\nint Row = blockIdx.y * BLOCK_WIDTH + ty;\n"
           "int Col = blockIdx.x * BLOCK_WIDTH + tx;",
        2: "bool inside = Row < Width && Col < Width;\nif (!inside) return;\nfloat dot = 0.0f;\n#pragma unroll 4\n"
           "for (int k = 0; k < Width; ++k) {\n    dot = fmaf(M[Row * Width + k], N[k * Width + Col], dot);\n}\n"
           "P[Row * Width + Col] = dot;",
        3: "size_t bytes = sizeof(float);\nbytes *= width;\nbytes *= width;\nfloat *d_M = NULL;\n"
           "float *d_N = NULL;\nfloat *d_P = NULL;\n"
           "if (cudaMalloc(&d_M, bytes) != cudaSuccess || cudaMalloc(&d_N, bytes) != cudaSuccess ||\n"
           "    cudaMalloc(&d_P, bytes) != cudaSuccess) {\n    fprintf(stderr, \"out of device memory\\n\");\n"
           "    return;\n}",
        4: "cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice);\ncudaMemcpy(d_M, M, bytes, cudaMemcpyHostToDevice);",
        5: "unsigned nb = (unsigned)((width + BLOCK_WIDTH - 1) / BLOCK_WIDTH);\n"
           "dim3 block(BLOCK_WIDTH, BLOCK_WIDTH), grid(nb, nb);\n"
           "MatrixMulKernel<<<grid, block>>>(d_M, d_N, d_P, width);\nif (cudaGetLastError() != cudaSuccess)\n"
           "    fprintf(stderr, \"kernel launch failed\\n\");",
        6: "cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost);",
        7: "cudaFree(d_M);\ncudaFree(d_N);\ncudaFree(d_P);",
    },
}

LAB02 = {
    "erin": {
        1: "__shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];\n__shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];",
        2: "int bx = blockIdx.x; int by = blockIdx.y;\nint tx = threadIdx.x; int ty = threadIdx.y;\n"
           "int Row = by * TILE_WIDTH + ty;\nint Col = bx * TILE_WIDTH + tx;\nfloat Pvalue = 0;",
        3: "ds_M[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];\n"
           "ds_N[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];",
        4: "__syncthreads();",
        5: "for (int k = 0; k < TILE_WIDTH; ++k)\n    Pvalue += ds_M[ty][k] * ds_N[k][tx];",
        6: "__syncthreads();",
        7: "P[Row * Width + Col] = Pvalue;",
        8: "dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH, 1);\ndim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);\n"
           "MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);\ncudaError_t e = cudaGetLastError();\n"
           "if (e != cudaSuccess) fprintf(stderr, \"%s\\n\", cudaGetErrorString(e));",
    },
    "frank": {
        1: "__shared__ float ds_M[TILE_WIDTH][TILE_WIDTH], ds_N[TILE_WIDTH][TILE_WIDTH];",
        2: "const int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;\n"
           "const int Row = TILE_WIDTH * by + ty, Col = TILE_WIDTH * bx + tx;\nfloat Pvalue = 0.0f;\n"
           "const float *mrow = M + Row * Width;\nconst float *ncol = N + Col;",
        3: "const int base = ph * TILE_WIDTH;\nds_M[ty][tx] = mrow[base + tx];\nds_N[ty][tx] = ncol[(base + ty) * Width];",
        4: "__syncthreads();",
        5: "#pragma unroll\nfor (int j = 0; j < TILE_WIDTH; j++) {\n    Pvalue = fmaf(ds_M[ty][j], ds_N[j][tx], Pvalue);\n}",
        6: "__syncthreads();",
        7: "*(P + Row * Width + Col) = Pvalue;",
        8: "const int tiles = width / TILE_WIDTH;\n"
           "MatrixMulKernel<<<dim3(tiles, tiles), dim3(TILE_WIDTH, TILE_WIDTH)>>>(M, N, P, width);\n"
           "CUDA_CHECK(cudaGetLastError());",
    },
    "gina": {
        1: "__shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];\n__shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];",
        2: "int bx = blockIdx.x, by = blockIdx.y;\nint tx = threadIdx.x, ty = threadIdx.y;\n"
           "int Col = bx * blockDim.x + tx;\nint Row = by * blockDim.y + ty;\nfloat Pvalue = 0.0;",
        3: "int mCol = ph * TILE_WIDTH + tx;\nint nRow = ph * TILE_WIDTH + ty;\nds_M[ty][tx] = M[Row * Width + mCol];\n"
           "ds_N[ty][tx] = N[nRow * Width + Col];",
        4: "__syncthreads();  // everyone has loaded",
        5: "for (int k = 0; k < TILE_WIDTH; k += 2) {\n    Pvalue += ds_M[ty][k] * ds_N[k][tx];\n"
           "    Pvalue += ds_M[ty][k + 1] * ds_N[k + 1][tx];\n}",
        6: "__syncthreads();",
        7: "int out = Row * Width + Col;\nP[out] = Pvalue;",
        8: "int n = width / TILE_WIDTH;\ndim3 grid(n, n);\ndim3 block(TILE_WIDTH, TILE_WIDTH);\n"
           "MatrixMulKernel<<<grid, block>>>(M, N, P, width);\ncudaError_t status = cudaPeekAtLastError();\n"
           "if (status != cudaSuccess) {\n    fprintf(stderr, \"MatrixMulKernel: %s\\n\", cudaGetErrorString(status));\n}",
    },
    "hank": {
        1: "__shared__ float ds_M[TILE_WIDTH * TILE_WIDTH];\n__shared__ float ds_N[TILE_WIDTH * TILE_WIDTH];",
        2: "int bx = blockIdx.x;\nint by = blockIdx.y;\nint tx = threadIdx.x;\nint ty = threadIdx.y;\n"
           "int Row = ty + by * TILE_WIDTH;\nint Col = tx + bx * TILE_WIDTH;\nfloat Pvalue = 0.0f;",
        3: "ds_M[ty * TILE_WIDTH + tx] = M[Row * Width + (ph * TILE_WIDTH + tx)];\n"
           "ds_N[ty * TILE_WIDTH + tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];",
        4: "__syncthreads();",
        5: "for (int k = 0; k < TILE_WIDTH; ++k) {\n    float a = ds_M[ty * TILE_WIDTH + k];\n"
           "    float b = ds_N[k * TILE_WIDTH + tx];\n    Pvalue += a * b;\n}",
        6: "__syncthreads();",
        7: "if (Row < Width && Col < Width)\n    P[Row * Width + Col] = Pvalue;",
        8: "dim3 threadsPerBlock(TILE_WIDTH, TILE_WIDTH);\ndim3 numBlocks(width / TILE_WIDTH, width / TILE_WIDTH);\n"
           "MatrixMulKernel<<<numBlocks, threadsPerBlock>>>(M, N, P, width);\ncudaDeviceSynchronize();\n"
           "CUDA_CHECK(cudaGetLastError());",
    },
}


def fill(skeleton, answers, keep_todos):
    """The skeleton with each TODO region replaced by the student's answer,
    at the region's indentation (the TODO comments kept or deleted, as
    students do either)."""
    out, lines, i = [], skeleton.splitlines(), 0
    while i < len(lines):
        m = re.match(r"(\s*)//@@ TODO (\d+):", lines[i])
        if not m:
            out.append(lines[i])
            i += 1
            continue
        indent, number = m.group(1), int(m.group(2))
        j = i
        while "//@@ end" not in lines[j]:
            j += 1
        if keep_todos:
            out.extend(lines[i:j])
        out.extend(indent + a if a else a for a in answers[number].splitlines())
        i = j + 1
    return "\n".join(out) + "\n"


C_WORDS = set("""auto break case char const continue default do double else enum extern float for goto if inline int
long return short signed sizeof static struct switch typedef unsigned void volatile while bool true false NULL
nullptr size_t dim3 threadIdx blockIdx blockDim gridDim x y z include define pragma unroll ceil fmaf printf fprintf
stderr lab h""".split())


def disguise(text, seed):
    """A copy as a copier hides it: every name of theirs changed, comments
    rewritten, the layout redone (spacing, indentation, braces)."""
    strings = []
    text = re.sub(r'"(?:[^"\\\n]|\\.)*"', lambda m: strings.append(m.group(0)) or f"\x00{len(strings) - 1}\x00", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    names = {}

    def rename(m):
        w = m.group(0)
        if w in C_WORDS or w.startswith(("cuda", "__", "CUDA", "BLOCK", "TILE", "Matrix")):
            return w
        return names.setdefault(w, f"v{seed}{chr(ord('a') + len(names) % 26)}{len(names)}")

    out = []
    for line in text.splitlines():
        if line.lstrip().startswith("#"):
            out.append(line)
            continue
        line = re.sub(r"\b[A-Za-z_]\w*\b", rename, line)
        line = re.sub(r"\s*([=+*/<>,;()\[\]-])\s*", r"\1", line.strip())  # no spaces around operators
        line = line.replace(")\x7b", ")\n\x7b")  # brace on a line of its own
        if line:
            out.append("\t" * (seed % 3) + line)
    body = "\n".join(out)
    body = re.sub(r"\x00(\d+)\x00", lambda m: strings[int(m.group(1))], body)
    return f"/* my own work, written from scratch ({seed}) */\n" + body.replace(";\n", "; // step\n", 3) + "\n"


def write_class(root, lab, students, copies):
    skel = kit.skeleton(lab).read_text()
    source = kit.manifest(lab)["source"]
    for k, (name, answers) in enumerate(students.items()):
        (root / name).mkdir(parents=True)
        (root / name / source).write_text(fill(skel, answers, keep_todos=k % 2 == 0))
    for k, (copy, original) in enumerate(copies.items()):
        (root / copy).mkdir()
        (root / copy / source).write_text(disguise((root / original / source).read_text(), k + 1))
    return root


def similar_json(lab, root, tmp_path, *extra):
    out = tmp_path / "similar.json"
    p = kit.gpulab("similar", lab, root, "--format", "json", "--out", out, *extra)
    assert p.returncode == 0, p.stderr
    return json.loads(out.read_text())


@pytest.mark.parametrize("lab, students, copies", [
    ("01-basic-matmul", LAB01, {"eve": "alice", "zed": "carol", "yuri": "carol"}),
    ("02-tiled-matmul", LAB02, {"ivan": "frank", "judy": "gina", "kim": "erin"}),
])
def test_every_copy_pair_ranks_above_every_independent_pair(tmp_path, lab, students, copies):
    root = write_class(tmp_path / "class", lab, students, copies)
    doc = similar_json(lab, root, tmp_path)
    n = len(students) + len(copies)
    assert len(doc["pairs"]) == n * (n - 1) // 2
    scores = [p["score"] for p in doc["pairs"]]
    assert scores == sorted(scores, reverse=True) and all(0 <= s <= 1 for s in scores)
    family = {name: copies.get(name, name) for name in [*students, *copies]}
    copied = [p for p in doc["pairs"] if family[p["a"]] == family[p["b"]]]
    independent = [p for p in doc["pairs"] if family[p["a"]] != family[p["b"]]]
    sizes = [list(family.values()).count(f) for f in set(family.values())]
    assert len(copied) == sum(k * (k - 1) // 2 for k in sizes) >= 3 and independent
    worst_copy = min(p["score"] for p in copied)
    best_independent = max(p["score"] for p in independent)
    assert worst_copy > best_independent, (
        [(p["a"], p["b"], p["score"]) for p in copied], max(independent, key=lambda p: p["score"]))
    top = doc["pairs"][:len(copied)]
    assert {(p["a"], p["b"]) for p in top} == {(p["a"], p["b"]) for p in copied}
    for p in copied:  # the regions name the lines that match, in both files
        assert p["regions"], p
        for r in p["regions"]:
            assert 1 <= r["a_lines"][0] <= r["a_lines"][1] and 1 <= r["b_lines"][0] <= r["b_lines"][1]


def test_the_skeleton_alone_makes_no_one_alike(tmp_path):
    """Two students who handed in the untouched skeleton, and one who filled
    in a single line: the skeleton's lines are not theirs, so no pair
    scores."""
    lab = "02-tiled-matmul"
    skel = kit.skeleton(lab).read_text()
    for name in ("amy", "ben"):
        (tmp_path / "class" / name).mkdir(parents=True)
        (tmp_path / "class" / name / "tiled_matmul.cu").write_text(skel)
    (tmp_path / "class" / "cat").mkdir()
    (tmp_path / "class" / "cat" / "tiled_matmul.cu").write_text(skel.replace("/* Phase ph", "int unused = 1;\n    /* Phase ph"))
    doc = similar_json(lab, tmp_path / "class", tmp_path)
    assert [p["score"] for p in doc["pairs"]] == [0, 0, 0], doc["pairs"]


def test_the_page_shows_matching_regions_and_escapes_what_students_wrote(tmp_path):
    lab = "01-basic-matmul"
    root = write_class(tmp_path / "class", lab, LAB01, {"eve": "alice"})
    hostile = "</pre></td><script>document.title='pwned'</script>"
    src = root / "eve" / "basic_matmul.cu"
    src.write_text(src.read_text() + f"// {hostile}\nconst char *note = \"{hostile}\";\n")
    page = tmp_path / "similar.html"
    p = kit.gpulab("similar", lab, root, "--html", page)
    assert p.returncode == 0, p.stderr
    assert re.search(r"^0\.\d+\s+alice\s+eve\b|^0\.\d+\s+eve\s+alice\b|^1\.000\s+\S+\s+\S+", p.stdout, re.M), p.stdout
    top = p.stdout.splitlines()[3].split()
    assert {top[1], top[2]} == {"alice", "eve"}, p.stdout
    html = page.read_text()
    assert "<script>" not in html and "&lt;script&gt;" in html
    # the two files side by side, their matching lines marked
    assert html.count('<table class="side">') >= 1
    first = html.split('<table class="side">')[1].split("</table>")[0]
    assert first.count("<pre>") == 2 and 'class="m0"' in first


def test_similar_says_what_was_wrong(tmp_path):
    p = kit.gpulab("similar", "01-basic-matmul", tmp_path / "nowhere")
    assert p.returncode == 2 and "nowhere: no such file or folder" in p.stderr
    (tmp_path / "one").mkdir()
    (tmp_path / "one" / "a.cu").write_text("int main() { return 0; }\n")
    p = kit.gpulab("similar", "01-basic-matmul", tmp_path / "one")
    assert p.returncode == 2 and "1 submission to compare" in p.stderr
    p = kit.gpulab("similar", "01-basic-matmul", tmp_path / "one", "--format", "xml")
    assert p.returncode == 2 and "--format xml" in p.stderr
