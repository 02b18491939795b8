// NVCC_FLAGS: -cudart static
// The private driver tables (cuGetExportTable) called directly, as a static cudart calls them,
// checked against independent references: the integrity check against our own HMAC-MD2
// (MD2 checked with RFC 1319's test vectors and a state ZLUDA recorded on a GPU), the primary
// context against cuDevicePrimaryCtxRetain, a module from the cudart slot against values the
// kernel must write, context-local storage against what was put; bad inputs get errors.
#include <cuda.h>
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include "check.h"

#define DRV(name) static decltype(&::name) p_##name;
DRV(cuGetExportTable) DRV(cuDriverGetVersion) DRV(cuDevicePrimaryCtxRetain) DRV(cuDevicePrimaryCtxRelease_v2)
DRV(cuDeviceGetUuid) DRV(cuDeviceGetAttribute) DRV(cuDeviceGetCount) DRV(cuCtxGetCurrent) DRV(cuModuleGetFunction)
DRV(cuLaunchKernel) DRV(cuModuleUnload) DRV(cuCtxSynchronize)

typedef unsigned char uuid_t16[16];
static const uuid_t16 CUDART_IF = { 0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9 };
static const uuid_t16 CLS_IF = { 0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93 };
static const uuid_t16 TOOLS_TLS = { 0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc };
static const uuid_t16 HOOKS = { 0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66 };
static const uuid_t16 INTEGRITY = { 0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2 };
static const uuid_t16 CHECKS = { 0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e };
static const uuid_t16 STATIC_CUDART_ASKS = { 0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9 };
static const uuid_t16 MADE_UP = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

static void *const *table(const uuid_t16 id, CUresult *r)
{
    CUuuid u;
    memcpy(u.bytes, id, 16);
    const void *t = (const void *)0x1;
    *r = p_cuGetExportTable(&t, &u);
    return (void *const *)t;
}

/* ---- MD2 (RFC 1319), written from the RFC: the reference for the integrity hash ---- */
static unsigned char S[256];
static void md2_init_s(void)
{
    /* RFC 1319's S table, "constructed from the digits of pi"; transcribed in rows of 16 */
    static const unsigned char s[256] = {
        41, 46, 67, 201, 162, 216, 124, 1, 61, 54, 84, 161, 236, 240, 6, 19, 98, 167, 5, 243, 192, 199, 115, 140,
        152, 147, 43, 217, 188, 76, 130, 202, 30, 155, 87, 60, 253, 212, 224, 22, 103, 66, 111, 24, 138, 23, 229,
        18, 190, 78, 196, 214, 218, 158, 222, 73, 160, 251, 245, 142, 187, 47, 238, 122, 169, 104, 121, 145, 21,
        178, 7, 63, 148, 194, 16, 137, 11, 34, 95, 33, 128, 127, 93, 154, 90, 144, 50, 39, 53, 62, 204, 231, 191,
        247, 151, 3, 255, 25, 48, 179, 72, 165, 181, 209, 215, 94, 146, 42, 172, 86, 170, 198, 79, 184, 56, 210,
        150, 164, 125, 182, 118, 252, 107, 226, 156, 116, 4, 241, 69, 157, 112, 89, 100, 113, 135, 32, 134, 91,
        207, 101, 230, 45, 168, 2, 27, 96, 37, 173, 174, 176, 185, 246, 28, 70, 97, 105, 52, 64, 126, 15, 85, 71,
        163, 35, 221, 81, 175, 58, 195, 92, 249, 206, 186, 197, 234, 38, 44, 83, 13, 110, 133, 40, 132, 9, 211,
        223, 205, 244, 65, 129, 77, 82, 106, 220, 55, 200, 108, 193, 171, 250, 36, 225, 123, 8, 12, 189, 177, 74,
        120, 136, 149, 139, 227, 99, 232, 109, 233, 203, 213, 254, 59, 0, 29, 57, 242, 239, 183, 14, 102, 88, 208,
        228, 166, 119, 114, 248, 235, 117, 75, 10, 49, 68, 80, 180, 143, 237, 31, 26, 219, 153, 141, 51, 159, 17,
        131, 20 };
    memcpy(S, s, 256);
}

/* MD2 over whole 16-byte blocks: x (the first 16 bytes of the state) and the checksum c. */
static void md2_blocks(const unsigned char *m, size_t blocks, unsigned char x[48], unsigned char c[16])
{
    unsigned char l = 0;
    memset(x, 0, 48);
    memset(c, 0, 16);
    for (size_t i = 0; i < blocks; i++) {
        for (int j = 0; j < 16; j++) {
            x[16 + j] = m[i * 16 + j];
            x[32 + j] = x[16 + j] ^ x[j];
            l = c[j] ^= S[m[i * 16 + j] ^ l];
        }
        unsigned t = 0;
        for (int j = 0; j < 18; j++) {
            for (int k = 0; k < 48; k++)
                t = x[k] ^= S[t];
            t = (t + j) % 256;
        }
    }
}

/* Whole-message MD2: pad, append the checksum, digest = first 16 bytes (RFC 1319 3.1-3.5). */
static void md2(const unsigned char *msg, size_t len, unsigned char out[16])
{
    size_t padded = (len / 16 + 1) * 16;
    unsigned char *m = new unsigned char[padded + 16];
    memcpy(m, msg, len);
    memset(m + len, (int)(padded - len), padded - len);
    unsigned char x[48], c[16];
    md2_blocks(m, padded / 16, x, c);
    memcpy(m + padded, c, 16);
    md2_blocks(m, padded / 16 + 1, x, c);
    memcpy(out, x, 16);
    delete[] m;
}

static int hex_eq(const unsigned char *d, const char *hex)
{
    char buf[33];
    for (int i = 0; i < 16; i++)
        snprintf(buf + 2 * i, 3, "%02x", d[i]);
    return strcmp(buf, hex) == 0;
}

static const unsigned char KEY[16] = { 0x14, 0x6A, 0xDD, 0xAE, 0x53, 0xA9, 0xA7, 0x52,
                                       0xAA, 0x08, 0x41, 0x36, 0x0B, 0xF5, 0x5A, 0x9F };

static void hmac_md2(const unsigned char *msg, size_t len, unsigned char out[16])
{
    unsigned char *in = new unsigned char[16 + len], o[32];
    for (int i = 0; i < 16; i++)
        in[i] = KEY[i] ^ 0x36;
    memcpy(in + 16, msg, len);
    for (int i = 0; i < 16; i++)
        o[i] = KEY[i] ^ 0x5c;
    md2(in, 16 + len, o + 16);
    md2(o, 32, out);
    delete[] in;
}

struct head_t {
    uint32_t driver, version, pid, thread;
    const void *cudart, *integrity, *fn;
    uint64_t seconds;
};

static void test_md2_reference(void)
{
    md2_init_s();
    unsigned char d[16];
    md2((const unsigned char *)"", 0, d);
    CHECK(hex_eq(d, "8350e5a3e24c153df2275c9f80692773"));
    md2((const unsigned char *)"abc", 3, d);
    CHECK(hex_eq(d, "da853b0d3f88d99b30283a69e6ded6bb"));
    md2((const unsigned char *)"message digest", 14, d);
    CHECK(hex_eq(d, "ab4f496bfb2a530b219ff33031fe06b0"));
    /* ZLUDA's state recorded on a GPU after key ^ 0x36 and the 48-byte header (dark_api/src/lib.rs,
     * test integrity_check_pass3): checks the header layout {u32 x4, pointers x3, u64}. */
    head_t h = { 0x2f30, 12082, 0x002fa423, 0xf79c1000, (const void *)0x00007ffff6958240,
                 (const void *)0x00007ffff6958220, (const void *)0x00007ffff2aaf4a0, 0x682b9cee };
    unsigned char msg[16 + sizeof h], x[48], c[16];
    CHECK_EQ(sizeof h, 48);
    for (int i = 0; i < 16; i++)
        msg[i] = KEY[i] ^ 0x36;
    memcpy(msg + 16, &h, sizeof h);
    md2_blocks(msg, 4, x, c);
    CHECK(hex_eq(x, "0afdabc9ff9ba0be4d303282744fa748"));
    CHECK(hex_eq(c, "6428d9e1d434c0a94988c96158dd6674"));
}

static void test_integrity(void *const *cudart)
{
    CUresult r;
    void *const *t = table(INTEGRITY, &r);
    CHECK_EQ(r, CUDA_SUCCESS);
    if (r != CUDA_SUCCESS)
        return;
    CHECK_EQ((uintptr_t)t[0], 3 * sizeof(void *));
    typedef CUresult (*fn_t)(uint32_t, uint64_t, uint64_t *);
    fn_t f = (fn_t)t[1];
    uint64_t res[2] = { 0, 0 };
    CHECK_EQ(f(13000, 1234, res), CUDA_SUCCESS);
    CHECK(res[0] == 0x3341181C03CB675Cull && res[1] == 0x8ED383AA1F4CD1E8ull);
    CHECK_EQ(f(12081, 1234, res), CUDA_SUCCESS);
    CHECK(res[0] == 0x1841181C03CB675Cull && res[1] == 0x8ED383AA1F4CD1E8ull);
    CHECK_EQ(f(13002, 1234, NULL), CUDA_ERROR_INVALID_VALUE);

    int drv = 0, n = 0;
    CHECK_EQ(p_cuDriverGetVersion(&drv), CUDA_SUCCESS);
    CHECK_EQ(p_cuDeviceGetCount(&n), CUDA_SUCCESS);
    for (uint32_t version = 13002; version < 13010; version += 3) {
        uint64_t secs = 1795986724ull + version;
        head_t h = { (uint32_t)drv, version, (uint32_t)getpid(), (uint32_t)pthread_self(),
                     (const void *)cudart, (const void *)t, (const void *)t[1], secs };
        size_t len = sizeof h + 28 * (size_t)n;
        unsigned char *msg = new unsigned char[len];
        memcpy(msg, &h, sizeof h);
        for (int d = 0; d < n; d++) {
            CUuuid u;
            int32_t pci[3];
            CHECK_EQ(p_cuDeviceGetUuid(&u, d), CUDA_SUCCESS);
            CHECK_EQ(p_cuDeviceGetAttribute(&pci[0], CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, d), CUDA_SUCCESS);
            CHECK_EQ(p_cuDeviceGetAttribute(&pci[1], CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, d), CUDA_SUCCESS);
            CHECK_EQ(p_cuDeviceGetAttribute(&pci[2], CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, d), CUDA_SUCCESS);
            memcpy(msg + sizeof h + 28 * d, u.bytes, 16);
            memcpy(msg + sizeof h + 28 * d + 16, pci, 12);
        }
        unsigned char want[16];
        hmac_md2(msg, len, want);
        delete[] msg;
        CHECK_EQ(f(version, secs, res), CUDA_SUCCESS);
        CHECK_MSG(memcmp(res, want, 16) == 0, "integrity hash of version %u differs", version);
    }
}

static const char ptx[] =
    ".version 7.0\n.target sm_50\n.address_size 64\n"
    ".visible .entry fill(.param .u64 p, .param .u32 v)\n{\n"
    " .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [p];\n ld.param.u32 %r1, [v];\n cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r2, %tid.x;\n add.u32 %r3, %r1, %r2;\n mul.wide.u32 %rd3, %r2, 4;\n"
    " add.s64 %rd2, %rd2, %rd3;\n st.global.u32 [%rd2], %r3;\n ret;\n}\n";

static void test_cudart(void *const *t)
{
    CHECK_EQ((uintptr_t)t[0], 13 * sizeof(void *));
    typedef CUresult (*get_ctx_t)(CUcontext *, CUdevice);
    typedef CUresult (*load_t)(CUmodule *, const void *);
    typedef CUresult (*load_ext2_t)(const void *, CUmodule *, void *, void *, unsigned);
    typedef CUresult (*unknown_t)(uintptr_t, uintptr_t, uintptr_t);
    typedef CUresult (*noarg_t)(void);

    CUcontext pc = NULL, ours = NULL;
    CHECK_EQ(((get_ctx_t)t[2])(&ours, 0), CUDA_SUCCESS);
    CHECK_EQ(p_cuDevicePrimaryCtxRetain(&pc, 0), CUDA_SUCCESS);
    CHECK(ours != NULL && ours == pc);
    CHECK_EQ(p_cuDevicePrimaryCtxRelease_v2(0), CUDA_SUCCESS);
    CHECK_EQ(((get_ctx_t)t[2])(&ours, 999), CUDA_ERROR_INVALID_DEVICE);
    CHECK_EQ(((get_ctx_t)t[2])(NULL, 0), CUDA_ERROR_INVALID_VALUE);

    CUmodule m = NULL;
    CHECK_EQ(((load_t)t[1])(&m, ptx), CUDA_SUCCESS);
    CUfunction fn = NULL;
    CHECK_EQ(p_cuModuleGetFunction(&fn, m, "fill"), CUDA_SUCCESS);
    int *d = NULL, h[32];
    CHECK_EQ(cudaMalloc(&d, sizeof h), cudaSuccess);
    unsigned v = 1000;
    void *args[] = { &d, &v };
    CHECK_EQ(p_cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL), CUDA_SUCCESS);
    CHECK_EQ(p_cuCtxSynchronize(), CUDA_SUCCESS);
    CHECK_EQ(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost), cudaSuccess);
    int bad = 0;
    for (int i = 0; i < 32; i++)
        bad += h[i] != 1000 + i;
    CHECK_EQ(bad, 0);
    cudaFree(d);
    CHECK_EQ(p_cuModuleUnload(m), CUDA_SUCCESS);

    CHECK_EQ(((load_t)t[1])(&m, NULL), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(((load_t)t[1])(NULL, ptx), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(((load_ext2_t)t[8])(ptx, &m, NULL, NULL, 1), CUDA_ERROR_NOT_SUPPORTED);
    CHECK_EQ(((load_ext2_t)t[8])(ptx, &m, NULL, NULL, 0), CUDA_SUCCESS);
    CHECK_EQ(p_cuModuleUnload(m), CUDA_SUCCESS);
    CHECK_EQ(((unknown_t)t[3])(1, 2, 3), CUDA_ERROR_NOT_SUPPORTED);
    CHECK_EQ(((noarg_t)t[12])(), CUDA_SUCCESS);
}

static int dtor_calls;
static void cls_dtor(CUcontext, void *, void *) { dtor_calls++; }

static void test_cls(void)
{
    CUresult r;
    void *const *t = table(CLS_IF, &r);
    CHECK_EQ(r, CUDA_SUCCESS);
    if (r != CUDA_SUCCESS)
        return;
    typedef CUresult (*put_t)(CUcontext, void *, void *, void (*)(CUcontext, void *, void *));
    typedef CUresult (*del_t)(CUcontext, void *);
    typedef CUresult (*get_t)(void **, CUcontext, void *);
    put_t put = (put_t)t[0];
    del_t del = (del_t)t[1];
    get_t get = (get_t)t[2];
    static int key1, key2, val1, val2;
    CUcontext cur = NULL;
    CHECK_EQ(p_cuCtxGetCurrent(&cur), CUDA_SUCCESS);
    void *v = NULL;
    CHECK_EQ(get(&v, NULL, &key1), CUDA_ERROR_INVALID_HANDLE);
    CHECK_EQ(put(NULL, &key1, &val1, cls_dtor), CUDA_SUCCESS);
    CHECK_EQ(get(&v, NULL, &key1), CUDA_SUCCESS);
    CHECK(v == &val1);
    v = NULL;
    CHECK_EQ(get(&v, cur, &key1), CUDA_SUCCESS);   /* NULL meant the current context */
    CHECK(v == &val1);
    CHECK_EQ(put(cur, &key1, &val2, cls_dtor), CUDA_SUCCESS);  /* replaces */
    CHECK_EQ(get(&v, cur, &key1), CUDA_SUCCESS);
    CHECK(v == &val2);
    CHECK_EQ(get(&v, cur, &key2), CUDA_ERROR_INVALID_HANDLE);
    CHECK_EQ(get(NULL, cur, &key1), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(get(&v, (CUcontext)0x1234, &key1), CUDA_ERROR_INVALID_CONTEXT);
    CHECK_EQ(put((CUcontext)0x1234, &key2, &val1, NULL), CUDA_ERROR_INVALID_CONTEXT);
    CHECK_EQ(del(cur, &key1), CUDA_SUCCESS);
    CHECK_EQ(get(&v, cur, &key1), CUDA_ERROR_INVALID_HANDLE);
    CHECK_EQ(del(cur, &key1), CUDA_ERROR_INVALID_HANDLE);
    CHECK_EQ(dtor_calls, 0);   /* delete does not run the destructor; teardown does */
}

static void test_tools_and_checks(void)
{
    CUresult r;
    void *const *t = table(HOOKS, &r);
    CHECK_EQ(r, CUDA_SUCCESS);
    if (r == CUDA_SUCCESS) {
        CHECK_EQ((uintptr_t)t[0], 7 * sizeof(void *));
        typedef void (*buf_t)(void **, size_t *);
        void *p1 = NULL, *p2 = NULL;
        size_t n1 = 0, n2 = 0;
        ((buf_t)t[2])(&p1, &n1);
        ((buf_t)t[6])(&p2, &n2);
        CHECK(p1 && p2 && p1 != p2);
        CHECK_EQ(n1, 1024);
        CHECK_EQ(n2, 14);
        if (p1 && p2) {
            ((uint32_t *)p1)[n1 - 1] = 7;
            ((uint32_t *)p2)[n2 - 1] = 9;
            CHECK_EQ(((uint32_t *)p1)[n1 - 1], 7);
        }
    }
    t = table(TOOLS_TLS, &r);
    CHECK_EQ(r, CUDA_SUCCESS);
    if (r == CUDA_SUCCESS)
        CHECK_EQ((uintptr_t)t[0], 4 * sizeof(void *));
    t = table(CHECKS, &r);
    CHECK_EQ(r, CUDA_SUCCESS);
    if (r == CUDA_SUCCESS) {
        CHECK_EQ((uintptr_t)t[0], 4 * sizeof(void *));
        typedef CUresult (*chk_t)(CUcontext, uint32_t *, const void **);
        uint32_t flags = 99;
        const void *p = NULL;
        CHECK_EQ(((chk_t)t[2])(NULL, &flags, &p), CUDA_SUCCESS);
        CHECK_EQ(flags, 0);
        CHECK_EQ(((chk_t)t[2])(NULL, NULL, &p), CUDA_ERROR_INVALID_VALUE);
        CHECK_EQ(((uint32_t (*)(void))t[3])(), 0);
    }
}

int main(void)
{
    void *lib = dlopen("libcuda.so.1", RTLD_NOW);
    CHECK(lib != NULL);
    if (!lib)
        return CHECK_DONE();
#define LOAD(name) p_##name = (decltype(p_##name))dlsym(lib, #name); CHECK(p_##name != NULL);
    LOAD(cuGetExportTable) LOAD(cuDriverGetVersion) LOAD(cuDevicePrimaryCtxRetain)
    LOAD(cuDevicePrimaryCtxRelease_v2) LOAD(cuDeviceGetUuid) LOAD(cuDeviceGetAttribute)
    LOAD(cuDeviceGetCount) LOAD(cuCtxGetCurrent) LOAD(cuModuleGetFunction) LOAD(cuLaunchKernel)
    LOAD(cuModuleUnload) LOAD(cuCtxSynchronize)
    if (check_failures_)
        return CHECK_DONE();
    /* The static cudart starts and makes its context current; it checks our integrity hash on
     * the way (a wrong one fails with cudaErrorSoftwareValidityNotEstablished). */
    CHECK_EQ(cudaFree(0), cudaSuccess);

    CUuuid u;
    memcpy(u.bytes, MADE_UP, 16);
    const void *tp = NULL;
    CHECK_EQ(p_cuGetExportTable(NULL, &u), CUDA_ERROR_INVALID_VALUE);
    CHECK_EQ(p_cuGetExportTable(&tp, NULL), CUDA_ERROR_INVALID_VALUE);
    CUresult r;
    CHECK(table(MADE_UP, &r) == NULL);
    CHECK_EQ(r, CUDA_ERROR_NOT_SUPPORTED);
    CHECK(table(STATIC_CUDART_ASKS, &r) == NULL);
    CHECK_EQ(r, CUDA_ERROR_NOT_SUPPORTED);

    test_md2_reference();
    void *const *cudart = table(CUDART_IF, &r);
    CHECK_EQ(r, CUDA_SUCCESS);
    if (cudart) {
        test_integrity(cudart);
        test_cudart(cudart);
    }
    test_cls();
    test_tools_and_checks();
    return CHECK_DONE();
}
