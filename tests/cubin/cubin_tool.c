/*
 * cubin_tool.c - drives the cubin loader (npu_runtime/kernel/cubin.c) and the fatbin cubin
 * API for tests/cubin/check_cubin.py, which compares what it prints with NVIDIA's tools.
 *
 *   cubin_tool dump FILE.cubin          npu_cubin_dump of the parsed image (exit 1 + the
 *                                       status name when the parse fails)
 *   cubin_tool ptxparams FILE.ptx       the PTX translator's view of every .entry: parameter
 *                                       layout (ptx_param_layout), .maxntid/.reqntid/.maxnreg
 *   cubin_tool patch TYPE HEX16 VALUE   npu_cubin_reloc_patch on the 16 bytes HEX16; prints
 *                                       the patched bytes and the field read back
 *   cubin_tool fatbin FILE.fatbin CC    npu_fatbin_list_cubins + npu_fatbin_pick_cubin(CC);
 *                                       each listed cubin loaded and parsed
 *   cubin_tool names                    npu_cubin_attr_name / npu_cubin_reloc_name of 0..255
 *   cubin_tool cbank0 SM                npu_cubin_cbank0_layout(SM), one "name offset" a line
 *   cubin_tool corpus LIB.so ARCH...    every fatbin of LIB's .nv_fatbin section: cubins of the
 *                                       given archs parsed, tallies printed (kernels,
 *                                       attributes by id, unknown attributes, relocation
 *                                       types, failures)
 */
#include "npu_runtime/kernel/cubin.h"
#include "npu_runtime/kernel/npu_kernel.h"
#include "npu_runtime/kernel/ptx_internal.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *p = malloc(n > 0 ? (size_t)n + 16 : 16);
    if (!p || fread(p, 1, (size_t)n, f) != (size_t)n) {
        fclose(f);
        free(p);
        return NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return p;
}

static int cmd_dump(const char *path)
{
    size_t n;
    uint8_t *b = slurp(path, &n);
    if (!b)
        return 2;
    npu_cubin_t *c;
    npu_status_t st = npu_cubin_parse(b, n, &c);
    free(b);
    if (st != NPU_OK) {
        printf("status %s\n", npu_status_name(st));
        return 1;
    }
    npu_cubin_dump(c, stdout);
    npu_cubin_free(c);
    return 0;
}

static int cmd_ptxparams(const char *path)
{
    size_t n;
    uint8_t *b = slurp(path, &n);
    if (!b)
        return 2;
    b[n] = 0;
    ptx_prog_t p;
    memset(&p, 0, sizeof p);
    const char *texts[1] = {(const char *)b};
    if (ptx_index(&p, texts, &n, 1) != NPU_OK)
        return 1;
    for (int i = 0; i < p.nfuncs; i++) {
        ptx_func_t *f = &p.funcs[i];
        if (!f->is_entry || f->is_decl)
            continue;
        npu_kparam_t *kp = calloc((size_t)f->nparams + 1, sizeof *kp);
        uint32_t total = 0;
        ptx_param_layout(f, kp, &total);
        printf("entry %s nparams %d total %u maxntid %u %u %u reqntid %u %u %u maxnreg %u minnctapersm %u\n",
               f->name, f->nparams, total, f->maxntid[0], f->maxntid[1], f->maxntid[2],
               f->reqntid[0], f->reqntid[1], f->reqntid[2], f->maxnreg, f->minnctapersm);
        for (int j = 0; j < f->nparams; j++)
            printf("  param %d offset %u size %u align %u\n", j, kp[j].offset, kp[j].size, kp[j].align);
        free(kp);
    }
    ptx_prog_free(&p);
    free(b);
    return 0;
}

static int hexval(int c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
           c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

static int cmd_patch(const char *type, const char *hex, const char *value)
{
    uint8_t w[16];
    if (strlen(hex) != 32)
        return 2;
    for (int i = 0; i < 16; i++) {
        int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);
        if (hi < 0 || lo < 0)
            return 2;
        w[i] = (uint8_t)(hi << 4 | lo);
    }
    unsigned t = (unsigned)strtoul(type, NULL, 0);
    uint64_t v = strtoull(value, NULL, 0), back = 0;
    npu_status_t st = npu_cubin_reloc_patch(t, w, v);
    if (st != NPU_OK) {
        printf("status %s\n", npu_status_name(st));
        return 1;
    }
    npu_cubin_reloc_field(t, w, &back);
    for (int i = 0; i < 16; i++)
        printf("%02x", w[i]);
    printf(" 0x%llx\n", (unsigned long long)back);
    return 0;
}

static int cmd_fatbin(const char *path, const char *ccs)
{
    size_t n;
    uint8_t *b = slurp(path, &n);
    if (!b)
        return 2;
    npu_fatbin_cubin_t *list;
    int count;
    npu_status_t st = npu_fatbin_list_cubins(b, &list, &count);
    if (st != NPU_OK) {
        printf("status %s\n", npu_status_name(st));
        free(b);
        return 1;
    }
    int rc = 0;
    for (int i = 0; i < count; i++) {
        uint8_t *img;
        size_t sz;
        st = npu_fatbin_cubin_load(&list[i], &img, &sz);
        printf("cubin %d arch %u obj %u a %d f %d compressed %d size %llu flags 0x%llx load %s",
               i, list[i].arch, list[i].obj, list[i].arch_specific, list[i].family_specific,
               list[i].compressed, (unsigned long long)list[i].size,
               (unsigned long long)list[i].flags, npu_status_name(st));
        if (st == NPU_OK) {
            npu_cubin_t *c;
            st = npu_cubin_parse(img, sz, &c);
            printf(" parse %s", npu_status_name(st));
            if (st == NPU_OK) {
                printf(" sm %u type %u kernels %u", c->sm, c->elf_type, c->nkernels);
                npu_cubin_free(c);
            } else {
                rc = 1;
            }
            free(img);
        } else {
            rc = 1;
        }
        printf("\n");
    }
    printf("pick %s %d\n", ccs, npu_fatbin_pick_cubin(list, count, (unsigned)atoi(ccs)));
    free(list);
    free(b);
    return rc;
}

static int cmd_cbank0(const char *sm)
{
    npu_cubin_cbank0_t l;
    npu_status_t st = npu_cubin_cbank0_layout((unsigned)atoi(sm), &l);
    if (st != NPU_OK) {
        printf("status %s\n", npu_status_name(st));
        return 1;
    }
    printf("ntid %d\nnctaid %d\nshared_window %d\nlocal_window %d\nstack_init %d\n"
           "dynamic_smem_size %d\ngridid %d\nenvreg %d\nnsmid %d\nreserved_smem %d\naggr_smem %d\n"
           "mem_desc %d\nparam_base %d\nparam_base_large %d\n", l.ntid, l.nctaid, l.shared_window,
           l.local_window, l.stack_init, l.dynamic_smem_size, l.gridid, l.envreg, l.nsmid,
           l.reserved_smem, l.aggr_smem, l.mem_desc, l.param_base, l.param_base_large);
    return 0;
}

/* ------------------------------------------------------------------ corpus ---- */

typedef struct tally {
    unsigned long cubins, failed, kernels, funcs, vars, relocs, params, params_v2;
    unsigned long unknown_attrs, bad_attrs, bad_offsets, text_relocs, ibranches, externs;
    unsigned long attr_count[256], attr_kernels[256], reloc_count[256], reloc_other;
    unsigned long maxreg_limit, local_funcs, cmem2;
    unsigned long param_base[2];        /* kernels with base 0x160, other */
    unsigned long long code_bytes;
    unsigned long sm_seen[256];
} tally_t;

static void tally_cubin(tally_t *t, const npu_cubin_t *c)
{
    t->cubins++;
    t->sm_seen[c->sm & 0xff]++;
    t->kernels += c->nkernels;
    t->funcs += c->nfuncs;
    t->vars += c->nvars;
    t->relocs += c->nrelocs;
    t->unknown_attrs += c->unknown_attrs;
    t->bad_attrs += c->bad_attrs;
    t->bad_offsets += c->bad_offsets;
    t->reloc_other += c->reloc_other;
    for (int i = 0; i < 256; i++) {
        t->attr_count[i] += c->attr_count[i];
        t->reloc_count[i] += c->reloc_count[i];
    }
    for (uint32_t i = 0; i < c->nkernels; i++) {
        const npu_cubin_kernel_t *k = &c->kernels[i];
        unsigned char seen[256] = {0};
        for (uint32_t j = 0; j < k->nattrs; j++)
            seen[k->attrs[j].id] = 1;
        for (int j = 0; j < 256; j++)
            t->attr_kernels[j] += seen[j];
        t->params += k->nparams;
        for (uint32_t j = 0; j < k->nparams; j++)
            t->params_v2 += k->params[j].v2;
        t->text_relocs += k->text_relocs.n;
        t->ibranches += k->nibranches;
        t->externs += k->nexterns;
        t->local_funcs += k->nlocal_funcs;
        t->cmem2 += k->cmem2_size != 0;
        t->maxreg_limit += k->maxreg_count != 0 && k->maxreg_count != 0xff;
        t->param_base[k->param_base == 0x160 ? 0 : 1]++;
        t->code_bytes += k->code_size;
    }
}

static uint64_t rd64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t rd32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t rd16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

static int cmd_corpus(const char *path, int narch, char **archs)
{
    size_t n;
    uint8_t *b = slurp(path, &n);
    if (!b)
        return 2;
    /* the host ELF's .nv_fatbin section */
    if (n < 64 || memcmp(b, "\177ELF", 4) != 0)
        return 2;
    uint64_t shoff = rd64(b + 40);
    uint16_t shnum = rd16(b + 60), shstrndx = rd16(b + 62);
    if (shoff + (uint64_t)shnum * 64 > n || shstrndx >= shnum)
        return 2;
    const uint8_t *shs = b + shoff + 64ull * shstrndx;
    uint64_t stroff = rd64(shs + 24);
    uint64_t fb_off = 0, fb_size = 0;
    for (unsigned i = 0; i < shnum; i++) {
        const uint8_t *h = b + shoff + 64ull * i;
        const char *name = (const char *)b + stroff + rd32(h);
        if (strcmp(name, ".nv_fatbin") == 0) {
            fb_off = rd64(h + 24);
            fb_size = rd64(h + 32);
        }
    }
    if (!fb_size || fb_off + fb_size > n) {
        printf("no .nv_fatbin section\n");
        return 1;
    }
    tally_t *t = calloc(1, sizeof *t);
    unsigned long fatbins = 0, listed = 0;
    uint64_t off = 0;
    while (off + 16 <= fb_size) {
        const uint8_t *fb = b + fb_off + off;
        if (rd32(fb) != 0xBA55ED50u) {
            off += 8;
            continue;
        }
        size_t fsz = npu_fatbin_size(fb);
        if (!fsz || off + fsz > fb_size)
            break;
        fatbins++;
        npu_fatbin_cubin_t *list;
        int count;
        if (npu_fatbin_list_cubins(fb, &list, &count) != NPU_OK) {
            printf("fatbin at 0x%llx: list failed\n", (unsigned long long)off);
            t->failed++;
            off += fsz;
            continue;
        }
        for (int i = 0; i < count; i++) {
            int want = 0;
            for (int a = 0; a < narch; a++)
                want |= list[i].arch == (unsigned)atoi(archs[a]);
            if (!want)
                continue;
            listed++;
            uint8_t *img;
            size_t sz;
            npu_cubin_t *c = NULL;
            npu_status_t st = npu_fatbin_cubin_load(&list[i], &img, &sz);
            if (st == NPU_OK) {
                st = npu_cubin_parse(img, sz, &c);
                free(img);
            }
            if (st != NPU_OK) {
                printf("FAILED fatbin 0x%llx cubin %d sm_%u: %s\n", (unsigned long long)off, i,
                       list[i].arch, npu_status_name(st));
                t->failed++;
                continue;
            }
            if (c->sm != list[i].arch) {
                printf("FAILED fatbin 0x%llx cubin %d: entry says sm_%u, ELF says sm_%u\n",
                       (unsigned long long)off, i, list[i].arch, c->sm);
                t->failed++;
            }
            tally_cubin(t, c);
            npu_cubin_free(c);
        }
        free(list);
        off += (fsz + 7) & ~(size_t)7;
    }
    printf("fatbins %lu cubins_listed %lu parsed %lu failed %lu\n", fatbins, listed, t->cubins, t->failed);
    for (int i = 0; i < 256; i++)
        if (t->sm_seen[i])
            printf("sm_%d cubins %lu\n", i, t->sm_seen[i]);
    printf("kernels %lu functions %lu variables %lu relocations %lu (patching kernel code %lu)\n",
           t->kernels, t->funcs, t->vars, t->relocs, t->text_relocs);
    printf("params %lu (from KPARAM_INFO_V2 %lu) param_base_0x160 %lu other %lu\n", t->params,
           t->params_v2, t->param_base[0], t->param_base[1]);
    printf("brx_sites %lu extern_refs %lu local_funcs %lu kernels_with_cmem2 %lu maxreg_limited %lu code_bytes %llu\n",
           t->ibranches, t->externs, t->local_funcs, t->cmem2, t->maxreg_limit, t->code_bytes);
    printf("unknown_attrs %lu bad_attrs %lu bad_offsets %lu\n", t->unknown_attrs, t->bad_attrs,
           t->bad_offsets);
    for (int i = 0; i < 256; i++)
        if (t->attr_count[i]) {
            const char *nm = npu_cubin_attr_name((unsigned)i);
            printf("attr 0x%02x %-36s records %lu kernels %lu\n", i, nm ? nm : "(unknown)",
                   t->attr_count[i], t->attr_kernels[i]);
        }
    for (int i = 0; i < 256; i++)
        if (t->reloc_count[i]) {
            const char *nm = npu_cubin_reloc_name((unsigned)i);
            printf("reloc 0x%02x %-28s %lu\n", i, nm ? nm : "(unknown)", t->reloc_count[i]);
        }
    if (t->reloc_other)
        printf("reloc other %lu\n", t->reloc_other);
    int rc = t->failed ? 1 : 0;
    free(t);
    free(b);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "dump") == 0)
        return cmd_dump(argv[2]);
    if (argc >= 3 && strcmp(argv[1], "ptxparams") == 0)
        return cmd_ptxparams(argv[2]);
    if (argc >= 5 && strcmp(argv[1], "patch") == 0)
        return cmd_patch(argv[2], argv[3], argv[4]);
    if (argc >= 4 && strcmp(argv[1], "fatbin") == 0)
        return cmd_fatbin(argv[2], argv[3]);
    if (argc >= 2 && strcmp(argv[1], "names") == 0) {
        for (unsigned i = 0; i < 256; i++) {
            const char *a = npu_cubin_attr_name(i), *r = npu_cubin_reloc_name(i);
            unsigned pos, bits;
            int placed = npu_cubin_reloc_placement(i, &pos, &bits);
            printf("0x%02x %s %s %d %u %u\n", i, a ? a : "-", r ? r : "-", placed, pos, bits);
        }
        return 0;
    }
    if (argc >= 3 && strcmp(argv[1], "cbank0") == 0)
        return cmd_cbank0(argv[2]);
    if (argc >= 4 && strcmp(argv[1], "corpus") == 0)
        return cmd_corpus(argv[2], argc - 3, argv + 3);
    fprintf(stderr, "usage: see the header of tests/cubin/cubin_tool.c\n");
    return 2;
}
