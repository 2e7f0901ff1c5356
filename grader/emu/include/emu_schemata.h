/* emu_schemata.h - what a mutant schemata build (emucc --schemata) calls:
 * the number of the candidate edit that is live, and the binary operators
 * whose edits keep each operand written once (emucc's schemata.c).
 *
 * gpulab_emu_mutant is 0 unless the program's environment sets
 * GPULAB_EMU_MUTANT (base.c reads it at start); candidate k is live when it
 * is k. Each helper computes exactly the unedited operator when none of
 * its candidates is live, on operands of the same types, so the program
 * with 0 computes what the unedited source does. An edit that would not
 * compile for these operand types (a pointer minus a pointer where the
 * source adds an integer) is left as the unedited operator: the build never
 * breaks on one. */
#ifndef EMU_SCHEMATA_H
#define EMU_SCHEMATA_H
#pragma GCC system_header /* the source's own warnings stay on its lines */

extern "C" int gpulab_emu_mutant;

/* Each function that holds candidates is written twice: a copy with them,
 * then the function itself, unedited but for a first statement that calls
 * the copy when a candidate is live. The copy is compiled for speed of
 * compiling (O1) and never inlined: the function itself compiles as in the
 * plain build. */
#if defined(__clang__)
#define GPULAB_EMU_MUTATED __attribute__((noinline, cold))
#else
#define GPULAB_EMU_MUTATED __attribute__((noinline, cold, optimize("O0")))
#endif

namespace gpulab_emu_ {
/* static_cast<R>(v) where it is well-formed, else o */
template <class R, class T> inline auto as_(T &v, R, int) -> decltype(static_cast<R>(v)) { return static_cast<R>(v); }
template <class R, class T> inline R as_(T &, R o, long) { return o; }

#define GPULAB_EMU_ALT_(name, OP)                                                                             \
    template <class R, class A, class B> inline auto name(A &a, B &b, R, int) -> decltype(static_cast<R>(a OP b)) \
    {                                                                                                         \
        return static_cast<R>(a OP b);                                                                        \
    }                                                                                                         \
    template <class R, class A, class B> inline R name(A &, B &, R o, long) { return o; }
GPULAB_EMU_ALT_(add_, +)
GPULAB_EMU_ALT_(sub_, -)
GPULAB_EMU_ALT_(div_, /)
GPULAB_EMU_ALT_(mul_, *)
GPULAB_EMU_ALT_(lt_, <)
GPULAB_EMU_ALT_(le_, <=)
GPULAB_EMU_ALT_(gt_, >)
GPULAB_EMU_ALT_(ge_, >=)
GPULAB_EMU_ALT_(eq_, ==)
GPULAB_EMU_ALT_(ne_, !=)
GPULAB_EMU_ALT_(mod_, %)
#undef GPULAB_EMU_ALT_

/* (a + b - 1) / b: a quotient rounded up (a count of blocks or tiles) */
template <class R, class A, class B>
inline auto ceil_(A &a, B &b, R, int) -> decltype(static_cast<R>((a + b - 1) / b))
{
    return static_cast<R>((a + b - 1) / b);
}
template <class R, class A, class B> inline R ceil_(A &, B &, R o, long) { return o; }

/* OP(k, a, b): a OP b, or, when candidate k + i is live, its i-th edit
 * (schemata.c lists them in this order); OP(k, s, a, b): the same, and
 * the first edit while candidate s is live (one edit of several places):
 *   +   a - b, a, b, a * b    -   a + b, a     *   a, b, a + b    /   a, (a + b - 1) / b, a % b, b
 *   %   a / b (a count that wants a quotient: `(k + T - 1) % T`)
 *   <   a <= b, a > b      <=  a < b, a >= b   >   a >= b, a < b
 *   >=  a > b, a <= b      ==  a != b          !=  a == b */
#define GPULAB_EMU_OP_(name, OP, N, E0, E1, E2)                                              \
    template <class A, class B> inline auto name(int k, A a, B b) -> decltype(a OP b)    \
    {                                                                                         \
        typedef decltype(a OP b) R;                                                           \
        unsigned d = (unsigned)(gpulab_emu_mutant - k);                                       \
        if (__builtin_expect(d >= (N), 1))                                                    \
            return a OP b;                                                                    \
        R o = a OP b;                                                                         \
        return d == 0 ? E0 : d == 1 ? E1 : E2;                                                \
    }                                                                                         \
    template <class A, class B> inline auto name(int k, int s, A a, B b) -> decltype(a OP b) \
    {                                                                                         \
        typedef decltype(a OP b) R;                                                           \
        if (__builtin_expect(gpulab_emu_mutant != s, 1))                                      \
            return name(k, a, b);                                                             \
        R o = a OP b;                                                                         \
        return E0;                                                                            \
    }
GPULAB_EMU_OP_(sub, -, 2u, add_(a, b, o, 0), as_(a, o, 0), o)
GPULAB_EMU_OP_(mul, *, 3u, as_(a, o, 0), as_(b, o, 0), add_(a, b, o, 0))
GPULAB_EMU_OP_(mod, %, 1u, div_(a, b, o, 0), o, o)
GPULAB_EMU_OP_(lt, <, 2u, le_(a, b, o, 0), gt_(a, b, o, 0), o)
GPULAB_EMU_OP_(le, <=, 2u, lt_(a, b, o, 0), ge_(a, b, o, 0), o)
GPULAB_EMU_OP_(gt, >, 2u, ge_(a, b, o, 0), lt_(a, b, o, 0), o)
GPULAB_EMU_OP_(ge, >=, 2u, gt_(a, b, o, 0), le_(a, b, o, 0), o)
GPULAB_EMU_OP_(eq, ==, 1u, ne_(a, b, o, 0), o, o)
GPULAB_EMU_OP_(ne, !=, 1u, eq_(a, b, o, 0), o, o)
#undef GPULAB_EMU_OP_

/* The same with four edits (`+`, whose last is `*`; `/`, whose last is
 * its divisor alone) */
#define GPULAB_EMU_OP4_(name, OP, N, E0, E1, E2, E3)                                         \
    template <class A, class B> inline auto name(int k, A a, B b) -> decltype(a OP b)    \
    {                                                                                         \
        typedef decltype(a OP b) R;                                                           \
        unsigned d = (unsigned)(gpulab_emu_mutant - k);                                       \
        if (__builtin_expect(d >= (N), 1))                                                    \
            return a OP b;                                                                    \
        R o = a OP b;                                                                         \
        return d == 0 ? E0 : d == 1 ? E1 : d == 2 ? E2 : E3;                                  \
    }                                                                                         \
    template <class A, class B> inline auto name(int k, int s, A a, B b) -> decltype(a OP b) \
    {                                                                                         \
        typedef decltype(a OP b) R;                                                           \
        if (__builtin_expect(gpulab_emu_mutant != s, 1))                                      \
            return name(k, a, b);                                                             \
        R o = a OP b;                                                                         \
        return E0;                                                                            \
    }
GPULAB_EMU_OP4_(add, +, 4u, sub_(a, b, o, 0), as_(a, o, 0), as_(b, o, 0), mul_(a, b, o, 0))
GPULAB_EMU_OP4_(div, /, 4u, as_(a, o, 0), ceil_(a, b, o, 0), mod_(a, b, o, 0), as_(b, o, 0))
#undef GPULAB_EMU_OP4_

/* scale(k, v, n): v, or v * n (a count of elements made bytes) when
 * candidate k is live and v is a number */
template <class A> inline auto scale_(A &a, decltype(sizeof 0) n, int) -> decltype(static_cast<A>(a * n))
{
    return static_cast<A>(a * n);
}
template <class A> inline A scale_(A &a, decltype(sizeof 0), long) { return a; }
template <class A> inline A scale(int k, A a, decltype(sizeof 0) n) { return gpulab_emu_mutant == k ? scale_(a, n, 0) : a; }
} // namespace gpulab_emu_
#endif
