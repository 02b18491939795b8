/*
 * module.c - npu_kmodule_*: PTX modules, their entries and their .global/.const variables.
 *
 * DESIGN (threads):
 *  - A module owns its PTX program (ptx_prog_t), one npu_kfunc per .entry (created at load,
 *    so handles are stable and cheap to hand out), and one device-memory block holding all
 *    its .global/.const variables.
 *  - Lock ownership: m->lock (a mutex per module) guards translation, compilation, the
 *    variable block and every npu_kfunc's state. npu_kmodule_get_function holds it across
 *    translate + compile, so an entry is translated exactly once even when threads race;
 *    threads asking for other entries of the same module wait (compiles of different modules
 *    run in parallel). reg_lock (global) guards the list of loaded .so paths.
 *  - Ordering: variables are allocated and initialised (from the PTX initialisers) before the
 *    first entry of the module is compiled or the first npu_kmodule_get_global returns;
 *    npu_globals[] of a kernel's .so is filled before its function pointers are published.
 *  - Completion: a kfunc's state moves 0 -> 1 (ready) or 0 -> -1 (failed, status kept, so
 *    later calls return the same error without logging again); both under m->lock.
 * Launch-time readers (exec.c) only read npu_kfunc_info after get_function returned.
 */
#include "ptx_internal.h"
#include "sass_lift.h"

#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct npu_kfunc {
    npu_kmodule_t *m;
    ptx_func_t *pf;
    npu_kfunc_info_t info;
    npu_kparam_t *params;
    int state;
    npu_status_t err;
    void *handle;
    char path[512];
    int lifted;                 /* cubin modules: the entry's body was lifted from SASS */
};

struct npu_kmodule {
    int dev;
    ptx_prog_t prog;
    pthread_mutex_t lock;
    struct npu_kfunc *entries;
    int nentries;
    int globals_state;          /* 0 not yet, 1 ready, -1 failed */
    npu_status_t globals_err;
    void *gblock;
    uint8_t **gaddr;            /* per prog.vars entry: device address, NULL if none */
    npu_cubin_t *cubin;         /* a module loaded from machine code: entries are lifted from
                                 * it on first use (sass_lift.c), the rest of the PTX at load */
    uint32_t max_regs;          /* JIT register limit (CU_JIT_MAX_REGISTERS), 0: none */
};

/* ------------------------------------------------------------ loaded .so registry ---- */
typedef struct loaded { struct loaded *next; char path[512]; npu_kmodule_t *m; } loaded_t;
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static loaded_t *reg_head;

/* Records that m uses path; returns 1 (and records nothing) when another module has
 * it loaded already. force: record even then. */
static int reg_claim(const char *path, npu_kmodule_t *m, int force)
{
    pthread_mutex_lock(&reg_lock);
    int other = 0;
    for (loaded_t *l = reg_head; l; l = l->next)
        if (!strcmp(l->path, path) && l->m != m) other = 1;
    loaded_t *n = (other && !force) ? NULL : calloc(1, sizeof *n);
    if (n) {
        snprintf(n->path, sizeof n->path, "%s", path);
        n->m = m;
        n->next = reg_head;
        reg_head = n;
    }
    pthread_mutex_unlock(&reg_lock);
    return other;
}

static void reg_release(npu_kmodule_t *m)
{
    pthread_mutex_lock(&reg_lock);
    loaded_t **pp = &reg_head;
    while (*pp) {
        if ((*pp)->m == m) { loaded_t *d = *pp; *pp = d->next; free(d); }
        else pp = &(*pp)->next;
    }
    pthread_mutex_unlock(&reg_lock);
}

/* ------------------------------------------------------------ load ---- */
npu_status_t npu_kmodule_link_ptx(int dev, const char *const *ptx, const size_t *len, int n,
                                  npu_kmodule_t **out)
{
    if (!out || !ptx || n <= 0)
        return NPU_EINVAL;
    *out = NULL;
    for (int i = 0; i < n; i++)
        if (!ptx[i]) return NPU_EINVAL;
    npu_kmodule_t *m = calloc(1, sizeof *m);
    if (!m)
        return NPU_EHOSTMEM;
    m->dev = dev;
    pthread_mutex_init(&m->lock, NULL);
    uint64_t t0 = npu_now_ns();
    npu_status_t st = ptx_index(&m->prog, ptx, len, n);
    if (st != NPU_OK) {
        ptx_prog_free(&m->prog);
        pthread_mutex_destroy(&m->lock);
        free(m);
        return st;
    }
    int ne = 0;
    for (int i = 0; i < m->prog.nfuncs; i++)
        ne += m->prog.funcs[i].is_entry && !m->prog.funcs[i].is_decl;
    m->entries = calloc((size_t)(ne ? ne : 1), sizeof *m->entries);
    if (!m->entries) {
        ptx_prog_free(&m->prog);
        free(m);
        return NPU_EHOSTMEM;
    }
    for (int i = 0; i < m->prog.nfuncs; i++) {
        ptx_func_t *f = &m->prog.funcs[i];
        if (!f->is_entry || f->is_decl) continue;
        int dup = 0;
        for (int j = 0; j < m->nentries && !dup; j++)
            dup = !strcmp(m->entries[j].pf->name, f->name);
        if (dup) continue;
        struct npu_kfunc *k = &m->entries[m->nentries++];
        k->m = m;
        k->pf = f;
    }
    NPU_DEBUG("ptx: indexed module: %d entries, %d functions, %d variables in %.2f ms",
              m->nentries, m->prog.nfuncs, m->prog.nvars, (npu_now_ns() - t0) / 1e6);
    *out = m;
    return NPU_OK;
}

npu_status_t npu_kmodule_load_ptx(int dev, const char *ptx, size_t len, npu_kmodule_t **out)
{
    if (!ptx || !out)
        return NPU_EINVAL;
    return npu_kmodule_link_ptx(dev, &ptx, &len, 1, out);
}

/* ------------------------------------------------------------ machine code ---- */
/* A module from a cubin: the lifted skeleton (variables, constant banks, entry declarations)
 * is indexed now; each entry's body is lifted when the entry is first asked for
 * (lift_body_locked), so loading a library-sized cubin costs its parse, and a kernel that
 * cannot be lifted fails by name when it is launched, not when its neighbours load. */
npu_status_t npu_kmodule_load_cubin(int dev, const void *elf, size_t size, npu_kmodule_t **out)
{
    if (!elf || !out)
        return NPU_EINVAL;
    *out = NULL;
    npu_cubin_t *cb = NULL;
    npu_status_t st = npu_cubin_parse(elf, size, &cb);
    if (st != NPU_OK)
        return st;
    if (cb->elf_type != 2) {
        NPU_ERR("sass: a relocatable cubin (-rdc=true object, ELF type %u) cannot be loaded without linking", cb->elf_type);
        npu_cubin_free(cb);
        return NPU_EPTXUNSUP;
    }
    char *ptx = NULL;
    size_t len = 0;
    st = npu_sass_lift_module(cb, 0, &ptx, &len);
    if (st == NPU_OK) st = npu_kmodule_load_ptx(dev, ptx, len, out);
    free(ptx);
    if (st != NPU_OK) {
        npu_cubin_free(cb);
        return st;
    }
    (*out)->cubin = cb;
    NPU_DEBUG("sass: module of %u kernel(s) from sm_%u machine code", cb->nkernels, cb->sm);
    return NPU_OK;
}

/* TRANSFER_TO_NPU_ISA=sass: run the machine code of a fatbin that also holds PTX (the
 * PTX path is the SASS path's oracle: ptxas made one from the other); ptx or unset: PTX
 * when there is any. */
static int prefer_sass(void)
{
    static int v = -1;
    if (v < 0) {
        const char *e = npu_env("TRANSFER_TO_NPU_ISA");
        v = e && !strcmp(e, "sass");
    }
    return v;
}

npu_status_t npu_kmodule_load_fatbin_cubin(int dev, const void *fatbin, npu_kmodule_t **out)
{
    npu_fatbin_cubin_t *list = NULL;
    int n = 0;
    npu_status_t st = npu_fatbin_list_cubins(fatbin, &list, &n);
    if (st != NPU_OK)
        return st;
    /* the device is CC 8.0: its own code first (CUDA's rule), else any machine code this
     * decoder reads (an emulator is not bound to the silicon's compatibility) */
    int pick = npu_fatbin_pick_cubin(list, n, 80);
    static const unsigned pref[] = {80, 86, 89, 87, 88, 75};
    for (size_t p = 0; pick < 0 && p < sizeof pref / sizeof pref[0]; p++)
        for (int i = 0; i < n && pick < 0; i++)
            if (list[i].arch == pref[p] && list[i].obj == 0 && !list[i].arch_specific) pick = i;
    if (pick < 0) {
        free(list);
        return NPU_ENOIMAGE;
    }
    uint8_t *data = NULL;
    size_t size = 0;
    st = npu_fatbin_cubin_load(&list[pick], &data, &size);
    free(list);
    if (st != NPU_OK)
        return st;
    st = npu_kmodule_load_cubin(dev, data, size, out);
    free(data);
    return st;
}

npu_status_t npu_kmodule_load_fatbin(int dev, const void *fatbin, npu_kmodule_t **out)
{
    if (prefer_sass()) {
        npu_status_t st = npu_kmodule_load_fatbin_cubin(dev, fatbin, out);
        if (st != NPU_ENOIMAGE)
            return st;
    }
    npu_ptx_image_t *imgs = NULL;
    int n = 0;
    npu_status_t st = npu_fatbin_extract_all(fatbin, &imgs, &n);
    unsigned max_regs = 0;           /* nvcc -maxrregcount, recorded for the JIT */
    for (int i = 0; st == NPU_OK && i < n; i++)
        if (imgs[i].max_regs && (!max_regs || imgs[i].max_regs < max_regs))
            max_regs = imgs[i].max_regs;
    if (st == NPU_OK && n == 1) {
        st = npu_kmodule_load_ptx(dev, imgs[0].text, imgs[0].len, out);
    } else if (st == NPU_OK && n > 1) {
        const char **texts = calloc((size_t)n, sizeof *texts);
        size_t *lens = calloc((size_t)n, sizeof *lens);
        if (!texts || !lens) {
            st = NPU_EHOSTMEM;
        } else {
            for (int i = 0; i < n; i++) {
                texts[i] = imgs[i].text;
                lens[i] = imgs[i].len;
            }
            st = npu_kmodule_link_ptx(dev, texts, lens, n, out);
        }
        free(texts);
        free(lens);
    } else if (st == NPU_OK) {
        st = NPU_ENOIMAGE;
    }
    if (st == NPU_OK)
        npu_kmodule_set_max_registers(*out, max_regs);
    for (int i = 0; i < n; i++)
        npu_ptx_image_free(&imgs[i]);
    free(imgs);
    if (st == NPU_ENOIMAGE && !prefer_sass())
        st = npu_kmodule_load_fatbin_cubin(dev, fatbin, out);
    return st;
}

/* Lifts entry k's body from the module's cubin into the program (arena), once. */
static npu_status_t lift_body_locked(npu_kmodule_t *m, struct npu_kfunc *k)
{
    if (!m->cubin || k->lifted)
        return NPU_OK;
    char *body = NULL;
    size_t len = 0;
    npu_status_t st = npu_sass_lift_kernel_body(m->cubin, k->pf->name, npu_device_stack_limit(m->dev), &body, &len);
    /* an instruction the front end cannot decode or lift: this kernel has no image we can run
     * (cudaErrorNoKernelImageForDevice / CUDA_ERROR_NO_BINARY_FOR_GPU at its launch, as issue
     * 13 asks); the log named kernel, arch, offset and instruction words */
    if (st == NPU_EPTXUNSUP)
        return NPU_ENOIMAGE;
    if (st != NPU_OK)
        return st;
    if (ptx_dump_enabled("sass"))   /* NPU_PTX_DUMP=sass: the lifted body as the translator gets it */
        fprintf(stderr, "== sass lift: %s\n%.*s\n", k->pf->name, (int)len, body);
    /* inside the outer braces, without comments (the index pass strips them from texts) */
    char *a = strchr(body, '{'), *z = strrchr(body, '}');
    if (!a || !z || z < a) { free(body); return NPU_EINTERNAL; }
    size_t n = 0;
    for (char *p = a + 1; p < z; p++) {
        if (p[0] == '/' && p + 1 < z && p[1] == '/') { while (p < z && *p != '\n') p++; }
        body[n++] = *p;
    }
    char *copy = ptx_strndup(&m->prog, body, n);
    free(body);
    if (!copy)
        return NPU_EHOSTMEM;
    k->pf->body = copy;
    k->pf->body_len = n;
    k->pf->body_line = 1;
    k->pf->parsed = 0;
    k->pf->lifted = 1;
    k->lifted = 1;
    return NPU_OK;
}

npu_status_t npu_kmodule_unload(npu_kmodule_t *m)
{
    if (!m)
        return NPU_EINVAL;
    for (int i = 0; i < m->nentries; i++) {
        if (m->entries[i].handle) dlclose(m->entries[i].handle);
        free(m->entries[i].params);
    }
    reg_release(m);
    if (m->cubin) npu_cubin_free(m->cubin);
    if (m->gblock) npu_mem_free(m->gblock);
    free(m->gaddr);
    free(m->entries);
    ptx_prog_free(&m->prog);
    pthread_mutex_destroy(&m->lock);
    free(m);
    return NPU_OK;
}

int npu_kmodule_device(const npu_kmodule_t *m) { return m ? m->dev : -1; }
int npu_kmodule_entry_count(const npu_kmodule_t *m) { return m ? m->nentries : 0; }
const char *npu_kmodule_entry_name(const npu_kmodule_t *m, int i)
{
    return (m && i >= 0 && i < m->nentries) ? m->entries[i].pf->name : NULL;
}
npu_kfunc_info_t *npu_kfunc_info(npu_kfunc_t *f) { return f ? &f->info : NULL; }
npu_kmodule_t *npu_kfunc_module(npu_kfunc_t *f) { return f ? f->m : NULL; }

/* ------------------------------------------------------------ variables ---- */
static int is_modvar(const ptx_var_t *v)
{
    return (v->space == SP_GLOBAL || v->space == SP_CONST) && !v->is_extern;
}

static size_t var_size(const ptx_var_t *v)
{
    return (size_t)v->tsize * (size_t)(v->count > 0 ? v->count : 0);
}

static uint8_t *var_addr(npu_kmodule_t *m, const char *name, size_t off)
{
    for (int i = 0; i < m->prog.nvars; i++)
        if (m->gaddr[i] && !strcmp(m->prog.vars[i].name, name))   /* (an address only: may point anywhere) */
            return (uint8_t *)((uintptr_t)m->gaddr[i] + off);
    return NULL;
}

/* Stores one initialiser token at element idx of v. */
static void init_elem(npu_kmodule_t *m, ptx_var_t *v, uint8_t *base, long long idx, const char *tok, size_t tl)
{
    int esz = ptx_type_size(v->type);
    if (esz <= 0 || idx < 0 || (size_t)(idx + 1) * (size_t)esz > var_size(v)) return;
    char buf[256];
    if (tl >= sizeof buf) tl = sizeof buf - 1;
    memcpy(buf, tok, tl);
    buf[tl] = 0;
    char *s = buf;
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
    if (!n) return;
    uint64_t bits = 0;
    int isf = !strcmp(v->type, "f32") || !strcmp(v->type, "f64");
    if (isalpha((unsigned char)*s) || *s == '_' || *s == '$' || *s == '%') {
        /* generic(sym) / sym / sym+off */
        char *p = s;
        long long off = 0;
        if (!strncmp(p, "generic(", 8)) {   /* generic(sym)+off: the offset follows the ')' */
            p += 8;
            char *c = strchr(p, ')');
            if (c) {
                char *after = strpbrk(c + 1, "+-");
                if (after) off = strtoll(after, NULL, 0);
                *c = 0;
            }
        }
        char *plus = strpbrk(p, "+-");
        if (plus) { off += strtoll(plus, NULL, 0); *plus = 0; }
        size_t pl = strlen(p);
        while (pl && isspace((unsigned char)p[pl - 1])) p[--pl] = 0;
        uint8_t *a = var_addr(m, p, (size_t)off);
        ptx_func_t *fn = a ? NULL : ptx_find_func(&m->prog, p);
        if (fn && !fn->is_decl) {
            bits = PTX_FN_TOKEN(fn - m->prog.funcs) + (uint64_t)off;
        } else if (!a) {
            NPU_WARN("ptx: initialiser of %s refers to %s, which is neither a module variable nor a "
                     "defined function; stored as 0", v->name, p);
            return;
        } else {
            bits = (uint64_t)(uintptr_t)a;
        }
    } else if ((s[0] == '0' || s[0] == '-') && (strchr(s, 'f') || strchr(s, 'F')) && !strstr(s, "0x")) {
        char *q = strpbrk(s, "fF");
        bits = strtoull(q + 1, NULL, 16);
        if (!strcmp(v->type, "f64")) { float f; uint32_t u = (uint32_t)bits; memcpy(&f, &u, 4); double d = f; memcpy(&bits, &d, 8); }
    } else if ((s[0] == '0' || s[0] == '-') && (strchr(s, 'd') || strchr(s, 'D')) && !strstr(s, "0x")) {
        char *q = strpbrk(s, "dD");
        bits = strtoull(q + 1, NULL, 16);
        if (!strcmp(v->type, "f32")) { double d; memcpy(&d, &bits, 8); float f = (float)d; uint32_t u; memcpy(&u, &f, 4); bits = u; }
    } else if (isf || strchr(s, '.') || ((strchr(s, 'e') || strchr(s, 'E')) && !strstr(s, "0x"))) {
        double d = strtod(s, NULL);
        if (!strcmp(v->type, "f32")) { float f = (float)d; uint32_t u; memcpy(&u, &f, 4); bits = u; }
        else if (!strcmp(v->type, "f64")) memcpy(&bits, &d, 8);
        else if (d >= -9223372036854775808.0 && d < 9223372036854775808.0) bits = (uint64_t)(long long)d;
        else bits = d > 0 ? (uint64_t)INT64_MAX : d < 0 ? (uint64_t)INT64_MIN : 0;   /* saturate; NaN -> 0 */
    } else {
        int neg = *s == '-';
        bits = strtoull(s + neg, NULL, 0);
        if (neg) bits = (uint64_t)0 - bits;
    }
    memcpy(base + (size_t)idx * (size_t)esz, &bits, (size_t)(esz > 8 ? 8 : esz));
}

static void init_var(npu_kmodule_t *m, ptx_var_t *v, uint8_t *base)
{
    const char *s = v->init, *e = v->init + v->init_len;
    long long idx = 0;
    const char *tok = NULL;
    int paren = 0;
    for (const char *q = s; q <= e; q++) {
        char c = q < e ? *q : ',';
        if (c == '(') paren++;
        if (c == ')') paren--;
        if (!paren && (c == ',' || c == '{' || c == '}' || c == ';')) {
            if (tok) {
                const char *te = q;
                const char *t2 = tok;
                while (t2 < te && isspace((unsigned char)*t2)) t2++;
                if (t2 < te) init_elem(m, v, base, idx++, t2, (size_t)(te - t2));
                tok = NULL;
            }
            continue;
        }
        if (!tok && !isspace((unsigned char)c)) tok = q;
    }
}

static npu_status_t ensure_globals_locked(npu_kmodule_t *m)
{
    if (m->globals_state) return m->globals_state > 0 ? NPU_OK : m->globals_err;
    ptx_prog_t *p = &m->prog;
    m->gaddr = calloc((size_t)(p->nvars + 1), sizeof *m->gaddr);
    if (!m->gaddr) return NPU_EHOSTMEM;
    size_t total = 0;
    size_t *off = calloc((size_t)(p->nvars + 1), sizeof *off);
    if (!off) return NPU_EHOSTMEM;
    for (int i = 0; i < p->nvars; i++) {
        ptx_var_t *v = &p->vars[i];
        if (!is_modvar(v)) continue;
        int dup = 0;
        for (int j = 0; j < i && !dup; j++) dup = is_modvar(&p->vars[j]) && !strcmp(p->vars[j].name, v->name);
        if (dup) continue;
        size_t al = (size_t)(v->align > 0 ? v->align : 1);
        if (al < 8) al = 8;
        total = (total + al - 1) / al * al;
        off[i] = total + 1;   /* +1: 0 means none */
        total += var_size(v) ? var_size(v) : 1;
    }
    npu_status_t st = NPU_OK;
    if (total) {
        st = npu_mem_alloc_module(m->dev, total, &m->gblock);
        if (st == NPU_OK && !m->gblock) st = NPU_ENOMEM;
    }
    if (st == NPU_OK) {
        memset(m->gblock ? m->gblock : (void *)"", 0, m->gblock ? total : 0);
        for (int i = 0; i < p->nvars; i++)
            if (off[i]) m->gaddr[i] = (uint8_t *)m->gblock + off[i] - 1;
        for (int i = 0; i < p->nvars; i++)
            if (m->gaddr[i] && p->vars[i].init) init_var(m, &p->vars[i], m->gaddr[i]);
        m->globals_state = 1;
    } else {
        NPU_ERR("ptx: cannot allocate %zu bytes of module variables on device %d: %s", total, m->dev,
                npu_status_name(st));
        m->globals_state = -1;
        m->globals_err = st;
    }
    free(off);
    return st;
}

npu_status_t npu_kmodule_get_global(npu_kmodule_t *m, const char *name, void **dptr, size_t *size)
{
    if (!m || !name)
        return NPU_EINVAL;
    pthread_mutex_lock(&m->lock);
    npu_status_t st = ensure_globals_locked(m);
    if (st == NPU_OK) {
        st = NPU_ENOTFOUND;
        for (int i = 0; i < m->prog.nvars; i++)
            if (m->gaddr[i] && !strcmp(m->prog.vars[i].name, name)) {
                if (dptr) *dptr = m->gaddr[i];
                if (size) *size = var_size(&m->prog.vars[i]);
                st = NPU_OK;
                break;
            }
    }
    pthread_mutex_unlock(&m->lock);
    return st;
}

/* ------------------------------------------------------------ get_function ---- */
/* User constant memory of the module, as CUDA's CONST_SIZE_BYTES / constSizeBytes report it
 * (the constant bank is per module, shared by its kernels): every defined .const variable
 * (once per name), in declaration order at its alignment (declared, else its element size). */
static uint32_t const_size(const ptx_prog_t *p)
{
    uint64_t total = 0;
    for (int i = 0; i < p->nvars; i++) {
        const ptx_var_t *v = &p->vars[i];
        if (v->space != SP_CONST || v->is_extern)
            continue;
        int dup = 0;
        for (int j = 0; j < i && !dup; j++)
            dup = p->vars[j].space == SP_CONST && !p->vars[j].is_extern && !strcmp(p->vars[j].name, v->name);
        if (dup)
            continue;
        uint64_t al = (uint64_t)(v->align > 0 ? v->align : v->tsize > 0 ? v->tsize : 1);
        total = (total + al - 1) / al * al + var_size(v);
    }
    return total > UINT32_MAX ? UINT32_MAX : (uint32_t)total;
}

void npu_kmodule_set_max_registers(npu_kmodule_t *m, uint32_t max_regs)
{
    if (!m)
        return;
    pthread_mutex_lock(&m->lock);
    m->max_regs = max_regs;
    pthread_mutex_unlock(&m->lock);
}

static npu_status_t build_locked(npu_kmodule_t *m, struct npu_kfunc *k)
{
    npu_status_t st = lift_body_locked(m, k);
    if (st != NPU_OK) return st;
    ptx_func_t *f = k->pf;
    st = ensure_globals_locked(m);
    if (st != NPU_OK) return st;
    uint64_t t0 = npu_now_ns();
    ptx_out_t out;
    st = ptx_translate(&m->prog, f, &out);
    if (st != NPU_OK) return st;
    uint64_t t1 = npu_now_ns();
    npu_jit_result_t jr;
    st = npu_jit_load(out.csrc, out.clen, f->name, 0, &jr);
    if (st == NPU_OK && reg_claim(jr.path, m, out.nglobals == 0) && out.nglobals > 0) {
        /* the same .so is in use by another module: take a private copy for our table */
        dlclose(jr.handle);
        st = npu_jit_load(out.csrc, out.clen, f->name, 1, &jr);
    }
    if (st != NPU_OK) { ptx_out_free(&out); return st; }
    void **tab = dlsym(jr.handle, "npu_globals");
    if (out.nglobals > 0) {
        if (!tab) { st = NPU_EJIT; goto bad; }
        for (int i = 0; i < out.nglobals; i++) {
            uint8_t *a = var_addr(m, out.global_names[i], 0);
            if (!a) {
                NPU_ERR("ptx: kernel %s uses .extern variable %s that no linked module defines", f->name, out.global_names[i]);
                st = NPU_EPTX;
                goto bad;
            }
            tab[i] = a;
        }
    }
    k->params = calloc((size_t)(f->nparams + 1), sizeof(npu_kparam_t));
    if (!k->params) { st = NPU_EHOSTMEM; goto bad; }
    npu_kfunc_info_t *info = &k->info;
    memset(info, 0, sizeof *info);
    ptx_param_layout(f, k->params, &info->param_size);
    info->name = f->name;
    info->nparams = (uint32_t)f->nparams;
    info->params = k->params;
    info->static_shared = out.static_shared;
    info->local_size = out.local_size;
    memcpy(info->maxntid, f->maxntid, sizeof info->maxntid);
    memcpy(info->reqntid, f->reqntid, sizeof info->reqntid);
    info->minnctapersm = f->minnctapersm;
    info->maxnreg = f->maxnreg;
    info->num_regs = ptx_reg_limit(ptx_reg_estimate(f), f->maxnreg, m->max_regs, f->maxntid,
                                   f->minnctapersm);
    info->const_size = const_size(&m->prog);
    if (m->cubin) {
        /* machine code: what ptxas recorded, as a GPU reports it (its registers; constant
         * memory is the user's bank 3, not the lifted bank-2 tables). local_size stays the
         * lifted stack array's (fiber stacks are sized from it), ptxas's frame rounded up to
         * the frame's alignment */
        const npu_cubin_kernel_t *ck = npu_cubin_find_kernel(m->cubin, f->name);
        if (ck && ck->regcount) info->num_regs = ck->regcount;
        info->const_size = (uint32_t)m->cubin->const3_size;
    }
    /* CUDA's cudaFuncAttributes::ptxVersion is the virtual architecture the PTX was generated
     * for (compute_75 -> 75), which CUB compares with __CUDA_ARCH_LIST__; the ISA version of
     * the .version line is not what callers want here. */
    info->ptx_version = m->prog.target_sm ? m->prog.target_sm : m->prog.version;
    info->target_sm = m->prog.target_sm;
    info->uses_sync = out.uses_sync;
    if (out.uses_sync) {
        info->thread_fn = (npu_kthread_fn)dlsym(jr.handle, "npu_kentry_thread");
        if (!info->thread_fn) { st = NPU_EJIT; goto bad; }
    } else {
        info->block_fn = (npu_kblock_fn)dlsym(jr.handle, "npu_kentry_block");
        if (!info->block_fn) { st = NPU_EJIT; goto bad; }
    }
    info->from_cache = jr.from_cache;
    info->jit_ns = jr.from_cache ? 0 : (npu_now_ns() - t0);
    info->max_dynamic_shared = (int)(48 * 1024 - (out.static_shared < 48 * 1024 ? out.static_shared : 48 * 1024));
    info->preferred_carveout = -1;
    k->handle = jr.handle;
    snprintf(k->path, sizeof k->path, "%s", jr.path);
    NPU_INFO("ptx: %s ready (%s mode, translate %.2f ms, %s %.1f ms)", f->name, out.uses_sync ? "thread" : "block",
             (t1 - t0) / 1e6, jr.from_cache ? "cached" : "compile", jr.compile_ns / 1e6);
    ptx_out_free(&out);
    return NPU_OK;
bad:
    if (st == NPU_EJIT) NPU_ERR("ptx: kernel %s: compiled object %s lacks its entry symbols", f->name, jr.path);
    dlclose(jr.handle);
    ptx_out_free(&out);
    free(k->params);
    k->params = NULL;
    return st;
}

npu_status_t npu_kmodule_get_function(npu_kmodule_t *m, const char *name, npu_kfunc_t **out)
{
    if (!m || !name || !out)
        return NPU_EINVAL;
    struct npu_kfunc *k = NULL;
    for (int i = 0; i < m->nentries; i++)
        if (!strcmp(m->entries[i].pf->name, name)) { k = &m->entries[i]; break; }
    if (!k)
        return NPU_ENOTFOUND;
    pthread_mutex_lock(&m->lock);
    npu_status_t st;
    if (k->state == 0) {
        st = build_locked(m, k);
        k->state = st == NPU_OK ? 1 : -1;
        k->err = st;
    }
    st = k->state > 0 ? NPU_OK : k->err;
    pthread_mutex_unlock(&m->lock);
    if (st == NPU_OK) *out = k;
    return st;
}
