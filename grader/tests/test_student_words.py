"""What a student reads names their own code, never the emulator's (issue
30, item 8): the compiler's messages about a file emucc rewrote name the
student's token and quote their line; a finding names the call that made
the buffer. Each file here is a lab's solution with one mistake made in
the test, so that it cannot drift from the solution."""
import pytest

import kit


def with_mistake(tmp_path, lab, old, new):
    sol = kit.solution(lab)
    src = sol.read_text()
    assert src.count(old) == 1, old
    out = tmp_path / sol.name
    out.write_text(src.replace(old, new))
    return out


def report_text(lab, path):
    p = kit.gpulab("check", lab, path, "--backend", "emu", "--no-sanitize")
    assert p.returncode == 1, p.stdout + p.stderr
    return p.stdout


@pytest.mark.parametrize("lab,old,new,token,line", [
    # kernel: a missing ';' before __syncthreads() (a macro of the emulator's once:
    # "expected ';' before 'emu_sync_'")
    ("02-tiled-matmul", "ds_N[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];",
     "ds_N[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col]", "__syncthreads",
     "        ds_N[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col]"),
    # kernel: a missing ';' before a return (rewritten "for (emu_note_return_(...);;) return" once)
    ("01-basic-matmul", "int Col = blockIdx.x * blockDim.x + threadIdx.x;",
     "int Col = blockIdx.x * blockDim.x + threadIdx.x\n    if (Col < 0) return;", "if",
     "    if (Col < 0) return;"),
    # host: a missing ';' before a launch (the rewrite's "::emu::launch_": "before '::' token" once)
    ("01-basic-matmul",
     "dim3 dimGrid((width + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH);",
     "dim3 dimGrid((width + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH)",
     "MatrixMulKernel", "    MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, width);"),
])
def test_a_missing_semicolon_names_the_students_token_and_line(tmp_path, lab, old, new, token, line):
    f = with_mistake(tmp_path, lab, old, new)
    text = report_text(lab, f)
    rc, rep = kit.check_json(lab, f, "emu", expect_rc=1)
    assert set(kit.statuses(rep).values()) == {"compile_error"}
    for said in (text, rep["build"]["log"], rep["fix_first"]):
        assert "emu_" not in said and "emu::" not in said and "emucc" not in said, said
    assert f"before \u2018{token}\u2019" in rep["build"]["log"] or f"before '{token}'" in rep["build"]["log"], \
        rep["build"]["log"]
    log = rep["build"]["log"]
    assert f"| {line}\n" in log, log  # their line, quoted (by g++ or, when it cannot read the file, the kit)
    assert log.count(f"| {line}\n") == 1, log
    assert line.strip() in text


def test_a_return_after_a_missing_semicolon_is_named_return(tmp_path):
    f = with_mistake(tmp_path, "01-basic-matmul", "int Col = blockIdx.x * blockDim.x + threadIdx.x;",
                     "int Col = blockIdx.x * blockDim.x + threadIdx.x\n    return;")
    rc, rep = kit.check_json("01-basic-matmul", f, "emu", expect_rc=1)
    log = rep["build"]["log"]
    assert "before \u2018return\u2019" in log or "before 'return'" in log, log
    assert "\u2018for\u2019" not in log and "'for'" not in log, log
    assert "emu_" not in log


def test_a_launch_with_the_wrong_arguments_names_no_launcher(tmp_path):
    f = with_mistake(tmp_path, "01-basic-matmul", "MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, width);",
                     "MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P);")
    text = report_text("01-basic-matmul", f)
    assert "emu::" not in text and "launcher" not in text and "emu_device" not in text, text
    assert "the launch's arguments (float*&, float*&, float*&) do not match the kernel's parameters" in text, text
    assert "the kernel takes 4 arguments, the launch gives 3" in text, text


def test_a_launch_argument_of_another_type_than_its_parameter_is_named_by_its_place(tmp_path):
    """Lab 01's launch given d_M where the output belongs, with d_M made a
    const pointer: every count is right, one argument's type is not its
    parameter's. The build's line names that argument, its place and both
    types, before the whole lists."""
    text = kit.solution("01-basic-matmul").read_text()
    old = "MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, width);"
    assert old in text
    f = tmp_path / "basic_matmul.cu"
    f.write_text(text.replace(old, "const float *d_R = d_M;\n    MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_R, width);"))
    rc, rep = kit.check_json("01-basic-matmul", f, "emu", expect_rc=1)
    log = rep["build"]["log"]
    assert "the launch's third argument, `d_R`, is a const float*, where the kernel's third parameter is a float* " \
        "(the kernel writes through it, and a const pointer is read-only)" in log, log
    assert "do not match the kernel's parameters" in log, log


def test_a_const_argument_for_a_parameter_the_kernel_only_reads_names_the_parameter(tmp_path):
    """Lab 03's kernel declared with `float *N` where the skeleton has
    `const float *N`, its launch passing the host function's const N: the
    kernel only reads N, so the parameter lost its const, not the launch
    its argument. The build's line names the parameter, its line and the
    const to write."""
    text = kit.solution("03-arbitrary-matmul").read_text()
    old = "__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int j, int k, int l)"
    assert old in text
    f = tmp_path / "arbitrary_matmul.cu"
    f.write_text(text.replace(old, old.replace("const float *N", "float *N")))
    line = next(i + 1 for i, l in enumerate(f.read_text().splitlines()) if "__global__ void MatrixMulKernel(" in l)
    rc, rep = kit.check_json("03-arbitrary-matmul", f, "emu", expect_rc=1)
    log = rep["build"]["log"]
    assert f"the launch's second argument, `N`, is a const float*, where MatrixMulKernel's second parameter, N " \
        f"(line {line}), is a float*, which MatrixMulKernel only reads: declare that parameter `const float*` there" \
        in log, log


def test_a_host_parameter_s_name_in_a_kernel_is_no_declaration_to_move(tmp_path):
    """Lab 02's kernel reads `width`, the host function's parameter (the
    kernel's is `Width`): the only declaration of width is in a function
    further down, which no moving brings into the kernel's reach. The
    build's line names the kernel's own name one letter's case away, not a
    declaration to move above the use."""
    text = kit.solution("02-tiled-matmul").read_text()
    old = "ds_N[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];"
    assert text.count(old) == 1
    f = tmp_path / "tiled_matmul.cu"
    f.write_text(text.replace(old, old.replace("* Width", "* width")))
    lines = f.read_text().splitlines()
    use = next(i + 1 for i, l in enumerate(lines) if "* width + Col]" in l)
    param = next(i + 1 for i, l in enumerate(lines) if "__global__" in l and "int Width" in l)
    rc, rep = kit.check_json("02-tiled-matmul", f, "emu", expect_rc=1)
    first = rep["fix_first"]
    assert "move the declaration" not in first, first
    assert f"line {param} declares `Width` and line {use} uses `width`" in first, first


def test_a_name_used_above_its_declaration_names_the_declaration_to_move(tmp_path):
    """Lab 04's sum declared after the loops that add into it: the build
    says acc is not declared; the file declares it just below. The build's
    line names that declaration and says to move it above the use."""
    text = kit.solution("04-conv-2batch").read_text()
    old = ("        float acc = 0.0f;\n        for (int i = 0; i < MASK_WIDTH; i++)\n"
           "            for (int j = 0; j < MASK_WIDTH; j++)\n"
           "                acc += Mc[i][j] * N_ds[threadIdx.y + i][threadIdx.x + j];\n")
    assert old in text
    f = tmp_path / "conv_2batch.cu"
    f.write_text(text.replace(old, "        for (int i = 0; i < MASK_WIDTH; i++)\n"
                                   "            for (int j = 0; j < MASK_WIDTH; j++)\n"
                                   "                acc += Mc[i][j] * N_ds[threadIdx.y + i][threadIdx.x + j];\n"
                                   "        float acc = 0.0f;\n"))
    lines = f.read_text().splitlines()
    use = next(i + 1 for i, l in enumerate(lines) if "acc += Mc[i][j]" in l)
    decl = next(i + 1 for i, l in enumerate(lines) if "float acc = 0.0f;" in l)
    rc, rep = kit.check_json("04-conv-2batch", f, "emu", expect_rc=1)
    first = rep["fix_first"]
    assert f"line {decl} (`float acc = 0.0f;`) declares acc, and line {use} uses it before that" in first, first
    assert f"move the declaration above line {use}" in first, first


def test_a_store_through_a_const_parameter_names_its_declaration(tmp_path):
    """Lab 01's kernel with its output declared `const float *P` (the const
    of M and N copied): g++ says "assignment of read-only location" at the
    store, with the rewritten expression; the build's line names P's
    declaration and its line, and `const` to take off."""
    text = kit.solution("01-basic-matmul").read_text()
    old = "float *P, int Width)"
    assert text.count(old) == 1
    f = tmp_path / "basic_matmul.cu"
    f.write_text(text.replace(old, "const float *P, int Width)"))
    decl = next(i + 1 for i, l in enumerate(f.read_text().splitlines()) if "const float *P, int Width)" in l)
    rc, rep = kit.check_json("01-basic-matmul", f, "emu", expect_rc=1)
    log = rep["build"]["log"]
    assert f"assignment of read-only location: P is declared `const float *P` at line {decl}" in log, log
    assert "take `const` off P's declaration" in log, log


def test_the_rewriters_refusal_names_the_students_line(tmp_path):
    f = with_mistake(tmp_path, "01-basic-matmul", "MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, width);",
                     "MatrixMulKernel<<<dimGrid, dimBlock>>(d_M, d_N, d_P, width);")
    rc, rep = kit.check_json("01-basic-matmul", f, "emu", expect_rc=1)
    n = 1 + kit.solution("01-basic-matmul").read_text().split("MatrixMulKernel<<<")[0].count("\n")
    assert rep["fix_first"] == f"the build: {f}:{n}: error: <<< without a matching >>>", rep["fix_first"]
    assert "emucc" not in rep["build"]["log"]


def test_a_pitched_buffer_is_named_for_cudaMallocPitch():
    mutant = kit.ROOT / "solutions" / "05-pitched-conv" / "mutants" / "byte-pitch-as-floats.cu"
    rc, rep = kit.check_json("05-pitched-conv", mutant, "emu", "--dataset", "rgb-47x29", sanitize=True)
    assert "(cudaMallocPitch)" in rep["fix_first"], rep["fix_first"]
    assert "(cudaMalloc)" not in rep["fix_first"]


def test_a_device_function_launched_is_refused_as_nvcc_refuses_it(tmp_path):
    """A kernel declared __device__ and launched with <<< >>>: nvcc stops
    ("a __device__ function call cannot be configured"); the emulator's
    rewriter stops too, at the launch, naming the declaration's line."""
    f = with_mistake(tmp_path, "02-tiled-matmul", "__global__ void MatrixMulKernel", "__device__ void MatrixMulKernel")
    text = kit.solution("02-tiled-matmul").read_text()
    decl = 1 + text.split("__global__ void MatrixMulKernel")[0].count("\n")
    launch = 1 + text.split("MatrixMulKernel<<<")[0].count("\n")
    rc, rep = kit.check_json("02-tiled-matmul", f, "emu", expect_rc=1)
    assert rep["fix_first"].startswith(f"the build: {f}:{launch}: error: MatrixMulKernel is declared __device__ "
                                       f"(line {decl}), not __global__"), rep["fix_first"]
