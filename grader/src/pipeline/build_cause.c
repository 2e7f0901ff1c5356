/*
 * build_cause.c - the cause of a compile error, where the source shows it
 * upstream of the compiler's first error: the compiler stops at a use
 * (`b` is not a pointer, `CUDA_CHECK` is not declared, a float is not an
 * index), and what to change is a declaration, a #define or an #include
 * elsewhere. Each reading takes the first error's line and words, the
 * student's file, and (for a name not declared) the lab's own header and
 * skeleton, which say where the name was to come from.
 */
#include "build_cause.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"
#include "source.h"
#include "util.h"

/* The line of the compiler's first error in log, where it is in the
 * student's file (g++'s `FILE:LINE:COL: error:`, nvcc's `FILE(LINE):
 * error:`), its message into *msg; else 0. */
static int first_error_line(const char *file, const char *log, const char **msg)
{
    const char *e = strstr(log, "error:");
    if (!e)
        return 0;
    const char *start = e;
    while (start > log && start[-1] != '\n')
        start--;
    *msg = e + 6;
    const char *base = path_base(file), *at = strstr(start, base);
    if (!at || at > e)
        return 0;
    at += strlen(base);
    return (*at == ':' || *at == '(') ? atoi(at + 1) : 0;
}

/* The k-th (from 0) quoted text of msg, between ‘ and ’ (g++ in a UTF-8
 * locale), ' and ' (in the C locale) or " and " (nvcc), into out: 1, or 0
 * where msg has fewer. */
static int quoted_text(const char *msg, int k, char *out, size_t n)
{
    static const char *const opens[] = { "\xe2\x80\x98", "'", "\"" }, *const closes[] = { "\xe2\x80\x99", "'", "\"" };
    const char *p = msg;
    out[0] = '\0';
    for (int i = 0; *p; i++) {
        int q = -1;
        for (int t = 0; t < 3 && q < 0; t++)
            if (strncmp(p, opens[t], strlen(opens[t])) == 0)
                q = t;
        if (q < 0) {
            p++;
            i--;
            continue;
        }
        const char *b = p + strlen(opens[q]), *e = strstr(b, closes[q]);
        if (!e)
            return 0;
        if (i == k) {
            snprintf(out, n, "%.*s", (int)(e - b), b);
            return 1;
        }
        p = e + strlen(closes[q]);
    }
    return 0;
}

/* type without its last `*` and the blanks before it ("int*", "int *"
 * -> "int"), or "" where it ends in none. */
static void pointed_type(const char *type, char *out, size_t n)
{
    size_t len = strlen(type);
    while (len > 0 && type[len - 1] == ' ')
        len--;
    if (len == 0 || type[len - 1] != '*') {
        out[0] = '\0';
        return;
    }
    len--;
    while (len > 0 && type[len - 1] == ' ')
        len--;
    snprintf(out, n, "%.*s", (int)len, type);
}

/* The name a "not declared" error is about (g++: "'X' was not declared
 * in this scope", nvcc: "identifier "X" is undefined") into out: 1, else 0. */
static int undeclared_name(const char *msg, char *out, size_t n)
{
    if (!strstr(msg, "was not declared") && !strstr(msg, "is undefined") && !strstr(msg, "undeclared"))
        return 0;
    if (!quoted_text(msg, 0, out, n) || !*out)
        return 0;
    for (const char *p = out; *p; p++)
        if (!(*p == '_' || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9')))
            return 0;
    return 1;
}

/* A name the compiler does not know at line at, traced to where it was to
 * come from: the lab's header, which the file does not include; a
 * declaration one slip away (`TILE_WIDHT`); a block the declaration is in
 * and the use is not; the skeleton's declaration, which the file lost. */
static char *undeclared_name_cause(const char *file, const char *msg, int at, const lab_manifest *m)
{
    char name[64], near[64];
    if (!m || !undeclared_name(msg, name, sizeof name))
        return NULL;
    char *lab_h = xasprintf("%s/lab.h", m->dir), *common = kit_path("grader/runtime/lab_common.h");
    char *skeleton = manifest_skeleton_path(m);
    char *cause = NULL;
    int close = 0, open = 0, line;
    if (strstr(msg, "undefined in device code") && (line = source_declaration_of(file, name, &close)) > 0 &&
        close == 0) {
        /* nvcc: a file-scope variable of the host's read in a kernel (the
         * emulator's rewriter says the same in its own words) */
        cause = xasprintf("%s is a host variable (declared at line %d with no __constant__ or __device__), read at "
                          "line %d in a kernel: device code cannot reach the host's variables; declare it "
                          "__constant__ (or __device__) and fill it with cudaMemcpyToSymbol, or give its data to "
                          "the kernel",
                          name, line, at);
    } else if ((source_declaration_of(lab_h, name, NULL) || source_declaration_of(common, name, NULL)) &&
        !source_includes(file, "lab.h")) {
        int top = source_first_code_line(file);
        char *q = sanitize_quote(file, top > 0 ? top : at);
        cause = xasprintf("%s is declared in lab.h, the lab's interface with the kit, and this file does not "
                          "#include it: add `#include \"lab.h\"` at the top of the file, before %s",
                          name, q);
        free(q);
    } else if ((line = source_declaration_of(file, name, &close)) > 0 && close > 0 && close < at) {
        /* the name itself is declared, in a block the use is after: its
         * scope, not its spelling (a name one slip away may be declared
         * too: `nRow` beside a `Row` declared inside the loop) */
        cause = xasprintf("line %d declares %s inside the block that ends at line %d, and line %d, after that "
                          "block, is outside its scope: declare %s before the block, where line %d can see it",
                          line, name, close, at, name, at);
    } else if ((line = source_declaration_block(file, name, &open, &close)) > at && (close == 0 || close > line) &&
               open <= at) {
        /* declared, but below the line that uses it, in a block that holds
         * the use too (not a parameter of a function further down, whose
         * name the use cannot reach anywhere): C reads a name only after
         * its declaration */
        char *qd = sanitize_quote(file, line);
        cause = xasprintf("%s declares %s, and line %d uses it before that: a name exists only from its "
                          "declaration on; move the declaration above line %d",
                          qd, name, at, at);
        free(qd);
    } else if ((line = source_near_declaration(file, name, near, sizeof near)) > 0) {
        cause = xasprintf("line %d declares `%s` and line %d uses `%s`: one name spelt two ways; write them "
                          "the same",
                          line, near, at, name);
    } else if (!(line = source_declaration_of(file, name, NULL)) &&
               (line = source_declaration_of(skeleton, name, NULL)) > 0) {
        char *decl = sanitize_quote(skeleton, line);
        cause = xasprintf("nothing in this file declares %s, which line %d uses: the skeleton declares it at its %s; "
                          "put that declaration back, before line %d",
                          name, at, decl, at);
        free(decl);
    }
    free(lab_h);
    free(common);
    free(skeleton);
    return cause;
}

/* Whether the word w stands in text as a whole name. */
static int names_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = strstr(text, w); p; p = strstr(p + 1, w))
        if ((p == text || !source_is_identifier_char(p[-1])) && !source_is_identifier_char(p[n]))
            return 1;
    return 0;
}

/* A `;` right after a for's or an if's header, above the error: the loop
 * or the test ends there, so a name the for's header declares is unknown
 * below it (g++: "'k' was not declared in this scope", nvcc: "identifier
 * "k" is undefined"), and an else below it has no if ("'else' without a
 * previous 'if'", nvcc: "expected a statement"). */
static char *empty_body_cause(const char *file, const char *msg, int at)
{
    char header[160], name[64];
    int line = source_empty_body(file, header, sizeof header);
    if (line <= 0 || line > at)
        return NULL;
    int loop = strncmp(header, "for", 3) == 0;
    if (loop && undeclared_name(msg, name, sizeof name) && names_word(header, name))
        return xasprintf("the `;` right after `%s` at line %d ends the loop there, and %s, which its header "
                         "declares, exists only inside the loop: line %d, meant as the loop's body, is after it, "
                         "where %s is unknown: take the `;` out",
                         header, line, name, at, name);
    char *q = sanitize_quote(file, at);
    /* g++ names the else; nvcc says "expected a statement" at its line */
    char *cause = !loop && (strstr(msg, "else") || strstr(q, "(`else") || strstr(q, "(`} else"))
                      ? xasprintf("the `;` right after `%s` at line %d ends the if there (its body is that empty "
                                  "statement), so the else at %s has no if to belong to: take the `;` out",
                                  header, line, q)
                      : NULL;
    free(q);
    return cause;
}

/* An assignment to a name its declaration makes const (g++: "assignment
 * of read-only variable 'dest'", nvcc: "expression must be a modifiable
 * lvalue"): the declaration is what to change. */
static char *read_only_cause(const char *file, const char *msg, int at)
{
    char name[64] = "";
    if (strstr(msg, "read-only variable"))
        quoted_text(msg, 0, name, sizeof name);
    else if (strstr(msg, "modifiable lvalue"))
        source_assigned_at(file, at, name, sizeof name);
    int line = *name ? source_declaration_of(file, name, NULL) : 0;
    if (line <= 0 || line == at || !source_line_has_word(file, line, "const"))
        return NULL;
    char *q = sanitize_quote(file, line);
    char *cause = xasprintf("%s declares %s const, and line %d assigns it again: a const is set once, where it is "
                            "declared; take the const out of its declaration (or give the new value a name of its "
                            "own)",
                            q, name, at);
    free(q);
    return cause;
}

/* A __shared__ array sized by a value known only at run time (g++: "size
 * of array 'ds_N' is not an integral constant-expression", nvcc:
 * "expression must have a constant value"): blockDim, a parameter, a
 * local. The compiler sizes a kernel's __shared__ arrays; the fix is a
 * constant. */
static char *shared_size_cause(const char *file, const char *msg, int at)
{
    if (!strstr(msg, "constant-expression") && !strstr(msg, "constant value") && !strstr(msg, "variable length"))
        return NULL;
    if (!source_line_has_word(file, at, "__shared__"))
        return NULL;
    const char *runtime = source_line_has_word(file, at, "blockDim") ? "blockDim, set by the launch"
                          : source_line_has_word(file, at, "gridDim") ? "gridDim, set by the launch"
                                                                      : "a value the kernel gets at run time";
    char *q = sanitize_quote(file, at);
    char *cause = xasprintf("%s sizes a __shared__ array with %s: the compiler sets aside a kernel's __shared__ "
                            "arrays before any launch, so their sizes must be constants it knows; size it with a "
                            "constant (a #define, as the tile's width), or declare it `extern __shared__` and give "
                            "its bytes as the launch's third <<< >>> argument",
                            q, runtime);
    free(q);
    return cause;
}

/* A cause the source shows upstream of the compiler's first error (a
 * declaration, a #define), which the report gives after that error; NULL
 * where it shows none. */
/* A launch whose argument the kernel's parameter does not take (g++
 * through emucc: "no known conversion for argument 3 from 'float*' to
 * 'double*'"; nvcc: "argument of type "float *" is incompatible with
 * parameter of type "double *""): the parameter's declaration, in the
 * kernel's definition, is what to change where it names another type than
 * the buffer it is given. */
static char *launch_type_cause(const char *file, const char *log, const char *first, int at)
{
    char kernel[64], param[128], arg[128];
    if (!source_kernel_parameter(file, at, 0, kernel, sizeof kernel, param, sizeof param, arg, sizeof arg))
        return NULL; /* not a launch of a kernel the file defines */
    char from[64] = "", to[64] = "";
    int k = 0;
    const char *note = strstr(log, "no known conversion for argument ");
    if (note && sscanf(note, "no known conversion for argument %d", &k) == 1) {
        const char *f = strstr(note, " from ");
        if (!f || !quoted_text(f, 0, from, sizeof from) || !quoted_text(f, 1, to, sizeof to))
            return NULL;
        k--;
    } else if (strstr(first, "is incompatible with parameter of type") && quoted_text(first, 0, from, sizeof from) &&
               quoted_text(first, 1, to, sizeof to)) {
        /* nvcc names no position: the parameter declared with that type */
        for (k = 0; k < 16; k++) {
            if (!source_kernel_parameter(file, at, k, kernel, sizeof kernel, param, sizeof param, arg, sizeof arg))
                return NULL;
            char want[64];
            pointed_type(to, want, sizeof want);
            if (*want && strstr(param, want))
                break;
        }
        if (k == 16)
            return NULL;
    } else
        return NULL;
    int decl = source_kernel_parameter(file, at, k, kernel, sizeof kernel, param, sizeof param, arg, sizeof arg);
    if (decl <= 0)
        return NULL;
    char *q = sanitize_quote(file, decl);
    char *cause = xasprintf("%s declares %s's parameter %d as `%s`, and the launch at line %d passes %s, a `%s`, "
                            "there: declare the parameter with the type of the buffer it is given",
                            q, kernel, k + 1, param, at, arg, from);
    free(q);
    return cause;
}

char *launch_arguments_misplaced(const char *file, int at)
{
    char kernel[64], arg1[64], arg2[64], par1[64], par2[64], said[320], right[256];
    int line = source_launch_arguments_crossed(file, kernel, sizeof kernel, arg1, arg2, par1, par2, sizeof arg1);
    if (line > 0 && (at <= 0 || line == at)) {
        char *q = sanitize_quote(file, line);
        char *cause = xasprintf("the launch at %s passes %s as %s's parameter `%s` and %s as its `%s`: each goes where "
                                "the other's name says it belongs; exchange them",
                                q, arg1, kernel, par1, arg2, par2);
        free(q);
        return cause;
    }
    line = source_launch_arguments_permuted(file, kernel, sizeof kernel, said, sizeof said, right, sizeof right);
    if (line <= 0 || (at > 0 && line != at))
        return NULL;
    char *q = sanitize_quote(file, line);
    char *cause = xasprintf("the launch at %s passes %s's arguments out of their order: %s, each where another's "
                            "name says it belongs; pass them in the parameters' order, (%s)",
                            q, kernel, said, right);
    free(q);
    return cause;
}

char *compile_error_cause(const char *file, const char *log, const lab_manifest *m)
{
    char *cause = NULL;
    char name[64], type[16];
    int line = source_pointer_list(file, name, sizeof name, type, sizeof type);
    if (line > 0) {
        /* the compiler's error is at a use; the declaration is the cause */
        char *q = sanitize_quote(file, line);
        cause = xasprintf("%s declares %s a %s, not a pointer: in a declaration the `*` belongs to the name "
                          "after it, not to the type, so `%s *a, b` makes b a plain %s: write `*%s`",
                          q, name, type, type, type, name);
        free(q);
    }
    /* a block left open: the compiler stops where the next function
     * starts inside it, or at the end of the file */
    int closed_by = 0, add_after = 0;
    line = !cause ? source_brace_left_open(file, &closed_by, &add_after) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        cause = xasprintf("the `{` at %s has no `}` of its own: the `}` at line %d, indented as an outer block's, "
                          "closes it, so everything after falls inside the wrong block (a function defined inside "
                          "another, or the file ending inside one); add its `}` after line %d",
                          q, closed_by, add_after);
        free(q);
    }
    /* a #define whose value ends in `;`: the errors are at its uses */
    int use = 0;
    line = !cause ? source_define_with_semicolon(file, name, sizeof name, &use) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        cause = xasprintf("the #define at %s ends with `;`: the preprocessor pastes the `;` with the value "
                          "into every use of %s (the first at line %d), in the middle of an expression, "
                          "where the compiler then stops; delete the `;` at the end of the #define",
                          q, name, use);
        free(q);
    }
    /* a kernel declared __device__: nvcc's error is at the launch (the
     * emulator's rewriter says so itself) */
    int launch = 0;
    line = !cause && !strstr(log, "is declared __device__")
               ? source_device_function_launched(file, name, sizeof name, &launch)
               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        cause = xasprintf("%s declares %s __device__, not __global__: a __device__ function is called from "
                          "device code and cannot be launched with <<< >>> (the launch at line %d); declare "
                          "it __global__",
                          q, name, launch);
        free(q);
    }
    /* a name declared float where an integer is needed: the error is at
     * the subscript (g++: "invalid types 'float*[float]'", nvcc: "must have
     * integral ... type", "invalid operands of types 'float' ..."), the
     * declaration is what to change */
    const char *msg = NULL;
    int at = !cause ? first_error_line(file, log, &msg) : 0;
    const char *eol = msg ? strchr(msg, '\n') : NULL;
    size_t msg_n = msg ? (eol ? (size_t)(eol - msg) : strlen(msg)) : 0;
    char *first = msg ? xasprintf("%.*s", (int)msg_n, msg) : NULL;
    line = at > 0 && (strstr(first, "float") || strstr(first, "double") || strstr(first, "integral"))
               ? source_floating_index(file, at, name, sizeof name, type, sizeof type)
               : 0;
    if (line > 0) {
        /* a const kept: an array's bound needs a constant integer */
        const char *keep = source_declared_const(file, line, name) ? "const " : "";
        cause = xasprintf("line %d declares `%s%s %s`, and line %d uses %s where C needs an integer (an array's "
                          "index or bound, an operand of %%): declare it `%sint %s`",
                          line, keep, type, name, at, name, keep, name);
    }
    /* the address of a variable declared with one type where the call
     * takes a pointer to another (g++: "cannot convert 'int*' to
     * 'size_t*'", nvcc: "argument of type "int *" is incompatible with
     * parameter of type "size_t *""): the declaration is what to change */
    char from[64] = "", to[64] = "", base[64] = "", wanted[64] = "";
    if (!cause && at > 0 && quoted_text(first, 0, from, sizeof from) && quoted_text(first, 1, to, sizeof to)) {
        pointed_type(from, base, sizeof base);
        pointed_type(to, wanted, sizeof wanted);
    }
    line = *base && *wanted ? source_address_of_type(file, at, base, name, sizeof name) : 0;
    if (line > 0)
        cause = xasprintf("line %d declares `%s %s`, and line %d passes &%s where the call takes a `%s *`: declare it "
                          "`%s %s`",
                          line, base, name, at, name, wanted, wanted, name);
    /* arguments in another parameter's place: the types the compiler
     * refuses at the launch (a float * where a const float * stands) */
    if (!cause && at > 0)
        cause = launch_arguments_misplaced(file, at);
    if (!cause && at > 0)
        cause = launch_type_cause(file, log, first, at);
    if (!cause && at > 0)
        cause = empty_body_cause(file, first, at);
    if (!cause && at > 0)
        cause = undeclared_name_cause(file, first, at, m);
    if (!cause && at > 0)
        cause = read_only_cause(file, first, at);
    /* a pointer declared to const passed where the call writes through it
     * (g++: "invalid conversion from 'const void*' to 'void*'", nvcc:
     * "argument of type "const float *" is incompatible with parameter of
     * type "void *"") */
    int parameter = 0;
    line = !cause && at > 0 && strstr(first, "const") && (strstr(first, "conversion") || strstr(first, "incompatible"))
               ? source_const_pointer_on_line(file, at, name, sizeof name, &parameter)
               : 0;
    char output[64];
    if (line > 0 && parameter) {
        /* an input the function takes as const (the lab's own interface):
         * a copy back to the host writes into the function's output; a
         * copy to the device reads the input, its second argument */
        char *q = sanitize_quote(file, line);
        if (source_line_has_text(file, at, "ToHost") && source_function_output_pointer(file, at, output, sizeof output))
            cause = xasprintf("line %d passes %s where the call writes through it, but %s is an input of the "
                              "function, declared a pointer to const at %s: a copy back to the host writes into its "
                              "output, %s: put %s there",
                              at, name, name, q, output, output);
        else if (source_line_has_text(file, at, "HostToDevice"))
            cause = xasprintf("line %d passes %s, an input of the function (a pointer to const at %s), as the copy's "
                              "destination, its first argument: a copy to the device reads %s and writes a device "
                              "buffer: the destination comes first, cudaMemcpy(dst, src, bytes, kind)",
                              at, name, q, name);
        else
            cause = xasprintf("line %d passes %s where the call writes through it, but %s is an input of the "
                              "function, declared a pointer to const at %s: pass the buffer the call is to fill",
                              at, name, name, q);
        free(q);
    } else if (line > 0) {
        char *q = sanitize_quote(file, line);
        cause = xasprintf("%s declares %s a pointer to const, and line %d passes it where the call writes through "
                          "it: a device buffer the program fills is not const; drop the const from its declaration",
                          q, name, at);
        free(q);
    }
    /* an array's bound that is a variable (g++: "size of array ... is not an
     * integral constant-expression", nvcc: "expression must have a constant
     * value", or for a __shared__ array "a variable length array cannot
     * have static storage duration"): its declaration lacks const */
    line = !cause && at > 0 &&
                   (strstr(first, "constant-expression") || strstr(first, "constant value") ||
                    strstr(first, "variable length array"))
               ? source_bound_not_constant(file, at, name, sizeof name)
               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        cause = xasprintf("%s declares %s without const, and line %d sizes an array by it: an array's bounds must "
                          "be constants the compiler knows; declare it `const`",
                          q, name, at);
        free(q);
    }
    /* the same for a __shared__ array sized by no declaration of the file's
     * (blockDim, a parameter): a constant to size it by */
    if (!cause && at > 0)
        cause = shared_size_cause(file, first, at);
    /* an array subscripted more times than it has dimensions (g++:
     * "invalid types 'float[int]' for array subscript", nvcc: "expression
     * must have pointer-to-object type"): its declaration */
    int declared = 0, used = 0;
    line = !cause && at > 0 && (strstr(first, "array subscript") || strstr(first, "pointer-to-object"))
               ? source_subscripts_past_declaration(file, at, name, sizeof name, &declared, &used)
               : 0;
    if (line > 0 && declared == 0) {
        char *q = sanitize_quote(file, line);
        cause = xasprintf("%s declares %s, which is neither an array nor a pointer, and line %d indexes it: either "
                          "that line means another name, or the declaration lacks its `[...]`",
                          q, name, at);
        free(q);
    } else if (line > 0) {
        char *q = sanitize_quote(file, line);
        cause = xasprintf("%s declares %s with %d dimension%s, and line %d indexes it with %d subscripts: give its "
                          "declaration %d dimensions (`[rows][columns]`), or index it with %d (a row times the row's "
                          "length plus a column)",
                          q, name, declared, declared == 1 ? "" : "s", at, used, used, declared);
        free(q);
    }
    free(first);
    return cause;
}
