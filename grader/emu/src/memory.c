/* memory.c - the CUDA memory calls: cudaMalloc, cudaFree and the host
 * allocations (on alloc.c's device_alloc and release_alloc), the copies and
 * cudaMemset: each side checked against the allocations (check_side), then
 * judged against its buffer (copies.c) and, in the race build, against the
 * bytes nothing stored (unset.c). */

#include "rt_int.h"

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    return device_alloc(devPtr, size, 0, copy_caller(__builtin_return_address(0)));
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch)
        return set_error(cudaErrorInvalidValue);
    /* Rows padded to 512 bytes, as on many GPUs: code that ignores the pitch breaks. */
    size_t p = round_up(width ? width : 1, 512);
    cudaError_t e = device_alloc(devPtr, p * height, 1, copy_caller(__builtin_return_address(0)));
    if (e == cudaSuccess) {
        *pitch = p;
        pthread_mutex_lock(&rt.lock);
        alloc *a = find_alloc(*devPtr, 1);
        if (a) {
            a->pitch = p;
            a->row_bytes = width;
        }
        pthread_mutex_unlock(&rt.lock);
    }
    return e;
}

cudaError_t cudaFree(void *devPtr)
{
    void *caller = copy_caller(__builtin_return_address(0));
    RETURN_IF_STICKY();
    if (!devPtr)
        return cudaSuccess;
    pthread_mutex_lock(&rt.lock);
    for (size_t i = 0; i < rt.nallocs; i++) {
        if (rt.allocs[i].base == devPtr) {
            alloc a = rt.allocs[i];
            a.freed_by = caller;
            rt.allocs[i] = rt.allocs[--rt.nallocs];
            pthread_mutex_unlock(&rt.lock);
            short_copy_back(&a);
            release_alloc(&a);
            return cudaSuccess;
        }
    }
    /* a buffer freed twice: the emulator still knows the first cudaFree,
     * which the finding names beside this one (sanitize.c) */
    const alloc *g = freed_at(devPtr);
    alloc gone = g && g->base == devPtr ? *g : (alloc){ 0 };
    pthread_mutex_unlock(&rt.lock);
    char at[512], made[512], freed[512];
    caller_line(caller, at, sizeof at);
    if (gone.base) {
        caller_line(gone.made_by, made, sizeof made);
        caller_line(gone.freed_by, freed, sizeof freed);
        diag("gpulab-emu: invalid-free %s: cudaFree(%p): the %zu-byte %s allocation (made at %s) was freed "
             "already, by the cudaFree at %s, and this is a second cudaFree of it (cudaErrorInvalidValue)",
             at, devPtr, gone.size, alloc_call(&gone), made, freed);
    } else
        diag("gpulab-emu: invalid-free %s: cudaFree(%p): not a pointer returned by cudaMalloc, or already freed "
             "(cudaErrorInvalidValue)", at, devPtr);
    return set_error(cudaErrorInvalidValue);
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    if (!ptr)
        return set_error(cudaErrorInvalidValue);
    *ptr = malloc(size ? size : 1);
    if (!*ptr)
        return set_error(cudaErrorMemoryAllocation);
    pthread_mutex_lock(&rt.lock);
    note_pinned(*ptr, size);
    pthread_mutex_unlock(&rt.lock);
    return cudaSuccess;
}

cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags)
{
    if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
        return set_error(cudaErrorInvalidValue);
    return cudaMallocHost(ptr, size);
}

/* cudaFreeHost frees only what cudaMallocHost (or cudaHostAlloc) gave:
 * device memory, or host memory of malloc's, is refused as the GPU's
 * runtime refuses it, and stays as it was. */
cudaError_t cudaFreeHost(void *ptr)
{
    void *caller = copy_caller(__builtin_return_address(0));
    RETURN_IF_STICKY();
    if (!ptr)
        return cudaSuccess;
    pthread_mutex_lock(&rt.lock);
    int pinned = forget_pinned(ptr), device = !pinned && is_device_ptr(ptr);
    pthread_mutex_unlock(&rt.lock);
    if (pinned) {
        free(ptr);
        return cudaSuccess;
    }
    char at[512];
    caller_line(caller, at, sizeof at);
    diag("gpulab-emu: invalid-free %s: cudaFreeHost(%p): %s; cudaFreeHost frees only what cudaMallocHost or "
         "cudaHostAlloc gave (cudaErrorInvalidValue)",
         at, ptr, device ? "device memory, from cudaMalloc, which cudaFree frees" : "not a pointer returned by "
                                                                                   "cudaMallocHost");
    return set_error(cudaErrorInvalidValue);
}

/* Which sides of a copy of `kind` are device memory. */
static void copy_sides(int kind, const void *dst, const void *src, int *dd, int *sd)
{
    pthread_mutex_lock(&rt.lock);
    if (kind == cudaMemcpyDefault) {
        *dd = is_device_ptr(dst);
        *sd = is_device_ptr(src);
    } else {
        *dd = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
        *sd = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    }
    pthread_mutex_unlock(&rt.lock);
}

/* why, from check_side(), for the n bytes at p; for a buffer that was
 * freed, the words that name the cudaFree (and the cudaMalloc), into out. */
static const char *freed_words(const char *why, const void *p, char *out, size_t n)
{
    if (strcmp(why, "was freed") != 0)
        return why;
    pthread_mutex_lock(&rt.lock);
    const alloc *g = freed_at(p);
    alloc a = g ? *g : (alloc){ 0 };
    pthread_mutex_unlock(&rt.lock);
    char freed[512], made[512];
    caller_line(a.freed_by, freed, sizeof freed);
    caller_line(a.made_by, made, sizeof made);
    snprintf(out, n, "points into a %zu-byte %s allocation (made at %s) that the cudaFree at %s freed before: "
             "a use after cudaFree", a.size, alloc_call(&a), made, freed);
    return out;
}

/* Checks a copy of dn bytes to dst and sn bytes from src (a 2D copy's
 * extents differ: each side's rows at its own pitch). caller: the return
 * address into the program, which the refusal's line names. */
static cudaError_t copy_check(const char *fn, void *dst, size_t dn, const void *src, size_t sn, int kind,
                              void *caller)
{
    char at[512];
    if (kind < 0 || kind > 4) {
        diag("gpulab-emu: invalid-memcpy %s: %s: %d is not a cudaMemcpyKind (cudaErrorInvalidMemcpyDirection)",
             caller_line(caller, at, sizeof at), fn, kind);
        return cudaErrorInvalidMemcpyDirection;
    }
    if (dn == 0 && sn == 0)
        return cudaSuccess;
    int dd, sd;
    copy_sides(kind, dst, src, &dd, &sd);
    pthread_mutex_lock(&rt.lock);
    const char *wd = check_side(dst, dn, dd);
    const char *ws = wd ? NULL : check_side(src, sn, sd);
    /* the two pointers given the other way round: each side is what the
     * other side should be (a copy back written as a copy in, say) */
    int swapped = (wd || ws) && dd != sd && !check_side(src, dn, dd) && !check_side(dst, sn, sd);
    pthread_mutex_unlock(&rt.lock);
    /* Which of the two is the mistake: the pointers or the kind. Before any
     * launch a program sends its inputs to the device, after one it brings
     * results back; where the pointers give the copy that fits that moment
     * (device to host after a kernel ran), the kind names the wrong
     * direction, else the pointers are the wrong way round. */
    int pointers_fit = swapped && (sd ? rt.launched == 0 : rt.launched != 0);
    if (pointers_fit) {
        diag("gpulab-emu: invalid-memcpy %s: %s(dst=%p, src=%p, %zu bytes, %s): the kind is %s but the destination "
             "is %s memory and the source %s memory%s: this copy's direction should be %s (cudaErrorInvalidValue)",
             caller_line(caller, at, sizeof at), fn, dst, src, dn, kind_name(kind), kind_name(kind),
             dd ? "host" : "device", sd ? "host" : "device",
             rt.launched ? ", a copy of results back after the kernel ran" : ", a copy of inputs before any launch",
             kind_name(sd ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
        return cudaErrorInvalidValue;
    }
    if (swapped) {
        diag("gpulab-emu: invalid-memcpy %s: %s(dst=%p, src=%p, %zu bytes, %s): the destination and the source are "
             "swapped: the destination is %s memory and the source %s memory, the other way round from what %s "
             "moves (the destination comes first) (cudaErrorInvalidValue)",
             caller_line(caller, at, sizeof at), fn, dst, src, dn, kind_name(kind), dd ? "host" : "device",
             sd ? "host" : "device", kind_name(kind));
        return cudaErrorInvalidValue;
    }
    if (wd || ws) {
        char words[1200];
        diag("gpulab-emu: invalid-memcpy %s: %s(dst=%p, src=%p, %zu bytes, %s): the %s pointer %s (cudaErrorInvalidValue)",
             caller_line(caller, at, sizeof at), fn, dst, src, wd ? dn : sn, kind_name(kind),
             wd ? "destination" : "source", freed_words(wd ? wd : ws, wd ? dst : src, words, sizeof words));
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    void *caller = copy_caller(__builtin_return_address(0));
    RETURN_IF_STICKY();
    cudaError_t e = copy_check("cudaMemcpy", dst, count, src, count, (int)kind, caller);
    if (e != cudaSuccess)
        return set_error(e);
    int dd, sd;
    copy_sides((int)kind, dst, src, &dd, &sd);
    check_copy_1d(caller, dst, src, count, dd, sd);
    track_copy(caller, dst, src, count, dd, sd);
    device_memory_open(); /* the copy's, and the race build's look at what it reads */
#ifdef EMU_RACE
    if (sd)
        hooks.unset_copy_read(caller, "cudaMemcpy", src, count, count, 1);
    if (dd && !sd)
        hooks.unset_copied_in(dst, src, count);
    else if (dd)
        hooks.unset_stored(dst, count);
    if (dd && !sd)
        note_filled(caller, dst);
#endif
    if (count)
        memmove(dst, src, count);
    device_memory_close();
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    (void)stream;
    void *caller = copy_caller(__builtin_return_address(0));
    RETURN_IF_STICKY();
    cudaError_t e = copy_check("cudaMemcpyAsync", dst, count, src, count, (int)kind, caller);
    if (e != cudaSuccess)
        return set_error(e);
    device_memory_open();
#ifdef EMU_RACE
    int dd, sd;
    copy_sides((int)kind, dst, src, &dd, &sd);
    if (sd)
        hooks.unset_copy_read(caller, "cudaMemcpyAsync", src, count, count, 1);
    if (dd)
        hooks.unset_stored(dst, count);
#endif
    if (count)
        memmove(dst, src, count);
    device_memory_close();
    return cudaSuccess;
}

/* A 2D copy that does not fit its cudaMallocPitch buffer because that
 * buffer was made with its width and its height the other way round (rows
 * of `height` bytes, `width` of them, for a copy of `height` rows of
 * `width` bytes): said at the allocation's line, which is the mistake.
 * Returns 1 when it said so (the copy is refused, as it would be). A copy
 * that fits all the same is no error, and is let through. */
static int pitch_alloc_swapped(void *caller, void *dst, size_t dpitch, const void *src, size_t spitch,
                               size_t width, size_t height, int kind)
{
    int dd, sd;
    if (kind < 0 || kind > 4 || width == 0 || height == 0 || width == height)
        return 0;
    copy_sides(kind, dst, src, &dd, &sd);
    const void *dev = dd ? dst : sd ? src : NULL;
    size_t pitch = dd ? dpitch : spitch;
    if (!dev)
        return 0;
    pthread_mutex_lock(&rt.lock);
    const alloc *a = find_alloc(dev, 1);
    alloc got = a ? *a : (alloc){ 0 };
    /* the host image on the other side has the allocation's shape: the
     * copy is what was given the other way round (check_copy_2d says so) */
    size_t rows = 0, row_bytes = 0;
    const void *host = dd && !sd ? src : sd && !dd ? dst : NULL;
    int image_agrees = host && host_image_shape(host, &rows, &row_bytes) && row_bytes == got.row_bytes &&
                       got.pitch && rows == got.size / got.pitch;
    pthread_mutex_unlock(&rt.lock);
    if (!got.pitched || !got.pitch || got.row_bytes != height || got.size / got.pitch != width || image_agrees)
        return 0;
    int fits = width <= pitch && (const char *)dev + pitch * (height - 1) + width <= got.base + got.size;
    if (fits)
        return 0;
    char at[512], made[512];
    caller_line(caller, at, sizeof at);
    caller_line(got.made_by, made, sizeof made);
    diag("gpulab-emu: invalid-memcpy %s: cudaMemcpy2D(%zu rows of %zu bytes): the cudaMallocPitch at %s made rows "
         "of %zu bytes, %zu of them: its width and its height were given the other way round (width in bytes "
         "first, then the number of rows) (cudaErrorInvalidValue)",
         at, height, width, made, height, width);
    return 1;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind)
{
    void *caller = copy_caller(__builtin_return_address(0));
    RETURN_IF_STICKY();
    if (pitch_alloc_swapped(caller, dst, dpitch, src, spitch, width, height, (int)kind))
        return set_error(cudaErrorInvalidValue);
    if (width > dpitch || width > spitch) {
        char at[512];
        diag("gpulab-emu: invalid-memcpy %s: cudaMemcpy2D: width %zu bytes is more than a pitch (dpitch %zu, spitch %zu) (cudaErrorInvalidPitchValue)",
             caller_line(caller, at, sizeof at), width, dpitch, spitch);
        return set_error(cudaErrorInvalidPitchValue);
    }
    if (height == 0 || width == 0)
        return cudaSuccess;
    /* each side's rows at its own pitch: the last row ends width bytes in */
    size_t dn = dpitch * (height - 1) + width, sn = spitch * (height - 1) + width;
    cudaError_t e = copy_check("cudaMemcpy2D", dst, dn, src, sn, (int)kind, caller);
    if (e != cudaSuccess)
        return set_error(e);
    int dd, sd;
    copy_sides((int)kind, dst, src, &dd, &sd);
    check_copy_2d(caller, dst, dpitch, src, spitch, width, height, dd, sd);
    if (dd)
        note_write(dst, dn);
    if (!dd)
        note_host_side(caller, "cudaMemcpy2D", dst, dn, 1);
    if (!sd)
        note_host_side(caller, "cudaMemcpy2D", src, sn, 0);
    device_memory_open();
#ifdef EMU_RACE
    if (sd)
        hooks.unset_copy_read(caller, "cudaMemcpy2D", src, spitch, width, height);
    for (size_t r = 0; dd && r < height; r++)
        hooks.unset_stored((char *)dst + r * dpitch, width);
    if (dd && !sd)
        note_filled(caller, dst);
#endif
    for (size_t r = 0; r < height; r++)
        memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    device_memory_close();
    return cudaSuccess;
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    void *caller = copy_caller(__builtin_return_address(0));
    RETURN_IF_STICKY();
    if (count == 0)
        return cudaSuccess;
    pthread_mutex_lock(&rt.lock);
    const char *why = check_side(devPtr, count, 1);
    pthread_mutex_unlock(&rt.lock);
    if (why) {
        char at[512], words[1200];
        diag("gpulab-emu: invalid-memset %s: cudaMemset(%p, %d, %zu): the pointer %s (cudaErrorInvalidValue)",
             caller_line(caller, at, sizeof at), devPtr, value, count,
             freed_words(why, devPtr, words, sizeof words));
        return set_error(cudaErrorInvalidValue);
    }
    note_write(devPtr, count);
#ifdef EMU_RACE
    hooks.unset_stored(devPtr, count);
#endif
    device_memory_open();
    memset(devPtr, value, count);
    device_memory_close();
    return cudaSuccess;
}

/* A symbol given as a string ("Mc"): the form CUDA dropped in 5.0, where
 * the runtime now says cudaErrorInvalidSymbol. The string's bytes are no
 * device variable; copying into them would write a read-only literal. */
static int symbol_named_by_string(const char *name, const char *call)
{
    if (!name || name[0] != '"')
        return 0;
    size_t n = strlen(name);
    diag("gpulab-emu: invalid-memcpy -: %s(%s, ...): the symbol is given as a string, %s, which names no variable "
         "since CUDA 5.0: pass the __constant__ (or __device__) variable itself, %.*s, not its name in quotes "
         "(cudaErrorInvalidSymbol)",
         call, name, name, n >= 2 ? (int)(n - 2) : 0, name + 1);
    return 1;
}

/* A symbol given as its address (`&Mc`): the runtime's templates take the
 * variable itself by reference, so the address they get is that of a
 * temporary pointer on the host's stack, no device symbol
 * (cudaErrorInvalidSymbol on a GPU). */
static int symbol_given_as_address(const char *name, const char *call)
{
    if (!name || name[0] != '&')
        return 0;
    const char *var = name + 1 + strspn(name + 1, " (");
    size_t n = strcspn(var, " )");
    diag("gpulab-emu: invalid-memcpy -: %s(%s, ...): the symbol is given as its address, %s, a pointer that is "
         "no device variable: pass the __constant__ (or __device__) variable itself, %.*s, without the & "
         "(cudaErrorInvalidSymbol)",
         call, name, name, (int)n, var);
    return 1;
}

/* A symbol that is no variable of the program's static storage: a local
 * array or a parameter of the same name as the file's __constant__ (or
 * __device__) variable hides it where the call is, and the address given
 * is on the stack (or the heap). A GPU's runtime finds no device symbol at
 * it and says cudaErrorInvalidSymbol; copying there would fill the local
 * array and leave the kernel's variable as it was. */
extern const char _end[]; /* the linker's (ELF): the end of the program's .bss */

static int symbol_not_static(const void *symbol, const char *name, const char *call)
{
    const char *p = symbol;
    if (p >= __executable_start && p < _end)
        return 0;
    diag("gpulab-emu: invalid-memcpy -: %s(%s, ...): %s here is no __constant__ or __device__ variable but a "
         "local variable or parameter (its address is on the stack or the heap): a declaration of %s inside the "
         "function hides the file's own %s (cudaErrorInvalidSymbol)",
         call, name, name, name, name);
    return 1;
}

/* A symbol copy's own pointer (the source of cudaMemcpyToSymbol, the
 * destination of cudaMemcpyFromSymbol) that cudaMemcpyDeviceToDevice says
 * is device memory and is not: refused, as an H200's runtime refuses it
 * (cudaErrorInvalidValue, the symbol untouched); cudaMemcpyHostToDevice
 * from a device buffer is not, it copies (symbol_kind.cu on that GPU,
 * 2026-11-30). 1 when refused, said. */
static int symbol_side_refused(const char *fn, void *caller, const char *name, const void *p, size_t count,
                               enum cudaMemcpyKind kind)
{
    if (kind != cudaMemcpyDeviceToDevice)
        return 0;
    pthread_mutex_lock(&rt.lock);
    const char *why = check_side(p, count, 1);
    pthread_mutex_unlock(&rt.lock);
    if (!why)
        return 0;
    char at[512], words[1200], args[256];
    if (strcmp(fn, "cudaMemcpyToSymbol") == 0)
        snprintf(args, sizeof args, "%s, src=%p", name, p);
    else
        snprintf(args, sizeof args, "dst=%p, %s", p, name);
    diag("gpulab-emu: invalid-memcpy %s: %s(%s, %zu bytes, %s): the %s %s (cudaErrorInvalidValue)",
         caller_line(caller, at, sizeof at), fn, args, count, kind_name(kind),
         strcmp(fn, "cudaMemcpyToSymbol") == 0 ? "source" : "destination", freed_words(why, p, words, sizeof words));
    return 1;
}

cudaError_t emu_memcpy_to_symbol(const void *symbol, const char *name, size_t symbol_size,
                                 const void *src, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    void *caller = copy_caller(__builtin_return_address(0));
    RETURN_IF_STICKY();
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return set_error(cudaErrorInvalidMemcpyDirection);
    if (symbol_named_by_string(name, "cudaMemcpyToSymbol") || symbol_given_as_address(name, "cudaMemcpyToSymbol") ||
        symbol_not_static(symbol, name, "cudaMemcpyToSymbol"))
        return set_error(cudaErrorInvalidSymbol);
    if (offset > symbol_size || count > symbol_size - offset || !src) {
        /* the call's fourth argument is the offset, its fifth the kind:
         * say which is which, a kind given as the fourth is an offset */
        diag("gpulab-emu: invalid-memcpy -: cudaMemcpyToSymbol(%s, %zu bytes at offset %zu): the symbol has %zu "
             "bytes (its arguments: symbol, source, count in bytes, offset in bytes, kind) (cudaErrorInvalidValue)",
             name, count, offset, symbol_size);
        return set_error(cudaErrorInvalidValue);
    }
    if (symbol_side_refused("cudaMemcpyToSymbol", caller, name, src, count, kind))
        return set_error(cudaErrorInvalidValue);
    device_memory_open(); /* src may be device memory (cudaMemcpyDeviceToDevice) */
    memmove((char *)symbol + offset, src, count);
    device_memory_close();
#ifdef EMU_RACE
    hooks.race_constant_copied(symbol, name, symbol_size);
    hooks.unset_constant_copied(caller, symbol, offset, count);
#else
    (void)caller;
#endif
    FILE *f = log_open();
    if (f) {
        fputs("{\"event\":\"memcpy_to_symbol\",\"symbol\":", f);
        json_str(f, name);
        fprintf(f, ",\"bytes\":%zu}\n", count);
        fclose(f);
    }
    return cudaSuccess;
}

cudaError_t emu_memcpy_from_symbol(void *dst, const void *symbol, const char *name,
                                   size_t symbol_size, size_t count, size_t offset,
                                   enum cudaMemcpyKind kind)
{
    RETURN_IF_STICKY();
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return set_error(cudaErrorInvalidMemcpyDirection);
    if (symbol_named_by_string(name, "cudaMemcpyFromSymbol") || symbol_given_as_address(name, "cudaMemcpyFromSymbol") ||
        symbol_not_static(symbol, name, "cudaMemcpyFromSymbol"))
        return set_error(cudaErrorInvalidSymbol);
    if (offset > symbol_size || count > symbol_size - offset || !dst) {
        diag("gpulab-emu: invalid-memcpy -: cudaMemcpyFromSymbol(%s, %zu bytes at offset %zu): the symbol has %zu "
             "bytes (its arguments: destination, symbol, count in bytes, offset in bytes, kind) (cudaErrorInvalidValue)",
             name, count, offset, symbol_size);
        return set_error(cudaErrorInvalidValue);
    }
    if (symbol_side_refused("cudaMemcpyFromSymbol", copy_caller(__builtin_return_address(0)), name, dst, count, kind))
        return set_error(cudaErrorInvalidValue);
    device_memory_open();
    memmove(dst, (const char *)symbol + offset, count);
    device_memory_close();
#ifdef EMU_RACE
    hooks.unset_stored(dst, count); /* into a device buffer (DeviceToDevice): stored */
#endif
    return cudaSuccess;
}

