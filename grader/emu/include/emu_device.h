/*
 * emu_device.h - the device side of the gpulab CPU emulator (C++ only).
 *
 * emucc force-includes this header into every .cu file it compiles. It maps
 * CUDA's qualifiers and built-in variables onto the emulator's runtime and
 * provides the kernel launch that emucc's rewriter turns <<<...>>> into.
 */
#ifndef GPULAB_EMU_DEVICE_H
#define GPULAB_EMU_DEVICE_H
#ifndef __cplusplus
#error "emu_device.h is C++: compile .cu files with emucc"
#endif

#include "cuda_runtime_api.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <climits>
#include <cfloat>
#include <cstdint>
#include <tuple>
#include <utility>
#include <type_traits>
/* libstdc++ spells an attribute __attribute__((__noinline__)) in some of
 * its headers (<memory> from GCC 12, <string> from GCC 13), which no longer
 * compile once __noinline__ is the macro below: emucc reads each #include
 * <...> of a .cu file with the macro put aside (rewrite.c,
 * wrap_system_includes), and includes <memory> and <string> before this
 * header in a C++ file it does not rewrite. */

/* ---- qualifiers ---------------------------------------------------------- */
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __shared__                  /* emucc rewrites __shared__ declarations */
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)
/* emucc's rewriter marks each __constant__ declaration that is not const
 * (rewrite.c, mark_constant): in the race build, a section of its own,
 * every array 256-byte aligned, so that the bytes past one are padding that
 * the bounds check reports (race.c) */
/* The same text in the grading build and the race build (a student's
 * stringified macro must not tell them apart); --check's AddressSanitizer
 * guards globals itself. */
#if !defined(EMU_MODE_SANITIZE) || defined(EMU_MODE_RACE)
#define EMU_CONSTANT_ARRAY __attribute__((section("emu_constant"), aligned(256)))
#else
#define EMU_CONSTANT_ARRAY
#endif
#define __CUDACC__EMU 1

/* ---- built-in variables: set by the scheduler for the running fiber ------ */
/* Read-only names for the runtime's thread-local variables (the asm label
 * names the same symbol), not macros: as with nvcc, a program may declare
 * a variable of its own called blockDim or gridDim (dim3 blockDim(16, 16);
 * in main), which hides these in its scope. */
/* An asm label is the symbol's name as the object file spells it: with the
 * platform's prefix for C names (__USER_LABEL_PREFIX__: none on ELF, "_" on
 * Mach-O), as base.c's definitions get it from the compiler. */
#define EMU_STR_(x) #x
#define EMU_ASM_NAME_(prefix, name) EMU_STR_(prefix) name
#define EMU_ASM_NAME(name) EMU_ASM_NAME_(__USER_LABEL_PREFIX__, name)
extern __thread const uint3 threadIdx __asm__(EMU_ASM_NAME("emu_threadIdx_"));
extern __thread const uint3 blockIdx __asm__(EMU_ASM_NAME("emu_blockIdx_"));
extern __thread const dim3 blockDim __asm__(EMU_ASM_NAME("emu_blockDim_"));
extern __thread const dim3 gridDim __asm__(EMU_ASM_NAME("emu_gridDim_"));
static const int warpSize = 32;

/* __syncthreads() reads the same in every build (a student's stringified
 * macro must not tell a checker's build from the graded one); what it calls
 * differs. A function, not a macro, so that the compiler's messages name
 * the student's __syncthreads (a missing ';' before it: "expected ';'
 * before '__syncthreads'"), never the emulator's function it calls; its
 * caller's file and line come as default arguments. */
#ifdef EMU_MODE_SANITIZE
/* --race / --check: the runtime's switch, with the sanitizers' fiber hooks */
static inline __attribute__((always_inline)) void emu_sync_(const char *file, int line)
{
    emu_syncthreads_(file, line);
}
#else
/* default: the bookkeeping is a call, the switch is inline at the call site */
static inline __attribute__((always_inline)) void emu_sync_(const char *file, int line)
{
    struct emu_swap s = emu_sync_enter_(file, line);
    if (s.from)
        EMU_SWITCH(s.from, s.to);
}
#endif
static inline __attribute__((always_inline)) void __syncthreads(const char *file = __builtin_FILE(),
                                                                int line = __builtin_LINE())
{
    emu_sync_(file, line);
}
static inline void __syncwarp(unsigned mask = 0xffffffffu) { (void)mask; }
static inline void __threadfence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_block(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

/* ---- the names of a block's shared arrays ---------------------------------- *
 * emucc's rewriter follows each function-scope __shared__ declaration with
 * a call per name it declares. In the race build the runtime learns each
 * array's name, place and shape (race.c's tile contents: what a shared
 * slot holds at a barrier, named as the student wrote the array); in every
 * other build the call is nothing. */
#ifdef EMU_MODE_RACE
extern "C" void emu_race_shared_name_(const char *name, const void *a, size_t bytes, size_t elem, unsigned rank,
                                      size_t d0, size_t d1);
#endif
template <class A> static inline void emu_shared_named_(const char *name, A &a)
{
#ifdef EMU_MODE_RACE
    typedef typename std::remove_all_extents<A>::type E;
    emu_race_shared_name_(name, (const void *)&a, sizeof a, sizeof(E), (unsigned)std::rank<A>::value,
                          std::extent<A, 0>::value, std::extent<A, 1>::value);
#else
    (void)name, (void)a;
#endif
}

/* ---- a kernel's tests ------------------------------------------------------ *
 * In the race build the rewriter wraps each condition of an if, for or
 * while in a kernel (emu_test_) and each comparison joined at its top level
 * by && or || (emu_lt_ ... emu_ne_; rewrite.c). Each returns what the
 * student's expression gives; the runtime keeps, for the blocks whose tiles
 * it keeps, which way each thread's tests went and what the last
 * comparison compared (tiles.c). In other builds nothing is wrapped. */
#ifdef EMU_MODE_RACE
extern "C" void emu_race_compared_(int k, int op, double a, double b);
extern "C" void emu_race_tested_(int line, int result);
#endif
template <class T> static inline double emu_test_value_(const T &v)
{
    if constexpr (std::is_arithmetic<T>::value)
        return (double)v;
    else
        return (void)v, __builtin_nan("");
}
/* A pointer tested against NULL or 0 (`if (p != NULL && ...)`): in the
 * student's expression the 0 is a null pointer constant, but once passed
 * to the wrapper it is an integer variable, which C++ will not compare with
 * a pointer; the wrapper turns it back into the pointer's type (the
 * student's code compiled, so the integer is a null constant). */
template <class A, class B, class F> static inline bool emu_compare_operands_(const A &a, const B &b, F op)
{
    typedef typename std::decay<A>::type DA;
    typedef typename std::decay<B>::type DB;
    if constexpr (std::is_pointer<DA>::value && std::is_integral<DB>::value)
        return op(a, (DA)(unsigned long long)b);
    else if constexpr (std::is_integral<DA>::value && std::is_pointer<DB>::value)
        return op((DB)(unsigned long long)a, b);
    else
        return op(a, b);
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-compare"
#ifdef EMU_MODE_RACE
#define EMU_COMPARISON_(NAME, OP, CODE)                                                                      \
    template <class A, class B> static inline bool NAME(int k, const A &a, const B &b)                      \
    {                                                                                                          \
        bool r = emu_compare_operands_(a, b, [](const auto &x, const auto &y) { return x OP y; });            \
        emu_race_compared_(k, CODE, emu_test_value_(a), emu_test_value_(b));                                   \
        return r;                                                                                              \
    }
#else
#define EMU_COMPARISON_(NAME, OP, CODE)                                                                      \
    template <class A, class B> static inline bool NAME(int k, const A &a, const B &b)                      \
    {                                                                                                          \
        return (void)k, emu_compare_operands_(a, b, [](const auto &x, const auto &y) { return x OP y; });     \
    }
#endif
EMU_COMPARISON_(emu_lt_, <, 0)
EMU_COMPARISON_(emu_le_, <=, 1)
EMU_COMPARISON_(emu_gt_, >, 2)
EMU_COMPARISON_(emu_ge_, >=, 3)
EMU_COMPARISON_(emu_eq_, ==, 4)
EMU_COMPARISON_(emu_ne_, !=, 5)
#undef EMU_COMPARISON_
#pragma GCC diagnostic pop
template <class T> static inline bool emu_test_(int line, const T &c)
{
    bool r = static_cast<bool>(c);
#ifdef EMU_MODE_RACE
    emu_race_tested_(line, r);
#else
    (void)line;
#endif
    return r;
}

/* The race build's mark before a store into an array that starts a
 * statement (rewrite.c): the line of the store, for the tile snapshot's
 * account of which store wrote a slot (tiles.c). */
#ifdef EMU_MODE_RACE
extern "C" void emu_race_store_line_(int line);
#endif
static inline void emu_store_line_(int line)
{
#ifdef EMU_MODE_RACE
    emu_race_store_line_(line);
#else
    (void)line;
#endif
}

/* ---- __constant__ arrays nothing stored ------------------------------------ *
 * In the race build the rewriter follows each __constant__ array's
 * declaration with one of these (rewrite.c, mark_constant): the runtime
 * learns its place, size, name and line before main(), so that a kernel's
 * read of bytes no cudaMemcpyToSymbol stored is an "unset" line (unset.c),
 * even for an array nothing ever copies to. */
#ifdef EMU_MODE_RACE
extern "C" void emu_constant_declared_(const void *symbol, size_t size, const char *name, const char *file, int line,
                                       int initialised);
struct emu_constant_site_ {
    emu_constant_site_(const void *symbol, size_t size, const char *name, const char *file, int line, int initialised)
    {
        emu_constant_declared_(symbol, size, name, file, line, initialised);
    }
};
#endif

/* ---- subscripts of a multi-dimensional array ------------------------------- *
 * In the race build the rewriter wraps each subscript of a function-scope
 * __shared__ or local array of two or more dimensions (rewrite.c,
 * wrap_subscripts): ds_M[ty][tx] with tx up to 31 in a [16][16] array stays
 * inside ds_M as a whole (a neighbouring row's slot), so only the
 * subscript against its own dimension shows it. Returns the subscript as
 * written; a value outside [0, dim) is recorded (race.c) and reported when
 * the launch ends. */
#ifdef EMU_MODE_RACE
extern "C" void emu_race_subscript_(long long value, unsigned long long dim, const char *array, const char *text,
                                    int k, int rank, int declared);
template <class A, class T>
static inline __attribute__((always_inline)) T emu_subscript_(T v, const A &, int k, const char *array,
                                                              const char *text, int declared)
{
    typedef typename std::remove_reference<A>::type R;
    static_assert(std::is_array<R>::value, "emu_subscript_ wraps arrays only");
    unsigned long long dim = k == 0 ? std::extent<R, 0>::value : k == 1 ? std::extent<R, 1>::value
                           : k == 2 ? std::extent<R, 2>::value : std::extent<R, 3>::value;
    if constexpr (std::is_integral<T>::value || std::is_enum<T>::value) {
        if (dim && (unsigned long long)(long long)v >= dim)
            emu_race_subscript_((long long)v, dim, array, text, k, (int)std::rank<R>::value, declared);
    }
    return v;
}
#endif

/* ---- vector types used by labs -------------------------------------------- */
struct float2 { float x, y; };
struct float3 { float x, y, z; };
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };
struct int2 { int x, y; };
struct int3 { int x, y, z; };
struct __attribute__((aligned(16))) int4 { int x, y, z, w; };
static inline float2 make_float2(float x, float y) { return float2{x, y}; }
static inline float3 make_float3(float x, float y, float z) { return float3{x, y, z}; }
static inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
static inline int2 make_int2(int x, int y) { return int2{x, y}; }
static inline int3 make_int3(int x, int y, int z) { return int3{x, y, z}; }
static inline int4 make_int4(int x, int y, int z, int w) { return int4{x, y, z, w}; }
static inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return uint3{x, y, z}; }

/* ---- atomics: real ones, blocks run on several OS threads ----------------- */
template <class T> static inline T emu_atomic_rmw_(T *p, T v, int op)
{
    T old, nv;
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    do {
        switch (op) {
        case 0: nv = old + v; break;
        case 1: nv = old < v ? old : v; break;
        default: nv = old > v ? old : v; break;
        }
    } while (!__atomic_compare_exchange(p, &old, &nv, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    return old;
}
static inline float emu_atomic_fadd_(float *p, float v)
{
    float old, nv;
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    do { nv = old + v; } while (!__atomic_compare_exchange(p, &old, &nv, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    return old;
}
static inline double emu_atomic_dadd_(double *p, double v)
{
    double old, nv;
    __atomic_load(p, &old, __ATOMIC_RELAXED);
    do { nv = old + v; } while (!__atomic_compare_exchange(p, &old, &nv, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    return old;
}
static inline int atomicAdd(int *p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
static inline unsigned atomicAdd(unsigned *p, unsigned v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
static inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) { return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST); }
static inline float atomicAdd(float *p, float v) { return emu_atomic_fadd_(p, v); }
static inline double atomicAdd(double *p, double v) { return emu_atomic_dadd_(p, v); }
static inline int atomicSub(int *p, int v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); }
static inline unsigned atomicSub(unsigned *p, unsigned v) { return __atomic_fetch_sub(p, v, __ATOMIC_SEQ_CST); }
static inline int atomicExch(int *p, int v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
static inline unsigned atomicExch(unsigned *p, unsigned v) { return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST); }
static inline float atomicExch(float *p, float v) { float o; __atomic_exchange(p, &v, &o, __ATOMIC_SEQ_CST); return o; }
static inline int atomicMin(int *p, int v) { return emu_atomic_rmw_(p, v, 1); }
static inline unsigned atomicMin(unsigned *p, unsigned v) { return emu_atomic_rmw_(p, v, 1); }
static inline int atomicMax(int *p, int v) { return emu_atomic_rmw_(p, v, 2); }
static inline unsigned atomicMax(unsigned *p, unsigned v) { return emu_atomic_rmw_(p, v, 2); }
static inline int atomicAnd(int *p, int v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
static inline int atomicOr(int *p, int v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
static inline int atomicXor(int *p, int v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }
static inline unsigned atomicAnd(unsigned *p, unsigned v) { return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST); }
static inline unsigned atomicOr(unsigned *p, unsigned v) { return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST); }
static inline unsigned atomicXor(unsigned *p, unsigned v) { return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST); }
template <class T> static inline T atomicCAS(T *p, T compare, T val)
{
    __atomic_compare_exchange_n(p, &compare, val, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return compare;
}
static inline unsigned atomicInc(unsigned *p, unsigned limit)
{
    unsigned old = __atomic_load_n(p, __ATOMIC_RELAXED), nv;
    do { nv = old >= limit ? 0 : old + 1; } while (!__atomic_compare_exchange_n(p, &old, nv, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
    return old;
}

/* ---- math: CUDA's device functions and intrinsics ------------------------- */
/* glibc declares but does not export __expf & co.: map them onto the libm calls */
#define __expf(x) expf(x)
#define __logf(x) logf(x)
#define __sinf(x) sinf(x)
#define __cosf(x) cosf(x)
#define __powf(x, y) powf((x), (y))
#define __exp10f(x) exp10f(x)
#define __log2f(x) log2f(x)
#define __tanf(x) tanf(x)
static inline int min(int a, int b) { return a < b ? a : b; }
static inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
static inline float min(float a, float b) { return fminf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
static inline long long max(long long a, long long b) { return a > b ? a : b; }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
/* CUDA's math headers also take a signed and an unsigned argument (the
 * comparison is unsigned, as C's conversions make it) and a float with a
 * double: min(bins[i], 127) with unsigned bins builds with nvcc. */
static inline unsigned min(unsigned a, int b) { return min(a, (unsigned)b); }
static inline unsigned min(int a, unsigned b) { return min((unsigned)a, b); }
static inline unsigned max(unsigned a, int b) { return max(a, (unsigned)b); }
static inline unsigned max(int a, unsigned b) { return max((unsigned)a, b); }
static inline double min(float a, double b) { return fmin(a, b); }
static inline double min(double a, float b) { return fmin(a, b); }
static inline double max(float a, double b) { return fmax(a, b); }
static inline double max(double a, float b) { return fmax(a, b); }
static inline float __fadd_rn(float a, float b) { return a + b; }
static inline float __fsub_rn(float a, float b) { return a - b; }
static inline float __fmul_rn(float a, float b) { return a * b; }
static inline float __fdiv_rn(float a, float b) { return a / b; }
static inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
static inline float __fdividef(float a, float b) { return a / b; }
static inline float __frcp_rn(float a) { return 1.0f / a; }
static inline float __fsqrt_rn(float a) { return sqrtf(a); }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline float __saturatef(float a) { return a < 0.0f ? 0.0f : (a > 1.0f ? 1.0f : a); }
static inline float rsqrtf(float a) { return 1.0f / sqrtf(a); }
static inline double rsqrt(double a) { return 1.0 / sqrt(a); }
static inline float __int_as_float(int a) { float f; memcpy(&f, &a, 4); return f; }
static inline int __float_as_int(float a) { int i; memcpy(&i, &a, 4); return i; }
static inline unsigned __float_as_uint(float a) { unsigned i; memcpy(&i, &a, 4); return i; }
static inline float __uint_as_float(unsigned a) { float f; memcpy(&f, &a, 4); return f; }
static inline int __float2int_rn(float a) { return (int)nearbyintf(a); }
static inline int __float2int_rz(float a) { return (int)a; }
static inline float __int2float_rn(int a) { return (float)a; }
static inline int __mul24(int a, int b) { return a * b; }
static inline unsigned __umul24(unsigned a, unsigned b) { return a * b; }
static inline int __popc(unsigned a) { return __builtin_popcount(a); }
static inline int __clz(int a) { return a ? __builtin_clz((unsigned)a) : 32; }
static inline int __ffs(int a) { return __builtin_ffs(a); }

/* ---- symbols and templates of the C++ API ---------------------------------- */
/* The symbol is taken by reference, as the CUDA runtime's templates take it:
 * a student's `&Mc` compiles, as it does under nvcc, and its address (that
 * of a temporary pointer) is no device symbol, which the runtime refuses. */
#define cudaMemcpyToSymbol(symbol, ...) \
    emu::memcpy_to_symbol_(emu::symbol_address_(symbol), #symbol, sizeof(symbol), __VA_ARGS__)
#define cudaMemcpyFromSymbol(dst, symbol, ...) \
    emu::memcpy_from_symbol_((dst), emu::symbol_address_(symbol), #symbol, sizeof(symbol), __VA_ARGS__)

template <class T> static inline cudaError_t cudaMalloc(T **p, size_t size)
{
    return cudaMalloc(reinterpret_cast<void **>(p), size);
}
template <class T> static inline cudaError_t cudaMallocPitch(T **p, size_t *pitch, size_t w, size_t h)
{
    return cudaMallocPitch(reinterpret_cast<void **>(p), pitch, w, h);
}
template <class T> static inline cudaError_t cudaMallocHost(T **p, size_t size)
{
    return cudaMallocHost(reinterpret_cast<void **>(p), size);
}
template <class T> static inline cudaError_t cudaHostAlloc(T **p, size_t size, unsigned int flags)
{
    return cudaHostAlloc(reinterpret_cast<void **>(p), size, flags);
}
static inline cudaError_t cudaEventRecord(cudaEvent_t e) { return cudaEventRecord(e, 0); }
static inline cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind k)
{
    return cudaMemcpyAsync(d, s, n, k, 0);
}

namespace emu {
template <class T> static inline const void *symbol_address_(const T &symbol) { return &symbol; }
/* always inlined: the runtime names the copy by its caller's line */
static inline __attribute__((always_inline)) cudaError_t
memcpy_to_symbol_(const void *sym, const char *name, size_t symsize, const void *src, size_t count, size_t offset = 0,
                  cudaMemcpyKind kind = cudaMemcpyHostToDevice)
{
    return emu_memcpy_to_symbol(sym, name, symsize, src, count, offset, kind);
}
static inline cudaError_t memcpy_from_symbol_(void *dst, const void *sym, const char *name,
                                              size_t symsize, size_t count, size_t offset = 0,
                                              cudaMemcpyKind kind = cudaMemcpyDeviceToHost)
{
    return emu_memcpy_from_symbol(dst, sym, name, symsize, count, offset, kind);
}

/* kernel<<<g, b, s, st>>>(args) becomes emu::launch_(kernel, "kernel", "args", __FILE__,
 * __LINE__, g, b, s, st)(args): the arguments convert to the kernel's parameter
 * types as in a call, are copied once, and every CUDA thread gets its own copy. */
template <class... P> struct launcher {
    void (*fn)(P...);
    emu_launch_cfg cfg;
    struct pack {
        void (*fn)(P...);
        std::tuple<typename std::decay<P>::type...> args;
    };
    static void invoke(void *p)
    {
        pack *k = static_cast<pack *>(p);
        std::apply(k->fn, k->args);
    }
    /* Notes an argument of pointer type (not a function's) for emu_launch's
     * check that it is not host memory. */
    template <class A> static void note_pointer(emu_launch_cfg &c, int at, const A &v)
    {
        if constexpr (std::is_pointer<A>::value && !std::is_function<typename std::remove_pointer<A>::type>::value) {
            if (c.npointers < (int)(sizeof c.pointers / sizeof *c.pointers)) {
                c.pointers[c.npointers] = (const void *)v;
                c.pointer_at[c.npointers++] = (unsigned char)at;
            }
        } else {
            (void)c, (void)at, (void)v;
        }
    }
    /* Notes an argument a reference parameter binds (`Image_t &in`): a GPU
     * kernel gets the caller's object's address, host memory, where the
     * emulator's copy of the arguments would hand it a copy. */
    template <class T, class A> static void note_reference(emu_launch_cfg &c, int at, const A &v)
    {
        if constexpr (std::is_reference<T>::value) {
            if (c.npointers < (int)(sizeof c.pointers / sizeof *c.pointers)) {
                c.references |= 1u << c.npointers;
                c.pointers[c.npointers] = (const void *)&v;
                c.pointer_at[c.npointers++] = (unsigned char)at;
            }
        } else {
            (void)c, (void)at, (void)v;
        }
    }
    void operator()(P... a) const
    {
        pack k{fn, std::tuple<typename std::decay<P>::type...>(a...)};
        emu_launch_cfg c = cfg;
        c.arg_size = sizeof k; /* copied as bytes, as CUDA copies a kernel's arguments */
        {
            int at = 0;
            (note_reference<P>(c, ++at, a), ...);
        }
        std::apply([&c](const auto &...v) { int at = 0; (note_pointer(c, ++at, v), ...); }, k.args);
        emu_launch(&c, &invoke, &k);
    }
    /* emucc adds this where the kernel declares __launch_bounds__(max) */
    launcher max_threads_(unsigned max) const
    {
        launcher l = *this;
        l.cfg.max_threads = max;
        return l;
    }
};
template <class... P>
static inline launcher<P...> launch_(void (*fn)(P...), const char *name, const char *args, const char *file, int line,
                                     dim3 grid, dim3 block, size_t shmem = 0, cudaStream_t stream = 0)
{
    launcher<P...> l;
    l.fn = fn;
    l.cfg = emu_launch_cfg();
    l.cfg.kernel = name;
    l.cfg.args = args;
    l.cfg.file = file;
    l.cfg.line = line;
    l.cfg.grid = grid;
    l.cfg.block = block;
    l.cfg.shmem = shmem;
    l.cfg.stream = stream;
    return l;
}
} // namespace emu

/* emucc --schemata: the live candidate edit and its operators */
#include "emu_schemata.h"

#endif
