/*
 * options.h - every command's options, declared as data and read in one
 * place (as git's parse-options): a command gives a table of option_spec
 * and a struct the table's offsets point into; options_parse fills it from
 * the command line, and options_help prints the same table as the
 * command's --help. What a value must be (a number, one of some words) is
 * checked by the command, which says so with the option's name.
 */
#ifndef GPULAB_OPTIONS_H
#define GPULAB_OPTIONS_H

#include <stddef.h>
#include <stdio.h>

typedef enum {
    OPT_VALUE,  /* --name VALUE (or --name=VALUE): a const char * */
    OPT_FLAG,   /* --name: an int set to 1 */
    OPT_LIST,   /* --name VALUE, again and again: an option_list */
} option_kind;

typedef struct {
    const char **v;
    int n;
} option_list;

typedef struct {
    const char *name;      /* "--backend" */
    option_kind kind;
    size_t at;             /* offsetof(the command's struct, the field) */
    const char *value;     /* what the value is, for help: "gpu|emu"; NULL for a flag */
    const char *help;      /* one line or more (\n between lines), for help */
    int secret;            /* its value is copied and blanked on the command line, which /proc shows */
} option_spec;

/* A command of gpulab: its name, its words after the name, what it does,
 * its options, and the function that runs it. */
typedef struct {
    const char *name;
    const char *synopsis;              /* "LAB FILE.cu [options]" */
    const char *summary;               /* what it does, one line or more */
    const option_spec *options;
    size_t noptions;
    int (*run)(int argc, char **argv);
} command_spec;

/* Fills args (zeroed first by the caller) from argv[0..argc) by table: an
 * option anywhere among the words, its value the next word or after '=';
 * every other word is positional, in order, into positional (argc + 1
 * entries), counted in *npositional. Stops at "--" when stop_at_dashdash
 * (returning its index), else at argc. A word that starts with '-' and is
 * no option of the table, or an option without its value: -1, with
 * *bad the word. An OPT_VALUE option given twice with different values
 * dies (a usage error: which one was meant is not for the kit to guess). */
int options_parse(const option_spec *table, size_t n, void *args, int argc, char **argv, int stop_at_dashdash,
                  const char **positional, int *npositional, const char **bad);

/* The table's entry named name, or NULL. */
const option_spec *options_find(const option_spec *table, size_t n, const char *name);

/* Whether the command line gave option o, and its value (OPT_VALUE). */
int options_given(const option_spec *o, const void *args);
const char *options_value(const option_spec *o, const void *args);
const option_list *options_list(const option_spec *o, const void *args);

/* A time limit's value, as every command's --timeout takes it: seconds,
 * more than 0 and at most a day (OPTIONS_SECONDS_MAX). 0 with *seconds
 * set, or -1. */
#define OPTIONS_SECONDS_MAX 86400
int options_seconds(const char *value, double *seconds);

/* Whether argv (up to "--") asks for help: --help or -h. */
int options_want_help(int argc, char **argv);

/* Whether word is --version. */
int options_want_version(const char *word);

/* Whether word, an option for another program that reads its options with
 * getopt_long (sbatch), would be taken as one of names: a long name, with
 * "=VALUE" or not, or any prefix of it getopt_long would accept ("--arr");
 * a one-letter name ("-a") with its value attached or not. */
int options_word_names(const char *word, const char *const *names);

/* The command's help: "  gpulab NAME SYNOPSIS" (after "usage:\n" with
 * heading), its summary, then one entry per option of its table. */
void options_help(FILE *out, const command_spec *c, int heading);

#endif
