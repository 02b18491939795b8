/*
 * bench_exec.c - executor costs, each next to a reference measured in the same run:
 *  - launch + sync of an empty 1-block kernel on a busy stream (target <= 5 us), next to the
 *    stream's own round trip for an empty work item;
 *  - the same for a 64-block grid (pool hand-off);
 *  - barrier throughput: a shared-memory tree reduction over 16M floats as a thread-mode kabi
 *    kernel (bar.sync in a loop), grid-stride (1024 blocks x 256 threads) and one element
 *    per thread (65536 blocks x 256 threads), next to the same sum in plain C.
 */
#include "npu_runtime/kernel/npu_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct npu_kfunc {
    npu_kfunc_info_t info;
};
npu_kfunc_info_t *npu_kfunc_info(npu_kfunc_t *f)
{
    return f ? &f->info : NULL;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void k_empty(npu_bctx_t *b, const uint8_t *p) { (void)b; (void)p; }
static npu_status_t w_empty(void *a) { (void)a; return NPU_OK; }

/* params: const float *in, float *out, unsigned n. dynamic shared: ntid floats */
static void t_reduce_stride(npu_tctx_t *t, const uint8_t *p)
{
    const float *in;
    float *out;
    unsigned n;
    memcpy(&in, p, 8); memcpy(&out, p + 8, 8); memcpy(&n, p + 16, 4);
    npu_bctx_t *b = t->b;
    float *sh = (float *)(b->shared + b->dyn_shared_offset);
    unsigned i = t->linear, nt = b->ntid[0];
    float acc = 0;
    for (unsigned k = b->ctaid[0] * nt + i; k < n; k += nt * b->nctaid[0])
        acc += in[k];
    sh[i] = acc;
    b->rt->bar_sync(t, 0, 0);
    for (unsigned s = nt / 2; s > 0; s >>= 1) {
        if (i < s)
            sh[i] += sh[i + s];
        b->rt->bar_sync(t, 0, 0);
    }
    if (i == 0)
        out[b->ctaid[0]] = sh[0];
}

static double reduce_c(const float *in, unsigned n)
{
    float acc[8] = { 0 };
    for (unsigned k = 0; k + 8 <= n; k += 8)
        for (int j = 0; j < 8; j++)
            acc[j] += in[k + j];
    double s = 0;
    for (int j = 0; j < 8; j++)
        s += acc[j];
    return s;
}

int main(void)
{
    if (npu_init() != NPU_OK) {
        fprintf(stderr, "npu_init failed\n");
        return 1;
    }
    npu_stream_t *s;
    if (npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &s) != NPU_OK)
        return 1;
    uint32_t g1[3] = { 1, 1, 1 }, b1[3] = { 32, 1, 1 }, g64[3] = { 64, 1, 1 };
    npu_kfunc_t ke;
    memset(&ke, 0, sizeof ke);
    ke.info.name = "empty";
    ke.info.block_fn = k_empty;

    /* --- launch + sync latency --- */
    int iters = 20000;
    for (int i = 0; i < 1000; i++) {
        npu_kfunc_launch(&ke, g1, b1, 0, s, NULL);
        npu_stream_sync(s);
    }
    double t0 = now_s();
    for (int i = 0; i < iters; i++) {
        npu_stream_submit(s, w_empty, NULL, NULL);
        npu_stream_sync(s);
    }
    double ref_us = (now_s() - t0) / iters * 1e6;
    t0 = now_s();
    for (int i = 0; i < iters; i++) {
        npu_kfunc_launch(&ke, g1, b1, 0, s, NULL);
        npu_stream_sync(s);
    }
    double ours_us = (now_s() - t0) / iters * 1e6;
    printf("BENCH exec_empty_launch_sync_us: %.2f vs %.2f (stream round trip) ratio %.2f "
           "(target: ours <= 5 us)\n", ours_us, ref_us, ours_us / ref_us);
    t0 = now_s();
    for (int i = 0; i < iters / 4; i++) {
        npu_kfunc_launch(&ke, g64, b1, 0, s, NULL);
        npu_stream_sync(s);
    }
    double ours64 = (now_s() - t0) / (iters / 4) * 1e6;
    printf("BENCH exec_empty_64block_launch_sync_us: %.2f vs %.2f (1 block) ratio %.2f "
           "(target: pool hand-off <= 10 us)\n", ours64, ours_us, ours64 / ours_us);

    /* --- barrier throughput: tree reduction over 16M floats --- */
    unsigned n = 16u << 20;
    float *in = malloc((size_t)n * sizeof *in), *out = calloc(65536, sizeof *out);
    for (unsigned k = 0; k < n; k++)
        in[k] = (float)(k % 7) - 3.0f;
    double ref = 0;
    t0 = now_s();
    for (int r = 0; r < 5; r++)
        ref += reduce_c(in, n);
    double c_ms = (now_s() - t0) / 5 * 1e3;
    ref /= 5;

    static npu_kparam_t prm[3] = { { 0, 8, 8, 'u', 1 }, { 8, 8, 8, 'u', 1 }, { 16, 4, 4, 'u', 0 } };
    npu_kfunc_t kr;
    memset(&kr, 0, sizeof kr);
    kr.info.name = "reduce";
    kr.info.thread_fn = t_reduce_stride;
    kr.info.uses_sync = 1;
    kr.info.nparams = 3;
    kr.info.params = prm;
    kr.info.param_size = 24;
    void *args[3] = { &in, &out, &n };
    struct { const char *name; uint32_t blocks; } cfg[2] = {
        { "exec_reduce16M_stride_ms", 1024 }, { "exec_reduce16M_1elem_ms", 65536 } };
    for (int c = 0; c < 2; c++) {
        uint32_t g[3] = { cfg[c].blocks, 1, 1 }, b[3] = { 256, 1, 1 };
        if (c == 0) {                                                   /* warm-up */
            npu_kfunc_launch(&kr, g, b, 256 * sizeof(float), s, args);
            npu_stream_sync(s);
        }
        int reps = c == 0 ? 5 : 1;
        t0 = now_s();
        for (int r = 0; r < reps; r++)
            npu_kfunc_launch(&kr, g, b, 256 * sizeof(float), s, args);
        npu_status_t st = npu_stream_sync(s);
        double ms = (now_s() - t0) / reps * 1e3;
        double sum = 0;
        for (uint32_t k = 0; k < cfg[c].blocks; k++)
            sum += out[k];
        printf("BENCH %s: %.2f vs %.2f (plain C) ratio %.1f (target: below PoCL's 60 ms tree "
               "reduction; status %s, sum %s)\n", cfg[c].name, ms, c_ms, ms / c_ms,
               npu_status_name(st), sum == ref ? "ok" : "WRONG");
    }
    free(in);
    free(out);
    npu_stream_destroy(s);
    return 0;
}
