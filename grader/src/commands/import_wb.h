/*
 * import_wb.h - `gpulab import-wb DIR LAB`: a Teaching Kit lab folder
 * becomes a lab of this kit (docs/teaching-kit.md).
 */
#ifndef GPULAB_IMPORT_WB_H
#define GPULAB_IMPORT_WB_H

/* gpulab import-wb DIR LAB [--backend gpu|emu]: exit 0 when imported; dies
 * (exit 2) naming what was wrong with the folder otherwise. */
int cmd_import_wb(int argc, char **argv);

#endif
