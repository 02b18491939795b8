/*
 * slurp.h - a whole file read into memory, NUL-terminated, for the test and benchmark
 * programs that load PTX text (tests/ptx/ptx_run.c, tests/ptx/ptx_run_cuda.c,
 * tests/tsan/stress16.c, bench/bench_jit.c). NULL when the file cannot be read; *len (if
 * len is not NULL) gets its size. The caller frees the buffer.
 */
#ifndef TESTS_SLURP_H
#define TESTS_SLURP_H
#include <stdio.h>
#include <stdlib.h>

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *t = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (!t || fread(t, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(t); return NULL; }
    fclose(f);
    t[n] = 0;
    if (len) *len = (size_t)n;
    return t;
}
#endif
