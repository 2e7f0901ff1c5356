/*
 * emucc - the gpulab CPU emulator's compiler driver.
 *
 *   emucc [--race|--check] -c FILE.cu -o FILE.o [-I DIR]... [-D NAME[=V]]...
 *   emucc [--race|--check] OBJ_OR_ARCHIVE... -o PROG [-L DIR] [-l LIB]
 *   emucc [--race|--check] FILE.cu... [OBJ...] -o PROG       (both at once)
 *   emucc [--race|--check] --make-pch     (make: emu_device.h precompiled, pch/MODE/)
 *   emucc ... --schemata FILE.json        (with a .cu: the mutant schemata program, schemata.c)
 *
 * Compiling a .cu file rewrites it (rewrite.c) into a temporary C++ file with
 * the same line numbering behind a #line directive naming FILE.cu, and compiles
 * that with g++, force-including emu_device.h (precompiled where make made
 * it). Linking adds the emulator's runtime library. Headers, precompiled
 * headers and libraries are found next to this executable.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rewrite.h"
#include "util.h"

#ifdef __APPLE__
#include <mach-o/dyld.h>
#endif

typedef struct { const char **v; size_t n, cap; } argv_t;

static void push(argv_t *a, const char *s)
{
    if (a->n + 2 > a->cap) {
        a->cap = a->cap ? a->cap * 2 : 32;
        a->v = xrealloc(a->v, a->cap * sizeof *a->v);
    }
    a->v[a->n++] = s;
    a->v[a->n] = NULL;
}

/* The exit status of a compiler that crashed (GCC's for an internal
 * compiler error, and emucc's where its compiler died of a signal): the
 * caller's failure to build, not the source's (the grader says so). */
#define EMUCC_CRASHED 4

static int run(argv_t *a)
{
    if (getenv("EMUCC_VERBOSE")) {
        for (size_t i = 0; i < a->n; i++)
            fprintf(stderr, "%s%s", i ? " " : "", a->v[i]);
        fputc('\n', stderr);
    }
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        execvp(a->v[0], (char *const *)a->v);
        fprintf(stderr, "emucc: cannot run %s: %s\n", a->v[0], strerror(errno));
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            die("waitpid: %s", strerror(errno));
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    fprintf(stderr, "emucc: %s was killed by signal %d\n", a->v[0], WTERMSIG(st));
    return EMUCC_CRASHED;
}

/* run(), with text as the command's standard input (through a pipe, never a
 * file). */
static int run_with_input(argv_t *a, const char *text, size_t len)
{
    if (getenv("EMUCC_VERBOSE")) {
        for (size_t i = 0; i < a->n; i++)
            fprintf(stderr, "%s%s", i ? " " : "", a->v[i]);
        fputs(" < (the rewritten source)\n", stderr);
    }
    int fds[2];
    if (pipe(fds) != 0)
        die("pipe: %s", strerror(errno));
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        close(fds[1]);
        if (dup2(fds[0], 0) < 0)
            _exit(127);
        close(fds[0]);
        execvp(a->v[0], (char *const *)a->v);
        fprintf(stderr, "emucc: cannot run %s: %s\n", a->v[0], strerror(errno));
        _exit(127);
    }
    close(fds[0]);
    signal(SIGPIPE, SIG_IGN); /* a compiler that stops reading says why itself */
    for (size_t off = 0; off < len;) {
        ssize_t k = write(fds[1], text + off, len - off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            break;
        off += (size_t)k;
    }
    close(fds[1]);
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            die("waitpid: %s", strerror(errno));
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    fprintf(stderr, "emucc: %s was killed by signal %d\n", a->v[0], WTERMSIG(st));
    return EMUCC_CRASHED;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int ends_with(const char *s, const char *suf)
{
    size_t n = strlen(s), m = strlen(suf);
    return n >= m && strcmp(s + n - m, suf) == 0;
}

static char *self_dir(void)
{
    char buf[PATH_MAX];
#ifdef __APPLE__
    uint32_t sz = sizeof buf;
    if (_NSGetExecutablePath(buf, &sz) != 0)
        die("cannot find my own executable");
    char *r = realpath(buf, NULL);
    if (!r)
        die("cannot find my own executable");
    snprintf(buf, sizeof buf, "%s", r);
    free(r);
#else
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        die("cannot read /proc/self/exe: %s", strerror(errno));
    buf[n] = 0;
#endif
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = 0;
    return xstrdup(buf);
}

enum mode { M_DEFAULT, M_RACE, M_CHECK };

static const char *g_tmpdir;

/* The temporary folder holds files only (the rewritten sources, their
 * objects): removed here, not through a shell and rm, two more processes
 * in every compile. */
static void cleanup(void)
{
    if (!g_tmpdir || getenv("EMUCC_KEEP"))
        return;
    DIR *d = opendir(g_tmpdir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            unlinkat(dirfd(d), e->d_name, 0);
    if (d)
        closedir(d);
    rmdir(g_tmpdir);
}

static const char *tmpdir(void)
{
    if (!g_tmpdir) {
        const char *base = getenv("TMPDIR");
        char *t = xasprintf("%s/emucc.XXXXXX", base && *base ? base : "/tmp");
        if (!mkdtemp(t))
            die("cannot create a temporary directory: %s", strerror(errno));
        g_tmpdir = t;
        atexit(cleanup);
    }
    return g_tmpdir;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static char *dir_name(const char *p)
{
    const char *s = strrchr(p, '/');
    if (!s)
        return xstrdup(".");
    if (s == p)
        return xstrdup("/");
    char *d = xstrdup(p);
    d[s - p] = 0;
    return d;
}

/* The compiler's flags for mode m; link says they are for the link. The
 * race build takes ThreadSanitizer's instrumentation, not its runtime: its
 * calls go to the emulator's own race detector (race.c, in
 * libemu_race.a), so its link names no sanitizer. */
static void mode_flags(argv_t *a, enum mode m, int link)
{
    /* block copies not through glibc's _FORTIFY_SOURCE wrappers (on by
     * default in Ubuntu's gcc), inline functions of its own headers, which
     * addr2line names as the line of a race or an invalid access instead of
     * the student's call; in every mode, so that the macro, which a student's
     * file could test, does not tell a checker's build from the graded one */
    if (!link)
        push(a, "-U_FORTIFY_SOURCE");
    if (m != M_DEFAULT)
        push(a, "-DEMU_MODE_SANITIZE");
    if (m == M_RACE) {
        push(a, "-DEMU_MODE_RACE"); /* emu_device.h: EMU_CONSTANT_ARRAY */
        /* block copies stay calls, never inlined, so that the race
         * detector sees them (watch_block_copies) */
        if (!link) {
            push(a, "-fsanitize=thread");
            /* nothing in the student's file tells this build from the
             * graded one (emu_device.h undefines the modes' own macros) */
            push(a, "-U__SANITIZE_THREAD__");
            push(a, "-fno-builtin-memcpy");
            push(a, "-fno-builtin-memset");
            push(a, "-fno-builtin-memmove");
        }
    } else if (m == M_CHECK) {
        push(a, "-fsanitize=address");
        if (!link)
            push(a, "-U__SANITIZE_ADDRESS__");
        push(a, "-fsanitize-recover=address");
        push(a, "-fno-omit-frame-pointer");
    }
}

/* The attributes that take a function out of a sanitizer's instrumentation
 * (GCC's and clang's spellings; __x__ forms are matched too). */
static const char *const unchecked_attributes[] = {
    "no_sanitize", "no_sanitize_thread", "no_sanitize_address", "no_address_safety_analysis",
    "disable_sanitizer_instrumentation", NULL,
};

static int unchecked_attribute(const char *id, size_t n)
{
    if (n > 4 && strncmp(id, "__", 2) == 0 && strncmp(id + n - 2, "__", 2) == 0)
        id += 2, n -= 4;
    for (int k = 0; unchecked_attributes[k]; k++)
        if (strlen(unchecked_attributes[k]) == n && strncmp(id, unchecked_attributes[k], n) == 0)
            return 1;
    return 0;
}

/* A checking build (--race, --check) must see all of the student's code:
 * an attribute such as no_sanitize_thread on a kernel would hide its races
 * from the race check and its reach from the bounds check. It is looked for
 * in the preprocessed file (ii, from -save-temps), so that no macro, token
 * pasting or include can hide it, on every line: system headers too,
 * since a file that includes itself after #pragma GCC system_header would
 * pass for one (the C and C++ headers the emulator builds with have no such
 * attribute; were one to, every checked build would say so, not pass
 * quietly). The line markers name the file and line. Returns 0, or 1 after
 * saying where. */
static int checks_cover(const char *ii)
{
    size_t len;
    char *text = read_file(ii, &len);
    int line = 0, bad = 0;
    char file[1024] = "";
    for (char *p = text; p < text + len && !bad;) {
        char *end = memchr(p, '\n', (size_t)(text + len - p));
        if (!end)
            end = text + len;
        if (p[0] == '#' && p[1] == ' ' && isdigit((unsigned char)p[2])) {
            /* # LINE "FILE" FLAGS */
            line = atoi(p + 2) - 1;
            char *q = memchr(p, '"', (size_t)(end - p));
            char *r = q ? memchr(q + 1, '"', (size_t)(end - q - 1)) : NULL;
            if (q && r)
                snprintf(file, sizeof file, "%.*s", (int)(r - q - 1), q + 1);
        } else {
            for (char *c = p; c < end && !bad;) {
                /* a literal, skipped; a ' after a digit or letter is C++14's digit separator */
                if (*c == '"' || (*c == '\'' && !(c > p && (isalnum((unsigned char)c[-1]) || c[-1] == '_')))) {
                    char quote = *c++;
                    while (c < end && *c != quote)
                        c += *c == '\\' ? 2 : 1;
                    c++;
                } else if (isalpha((unsigned char)*c) || *c == '_') {
                    char *b = c;
                    while (c < end && (isalnum((unsigned char)*c) || *c == '_'))
                        c++;
                    if (unchecked_attribute(b, (size_t)(c - b))) {
                        fprintf(stderr, "%s:%d: error: '%.*s' takes code out of the kit's checkers (the race and "
                                        "bounds checks), so a checked build does not accept it; remove it\n",
                                file, line + 1, (int)(c - b), b);
                        bad = 1;
                    }
                } else {
                    c++;
                }
            }
        }
        if (!(p[0] == '#' && p[1] == ' '))
            line++;
        p = end + 1;
    }
    free(text);
    return bad;
}

/* Compiles one .cu (rewritten) or .c/.cpp file to obj. */
/* --facts FILE: where compile() writes what the source shows (rewrite.h). */
static const char *facts_path;
/* --kernel-token NAME=HEX or --kernel-token-file: compile() marks the source
 * with it (rewrite.h, emu_source_pass) before rewriting it. */
static const char *kernel_token;
/* --schemata FILE: compile() builds the mutant schemata program
 * (schemata.c) and writes its candidates' list to FILE. */
static const char *schemata_path;
/* the most candidates a schemata build holds: a compile stays cheap */
#define SCHEMATA_MAX 440

/* Whether to link with GNU gold: a link is a third of a checking build's
 * time on two cores, and gold links the emulator's programs in half the
 * time of the default linker (ld.bfd). make decides (emu.mk): gold only
 * where it linked a test program with the compiler make used, since some
 * compilers' installs hand the linker paths that only ld.bfd forgives; and
 * then only with that compiler. */
/* The C++ compiler: CXX, else g++. */
static const char *cxx(void)
{
    return getenv("CXX") ? getenv("CXX") : "g++";
}

#ifndef EMU_GOLD
#define EMU_GOLD 0
#define EMU_GOLD_CXX ""
#endif

static int gold_linker(void)
{
    return EMU_GOLD && strcmp(cxx(), EMU_GOLD_CXX) == 0;
}

/* ---- the precompiled header ------------------------------------------------
 *
 * emu_device.h and the C++ headers it reads are most of a compile: on two
 * cores about 0.2 s of g++'s 0.25 s for a lab's file. `make` precompiles it
 * once per mode (emucc [--race|--check] --make-pch) into pch/MODE/ beside
 * this executable: a stub emu_device.h that includes the real one, its .gch,
 * and `compiler`, the compiler that made it. A compile force-includes the
 * stub when the .gch is there and was made by the compiler at hand; GCC then
 * reads the .gch, or, should its options not match (a student's -D that the
 * header reads, say), the stub and the headers as before. Clang, which
 * cannot read GCC's files and stops at one it finds, gets the real header. */

static const char *const mode_names[] = { "default", "race", "check" };

/* A compile's flags in mode m, after the language standard. */
static void compile_flags(argv_t *a, enum mode m)
{
    push(a, m == M_DEFAULT ? "-O2" : "-O1");
    push(a, "-g");
    mode_flags(a, m, 0);
}

/* The flags of a C++ compile in mode m that a precompiled header must share. */
static void cxx_flags(argv_t *a, enum mode m)
{
    push(a, "-std=c++17");
    compile_flags(a, m);
}

static char *pch_dir(const char *dir, enum mode m)
{
    return xasprintf("%s/pch/%s", dir, mode_names[m]);
}

/* The header a .cu compile force-includes: the precompiled one's stub, when
 * made by this compiler, else emu_device.h itself. */
static char *device_header(const char *dir, const char *inc, enum mode m)
{
    char *pch = pch_dir(dir, m);
    char *gch = xasprintf("%s/emu_device.h.gch", pch), *made_by = xasprintf("%s/compiler", pch);
    char *header = NULL;
    if (access(gch, R_OK) == 0 && access(made_by, R_OK) == 0) {
        size_t len;
        char *who = read_file(made_by, &len);
        if (strcmp(who, cxx()) == 0)
            header = xasprintf("%s/emu_device.h", pch);
        free(who);
    }
    free(gch);
    free(made_by);
    free(pch);
    return header ? header : xasprintf("%s/emu_device.h", inc);
}

/* emucc [--race|--check] --make-pch: pch/MODE/ beside this executable. */
static int make_pch(const char *dir, const char *inc, enum mode m)
{
    char *pch = pch_dir(dir, m);
    char *parent = xasprintf("%s/pch", dir);
    if ((mkdir(parent, 0755) != 0 && errno != EEXIST) || (mkdir(pch, 0755) != 0 && errno != EEXIST))
        die("cannot make %s: %s", pch, strerror(errno));
    char *stub = xasprintf("%s/emu_device.h", pch), *gch = xasprintf("%s/emu_device.h.gch", pch);
    char *made_by = xasprintf("%s/compiler", pch);
    /* relative: the same stub serves the kit and a build folder's copy */
    const char *text = "/* made by emucc --make-pch: the emulator's device header, precompiled beside it */\n"
                       "#include \"../../include/emu_device.h\"\n";
    write_file(stub, text, strlen(text));
    unlink(made_by); /* no stale claim while the .gch is rebuilt */
    argv_t a = { 0 };
    push(&a, cxx());
    cxx_flags(&a, m);
    push(&a, xasprintf("-I%s", inc));
    push(&a, "-x");
    push(&a, "c++-header");
    push(&a, stub);
    push(&a, "-o");
    push(&a, gch);
    int rc = run(&a);
    if (rc == 0)
        write_file(made_by, cxx(), strlen(cxx()));
    free(pch);
    free(parent);
    free(stub);
    free(gch);
    free(made_by);
    return rc;
}

/* The race build's object calls the race detector's memcpy, memset and
 * memmove (race.c) instead of the C library's: the compiler's
 * instrumentation sees loads and stores, not what a library call does, so
 * a kernel that stored its output with memcpy hid its races. Renamed in the
 * student's object alone (objcopy), so the kit's own copies are not
 * counted as the student's accesses. */
static int watch_block_copies(const char *obj)
{
    static const char *const renames[] = {
        "memcpy=emu_race_memcpy_",           "memset=emu_race_memset_",
        "memmove=emu_race_memmove_",         "__memcpy_chk=emu_race_memcpy_chk_",
        "__memset_chk=emu_race_memset_chk_", "__memmove_chk=emu_race_memmove_chk_",
        NULL,
    };
    argv_t a = { 0 };
    push(&a, getenv("OBJCOPY") ? getenv("OBJCOPY") : "objcopy");
    for (int i = 0; renames[i]; i++) {
        push(&a, "--redefine-sym");
        push(&a, renames[i]);
    }
    push(&a, obj);
    return run(&a);
}

/* Whether real (a resolved path) is a header of a CUDA installation:
 * NVIDIA's notice at its top, in a folder (or the folder above: crt/) that
 * holds CUDA's cuda_runtime_api.h. A header of the student's own with
 * NVIDIA's notice (a copy of a sample's helper) is not one. */
static int cuda_install_header(const char *real)
{
    char *d1 = dir_name(real), *d2 = dir_name(d1);
    char *api1 = xasprintf("%s/cuda_runtime_api.h", d1), *api2 = xasprintf("%s/cuda_runtime_api.h", d2);
    int found = 0;
    if (access(api1, R_OK) == 0 || access(api2, R_OK) == 0) {
        FILE *f = fopen(real, "rb");
        char head[4097];
        size_t n = f ? fread(head, 1, sizeof head - 1, f) : 0;
        head[n] = 0;
        found = strstr(head, "NVIDIA Corporation") != NULL || strstr(head, "NVIDIA CORPORATION") != NULL;
        if (f)
            fclose(f);
    }
    free(d1);
    free(d2);
    free(api1);
    free(api2);
    return found;
}

/* The emulator builds with its own CUDA headers (include/: cuda.h,
 * cuda_runtime.h, vector_types.h, ...); one of the machine's CUDA
 * installation found on the compiler's search path (CUDA's headers in
 * /usr/local/include or /usr/include) would be mixed with them: either
 * clashing errors (struct int2 defined twice) or, worse, a build that works
 * here and not on a machine without CUDA. deps is the compile's -MD file.
 * Returns 0, or 1 after saying which header. */
static int mixes_real_cuda(const char *deps, const char *src, const char *dir)
{
    size_t len;
    char *text = read_file(deps, &len);
    char *own = realpath(dir, NULL);
    int bad = 0;
    /* "OBJ: DEP DEP \<newline> DEP ...", a blank in a name escaped as "\ " */
    for (char *p = strchr(text, ':'); p && *p && !bad;) {
        while (*p == ':' || isspace((unsigned char)*p) || (*p == '\\' && isspace((unsigned char)p[1])))
            p++;
        char *b = p, *w = p;
        for (; *p && !isspace((unsigned char)*p); p++) {
            if (*p == '\\' && p[1] == ' ')
                p++;
            *w++ = *p;
        }
        int more = *p != 0;
        *w = 0;
        if (*b) {
            char *real = realpath(b, NULL);
            int ours = real && own && strncmp(real, own, strlen(own)) == 0 && real[strlen(own)] == '/';
            if (real && !ours && cuda_install_header(real)) {
                fprintf(stderr, "%s: error: %s is a header of the machine's CUDA installation (%s): the emulator "
                                "builds with its own CUDA headers (cuda.h, cuda_runtime.h, vector_types.h, ...) "
                                "and cannot mix CUDA's into a build; it does not provide this one\n",
                        src, base_name(b), b);
                bad = 1;
            }
            free(real);
        }
        if (more)
            p++;
    }
    free(own);
    free(text);
    return bad;
}

/* The preprocessor's output's lines that are the source file's own (not an
 * included file's; line markers' flags 1 and 2 enter and leave one), with
 * the preprocessor's lines left out; in place. Returns the new length. */
static size_t own_lines(char *text, size_t len)
{
    int depth = 0;
    size_t o = 0;
    for (size_t p = 0; p < len;) {
        char *nl = memchr(text + p, '\n', len - p);
        size_t end = nl ? (size_t)(nl - text) + 1 : len;
        if (text[p] == '#' && end - p > 2 && text[p + 1] == ' ' && isdigit((unsigned char)text[p + 2])) {
            /* # LINE "FILE" FLAGS: 1 enters an included file, 2 returns from one */
            char *q = memchr(text + p, '"', end - p);
            char *r = q ? memrchr(q + 1, '"', (size_t)(text + end - q - 1)) : NULL;
            for (char *f = r ? r + 1 : text + end; f < text + end;) {
                while (f < text + end && *f == ' ')
                    f++;
                if (f >= text + end || !isdigit((unsigned char)*f))
                    break;
                char *next;
                long flag = strtol(f, &next, 10);
                depth += flag == 1 ? 1 : flag == 2 ? -1 : 0;
                f = next;
            }
        } else if (depth == 0 && text[p] != '#') { /* a directive (-fdirectives-only keeps #define) */
            memmove(text + o, text + p, end - p);
            o += end - p;
        }
        p = end;
    }
    return o;
}

/* --facts: what the source shows (rewrite.h), counted in the file as its
 * directives leave it, with the compile's own flags and headers, so that
 * what #if 0 hides, or a branch the build does not take, counts for
 * nothing; written as JSON to facts_path. */
static void write_facts(const char *src, enum mode m, const char *inc, argv_t *user)
{
    argv_t a = { 0 };
    push(&a, cxx());
    cxx_flags(&a, m);
    push(&a, "-include");
    push(&a, xasprintf("%s/emu_device.h", inc));
    push(&a, "-include");
    push(&a, xasprintf("%s/emu_mode_end.h", inc));
    push(&a, xasprintf("-I%s", inc));
    push(&a, "-iquote");
    push(&a, dir_name(src));
    for (size_t i = 0; i < user->n; i++)
        push(&a, user->v[i]);
    char *pre = xasprintf("%s/facts.ii", tmpdir());
    push(&a, "-E");
    push(&a, "-fdirectives-only");
    push(&a, "-x");
    push(&a, "c++");
    push(&a, src);
    push(&a, "-o");
    push(&a, pre);
    int rc = run(&a);
    if (rc == EMUCC_CRASHED) {
        fprintf(stderr, "emucc: %s: the preprocessor crashed\n", src);
        exit(EMUCC_CRASHED);
    }
    if (rc != 0)
        die("%s: the preprocessor failed, so what the source shows could not be counted", src);
    size_t len;
    char *text = read_file(pre, &len);
    unlink(pre);
    len = own_lines(text, len);
    struct emu_facts facts = { 0 };
    char *err = NULL;
    if (emu_count_facts(text, len, &facts, &err) != 0)
        die("%s: %s", src, err ? err : "cannot count what it shows");
    char *json = xasprintf("{\"kernels\":%d,\"launches\":%d,\"shared\":%d,\"barriers\":%d,"
                           "\"constants\":%d,\"symbol_copies\":%d,\"shared_accumulations\":%d}\n",
                           facts.kernels, facts.launches, facts.shared, facts.barriers, facts.constants,
                           facts.symbol_copies, facts.shared_accumulations);
    write_file(facts_path, json, strlen(json));
    free(json);
    free(text);
    free(pre);
}

/* The #define lines of the headers the source includes with quotes, found
 * beside it or in a -I folder, one level deep: the lab's header defines
 * names the student's code uses (MASK_RADIUS), which the schemata's edits
 * may put in place of another name. "" when there are none. */
static char *quoted_header_defines(const char *src, const char *text, size_t len, const argv_t *user)
{
    size_t cap = 256, n = 0;
    char *out = xrealloc(NULL, cap);
    out[0] = 0;
    const char *slash = strrchr(src, '/');
    char *src_dir = slash ? xasprintf("%.*s", (int)(slash - src), src) : xstrdup(".");
    for (const char *p = text, *end = text + len; p < end;) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol)
            eol = end;
        const char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t'))
            q++;
        char name[256];
        int got = 0;
        if (q < eol && *q == '#') {
            q++;
            while (q < eol && (*q == ' ' || *q == '\t'))
                q++;
            if (eol - q > 8 && strncmp(q, "include", 7) == 0) {
                q += 7;
                while (q < eol && (*q == ' ' || *q == '\t'))
                    q++;
                const char *close = q < eol && *q == '"' ? memchr(q + 1, '"', (size_t)(eol - q - 1)) : NULL;
                if (close && close - q - 1 > 0 && close - q - 1 < (long)sizeof name) {
                    snprintf(name, sizeof name, "%.*s", (int)(close - q - 1), q + 1);
                    got = 1;
                }
            }
        }
        p = eol + 1;
        if (!got)
            continue;
        /* beside the source, then each -I folder, as the compiler looks */
        FILE *f = NULL;
        char *path = xasprintf("%s/%s", src_dir, name);
        f = fopen(path, "r");
        for (size_t i = 0; !f && i < user->n; i++) {
            const char *d = strcmp(user->v[i], "-I") == 0 && i + 1 < user->n ? user->v[++i]
                            : strncmp(user->v[i], "-I", 2) == 0   ? user->v[i] + 2
                                                                  : NULL;
            if (!d)
                continue;
            free(path);
            path = xasprintf("%s/%s", d, name);
            f = fopen(path, "r");
        }
        free(path);
        if (!f)
            continue;
        char line[1024];
        for (int lines = 0; lines < 20000 && fgets(line, sizeof line, f); lines++) {
            const char *l = line;
            while (*l == ' ' || *l == '\t')
                l++;
            if (*l != '#')
                continue;
            const char *d = l + 1;
            while (*d == ' ' || *d == '\t')
                d++;
            if (strncmp(d, "define", 6) != 0)
                continue;
            size_t ll = strlen(l);
            if (n + ll + 2 > cap)
                out = xrealloc(out, cap = 2 * (cap + ll + 2));
            memcpy(out + n, l, ll);
            n += ll;
            if (n && out[n - 1] != '\n')
                out[n++] = '\n';
            out[n] = 0;
        }
        fclose(f);
    }
    free(src_dir);
    return out;
}

static int compile(const char *src, const char *obj, enum mode m, const char *dir, const char *inc, argv_t *user)
{
    const char *input = src;
    int is_cu = ends_with(src, ".cu") || ends_with(src, ".cuh");
    argv_t a = { 0 };
    int is_c = ends_with(src, ".c");
    push(&a, is_c ? (getenv("CC") ? getenv("CC") : "gcc") : cxx());
    char *piped = NULL; /* the rewritten source, handed to the compiler through a pipe */
    if (is_cu) {
        size_t len;
        char *text = read_file(src, &len);
        char *err = NULL;
        if (schemata_path) {
            /* before the grading build's own pass, which marks every kernel */
            char *json = NULL;
            char *defines = quoted_header_defines(src, text, len, user);
            char *mutated = emu_schemata(text, len, defines, SCHEMATA_MAX, &json, &err);
            free(defines);
            if (!mutated)
                die("%s: %s", src, err ? err : "cannot read it");
            write_file(schemata_path, json, strlen(json));
            free(json);
            free(text);
            text = mutated;
            len = strlen(mutated);
        }
        if (kernel_token) {
            char *marked = emu_source_pass(text, len, 0, kernel_token, 0, &err);
            if (!marked)
                die("%s: %s", src, err ? err : "cannot read it");
            free(text);
            text = marked;
            len = strlen(marked);
        }
        char *out = emu_rewrite(src, text, len, m == M_RACE, &err);
        if (!out)
            die("%s: %s", src, err ? err : "cannot rewrite");
        if (facts_path)
            write_facts(src, m, inc, user);
        free(text);
        if (m == M_DEFAULT) {
            /* The grading build: the rewritten source, which holds the
             * kernel token, is in no file the compiler's user could read
             * (an assembler's .incbin of it would copy the token into the
             * program); the assembly goes through a pipe too (-pipe). */
            piped = out;
            input = "-";
        } else {
            /* named like the source, so that with -fdebug-prefix-map the
             * debug information (addr2line, sanitizer reports) names FILE.cu
             * itself; the checking builds' token earns nothing (build.c) */
            char *tmp = xasprintf("%s/%s", tmpdir(), base_name(src));
            write_file(tmp, out, strlen(out));
            free(out);
            input = tmp;
        }
    }
    if (is_c) {
        push(&a, "-std=c11");
        compile_flags(&a, m);
    } else {
        cxx_flags(&a, m);
        if (!is_cu) { /* not rewritten: libstdc++'s __noinline__ read first (emu_device.h) */
            push(&a, "-include");
            push(&a, "memory");
            push(&a, "-include");
            push(&a, "string");
        }
        push(&a, "-include");
        push(&a, device_header(dir, inc, m));
        push(&a, "-include");
        push(&a, xasprintf("%s/emu_mode_end.h", inc));
    }
    push(&a, xasprintf("-I%s", inc));
    push(&a, "-iquote");
    push(&a, dir_name(src));
    if (is_cu) {
        /* the debug information (addr2line: where a kernel was stuck, a
         * race, a fault) names FILE.cu in its folder, not the temporary
         * copy or "<stdin>" */
        char *sd = dir_name(src);
        char *abs = realpath(sd, NULL);
        push(&a, piped ? xasprintf("-fdebug-prefix-map=<stdin>=%s/%s", abs ? abs : sd, base_name(src))
                       : xasprintf("-fdebug-prefix-map=%s=%s", tmpdir(), abs ? abs : sd));
    }
    for (size_t i = 0; i < user->n; i++)
        push(&a, user->v[i]);
    if (is_cu) {
        push(&a, "-x");
        push(&a, "c++");
    }
    /* the headers it read, for mixes_real_cuda() */
    static int ncompiles;
    char *deps = xasprintf("%s/%d.d", tmpdir(), ncompiles++);
    push(&a, "-MD");
    push(&a, "-MF");
    push(&a, deps);
    /* a checking build keeps the preprocessed file for checks_cover() */
    int keep_ii = is_cu && m != M_DEFAULT;
    if (keep_ii)
        push(&a, "-save-temps=obj");
    if (piped)
        push(&a, "-pipe");
    push(&a, "-c");
    push(&a, input);
    push(&a, "-o");
    push(&a, obj);
    int rc = piped ? run_with_input(&a, piped, strlen(piped)) : run(&a);
    free(piped);
    if (rc != 0 && schemata_path)
        fprintf(stderr, "emucc: %s: the mutant schemata source (--schemata) did not compile, as the "
                        "compiler says above; the source builds without --schemata as it is\n", src);
    if (access(deps, R_OK) == 0 && mixes_real_cuda(deps, src, dir))
        rc = 1;
    free(deps);
    if (keep_ii) {
        /* read, then gone: a checker's build folder must look like the
         * graded build's to the program run from it. GCC names the files
         * after OBJ, clang after the input, in OBJ's folder (and adds a
         * .bc). */
        int stem = (int)(ends_with(obj, ".o") ? strlen(obj) - 2 : strlen(obj));
        const char *in = base_name(input), *dot = strrchr(in, '.');
        char *od = dir_name(obj);
        char *stems[2] = { xasprintf("%.*s", stem, obj),
                           xasprintf("%s/%.*s", od, (int)(dot ? dot - in : (long)strlen(in)), in) };
        char *ii = NULL;
        for (int k = 0; k < 2 && !ii; k++) {
            char *cand = xasprintf("%s.ii", stems[k]);
            if (access(cand, R_OK) == 0)
                ii = cand;
            else
                free(cand);
        }
        if (rc == 0)
            rc = ii ? checks_cover(ii) : (fprintf(stderr, "emucc: the compiler left no preprocessed file "
                                                          "(-save-temps) to check\n"), 1);
        for (int k = 0; k < 2; k++) {
            static const char *const kept[] = { ".ii", ".s", ".bc" };
            for (int e = 0; e < 3; e++) {
                char *f = xasprintf("%s%s", stems[k], kept[e]);
                unlink(f);
                free(f);
            }
            free(stems[k]);
        }
        free(ii);
        free(od);
    }
    if (rc == 0 && m == M_RACE)
        rc = watch_block_copies(obj);
    return rc;
}

/* The kernel token from FILE, which is removed at once: read before any
 * compiler starts, it is then in no file and on no command line that the
 * compiler's user (the student's code, at compile time) could read. */
static const char *take_token_file(const char *path)
{
    size_t len;
    char *text = read_file(path, &len);
    if (unlink(path) != 0)
        die("cannot remove %s: %s", path, strerror(errno));
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
        text[--len] = '\0';
    return text;
}

static void usage(void)
{
    fputs("usage: emucc [--race|--check] -c FILE.cu -o FILE.o [-I DIR]... [-D NAME[=V]]...\n"
          "       emucc [--race|--check] OBJ_OR_ARCHIVE... -o PROG\n"
          "       emucc [--race|--check] FILE.cu... -o PROG\n"
          "       emucc [--race|--check] --make-pch   precompile emu_device.h for the mode (make does)\n"
          "  --race   checked build: the emulator's race detector (blocks and barrier intervals) and\n"
          "           its bounds check (device allocations, shared arrays, freed device memory)\n"
          "  --check  memory-check build (AddressSanitizer: out-of-bounds accesses, local arrays too)\n"
          "  --list-faults  with --race or --check, when linking: a launch runs on past its invalid accesses,\n"
          "           and every thread that makes one is listed in GPULAB_EMU_LOG's file\n"
          "  --poison-shared IN.cu OUT.cu  (for nvcc builds) fill each kernel's __shared__ arrays\n"
          "           with NaN at the top of its body, then wait for the block; nothing else\n"
          "  --source-pass IN.cu OUT.cu  the same pass without the fill, for emucc builds\n"
          "  --kernel-token NAME=HEX  before either pass: each kernel's first statement stores HEX,\n"
          "           its low 29 bits XORed with the block's shape (x | y << 11 | z << 22), in the\n"
          "           __device__ variable NAME unless it holds a larger block already, which\n"
          "           NAME_read() reads and clears (the harness calls it as gpulab_kernel_token());\n"
          "           with -c, the compile marks the .cu so (the default mode: through a pipe, no file)\n"
          "  --kernel-token-file FILE  --kernel-token with FILE's NAME=HEX, FILE removed at once\n"
          "  --facts FILE  with -c: write what the source shows (kernels, launches, __shared__,\n"
          "           __syncthreads() calls, __constant__, cudaMemcpyToSymbol calls) as JSON\n"
          "  --schemata FILE  with a .cu: build the mutant schemata program, the source with its\n"
          "           candidate single edits (at most 440), edit k live when GPULAB_EMU_MUTANT=k at\n"
          "           run time (0 or unset: none, the unedited program); FILE gets their list as JSON\n",
          stderr);
}

int main(int argc, char **argv)
{
    enum mode m = M_DEFAULT;
    int compile_only = 0, list_faults = 0, want_pch = 0;
    const char *out = NULL;
    argv_t srcs = { 0 }, objs = { 0 }, user = { 0 }, linkflags = { 0 };

    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        if (strcmp(s, "--race") == 0) {
            m = M_RACE;
        } else if (strcmp(s, "--check") == 0) {
            m = M_CHECK;
        } else if (strcmp(s, "--list-faults") == 0) {
            list_faults = 1;
        } else if (strcmp(s, "--make-pch") == 0) {
            want_pch = 1;
        } else if (strcmp(s, "--kernel-token") == 0) {
            if (++i >= argc)
                die("--kernel-token needs NAME=HEX");
            kernel_token = argv[i];
        } else if (strcmp(s, "--kernel-token-file") == 0) {
            if (++i >= argc)
                die("--kernel-token-file needs a file");
            kernel_token = take_token_file(argv[i]);
        } else if (strcmp(s, "--poison-shared") == 0 || strcmp(s, "--source-pass") == 0) {
            /* the grading build's source pass (rewrite.h), nothing else */
            if (i + 2 >= argc)
                die("%s needs an input and an output file", s);
            size_t len;
            char *text = read_file(argv[i + 1], &len);
            char *err = NULL;
            int for_gpu = strcmp(s, "--poison-shared") == 0;
            char *out = emu_source_pass(text, len, for_gpu, kernel_token, for_gpu, &err);
            if (!out)
                die("%s: %s", argv[i + 1], err ? err : "cannot read it");
            write_file(argv[i + 2], out, strlen(out));
            return 0;
        } else if (strcmp(s, "--schemata") == 0) {
            if (++i >= argc)
                die("--schemata needs a file");
            schemata_path = argv[i];
        } else if (strcmp(s, "--facts") == 0) {
            if (++i >= argc)
                die("--facts needs a file");
            facts_path = argv[i];
        } else if (strcmp(s, "--help") == 0 || strcmp(s, "-h") == 0) {
            usage();
            return 0;
        } else if (strcmp(s, "-c") == 0) {
            compile_only = 1;
        } else if (strcmp(s, "-o") == 0) {
            if (++i >= argc)
                die("-o needs an argument");
            out = argv[i];
        } else if ((strcmp(s, "-I") == 0 || strcmp(s, "-D") == 0 || strcmp(s, "-U") == 0 ||
                    strcmp(s, "-include") == 0 || strcmp(s, "-isystem") == 0)) {
            if (++i >= argc)
                die("%s needs an argument", s);
            push(&user, s);
            push(&user, argv[i]);
        } else if (strncmp(s, "-I", 2) == 0 || strncmp(s, "-D", 2) == 0 || strncmp(s, "-U", 2) == 0 ||
                   strncmp(s, "-W", 2) == 0 || strncmp(s, "-f", 2) == 0 || strcmp(s, "-w") == 0) {
            push(&user, s);
        } else if (strcmp(s, "-L") == 0 || strcmp(s, "-l") == 0) {
            if (++i >= argc)
                die("%s needs an argument", s);
            push(&linkflags, s);
            push(&linkflags, argv[i]);
        } else if (strncmp(s, "-L", 2) == 0 || strncmp(s, "-l", 2) == 0 || strncmp(s, "-Wl,", 4) == 0) {
            push(&linkflags, s);
        } else if (strncmp(s, "-O", 2) == 0 || strcmp(s, "-g") == 0 || strcmp(s, "-G") == 0 ||
                   strcmp(s, "-lineinfo") == 0 || strncmp(s, "-arch", 5) == 0 ||
                   strncmp(s, "-std=", 5) == 0 || strncmp(s, "--gpu-architecture", 18) == 0) {
            /* nvcc options with no meaning here (the optimisation level is the emulator's) */
        } else if (s[0] == '-') {
            die("unknown option %s (run emucc --help)", s);
        } else if (ends_with(s, ".cu") || ends_with(s, ".c") || ends_with(s, ".cpp") ||
                   ends_with(s, ".cc") || ends_with(s, ".cxx")) {
            push(&srcs, s);
        } else {
            push(&objs, s);
        }
    }
    if (want_pch) {
        char *dir = self_dir(), *inc = xasprintf("%s/include", dir);
        if (!is_dir(inc))
            die("--make-pch: no headers at %s (make copies them there)", inc);
        return make_pch(dir, inc, m) == 0 ? 0 : 1;
    }
    if (!out) {
        usage();
        die("no output file (-o)");
    }
    if (compile_only && (srcs.n != 1 || objs.n)) {
        usage();
        die("-c takes exactly one source file");
    }
    if (!compile_only && srcs.n + objs.n == 0) {
        usage();
        die("nothing to link");
    }

    char *dir = self_dir();
    char *inc = xasprintf("%s/include", dir);
    if (!is_dir(inc)) {
        free(inc);
        inc = xasprintf("%s/../../grader/emu/include", dir);
        if (!is_dir(inc))
            die("cannot find the emulator's headers next to %s", dir);
    }

    if (list_faults && m == M_DEFAULT)
        die("--list-faults goes with --race or --check");
    if (compile_only) {
        int rc = compile(srcs.v[0], out, m, dir, inc, &user);
        return rc == 0 ? 0 : rc == EMUCC_CRASHED ? EMUCC_CRASHED : 1;
    }

    argv_t link = { 0 };
    push(&link, cxx());
    mode_flags(&link, m, 1);
    if (gold_linker())
        push(&link, "-fuse-ld=gold");
    for (size_t i = 0; i < srcs.n; i++) {
        char *obj = xasprintf("%s/%zu-%s.o", tmpdir(), i, base_name(srcs.v[i]));
        int rc = compile(srcs.v[i], obj, m, dir, inc, &user);
        if (rc != 0)
            return rc == EMUCC_CRASHED ? EMUCC_CRASHED : 1;
        push(&link, obj);
    }
    for (size_t i = 0; i < objs.n; i++)
        push(&link, objs.v[i]);
    push(&link, "-o");
    push(&link, out);
    const char *lib = m == M_RACE && list_faults  ? "libemu_race_faults.a"
                      : m == M_RACE               ? "libemu_race.a"
                      : list_faults               ? "libemu_check_faults.a"
                      : m == M_CHECK              ? "libemu_check.a"
                                                  : "libemu.a";
    char *libpath = xasprintf("%s/%s", dir, lib);
    if (access(libpath, R_OK) != 0)
        die("cannot find the emulator's runtime library %s", libpath);
    push(&link, libpath);
    for (size_t i = 0; i < linkflags.n; i++)
        push(&link, linkflags.v[i]);
    push(&link, "-lpthread");
    push(&link, "-ldl");
    push(&link, "-lm");
    int rc = run(&link);
    return rc == 0 ? 0 : rc == EMUCC_CRASHED ? EMUCC_CRASHED : 1;
}
