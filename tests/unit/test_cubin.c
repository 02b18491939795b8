/*
 * test_cubin.c - the cubin loader (cubin.c) and the fatbin cubin API (fatbin.c) on bad and
 * edge-case input, with cubins nvcc builds at test time in a temp dir. The field-by-field
 * comparison with NVIDIA's tools is tests/cubin/check_cubin.py; this file checks what a
 * corrupted image does: truncations, broken ELF and section headers, symbols and relocations
 * out of range, bogus .nv.info formats and lengths, random byte flips (always NPU_OK or
 * NPU_ECUBIN, and every pointer of an accepted model stays inside the image: walking the
 * model under ASan/valgrind catches a stray one), plus the fatbin listing of wrappers, the
 * CC rule on synthetic lists, relocation patching round trips and the driver-area table.
 */
#include "npu_runtime/kernel/cubin.h"
#include "npu_runtime/kernel/npu_kernel.h"
#include "check.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char dir[64];
static const char *nvcc;

static int run(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd %s && %s %s", dir, nvcc, args);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "command failed: %s\n", cmd);
    return rc;
}

static uint8_t *slurp(const char *name, size_t *len)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = aligned_alloc(8, ((size_t)n + 64) & ~(size_t)7);
    if (fread(p, 1, (size_t)n, f) != (size_t)n) { free(p); fclose(f); return NULL; }
    fclose(f);
    *len = (size_t)n;
    return p;
}

static const char *src =
    "#include <cstdio>\n"
    "__device__ int g = 7;\n"
    "__device__ int *gp = &g;\n"
    "__constant__ float c[4] = {1, 2, 3, 4};\n"
    "__global__ void k(int *o, int n, float x) { __shared__ int s[32];\n"
    "  s[threadIdx.x % 32] = o[threadIdx.x]; __syncthreads();\n"
    "  switch (n + threadIdx.x) { case 0: o[0] = s[1]; break; case 1: o[1] = s[2] * 3; break;\n"
    "  case 2: o[2] = s[3] ^ 5; break; case 3: o[3] = *gp; break; case 4: o[4] = c[n & 3]; break;\n"
    "  default: o[5] = (int)x; }\n"
    "  if (n == 9) printf(\"%d\\n\", n); }\n"
    "__global__ void k2(float *o) { o[threadIdx.x] *= 2.0f; }\n";

static uint16_t r16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static uint32_t r32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t r64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static void w16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void w32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void w64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* section header i of an ELF image */
static uint8_t *shdr(uint8_t *e, unsigned i) { return e + r64(e + 40) + 64ull * i; }

static int find_section(uint8_t *e, const char *name)
{
    unsigned n = r16(e + 60), sx = r16(e + 62);
    const char *str = (const char *)e + r64(shdr(e, sx) + 24);
    for (unsigned i = 0; i < n; i++)
        if (strcmp(str + r32(shdr(e, i)), name) == 0)
            return (int)i;
    return -1;
}

/* Touches every byte the model points at, so that ASan/valgrind see a stray pointer. */
static unsigned long walk(const npu_cubin_t *c)
{
    unsigned long sum = 0;
    for (uint32_t i = 0; i < c->nsections; i++) {
        sum += strlen(c->sections[i].name);
        if (c->sections[i].data)
            for (uint64_t j = 0; j < c->sections[i].size; j += 61)
                sum += c->sections[i].data[j];
    }
    for (uint32_t i = 0; i < c->nsyms; i++)
        sum += strlen(c->syms[i].name);
    for (uint32_t i = 0; i < c->nkernels; i++) {
        const npu_cubin_kernel_t *k = &c->kernels[i];
        sum += k->code_size ? k->code[k->code_size - 1] : 0;
        for (uint32_t j = 0; j < k->nattrs; j++)
            for (uint32_t b = 0; b < k->attrs[j].size; b++)
                sum += k->attrs[j].value[b];
        for (uint32_t j = 0; j < k->cmem2_size; j++)
            sum += k->cmem2[j];
        for (uint32_t j = 0; j < k->nparams; j++)
            sum += k->params[j].offset + k->params[j].size;
        for (uint32_t j = 0; j < k->exit_offsets.n; j++)
            sum += k->exit_offsets.v[j];
        for (uint32_t j = 0; j < k->nexterns; j++)
            sum += strlen(k->externs[j].name);
        for (uint32_t j = 0; j < k->nibranches; j++)
            for (uint32_t t = 0; t < k->ibranches[j].ntargets; t++)
                sum += k->ibranches[j].targets[t];
        for (uint32_t j = 0; j < k->text_relocs.n; j++)
            sum += strlen(k->text_relocs.v[j].sym_name);
        for (uint32_t j = 0; j < k->nlocal_funcs; j++)
            sum += strlen(k->local_funcs[j]->name);
    }
    for (uint32_t i = 0; i < c->nvars; i++) {
        sum += strlen(c->vars[i].name);
        if (c->vars[i].init)
            for (uint64_t j = 0; j < c->vars[i].size; j++)
                sum += c->vars[i].init[j];
    }
    for (uint32_t i = 0; i < c->nrelocs; i++)
        sum += strlen(c->relocs[i].sym_name);
    for (uint32_t i = 0; i < c->nfuncs; i++)
        if (c->funcs[i].code)
            sum += c->funcs[i].code[c->funcs[i].code_size - 1];
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        npu_cubin_dump(c, null);
        fclose(null);
    }
    return sum;
}

/* parse must give NPU_ECUBIN (and *out NULL) */
static void expect_bad(const char *what, const uint8_t *img, size_t n)
{
    npu_cubin_t *c = (npu_cubin_t *)1;
    npu_status_t st = npu_cubin_parse(img, n, &c);
    CHECK_MSG(st == NPU_ECUBIN, "%s: %s", what, npu_status_name(st));
    CHECK_MSG(c == NULL, "%s: *out not cleared", what);
    if (st == NPU_OK)
        npu_cubin_free(c);
}

/* parse may accept or refuse, never anything else; an accepted model is walked */
static npu_cubin_t *parse_any(const char *what, const uint8_t *img, size_t n)
{
    npu_cubin_t *c = NULL;
    npu_status_t st = npu_cubin_parse(img, n, &c);
    CHECK_MSG(st == NPU_OK || st == NPU_ECUBIN, "%s: %s", what, npu_status_name(st));
    if (st == NPU_OK)
        walk(c);
    return st == NPU_OK ? c : NULL;
}

static void test_corruptions(const uint8_t *good, size_t n)
{
    uint8_t *e = malloc(n);
    npu_cubin_t *c;
    CHECK_EQ(npu_cubin_parse(good, n, &c), NPU_OK);
    uint32_t nk = c->nkernels, nparams = 0;
    const npu_cubin_kernel_t *k = npu_cubin_find_kernel(c, "_Z1kPiif");
    CHECK(k != NULL);
    if (k)
        nparams = k->nparams;
    CHECK_EQ(nk, 2);
    npu_cubin_free(c);

    /* truncation: everything short of the section headers is refused */
    uint64_t shoff = r64(good + 40), shend = shoff + 64ull * r16(good + 60);
    for (size_t len = 0; len < n; len += len < 128 ? 1 : 97) {
        if (len < shend) {
            char what[64];
            snprintf(what, sizeof what, "truncated to %zu of %zu", len, n);
            expect_bad(what, good, len);
        } else {
            npu_cubin_t *t = parse_any("truncated past the headers", good, len);
            npu_cubin_free(t);
        }
    }

    /* ELF header fields */
    memcpy(e, good, n); e[0] = 0x7e;                 expect_bad("bad magic", e, n);
    memcpy(e, good, n); e[4] = 1;                    expect_bad("ELF32", e, n);
    memcpy(e, good, n); e[5] = 2;                    expect_bad("big-endian", e, n);
    memcpy(e, good, n); w16(e + 18, 62);             expect_bad("x86-64 machine", e, n);
    memcpy(e, good, n); w16(e + 58, 40);             expect_bad("e_shentsize 40", e, n);
    memcpy(e, good, n); w64(e + 40, n);              expect_bad("e_shoff at the end", e, n);
    memcpy(e, good, n); w64(e + 40, ~0ull - 8);      expect_bad("e_shoff wraps", e, n);
    memcpy(e, good, n); w64(e + 40, 0);              expect_bad("no section headers", e, n);
    memcpy(e, good, n); w16(e + 60, 0xfff0);         expect_bad("e_shnum too large", e, n);
    memcpy(e, good, n); w16(e + 62, r16(e + 60));    expect_bad("e_shstrndx out of range", e, n);
    memcpy(e, good, n); w16(e + 62, 0xffff); w32(shdr(e, 0) + 40, 9999);
    expect_bad("SHN_XINDEX to nowhere", e, n);

    /* section headers */
    int text = find_section((uint8_t *)good, ".text._Z1kPiif");
    int info = find_section((uint8_t *)good, ".nv.info._Z1kPiif");
    int symtab = find_section((uint8_t *)good, ".symtab");
    int c4rel = find_section((uint8_t *)good, ".rel.nv.constant4");
    if (c4rel < 0)
        c4rel = find_section((uint8_t *)good, ".rela.nv.constant4");
    CHECK(text > 0 && info > 0 && symtab > 0 && c4rel > 0);
    if (text <= 0 || info <= 0 || symtab <= 0 || c4rel <= 0) {
        free(e);
        return;
    }
    memcpy(e, good, n); w64(shdr(e, text) + 24, n);                 expect_bad("code past the end", e, n);
    memcpy(e, good, n); w64(shdr(e, text) + 32, ~0ull);             expect_bad("code size wraps", e, n);
    memcpy(e, good, n); w64(shdr(e, text) + 32, n);                 expect_bad("code size too large", e, n);
    memcpy(e, good, n); w32(shdr(e, text), 0xfffffff0u);            expect_bad("section name outside .shstrtab", e, n);
    memcpy(e, good, n); w32(shdr(e, r16(e + 62)) + 4, 1);           expect_bad(".shstrtab not a string table", e, n);
    memcpy(e, good, n); w64(shdr(e, symtab) + 56, 16);              expect_bad("symbol entsize 16", e, n);
    memcpy(e, good, n); w32(shdr(e, symtab) + 40, 9999);            expect_bad("symbol strings nowhere", e, n);
    memcpy(e, good, n); w32(shdr(e, symtab) + 4, 1);                expect_bad("no symbol table", e, n);
    memcpy(e, good, n); w32(shdr(e, c4rel) + 44, 9999);             expect_bad("relocations patch nowhere", e, n);
    memcpy(e, good, n); w64(shdr(e, c4rel) + 32, r64(shdr(e, c4rel) + 32) + 3); expect_bad("relocation size ragged", e, n);

    /* symbols */
    uint8_t *st = e + r64(shdr((uint8_t *)good, symtab) + 24);
    uint32_t nsym = (uint32_t)(r64(shdr((uint8_t *)good, symtab) + 32) / 24);
    int ksym = -1;
    for (uint32_t i = 0; i < nsym; i++) {
        memcpy(e, good, n);
        if ((st[24 * i + 5] & 0x10) && r16(st + 24 * i + 6) == (uint16_t)text)
            ksym = (int)i;
    }
    CHECK(ksym > 0);
    if (ksym > 0) {
        memcpy(e, good, n); w16(st + 24 * ksym + 6, 0x7fff);         expect_bad("kernel in section 0x7fff", e, n);
        memcpy(e, good, n); w32(st + 24 * ksym, 0xfffffff0u);        expect_bad("kernel name outside .strtab", e, n);
        memcpy(e, good, n); w64(st + 24 * ksym + 16, 1ull << 40);    expect_bad("kernel size past its section", e, n);
        memcpy(e, good, n); w16(st + 24 * ksym + 6, (uint16_t)info); expect_bad("kernel in a section without code", e, n);
        memcpy(e, good, n); w16(st + 24 * ksym + 6, 0);              expect_bad("undefined kernel", e, n);
    }
    /* relocations */
    uint8_t *rel = e + r64(shdr((uint8_t *)good, c4rel) + 24);
    memcpy(e, good, n); w32(rel + 12, 0x00ffffff);                   expect_bad("relocation symbol out of range", e, n);
    memcpy(e, good, n); w64(rel, 1ull << 32);                        expect_bad("relocation past its section", e, n);
    memcpy(e, good, n); w32(rel + 8, 0x77);                          /* an unknown type is kept */
    c = parse_any("unknown relocation type", e, n);
    CHECK(c != NULL);
    if (c) {
        CHECK_EQ(c->reloc_count[0x77], 1);
        npu_cubin_free(c);
    }

    /* .nv.info records: find the first SVAL, the first HVAL and a KPARAM_INFO */
    uint8_t *ib = e + r64(shdr((uint8_t *)good, info) + 24);
    uint64_t isz = r64(shdr((uint8_t *)good, info) + 32);
    uint64_t sval = 0, hval = 0, kparam = 0;
    int have_s = 0, have_h = 0, have_k = 0;
    memcpy(e, good, n);
    for (uint64_t p = 0; p + 4 <= isz;) {
        uint8_t fmt = ib[p], id = ib[p + 1];
        if (fmt == 4 && !have_s) { sval = p; have_s = 1; }
        if (fmt == 3 && !have_h) { hval = p; have_h = 1; }
        if (fmt == 4 && id == NPU_EIATTR_KPARAM_INFO && !have_k) { kparam = p; have_k = 1; }
        p += fmt == 4 ? 4u + r16(ib + p + 2) : 4u;
        p = (p + 3) & ~3ull;
    }
    CHECK(have_s && have_h && have_k);
    memcpy(e, good, n); w16(ib + sval + 2, 0xfffc);                  expect_bad("SVAL length past the section", e, n);
    memcpy(e, good, n); ib[hval] = 7;                                expect_bad("record format 7", e, n);
    memcpy(e, good, n); ib[hval] = 0;                                expect_bad("record format 0", e, n);
    memcpy(e, good, n); w64(shdr(e, info) + 32, isz - 3);
    c = parse_any("record cut short", e, n);                         /* refused or the tail dropped */
    npu_cubin_free(c);
    /* a KPARAM_INFO record given an id nobody knows: kept raw and counted */
    memcpy(e, good, n); ib[kparam + 1] = 0x7e;
    c = parse_any("unknown attribute id", e, n);
    CHECK(c != NULL);
    if (c) {
        const npu_cubin_kernel_t *kk = npu_cubin_find_kernel(c, "_Z1kPiif");
        CHECK(kk && kk->unknown_attrs == 1 && kk->nparams + 1 == nparams);
        CHECK_EQ(c->unknown_attrs, 1);
        CHECK_EQ(c->attr_count[0x7e], 1);
        npu_cubin_free(c);
    }
    /* a KPARAM_INFO record whose value is 8 bytes: the record splitter still steps by the
     * length, the decoder refuses the shape (bad_attrs), the rest is decoded */
    memcpy(e, good, n); w16(ib + kparam + 2, 8);
    c = parse_any("short KPARAM_INFO", e, n);
    if (c) {
        const npu_cubin_kernel_t *kk = npu_cubin_find_kernel(c, "_Z1kPiif");
        CHECK(kk && kk->bad_attrs >= 1);
        npu_cubin_free(c);
    }
    /* HVAL turned into NVAL where a value is expected (CBANK_PARAM_SIZE, MAXREG_COUNT ...) */
    memcpy(e, good, n); ib[hval] = 1;
    c = parse_any("value-less scalar", e, n);
    CHECK(c != NULL);
    if (c) {
        CHECK(c->bad_attrs >= 1);
        npu_cubin_free(c);
    }
    /* an EXIT offset far outside the code: kept, counted */
    memcpy(e, good, n);
    for (uint64_t p = 0; p + 4 <= isz;) {
        uint8_t fmt = ib[p], id = ib[p + 1];
        if (fmt == 4 && id == NPU_EIATTR_EXIT_INSTR_OFFSETS)
            w32(ib + p + 4, 0x7fffff00u);
        p += fmt == 4 ? 4u + r16(ib + p + 2) : 4u;
        p = (p + 3) & ~3ull;
    }
    c = parse_any("exit offset outside the code", e, n);
    CHECK(c != NULL);
    if (c) {
        CHECK_EQ(c->bad_offsets, 1);
        npu_cubin_free(c);
    }

    /* random flips anywhere, many at once: accepted or refused, never a stray access */
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    int accepted = 0;
    for (int it = 0; it < 3000; it++) {
        memcpy(e, good, n);
        int flips = 1 + it % 8;
        for (int f = 0; f < flips; f++) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            size_t at = (size_t)(seed >> 33) % n;
            /* half of the flips aim at the headers and the .nv.info section */
            if (it & 1)
                at = (seed >> 20) & 1 ? (size_t)(shoff + (seed >> 40) % (shend - shoff))
                                      : (size_t)(r64(shdr((uint8_t *)good, info) + 24) + (seed >> 40) % isz);
            e[at] ^= (uint8_t)(1u << ((seed >> 13) & 7));
        }
        c = parse_any("random flips", e, n);
        if (c) {
            accepted++;
            npu_cubin_free(c);
        }
    }
    CHECK(accepted > 100);     /* flips in code bytes and padding keep the image valid */
    free(e);
}

static void test_lookups(const uint8_t *good, size_t n)
{
    npu_cubin_t *c;
    CHECK_EQ(npu_cubin_parse(good, n, &c), NPU_OK);
    if (!c)
        return;
    CHECK_EQ(c->sm, 80);
    const npu_cubin_kernel_t *k = npu_cubin_find_kernel(c, "_Z1kPiif");
    CHECK(k && npu_cubin_find_kernel(c, "_Z2k2Pf") && !npu_cubin_find_kernel(c, "nope"));
    CHECK(npu_cubin_find_func(c, "vprintf") && npu_cubin_find_func(c, "vprintf")->section == 0);
    const npu_cubin_var_t *g = npu_cubin_find_var(c, "g");
    CHECK(g && g->kind == NPU_CUBIN_VAR_GLOBAL && g->size == 4 && g->init && r32(g->init) == 7);
    const npu_cubin_var_t *cv = npu_cubin_find_var(c, "c");
    CHECK(cv && cv->kind == NPU_CUBIN_VAR_CONST && cv->size == 16);
    if (k) {
        CHECK_EQ(k->nparams, 3);
        CHECK_EQ(k->param_base, 0x160);
        CHECK_EQ(k->shared_static, 128);
        CHECK(k->nexterns == 1 && strcmp(k->externs[0].name, "vprintf") == 0);
        /* the c[0x4] slot of every extern and variable names it */
        int found = 0;
        for (uint64_t off = 0; off < c->const4_size; off += 8) {
            const npu_cubin_reloc_t *r = npu_cubin_const_reloc(c, k, 4, off);
            CHECK_MSG(r != NULL, "c[0x4][0x%llx] has no relocation", (unsigned long long)off);
            if (r && strcmp(r->sym_name, "vprintf") == 0)
                found = 1;
        }
        CHECK(found);
        CHECK(npu_cubin_const_reloc(c, k, 4, 3) == NULL);
        CHECK(npu_cubin_const_reloc(c, k, 7, 0) == NULL);
    }
    npu_cubin_free(c);
    CHECK_EQ(npu_cubin_parse(NULL, 10, &c), NPU_EINVAL);
    CHECK_EQ(npu_cubin_parse(good, n, NULL), NPU_EINVAL);
    npu_cubin_free(NULL);
}

static void test_relocs(void)
{
    static const unsigned placed[] = { NPU_R_CUDA_64, NPU_R_CUDA_G64, NPU_R_CUDA_ABS32_32,
        NPU_R_CUDA_ABS32_LO_32, NPU_R_CUDA_ABS32_HI_32, NPU_R_CUDA_ABS47_34, NPU_R_CUDA_ABS16_32,
        NPU_R_CUDA_CONST_FIELD21_38, NPU_R_CUDA_YIELD_OPCODE9_0, NPU_R_CUDA_YIELD_CLEAR_PRED4_87,
        NPU_R_CUDA_UNUSED_CLEAR64, NPU_R_CUDA_ABS24_40, NPU_R_CUDA_ABS55_16_34,
        NPU_R_CUDA_UNIFIED, NPU_R_CUDA_ABS56_16_34 };
    uint64_t seed = 42;
    for (size_t i = 0; i < sizeof placed / sizeof placed[0]; i++) {
        unsigned t = placed[i], pos, bits;
        CHECK_MSG(npu_cubin_reloc_placement(t, &pos, &bits), "%s", npu_cubin_reloc_name(t));
        for (int it = 0; it < 50; it++) {
            uint8_t w[16], orig[16];
            for (int b = 0; b < 16; b++) {
                seed = seed * 6364136223846793005ull + 1442695040888963407ull;
                w[b] = orig[b] = (uint8_t)(seed >> 56);
            }
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            uint64_t v = seed, back = 0;
            CHECK_EQ(npu_cubin_reloc_patch(t, w, v), NPU_OK);
            CHECK_EQ(npu_cubin_reloc_field(t, w, &back), NPU_OK);
            /* the field keeps the value's bits it has room for (after the shift) */
            unsigned shift = t == NPU_R_CUDA_ABS32_HI_32 ? 32 :
                             (t == NPU_R_CUDA_ABS47_34 || t == NPU_R_CUDA_ABS55_16_34 ||
                              t == NPU_R_CUDA_ABS56_16_34) ? 2 : 0;
            uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1) << shift;
            CHECK_MSG(back == (v & mask), "%s: wrote 0x%llx read 0x%llx", npu_cubin_reloc_name(t),
                      (unsigned long long)v, (unsigned long long)back);
            /* and no bit outside the field moved */
            uint8_t z[16];
            memcpy(z, w, 16);
            npu_cubin_reloc_patch(t, z, 0);
            uint8_t zo[16];
            memcpy(zo, orig, 16);
            npu_cubin_reloc_patch(t, zo, 0);
            CHECK_MSG(memcmp(z, zo, 16) == 0, "%s touched bits outside its field", npu_cubin_reloc_name(t));
        }
    }
    uint8_t w[16] = {0};
    uint64_t v;
    CHECK_EQ(npu_cubin_reloc_patch(NPU_R_CUDA_TEX_SLOT, w, 1), NPU_ENOTSUP);
    CHECK_EQ(npu_cubin_reloc_patch(0x99, w, 1), NPU_ENOTSUP);
    CHECK_EQ(npu_cubin_reloc_field(0x99, w, &v), NPU_ENOTSUP);
    CHECK_EQ(npu_cubin_reloc_patch(NPU_R_CUDA_64, NULL, 1), NPU_EINVAL);
    CHECK(npu_cubin_reloc_name(0x99) == NULL && strcmp(npu_cubin_reloc_name(0x38), "R_CUDA_ABS32_LO_32") == 0);
    CHECK(npu_cubin_attr_name(0xf0) == NULL && strcmp(npu_cubin_attr_name(0x2f), "EIATTR_REGCOUNT") == 0);
    /* R_CUDA_64 writes the whole 8 bytes */
    CHECK_EQ(npu_cubin_reloc_patch(NPU_R_CUDA_64, w, 0x1122334455667788ull), NPU_OK);
    CHECK_EQ(r64(w), 0x1122334455667788ull);
}

static void test_cbank0(void)
{
    npu_cubin_cbank0_t l;
    CHECK_EQ(npu_cubin_cbank0_layout(80, &l), NPU_OK);
    CHECK(l.ntid == 0 && l.nctaid == 0xc && l.stack_init == 0x28 && l.param_base == 0x160 &&
          l.mem_desc == 0x118 && l.param_base_large == 0x1a80);
    CHECK_EQ(npu_cubin_cbank0_layout(75, &l), NPU_OK);
    CHECK(l.mem_desc == -1 && l.reserved_smem == -1);
    CHECK_EQ(npu_cubin_cbank0_layout(90, &l), NPU_OK);
    CHECK(l.param_base == 0x210 && l.shared_window == -1 && l.envreg == 0x40);
    CHECK_EQ(npu_cubin_cbank0_layout(100, &l), NPU_ENOTSUP);
    CHECK_EQ(npu_cubin_cbank0_layout(70, &l), NPU_ENOTSUP);
    CHECK_EQ(npu_cubin_cbank0_layout(80, NULL), NPU_EINVAL);
}

/* the CUDA rule on lists nvcc cannot produce (several minors of one major, 'a' only) */
static void test_pick_rule(void)
{
    npu_fatbin_cubin_t l[6];
    memset(l, 0, sizeof l);
    unsigned arch[6] = { 75, 80, 86, 89, 90, 90 };
    for (int i = 0; i < 6; i++)
        l[i].arch = arch[i];
    l[4].arch_specific = 1;                         /* sm_90a first, then sm_90 */
    CHECK_EQ(npu_fatbin_pick_cubin(l, 6, 75), 0);
    CHECK_EQ(npu_fatbin_pick_cubin(l, 6, 80), 1);
    CHECK_EQ(npu_fatbin_pick_cubin(l, 6, 86), 2);
    CHECK_EQ(npu_fatbin_pick_cubin(l, 6, 87), 2);   /* 8.7: the highest minor <= 7 */
    CHECK_EQ(npu_fatbin_pick_cubin(l, 6, 89), 3);
    CHECK_EQ(npu_fatbin_pick_cubin(l, 6, 90), 5);   /* plain sm_90 over sm_90a */
    CHECK_EQ(npu_fatbin_pick_cubin(l, 5, 90), 4);   /* sm_90a on exactly 9.0 */
    CHECK_EQ(npu_fatbin_pick_cubin(l, 6, 70), -1);  /* no older minor of 7 than 7.5 */
    CHECK_EQ(npu_fatbin_pick_cubin(l, 6, 100), -1); /* never across majors */
    l[4].arch = 90; l[5].arch = 100; l[5].arch_specific = 1;
    CHECK_EQ(npu_fatbin_pick_cubin(l, 6, 103), -1); /* sm_100a only on 10.0 */
    CHECK_EQ(npu_fatbin_pick_cubin(l, 6, 100), 5);
    l[5].arch_specific = 0; l[5].family_specific = 1;
    CHECK_EQ(npu_fatbin_pick_cubin(l, 6, 103), 5);  /* sm_100f on 10.3 */
    l[1].obj = 1;                                   /* objects of -rdc wrappers are not candidates */
    CHECK_EQ(npu_fatbin_pick_cubin(l, 6, 80), -1);
    CHECK_EQ(npu_fatbin_pick_cubin(NULL, 6, 80), -1);
    CHECK_EQ(npu_fatbin_pick_cubin(l, 0, 80), -1);
}

static void test_fatbins(void)
{
    size_t nm, nr, nl;
    uint8_t *multi = slurp("multi.fatbin", &nm), *rdcobj = slurp("rdc.fatbin", &nr);
    uint8_t *linked = slurp("elf.fatbin", &nl);
    CHECK(multi && rdcobj && linked);
    if (!multi || !rdcobj || !linked)
        return;
    npu_fatbin_cubin_t *list = NULL;
    int count = 0;
    CHECK_EQ(npu_fatbin_list_cubins(multi, &list, &count), NPU_OK);
    CHECK_EQ(count, 3);
    for (int i = 0; i < count; i++) {
        uint8_t *img;
        size_t sz;
        CHECK_EQ(npu_fatbin_cubin_load(&list[i], &img, &sz), NPU_OK);
        CHECK(list[i].compressed);
        npu_cubin_t *c;
        CHECK_EQ(npu_cubin_parse(img, sz, &c), NPU_OK);
        CHECK(c && c->sm == list[i].arch && c->nkernels == 2);
        npu_cubin_free(c);
        free(img);
    }
    /* the PTX path is unchanged: this fatbin has PTX too, an ELF-only one has none */
    npu_ptx_image_t ptx;
    CHECK_EQ(npu_fatbin_extract_ptx(multi, &ptx), NPU_OK);
    npu_ptx_image_free(&ptx);
    CHECK_EQ(npu_fatbin_extract_ptx(linked, &ptx), NPU_ENOIMAGE);

    /* a corrupted compressed payload is refused at load, not at listing */
    uint8_t *bad = malloc(nm);
    memcpy(bad, multi, nm);
    npu_fatbin_cubin_t *bl;
    int bn;
    CHECK_EQ(npu_fatbin_list_cubins(bad, &bl, &bn), NPU_OK);
    if (bn > 0) {
        size_t at = (size_t)(bl[0].entry_ - bad) + r32(bl[0].entry_ + 4) + 16;
        memset(bad + at, 0xa5, 32);
        uint8_t *img;
        size_t sz;
        CHECK_EQ(npu_fatbin_cubin_load(&bl[0], &img, &sz), NPU_EFATBIN);
        CHECK(img == NULL && sz == 0);
    }
    free(bl);
    free(bad);
    free(list);

    /* wrappers: version 1, and version 2 (linked image first, then each object's cubins) */
    struct { int magic, version; const void *data; void *fof; } w1 = { 0x466243B1, 1, multi, NULL };
    CHECK_EQ(npu_fatbin_list_cubins(&w1, &list, &count), NPU_OK);
    CHECK_EQ(count, 3);
    free(list);
    void *objs[3] = { rdcobj, rdcobj, NULL };
    struct { int magic, version; const void *data; void *fof; } w2 = { 0x466243B1, 2, linked, objs };
    CHECK_EQ(npu_fatbin_list_cubins(&w2, &list, &count), NPU_OK);
    CHECK_EQ(count, 3);
    if (count == 3) {
        CHECK(list[0].obj == 0 && list[1].obj == 1 && list[2].obj == 2);
        CHECK_EQ(npu_fatbin_pick_cubin(list, count, 80), 0);
        uint8_t *img;
        size_t sz;
        npu_cubin_t *c;
        CHECK_EQ(npu_fatbin_cubin_load(&list[1], &img, &sz), NPU_OK);
        CHECK_EQ(npu_cubin_parse(img, sz, &c), NPU_OK);
        CHECK(c && c->elf_type == 1);               /* the object's cubin is relocatable */
        npu_cubin_free(c);
        free(img);
    }
    free(list);
    /* bad arguments and images */
    CHECK_EQ(npu_fatbin_list_cubins(NULL, &list, &count), NPU_EINVAL);
    CHECK_EQ(npu_fatbin_list_cubins(multi, NULL, &count), NPU_EINVAL);
    uint32_t junk[8] = { 0x12345678 };
    CHECK_EQ(npu_fatbin_list_cubins(junk, &list, &count), NPU_EFATBIN);
    CHECK(list == NULL && count == 0);
    struct { int magic, version; const void *data; void *fof; } w3 = { 0x466243B1, 5, multi, NULL };
    CHECK_EQ(npu_fatbin_list_cubins(&w3, &list, &count), NPU_EFATBIN);
    CHECK_EQ(npu_fatbin_cubin_load(NULL, NULL, NULL), NPU_EINVAL);
    free(multi);
    free(rdcobj);
    free(linked);
}

int main(void)
{
    nvcc = getenv("NVCC") ? getenv("NVCC") : "/usr/local/cuda/bin/nvcc";
    if (access(nvcc, X_OK) != 0) {
        printf("test_cubin: no nvcc at %s, skipped\n", nvcc);
        return 0;
    }
    setenv("TRANSFER_TO_NPU_LOG", "error", 0);      /* the corruptions log one warning each */
    strcpy(dir, "/tmp/test_cubin_XXXXXX");
    if (!mkdtemp(dir)) { perror("mkdtemp"); return 1; }
    char path[256];
    snprintf(path, sizeof path, "%s/k.cu", dir);
    FILE *f = fopen(path, "w");
    fputs(src, f);
    fclose(f);
    int rc = 0;
    rc |= run("-cubin -arch=sm_80 k.cu -o k80.cubin");
    rc |= run("-fatbin -Xfatbin -compress-all -gencode arch=compute_75,code=sm_75 "
              "-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=[sm_90,compute_90] "
              "k.cu -o multi.fatbin");
    rc |= run("-fatbin -rdc=true -arch=sm_80 k.cu -o rdc.fatbin");
    rc |= run("-fatbin -gencode arch=compute_80,code=sm_80 k.cu -o elf.fatbin");
    CHECK_EQ(rc, 0);
    if (rc)
        return CHECK_DONE();
    size_t n;
    uint8_t *good = slurp("k80.cubin", &n);
    CHECK(good != NULL);
    if (good) {
        test_lookups(good, n);
        test_corruptions(good, n);
    }
    test_relocs();
    test_cbank0();
    test_pick_rule();
    test_fatbins();
    free(good);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return CHECK_DONE();
}
