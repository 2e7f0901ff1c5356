"""emucc's driver and rewriter: diagnostics name the student's own file and
lines, a leading #line directive keeps working, comments/strings/preprocessor
lines are left alone, emucc works from any directory and fails cleanly."""
import os
import subprocess
from pathlib import Path

import pytest

from test_emu_conformance import EMUCC, ROOT, emu, run  # noqa: F401  (emu is a fixture)

ERR_SRC = """#include <cuda_runtime.h>
// a comment with kernel<<<1, 1>>>() and __shared__ in it
__global__ void K(float *p)
{
    __shared__ float tile[8][8];
    tile[threadIdx.y][threadIdx.x] = 1.0f;
    __syncthreads();
    p[0] = tile[0][0];
}
int main()
{
    float *d;
    cudaMalloc(&d, 4);
    K<<<1,
        dim3(8, 8)>>>(d);
    int x = undeclared_name;   // line 16
    return x;
}
"""


def test_compile_error_names_student_file_and_line(emu, tmp_path):
    src = tmp_path / "student.cu"
    src.write_text(ERR_SRC)
    p = run([emu, "-c", src, "-o", tmp_path / "s.o"])
    assert p.returncode != 0
    assert f"{src}:16:" in p.stderr, p.stderr
    assert "emucc" not in p.stderr.split(f"{src}:16:")[0].splitlines()[-1]


def test_leading_line_directive(emu, tmp_path):
    src = tmp_path / "work.cu"
    src.write_text('#line 1 "basic_matmul.cu"\n' + ERR_SRC)
    p = run([emu, "-c", src, "-o", tmp_path / "s.o"])
    assert p.returncode != 0 and "basic_matmul.cu:16:" in p.stderr, p.stderr


def test_lines_keep_their_numbers_around_system_includes(emu, tmp_path):
    """Each #include <...> is read with CUDA's __noinline__ macro put aside
    (libstdc++ spells an attribute of its own __noinline__), in lines the
    rewriter adds and takes back with #line: an error after such includes,
    one of them continued over two lines, and after a #line of the file's
    own, still names its line."""
    src = tmp_path / "student.cu"
    src.write_text("#include <stdio.h>\n"
                   "#include <memory>\n"
                   "#line 40\n"
                   "#include \\\n"
                   "  <string>\n"
                   "__device__ __noinline__ float f(float x) { return x; }\n"
                   "int main() { return undeclared_name; }\n")
    p = run([emu, "-c", src, "-o", tmp_path / "s.o"])
    assert p.returncode != 0
    assert f"{src}:43:" in p.stderr and "undeclared_name" in p.stderr, p.stderr
    assert "noinline" not in p.stderr, p.stderr


def test_strings_comments_untouched_and_launch_over_lines(emu, tmp_path):
    src = tmp_path / "ok.cu"
    src.write_text(ERR_SRC.replace("int x = undeclared_name;   // line 16", 'const char *s = "k<<<1,1>>>(); __shared__ x"; int x = (int)(s[0] != \'k\');')
                   + "\n")
    prog = tmp_path / "ok"
    p = run([emu, src, "-o", prog])
    assert p.returncode == 0, p.stderr
    r = run([prog])
    assert r.returncode == 0, r.stderr


def test_emucc_from_another_directory(emu, tmp_path):
    src = tmp_path / "a.cu"
    src.write_text("#include <cstdio>\n__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }\n"
                   "int main() { int *d, h[4]; cudaMalloc(&d, sizeof h); k<<<1, 4>>>(d);\n"
                   "cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost); printf(\"%d\\n\", h[3]); return 0; }\n")
    p = run([EMUCC, "a.cu", "-o", "a"], cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert run([tmp_path / "a"]).stdout.strip() == "3"


def test_emucc_failures_exit_nonzero(emu, tmp_path):
    assert run([EMUCC, "-c", tmp_path / "missing.cu", "-o", tmp_path / "x.o"]).returncode != 0
    assert run([EMUCC, "--bogus", "-c", "x.cu", "-o", "x.o"]).returncode != 0
    (tmp_path / "bad.o").write_text("not an object")
    assert run([EMUCC, tmp_path / "bad.o", "-o", tmp_path / "p"]).returncode != 0


@pytest.mark.parametrize("decl", [
    "__shared__ float tile[8][8] = {0};",
    "__shared__ float tile[8][8] = {};",
    "__shared__ float tile[8][8]{};",
])
def test_a_shared_variable_with_an_initialiser_is_refused_as_nvcc_refuses_it(emu, tmp_path, decl):
    """nvcc refuses `__shared__ float tile[8][8] = {0};` ("initializer not
    allowed for __shared__ variable"): a GPU build never runs it, so the
    emulator's build refuses it too, at the student's line, where the
    struct member the rewrite makes of it would take the value as a
    default and the program would run."""
    src = tmp_path / "student.cu"
    src.write_text(ERR_SRC.replace("__shared__ float tile[8][8];", decl).replace(
        "    int x = undeclared_name;   // line 16\n    return x;", "    return 0;"))
    p = run([emu, "-c", src, "-o", tmp_path / "s.o"])
    assert p.returncode != 0, p.stderr
    assert f"{src}: line 5: initializer not allowed for __shared__ variable: tile is __shared__" in p.stderr, \
        p.stderr


LAUNCH_SPELLINGS = [
    "K<<<grid, block>>>(d, n);",
    "K<< <grid, block >> >(d, n);",          # an IDE's formatting; nvcc accepts it
    "K <<< grid, block >>> (d, n);",
    "K<<<\n        grid,\n        block\n    >>>(d, n);",
    "K<< <grid,\n block>> >(d, n);",
    "K<<<n >> 3, 8>>>(d, n);",               # a shift inside the configuration
]


@pytest.mark.parametrize("launch", LAUNCH_SPELLINGS)
def test_launch_spellings_nvcc_accepts(emu, tmp_path, launch):
    """Every spelling of a launch that nvcc accepts builds and runs; a
    nested template closed the old way (`> >`, `>> >`) is left alone."""
    src = tmp_path / "launch.cu"
    src.write_text(f"""#include <cuda_runtime.h>
#include <cstdio>
#include <vector>
std::vector<std::vector<std::vector<int>> > nested_the_old_way;
__global__ void K(int *p, int n)
{{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i;
}}
int main()
{{
    int n = 64, *d, h[64];
    dim3 grid(8), block(8);
    cudaMalloc(&d, n * sizeof(int));
    {launch}
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    printf("%d\\n", h[63]);
    return 0;
}}
""")
    exe = tmp_path / "launch"
    p = run([emu, src, "-o", exe])
    assert p.returncode == 0, p.stderr
    p = run([exe])
    assert p.returncode == 0 and p.stdout.strip() == "63", (p.stdout, p.stderr)
