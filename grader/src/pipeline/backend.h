/*
 * backend.h - where a submission runs: the GPU (nvcc, real hardware) or the
 * CPU emulator (grader/emu). Chosen by --backend, or automatically: the GPU
 * when one is usable, else the emulator, with a notice saying so.
 */
#ifndef GPULAB_BACKEND_H
#define GPULAB_BACKEND_H

typedef enum { BACKEND_GPU, BACKEND_EMU } backend_kind;

typedef struct {
    backend_kind kind;
    char name[8];           /* "gpu" or "emu" */
    char device[256];       /* "NVIDIA H100 80GB HBM3" or "CPU emulator" */
    char driver[64];        /* the NVIDIA driver's version, "" on the emulator */
    char arch[32];          /* nvcc's -arch value, e.g. "sm_90"; "" on the emulator */
    char *compiler;         /* path of nvcc or of the emulator's emucc */
    int ngpus;              /* GPUs the runs may use (CUDA_VISIBLE_DEVICES, else all); 0 on the emulator */
    char gpu_ids[16][32];   /* each one's CUDA_VISIBLE_DEVICES value */
} backend;

/* requested: "gpu", "emu" or NULL (automatic). Dies, in one clear line,
 * when the requested backend (or, automatically, any backend) is unusable.
 * Prints the emulator notice to stderr when it falls back to the emulator. */
void backend_choose(const char *requested, backend *b);

/* The CPU emulator, when it is built: 1, else 0 (and b untouched). The
 * checkers of a GPU grading use it too (grade.c). */
int backend_emulator(backend *b);

/* Why there is no usable GPU ("" if there is one). Exposed for `gpulab help`. */
const char *backend_gpu_problem(void);

#endif
