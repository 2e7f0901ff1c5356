/*
 * rng.h - a small deterministic random number generator (xoshiro256**,
 * seeded through splitmix64), so a dataset is the same on every machine.
 */
#ifndef GPULAB_RNG_H
#define GPULAB_RNG_H

#include <stdint.h>

typedef struct {
    uint64_t s[4];
} gl_rng;

static inline uint64_t gl_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline void gl_rng_seed(gl_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = gl_splitmix64(&seed);
}

static inline uint64_t gl_rng_next(gl_rng *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5;
    uint64_t result = ((x << 7) | (x >> 57)) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return result;
}

/* Uniform in [lo, hi) on a grid of 2^24 steps: every value is an exact float. */
static inline float gl_rng_float(gl_rng *r, float lo, float hi)
{
    double u = (double)(gl_rng_next(r) >> 40) / (double)(1u << 24);
    return (float)(lo + (hi - lo) * u);
}

/* Uniform integer in [lo, hi]. */
static inline int gl_rng_int(gl_rng *r, int lo, int hi)
{
    uint64_t span = (uint64_t)((int64_t)hi - lo + 1);
    return lo + (int)(gl_rng_next(r) % span);
}

/* FNV-1a: mixes a dataset's name into the lab's base seed. */
static inline uint64_t gl_hash_string(uint64_t h, const char *s)
{
    h ^= 0xCBF29CE484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001B3ull;
    return h;
}

#endif
