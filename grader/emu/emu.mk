# emu.mk - the gpulab CPU emulator (grader/emu), a GNU Make fragment.
# Included by the kit's Makefile from the repository root; also usable alone:
#     make -f grader/emu/emu.mk emu
# Everything it builds goes under build/emu/:
#     build/emu/emucc            the compiler driver
#     build/emu/include/         the headers (a copy of grader/emu/include)
#     build/emu/libemu.a         runtime, default mode (its parts: src/rt_int.h)
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
EMU_BUILD_HEADERS_SRC := grader/emu/src/rt_int.h $(EMU_HEADERS)
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
EMUCC_SRC := grader/emu/src/emucc.c grader/emu/src/rewrite.c grader/emu/src/facts.c grader/emu/src/schemata.c grader/emu/src/schemata_expr.c \
            grader/emu/src/util.c
$(EMU_DIR)/emucc: $(EMUCC_SRC) grader/emu/src/rewrite.h grader/emu/src/rewrite_int.h grader/emu/src/schemata_int.h \
                 grader/emu/src/util.h
	@mkdir -p $(@D)
	@printf 'int main() { return 0; }\n' > $(@D)/gold-probe.cpp; \
	 gold=0; $(CXX) -fuse-ld=gold $(@D)/gold-probe.cpp -o $(@D)/gold-probe > /dev/null 2>&1 && \
	 $(CXX) -fuse-ld=gold -fsanitize=address $(@D)/gold-probe.cpp -o $(@D)/gold-probe > /dev/null 2>&1 && gold=1; \
	 rm -f $(@D)/gold-probe $(@D)/gold-probe.cpp; \
	 $(CC) $(EMU_CFLAGS) -DEMU_GOLD=$$gold -DEMU_GOLD_CXX='"$(CXX)"' -o $@ $(EMUCC_SRC)

$(EMU_DIR)/ctx.o: grader/emu/src/ctx.S
	@mkdir -p $(@D)
	$(CC) -c $< -o $@

# The runtime in parts (src/rt_int.h lists them). base and copies have no
# mode's code and are compiled once; the rest once per mode that links
# them; fault_list.c also with EMU_LIST_FAULTS. Each library's parts are
# linked into one object (runtime*.o) whose hidden names, all the parts
# share, are then made local: to the program, as file-scope statics.
EMU_RT_COMMON := base copies
EMU_RT_MODED := alloc memory device sched faults launch
EMU_RT_FLAGS_default :=
EMU_RT_FLAGS_race := -DEMU_RACE
EMU_RT_FLAGS_race_faults := -DEMU_RACE -DEMU_LIST_FAULTS
EMU_RT_FLAGS_check := -DEMU_CHECK
EMU_RT_FLAGS_check_faults := -DEMU_CHECK -DEMU_LIST_FAULTS
EMU_RT_PARTS_common := $(EMU_RT_COMMON:%=common/%)
EMU_RT_PARTS_default := $(EMU_RT_PARTS_common) $(EMU_RT_MODED:%=default/%)
EMU_RT_PARTS_race := $(EMU_RT_PARTS_common) $(EMU_RT_MODED:%=race/%) race/race race/unset race/tiles
EMU_RT_PARTS_race_faults := $(EMU_RT_PARTS_race) race_faults/fault_list
EMU_RT_PARTS_race += race/fault_list
EMU_RT_PARTS_check := $(EMU_RT_PARTS_common) $(EMU_RT_MODED:%=check/%) check/check
EMU_RT_PARTS_check_faults := $(EMU_RT_PARTS_check) check_faults/fault_list
EMU_RT_PARTS_check += check/fault_list

$(EMU_DIR)/rt/common/%.o: grader/emu/src/%.c $(EMU_BUILD_HEADERS_SRC)
	@mkdir -p $(@D)
	$(CC) $(EMU_CFLAGS) -Igrader/emu/include -c $< -o $@

define EMU_RT_MODE_RULES
$$(EMU_DIR)/rt/$(1)/%.o: grader/emu/src/%.c $$(EMU_BUILD_HEADERS_SRC)
	@mkdir -p $$(@D)
	$$(CC) $$(EMU_CFLAGS) $$(EMU_RT_FLAGS_$(1)) -Igrader/emu/include -c $$< -o $$@

$$(EMU_DIR)/runtime$(2).o: $$(EMU_RT_PARTS_$(1):%=$$(EMU_DIR)/rt/%.o)
	$$(LD) -r -o $$@ $$^
	$$(OBJCOPY) --localize-hidden $$@
endef
LD ?= ld
OBJCOPY ?= objcopy
$(eval $(call EMU_RT_MODE_RULES,default,))
$(eval $(call EMU_RT_MODE_RULES,race,_race))
$(eval $(call EMU_RT_MODE_RULES,race_faults,_race_faults))
$(eval $(call EMU_RT_MODE_RULES,check,_check))
$(eval $(call EMU_RT_MODE_RULES,check_faults,_check_faults))

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
