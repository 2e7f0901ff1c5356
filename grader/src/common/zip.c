/*
 * zip.c - see zip.h. Hand-written because the format's stored (uncompressed)
 * subset is a page of code and the machines that build the kit need no zlib
 * or libzip for it; zip(1) is used instead where it is installed (package.c).
 */
#include "zip.h"
#include "util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    static uint32_t table[256];
    static int ready;
    if (!ready) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        ready = 1;
    }
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static void le16(strbuf *sb, unsigned v)
{
    unsigned char b[2] = { (unsigned char)v, (unsigned char)(v >> 8) };
    sb_append(sb, (const char *)b, 2);
}

static void le32(strbuf *sb, uint32_t v)
{
    unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24) };
    sb_append(sb, (const char *)b, 4);
}

int zip_store(const char *zip_path, const char *base, char **files, int nfiles, char **why)
{
    strbuf z, cd;
    sb_init(&z);
    sb_init(&cd);
    const unsigned dos_time = 0, dos_date = (0 << 9) | (1 << 5) | 1; /* 1980-01-01 */
    for (int i = 0; i < nfiles; i++) {
        char *path = xasprintf("%s/%s", base, files[i]);
        size_t len;
        char *data = read_file(path, &len);
        struct stat st;
        if (!data || stat(path, &st) != 0) {
            *why = xasprintf("cannot read %s: %s", path, strerror(errno));
            free(path);
            sb_free(&z);
            sb_free(&cd);
            return -1;
        }
        if (len > 0xFFFFFFF0u) {
            *why = xasprintf("%s is too large for a zip without ZIP64", path);
            free(path);
            free(data);
            sb_free(&z);
            sb_free(&cd);
            return -1;
        }
        uint32_t crc = crc32_of((const unsigned char *)data, len);
        uint32_t offset = (uint32_t)z.len;
        size_t nlen = strlen(files[i]);
        le32(&z, 0x04034b50);
        le16(&z, 10);
        le16(&z, 0);
        le16(&z, 0);
        le16(&z, dos_time);
        le16(&z, dos_date);
        le32(&z, crc);
        le32(&z, (uint32_t)len);
        le32(&z, (uint32_t)len);
        le16(&z, (unsigned)nlen);
        le16(&z, 0);
        sb_append(&z, files[i], nlen);
        sb_append(&z, data, len);
        le32(&cd, 0x02014b50);
        le16(&cd, 0x031E); /* made by Unix, zip 3.0: the external attributes hold the mode */
        le16(&cd, 10);
        le16(&cd, 0);
        le16(&cd, 0);
        le16(&cd, dos_time);
        le16(&cd, dos_date);
        le32(&cd, crc);
        le32(&cd, (uint32_t)len);
        le32(&cd, (uint32_t)len);
        le16(&cd, (unsigned)nlen);
        le16(&cd, 0);
        le16(&cd, 0);
        le16(&cd, 0);
        le16(&cd, 0);
        le32(&cd, (uint32_t)(0100000 | (st.st_mode & 0777)) << 16);
        le32(&cd, offset);
        sb_append(&cd, files[i], nlen);
        free(data);
        free(path);
    }
    uint32_t cd_offset = (uint32_t)z.len;
    sb_append(&z, cd.buf ? cd.buf : "", cd.len);
    le32(&z, 0x06054b50);
    le16(&z, 0);
    le16(&z, 0);
    le16(&z, (unsigned)nfiles);
    le16(&z, (unsigned)nfiles);
    le32(&z, (uint32_t)cd.len);
    le32(&z, cd_offset);
    le16(&z, 0);
    int rc = write_private_file(zip_path, z.buf ? z.buf : "", z.len);
    if (rc != 0)
        *why = xasprintf("cannot write %s: %s", zip_path, strerror(errno));
    sb_free(&z);
    sb_free(&cd);
    return rc;
}
