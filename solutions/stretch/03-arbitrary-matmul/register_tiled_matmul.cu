/*
 * Lab 03, stretch solution: a register-tiled matrix multiplication.
 *
 * P = M x N with M j x k, N k x l and P j x l, any sizes, row-major FP32,
 * plain fused multiply-adds (no tensor cores). Same answer as lab 03's tiled
 * kernel; the point is speed. Read it after lab 03: it keeps the lecture's
 * structure (tiles, phases, collaborative loading into ds_M and ds_N, a
 * barrier between loading and using a tile) and adds four ideas on top.
 * docs/labs/stretch.md has the arithmetic.
 *
 * 1. Thread coarsening, or register tiling. In lab 03 a thread computes ONE
 *    element of P: for each step of the dot product it reads one float of
 *    ds_M and one of ds_N for one multiply-add. Shared memory is fast, but
 *    not that fast: two shared loads per FMA starve the FMA units. Here a
 *    thread computes an 8 x 8 patch of P, kept in 64 registers (Pvalue).
 *    For each step kk it reads 8 floats of a column of ds_M and 8 of a row
 *    of ds_N into registers and does all 8 x 8 = 64 multiply-adds with them:
 *    16 floats for 64 FMAs, 1/4 shared load per FMA instead of 2.
 *
 * 2. Bigger tiles. A block of 16 x 16 threads, each owning 8 x 8 elements,
 *    covers a 128 x 128 tile of P. Every float a block loads from global
 *    memory is now used by 128 output elements instead of 16, so global
 *    traffic per FMA drops another 8 times. A phase covers TILE_K = 8 steps
 *    of the dot product: ds_M holds a 128 x 8 slice of M, ds_N an 8 x 128
 *    slice of N.
 *
 * 3. Wide loads. ds_M is stored TRANSPOSED (ds_M[kk][row]): a thread's rows
 *    for step kk are then consecutive floats, read as a float4 (one 16-byte
 *    shared load instead of four), like its columns of ds_N. From global
 *    memory, too, the tiles come as float4s when that is allowed: when k and
 *    l are multiples of 4 (and the matrices 16-byte aligned, as cudaMalloc's
 *    are), every 4 floats of a row that start at a multiple of 4 are inside
 *    the matrix together or outside it together. Otherwise the kernel loads
 *    float by float. The choice is a template parameter, VEC, so each
 *    version is compiled without the other's tests.
 *
 * 4. Double buffering. There are two of each tile. While the block computes
 *    with tile ph, each thread has already issued the global loads of tile
 *    ph + 1 into registers; they arrive while the FMAs run, and go into the
 *    other buffer at the start of the next phase. One __syncthreads() per
 *    phase is then enough (see the loop). __launch_bounds__ tells the
 *    compiler how many threads a block has and how many blocks should share
 *    an SM, so it budgets registers for that (65536 / (256 * 2) = 128 each).
 *
 * Sizes that are not multiples of the tiles are handled as in lab 03: every
 * load tests its own bounds and loads 0 outside M or N (a zero adds nothing
 * to a dot product), every thread takes part in every barrier, and only
 * elements inside P are written. The bounds tests are in the loads and the
 * stores only; the inner loop, where the time goes, has no branch at all.
 */
#include "lab.h"

/* ---- knobs ------------------------------------------------------------- */
#define TILE_K 8             /* steps of the dot product per phase (8 or 16) */
#define THREADS_X 16         /* threads per block along a row of P */
#define THREADS_Y 16         /* threads per block along a column of P */
#define TM 8                 /* rows of P per thread: a multiple of 4 */
#define TN 8                 /* columns of P per thread: a multiple of 4 */
#define MIN_BLOCKS_PER_SM 2  /* for __launch_bounds__: caps registers at 128 */
#define M_PAD 4              /* floats of padding per ds_M row: no bank conflicts
                                when the transposed tile is stored; keep it a
                                multiple of 4 so the float4 reads stay aligned */

/* ---- derived sizes ------------------------------------------------------ */
#define NTHREADS (THREADS_X * THREADS_Y)
#define TILE_M (THREADS_Y * TM) /* rows of P per block: 128 */
#define TILE_N (THREADS_X * TN) /* columns of P per block: 128 */
#define LOADS_M (TILE_M * TILE_K / NTHREADS) /* floats of M each thread loads per phase */
#define LOADS_N (TILE_K * TILE_N / NTHREADS) /* floats of N each thread loads per phase */

static_assert(TM % 4 == 0 && TN % 4 == 0 && TILE_K % 4 == 0, "rows of 4 floats are read as float4s");
static_assert(NTHREADS % TILE_K == 0 && LOADS_M % 4 == 0, "M tile: whole loads per thread");
static_assert(NTHREADS % TILE_N == 0 && LOADS_N % 4 == 0, "N tile: whole loads per thread");

/*
 * Which elements of P does thread (tx, ty) own? Not an 8 x 8 square but
 * TM/4 x TN/4 squares of 4 x 4, half the tile apart:
 *
 *     rows    ty*4 .. ty*4+3   and   64 + ty*4 .. 64 + ty*4+3
 *     columns tx*4 .. tx*4+3   and   64 + tx*4 .. 64 + tx*4+3
 *
 * Each group of 4 is one float4 in shared memory, and the 16 threads along
 * x read 16 consecutive float4s of a ds_N row, which shared memory serves
 * at full speed (no bank conflicts). Patch row a of the thread is tile row
 * ROW_OF(a, ty); patch column b is tile column COL_OF(b, tx).
 */
#define ROW_OF(a, ty) (((a) / 4) * (THREADS_Y * 4) + (ty) * 4 + (a) % 4)
#define COL_OF(b, tx) (((b) / 4) * (THREADS_X * 4) + (tx) * 4 + (b) % 4)

/*
 * Collaborative loading. Number a tile's elements row by row, in groups of
 * G = 4 floats (VEC) or G = 1 (not VEC), and give group e to thread
 * e % NTHREADS: consecutive threads read consecutive addresses of a row of M
 * or N (coalesced), and each thread's share is LOADS_M / G groups of the M
 * tile and LOADS_N / G of the N tile. Group i of this thread's share is
 * group i * NTHREADS + tid of the tile; a row of the M tile holds
 * TILE_K / G groups, so that group is at
 *
 *     row tid / (TILE_K / G) + i * (NTHREADS / (TILE_K / G)), column (tid % (TILE_K / G)) * G
 *
 * and likewise in the N tile with TILE_N for TILE_K: the same column in
 * every phase, rows a fixed distance apart.
 *
 * load_tiles() fetches this thread's share of phase ph's tiles into the
 * registers nextM and nextN, 0 for elements outside M or N; store_tiles()
 * writes it into shared memory, M transposed.
 */
template <bool VEC>
__device__ __forceinline__ void load_tiles(const float *__restrict__ M, const float *__restrict__ N,
                                           int j, int k, int l, int ph, int Row0, int Col0, int tid,
                                           float nextM[LOADS_M], float nextN[LOADS_N])
{
    const int G = VEC ? 4 : 1;
#pragma unroll
    for (int i = 0; i < LOADS_M / G; i++) {
        int Row = Row0 + tid / (TILE_K / G) + i * (NTHREADS / (TILE_K / G));
        int kM = ph * TILE_K + (tid % (TILE_K / G)) * G;
        if (VEC) {
            /* k % 4 == 0, so kM < k means all 4 columns are inside M */
            float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (Row < j && kM < k)
                v = *reinterpret_cast<const float4 *>(&M[(size_t)Row * k + kM]);
            nextM[4 * i + 0] = v.x; nextM[4 * i + 1] = v.y; nextM[4 * i + 2] = v.z; nextM[4 * i + 3] = v.w;
        } else {
            nextM[i] = (Row < j && kM < k) ? M[(size_t)Row * k + kM] : 0.0f;
        }
    }
#pragma unroll
    for (int i = 0; i < LOADS_N / G; i++) {
        int kN = ph * TILE_K + tid / (TILE_N / G) + i * (NTHREADS / (TILE_N / G));
        int Col = Col0 + (tid % (TILE_N / G)) * G;
        if (VEC) {
            /* l % 4 == 0, so Col < l means all 4 columns are inside N */
            float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (kN < k && Col < l)
                v = *reinterpret_cast<const float4 *>(&N[(size_t)kN * l + Col]);
            nextN[4 * i + 0] = v.x; nextN[4 * i + 1] = v.y; nextN[4 * i + 2] = v.z; nextN[4 * i + 3] = v.w;
        } else {
            nextN[i] = (kN < k && Col < l) ? N[(size_t)kN * l + Col] : 0.0f;
        }
    }
}

template <bool VEC>
__device__ __forceinline__ void store_tiles(float (*ds_M)[TILE_M + M_PAD], float (*ds_N)[TILE_N], int tid,
                                            const float nextM[LOADS_M], const float nextN[LOADS_N])
{
    const int G = VEC ? 4 : 1;
#pragma unroll
    for (int i = 0; i < LOADS_M / G; i++) {
        int r = tid / (TILE_K / G) + i * (NTHREADS / (TILE_K / G)), c = (tid % (TILE_K / G)) * G;
#pragma unroll
        for (int q = 0; q < G; q++)
            ds_M[c + q][r] = nextM[G * i + q]; /* transposed */
    }
#pragma unroll
    for (int i = 0; i < LOADS_N / G; i++) {
        int r = tid / (TILE_N / G) + i * (NTHREADS / (TILE_N / G)), c = (tid % (TILE_N / G)) * G;
        if (VEC) /* one 16-byte store: four 4-byte ones would conflict */
            *reinterpret_cast<float4 *>(&ds_N[r][c]) =
                make_float4(nextN[4 * i + 0], nextN[4 * i + 1], nextN[4 * i + 2], nextN[4 * i + 3]);
        else
            ds_N[r][c] = nextN[i];
    }
}

template <bool VEC>
__global__ void __launch_bounds__(NTHREADS, MIN_BLOCKS_PER_SM)
RegisterTiledMatMul(const float *__restrict__ M, const float *__restrict__ N, float *__restrict__ P,
                    int j, int k, int l)
{
    /* Two buffers of each tile (double buffering). ds_M is transposed:
     * ds_M[buf][kk][r] holds M[Row0 + r][ph * TILE_K + kk]. */
    __shared__ __align__(16) float ds_M[2][TILE_K][TILE_M + M_PAD];
    __shared__ __align__(16) float ds_N[2][TILE_K][TILE_N];

    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int tid = ty * THREADS_X + tx;
    int Row0 = by * TILE_M; /* the block's first row of M and P */
    int Col0 = bx * TILE_N; /* the block's first column of N and P */

    /* This thread's TM x TN patch of P, in registers for the whole kernel. */
    float Pvalue[TM][TN];
#pragma unroll
    for (int a = 0; a < TM; a++)
#pragma unroll
        for (int b = 0; b < TN; b++)
            Pvalue[a][b] = 0.0f;

    /* The prefetch registers: this thread's share of the next phase's tiles. */
    float nextM[LOADS_M], nextN[LOADS_N];
    load_tiles<VEC>(M, N, j, k, l, 0, Row0, Col0, tid, nextM, nextN);

    int numPhases = (k + TILE_K - 1) / TILE_K;
    for (int ph = 0; ph < numPhases; ph++) {
        int cur = ph & 1;

        /* Phase ph's tiles, fetched during the previous phase, go into
         * buffer cur. Its last readers were in phase ph - 2, and every thread
         * has passed the barrier of phase ph - 1 since: nobody reads it now. */
        store_tiles<VEC>(ds_M[cur], ds_N[cur], tid, nextM, nextN);

        /* The tiles are complete before anyone reads them. This is the only
         * barrier of the phase: thanks to the second buffer it also stands
         * in for the lecture's second one (see the comment above). */
        __syncthreads();

        /* Issue the global loads of phase ph + 1 now: nothing waits for them
         * until the next store_tiles(), so their latency hides behind this
         * phase's FMAs. In the last phase they are all outside M and N and
         * load nothing. (Not an `if`: the compiler may move a conditional
         * block of loads after the FMAs, which hides nothing.) */
        load_tiles<VEC>(M, N, j, k, l, ph + 1, Row0, Col0, tid, nextM, nextN);

        /* The partial dot products: TILE_K steps of a TM x TN outer product,
         * all in registers but (TM + TN) / 4 float4 shared loads per step.
         * No branches, no bounds tests: the zeros loaded outside M and N
         * make the padding harmless. */
#pragma unroll
        for (int kk = 0; kk < TILE_K; kk++) {
            float a[TM], b[TN];
#pragma unroll
            for (int g = 0; g < TM / 4; g++) {
                float4 v = *reinterpret_cast<const float4 *>(&ds_M[cur][kk][ROW_OF(g * 4, ty)]);
                a[g * 4 + 0] = v.x; a[g * 4 + 1] = v.y; a[g * 4 + 2] = v.z; a[g * 4 + 3] = v.w;
            }
#pragma unroll
            for (int g = 0; g < TN / 4; g++) {
                float4 v = *reinterpret_cast<const float4 *>(&ds_N[cur][kk][COL_OF(g * 4, tx)]);
                b[g * 4 + 0] = v.x; b[g * 4 + 1] = v.y; b[g * 4 + 2] = v.z; b[g * 4 + 3] = v.w;
            }
#pragma unroll
            for (int y = 0; y < TM; y++)
#pragma unroll
                for (int x = 0; x < TN; x++)
                    Pvalue[y][x] += a[y] * b[x];
        }
    }

    /* Write the patch: only the elements that are inside P. */
#pragma unroll
    for (int a = 0; a < TM; a++) {
        int Row = Row0 + ROW_OF(a, ty);
#pragma unroll
        for (int b = 0; b < TN; b++) {
            int Col = Col0 + COL_OF(b, tx);
            if (Row < j && Col < l)
                P[(size_t)Row * l + Col] = Pvalue[a][b];
        }
    }
}

void arbitrary_matmul(const float *M, const float *N, float *P, int j, int k, int l)
{
    /* One block per TILE_M x TILE_N tile of P, rounded up: columns of P
     * along x, rows along y, as in the lecture. */
    dim3 dimBlock(THREADS_X, THREADS_Y);
    dim3 dimGrid((l + TILE_N - 1) / TILE_N, (j + TILE_M - 1) / TILE_M);

    /* float4 loads need every row of M and N to start 16-byte aligned. */
    int vec = k % 4 == 0 && l % 4 == 0 && ((size_t)M | (size_t)N) % 16 == 0;
    if (vec)
        RegisterTiledMatMul<true><<<dimGrid, dimBlock>>>(M, N, P, j, k, l);
    else
        RegisterTiledMatMul<false><<<dimGrid, dimBlock>>>(M, N, P, j, k, l);
    CUDA_CHECK(cudaGetLastError());
}
