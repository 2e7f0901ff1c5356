"""macOS on Apple silicon, as far as a Linux machine can check it
(docs/emulator.md, Platforms): clang's Darwin target assembles the fiber
entry (src/ctx.S) and the fiber switch (include/emu_switch.h) into Mach-O
objects, the built-in variables' asm labels name the runtime's Mach-O
symbols, ctx.S stays ELF on Linux, and the grader's fallbacks for systems
without Linux's calls (#ifndef __linux__) compile. No macOS SDK here, so
nothing that includes a system header is compiled for Darwin: that list is
in docs/emulator.md."""
import re
import shutil
import subprocess

import pytest

import kit

EMU = kit.ROOT / "grader" / "emu"
DARWIN = "arm64-apple-macos11"
MACHO_64_MAGIC = b"\xcf\xfa\xed\xfe"  # MH_MAGIC_64, little-endian
ELF_MAGIC = b"\x7fELF"


@pytest.fixture(scope="module")
def clang():
    path = shutil.which("clang")
    if not path:
        pytest.skip("clang is not installed: the Darwin compile check needs it (Debian: apt-get install clang)")
    targets = subprocess.run([path, "--print-targets"], capture_output=True, text=True).stdout
    if "aarch64" not in targets:
        pytest.skip(f"{path} has no AArch64 back end: the Darwin compile check needs one")
    return path


def compile_ok(cmd):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "warning" not in p.stderr, p.stderr
    return p


@pytest.fixture(scope="module")
def nm(clang):
    path = subprocess.run([clang, "-print-prog-name=llvm-nm"], capture_output=True, text=True).stdout.strip()
    if not shutil.which(path):
        pytest.skip("llvm-nm is not installed: it reads the Mach-O objects' symbols (Debian: apt-get install llvm)")
    return path


def symbols(nm, obj):
    """(defined, undefined): the object's symbols of the emulator (emu_...,
    not the assembler's own local labels)."""
    def names(*flags):
        p = subprocess.run([nm, *flags, "--format=just-symbols", str(obj)], capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        return {n for n in p.stdout.split() if "emu_" in n}
    return names("--defined-only"), names("--undefined-only")


def test_fiber_entry_assembles_for_macos(clang, nm, tmp_path):
    obj = tmp_path / "ctx.o"
    compile_ok([clang, f"--target={DARWIN}", "-c", EMU / "src" / "ctx.S", "-o", obj])
    assert obj.read_bytes()[:4] == MACHO_64_MAGIC
    # C names carry Mach-O's underscore: emu_fiber_main is sched.c's
    assert symbols(nm, obj) == ({"_emu_fiber_entry"}, {"_emu_fiber_main"})


@pytest.mark.parametrize("target", ["aarch64-linux-gnu", "x86_64-linux-gnu"])
def test_fiber_entry_stays_elf_on_linux(clang, nm, tmp_path, target):
    obj = tmp_path / "ctx.o"
    compile_ok([clang, f"--target={target}", "-c", EMU / "src" / "ctx.S", "-o", obj])
    assert obj.read_bytes()[:4] == ELF_MAGIC
    assert symbols(nm, obj) == ({"emu_fiber_entry"}, {"emu_fiber_main"})
    # a non-executable stack, as before
    assert b".note.GNU-stack" in obj.read_bytes()


def test_fiber_switch_compiles_for_macos_without_warnings(clang, tmp_path):
    # emu_switch.h needs no system header: a freestanding unit compiles it
    src = tmp_path / "switch.c"
    src.write_text('#include "emu_switch.h"\n'
                   "void swap(struct emu_ctx *a, struct emu_ctx *b) { EMU_SWITCH(a, b); }\n")
    obj = tmp_path / "switch.o"
    compile_ok([clang, f"--target={DARWIN}", "-ffreestanding", "-O2", "-Wall", "-Wextra", "-I", EMU / "include",
                "-c", src, "-o", obj])
    assert obj.read_bytes()[:4] == MACHO_64_MAGIC


def builtin_variable_declarations(clang, tmp_path, target):
    """emu_device.h's declarations of threadIdx and the others, preprocessed
    for target (its system headers stand-ins: empty files)."""
    stubs = tmp_path / f"stubs-{target}"
    stubs.mkdir()
    for h in (EMU / "include").glob("*.h"):
        for name in re.findall(r"^#include <([^>]+)>", h.read_text(), re.M):
            (stubs / name).write_text("")
    p = subprocess.run([clang, f"--target={target}", "-x", "c++", "-E", "-P", "-nostdinc", "-nostdinc++",
                        "-I", str(EMU / "include"), "-isystem", str(stubs), str(EMU / "include" / "emu_device.h")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    decls = [l for l in p.stdout.splitlines() if l.startswith("extern __thread const") and "__asm__" in l]
    assert len(decls) == 4, decls
    return decls


@pytest.mark.parametrize("target, prefix", [(DARWIN, "_"), ("aarch64-linux-gnu", "")])
def test_builtin_variables_name_the_runtimes_symbols(clang, nm, tmp_path, target, prefix):
    # a use of threadIdx must reach base.c's emu_threadIdx_ as the
    # object format spells it; a label without the prefix would leave a
    # second, undefined symbol
    decls = builtin_variable_declarations(clang, tmp_path, target)
    src = tmp_path / f"use-{target}.c"
    src.write_text("typedef struct { unsigned x, y, z; } uint3, dim3;\n" + "\n".join(decls) + "\n"
                   "__thread uint3 emu_threadIdx_, emu_blockIdx_;\n__thread dim3 emu_blockDim_, emu_gridDim_;\n"
                   "unsigned global_x(void) { return blockIdx.x * blockDim.x + threadIdx.x + gridDim.x; }\n")
    obj = tmp_path / f"use-{target}.o"
    compile_ok([clang, f"--target={target}", "-ffreestanding", "-O2", "-c", src, "-o", obj])
    defined, undefined = symbols(nm, obj)
    variables = {prefix + v for v in ("emu_threadIdx_", "emu_blockIdx_", "emu_blockDim_", "emu_gridDim_")}
    assert variables <= defined, defined
    assert not undefined, undefined


# what `gpulab check` runs through, where Linux's calls have a fallback
FALLBACK_FILES = ["process.c", "sandbox.c", "sandbox_none.c", "sanitize.c", "util.c", "kit.c", "cgroup.c"]


@pytest.mark.parametrize("name", FALLBACK_FILES)
def test_the_graders_fallbacks_off_linux_compile(name):
    # the branches a system without __linux__ builds, compiled here against
    # this machine's POSIX headers (-U__linux__): they must at least compile
    flags = subprocess.run(["pkg-config", "--cflags", "libcjson", "libpng"], capture_output=True,
                           text=True).stdout.split()
    cc = shutil.which("gcc") or shutil.which("cc")
    compile_ok([cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-U__linux__", "-U__linux", "-Ulinux",
                "-U__gnu_linux__", *kit.grader_includes(), "-I", kit.ROOT / "grader" / "src" / "commands",
                *flags, "-fsyntax-only", kit.grader_src(name)])
