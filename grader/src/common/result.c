/*
 * result.c - see result.h.
 */
#include "result.h"

const char *status_name(status_t s)
{
    static const char *const names[ST_COUNT] = {
        "pass", "wrong", "compile_error", "timeout", "crash", "cuda_error", "no_output", "grader_error",
        "requirement_failed", "unsafe", "refused", "not_checked",
    };
    return s < ST_COUNT ? names[s] : "grader_error";
}
