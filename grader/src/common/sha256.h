/*
 * sha256.h - SHA-256 (FIPS 180-4), for the fingerprints a grading record
 * carries: the submission's bytes, each dataset's files.
 */
#ifndef GPULAB_SHA256_H
#define GPULAB_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char block[64];
    size_t used;
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t len);
/* hex: 65 bytes (64 lowercase hex digits and a NUL). */
void sha256_final_hex(sha256_ctx *c, char hex[65]);

/* The digest of a buffer, or of a file's bytes (-1 with errno when unreadable). */
void sha256_hex(const void *data, size_t len, char hex[65]);
int sha256_file_hex(const char *path, char hex[65]);

/* The digest of a directory's regular files, in name order: for each file,
 * its name, a NUL, its length in decimal, a NUL, then its bytes. Files whose
 * names start with "." are skipped. -1 when unreadable. */
int sha256_dir_hex(const char *dir, char hex[65]);

#endif
