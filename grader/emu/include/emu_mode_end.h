/*
 * emu_mode_end.h - force-included by emucc after emu_device.h (after its
 * precompiled form, which would restore the macros had emu_device.h
 * undefined them itself): the build's mode (emucc --race, --check) was for
 * the emulator's headers alone. Nothing in the student's file can test it,
 * so that no `#if` hides code from the checkers' builds only; emucc also
 * undefines the compiler's own __SANITIZE_THREAD__ and __SANITIZE_ADDRESS__,
 * and _FORTIFY_SOURCE in every mode.
 */
#undef EMU_MODE_SANITIZE
#undef EMU_MODE_RACE
