/*
 * import_wb.h - `gpulab import-wb DIR LAB`: a Teaching Kit lab folder
 * becomes a lab of this kit; `gpulab import-wb --all KIT_ROOT`: every lab
 * folder under a copy of the Kit, and a table of how each went
 * (docs/teaching-kit.md).
 */
#ifndef GPULAB_IMPORT_WB_H
#define GPULAB_IMPORT_WB_H

/* The command's options (their table is main.c's, import_wb_options). */
typedef struct {
    const char *backend_name;   /* --backend gpu|emu, or NULL */
    const char *sandbox;        /* --sandbox MODE, or NULL (auto) */
    int no_requirements;        /* --no-requirements */
    int all;                    /* --all: the one word is a Kit's root */
} import_options;

/* gpulab import-wb DIR LAB: exit 0 when imported; dies (exit 2) naming
 * what was wrong with the folder otherwise. */
int import_wb_lab(const char *folder, const char *id, const import_options *o);

/* gpulab import-wb --all KIT_ROOT: each lab folder under KIT_ROOT (one with
 * a solution.cu or a template.cu) imported as kit-<its name> by a run of
 * `gpulab import-wb` of its own, then the Kit's solution checked in it;
 * prints the table. 0 when at least one lab imported, 1 when none did. */
int import_wb_all(const char *kit_root, const import_options *o);

#endif
