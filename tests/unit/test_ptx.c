/*
 * test_ptx.c - the PTX translator end to end: load -> get_function (translate, compile, cache)
 * -> npu_exec_grid, results checked against host computations. Also module variables with
 * initialisers (incl. an address of another variable), kernel-parameter layout, the on-disk
 * cache (a second module compiles nothing), and bad input (garbage, truncated text, undefined
 * register / label, unknown opcode, unknown .extern function, textures) -> NPU_EPTX /
 * NPU_EPTXUNSUP / NPU_ENOTFOUND without a crash.
 */
#include "npu_runtime/kernel/npu_kernel.h"
#include "npu_runtime/kernel/ptx_internal.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

static const char *ptx_vadd =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    "// comment\n"
    ".const .align 4 .f32 ctab[4] = {0f3F800000, 0f40000000, 0f40400000, 0f40800000};\n"
    ".global .align 4 .u32 counter = 7;\n"
    ".global .align 8 .u64 ptr_to_counter = generic(counter);\n"
    ".global .align 4 .b8 bytes[6] = {1, 2, 3, 250, 255};\n"
    ".func (.param .b32 rv) scale(.param .b32 x, .param .b32 i)\n"
    "{\n"
    "  .reg .f32 %f<4>; .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    "  ld.param.f32 %f1, [x];\n"
    "  ld.param.u32 %r1, [i];\n"
    "  and.b32 %r2, %r1, 3;\n"
    "  mul.wide.u32 %rd1, %r2, 4;\n"
    "  mov.u64 %rd2, ctab;\n"
    "  add.s64 %rd3, %rd2, %rd1;\n"
    "  ld.const.f32 %f2, [%rd3];\n"
    "  mul.rn.f32 %f3, %f1, %f2;\n"
    "  st.param.f32 [rv], %f3;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry vadd(.param .u64 a, .param .u64 c, .param .u32 n, .param .align 8 .b8 s[16])\n"
    ".maxntid 256, 1, 1\n"
    "{\n"
    "  .reg .pred %p<2>; .reg .b32 %r<8>; .reg .f32 %f<6>; .reg .b64 %rd<8>; .reg .f64 %fd<3>;\n"
    "  ld.param.u64 %rd1, [a];\n"
    "  ld.param.u64 %rd2, [c];\n"
    "  ld.param.u32 %r1, [n];\n"
    "  ld.param.f64 %fd1, [s+8];\n"
    "  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r3, %r4;\n"
    "  setp.ge.s32 %p1, %r5, %r1;\n"
    "  @%p1 bra $DONE;\n"
    "  mul.wide.s32 %rd3, %r5, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.f32 %f1, [%rd4];\n"
    "  { .reg .b32 temp;\n"
    "  .param .b32 param0; st.param.f32 [param0+0], %f1;\n"
    "  .param .b32 param1; st.param.b32 [param1+0], %r5;\n"
    "  .param .b32 retval0;\n"
    "  call.uni (retval0), \n scale, \n (param0, \n param1);\n"
    "  ld.param.f32 %f2, [retval0+0];\n"
    "  }\n"
    "  cvt.rn.f32.f64 %f3, %fd1;\n"
    "  add.f32 %f4, %f2, %f3;\n"
    "  add.s64 %rd5, %rd2, %rd3;\n"
    "  st.global.f32 [%rd5], %f4;\n"
    "  ld.global.u64 %rd6, [ptr_to_counter];\n"
    "  atom.global.add.u32 %r6, [%rd6], 1;\n"
    "$DONE:\n"
    "  ret;\n"
    "}\n";

/* Block sum: shared memory, bar.sync, shfl.sync.bfly, vote.ballot, atom.add.f32. */
static const char *ptx_bsum =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .shared .align 16 .b8 dyn[];\n"
    ".visible .entry bsum(.param .u64 in, .param .u64 out, .param .u64 blk)\n"
    "{\n"
    "  .reg .pred %p<4>; .reg .b32 %r<16>; .reg .f32 %f<8>; .reg .b64 %rd<10>;\n"
    "  .shared .align 4 .b8 sbuf[1024];\n"
    "  ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out]; ld.param.u64 %rd7, [blk];\n"
    "  mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x;\n"
    "  mad.lo.s32 %r4, %r2, %r3, %r1;\n"
    "  mul.wide.u32 %rd3, %r4, 4; add.s64 %rd4, %rd1, %rd3; ld.global.f32 %f1, [%rd4];\n"
    "  shl.b32 %r5, %r1, 2; mov.u32 %r6, sbuf; add.s32 %r7, %r6, %r5;\n"
    "  st.shared.f32 [%r7], %f1;\n"
    "  mov.u32 %r12, dyn; add.s32 %r13, %r12, %r5; st.shared.u32 [%r13], %r1;\n"
    "  bar.sync 0;\n"
    "  shr.u32 %r8, %r3, 1;\n"
    "LOOP:\n"
    "  setp.lt.u32 %p1, %r8, 32;\n"
    "  @%p1 bra WARP;\n"
    "  setp.ge.u32 %p2, %r1, %r8;\n"
    "  @%p2 bra SKIP;\n"
    "  shl.b32 %r9, %r8, 2; add.s32 %r10, %r7, %r9;\n"
    "  ld.shared.f32 %f2, [%r10]; ld.shared.f32 %f3, [%r7]; add.f32 %f4, %f3, %f2; st.shared.f32 [%r7], %f4;\n"
    "SKIP:\n"
    "  bar.sync 0;\n"
    "  shr.u32 %r8, %r8, 1;\n"
    "  bra.uni LOOP;\n"
    "WARP:\n"
    "  setp.ge.u32 %p3, %r1, 32;\n"
    "  @%p3 bra END;\n"
    "  ld.shared.f32 %f5, [%r7];\n"
    "  mov.b32 %r11, %f5; shfl.sync.bfly.b32 %r9|%p1, %r11, 16, 31, -1; mov.b32 %f6, %r9; add.f32 %f5, %f5, %f6;\n"
    "  mov.b32 %r11, %f5; shfl.sync.bfly.b32 %r9, %r11, 8, 31, -1; mov.b32 %f6, %r9; add.f32 %f5, %f5, %f6;\n"
    "  mov.b32 %r11, %f5; shfl.sync.bfly.b32 %r9, %r11, 4, 31, -1; mov.b32 %f6, %r9; add.f32 %f5, %f5, %f6;\n"
    "  mov.b32 %r11, %f5; shfl.sync.bfly.b32 %r9, %r11, 2, 31, -1; mov.b32 %f6, %r9; add.f32 %f5, %f5, %f6;\n"
    "  mov.b32 %r11, %f5; shfl.sync.bfly.b32 %r9, %r11, 1, 31, -1; mov.b32 %f6, %r9; add.f32 %f5, %f5, %f6;\n"
    "  vote.sync.ballot.b32 %r14, %p1, -1;\n"
    "  setp.ne.u32 %p1, %r1, 0; @%p1 bra END;\n"
    "  atom.global.add.f32 %f7, [%rd2], %f5;\n"
    "  ld.shared.u32 %r15, [dyn+12];\n"           /* thread 3 stored 3 in dynamic shared */
    "  add.u32 %r15, %r15, %r14;\n"               /* + ballot of in-range preds (all 32) */
    "  mul.wide.u32 %rd8, %r2, 4; add.s64 %rd9, %rd7, %rd8; st.global.u32 [%rd9], %r15;\n"
    "END:\n"
    "  ret;\n"
    "}\n";

static npu_status_t load(const char *txt, npu_kmodule_t **m);

/* bar.sync inside a loop, registers and a .local variable live across barriers, threads that
 * exit before the first barrier: block mode with barrier phases (or fibers when disabled). */
static const char *ptx_phase =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry ph(.param .u64 out)\n"
    "{\n"
    " .reg .pred %p<3>; .reg .b32 %r<12>; .reg .b64 %rd<6>;\n"
    " .shared .align 4 .b8 sh[1024];\n"
    " .local .align 4 .b8 loc[8];\n"
    " ld.param.u64 %rd1, [out];\n"
    " mov.u32 %r1, %tid.x;\n"
    " st.local.u32 [loc], %r1;\n"
    " mov.u32 %r3, 0;\n"
    " mov.u32 %r4, %r1;\n"
    " setp.ge.u32 %p2, %r1, 200;\n"
    " @%p2 bra EXIT;\n"
    "LOOP:\n"
    " shl.b32 %r5, %r1, 2; mov.u32 %r6, sh; add.u32 %r7, %r6, %r5;\n"
    " st.shared.u32 [%r7], %r4;\n"
    " bar.sync 0;\n"
    " add.u32 %r8, %r1, 1; rem.u32 %r8, %r8, 200; shl.b32 %r8, %r8, 2; add.u32 %r8, %r6, %r8;\n"
    " ld.shared.u32 %r9, [%r8];\n"
    " barrier.sync.aligned 0;\n"
    " add.u32 %r4, %r4, %r9;\n"
    " add.u32 %r3, %r3, 1;\n"
    " setp.lt.u32 %p1, %r3, 5;\n"
    " @%p1 bra LOOP;\n"
    " ld.local.u32 %r10, [loc];\n"
    " add.u32 %r4, %r4, %r10;\n"
    " mul.wide.u32 %rd2, %r1, 4; add.s64 %rd3, %rd1, %rd2; st.global.u32 [%rd3], %r4;\n"
    "EXIT:\n"
    " ret;\n"
    "}\n";

static void run_bsum(int expect_sync);

/* block sum: barriers + shfl + vote, as block-mode phases and on fibers */
static void test_bsum(void)
{
    run_bsum(0);
    setenv("NPU_PTX_NO_PHASES", "1", 1);
    run_bsum(1);
    unsetenv("NPU_PTX_NO_PHASES");
}

static void run_phase(int expect_sync)
{
    npu_kmodule_t *m = NULL;
    CHECK_EQ(npu_kmodule_load_ptx(0, ptx_phase, strlen(ptx_phase), &m), NPU_OK);
    if (!m) return;
    npu_kfunc_t *f = NULL;
    CHECK_EQ(npu_kmodule_get_function(m, "ph", &f), NPU_OK);
    if (f) {
        CHECK_EQ(npu_kfunc_info(f)->uses_sync, expect_sync);
        uint32_t out[256] = {0}, *po = out, acc[200], nx[200];
        uint8_t params[8];
        memcpy(params, &po, 8);
        uint32_t g[3] = {1, 1, 1}, bl[3] = {256, 1, 1};
        CHECK_EQ(npu_exec_grid(f, g, bl, 0, params), NPU_OK);
        for (int t = 0; t < 200; t++) acc[t] = (uint32_t)t;
        for (int k = 0; k < 5; k++) {
            for (int t = 0; t < 200; t++) nx[t] = acc[t] + acc[(t + 1) % 200];
            memcpy(acc, nx, sizeof acc);
        }
        int bad = 0;
        for (int t = 0; t < 256; t++) bad += out[t] != (t < 200 ? acc[t] + (uint32_t)t : 0u);
        CHECK_EQ(bad, 0);
    }
    npu_kmodule_unload(m);
}

static void test_phase(void)
{
    run_phase(0);
    setenv("NPU_PTX_NO_PHASES", "1", 1);   /* the same kernel on fibers */
    run_phase(1);
    unsetenv("NPU_PTX_NO_PHASES");
}

/* threads racing on the first get_function of an entry: one translation, one handle */
static npu_kmodule_t *race_mod;
static npu_kfunc_t *race_f[4];
static npu_status_t race_st[4];
static void *racer(void *arg)
{
    long i = (long)arg;
    race_st[i] = npu_kmodule_get_function(race_mod, "vadd", &race_f[i]);
    return NULL;
}

static void test_race(void)
{
    char dir[] = "/tmp/test_ptx_raceXXXXXX";
    if (!mkdtemp(dir)) return;
    char *old = getenv("TRANSFER_TO_NPU_CACHE") ? strdup(getenv("TRANSFER_TO_NPU_CACHE")) : NULL;
    setenv("TRANSFER_TO_NPU_CACHE", dir, 1);   /* cold cache: the racers all want to compile */
    CHECK_EQ(load(ptx_vadd, &race_mod), NPU_OK);
    pthread_t th[4];
    for (long i = 0; i < 4; i++) pthread_create(&th[i], NULL, racer, (void *)i);
    for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 4; i++) { CHECK_EQ(race_st[i], NPU_OK); CHECK(race_f[i] == race_f[0]); }
    if (race_f[0]) CHECK_EQ(npu_kfunc_info(race_f[0])->from_cache, 0);
    npu_kmodule_unload(race_mod);
    if (old) { setenv("TRANSFER_TO_NPU_CACHE", old, 1); free(old); }
}

static npu_status_t load(const char *txt, npu_kmodule_t **m)
{
    return npu_kmodule_load_ptx(0, txt, strlen(txt), m);
}

static npu_status_t get(const char *txt, const char *name)
{
    npu_kmodule_t *m;
    npu_status_t st = load(txt, &m);
    if (st != NPU_OK) return st;
    npu_kfunc_t *f;
    st = npu_kmodule_get_function(m, name, &f);
    npu_kmodule_unload(m);
    return st;
}

#define HDR ".version 8.0\n.target sm_80\n.address_size 64\n"

static void test_vadd(void)
{
    npu_kmodule_t *m = NULL;
    CHECK_EQ(load(ptx_vadd, &m), NPU_OK);
    if (!m) return;
    CHECK_EQ(npu_kmodule_entry_count(m), 1);
    CHECK(npu_kmodule_entry_name(m, 0) && !strcmp(npu_kmodule_entry_name(m, 0), "vadd"));
    CHECK(npu_kmodule_entry_name(m, 1) == NULL);
    /* module variables with initialisers */
    void *d; size_t sz;
    CHECK_EQ(npu_kmodule_get_global(m, "counter", &d, &sz), NPU_OK);
    CHECK_EQ(sz, 4);
    CHECK_EQ(*(uint32_t *)d, 7);
    uint32_t *counter = d;
    CHECK_EQ(npu_kmodule_get_global(m, "ptr_to_counter", &d, &sz), NPU_OK);
    CHECK(*(void **)d == (void *)counter);
    CHECK_EQ(npu_kmodule_get_global(m, "ctab", &d, &sz), NPU_OK);
    CHECK_EQ(sz, 16);
    CHECK(((float *)d)[3] == 4.0f);
    CHECK_EQ(npu_kmodule_get_global(m, "bytes", &d, &sz), NPU_OK);
    CHECK(sz == 6 && ((uint8_t *)d)[3] == 250 && ((uint8_t *)d)[5] == 0);
    CHECK_EQ(npu_kmodule_get_global(m, "nope", &d, &sz), NPU_ENOTFOUND);

    npu_kfunc_t *f = NULL;
    CHECK_EQ(npu_kmodule_get_function(m, "nope", &f), NPU_ENOTFOUND);
    CHECK_EQ(npu_kmodule_get_function(m, "vadd", &f), NPU_OK);
    if (!f) { npu_kmodule_unload(m); return; }
    CHECK(npu_kfunc_module(f) == m);
    npu_kfunc_info_t *in = npu_kfunc_info(f);
    CHECK_EQ(in->nparams, 4);
    CHECK_EQ(in->params[0].offset, 0);
    CHECK_EQ(in->params[2].offset, 16);
    CHECK_EQ(in->params[3].offset, 24);
    CHECK_EQ(in->params[3].size, 16);
    CHECK_EQ(in->param_size, 40);
    CHECK_EQ(in->maxntid[0], 256);
    CHECK_EQ(in->uses_sync, 0);
    CHECK(in->block_fn != NULL);
    CHECK_EQ(in->ptx_version, 80);
    CHECK_EQ(in->target_sm, 80);

    int n = 1000;
    float *a = malloc(n * sizeof(float)), *c = calloc(n + 8, sizeof(float));
    for (int i = 0; i < n; i++) a[i] = (float)i * 0.5f - 7.0f;
    uint8_t params[40];
    memset(params, 0, sizeof params);
    memcpy(params + 0, &a, 8);
    memcpy(params + 8, &c, 8);
    memcpy(params + 16, &n, 4);
    double sb = 0.25;
    memcpy(params + 32, &sb, 8);
    uint32_t grid[3] = {(uint32_t)(n + 127) / 128, 1, 1}, block[3] = {128, 1, 1};
    CHECK_EQ(npu_exec_grid(f, grid, block, 0, params), NPU_OK);
    static const float tab[4] = {1, 2, 3, 4};
    int bad = 0;
    for (int i = 0; i < n; i++) bad += c[i] != a[i] * tab[i & 3] + 0.25f;
    CHECK_EQ(bad, 0);
    CHECK_EQ(c[n], 0.0f);
    CHECK_EQ(*counter, 7 + n);
    free(a);
    free(c);

    /* the cache: the same PTX in a second module compiles nothing */
    npu_kmodule_t *m2 = NULL;
    CHECK_EQ(load(ptx_vadd, &m2), NPU_OK);
    npu_kfunc_t *f2 = NULL;
    if (m2) CHECK_EQ(npu_kmodule_get_function(m2, "vadd", &f2), NPU_OK);
    if (f2) {
        CHECK_EQ(npu_kfunc_info(f2)->from_cache, 1);
        CHECK_EQ(npu_kfunc_info(f2)->jit_ns, 0);
        /* separate variables: m2's counter is untouched by m's launch */
        CHECK_EQ(npu_kmodule_get_global(m2, "counter", &d, &sz), NPU_OK);
        CHECK_EQ(*(uint32_t *)d, 7);
        int n2 = 10;
        float a2[10], c2[10];
        for (int i = 0; i < 10; i++) a2[i] = (float)i;
        float *pa = a2, *pc = c2;
        memset(params, 0, sizeof params);
        memcpy(params + 0, &pa, 8);
        memcpy(params + 8, &pc, 8);
        memcpy(params + 16, &n2, 4);
        uint32_t g1[3] = {1, 1, 1}, b1[3] = {32, 1, 1};
        CHECK_EQ(npu_exec_grid(f2, g1, b1, 0, params), NPU_OK);
        CHECK_EQ(*(uint32_t *)d, 17);
        CHECK_EQ(*counter, 7 + n);
        CHECK(c2[9] == 9.0f * 2.0f);
    }
    if (m2) npu_kmodule_unload(m2);
    npu_kmodule_unload(m);
}

static void run_bsum(int expect_sync)
{
    npu_kmodule_t *m = NULL;
    CHECK_EQ(load(ptx_bsum, &m), NPU_OK);
    if (!m) return;
    npu_kfunc_t *f = NULL;
    CHECK_EQ(npu_kmodule_get_function(m, "bsum", &f), NPU_OK);
    if (f) {
        npu_kfunc_info_t *in = npu_kfunc_info(f);
        CHECK_EQ(in->uses_sync, expect_sync);
        CHECK(expect_sync ? in->thread_fn != NULL : in->block_fn != NULL);
        CHECK_EQ(in->static_shared, 1024);
        int nb = 4, nt = 256, n = nb * nt;
        float *x = malloc(n * sizeof(float)), out = 0;
        uint32_t blk[4] = {0};
        double ref = 0;
        for (int i = 0; i < n; i++) { x[i] = (float)(i % 7); ref += x[i]; }
        uint8_t params[24];
        float *po = &out;
        uint32_t *pb = blk;
        memcpy(params, &x, 8);
        memcpy(params + 8, &po, 8);
        memcpy(params + 16, &pb, 8);
        uint32_t grid[3] = {(uint32_t)nb, 1, 1}, block[3] = {(uint32_t)nt, 1, 1};
        CHECK_EQ(npu_exec_grid(f, grid, block, 1024, params), NPU_OK);
        CHECK_NEAR(out, ref, 0);
        for (int i = 0; i < nb; i++) CHECK_EQ(blk[i], 3u + 0xffffffffu);
        free(x);
    }
    npu_kmodule_unload(m);
}

static void test_bad_input(void)
{
    npu_kmodule_t *m = NULL;
    /* load-time failures */
    CHECK_EQ(npu_kmodule_load_ptx(0, NULL, 0, &m), NPU_EINVAL);
    CHECK_EQ(npu_kmodule_load_ptx(0, "x", 1, NULL), NPU_EINVAL);
    CHECK_EQ(load("garbage that is not PTX at all", &m), NPU_EPTX);
    CHECK_EQ(load("", &m), NPU_EPTX);
    CHECK_EQ(load("\x01\x02\x03\xff", &m), NPU_EPTX);
    CHECK_EQ(load(HDR ".visible .entry k(.param .u64 a)\n{\n .reg .b32 %r<3>;\n mov.u32 %r1, 1;\n", &m), NPU_EPTX);
    CHECK_EQ(load(HDR ".visible .entry k(.param .u64 a", &m), NPU_EPTX);
    /* truncated in the middle of the ptx_vadd text, at every 97th byte: never a crash */
    size_t L = strlen(ptx_vadd);
    for (size_t cut = 1; cut < L; cut += 97) {
        npu_kmodule_t *mm = NULL;
        npu_status_t st = npu_kmodule_load_ptx(0, ptx_vadd, cut, &mm);
        if (st == NPU_OK && mm) {
            npu_kfunc_t *f;
            st = npu_kmodule_get_function(mm, "vadd", &f);
            CHECK(st == NPU_ENOTFOUND || st == NPU_EPTX || st == NPU_OK);
            npu_kmodule_unload(mm);
        } else {
            CHECK(st == NPU_EPTX);
        }
    }
    /* translation failures */
    CHECK_EQ(get(HDR ".visible .entry k()\n{\n .reg .b32 %r<3>;\n mov.u32 %r7, 1;\n ret;\n}\n", "k"), NPU_EPTX);
    CHECK_EQ(get(HDR ".visible .entry k()\n{\n .reg .b32 %r<3>;\n add.u32 %r1, %q2, 1;\n ret;\n}\n", "k"), NPU_EPTX);
    CHECK_EQ(get(HDR ".visible .entry k()\n{\n .reg .pred %p<2>;\n @%p1 bra NOWHERE;\n ret;\n}\n", "k"), NPU_EPTX);
    CHECK_EQ(get(HDR ".visible .entry k()\n{\n .reg .b32 %r<3>;\n frobnicate.u32 %r1, %r2;\n ret;\n}\n", "k"), NPU_EPTXUNSUP);
    CHECK_EQ(get(HDR ".visible .entry k()\n{\n .reg .b32 %r<3>;\n mov.u32 %r1 %r2;\n ret;\n}\n", "k"), NPU_EPTX);
    CHECK_EQ(get(HDR ".visible .entry k()\n{\n .reg .b32 %r<3>;\n mov.u32 %r1, [;\n ret;\n}\n", "k"), NPU_EPTX);
    CHECK_EQ(get(HDR ".extern .func (.param .b32 r) mystery(.param .b32 a);\n"
                 ".visible .entry k()\n{\n .reg .b32 %r<3>;\n"
                 " { .param .b32 p0; st.param.b32 [p0], %r1; .param .b32 r0; call.uni (r0), mystery, (p0); }\n ret;\n}\n", "k"),
             NPU_EPTX);
    CHECK_EQ(get(HDR ".visible .entry k(.param .u64 t)\n{\n .reg .f32 %f<5>; .reg .b64 %rd<3>;\n"
                 " tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1, %f2}];\n ret;\n}\n", "k"), NPU_EPTXUNSUP);
    CHECK_EQ(get(HDR ".visible .entry k()\n{\n .reg .b32 %r<3>;\n call.uni %r1;\n ret;\n}\n", "k"), NPU_EPTX);
    /* a failing entry stays failed (same status, no retranslation) */
    CHECK_EQ(load(HDR ".visible .entry k()\n{\n .reg .b32 %r<3>;\n bogus.op %r1;\n ret;\n}\n"
                  ".visible .entry ok()\n{\n ret;\n}\n", &m), NPU_OK);
    if (m) {
        npu_kfunc_t *f;
        CHECK_EQ(npu_kmodule_get_function(m, "k", &f), NPU_EPTXUNSUP);
        CHECK_EQ(npu_kmodule_get_function(m, "k", &f), NPU_EPTXUNSUP);
        CHECK_EQ(npu_kmodule_get_function(m, "ok", &f), NPU_OK);
        CHECK_EQ(npu_kmodule_get_function(NULL, "ok", &f), NPU_EINVAL);
        CHECK_EQ(npu_kmodule_get_function(m, NULL, &f), NPU_EINVAL);
        npu_kmodule_unload(m);
    }
    CHECK_EQ(npu_kmodule_unload(NULL), NPU_EINVAL);
    CHECK_EQ(npu_kmodule_entry_count(NULL), 0);
    CHECK(npu_kfunc_info(NULL) == NULL);
}

/* -rdc style: an entry in one text calls a .func defined in another */
static void test_link(void)
{
    const char *a = HDR ".extern .func (.param .b32 r) twice(.param .b32 x);\n"
                        ".visible .entry k(.param .u64 o)\n{\n .reg .b32 %r<4>; .reg .b64 %rd<2>;\n"
                        " ld.param.u64 %rd1, [o]; mov.u32 %r1, 21;\n"
                        " { .param .b32 p0; st.param.b32 [p0], %r1; .param .b32 r0; call.uni (r0), twice, (p0); ld.param.b32 %r2, [r0]; }\n"
                        " st.global.u32 [%rd1], %r2;\n ret;\n}\n";
    const char *b = HDR ".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n .reg .b32 %r<3>;\n"
                        " ld.param.u32 %r1, [x]; shl.b32 %r2, %r1, 1; st.param.b32 [r], %r2; ret;\n}\n";
    const char *texts[2] = {a, b};
    size_t lens[2] = {strlen(a), strlen(b)};
    npu_kmodule_t *m = NULL;
    CHECK_EQ(npu_kmodule_link_ptx(0, texts, lens, 2, &m), NPU_OK);
    if (!m) return;
    npu_kfunc_t *f = NULL;
    CHECK_EQ(npu_kmodule_get_function(m, "k", &f), NPU_OK);
    if (f) {
        uint32_t out = 0, *po = &out;
        uint8_t params[8];
        memcpy(params, &po, 8);
        uint32_t g[3] = {1, 1, 1}, bl[3] = {1, 1, 1};
        CHECK_EQ(npu_exec_grid(f, g, bl, 0, params), NPU_OK);
        CHECK_EQ(out, 42);
    }
    npu_kmodule_unload(m);
    /* the same entry without the second text: the .extern function is undefined */
    CHECK_EQ(get(a, "k"), NPU_EPTX);
}

/* the cache key's hash is FNV-1a 128: published test vectors */
static void test_hash(void)
{
    uint64_t h[2];
    npu_jit_hash128("", 0, h);
    CHECK(h[0] == 0x6c62272e07bb0142ull && h[1] == 0x62b821756295c58dull);
    npu_jit_hash128("a", 1, h);
    CHECK(h[0] == 0xd228cb696f1a8cafull && h[1] == 0x78912b704e4a8964ull);
}

int main(void)
{
    char dir[] = "/tmp/test_ptx_cacheXXXXXX";
    if (!getenv("TRANSFER_TO_NPU_CACHE") && mkdtemp(dir)) setenv("TRANSFER_TO_NPU_CACHE", dir, 1);
    npu_init();
    test_hash();
    test_vadd();
    test_bsum();
    test_bad_input();
    test_link();
    test_phase();
    test_race();
    return CHECK_DONE();
}
