/*
 * obs_unit.c - the observability hooks at the runtime level (no CUDA): bad inputs to every
 * hook, API scope nesting, and N threads each driving their own stream (copies of 1..M bytes,
 * a memset, a host function) plus one direct cube GEMM on the main thread, all checked
 * against host computations. tests/obs/run_obs.sh runs it with TRANSFER_TO_NPU_TRACE and
 * TRANSFER_TO_NPU_REPORT set and checks the files it leaves (check_obs.py trace-unit).
 * Usage: obs_unit NTHREADS NCOPIES [NKERNELS]
 * NKERNELS: that many distinct kernels (fake infos named obs_kernel_NNNNN, kernel i launched
 * i % 3 + 1 times) go through the kernel hook: the report must list every one (it stopped
 * at 2048 once; check_obs.py report-kernels).
 */
#include "npu_runtime/npu.h"
#include "npu_runtime/npu_cube.h"
#include "npu_runtime/npu_obs.h"
#include "npu_runtime/kernel/npu_kernel.h"
#include "check.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ncopies = 50;

static void host_fn(void *arg)
{
    *(int *)arg = 42;
}

static void *stream_thread(void *arg)
{
    int *ok = arg;
    npu_stream_t *s;
    unsigned char *src, *dst;
    size_t n = (size_t)ncopies;
    *ok = 0;
    if (npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &s) != NPU_OK)
        return NULL;
    if (npu_mem_alloc(0, n * 2, (void **)&src) != NPU_OK || npu_mem_alloc(0, n * 2, (void **)&dst) != NPU_OK)
        return NULL;
    for (size_t i = 0; i < n; i++)
        src[i] = (unsigned char)(i * 7 + 1);
    int flag = 0;
    for (size_t k = 1; k <= n; k++)
        if (npu_memcpy_async(dst, src, k, s) != NPU_OK)
            return NULL;
    if (npu_memset_async(dst + n, 0x5a, n, s) != NPU_OK || npu_stream_host_fn(s, host_fn, &flag) != NPU_OK)
        return NULL;
    if (npu_stream_sync(s) != NPU_OK)
        return NULL;
    int good = flag == 42;
    for (size_t i = 0; i < n; i++)
        good &= dst[i] == src[i] && dst[n + i] == 0x5a;
    npu_mem_free(src);
    npu_mem_free(dst);
    npu_stream_destroy(s);
    *ok = good;
    return NULL;
}

int main(int argc, char **argv)
{
    int nthreads = argc > 1 ? atoi(argv[1]) : 4;
    ncopies = argc > 2 ? atoi(argv[2]) : 50;
    if (nthreads < 1 || nthreads > 64 || ncopies < 1)
        return 2;

    /* Bad inputs: none may crash; these run before npu_init (environment read lazily). */
    npu_report_unsupported(NULL);
    npu_obs_api_error(5);                        /* outside any API call: ignored */
    { NPU_API_SCOPE(NULL); }                     /* unnamed: not recorded */
    { NPU_OBS_GEMM_SCOPE(NULL); }                /* no descriptor */
    {
        uint32_t g1[3] = { 1, 1, 1 };
        NPU_OBS_KERNEL_SCOPE((const npu_kfunc_info_t *)NULL, g1, g1);   /* no kernel info */
    }
    CHECK(strcmp(npu_obs_kernel_name(NULL), "(unnamed kernel)") == 0);
    CHECK(npu_obs_kernel_name(NULL) == npu_obs_kernel_name(NULL));      /* interned once */
    CHECK(npu_obs_copy_dir(NULL, NULL) == NPU_OBS_H2H);
    CHECK(strcmp(npu_obs_copy_dir_name(99), "?") == 0);

    CHECK_EQ(npu_init(), NPU_OK);
    npu_report_unsupported("obsUnsupportedCall");
    npu_report_unsupported("obsUnsupportedCall");
    {
        NPU_API_SCOPE("outer");
        npu_obs_api_error(7);
        { NPU_API_SCOPE("inner"); }
    }

    pthread_t t[64];
    int ok[64];
    for (int i = 0; i < nthreads; i++)
        pthread_create(&t[i], NULL, stream_thread, &ok[i]);
    for (int i = 0; i < nthreads; i++) {
        pthread_join(t[i], NULL);
        CHECK_MSG(ok[i], "stream thread %d", i);
    }

    int nkernels = argc > 3 ? atoi(argv[3]) : 0;
    npu_kfunc_info_t *infos = nkernels > 0 ? calloc((size_t)nkernels, sizeof *infos) : NULL;
    char (*names)[32] = nkernels > 0 ? calloc((size_t)nkernels, sizeof *names) : NULL;
    CHECK(nkernels <= 0 || (infos && names));
    for (int i = 0; infos && names && i < nkernels; i++) {
        snprintf(names[i], sizeof names[i], "obs_kernel_%05d", i);
        infos[i].name = names[i];
        for (int r = 0; r < i % 3 + 1; r++) {
            uint32_t g1[3] = { (uint32_t)i + 1, 1, 1 }, b1[3] = { 32, 1, 1 };
            NPU_OBS_KERNEL_SCOPE(&infos[i], g1, b1);
        }
    }

    /* A GEMM run directly on this thread (not in a stream item): 3x5x7, column-major. */
    float a[21], b[35], d[15];
    for (int i = 0; i < 21; i++) a[i] = (float)(i % 5) - 2;
    for (int i = 0; i < 35; i++) b[i] = (float)(i % 3) - 1;
    npu_cube_gemm_t g;
    memset(&g, 0, sizeof g);
    g.opa = g.opb = NPU_OP_N;
    g.m = 3; g.n = 5; g.k = 7;
    g.atype = g.btype = g.ctype = g.dtype = NPU_DT_F32;
    g.compute = NPU_CUBE_COMPUTE_F32;
    g.a = a; g.b = b; g.c = d; g.d = d;
    g.lda = 3; g.ldb = 7; g.ldc = 3; g.ldd = 3;
    g.batch = 1;
    g.alpha[0] = 1;
    CHECK_EQ(npu_cube_gemm_run(&g), NPU_OK);
    for (int j = 0; j < 5; j++)
        for (int i = 0; i < 3; i++) {
            float r = 0;
            for (int k = 0; k < 7; k++) r += a[i + 3 * k] * b[k + 7 * j];
            CHECK_NEAR(d[i + 3 * j], r, 1e-5);
        }
    return CHECK_DONE();
}
