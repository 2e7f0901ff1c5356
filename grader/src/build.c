/*
 * build.c - see build.h.
 *
 * The student's file is copied into the private build directory under the
 * lab's source name, behind a #line directive carrying the name the student
 * gave, so every diagnostic names their own file and line. lab.h comes from
 * the kit's labs/<id>/, never from beside the student's file.
 */
#define _GNU_SOURCE
#include "build.h"
#include "kit.h"
#include "process.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define BUILD_TIMEOUT_S 300
#define BUILD_LOG_CAP (256 * 1024)

/* Runs one compiler command; appends its output to log. Returns 0 on success. */
static int run_tool(const char *const *argv, const char *cwd, strbuf *log, char **why)
{
    proc_spec spec = { argv, cwd, NULL, BUILD_TIMEOUT_S, BUILD_LOG_CAP, 0 };
    proc_result r;
    proc_run(&spec, &r);
    sb_puts(log, r.out_text);
    sb_puts(log, r.err_text);
    int ok = r.started && r.exited && r.exit_code == 0;
    if (!r.started)
        *why = xasprintf("the compiler could not be started: %s", r.out_text);
    else if (r.timed_out)
        *why = xasprintf("the compiler did not finish within %d s", BUILD_TIMEOUT_S);
    else if (!ok && r.signaled)
        *why = xasprintf("the compiler was killed by signal %d", r.signal_number);
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

/* Turns the linker's complaints into a sentence a student can act on. */
static char *link_hint(const lab_manifest *m, const char *log)
{
    char *undefined = xasprintf("undefined reference to `%s'", m->entry_point);
    char *hint = NULL;
    if (strstr(log, undefined))
        hint = xasprintf("your file does not define %s() with the signature in lab.h "
                         "(check its name, its parameters, and that lab.h is included)", m->entry_point);
    else if (strstr(log, "multiple definition of `main'"))
        hint = xstrdup("your file defines main(), but the kit's harness owns main(): remove yours");
    free(undefined);
    return hint;
}

static void build_any(const lab_manifest *m, const backend *b, const char *student_path,
                      const char *workdir, const char *emu_mode, const char *link_lib,
                      build_result *r);

void build_submission(const lab_manifest *m, const backend *b, const char *student_path,
                      const char *workdir, build_result *r)
{
    build_any(m, b, student_path, workdir, NULL, NULL, r);
}

void build_emu_variant(const lab_manifest *m, const backend *b, const char *student_path,
                       const char *workdir, const char *mode, build_result *r)
{
    build_any(m, b, student_path, workdir, mode, NULL, r);
}

void build_with_library(const lab_manifest *m, const backend *b, const char *path,
                        const char *workdir, const char *library, build_result *r)
{
    build_any(m, b, path, workdir, NULL, library, r);
}

static void build_any(const lab_manifest *m, const backend *b, const char *student_path,
                      const char *workdir, const char *emu_mode, const char *link_lib,
                      build_result *r)
{
    memset(r, 0, sizeof *r);
    size_t len;
    char *text = read_file(student_path, &len);
    if (!text) {
        r->message = xasprintf("cannot read %s: %s", student_path, strerror(errno));
        r->log = xstrdup("");
        r->grader_fault = 1;
        return;
    }
    char *src = xasprintf("%s/%s", workdir, m->source);
    char *directive = line_directive(student_path);
    strbuf body;
    sb_init(&body);
    sb_puts(&body, directive);
    sb_append(&body, text, len);
    free(directive);
    free(text);
    if (write_file_atomic(src, body.buf, body.len) != 0)
        die("cannot write %s: %s", src, strerror(errno));
    sb_free(&body);

    char *obj = emu_mode ? xasprintf("%s/student-%s.o", workdir, emu_mode) : xasprintf("%s/student.o", workdir);
    char *prog = emu_mode ? xasprintf("%s/lab-program-%s", workdir, emu_mode)
                          : xasprintf("%s/lab-program", workdir);
    char *mode_flag = emu_mode ? xasprintf("--%s", emu_mode) : NULL;
    char *inc_lab = xasprintf("-I%s", m->dir);
    char *inc_rt = kit_path("grader/runtime");
    char *inc_rt_flag = xasprintf("-I%s", inc_rt);
    char *harness = kit_path("build/harness/%s/%s/harness.o", b->name, m->id);
    char *runtime = kit_path("build/harness/%s/libgpulab_runtime.a", b->name);
    /* main() is the kit's and is linked as an object, not from the archive:
     * a file that defines its own main() then fails to link, as it should. */
    char *harness_main = kit_path("build/harness/%s/harness_main.o", b->name);
    char *arch = xasprintf("-arch=%s", b->arch);
    strbuf log;
    sb_init(&log);
    char *why = NULL;

    if (!file_exists(harness) || !file_exists(runtime) || !file_exists(harness_main)) {
        r->grader_fault = 1;
        r->message = xasprintf("the kit's %s harness for %s is not built: run make", b->name, m->id);
        goto done;
    }
    if (b->kind == BACKEND_GPU) {
        /* The evidence for the lab's requirements: --resource-usage makes
         * ptxas report each kernel's shared memory and barriers; --keep
         * leaves the PTX, which shows reads of __constant__ memory. */
        char *keep_dir = xasprintf("%s/keep", workdir);
        if (make_dirs(keep_dir) != 0)
            die("cannot create %s: %s", keep_dir, strerror(errno));
        const char *cc[] = { b->compiler, arch, "-lineinfo", "-O3", "--resource-usage", "--keep",
                             "--keep-dir", keep_dir, inc_lab, inc_rt_flag, "-c", src, "-o", obj, NULL };
        int failed = run_tool(cc, workdir, &log, &why) != 0;
        free(keep_dir);
        if (failed)
            goto failed_compile;
        const char *ld[] = { b->compiler, arch, obj, harness, harness_main, runtime, "-o", prog, link_lib, NULL };
        if (run_tool(ld, workdir, &log, &why) != 0)
            goto failed_link;
    } else {
        /* emucc [--race|--check] ...: the mode flag, when there is one, comes first */
        int k = mode_flag ? 1 : 0;
        const char *cc[] = { b->compiler, mode_flag, "-c", src, "-o", obj, inc_lab, inc_rt_flag, NULL };
        const char *ld[] = { b->compiler, mode_flag, obj, harness, harness_main, runtime, "-o", prog, NULL };
        cc[1 - k] = b->compiler; /* without a mode, start one later so argv[0] is the compiler */
        ld[1 - k] = b->compiler;
        if (run_tool(cc + 1 - k, workdir, &log, &why) != 0)
            goto failed_compile;
        if (run_tool(ld + 1 - k, workdir, &log, &why) != 0)
            goto failed_link;
    }
    r->ok = 1;
    r->program = prog;
    prog = NULL;
    goto done;

failed_compile:
    r->message = why ? why : xasprintf("%s does not compile", student_path);
    why = NULL;
    goto done;
failed_link:
    r->message = why ? why : link_hint(m, log.buf ? log.buf : "");
    if (!r->message)
        r->message = xasprintf("%s compiles but does not link with the lab's harness", student_path);
    why = NULL;
done:
    r->log = sb_detach(&log);
    free(why);
    free(src);
    free(obj);
    free(prog);
    free(inc_lab);
    free(inc_rt);
    free(inc_rt_flag);
    free(harness);
    free(runtime);
    free(harness_main);
    free(arch);
    free(mode_flag);
}

void build_result_free(build_result *r)
{
    free(r->program);
    free(r->log);
    free(r->message);
    memset(r, 0, sizeof *r);
}
