# emu.mk - the gpulab CPU emulator (grader/emu), a GNU Make fragment.
# Included by the kit's Makefile from the repository root; also usable alone:
#     make -f grader/emu/emu.mk emu
# Everything it builds goes under build/emu/:
#     build/emu/emucc            the compiler driver
#     build/emu/include/         the headers (a copy of grader/emu/include)
#     build/emu/libemu.a         runtime, default mode
#     build/emu/libemu_race.a    runtime for emucc --race (races and bounds,
#                                on ThreadSanitizer's instrumentation)
#     build/emu/libemu_race_faults.a    for emucc --race --list-faults
#     build/emu/libemu_check.a   runtime for emucc --check (AddressSanitizer)
#     build/emu/libemu_check_faults.a   for emucc --check --list-faults
#     build/emu/pch/MODE/        emu_device.h precompiled for each mode (default,
#                                race, check): emucc --make-pch, emucc.c says why

CC ?= gcc
CXX ?= g++
EMU_CC := build/emu/emucc
EMU_INCLUDE := grader/emu/include

EMU_DIR := build/emu
EMU_CFLAGS := -std=c11 -Wall -Wextra -O2 -g
EMU_HEADERS := $(wildcard grader/emu/include/*.h)
EMU_RT_SRC := grader/emu/src/runtime.c grader/emu/src/check.inc grader/emu/src/race.inc grader/emu/src/tiles.inc grader/emu/src/faults.inc grader/emu/src/copies.inc grader/emu/src/unset.inc \
              $(EMU_HEADERS)
EMU_BUILD_HEADERS := $(patsubst grader/emu/include/%,$(EMU_DIR)/include/%,$(EMU_HEADERS))

# emu_device.h precompiled, one per mode; emucc uses one only with the
# compiler that made it (CXX), so a kit built with g++ still builds with
# CXX=clang++, at the old speed
EMU_PCH := $(EMU_DIR)/pch/default/emu_device.h.gch $(EMU_DIR)/pch/race/emu_device.h.gch \
           $(EMU_DIR)/pch/check/emu_device.h.gch
EMU_PCH_FLAG_default :=
EMU_PCH_FLAG_race := --race
EMU_PCH_FLAG_check := --check

.PHONY: emu
emu: $(EMU_DIR)/emucc $(EMU_DIR)/libemu.a $(EMU_DIR)/libemu_race.a $(EMU_DIR)/libemu_race_faults.a \
     $(EMU_DIR)/libemu_check.a \
     $(EMU_DIR)/libemu_check_faults.a $(EMU_BUILD_HEADERS) $(EMU_PCH)

$(EMU_DIR)/pch/%/emu_device.h.gch: $(EMU_DIR)/emucc $(EMU_BUILD_HEADERS)
	$(EMU_DIR)/emucc $(EMU_PCH_FLAG_$*) --make-pch

$(EMU_DIR)/include/%.h: grader/emu/include/%.h
	@mkdir -p $(@D)
	cp $< $@

# emucc links with gold where gold links a C++ program (plain and with
# AddressSanitizer) with this CXX: emucc.c, gold_linker()
EMUCC_SRC := grader/emu/src/emucc.c grader/emu/src/rewrite.c grader/emu/src/util.c
$(EMU_DIR)/emucc: $(EMUCC_SRC) grader/emu/src/rewrite.h grader/emu/src/util.h
	@mkdir -p $(@D)
	@printf 'int main() { return 0; }\n' > $(@D)/gold-probe.cpp; \
	 gold=0; $(CXX) -fuse-ld=gold $(@D)/gold-probe.cpp -o $(@D)/gold-probe > /dev/null 2>&1 && \
	 $(CXX) -fuse-ld=gold -fsanitize=address $(@D)/gold-probe.cpp -o $(@D)/gold-probe > /dev/null 2>&1 && gold=1; \
	 rm -f $(@D)/gold-probe $(@D)/gold-probe.cpp; \
	 $(CC) $(EMU_CFLAGS) -DEMU_GOLD=$$gold -DEMU_GOLD_CXX='"$(CXX)"' -o $@ $(EMUCC_SRC)

$(EMU_DIR)/ctx.o: grader/emu/src/ctx.S
	@mkdir -p $(@D)
	$(CC) -c $< -o $@

$(EMU_DIR)/runtime.o: $(EMU_RT_SRC)
	@mkdir -p $(@D)
	$(CC) $(EMU_CFLAGS) -Igrader/emu/include -c grader/emu/src/runtime.c -o $@

$(EMU_DIR)/runtime_race.o: $(EMU_RT_SRC)
	@mkdir -p $(@D)
	$(CC) $(EMU_CFLAGS) -DEMU_RACE -Igrader/emu/include -c grader/emu/src/runtime.c -o $@

$(EMU_DIR)/runtime_race_faults.o: $(EMU_RT_SRC)
	@mkdir -p $(@D)
	$(CC) $(EMU_CFLAGS) -DEMU_RACE -DEMU_LIST_FAULTS -Igrader/emu/include -c grader/emu/src/runtime.c -o $@

$(EMU_DIR)/runtime_check.o: $(EMU_RT_SRC)
	@mkdir -p $(@D)
	$(CC) $(EMU_CFLAGS) -DEMU_CHECK -Igrader/emu/include -c grader/emu/src/runtime.c -o $@

$(EMU_DIR)/runtime_check_faults.o: $(EMU_RT_SRC)
	@mkdir -p $(@D)
	$(CC) $(EMU_CFLAGS) -DEMU_CHECK -DEMU_LIST_FAULTS -Igrader/emu/include -c grader/emu/src/runtime.c -o $@

$(EMU_DIR)/libemu.a: $(EMU_DIR)/runtime.o $(EMU_DIR)/ctx.o
	rm -f $@
	ar rcs $@ $^

$(EMU_DIR)/libemu_race.a: $(EMU_DIR)/runtime_race.o $(EMU_DIR)/ctx.o
	rm -f $@
	ar rcs $@ $^

$(EMU_DIR)/libemu_race_faults.a: $(EMU_DIR)/runtime_race_faults.o $(EMU_DIR)/ctx.o
	rm -f $@
	ar rcs $@ $^

$(EMU_DIR)/libemu_check.a: $(EMU_DIR)/runtime_check.o $(EMU_DIR)/ctx.o
	rm -f $@
	ar rcs $@ $^

$(EMU_DIR)/libemu_check_faults.a: $(EMU_DIR)/runtime_check_faults.o $(EMU_DIR)/ctx.o
	rm -f $@
	ar rcs $@ $^
