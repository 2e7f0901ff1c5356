/*
 * options.c - see options.h. The one place where the command line's words
 * are compared with option names.
 */
#include "options.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

const option_spec *options_find(const option_spec *table, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

static const char **value_field(const option_spec *o, void *args)
{
    return (const char **)(void *)((char *)args + o->at);
}

static int *flag_field(const option_spec *o, void *args)
{
    return (int *)(void *)((char *)args + o->at);
}

static option_list *list_field(const option_spec *o, void *args)
{
    return (option_list *)(void *)((char *)args + o->at);
}

int options_given(const option_spec *o, const void *args)
{
    void *a = (void *)args;
    switch (o->kind) {
    case OPT_FLAG:
        return *flag_field(o, a);
    case OPT_LIST:
        return list_field(o, a)->n > 0;
    default:
        return *value_field(o, a) != NULL;
    }
}

const char *options_value(const option_spec *o, const void *args)
{
    return o->kind == OPT_VALUE ? *value_field(o, (void *)args) : NULL;
}

const option_list *options_list(const option_spec *o, const void *args)
{
    return o->kind == OPT_LIST ? list_field(o, (void *)args) : NULL;
}

/* The option a word names: "--name" or "--name=VALUE" (then *inline_value
 * points after the '='). */
static const option_spec *named(const option_spec *table, size_t n, const char *word, const char **inline_value)
{
    *inline_value = NULL;
    const char *eq = strncmp(word, "--", 2) == 0 ? strchr(word, '=') : NULL;
    if (!eq)
        return options_find(table, n, word);
    for (size_t i = 0; i < n; i++)
        if (table[i].kind != OPT_FLAG && strlen(table[i].name) == (size_t)(eq - word) &&
            strncmp(table[i].name, word, (size_t)(eq - word)) == 0) {
            *inline_value = eq + 1;
            return &table[i];
        }
    return NULL;
}

int options_parse(const option_spec *table, size_t n, void *args, int argc, char **argv, int stop_at_dashdash,
                  const char **positional, int *npositional, const char **bad)
{
    *npositional = 0;
    for (int i = 0; i < argc; i++) {
        char *word = argv[i];
        if (stop_at_dashdash && strcmp(word, "--") == 0)
            return i;
        const char *value;
        const option_spec *o = named(table, n, word, &value);
        if (!o) {
            if (word[0] == '-' && word[1] != '\0') {
                *bad = word;
                return -1;
            }
            positional[(*npositional)++] = word;
            continue;
        }
        if (o->kind == OPT_FLAG) {
            *flag_field(o, args) = 1;
            continue;
        }
        char *in_argv = NULL;
        if (!value) {
            if (i + 1 >= argc) {
                *bad = word;
                return -1;
            }
            in_argv = argv[++i];
            value = in_argv;
        }
        if (o->secret) {
            /* kept, and blanked where every process of the machine sees it */
            value = xstrdup(value);
            char *shown = in_argv ? in_argv : strchr(word, '=') + 1;
            memset(shown, '*', strlen(shown));
        }
        if (o->kind == OPT_LIST) {
            option_list *l = list_field(o, args);
            l->v = xrealloc(l->v, (size_t)(l->n + 1) * sizeof *l->v);
            l->v[l->n++] = value;
        } else {
            /* one value: a second, different one is no choice between them */
            const char *had = *value_field(o, args);
            if (had && strcmp(had, value) != 0) {
                if (o->secret)
                    die("%s given twice with different values: give it once", o->name);
                die("%s given twice (%s, then %s): give it once", o->name, had, value);
            }
            *value_field(o, args) = value;
        }
    }
    return argc;
}

int options_want_help(int argc, char **argv)
{
    for (int i = 0; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return 1;
    return 0;
}

int options_want_version(const char *word)
{
    return strcmp(word, "--version") == 0;
}

int options_word_names(const char *word, const char *const *names)
{
    size_t given = strcspn(word, "=");
    for (int i = 0; names[i]; i++) {
        const char *n = names[i];
        if (n[1] != '-') { /* "-a": "-a", "-aVALUE" */
            if (strncmp(word, n, 2) == 0)
                return 1;
        } else if (strncmp(word, "--", 2) == 0 && given > 2 && given <= strlen(n) && strncmp(word, n, given) == 0) {
            return 1;
        }
    }
    return 0;
}

/* text's lines, each after indent (the first after what is printed already). */
static void indented(FILE *out, const char *text, int column, int at)
{
    if (at >= column - 1) { /* no room on this line */
        fputc('\n', out);
        at = 0;
    }
    for (const char *line = text; *line;) {
        size_t len = strcspn(line, "\n");
        fprintf(out, "%*s%.*s\n", column > at ? column - at : 1, "", (int)len, line);
        at = 0;
        line += len + (line[len] == '\n');
    }
}

void options_help(FILE *out, const command_spec *c, int heading)
{
    if (heading)
        fputs("usage:\n", out);
    int at = fprintf(out, "  gpulab %s%s%s", c->name, c->synopsis[0] ? " " : "", c->synopsis);
    indented(out, c->summary, 36, at);
    for (size_t i = 0; i < c->noptions; i++) {
        const option_spec *o = &c->options[i];
        int at = fprintf(out, "      %s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
        indented(out, o->help, 36, at);
    }
}

int options_seconds(const char *value, double *seconds)
{
    char *end;
    double s = strtod(value, &end);
    if (end == value || *end || !(s > 0 && s <= OPTIONS_SECONDS_MAX))
        return -1;
    *seconds = s;
    return 0;
}
