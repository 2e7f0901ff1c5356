/*
 * Lab 04, stretch solution: a coarsened, channel-flattened 2D convolution.
 *
 * Same answer as lab 04's two-batch kernel (5 x 5 mask in constant memory,
 * ghost cells 0, interleaved channels); the point is speed. A convolution
 * does 25 multiply-adds per output and reads one input, so it should be
 * limited by memory traffic: the goal is to move each input and output float
 * through DRAM about once, in wide coalesced transactions, with few enough
 * instructions per output that the SMs keep up with the memory.
 * docs/labs/stretch.md has the arithmetic. Four changes to lab 04's kernel:
 *
 * 1. The channels are flattened. Lab 04 loops over the channels and, for
 *    each, loads every third float of the image (for RGB): a warp's loads
 *    span three times the bytes it uses, and the tile is loaded and the
 *    barrier crossed once per channel. Here a row of the image is one flat
 *    row of width * channels floats: element (x, c) is flat column
 *    x * channels + c, and its neighbour d pixels to the right, same
 *    channel, is flat column f + d * channels. So all the channels are
 *    convolved at once, the horizontal taps are `channels` floats apart, and
 *    a flat neighbour is a ghost cell exactly when its flat column is outside
 *    [0, width * channels). Consecutive threads load consecutive floats.
 *
 * 2. The tile is wide. A block computes OUT_COLS = 256 flat columns x
 *    OUT_ROWS = 16 rows of P. Its input tile is that plus the halo:
 *    MASK_RADIUS rows above and below, MASK_RADIUS * channels flat columns
 *    left and right, (16 + 4) x (256 + 12) floats for RGB: 1.31 loads per
 *    output instead of lab 04's 400 / 256 = 1.56, and most halo loads hit in
 *    the L2 cache, since the neighbouring blocks read the same rows at about
 *    the same time.
 *
 * 3. Each thread computes an 8 x 4 patch of outputs: 4 consecutive flat
 *    columns (one float4) in each of ROWS_PER_THREAD = 8 consecutive rows,
 *    kept in registers (thread coarsening, as in the stretch matmul).
 *    Neighbouring outputs share inputs: across a row, the 4 outputs need the
 *    4 + 4 * channels floats starting at the thread's column, read as float4s;
 *    down a column, outputs in rows i and i + 1 share 4 of their 5 input
 *    rows. So the thread walks down its strip of the tile once, reads each
 *    input row's floats into registers once, and adds them, weighted by the
 *    right mask row, to every output that uses that row. For RGB that is
 *    12 rows x 4 float4 loads for 32 outputs, instead of 25 loads per output.
 *
 * 4. The channel count is a template parameter. The horizontal taps are then
 *    constants, so every index into the registers is known at compile time
 *    (an array indexed at run time would live in slow local memory), and
 *    each mask element is an operand of an FMA straight from the constant
 *    bank: no loads for the mask at all. The host picks the instance.
 *
 * The block loads its tile, crosses one __syncthreads() and computes; the
 * tile is never refilled, so no second barrier is needed.
 */
#include "lab.h"

/* ---- knobs ------------------------------------------------------------- */
#define THREADS_X 64         /* threads per block along a row */
#define THREADS_Y 2          /* threads per block along a column */
#define ROWS_PER_THREAD 8    /* output rows per thread, consecutive */
#define MIN_BLOCKS_PER_SM 8  /* for __launch_bounds__: 8 blocks of 128 threads
                                share an SM, so at most 64 registers each */

/* ---- derived sizes ------------------------------------------------------ */
#define NTHREADS (THREADS_X * THREADS_Y)
#define VEC 4                                      /* flat columns per thread: a float4 */
#define OUT_COLS (THREADS_X * VEC)                 /* flat output columns per block: 256 */
#define OUT_ROWS (THREADS_Y * ROWS_PER_THREAD)     /* output rows per block: 16 */
#define TILE_ROWS (OUT_ROWS + MASK_WIDTH - 1)      /* input rows per block: 20 */
#define ROW_LOADS ((TILE_ROWS + THREADS_Y - 1) / THREADS_Y) /* tile rows each thread loads */

/* The mask, copied in by the host before the launch. Every thread reads the
 * same element at the same time: what the constant cache serves best. */
__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];

template <int C>
__global__ void __launch_bounds__(NTHREADS, MIN_BLOCKS_PER_SM)
conv_coarsened_kernel(const float *__restrict__ I, float *__restrict__ P, int height, int width,
                      int vecStore)
{
    const int HALO = MASK_RADIUS * C;               /* flat columns of halo on each side */
    const int TILE_COLS = OUT_COLS + 2 * HALO;      /* a multiple of 4: rows stay 16-byte aligned */
    const int WIN = VEC + 2 * HALO;                 /* floats of a tile row one thread reads */
    static_assert(2 * HALO <= THREADS_X, "one row of threads loads a tile row's halo columns");

    /* The input tile. N_ds[r][s] is the input at image row y0 - MASK_RADIUS + r,
     * flat column f0 - HALO + s (0 outside the image). */
    __shared__ __align__(16) float N_ds[TILE_ROWS][TILE_COLS];

    int tx = threadIdx.x, ty = threadIdx.y;
    int rowLen = width * C;                 /* floats per image row */
    int f0 = blockIdx.x * OUT_COLS;         /* the block's first output flat column */
    int y0 = blockIdx.y * OUT_ROWS;         /* and its first output row */

    /*
     * Load the tile in two batches, as in lab 04, but by rows: thread row ty
     * loads tile rows ty, ty + THREADS_Y, ...; in each, the first batch is
     * the OUT_COLS columns from s = 0, thread tx taking s = tx, tx + THREADS_X,
     * ... (a warp reads 32 consecutive floats), and the second batch is the
     * 2 * HALO columns past them, one for each of the first 2 * HALO threads.
     * Ghost cells, above, below, left or right of the image, are 0.
     *
     * All the loads go into registers first and only then into N_ds: they
     * are independent, so they are all in flight at once and the thread
     * waits for DRAM's latency once, not once per load. Memory-bound code is
     * fast when many bytes are on their way at a time.
     */
    float body[ROW_LOADS][VEC], halo[ROW_LOADS];
#pragma unroll
    for (int m = 0; m < ROW_LOADS; m++) {
        int r = ty + m * THREADS_Y;
        int srcY = y0 - MASK_RADIUS + r;
        int rowIn = r < TILE_ROWS && srcY >= 0 && srcY < height;
        const float *src = I + (size_t)(rowIn ? srcY : 0) * rowLen; /* row srcY when it exists */
#pragma unroll
        for (int b = 0; b < VEC; b++) {
            int srcX = f0 - HALO + tx + b * THREADS_X;
            body[m][b] = rowIn && srcX >= 0 && srcX < rowLen ? src[srcX] : 0.0f;
        }
        int srcX = f0 - HALO + OUT_COLS + tx;
        halo[m] = rowIn && tx < 2 * HALO && srcX < rowLen ? src[srcX] : 0.0f;
    }
#pragma unroll
    for (int m = 0; m < ROW_LOADS; m++) {
        int r = ty + m * THREADS_Y;
        if (r < TILE_ROWS) {
#pragma unroll
            for (int b = 0; b < VEC; b++)
                N_ds[r][tx + b * THREADS_X] = body[m][b];
            if (tx < 2 * HALO)
                N_ds[r][OUT_COLS + tx] = halo[m];
        }
    }

    /* The whole tile is in place before anyone reads it. */
    __syncthreads();

    /*
     * This thread's outputs: rows ty * ROWS_PER_THREAD + i of the block's
     * tile, flat columns tx * VEC + q. Output (i, q) is
     *
     *     sum over ii, jj of Mc[ii][jj] * N_ds[ty * ROWS_PER_THREAD + i + ii][tx * VEC + q + jj * C]
     *
     * so tile row r = i + ii (counted from the thread's first) feeds output
     * row i through mask row ii = r - i. Walk down the rows once: read the
     * WIN floats of row r this thread needs, then add them into every output
     * row they feed. After unrolling r, i, ii, q and jj are constants, so
     * the test on i is decided by the compiler: the loop has no branch.
     */
    float acc[ROWS_PER_THREAD][VEC];
#pragma unroll
    for (int i = 0; i < ROWS_PER_THREAD; i++)
#pragma unroll
        for (int q = 0; q < VEC; q++)
            acc[i][q] = 0.0f;
#pragma unroll
    for (int r = 0; r < ROWS_PER_THREAD + MASK_WIDTH - 1; r++) {
        float win[WIN];
#pragma unroll
        for (int v = 0; v < WIN / 4; v++) {
            float4 t = *reinterpret_cast<const float4 *>(&N_ds[ty * ROWS_PER_THREAD + r][tx * VEC + 4 * v]);
            win[4 * v + 0] = t.x; win[4 * v + 1] = t.y; win[4 * v + 2] = t.z; win[4 * v + 3] = t.w;
        }
#pragma unroll
        for (int ii = 0; ii < MASK_WIDTH; ii++) {
            int i = r - ii; /* the output row that uses tile row r through mask row ii */
            if (i >= 0 && i < ROWS_PER_THREAD) {
#pragma unroll
                for (int q = 0; q < VEC; q++)
#pragma unroll
                    for (int jj = 0; jj < MASK_WIDTH; jj++)
                        acc[i][q] += Mc[ii][jj] * win[q + jj * C];
            }
        }
    }

    /*
     * Write the patch: only the outputs inside the image. When rows are a
     * whole number of float4s (rowLen % 4 == 0) and P is 16-byte aligned,
     * a thread's 4 columns are all in or all out, and go as one float4.
     */
    int outX = f0 + tx * VEC;
#pragma unroll
    for (int i = 0; i < ROWS_PER_THREAD; i++) {
        int y = y0 + ty * ROWS_PER_THREAD + i;
        if (y < height) {
            float *dst = P + (size_t)y * rowLen + outX;
            if (vecStore) {
                if (outX < rowLen)
                    *reinterpret_cast<float4 *>(dst) = make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
            } else {
#pragma unroll
                for (int q = 0; q < VEC; q++)
                    if (outX + q < rowLen)
                        dst[q] = acc[i][q];
            }
        }
    }
}

/* One launch for a channel count known at compile time. */
template <int C>
static void launch(const float *I, float *P, int height, int width)
{
    int rowLen = width * C;
    int vecStore = rowLen % 4 == 0 && (size_t)P % 16 == 0;
    dim3 dimBlock(THREADS_X, THREADS_Y);
    dim3 dimGrid((rowLen + OUT_COLS - 1) / OUT_COLS, (height + OUT_ROWS - 1) / OUT_ROWS);
    conv_coarsened_kernel<C><<<dimGrid, dimBlock>>>(I, P, height, width, vecStore);
}

void conv_2batch(const float *I, float *P, int height, int width, int channels, const float *mask)
{
    CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));

    /* One instance per channel count: 1 to 4 (PGM images have 1 channel,
     * PPM 3, RGBA would be 4); anything else is refused, loudly. */
    switch (channels) {
    case 1: launch<1>(I, P, height, width); break;
    case 2: launch<2>(I, P, height, width); break;
    case 3: launch<3>(I, P, height, width); break;
    case 4: launch<4>(I, P, height, width); break;
    default: CUDA_CHECK(cudaErrorInvalidValue);
    }
    CUDA_CHECK(cudaGetLastError());
}
