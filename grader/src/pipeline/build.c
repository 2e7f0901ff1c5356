/*
 * build.c - see build.h.
 *
 * The student's file is copied into a build folder of its own under the lab's
 * source name, behind a #line directive carrying the name the student gave,
 * so every diagnostic names their own file and line. Beside it go copies of
 * the only kit files the compiler may see: the lab's headers and the
 * runtime's, the prebuilt harness, and (emulator) emucc with its headers and
 * runtimes. The compiler and linker run in the sandbox (sandbox.h) as the
 * run's unprivileged user, with that folder as their only writable place,
 * time, memory and file-size limits, and nothing else of the kit, the class
 * or the machine's private files in sight: an `#include` of a solution, a
 * classmate's file or a secret finds nothing.
 */
#define _GNU_SOURCE
#include "build.h"
#include "build_words.h"
#include "requirements.h"
#include "source.h"
#include "kit.h"
#include "process.h"
#include "sha256.h"
#include "stages.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define BUILD_TIMEOUT_S 300
/* A checkers' build (the emulator's race build, compute-sanitizer's relink)
 * is a lab file's build like the graded one, a second or so: one that takes
 * a minute is stopped and reported (the checkers then earn nothing), never
 * waited for as long as a graded build may take. */
#define CHECKER_BUILD_TIMEOUT_S 60
#define BUILD_LOG_CAP (256 * 1024)
/* No file a compiler writes for a lab file comes near this; an inline
 * `.space` of gigabytes stops here. */
#define BUILD_FILE_CAP (256LL << 20)
/* Below this much free space under a build folder, a failed build is the
 * machine's fault (blame_the_machine). */
#define BUILD_MACHINE_MIN_FREE (16ULL << 20)
/* A grading build compiles the student's file after emucc's source pass
 * (--poison-shared on a GPU, --source-pass on the emulator), which adds the
 * kernel token; the file is removed once compiled, so no run can read it. */
#define POISONED_SOURCE "student-poisoned.cu"
/* On the emulator the token goes to emucc in this file, which emucc reads
 * and removes before any compiler starts (--kernel-token-file). */
#define TOKEN_FILE "kernel-token"
/* On a GPU nvcc reads its source from a file, and its host compile's
 * assembler takes `.incbin` of any file in reach (the marked source, the
 * PTX in keep/): the whole file is compiled with a decoy token into
 * HOST_OBJECT, and only then its device code alone (nvcc -fatbin, no host
 * compiler, no assembler) with the real one into DEVICE_FATBIN, which
 * replaces the decoy's device code in the object (put_token_in_device_code). */
#define HOST_OBJECT "student-host.o"
#define DEVICE_FATBIN "student-device.fatbin"
/* The section of a host object that holds its device code (nvcc's fatbin). */
#define FATBIN_SECTION ".nv_fatbin"
/* A Teaching Kit program's name in its build folder (it has no lab). */
#define WB_SOURCE "wb_program.cu"
/* Every build's program, graded or checked: runs look alike (sanitize.c). */
#define PROGRAM_NAME "lab-program"
/* Defined when a submission to one of the kit's own labs is compiled: its
 * wb.h (grader/runtime/wb) then makes the calls that need the program's own
 * command line or files compile errors, with this in their message. */
#define WB_LAB_DEFINE "-DGPULAB_LAB_BUILD"
#define WB_LAB_MARKER "() is not for a lab of this kit"

/* The grader's own secret for this process, from which each work
 * directory's kernel token is derived: forked builds and the parent that
 * judges their runs agree without writing the token anywhere. */
static unsigned char token_key[32];
static int token_key_ready;

void build_init(void)
{
    if (getentropy(token_key, sizeof token_key) != 0)
        die("cannot get random bytes for the kernel tokens: %s", strerror(errno));
    token_key_ready = 1;
}

/* "gpulab_ran_<12 hex>=<16 hex>": sha256(key, workdir) cut in two. */
char *build_kernel_token(const char *workdir)
{
    if (!token_key_ready)
        die("internal error: build_init() was not called");
    sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, token_key, sizeof token_key);
    sha256_update(&c, workdir, strlen(workdir));
    char hex[65];
    sha256_final_hex(&c, hex);
    /* The secret part, above the shape's 29 bits, never 0: no value a
     * kernel stores is then 0, the variable's value before any kernel. */
    if (strspn(hex + 12, "0") >= 8)
        hex[12] = '1';
    return xasprintf("gpulab_ran_%.12s=%.16s", hex, hex + 12);
}

/* A token with the real one's name and a random value, for the GPU
 * build's host compile (HOST_OBJECT): nothing of it counts. */
static char *decoy_kernel_token(const char *token)
{
    unsigned long long v = 0;
    while (v == 0)
        if (getentropy(&v, sizeof v) != 0)
            die("cannot get random bytes for a decoy kernel token: %s", strerror(errno));
    return xasprintf("%.*s=%016llx", (int)strcspn(token, "="), token, v);
}

#define SHAPE_BITS 29

/* A block's shape from a stored value's low bits (x | y << 11 | z << 22),
 * if it is one CUDA allows; 0 otherwise. */
static int block_shape(unsigned long long shape, unsigned block[3])
{
    unsigned x = (unsigned)(shape & 0x7ff), y = (unsigned)(shape >> 11 & 0x7ff), z = (unsigned)(shape >> 22 & 0x7f);
    if (x < 1 || y < 1 || z < 1 || x > 1024 || y > 1024 || z > 64 || (unsigned long long)x * y * z > 1024)
        return 0;
    block[0] = x;
    block[1] = y;
    block[2] = z;
    return 1;
}

int build_kernel_ran(const char *workdir, const char *seen, unsigned block[3])
{
    if (block)
        block[0] = block[1] = block[2] = 0;
    if (!seen)
        return 0;
    char *token = build_kernel_token(workdir);
    unsigned long long want = strtoull(strchr(token, '=') + 1, NULL, 16);
    free(token);
    int ran = 0;
    for (const char *line = seen; *line;) {
        const char *end = strchr(line, '\n');
        size_t k = end ? (size_t)(end - line) : strlen(line);
        /* as the harness prints it: %llx, 1 to 16 lowercase digits */
        unsigned shape[3];
        if (k >= 1 && k <= 16 && strspn(line, "0123456789abcdef") >= k) {
            unsigned long long v = strtoull(line, NULL, 16) ^ want;
            if (v >> SHAPE_BITS == 0 && block_shape(v, shape)) {
                ran = 1;
                if (block && (unsigned long long)shape[0] * shape[1] * shape[2] >
                                 (unsigned long long)block[0] * block[1] * block[2])
                    memcpy(block, shape, sizeof shape);
            }
        }
        line = end ? end + 1 : line + k;
    }
    return ran;
}

/* A compiler that crashed (GCC's and emucc's exit status for an internal
 * compiler error, or a signal the sandbox did not send) failed the kit,
 * not the file: the record is grader_error and graded again. run_tool's
 * why starts with COMPILER_CRASHED then, which build_any() looks for. */
#define COMPILER_CRASH_STATUS 4
static const char COMPILER_CRASHED[] = "the compiler crashed, the kit's or the machine's failure, not the file's";

/* The signals the build's limits send (its file size, its processor
 * time, the kill at its end): a compiler stopped by one was driven there
 * by the file (a huge object, an endless template), the file's
 * compile_error as ever, not a crash. */
static int limit_signal(int sig)
{
    return sig == SIGKILL || sig == SIGXFSZ || sig == SIGXCPU;
}

/* Whether a compiler's log says a part of it was stopped by such a signal
 * (GCC: "Killed signal terminated program cc1plus", exit status 4; emucc:
 * "was killed by signal 25"). */
static int limit_in_log(const char *text)
{
    static const char *const said[] = { "Killed signal terminated program", "File size limit exceeded",
                                        "CPU time limit exceeded", "was killed by signal 9\n",
                                        "was killed by signal 24\n", "was killed by signal 25\n", NULL };
    for (int i = 0; text && said[i]; i++)
        if (strstr(text, said[i]))
            return 1;
    return 0;
}

/* Runs one compiler command; appends its output to log. Returns 0 on success. */
static int run_tool(const char *const *argv, const char *cwd, int limit_s, strbuf *log, char **why)
{
    proc_spec spec = { argv, cwd, NULL, limit_s, BUILD_LOG_CAP, BUILD_FILE_CAP, 1, 0, 0, NULL, NULL };
    proc_result r;
    proc_run_sandboxed(&spec, &r);
    sb_puts(log, r.out_text);
    sb_puts(log, r.err_text);
    int ok = r.started && r.exited && r.exit_code == 0;
    if (!r.started)
        *why = xasprintf("the compiler could not be started: %s", r.out_text);
    else if (r.timed_out)
        *why = xasprintf("the compiler did not finish within %d s", limit_s);
    else if (!ok && r.over_limit)
        *why = xasprintf("the compiler was stopped: %s", r.over_limit);
    else if (!ok && r.signaled && limit_signal(r.signal_number))
        *why = xasprintf("the compiler was killed by signal %d (%s): a limit of the build's, which this file drove "
                         "it to", r.signal_number, signal_description(r.signal_number));
    else if (!ok && (r.signaled || (r.exited && r.exit_code == COMPILER_CRASH_STATUS)) &&
             !(r.exited && limit_in_log(r.err_text)))
        /* measured, not read from the log (a #error can print any words):
         * the log only takes the blame back to the file (a part of the
         * compiler that a limit stopped), which no file gains by */
        *why = r.signaled ? xasprintf("%s: it was killed by signal %d", COMPILER_CRASHED, r.signal_number)
                          : xasprintf("%s: it exited with status %d, an internal compiler error", COMPILER_CRASHED,
                                      COMPILER_CRASH_STATUS);
    proc_result_free(&r);
    return ok ? 0 : -1;
}

/* A #line directive's file name, with the characters C escapes escaped. */
static char *line_directive(const char *display)
{
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "#line 1 \"");
    for (const char *c = display; *c; c++) {
        if (*c == '"' || *c == '\\')
            sb_append(&sb, "\\", 1);
        if (*c == '\n')
            continue;
        sb_append(&sb, c, 1);
    }
    sb_puts(&sb, "\"\n");
    return sb_detach(&sb);
}

/* Whether the linker's log says what (e.g. "undefined reference to") about
 * symbol, or a C++ function of that name: ld.bfd quotes it `like this',
 * gold 'like this'. */
static int linker_says(const char *log, const char *what, const char *symbol)
{
    int said = 0;
    for (int quote = 0; quote < 2 && !said; quote++) {
        char *text = xasprintf("%s %c%s", what, quote ? '\'' : '`', symbol);
        for (const char *p = strstr(log, text); p && !said; p = strstr(p + 1, text)) {
            char next = p[strlen(text)];
            said = next == '\'' || next == '(';
        }
        free(text);
    }
    return said;
}

/* Turns the linker's complaints into a sentence a student can act on. */
static char *link_hint(const lab_manifest *m, const char *log)
{
    if (!m || m->libwb_program)
        return linker_says(log, "undefined reference to", !m ? "main" : "wb_program_main")
                   ? xstrdup("a Teaching Kit program defines main(), and this file does not")
                   : NULL;
    if (linker_says(log, "undefined reference to", m->entry_point))
        return xasprintf("your file does not define %s() with the signature in lab.h "
                         "(check its name, its parameters, and that lab.h is included)", m->entry_point);
    if (linker_says(log, "multiple definition of", "main"))
        return xstrdup("your file defines main(), but the kit's harness owns main(): remove yours");
    return NULL;
}

/* Whether text[start .. start + n) is the identifier word. */
static int is_word(const char *text, size_t start, size_t n, const char *word)
{
    return n == strlen(word) && strncmp(text + start, word, n) == 0;
}

/* The line (from 1) where the identifier name, or its gputk.h twin (gpuTK
 * for wb), first appears in text outside comments and literals, with the
 * one found in *spelt (malloc'd); 0 and name when neither does (a macro
 * pasted it together, say). */
static int find_identifier_line(const char *text, size_t len, const char *name, char **spelt)
{
    char *twin = strncmp(name, "wb", 2) == 0 ? xasprintf("gpuTK%s", name + 2) : xstrdup(name);
    const char *found = NULL;
    int line = 1;
    for (size_t i = 0; i < len && !found; i++) {
        if (text[i] == '\n') {
            line++;
        } else if (source_skip_comment_or_literal(text, len, &i, &line)) {
            continue;
        } else if (source_is_identifier_char(text[i])) {
            size_t start = i;
            while (i + 1 < len && source_is_identifier_char(text[i + 1]))
                i++;
            found = is_word(text, start, i + 1 - start, name)   ? name
                    : is_word(text, start, i + 1 - start, twin) ? twin
                                                                : NULL;
        }
    }
    *spelt = xstrdup(found ? found : name);
    free(twin);
    return found ? line : 0;
}

/* A submission to one of the kit's own labs that calls one of libwb's calls
 * for whole programs (wbArg_*, wbImport, wbExport, wbSolution): wb.h's
 * WB_LAB_MARKER is in the compiler's output. Says what was wrong, where,
 * and what to do instead; NULL for any other compile error. */
static char *wb_call_hint(const lab_manifest *m, const char *student_path, const char *text, size_t len,
                          const char *log)
{
    const char *marker = m && !m->libwb_program && log ? strstr(log, WB_LAB_MARKER) : NULL;
    if (!marker)
        return NULL;
    const char *start = marker;
    while (start > log && source_is_identifier_char(start[-1]))
        start--;
    char *name = xasprintf("%.*s", (int)(marker - start), start);
    char *spelt;
    int line = find_identifier_line(text, len, name, &spelt);
    char *where = line ? xasprintf("%s:%d", student_path, line) : xstrdup(student_path);
    char *hint = xasprintf("%s: %s() is for a whole Teaching Kit program, not for a lab: in %s the kit's harness "
                           "owns main(), the command line and the files, and calls your %s() (lab.h) with the "
                           "data; use its parameters instead (wbLog, wbTime_start/stop and wbAssert work there; "
                           "a whole program runs with gpulab wb)",
                           where, spelt, m->id, m->entry_point);
    free(name);
    free(spelt);
    free(where);
    return hint;
}

/* The runtime calls CUDA 13 removed (deprecated since CUDA 4), still in
 * course material, what replaces each, and what wb.h runs it as in a whole
 * Kit program (NULL: its replacement). nvcc 13 says only that the name is
 * undefined, and so does the emulator, which declares none of them.
 * cudaThreadExit() runs as cudaDeviceSynchronize(): a reset would wipe the
 * device memory the grader reads after the program's main() returns (the
 * kernel token), and the process's end releases the device anyway. */
static const char *const removed_api[][3] = {
    { "cudaThreadSynchronize", "cudaDeviceSynchronize", NULL },
    { "cudaThreadExit", "cudaDeviceReset", "cudaDeviceSynchronize" },
    { "cudaThreadSetLimit", "cudaDeviceSetLimit", NULL },
    { "cudaThreadGetLimit", "cudaDeviceGetLimit", NULL },
    { "cudaThreadSetCacheConfig", "cudaDeviceSetCacheConfig", NULL },
    { "cudaThreadGetCacheConfig", "cudaDeviceGetCacheConfig", NULL },
};

/* A compile that failed on one of removed_api's calls: the one line that
 * says so, the same on both backends (the file's line of the call: the
 * compiler's own words differ); NULL for any other compile error. */
static char *removed_api_hint(const char *student_path, const char *text, size_t len, const char *log)
{
    for (size_t i = 0; log && i < sizeof removed_api / sizeof *removed_api; i++) {
        const char *name = removed_api[i][0];
        if (!strstr(log, name))
            continue;
        char *spelt;
        int line = find_identifier_line(text, len, name, &spelt);
        free(spelt);
        if (!line)
            continue;
        return xasprintf("%s:%d: %s() was removed in CUDA 13: use %s() (nvcc 13 and the emulator both refuse it)",
                         student_path, line, name, removed_api[i][1]);
    }
    return NULL;
}

/* A whole Kit program (no lab_define) that compiled with one of
 * removed_api's calls: wb.h ran it as its replacement; the one note that
 * says so, at the file's line of the call, or NULL. The emulator maps only
 * the calls it can run (wb.h): one it cannot fails the compile above. */
static char *removed_api_note(const char *student_path, const char *text, size_t len)
{
    for (size_t i = 0; i < sizeof removed_api / sizeof *removed_api; i++) {
        char *spelt;
        int line = find_identifier_line(text, len, removed_api[i][0], &spelt);
        free(spelt);
        if (line && removed_api[i][2])
            return xasprintf("%s:%d: %s() was removed in CUDA 13; it ran as %s() (the grader reads the device "
                             "after the program ends): use %s()", student_path, line, removed_api[i][0],
                             removed_api[i][2], removed_api[i][1]);
        if (line)
            return xasprintf("%s:%d: %s() was removed in CUDA 13; it ran as %s(): use that", student_path, line,
                             removed_api[i][0], removed_api[i][1]);
    }
    return NULL;
}

/* Names that ask which build is compiling the file: a checker's (the
 * emulator's race build, AddressSanitizer's) or the graded one. emucc
 * undefines the macros in every build, but a compiler's __has_feature
 * (clang, GCC 14) cannot be undefined; a file that names any of them is not
 * built, so that no #if hides code from the checkers only. */
static const char *const build_probes[] = {
    "EMU_MODE_SANITIZE", "EMU_MODE_RACE", "__SANITIZE_THREAD__", "__SANITIZE_ADDRESS__",
    "__has_feature", "__has_extension", NULL,
};

/* "FILE:LINE: ..." for the first probe the text names, or NULL. */
static char *names_a_build_probe(const char *student_path, const char *text, size_t len)
{
    for (int i = 0; build_probes[i]; i++) {
        char *spelt;
        int line = find_identifier_line(text, len, build_probes[i], &spelt);
        free(spelt);
        if (line)
            return xasprintf("%s:%d: %s asks which build compiles the file (the checkers' or the graded one); "
                             "a lab file has no use for it: remove it",
                             student_path, line, build_probes[i]);
    }
    return NULL;
}

/* What a build is for: grading, or one of the sanitizer stage's checkers. */
typedef struct {
    const char *emu_mode;   /* "race" or "check": an emulator checker's build (emucc --MODE) */
    int list_faults;        /* with emu_mode: emucc --list-faults */
    int for_checkers;       /* linked with the harness runtime without guard zones */
    const char *link_lib;   /* one more library to link, or NULL */
    int poison;             /* the source pass: the kernel token (and on a GPU the shared-memory poison) */
    int no_facts;           /* on the emulator, no --facts: the grading build's serve (build_emu_checker) */
    const char *schemata;   /* emucc --schemata FILE: every candidate edit in one build (repair.h), or NULL */
} build_kind;

static void build_any(const lab_manifest *m, const backend *b, const char *student_path,
                      const char *workdir, const build_kind *k, build_result *r);

/* A build that failed because the machine ran short (a full disk or no
 * free files under the build folder: another user's doing, or another
 * submission's) is the grader's failure, never the student's compile_error:
 * a record with grader_error is graded again next time. Measured, never
 * read from the log, which the student's #error can fill with any words. */
static void blame_the_machine(const char *dir, build_result *r)
{
    char *short_of = NULL;
    struct statvfs v;
    if (statvfs(dir, &v) == 0) {
        unsigned long long free_bytes = (unsigned long long)v.f_bavail * v.f_frsize;
        if (free_bytes < BUILD_MACHINE_MIN_FREE)
            short_of = xasprintf("the disk under the build folder is full (%llu MB free)", free_bytes >> 20);
        else if (v.f_files > 0 && v.f_favail < 64)
            short_of = xasprintf("the file system under the build folder has no free files (inodes)");
    }
    if (!short_of)
        return;
    free(r->message);
    r->message = xasprintf("the machine, not the file: %s; it will be graded again", short_of);
    r->grader_fault = 1;
    free(short_of);
}

/* Each compiler command's time limit in a build of kind k. */
static int build_limit(const build_kind *k)
{
    return k->for_checkers ? CHECKER_BUILD_TIMEOUT_S : BUILD_TIMEOUT_S;
}

void build_submission(const lab_manifest *m, const backend *b, const char *student_path,
                      const char *workdir, build_result *r)
{
    const build_kind k = { NULL, 0, 0, NULL, 1, 0, NULL };
    build_any(m, b, student_path, workdir, &k, r);
}

void build_emu_checker(const lab_manifest *m, const backend *b, const char *student_path,
                       const char *folder, const char *mode, int facts, build_result *r)
{
    const build_kind k = { mode, 0, 1, NULL, 1, !facts, NULL };
    build_any(m, b, student_path, folder, &k, r);
}

void build_emu_schemata(const lab_manifest *m, const backend *b, const char *student_path, const char *folder,
                        build_result *r)
{
    const build_kind k = { NULL, 0, 0, NULL, 1, 1, BUILD_SCHEMATA_NAME };
    build_any(m, b, student_path, folder, &k, r);
}

void build_wb_program(const backend *b, const char *path, const char *workdir, build_result *r)
{
    const build_kind k = { NULL, 0, 0, NULL, 1, 0, NULL };
    build_any(NULL, b, path, workdir, &k, r);
}

void build_with_library(const lab_manifest *m, const backend *b, const char *path,
                        const char *workdir, const char *library, build_result *r)
{
    const build_kind k = { NULL, 0, 0, library, 0, 0, NULL };
    build_any(m, b, path, workdir, &k, r);
}

char *build_program_path(const char *workdir)
{
    return xasprintf("%s/build/" PROGRAM_NAME, workdir);
}

char *build_keep_dir(const char *workdir)
{
    return xasprintf("%s/build/keep", workdir);
}

char *build_facts_path(const char *workdir)
{
    return xasprintf("%s/build/student.facts", workdir);
}

/* Copies every file of a folder whose name ends with suffix ("" for all)
 * into another, which it creates; shared: hard-linked where the file
 * system allows (link_or_copy_file), for large files no build writes,
 * whose mode is then left as the kit's. Returns 0, or -1 with errno. */
enum { COPY, SHARE };
static int copy_files(const char *from_dir, const char *suffix, const char *to_dir, int how)
{
    if (make_dirs(to_dir) != 0)
        return -1;
    DIR *d = opendir(from_dir);
    if (!d)
        return -1;
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.' || !ends_with(e->d_name, suffix))
            continue;
        char *from = xasprintf("%s/%s", from_dir, e->d_name);
        char *to = xasprintf("%s/%s", to_dir, e->d_name);
        struct stat st;
        if (stat(from, &st) == 0 && S_ISREG(st.st_mode)) {
            rc = how == SHARE ? link_or_copy_file(from, to) : copy_file(from, to);
            if (rc == 0 && how == COPY && chmod(to, st.st_mode & 0755) != 0)
                rc = -1;
        }
        free(from);
        free(to);
    }
    closedir(d);
    return rc;
}

/* The emulator's device header precompiled for mode (emucc.c says why),
 * at emu/pch/MODE/ as in the kit, shared: 36 MB that no build writes (the
 * build's user does not own it). A kit without one (made by an older make)
 * builds as before, only slower. 0, or -1 with why. */
static int add_precompiled_header(const char *mode, const char *dir, char **why)
{
    char *from_dir = kit_path("build/emu/pch/%s", mode);
    char *to_dir = xasprintf("%s/emu/pch/%s", dir, mode);
    int rc = 0;
    if (dir_exists(from_dir) && copy_files(from_dir, "", to_dir, SHARE) != 0) {
        *why = xasprintf("cannot copy the kit's precompiled header %s into %s: %s", from_dir, to_dir,
                         strerror(errno));
        rc = -1;
    }
    free(from_dir);
    free(to_dir);
    return rc;
}

/* The build folder: the only kit files the compiler can see, copied in
 * (sandbox.h: in the sandbox nothing else of the kit is there). include/
 * holds the lab's headers and the runtime's (with the GPU build's
 * shared-memory poison); kit/ the prebuilt harness; emu/ emucc (the GPU
 * build's source pass uses it too) and, for the emulator, its headers and
 * the one runtime library the build's mode links. A Teaching Kit program
 * (m NULL) gets wb.h and its library, libgpulab_wb.a, instead of the lab's
 * headers and the harness; a lab's submission gets both (one of a lab
 * imported from the Kit is a whole libwb program; one of the kit's own labs
 * may use wb.h's logs, timers and assertions in its entry point). */
static int prepare_build_dir(const lab_manifest *m, const backend *b, const build_kind *k, const char *dir,
                             char **why)
{
    int race = k->emu_mode && strcmp(k->emu_mode, "race") == 0;
    const char *emu_lib = !k->emu_mode              ? "libemu.a"
                        : race && k->list_faults    ? "libemu_race_faults.a"
                        : race                      ? "libemu_race.a"
                        : k->list_faults            ? "libemu_check_faults.a"
                                                    : "libemu_check.a";
    /* the checkers' runtime under the usual name: the build folder reads the same */
    const char *runtime = k->for_checkers ? "libgpulab_runtime_checkers.a" : "libgpulab_runtime.a";
    char *files[][2] = {
        { m ? kit_path("build/harness/%s/%s/harness.o", b->name, m->id) : NULL, xasprintf("%s/kit/harness.o", dir) },
        { m ? kit_path("build/harness/%s/harness_main.o", b->name) : NULL, xasprintf("%s/kit/harness_main.o", dir) },
        { m ? kit_path("build/harness/%s/%s", b->name, runtime) : NULL,
          xasprintf("%s/kit/libgpulab_runtime.a", dir) },
        { kit_path("build/harness/%s/libgpulab_wb.a", b->name), xasprintf("%s/kit/libgpulab_wb.a", dir) },
        { kit_path("build/emu/emucc"), xasprintf("%s/emu/emucc", dir) },
        { kit_path("grader/runtime/smem_poison_device.cuh"), xasprintf("%s/include/smem_poison_device.cuh", dir) },
        { b->kind == BACKEND_EMU ? kit_path("build/emu/%s", emu_lib) : NULL, xasprintf("%s/emu/%s", dir, emu_lib) },
    };
    const size_t nfiles = sizeof files / sizeof *files;
    char *include = xasprintf("%s/include", dir);
    char *rt = m ? kit_path("grader/runtime") : kit_path("grader/runtime/wb");
    char *emu_inc = kit_path("build/emu/include");
    char *emu_inc_copy = xasprintf("%s/emu/include", dir);
    char *wb_headers = kit_path("grader/runtime/wb");
    int rc = 0;
    if ((m && copy_files(m->dir, ".h", include, COPY) != 0) || copy_files(rt, ".h", include, COPY) != 0 ||
        (m && copy_files(wb_headers, ".h", include, COPY) != 0) ||
        (b->kind == BACKEND_EMU && copy_files(emu_inc, ".h", emu_inc_copy, COPY) != 0)) {
        *why = xasprintf("cannot copy the headers into %s: %s", dir, strerror(errno));
        rc = -1;
    }
    for (size_t i = 0; i < nfiles && rc == 0; i++) {
        if (!files[i][0])
            continue;
        char *parent = path_dirname(files[i][1]);
        if (make_dirs(parent) != 0 || copy_file(files[i][0], files[i][1]) != 0 ||
            (ends_with(files[i][1], "emucc") && chmod(files[i][1], 0755) != 0)) {
            *why = xasprintf("the kit's %s is missing or cannot be copied (run make): %s", files[i][0],
                             strerror(errno));
            rc = -1;
        }
        free(parent);
    }
    for (size_t i = 0; i < nfiles; i++) {
        free(files[i][0]);
        free(files[i][1]);
    }
    if (rc == 0 && b->kind == BACKEND_EMU)
        rc = add_precompiled_header(k->emu_mode ? k->emu_mode : "default", dir, why);
    free(include);
    free(rt);
    free(emu_inc);
    free(emu_inc_copy);
    free(wb_headers);
    return rc;
}

/* The token for emucc (TOKEN_FILE): readable by the build's user, who has
 * no process yet when emucc takes it. 0, or -1 with why. */
static int write_token_file(const char *dir, const char *token, char **why)
{
    char *path = xasprintf("%s/%s", dir, TOKEN_FILE);
    int rc = write_file(path, token, strlen(token));
    if (rc != 0 || chmod(path, 0644) != 0) {
        *why = xasprintf("cannot write %s: %s", path, strerror(errno));
        rc = -1;
    }
    free(path);
    return rc;
}

/* A file that holds the kernel token (the GPU build's marked source, the
 * emulator's TOKEN_FILE, which emucc removes itself unless it failed
 * first): gone once compiled. */
static void forget_token_file(const char *dir, const char *name)
{
    char *path = xasprintf("%s/%s", dir, name);
    if (unlink(path) != 0 && errno != ENOENT)
        die("cannot remove %s: %s", path, strerror(errno));
    free(path);
}

/* objcopy (binutils, beside the compiler), or $OBJCOPY; NULL with why,
 * which says the build needs it to do what. */
static char *find_objcopy(const char *to_do, char **why)
{
    const char *name = getenv("OBJCOPY") ? getenv("OBJCOPY") : "objcopy";
    char *objcopy = strchr(name, '/') ? xstrdup(name) : find_in_path(name);
    if (!objcopy)
        *why = xasprintf("%s (binutils, beside the compiler) is not on PATH: the build needs it to %s", name,
                         to_do);
    return objcopy;
}

/* The harness reads the kernel token through gpulab_kernel_token(); the
 * marked source defines the reader as NAME_read() (emucc's source pass), a
 * name as secret as the token's variable NAME. The kit's copies of the
 * harness in the build folder have their call renamed to it (objcopy, run
 * here on the kit's own files), so the student's code, which can call
 * gpulab_kernel_token() no more, can neither learn the token nor clear what
 * its kernels stored. 0, or -1 with why. */
static int link_token_reader(const char *dir, const char *token, char **why)
{
    static const char *const copies[] = { "kit/harness.o", "kit/libgpulab_runtime.a", NULL };
    char *objcopy = find_objcopy("link the kernel token's reader", why);
    if (!objcopy)
        return -1;
    char *rename = xasprintf("gpulab_kernel_token=%.*s_read", (int)strcspn(token, "="), token);
    int rc = 0;
    for (int i = 0; copies[i] && rc == 0; i++) {
        const char *argv[] = { objcopy, "--redefine-sym", rename, copies[i], NULL };
        proc_spec spec = { argv, dir, NULL, BUILD_TIMEOUT_S, BUILD_LOG_CAP, 0, 0, 0, 0, NULL, NULL };
        proc_result r;
        proc_run(&spec, &r);
        if (!(r.started && r.exited && r.exit_code == 0)) {
            *why = xasprintf("%s could not rename the harness's kernel-token reader in %s/%s: %s%s", objcopy, dir,
                             copies[i], r.out_text ? r.out_text : "", r.err_text ? r.err_text : "");
            rc = -1;
        }
        proc_result_free(&r);
    }
    free(rename);
    free(objcopy);
    return rc;
}

/* A command line under construction: NULL items are left out. */
typedef struct {
    const char *v[24];
    int n;
} command;

static void arg(command *c, const char *s)
{
    if (c->n >= (int)(sizeof c->v / sizeof *c->v) - 1)
        die("internal error: a compiler command of more than %d words", c->n);
    if (s)
        c->v[c->n++] = s;
    c->v[c->n] = NULL;
}

/* nvcc, as every GPU build of a lab file calls it: "-c" (the whole file,
 * keeping the PTX in keep/ as the lab's requirements' evidence) or
 * "-fatbin" (the device code alone). 0, or -1 with why. */
static int nvcc_compile(const backend *b, const build_kind *k, const char *dir, const char *what,
                        const char *source, const char *out, const char *lab_define, strbuf *log, char **why)
{
    int whole = strcmp(what, "-c") == 0;
    /* The grading build's whole-file compile keeps device code that
     * put_token_in_device_code replaces: PTX only (the virtual architecture,
     * no ptxas), which is all keep/ needs; the replacement is the real one's. */
    char *arch = whole && k->poison ? xasprintf("-arch=compute_%s", b->arch + strlen("sm_"))
                                    : xasprintf("-arch=%s", b->arch);
    command cc = { { NULL }, 0 };
    arg(&cc, b->compiler);
    arg(&cc, arch);
    arg(&cc, "-lineinfo");
    arg(&cc, "-O3");
    arg(&cc, whole ? "--keep" : NULL);
    arg(&cc, whole ? "--keep-dir" : NULL);
    arg(&cc, whole ? "keep" : NULL);
    arg(&cc, "-Iinclude");
    arg(&cc, "--pre-include");
    arg(&cc, "include/smem_poison_device.cuh");
    arg(&cc, what);
    arg(&cc, source);
    arg(&cc, "-o");
    arg(&cc, out);
    arg(&cc, lab_define);
    int rc = run_tool(cc.v, dir, build_limit(k), log, why);
    free(arch);
    return rc;
}

/* The GPU build's second half (HOST_OBJECT): the source marked again, with
 * the real token, once nothing of the student's is being compiled for the
 * host; its device code alone compiled (nvcc -fatbin runs no host compiler
 * and no assembler, and ptxas has no directive that reads a file) and put
 * in place of the decoy's: obj is HOST_OBJECT with FATBIN_SECTION replaced.
 * The kernels and the token's variable have the same names in both (the
 * host object registers them by name), so the program launches the real
 * token's kernels. Every file that held the token is gone on return. 0, or
 * -1 with why. */
static int put_token_in_device_code(const backend *b, const build_kind *k, const char *dir, const char *emucc,
                                    const char *token, const char *source, const char *obj,
                                    const char *lab_define, strbuf *log, char **why)
{
    int rc = -1;
    char *objcopy = NULL;
    const char *pre[] = { emucc, "--kernel-token", token, "--poison-shared", source, POISONED_SOURCE, NULL };
    if (run_tool(pre, dir, build_limit(k), log, why) != 0)
        goto done;
    if (nvcc_compile(b, k, dir, "-fatbin", POISONED_SOURCE, DEVICE_FATBIN, lab_define, log, why) != 0)
        goto done;
    forget_token_file(dir, POISONED_SOURCE);
    if (!(objcopy = find_objcopy("put the kernel token in the device code", why)))
        goto done;
    /* into a new file: objcopy runs as a user other than the compiler's
     * (rename_program_main) */
    char *section = xasprintf("%s=%s", FATBIN_SECTION, DEVICE_FATBIN);
    const char *put[] = { objcopy, "--update-section", section, HOST_OBJECT, obj, NULL };
    rc = run_tool(put, dir, build_limit(k), log, why);
    free(section);
done:
    forget_token_file(dir, POISONED_SOURCE);
    forget_token_file(dir, DEVICE_FATBIN);
    forget_token_file(dir, HOST_OBJECT);
    free(objcopy);
    return rc;
}

/* A lab imported from the Kit: the program's main() becomes
 * wb_program_main, which the harness calls (wb_harness.c). Renamed in the
 * object, not by the preprocessor (-Dmain=...): compiled as main, it keeps
 * what C++ gives main alone, that falling off its end returns 0; a renamed
 * function that does so returns nothing, and the harness crashed after it
 * (a double free, or SIGSEGV) where gpulab wb ran the same file. Into a new
 * file, to: in the sandbox, objcopy runs as a user other than the
 * compiler's, and cannot write over obj. 0, or -1 with why. */
static int rename_program_main(const char *dir, const char *obj, const char *to, strbuf *log, char **why)
{
    char *objcopy = find_objcopy("rename the program's main()", why);
    if (!objcopy)
        return -1;
    const char *cmd[] = { objcopy, "--redefine-sym", "main=wb_program_main", obj, to, NULL };
    int rc = run_tool(cmd, dir, BUILD_TIMEOUT_S, log, why);
    free(objcopy);
    return rc;
}

/* Links obj (in dir, relative names) with the harness into lab-program. */
static int link_program(const lab_manifest *m, const backend *b, const build_kind *k, const char *dir,
                        const char *obj, strbuf *log, char **why)
{
    command ld = { { NULL }, 0 };
    char *emucc = xasprintf("%s/emu/emucc", dir);
    char *arch = xasprintf("-arch=%s", b->arch);
    char *mode_flag = k->emu_mode ? xasprintf("--%s", k->emu_mode) : NULL;
    arg(&ld, b->kind == BACKEND_GPU ? b->compiler : emucc);
    if (b->kind == BACKEND_GPU) {
        arg(&ld, arch);
    } else {
        arg(&ld, mode_flag);
        arg(&ld, k->list_faults ? "--list-faults" : NULL);
    }
    /* main() is the kit's and is linked as an object, not from the archive:
     * a file that defines its own main() then fails to link, as it should.
     * A Teaching Kit program has its own main() and links wb.h's library
     * only; in a lab imported from the Kit its main() is renamed for the
     * harness (wb_harness.c); in one of the kit's own labs wb.h leaves out
     * what the harness owns (WB_LAB_DEFINE). A lab's wb.h library comes
     * after the runtime. */
    arg(&ld, obj);
    arg(&ld, m ? "kit/harness.o" : "kit/libgpulab_wb.a");
    arg(&ld, "-o");
    arg(&ld, PROGRAM_NAME);
    if (m) {
        arg(&ld, "kit/harness_main.o");
        arg(&ld, "kit/libgpulab_runtime.a");
        arg(&ld, "kit/libgpulab_wb.a");
    }
    if (b->kind == BACKEND_GPU)
        arg(&ld, k->link_lib);
    int rc = run_tool(ld.v, dir, build_limit(k), log, why);
    free(emucc);
    free(arch);
    free(mode_flag);
    return rc;
}

/* The student's file (source, in dir) compiled by nvcc into obj: in a
 * grading build (k->poison) with the shared-memory poison and the kernel
 * token, the host compile seeing only a decoy's (put_token_in_device_code).
 * 0, or -1 with why (the compiler's words in log). */
static int compile_for_gpu(const backend *b, const build_kind *k, const char *dir, const char *emucc,
                           const char *token, const char *source, const char *obj, const char *lab_define,
                           strbuf *log, char **why, double *token_s)
{
    /* --keep leaves the PTX: the evidence for the lab's requirements
     * (requirements.c), read from what the compiler made, never from
     * what it printed (a #pragma message can print anything). */
    char *keep_dir = xasprintf("%s/keep", dir);
    /* written by the compiler, which runs as the build's own user */
    if (make_dirs(keep_dir) != 0 || chmod(keep_dir, 0777) != 0)
        die("cannot create %s: %s", keep_dir, strerror(errno));
    free(keep_dir);
    /* Unset shared memory poisoned in the student's own blocks (emucc
     * --poison-shared, smem_poison_device.cuh): no other process on the
     * GPU can undo it; and the kernel token, a decoy's in the whole
     * file's compile (HOST_OBJECT). Not for timing builds. */
    const char *compiled_source = source, *compiled_obj = obj;
    if (k->poison) {
        char *decoy = decoy_kernel_token(token);
        const char *pre[] = { emucc, "--kernel-token", decoy, "--poison-shared", source, POISONED_SOURCE, NULL };
        int marked = run_tool(pre, dir, build_limit(k), log, why);
        free(decoy);
        if (marked != 0)
            return -1;
        compiled_source = POISONED_SOURCE;
        compiled_obj = HOST_OBJECT;
    }
    int compiled = nvcc_compile(b, k, dir, "-c", compiled_source, compiled_obj, lab_define, log, why);
    if (k->poison)
        forget_token_file(dir, POISONED_SOURCE);
    if (compiled != 0)
        return -1;
    if (!k->poison)
        return 0;
    double started = stage_clock();
    int rc = put_token_in_device_code(b, k, dir, emucc, token, source, obj, lab_define, log, why);
    *token_s = stage_clock() - started;
    return rc;
}

/* The student's file compiled by emucc into obj: mode_flag first where
 * there is one (--race, --check), the kernel token in a grading build's
 * and the checkers' builds, the source's facts in the grading build's.
 * 0, or -1 with why (grader_fault set where the kit is at fault). */
static int compile_for_emulator(const build_kind *k, const char *dir, const char *emucc, const char *mode_flag,
                                const char *token, const char *source, const char *obj, const char *lab_define,
                                strbuf *log, char **why, int *grader_fault)
{
    command cc = { { NULL }, 0 };
    arg(&cc, emucc);
    arg(&cc, mode_flag);
    /* The kernel token, in the checkers' builds too (their programs
     * are the grading build's but for the checker). emucc marks the
     * source itself and hands it to the compiler through a pipe: the
     * token is in no file and on no command line while the student's
     * code is compiled (an .incbin of a marked copy would take it). */
    if (k->poison) {
        if (write_token_file(dir, token, why) != 0) {
            *grader_fault = 1;
            return -1;
        }
        arg(&cc, "--kernel-token-file");
        arg(&cc, TOKEN_FILE);
    }
    if (k->schemata) {
        arg(&cc, "--schemata");
        arg(&cc, k->schemata);
    }
    arg(&cc, "-c");
    arg(&cc, source);
    arg(&cc, "-o");
    arg(&cc, obj);
    arg(&cc, "-Iinclude");
    /* what the source shows: the grading build's facts judge the
     * requirements on the emulator; the checkers' build's, on a GPU, the
     * source's side of global_reuse (sanitize_source_facts), and nowhere
     * else: its facts pass (a preprocessing of the file with every
     * header) is left out where the grading build's serve */
    arg(&cc, k->no_facts ? NULL : "--facts");
    arg(&cc, k->no_facts ? NULL : "student.facts");
    arg(&cc, lab_define);
    int compiled = run_tool(cc.v, dir, build_limit(k), log, why);
    forget_token_file(dir, TOKEN_FILE);
    return compiled;
}

static void build_any(const lab_manifest *m, const backend *b, const char *student_path,
                      const char *workdir, const build_kind *k, build_result *r)
{
    memset(r, 0, sizeof *r);
    double started = stage_clock();
    char *why = NULL;
    size_t len;
    /* never through a link: graded as its target, a link could hand in
     * the reference solution or a secret, quoted back by the compiler */
    char *text = untrusted_read(student_path, SUBMISSION_MAX_BYTES, 0, &len, &why);
    if (!text) {
        r->message = why;
        r->log = xstrdup("");
        return;
    }
    char *probe = names_a_build_probe(student_path, text, len);
    if (probe) {
        r->message = probe;
        r->log = xasprintf("%s\n", probe);
        free(text);
        return;
    }
    char *dir = xasprintf("%s/build", workdir);
    if (make_dirs(dir) != 0)
        die("cannot create %s: %s", dir, strerror(errno));
    char *src = xasprintf("%s/%s", dir, m ? m->source : WB_SOURCE);
    char *directive = line_directive(student_path);
    strbuf body;
    sb_init(&body);
    sb_puts(&body, directive);
    sb_append(&body, text, len);
    free(directive);
    if (write_file_atomic(src, body.buf, body.len) != 0)
        die("cannot write %s: %s", src, strerror(errno));
    sb_free(&body);

    /* Relative names from here on: the compiler runs in dir. */
    const char *source = m ? m->source : WB_SOURCE;
    /* a lab imported from the Kit compiles to program.o, which the rename
     * of its main() copies to student.o (rename_program_main) */
    const char *obj = m && m->libwb_program ? "program.o" : "student.o";
    char *prog = build_program_path(workdir);
    char *mode_flag = k->emu_mode ? xasprintf("--%s", k->emu_mode) : NULL;
    const char *lab_define = m && !m->libwb_program ? WB_LAB_DEFINE : NULL;
    char *emucc = xasprintf("%s/emu/emucc", dir);
    char *token = build_kernel_token(workdir);
    strbuf log;
    sb_init(&log);

    if (prepare_build_dir(m, b, k, dir, &why) != 0 || (m && k->poison && link_token_reader(dir, token, &why) != 0)) {
        r->grader_fault = 1;
        r->message = why;
        why = NULL;
        goto done;
    }
    int compiled = b->kind == BACKEND_GPU
                       ? compile_for_gpu(b, k, dir, emucc, token, source, obj, lab_define, &log, &why, &r->token_s)
                       : compile_for_emulator(k, dir, emucc, mode_flag, token, source, obj, lab_define, &log, &why,
                                              &r->grader_fault);
    if (compiled != 0) {
        r->grader_fault = why && strncmp(why, COMPILER_CRASHED, strlen(COMPILER_CRASHED)) == 0;
        goto failed_compile;
    }
    if (m && m->libwb_program) {
        if (rename_program_main(dir, obj, "student.o", &log, &why) != 0)
            goto failed_compile;
        obj = "student.o";
    }
    if (link_program(m, b, k, dir, obj, &log, &why) != 0)
        goto failed_link;
    r->ok = 1;
    r->program = prog;
    prog = NULL;
    if (!lab_define) /* a note, not a failure (build.h) */
        r->message = removed_api_note(student_path, text, len);
    goto done;

failed_compile:
    r->message = why ? why : wb_call_hint(m, student_path, text, len, log.buf);
    if (!r->message)
        r->message = removed_api_hint(student_path, text, len, log.buf);
    if (!r->message)
        r->message = xasprintf("%s does not compile", student_path);
    why = NULL;
    if (b->kind == BACKEND_EMU) { /* what g++ said of emucc's rewrite, in the student's terms */
        char *theirs = build_in_student_words(log.buf, student_path, text, len);
        sb_free(&log);
        sb_init(&log);
        sb_puts(&log, theirs);
        free(theirs);
    }
    goto done;
failed_link:
    r->message = why ? why : link_hint(m, log.buf ? log.buf : "");
    if (!r->message)
        r->message = xasprintf("%s compiles but does not link with the lab's harness", student_path);
    why = NULL;
done:
    if (!r->ok && !r->grader_fault)
        blame_the_machine(dir, r);
    r->log = sb_detach(&log);
    r->seconds = stage_clock() - started;
    free(why);
    free(dir);
    free(src);
    free(prog);
    free(mode_flag);
    free(emucc);
    free(token);
    free(text);
}

void build_checker_relink(const lab_manifest *m, const backend *b, const char *from, const char *folder,
                          int list_faults, build_result *r)
{
    memset(r, 0, sizeof *r);
    const build_kind k = { b->kind == BACKEND_EMU ? "race" : NULL, list_faults, 1, NULL, 0, 0, NULL };
    char *dir = xasprintf("%s/build", folder);
    char *obj_from = xasprintf("%s/build/student.o", from);
    char *obj = xasprintf("%s/student.o", dir);
    char *why = NULL;
    strbuf log;
    sb_init(&log);
    if (make_dirs(dir) != 0)
        die("cannot create %s: %s", dir, strerror(errno));
    char *token = build_kernel_token(from);
    if (prepare_build_dir(m, b, &k, dir, &why) != 0 || (m && link_token_reader(dir, token, &why) != 0)) {
        r->grader_fault = 1;
        r->message = why;
    } else if (copy_file(obj_from, obj) != 0) {
        r->grader_fault = 1;
        r->message = xasprintf("cannot copy %s: %s", obj_from, strerror(errno));
    } else if (link_program(m, b, &k, dir, "student.o", &log, &why) != 0) {
        r->message = why ? why : xstrdup("the checkers' build does not link");
    } else {
        r->ok = 1;
        r->program = build_program_path(folder);
        free(why);
    }
    r->log = sb_detach(&log);
    free(token);
    free(dir);
    free(obj_from);
    free(obj);
}

void build_result_free(build_result *r)
{
    free(r->program);
    free(r->log);
    free(r->message);
    memset(r, 0, sizeof *r);
}

char *build_student_named(const char *text, const char *workdir, const char *student_file)
{
    char *prefix = xasprintf("%s/build/", workdir);
    char *out = str_replace_all(text ? text : "", prefix, "");
    free(prefix);
    /* the copies keep the student's lines (a #line directive), but a DWARF
     * reader may name the copy: FILE:LINE of a copy is the student's */
    static const char *const copies[] = { POISONED_SOURCE ":", NULL };
    char *theirs = xasprintf("%s:", student_file);
    for (int i = 0; copies[i]; i++) {
        char *next = str_replace_all(out, copies[i], theirs);
        free(out);
        out = next;
    }
    free(theirs);
    return out;
}

void build_evidence(const backend *b, const char *workdir, kernel_evidence *e)
{
    if (b->kind == BACKEND_GPU) {
        char *keep = build_keep_dir(workdir);
        evidence_from_ptx_dir(keep, e);
        free(keep);
    } else {
        char *facts = build_facts_path(workdir);
        evidence_from_emu_facts(facts, e);
        free(facts);
    }
}
