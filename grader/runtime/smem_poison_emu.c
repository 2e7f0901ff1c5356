/*
 * smem_poison_emu.c - see smem_poison.h (the emulator build): nothing to do,
 * because the emulator fills each block's shared memory with NaN when the
 * block starts.
 */
#include "smem_poison.h"

void harness_poison_shared_memory(void)
{
}
