/*
 * harness_protocol.h - how a lab program tells the grader how its run ended:
 * its exit status. One home for both sides: the harness (harness.h, which
 * needs CUDA's headers) and the grader's run stage (run.c, which must not).
 * The "@gpulab" lines that go with them are described in harness.h.
 */
#ifndef GPULAB_HARNESS_PROTOCOL_H
#define GPULAB_HARNESS_PROTOCOL_H

enum {
    HARNESS_EXIT_OK = 0,
    HARNESS_EXIT_USAGE = 2,
    HARNESS_EXIT_CUDA = 3,     /* a CUDA error ("@gpulab cuda_error") */
    HARNESS_EXIT_DATASET = 4,  /* unreadable dataset or unwritable output: the kit's fault */
    HARNESS_EXIT_WRONG = 5,    /* the harness saw a wrong result itself ("@gpulab wrong") */
    HARNESS_EXIT_MEMORY = 6    /* a guard zone was written ("@gpulab memory_error") */
};

#endif
