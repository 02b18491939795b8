/*
 * test_exec_launch.c - npu_kfunc_launch / npu_kfunc_launch_packed on real streams: parameter
 * packing (scalars, a struct, many parameters, a 30 KB block), every launch-configuration
 * limit, sticky faults through a stream (the process survives, reset clears), and the
 * occupancy calculator. Kernels are hand-written against npu_kabi.h.
 */
#include "npu_runtime/kernel/npu_kernel.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct npu_kfunc {
    npu_kfunc_info_t info;
};
npu_kfunc_info_t *npu_kfunc_info(npu_kfunc_t *f)
{
    return f ? &f->info : NULL;
}

/* Copies the whole parameter block to out (first parameter is the out pointer). */
static void k_copy_params(npu_bctx_t *b, const uint8_t *p)
{
    uint8_t *out;
    uint32_t size;
    memcpy(&out, p, 8);
    memcpy(&size, p + 8, 4);
    memcpy(out, p, size);
}

static void k_trap(npu_bctx_t *b, const uint8_t *p)
{
    npu_tctx_t t = { .b = b };
    b->rt->trap(&t);
}

static void k_count(npu_bctx_t *b, const uint8_t *p)
{
    int *c;
    memcpy(&c, p, 8);
    __atomic_fetch_add(c, (int)b->ntid[0], __ATOMIC_RELAXED);
}

static npu_kparam_t params_buf[1100];

/* builds a layout the way the PTX .param list gives it: each param aligned to align */
static uint32_t layout(const uint32_t *sizes, const uint32_t *aligns, uint32_t n)
{
    uint32_t off = 0;
    for (uint32_t i = 0; i < n; i++) {
        off = (off + aligns[i] - 1) & ~(aligns[i] - 1);
        params_buf[i].offset = off;
        params_buf[i].size = sizes[i];
        params_buf[i].align = aligns[i];
        params_buf[i].type = 'b';
        off += sizes[i];
    }
    return (off + 7) & ~7u;
}

int main(void)
{
    setenv("TRANSFER_TO_NPU_LOG", "off", 0);
    CHECK_EQ(npu_init(), NPU_OK);
    npu_stream_t *s = NULL;
    CHECK_EQ(npu_stream_create(0, NPU_STREAM_NONBLOCKING, 0, &s), NPU_OK);
    uint32_t g1[3] = { 1, 1, 1 }, b1[3] = { 1, 1, 1 };

    /* --- packing: out ptr, size, char, short, struct {int; double; char[5]}, float, many --- */
    {
        uint32_t sizes[200], aligns[200], n = 0;
        sizes[n] = 8; aligns[n++] = 8;          /* out */
        sizes[n] = 4; aligns[n++] = 4;          /* size */
        sizes[n] = 1; aligns[n++] = 1;          /* char */
        sizes[n] = 2; aligns[n++] = 2;          /* short */
        sizes[n] = 24; aligns[n++] = 8;         /* struct {int a; double b; char c[5];} */
        sizes[n] = 4; aligns[n++] = 4;          /* float */
        while (n < 200) {                       /* many more of mixed sizes */
            uint32_t k = n % 4;
            sizes[n] = k == 0 ? 8 : k == 1 ? 4 : k == 2 ? 1 : 16;
            aligns[n] = k == 3 ? 16 : sizes[n];
            n++;
        }
        uint32_t psize = layout(sizes, aligns, n);
        npu_kfunc_t k;
        memset(&k, 0, sizeof k);
        k.info.name = "copy_params";
        k.info.block_fn = k_copy_params;
        k.info.nparams = n;
        k.info.params = params_buf;
        k.info.param_size = psize;
        uint8_t *out = calloc(1, psize), *ref = calloc(1, psize);
        uint8_t vals[200][24];
        void *args[200];
        for (uint32_t i = 0; i < n; i++) {
            for (uint32_t j = 0; j < 24; j++)
                vals[i][j] = (uint8_t)(i * 31 + j * 7 + 1);
            args[i] = vals[i];
        }
        memcpy(vals[0], &out, 8);
        memcpy(vals[1], &psize, 4);
        struct { int a; double b; char c[5]; } st;
        memset(&st, 0, sizeof st);                  /* padding too */
        st.a = -7;
        st.b = 2.75;
        memcpy(st.c, "abcd", 5);
        memcpy(vals[4], &st, sizeof st);
        for (uint32_t i = 0; i < n; i++)
            memcpy(ref + params_buf[i].offset, vals[i], sizes[i]);
        CHECK_EQ(npu_kfunc_launch(&k, g1, b1, 0, s, args), NPU_OK);
        CHECK_EQ(npu_stream_sync(s), NPU_OK);
        /* padding bytes are zero in ours; compare parameter bytes only */
        int bad = 0;
        for (uint32_t i = 0; i < n; i++)
            bad += memcmp(out + params_buf[i].offset, ref + params_buf[i].offset, sizes[i]) != 0;
        CHECK_EQ(bad, 0);
        struct { int a; double b; char c[5]; } got;
        memcpy(&got, out + params_buf[4].offset, sizeof got);
        CHECK_EQ(got.a, -7);
        CHECK(got.b == 2.75);
        CHECK(strcmp(got.c, "abcd") == 0);

        /* the same through launch_packed */
        memset(out, 0, psize);
        CHECK_EQ(npu_kfunc_launch_packed(&k, g1, b1, 0, s, ref, psize), NPU_OK);
        CHECK_EQ(npu_stream_sync(s), NPU_OK);
        CHECK(memcmp(out, ref, psize) == 0);
        CHECK_EQ(npu_kfunc_launch_packed(&k, g1, b1, 0, s, ref, psize - 8), NPU_EINVAL);
        CHECK_EQ(npu_kfunc_launch_packed(&k, g1, b1, 0, s, NULL, psize), NPU_EINVAL);
        /* a NULL args array or argument */
        CHECK_EQ(npu_kfunc_launch(&k, g1, b1, 0, s, NULL), NPU_EINVAL);
        args[7] = NULL;
        CHECK_EQ(npu_kfunc_launch(&k, g1, b1, 0, s, args), NPU_EINVAL);
        free(out);
        free(ref);
    }
    /* --- a 30 KB parameter block (PyTorch foreach kernels) --- */
    {
        uint32_t sizes[3] = { 8, 4, 30000 }, aligns[3] = { 8, 4, 8 };
        uint32_t psize = layout(sizes, aligns, 3);
        npu_kfunc_t k;
        memset(&k, 0, sizeof k);
        k.info.name = "big_params";
        k.info.block_fn = k_copy_params;
        k.info.nparams = 3;
        k.info.params = params_buf;
        k.info.param_size = psize;
        uint8_t *out = calloc(1, psize), *big = malloc(30000);
        for (int i = 0; i < 30000; i++)
            big[i] = (uint8_t)(i * 13);
        void *args[3] = { &out, &psize, big };
        for (int rep = 0; rep < 20; rep++)
            CHECK_EQ(npu_kfunc_launch(&k, g1, b1, 0, s, args), NPU_OK);
        CHECK_EQ(npu_stream_sync(s), NPU_OK);
        CHECK(memcmp(out + params_buf[2].offset, big, 30000) == 0);
        free(out);
        free(big);
    }
    /* --- configuration limits --- */
    {
        int cnt = 0, *pc = &cnt;
        static npu_kparam_t one = { 0, 8, 8, 'u', 1 };
        npu_kfunc_t k;
        memset(&k, 0, sizeof k);
        k.info.name = "count";
        k.info.block_fn = k_count;
        k.info.nparams = 1;
        k.info.params = &one;
        k.info.param_size = 8;
        void *args[1] = { &pc };
#define L(gx, gy, gz, bx, by, bz, dyn) npu_kfunc_launch(&k, (uint32_t[3]){ gx, gy, gz }, \
                                       (uint32_t[3]){ bx, by, bz }, dyn, s, args)
        CHECK_EQ(L(1, 1, 1, 1024, 1, 1, 0), NPU_OK);
        CHECK_EQ(L(1, 1, 1, 1, 1024, 1, 0), NPU_OK);
        CHECK_EQ(L(1, 1, 1, 1, 1, 64, 0), NPU_OK);
        CHECK_EQ(L(2, 65535, 1, 1, 1, 1, 0), NPU_OK);
        CHECK_EQ(L(1, 1, 1, 0, 1, 1, 0), NPU_ECONFIG);
        CHECK_EQ(L(1, 1, 1, 1, 0, 1, 0), NPU_ECONFIG);
        CHECK_EQ(L(1, 1, 1, 1, 1, 0, 0), NPU_ECONFIG);
        CHECK_EQ(L(1, 1, 1, 1025, 1, 1, 0), NPU_ECONFIG);
        CHECK_EQ(L(1, 1, 1, 1, 1025, 1, 0), NPU_ECONFIG);
        CHECK_EQ(L(1, 1, 1, 1, 1, 65, 0), NPU_ECONFIG);
        CHECK_EQ(L(1, 1, 1, 64, 32, 1, 0), NPU_ECONFIG);      /* 2048 threads */
        CHECK_EQ(L(0, 1, 1, 1, 1, 1, 0), NPU_ECONFIG);
        CHECK_EQ(L(1, 0, 1, 1, 1, 1, 0), NPU_ECONFIG);
        CHECK_EQ(L(1, 1, 0, 1, 1, 1, 0), NPU_ECONFIG);
        CHECK_EQ(L(0x80000000u, 1, 1, 1, 1, 1, 0), NPU_ECONFIG);
        CHECK_EQ(L(1, 65536, 1, 1, 1, 1, 0), NPU_ECONFIG);
        CHECK_EQ(L(1, 1, 65536, 1, 1, 1, 0), NPU_ECONFIG);
        /* shared memory: 48 KiB without opt-in, the opt-in up to 227 KiB */
        CHECK_EQ(L(1, 1, 1, 1, 1, 1, 48 * 1024), NPU_OK);
        CHECK_EQ(L(1, 1, 1, 1, 1, 1, 48 * 1024 + 1), NPU_EINVAL);
        k.info.static_shared = 1024;
        CHECK_EQ(L(1, 1, 1, 1, 1, 1, 47 * 1024), NPU_OK);
        CHECK_EQ(L(1, 1, 1, 1, 1, 1, 47 * 1024 + 4), NPU_EINVAL);
        k.info.max_dynamic_shared = 100 * 1024;
        CHECK_EQ(L(1, 1, 1, 1, 1, 1, 100 * 1024), NPU_OK);
        CHECK_EQ(L(1, 1, 1, 1, 1, 1, 100 * 1024 + 1), NPU_EINVAL);
        k.info.max_dynamic_shared = 227 * 1024;
        CHECK_EQ(L(1, 1, 1, 1, 1, 1, 226 * 1024), NPU_OK);
        CHECK_EQ(L(1, 1, 1, 1, 1, 1, 227 * 1024), NPU_EINVAL);    /* static + dynamic */
        k.info.static_shared = 0;
        k.info.max_dynamic_shared = 0;
        /* __launch_bounds__ (.maxntid) and .reqntid */
        k.info.maxntid[0] = 128;
        CHECK_EQ(L(1, 1, 1, 128, 1, 1, 0), NPU_OK);
        CHECK_EQ(L(1, 1, 1, 64, 2, 1, 0), NPU_OK);
        CHECK_EQ(L(1, 1, 1, 129, 1, 1, 0), NPU_ERESOURCES);
        k.info.maxntid[0] = 0;
        k.info.reqntid[0] = 32; k.info.reqntid[1] = 2;
        CHECK_EQ(L(1, 1, 1, 32, 2, 1, 0), NPU_OK);
        CHECK_EQ(L(1, 1, 1, 64, 1, 1, 0), NPU_ECONFIG);
        CHECK_EQ(L(1, 1, 1, 32, 1, 1, 0), NPU_ECONFIG);
        k.info.reqntid[0] = k.info.reqntid[1] = 0;
        CHECK_EQ(npu_stream_sync(s), NPU_OK);
        /* the launches that passed add ntid.x per block */
        CHECK_EQ(cnt, 1024 + 1 + 1 + 2 * 65535 + 4 * 1 + 128 + 64 + 32);
        /* bad handles */
        CHECK_EQ(npu_kfunc_launch(NULL, g1, b1, 0, s, args), NPU_EFUNC);
        CHECK_EQ(npu_kfunc_launch(&k, NULL, b1, 0, s, args), NPU_EINVAL);
        CHECK_EQ(npu_kfunc_launch(&k, g1, b1, 0, NULL, args), NPU_EHANDLE);
        npu_stream_t *dead = NULL;
        CHECK_EQ(npu_stream_create(0, 0, 0, &dead), NPU_OK);
        CHECK_EQ(npu_stream_destroy(dead), NPU_OK);
        CHECK_EQ(npu_kfunc_launch(&k, g1, b1, 0, dead, args), NPU_EHANDLE);
        npu_kfunc_t nofn;
        memset(&nofn, 0, sizeof nofn);
        CHECK_EQ(npu_kfunc_launch(&nofn, g1, b1, 0, s, args), NPU_EFUNC);

        /* occupancy (one worker = one SM of 2048 threads, 32 blocks, 228 KiB) */
        CHECK_EQ(npu_kfunc_max_active_blocks(&k, 256, 0), 8);
        CHECK_EQ(npu_kfunc_max_active_blocks(&k, 32, 0), 32);
        CHECK_EQ(npu_kfunc_max_active_blocks(&k, 1024, 0), 2);
        CHECK_EQ(npu_kfunc_max_active_blocks(&k, 100, 0), 16);     /* 4 warps per block */
        CHECK_EQ(npu_kfunc_max_active_blocks(&k, 128, 100 * 1024), 2);
        CHECK_EQ(npu_kfunc_max_active_blocks(&k, 1025, 0), 0);
        CHECK_EQ(npu_kfunc_max_active_blocks(&k, 0, 0), 0);
        CHECK_EQ(npu_kfunc_max_active_blocks(NULL, 32, 0), 0);
        k.info.maxntid[0] = 64;
        CHECK_EQ(npu_kfunc_max_active_blocks(&k, 128, 0), 0);
        k.info.maxntid[0] = 0;
#undef L
    }
    /* --- a trap is sticky through the stream; the process survives; reset clears --- */
    {
        npu_kfunc_t k;
        memset(&k, 0, sizeof k);
        k.info.name = "trap";
        k.info.block_fn = k_trap;
        CHECK_EQ(npu_kfunc_launch(&k, g1, b1, 0, s, NULL), NPU_OK);
        CHECK_EQ(npu_stream_sync(s), NPU_ELAUNCHFAIL);
        CHECK_EQ(npu_device_error(0), NPU_ELAUNCHFAIL);
        CHECK_EQ(npu_device_reset(0), NPU_OK);
        CHECK_EQ(npu_device_error(0), NPU_OK);
        int cnt = 0, *pc = &cnt;
        static npu_kparam_t one = { 0, 8, 8, 'u', 1 };
        npu_kfunc_t kc;
        memset(&kc, 0, sizeof kc);
        kc.info.name = "count";
        kc.info.block_fn = k_count;
        kc.info.nparams = 1;
        kc.info.params = &one;
        kc.info.param_size = 8;
        void *args[1] = { &pc };
        npu_stream_t *s2 = NULL;
        CHECK_EQ(npu_stream_create(0, 0, 0, &s2), NPU_OK);
        CHECK_EQ(npu_kfunc_launch(&kc, (uint32_t[3]){ 10, 1, 1 }, (uint32_t[3]){ 7, 1, 1 }, 0,
                                  s2, args), NPU_OK);
        CHECK_EQ(npu_stream_sync(s2), NPU_OK);
        CHECK_EQ(cnt, 70);
        npu_stream_destroy(s2);
    }
    return CHECK_DONE();
}
