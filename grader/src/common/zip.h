/*
 * zip.h - a zip archive of files, stored without compression.
 */
#ifndef GPULAB_ZIP_H
#define GPULAB_ZIP_H

/* Writes a zip of files (paths relative to base) with no compression.
 * Returns 0, or -1 with *why set. */
int zip_store(const char *zip_path, const char *base, char **files, int nfiles, char **why);

#endif
