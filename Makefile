# The kit's build. Two commands do everything (README.md):
#   make        build the kit, then grade every reference solution on the
#               default backend (the GPU if one is usable, else the emulator)
#   make test   build the kit, then run the whole test suite
# Also: make check   the quick tests (the suite less those marked slow, each parametrized test
#                    with its first case only), for the edit loop
#       make check LAB=01-basic-matmul FILE=path/to/basic_matmul.cu
#       make datasets   (regenerate every lab's public datasets)
#       make clean

.DEFAULT_GOAL := all
SHELL := /bin/bash
.DELETE_ON_ERROR:

CC := gcc
KIT_CFLAGS := -std=c11 -O2 -g -Wall -Wextra
PYTHON ?= python3

# CUDA: nvcc on PATH, else the usual place. Without it only the emulator works.
NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
CUDA_INCLUDE ?= $(if $(NVCC),$(patsubst %/bin/nvcc,%,$(realpath $(NVCC)))/include)

# What the kit needs (a C compiler, pkg-config, cJSON, libpng) is installed, when it
# is missing, before anything is built: grader/install-deps.sh, the one home of
# that logic, uses the distribution's packages as root or through `sudo -n`.
# Where it cannot, make stops with the one line it prints. `make clean` needs
# nothing; a cJSON or libpng given on the command line is not looked for.
ifneq ($(filter-out clean,$(or $(MAKECMDGOALS),all)),)
DEPS_PROBLEM := $(shell CC='$(CC)' \
    CJSON_LIBS='$(if $(filter command line environment,$(origin CJSON_LIBS)),$(CJSON_LIBS))' \
    PNG_LIBS='$(if $(filter command line environment,$(origin PNG_LIBS)),$(PNG_LIBS))' \
    $(SHELL) grader/install-deps.sh build)
ifneq ($(DEPS_PROBLEM),)
$(error $(DEPS_PROBLEM))
endif
endif

# cJSON from the system (pkg-config), or from the command line:
#   make CJSON_CFLAGS=-I/opt/cjson/include CJSON_LIBS='-L/opt/cjson/lib -lcjson'
CJSON_CFLAGS ?= $(shell pkg-config --cflags libcjson 2>/dev/null)
CJSON_LIBS ?= $(shell pkg-config --libs libcjson 2>/dev/null)
# libpng, for the image labs' error maps (grader/src/checkers/errormap.c), the same way:
#   make PNG_CFLAGS=-I/opt/png/include PNG_LIBS='-L/opt/png/lib -lpng16'
PNG_CFLAGS ?= $(shell pkg-config --cflags libpng 2>/dev/null)
PNG_LIBS ?= $(shell pkg-config --libs libpng 2>/dev/null)

LABS := $(patsubst labs/%/lab.json,%,$(wildcard labs/*/lab.json))

# The CPU emulator brings its own makefile fragment (targets `emu`, EMU_CC, EMU_INCLUDE).
EMU_MK := $(wildcard grader/emu/emu.mk)
ifneq ($(EMU_MK),)
include $(EMU_MK)
endif

# ---- the grader -------------------------------------------------------------
# grader/src/ by layer (docs/architecture.md), each including only those
# below it: common/ (what all share), jail/ (running a program: the
# sandbox, child processes, control groups) and checkers/ (evidence read,
# never run), pipeline/ (one submission's path, and the stages that run
# programs again), commands/ and class/ (what drives the pipeline), then
# main.c.
GRADER_LAYERS := pipeline checkers jail class commands common
GRADER_SRC := grader/src/main.c $(foreach l,$(GRADER_LAYERS),$(wildcard grader/src/$(l)/*.c))
GRADER_HDR := $(foreach l,$(GRADER_LAYERS),$(wildcard grader/src/$(l)/*.h))
GRADER_INC := -Igrader/src $(addprefix -Igrader/src/,$(GRADER_LAYERS))
GRADER_OBJ := $(patsubst grader/src/%.c,build/host/%.o,$(GRADER_SRC)) build/host/dataset.o build/host/tolerance.o

gpulab: $(GRADER_OBJ) | deps
	$(CC) $(KIT_CFLAGS) -o $@ $^ $(CJSON_LIBS) $(PNG_LIBS) -lm

# The first process of a sandboxed run (grader/src/libexec/run-init.c): a
# program of its own, exec'd, so that pid 1 of a run is not a fork of the
# grader; static, so that it needs nothing of the run's root.
RUN_INIT := build/libexec/gpulab-run-init
$(RUN_INIT): grader/src/libexec/run-init.c
	@mkdir -p $(@D)
	$(CC) $(KIT_CFLAGS) -static -o $@ $< || $(CC) $(KIT_CFLAGS) -o $@ $<

build/host/%.o: grader/src/%.c $(GRADER_HDR) grader/runtime/dataset.h grader/runtime/rng.h \
                grader/runtime/harness_protocol.h grader/runtime/tolerance.h | deps
	@mkdir -p $(@D)
	$(CC) $(KIT_CFLAGS) $(GRADER_INC) $(CJSON_CFLAGS) $(PNG_CFLAGS) -c $< -o $@

build/host/dataset.o: grader/runtime/dataset.c grader/runtime/dataset.h
	@mkdir -p $(@D)
	$(CC) $(KIT_CFLAGS) -c $< -o $@

build/host/tolerance.o: grader/runtime/tolerance.c grader/runtime/tolerance.h grader/runtime/dataset.h
	@mkdir -p $(@D)
	$(CC) $(KIT_CFLAGS) -c $< -o $@

# ---- dataset generators: build/gen/<lab>/generate ---------------------------
# A lab imported from the Teaching Kit (gpulab import-wb) has no generator.
GENERATORS := $(foreach lab,$(LABS),$(if $(wildcard labs/$(lab)/generate.c),build/gen/$(lab)/generate))

build/gen/%/generate: labs/%/generate.c grader/runtime/generate.c build/host/dataset.o \
                      grader/runtime/generate.h grader/runtime/dataset.h grader/runtime/rng.h
	@mkdir -p $(@D)
	$(CC) $(KIT_CFLAGS) -Igrader/runtime -o $@ labs/$*/generate.c grader/runtime/generate.c \
	    build/host/dataset.o -lm -pthread

# ---- lab harnesses, once per backend: build/harness/<backend>/... -----------
RUNTIME_HDR := grader/runtime/harness.h grader/runtime/dataset.h grader/runtime/lab_common.h \
               grader/runtime/guard.h grader/runtime/smem_poison.h grader/runtime/harness_protocol.h \
               grader/runtime/timing.h

define backend_rules
build/harness/$(1)/dataset.o: grader/runtime/dataset.c $(RUNTIME_HDR)
	@mkdir -p $$(@D)
	$(CC) $(KIT_CFLAGS) -c $$< -o $$@
build/harness/$(1)/harness_common.o: grader/runtime/harness.c $(RUNTIME_HDR) $(3)
	@mkdir -p $$(@D)
	$(CC) $(KIT_CFLAGS) -I$(2) -c $$< -o $$@
build/harness/$(1)/guard.o: grader/runtime/guard.c $(RUNTIME_HDR) $(3)
	@mkdir -p $$(@D)
	$(CC) $(KIT_CFLAGS) -I$(2) -c $$< -o $$@
build/harness/$(1)/guard_off.o: grader/runtime/guard.c $(RUNTIME_HDR) $(3)
	@mkdir -p $$(@D)
	$(CC) $(KIT_CFLAGS) -DGPULAB_NO_GUARDS -I$(2) -c $$< -o $$@
build/harness/$(1)/timing.o: grader/runtime/timing.c $(RUNTIME_HDR) $(3)
	@mkdir -p $$(@D)
	$(CC) $(KIT_CFLAGS) -I$(2) -c $$< -o $$@
build/harness/$(1)/harness_main.o: grader/runtime/harness_main.c $(RUNTIME_HDR) $(3)
	@mkdir -p $$(@D)
	$(CC) $(KIT_CFLAGS) -I$(2) -c $$< -o $$@
build/harness/$(1)/libgpulab_runtime.a: build/harness/$(1)/dataset.o build/harness/$(1)/harness_common.o \
                                        build/harness/$(1)/guard.o build/harness/$(1)/timing.o \
                                        build/harness/$(1)/smem_poison.o
	rm -f $$@
	ar rcs $$@ $$^
# The same for the checkers' builds (the sanitizer stage): no guard zones.
build/harness/$(1)/libgpulab_runtime_checkers.a: build/harness/$(1)/dataset.o build/harness/$(1)/harness_common.o \
                                                 build/harness/$(1)/guard_off.o build/harness/$(1)/timing.o \
                                                 build/harness/$(1)/smem_poison.o
	rm -f $$@
	ar rcs $$@ $$^
# (an imported Kit lab's harness.c includes grader/runtime/wb/wb_harness.c)
build/harness/$(1)/%/harness.o: labs/%/harness.c labs/%/lab.h $(RUNTIME_HDR) $(3) \
                                grader/runtime/wb/wb_harness.c grader/runtime/wb/wb_runtime.h
	@mkdir -p $$(@D)
	$(CC) $(KIT_CFLAGS) -I$(2) -Igrader/runtime -Ilabs/$$* -c $$< -o $$@
# libwb's API for Teaching Kit programs (gpulab wb): its own archive, with
# the readers and the comparison rule, and no harness.
build/harness/$(1)/tolerance.o: grader/runtime/tolerance.c grader/runtime/tolerance.h grader/runtime/dataset.h
	@mkdir -p $$(@D)
	$(CC) $(KIT_CFLAGS) -c $$< -o $$@
build/harness/$(1)/wb.o: grader/runtime/wb/wb.c grader/runtime/wb/wb_runtime.h grader/runtime/tolerance.h \
                         grader/runtime/dataset.h
	@mkdir -p $$(@D)
	$(CC) $(KIT_CFLAGS) -Igrader/runtime -c $$< -o $$@
build/harness/$(1)/libgpulab_wb.a: build/harness/$(1)/wb.o build/harness/$(1)/dataset.o build/harness/$(1)/tolerance.o
	rm -f $$@
	ar rcs $$@ $$^
HARNESS_$(1) := build/harness/$(1)/libgpulab_wb.a build/harness/$(1)/libgpulab_runtime.a \
                build/harness/$(1)/libgpulab_runtime_checkers.a build/harness/$(1)/harness_main.o $(foreach lab,$(LABS),build/harness/$(1)/$(lab)/harness.o)
endef

ifneq ($(CUDA_INCLUDE),)
$(eval $(call backend_rules,gpu,$(CUDA_INCLUDE),))
# The GPU's shared-memory poisoning is a kernel, so nvcc builds it; PTX only,
# so the driver compiles it for whatever GPU the kit finds.
build/harness/gpu/smem_poison.o: grader/runtime/smem_poison.cu grader/runtime/smem_poison.h
	@mkdir -p $(@D)
	$(NVCC) -arch=compute_75 -code=compute_75 -c $< -o $@
endif
ifneq ($(EMU_MK),)
$(eval $(call backend_rules,emu,$(EMU_INCLUDE),$(wildcard $(EMU_INCLUDE)/*.h)))
build/harness/emu/smem_poison.o: grader/runtime/smem_poison_emu.c grader/runtime/smem_poison.h
	@mkdir -p $(@D)
	$(CC) $(KIT_CFLAGS) -c $< -o $@
EMU_TARGETS := emu $(HARNESS_emu)
endif

# ---- top-level targets ----------------------------------------------------------
.PHONY: all kit deps test check bench datasets clean grade-solutions dist-student lab-harness

kit: gpulab $(RUN_INIT) $(GENERATORS) $(HARNESS_gpu) $(EMU_TARGETS)

# One lab's harness on each backend the kit has: how gpulab import-wb
# builds the lab it has just imported (make lab-harness LAB=06-kit-conv).
lab-harness: $(filter build/harness/%/$(LAB)/harness.o,$(HARNESS_gpu) $(HARNESS_emu))
	@test -n "$(LAB)" -a -f "labs/$(LAB)/lab.json" || { echo "usage: make lab-harness LAB=ID (a lab of labs/)"; exit 2; }

# install-deps.sh ran when this makefile was read; this only guards a cJSON
# given by hand that is empty.
deps:
	@test -n "$(CJSON_LIBS)" || { echo "make: CJSON_LIBS is empty: give the flags that link cJSON, e.g. CJSON_LIBS='-L/opt/cjson/lib -lcjson'"; exit 1; }

# The main job: every lab's reference solution, graded on the default backend.
all: kit
	@$(MAKE) --no-print-directory grade-solutions

grade-solutions:
	@status=0; for lab in $(LABS); do \
	    for f in solutions/$$lab/*.cu; do \
	        [ -e "$$f" ] || continue; \
	        ./gpulab check $$lab $$f || status=1; echo; \
	    done; \
	done; \
	if [ $$status -ne 0 ]; then echo "make: a reference solution did not pass (see above)"; fi; exit $$status

# The performance ladder (GPU): every lab's reference solution, the stretch
# solutions and the baselines (cuBLAS, a device copy), measured in one run;
# a table, build/bench/ladder.txt, and a picture, build/bench/ladder.svg.
bench: kit
	./gpulab bench --ladder --out build/bench

check: kit
ifneq ($(LAB)$(FILE),)
	@test -n "$(LAB)" -a -n "$(FILE)" || { echo "usage: make check LAB=01-basic-matmul FILE=path/to/file.cu (or make check alone: the quick tests)"; exit 2; }
	./gpulab check $(LAB) $(FILE)
else
	@$(PYTEST_RUN) -m "not slow and not later_case"; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make check: pytest collected no tests: the test setup is broken"; fi; \
	exit $$rc
endif

datasets: kit
	@for lab in $(LABS); do ./gpulab datasets $$lab || exit 1; done

# install-deps.sh installs pytest where it is missing (the distribution's
# python3-pytest, else a private virtual environment under build/), and
# pytest-xdist where it can, and says which python has it. With xdist the
# suite runs on every core (PYTEST_WORKERS=N to choose): the tests that
# share a module fixture (a graded class, a built program) together on one
# worker, so that it is made once, every other test on its own, the costly
# units first (grader/tests/conftest.py, shared_work_first).
# pytest's exit status 5 means it collected no test: a broken test setup,
# which is neither a pass nor an ordinary failure; say so.
#   make test    the whole suite (CI runs exactly this)
#   make check   the quick part, for the edit loop: the tests not marked
#                slow or later_case (grader/tests/conftest.py says which
#                are: a parametrized test's cases after its first); with LAB and
#                FILE, a check of one file instead (see the top of this file)
PYTEST_WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
PYTEST_RUN = py=$$(PYTHON='$(PYTHON)' $(SHELL) grader/install-deps.sh test) || exit 1; \
	par=; "$$py" -c 'import xdist' 2>/dev/null && par="-n $(PYTEST_WORKERS) --dist loadgroup"; \
	"$$py" -m pytest grader/tests -q -rfEs $$par
test: kit
	@$(PYTEST_RUN); rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests: the test setup is broken"; fi; \
	exit $$rc

# The students' release: the kit without solutions (mutants, variants),
# tests (attack programs), the instructors' answer keys (docs/instructor/),
# or anything secret, checked by building it and
# running every skeleton from it on the emulator.
DIST_STUDENT := build/dist/gpulab-student.tar.gz
dist-student:
	@rm -rf build/dist && mkdir -p build/dist
	git ls-files -z | grep -zv -e '^solutions/' -e '^grader/tests/' -e '^\.ci/' -e '^docs/instructor/' -e 'secret' \
	    | tar --null -T - --transform 's,^,gpulab-student/,' -czf $(DIST_STUDENT)
	@! tar -tzf $(DIST_STUDENT) | grep -E '(^|/)(solutions|mutants|variants|tests)/|^gpulab-student/docs/instructor/|secret' \
	    || { echo "make dist-student: the tarball holds something it must not"; exit 1; }
	@mkdir -p build/dist/check && tar -xzf $(DIST_STUDENT) -C build/dist/check
	$(MAKE) --no-print-directory -C build/dist/check/gpulab-student kit
	@cd build/dist/check/gpulab-student && for lab in $(LABS); do \
	    src=$$(sed -n 's/.*"source": *"\([^"]*\)".*/\1/p' labs/$$lab/lab.json); \
	    ./gpulab check $$lab skeletons/$$lab/$$src --backend emu --format json > ../$$lab.json; rc=$$?; \
	    if [ $$rc -gt 1 ] || ! grep -Eq '"ok":[[:space:]]*true' ../$$lab.json; then \
	        echo "make dist-student: the skeleton of $$lab does not build and run (exit $$rc)"; exit 1; fi; \
	    echo "dist-student: $$lab's skeleton builds and runs (exit $$rc)"; \
	done
	@echo "make dist-student: wrote $(DIST_STUDENT)"

clean:
	rm -rf build gpulab
