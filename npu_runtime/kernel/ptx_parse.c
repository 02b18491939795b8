/*
 * ptx_parse.c - passes 1 and 2 of the PTX translator: index and parse.
 *
 *  index (ptx_index, at module load): strips comments (keeping newlines, so line numbers
 *        stay right), reads .version/.target/.address_size, finds every .entry/.func with
 *        its parameter lists, performance directives and the text range of its body, and
 *        every module-scope variable with its initialiser text. Bodies are not looked at:
 *        loading a module the size of a deep-learning library stays cheap.
 *  parse (ptx_parse_func, on first use of an entry or a function it calls): splits a body
 *        into labels, declarations and instructions (guard, opcode split on '.', operands:
 *        registers, immediates 0f/0d/hex/decimal, the constant WARP_SZ, symbols, [addr+off],
 *        {vectors}, (call lists), a|b pairs, !p, _, video selectors %r1.b2 / .h10 and vmad's -%r1).
 *        Directive words may be glued (".reg.f32 f;", as the CUDA headers' inline asm writes).
 * Both passes return NPU_EPTX with a log line naming the line for malformed text and never
 * read past the end of the text. NPU_PTX_DUMP=index / parse prints their result to stderr.
 */
#include "ptx_internal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ arena ---- */
typedef struct arena_blk { struct arena_blk *next; } arena_blk_t;

void *ptx_alloc(ptx_prog_t *p, size_t n)
{
    arena_blk_t *b = calloc(1, sizeof(arena_blk_t) + n + 16);
    if (!b)
        return NULL;
    b->next = p->arena;
    p->arena = b;
    return (char *)b + sizeof(arena_blk_t) + (16 - sizeof(arena_blk_t) % 16) % 16;
}

char *ptx_strndup(ptx_prog_t *p, const char *s, size_t n)
{
    char *d = ptx_alloc(p, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

void ptx_prog_free(ptx_prog_t *p)
{
    if (!p)
        return;
    arena_blk_t *b = p->arena;
    while (b) {
        arena_blk_t *n = b->next;
        free(b);
        b = n;
    }
    for (int i = 0; i < p->ntexts; i++)
        free(p->texts[i]);
    free(p->texts);
    free(p->funcs);
    free(p->vars);
    memset(p, 0, sizeof(*p));
}

int ptx_dump_enabled(const char *pass)
{
    const char *v = npu_env("NPU_PTX_DUMP");
    if (!v)
        return 0;
    if (!strcmp(v, "all"))
        return 1;
    size_t n = strlen(pass);
    for (const char *s = v; (s = strstr(s, pass)) != NULL; s += n)
        if ((s == v || s[-1] == ',') && (s[n] == 0 || s[n] == ','))
            return 1;
    return 0;
}

/* ------------------------------------------------------------ types ---- */
int ptx_type_size(const char *t)
{
    static const struct { const char *n; int s; } tab[] = {
        {"b8", 1}, {"u8", 1}, {"s8", 1}, {"b16", 2}, {"u16", 2}, {"s16", 2}, {"f16", 2},
        {"bf16", 2}, {"b32", 4}, {"u32", 4}, {"s32", 4}, {"f32", 4}, {"f16x2", 4},
        {"bf16x2", 4}, {"tf32", 4}, {"b64", 8}, {"u64", 8}, {"s64", 8}, {"f64", 8},
        {"b128", 16}, {"pred", 1}, {"e4m3x2", 2}, {"e5m2x2", 2},
    };
    for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
        if (!strcmp(t, tab[i].n))
            return tab[i].s;
    return 0;
}

/* ------------------------------------------------------------ lexing helpers ---- */
static int is_id(int c) { return isalnum(c) || c == '_' || c == '$' || c == '%'; }

/* Elements an initialiser gives an unsized array ("a[] = {1, 2, 3}"): its scalar leaves,
 * split as module.c's init_var splits them, in vectors of vec. */
static long long init_elems(const char *s, size_t len, int vec)
{
    long long leaves = 0;
    int paren = 0, tok = 0;
    for (size_t i = 0; i <= len; i++) {
        char c = i < len ? s[i] : ',';
        if (c == '(') paren++;
        if (c == ')') paren--;
        if (!paren && (c == ',' || c == '{' || c == '}' || c == ';')) {
            leaves += tok;
            tok = 0;
        } else if (!isspace((unsigned char)c)) {
            tok = 1;
        }
    }
    if (vec < 1) vec = 1;
    return leaves ? (leaves + vec - 1) / vec : 1;
}

static const char *skip_ws(const char *s, const char *e)
{
    while (s < e && isspace((unsigned char)*s))
        s++;
    return s;
}

/* Line number of s in the text starting at base. The index pass asks in increasing order,
 * so the count resumes from the previous answer (one pass over the text in all, instead of
 * a rescan from the start per question: CuPy's 20 MB module took 9.5 s to index, 96% of it
 * here). ptx_index resets the cache for each text, so a stale base is never reused. */
static __thread const char *line_base, *line_pos;
static __thread int line_no;

static void line_cache_reset(void)
{
    line_base = line_pos = NULL;
    line_no = 0;
}

static int line_of(const char *base, const char *s)
{
    const char *q = base;
    int l = 1;
    if (line_base == base && line_pos && line_pos <= s) {
        q = line_pos;
        l = line_no;
    }
    for (; q < s; q++)
        l += *q == '\n';
    line_base = base;
    line_pos = s;
    line_no = l;
    return l;
}

/* Copy of the text with // and block comments replaced by spaces (newlines kept). */
static char *strip_comments(const char *t, size_t n)
{
    char *o = malloc(n + 1);
    if (!o)
        return NULL;
    size_t i = 0;
    while (i < n) {
        char c = t[i];
        if (c == '"') {                      /* string: copy through */
            o[i] = c; i++;
            while (i < n && t[i] != '"' && t[i] != '\n') { o[i] = t[i]; i++; }
            if (i < n) { o[i] = t[i]; i++; }
        } else if (c == '/' && i + 1 < n && t[i + 1] == '/') {
            while (i < n && t[i] != '\n') o[i++] = ' ';
        } else if (c == '/' && i + 1 < n && t[i + 1] == '*') {
            o[i++] = ' '; o[i++] = ' ';
            while (i < n && !(t[i] == '*' && i + 1 < n && t[i + 1] == '/')) {
                o[i] = t[i] == '\n' ? '\n' : ' ';
                i++;
            }
            if (i < n) { o[i++] = ' '; if (i < n) o[i++] = ' '; }
        } else if (c == 0) {
            o[i++] = ' ';
        } else {
            o[i] = c; i++;
        }
    }
    o[n] = 0;
    return o;
}

/* End of a statement starting at s: the ';' (outside strings), or e. */
static const char *stmt_end(const char *s, const char *e)
{
    while (s < e && *s != ';') {
        if (*s == '"') {
            s++;
            while (s < e && *s != '"')
                s++;
        }
        if (s < e)
            s++;
    }
    return s;
}

static const char *match_brace(const char *s, const char *e)  /* s at '{' -> at matching '}' */
{
    int d = 0;
    for (; s < e; s++) {
        if (*s == '"') {
            s++;
            while (s < e && *s != '"')
                s++;
            continue;
        }
        if (*s == '{') d++;
        else if (*s == '}' && --d == 0) return s;
    }
    return NULL;
}

/* ------------------------------------------------------------ declarations ---- */
/* Space of a directive word; only its first component counts, so the glued forms that the CUDA
 * headers' inline asm writes (".reg.f32 f;", ".param.b32 x;") read like ".reg .f32 f;". */
static int space_of(const char *w)
{
    static const struct { const char *n; int sp; } tab[] = {
        {".reg", SP_REG}, {".param", SP_PARAM}, {".global", SP_GLOBAL}, {".const", SP_CONST},
        {".shared", SP_SHARED}, {".local", SP_LOCAL},
    };
    size_t n = w[0] == '.' ? 1 + strcspn(w + 1, ".") : 0;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strlen(tab[i].n) == n && !strncmp(w, tab[i].n, n)) return tab[i].sp;
    return SP_NONE;
}

/* Parses "[.space] .attrs .type name[<N>|[N]...] (, name...)* [= init]" between s and e.
 * Appends to *vars. space_dflt: space when none is written (SP_PARAM in parameter lists). */
static int parse_decl(ptx_prog_t *p, const char *s, const char *e, int space_dflt, int line,
                      ptx_var_t **vars, int *nvars, int *cap)
{
    ptx_var_t proto;
    memset(&proto, 0, sizeof proto);
    proto.space = space_dflt;
    proto.vec = 1;
    proto.line = line;
    const char *eq = NULL;
    for (const char *q = s; q < e; q++)
        if (*q == '=') { eq = q; break; }
    const char *de = eq ? eq : e;
    int nnames = 0;
    while (1) {
        s = skip_ws(s, de);
        while (s < de && *s == ',') s = skip_ws(s + 1, de);
        if (s >= de)
            break;
        if (*s == '.') {   /* one ".word" at a time: ".reg.f32" is ".reg" then ".f32" */
            const char *w = s++;
            while (s < de && (isalnum((unsigned char)*s) || *s == '_'))
                s++;
            char word[32];
            size_t wl = (size_t)(s - w) < sizeof word - 1 ? (size_t)(s - w) : sizeof word - 1;
            memcpy(word, w, wl);
            word[wl] = 0;
            int sp = space_of(word);
            if (sp && !proto.is_ptr) proto.space = sp;   /* ".ptr.global.align 8": the pointee's space */
            else if (!strcmp(word, ".align")) {
                s = skip_ws(s, de);
                proto.align = (int)strtol(s, (char **)&s, 0);
            } else if (!strcmp(word, ".v2")) proto.vec = 2;
            else if (!strcmp(word, ".v4")) proto.vec = 4;
            else if (!strcmp(word, ".v8")) proto.vec = 8;
            else if (!strcmp(word, ".ptr")) proto.is_ptr = 1;
            else if (!strcmp(word, ".extern")) proto.is_extern = 1;
            else if (!strcmp(word, ".attribute")) {
                s = skip_ws(s, de);
                if (s < de && *s == '(') {
                    while (s < de && *s != ')') s++;
                    if (s < de) s++;
                }
            } else if (strlen(word + 1) < sizeof proto.type && ptx_type_size(word + 1)) {
                memcpy(proto.type, word + 1, strlen(word + 1) + 1);
            }
            /* .visible .weak .common .global-as-ptr-space .volatile etc.: no effect */
            continue;
        }
        if (!is_id((unsigned char)*s)) {
            return -1;
        }
        const char *n0 = s;
        while (s < de && is_id((unsigned char)*s))
            s++;
        ptx_var_t v = proto;
        v.name = ptx_strndup(p, n0, (size_t)(s - n0));
        v.count = 1;
        s = skip_ws(s, de);
        if (s < de && *s == '<') {
            v.nregs = (int)strtol(s + 1, (char **)&s, 10);
            while (s < de && *s != '>') s++;
            if (s < de) s++;
            if (v.nregs < 0 || v.nregs > 1000000) return -1;
        }
        while (s < de && *s == '[') {
            s = skip_ws(s + 1, de);
            v.is_array = 1;
            if (s < de && *s == ']') {
                v.count = -1;
            } else {
                long long c = strtoll(s, (char **)&s, 0);
                if (c < 0 || (v.count > 0 && c > (1ll << 40) / v.count)) return -1;
                v.count = v.count < 0 ? -1 : v.count * c;
            }
            while (s < de && *s != ']') s++;
            if (s < de) s++;
            s = skip_ws(s, de);
        }
        int ts = ptx_type_size(v.type);
        if (!ts) return -1;
        v.tsize = ts * v.vec;
        if (!v.align) v.align = v.tsize > 16 ? 16 : v.tsize;
        if (eq) { v.init = eq + 1; v.init_len = (size_t)(e - eq - 1); }
        if (eq && v.count < 0) v.count = init_elems(v.init, v.init_len, v.vec);
        if (*nvars == *cap) {
            int nc = *cap ? *cap * 2 : 16;
            ptx_var_t *nv = realloc(*vars, (size_t)nc * sizeof *nv);
            if (!nv) return -1;
            *vars = nv;
            *cap = nc;
        }
        (*vars)[(*nvars)++] = v;
        nnames++;
    }
    return nnames > 0 ? 0 : -1;
}

/* Parameter list "( decl, decl )" starting at s ('('); returns the position after ')'. */
static const char *parse_params(ptx_prog_t *p, const char *base, const char *s, const char *e,
                                ptx_var_t **out, int *nout)
{
    const char *close = s + 1;
    int depth = 1;
    while (close < e && depth) {
        if (*close == '(') depth++;
        else if (*close == ')') depth--;
        if (depth) close++;
    }
    if (close >= e)
        return NULL;
    ptx_var_t *vars = NULL;
    int n = 0, cap = 0;
    const char *q = s + 1;
    while (q < close) {
        const char *c = q;
        while (c < close && *c != ',')
            c++;
        const char *t = skip_ws(q, c);
        if (t < c && parse_decl(p, q, c, SP_PARAM, line_of(base, q), &vars, &n, &cap) != 0) {
            free(vars);
            return NULL;
        }
        q = c < close ? c + 1 : c;
    }
    if (n) {
        *out = ptx_alloc(p, (size_t)n * sizeof(ptx_var_t));
        if (!*out) { free(vars); return NULL; }
        memcpy(*out, vars, (size_t)n * sizeof(ptx_var_t));
    }
    free(vars);
    *nout = n;
    return close + 1;
}

/* ------------------------------------------------------------ index ---- */
static int read_word(const char **sp, const char *e, char *w, size_t wn)
{
    const char *s = *sp;
    size_t i = 0;
    while (s < e && (is_id((unsigned char)*s) || *s == '.')) {
        if (i + 1 < wn) w[i++] = *s;
        s++;
    }
    w[i] = 0;
    *sp = s;
    return (int)i;
}

static npu_status_t index_text(ptx_prog_t *p, int tid, int *fcap, int *vcap)
{
    const char *base = p->texts[tid];
    const char *s = base, *e = base + strlen(base);
    int vis = 0, ext = 0, weak = 0;
    char w[64];
    while (1) {
        s = skip_ws(s, e);
        if (s >= e)
            break;
        const char *st = s;
        if (*s == ';') { s++; continue; }
        if (*s != '.') {
            NPU_ERR("ptx: line %d: unexpected text at module scope: %.30s", line_of(base, s), s);
            return NPU_EPTX;
        }
        read_word(&s, e, w, sizeof w);
        if (!strcmp(w, ".version")) {
            s = skip_ws(s, e);
            unsigned maj = 0, min = 0;
            maj = (unsigned)strtoul(s, (char **)&s, 10);
            if (s < e && *s == '.') min = (unsigned)strtoul(s + 1, (char **)&s, 10);
            if (!p->version) p->version = maj * 10 + min;
            continue;
        }
        if (!strcmp(w, ".target")) {
            s = skip_ws(s, e);
            if (s + 3 < e && !strncmp(s, "sm_", 3) && !p->target_sm)
                p->target_sm = (unsigned)strtoul(s + 3, NULL, 10);
            while (s < e && *s != '\n') s++;
            continue;
        }
        if (!strcmp(w, ".address_size")) {
            s = skip_ws(s, e);
            p->addr_size = (unsigned)strtoul(s, (char **)&s, 10);
            continue;
        }
        if (!strcmp(w, ".file") || !strcmp(w, ".loc") || !strcmp(w, ".pragma")) {
            while (s < e && *s != '\n') s++;
            continue;
        }
        if (!strcmp(w, ".section")) {
            while (s < e && *s != '{' && *s != ';') s++;
            if (s < e && *s == '{') {
                const char *m = match_brace(s, e);
                if (!m) return NPU_EPTX;
                s = m + 1;
            } else if (s < e) s++;
            continue;
        }
        if (!strcmp(w, ".visible")) { vis = 1; continue; }
        if (!strcmp(w, ".extern")) { ext = 1; continue; }
        if (!strcmp(w, ".weak") || !strcmp(w, ".common")) { weak = 1; continue; }
        if (!strcmp(w, ".entry") || !strcmp(w, ".func")) {
            ptx_func_t f;
            memset(&f, 0, sizeof f);
            f.is_entry = w[1] == 'e';
            f.is_visible = vis; f.is_extern = ext; f.is_weak = weak;
            f.text_id = tid;
            f.text = st;
            f.line = line_of(base, st);
            vis = ext = weak = 0;
            s = skip_ws(s, e);
            if (!f.is_entry && s < e && *s == '(') {
                s = parse_params(p, base, s, e, &f.rets, &f.nrets);
                if (!s) goto bad;
                s = skip_ws(s, e);
            }
            const char *n0 = s;
            while (s < e && is_id((unsigned char)*s)) s++;
            if (s == n0) goto bad;
            f.name = ptx_strndup(p, n0, (size_t)(s - n0));
            s = skip_ws(s, e);
            if (s < e && *s == '(') {
                s = parse_params(p, base, s, e, &f.params, &f.nparams);
                if (!s) goto bad;
            }
            /* performance directives until '{' or ';' */
            while (1) {
                s = skip_ws(s, e);
                if (s >= e) goto bad;
                if (*s == '{' || *s == ';') break;
                if (*s != '.') goto bad;
                read_word(&s, e, w, sizeof w);
                uint32_t *dst = NULL;
                int nd = 1;
                if (!strcmp(w, ".maxntid")) { dst = f.maxntid; nd = 3; }
                else if (!strcmp(w, ".reqntid")) { dst = f.reqntid; nd = 3; }
                else if (!strcmp(w, ".minnctapersm")) dst = &f.minnctapersm;
                else if (!strcmp(w, ".maxnreg")) dst = &f.maxnreg;
                else if (!strcmp(w, ".pragma")) { s = stmt_end(s, e); if (s < e) s++; continue; }
                if (dst) {
                    for (int i = 0; i < nd; i++) {
                        s = skip_ws(s, e);
                        if (s < e && isdigit((unsigned char)*s)) {
                            dst[i] = (uint32_t)strtoul(s, (char **)&s, 10);
                            s = skip_ws(s, e);
                            if (s < e && *s == ',') s++;
                        } else if (nd == 3 && i > 0) {
                            dst[i] = 1;
                        }
                    }
                } else {
                    /* .noreturn, .explicitcluster, .reqnctapercluster N, .maxclusterrank N,
                     * .abi_preserve... : skip arguments */
                    while (s < e && (isspace((unsigned char)*s) || isdigit((unsigned char)*s) || *s == ','))
                        s++;
                }
            }
            if (*s == ';') {
                f.is_decl = 1;
                f.text_len = (size_t)(s - st);
                s++;
            } else {
                const char *m = match_brace(s, e);
                if (!m) {
                    NPU_ERR("ptx: line %d: function %s: body is not closed (truncated PTX?)",
                            f.line, f.name);
                    return NPU_EPTX;
                }
                f.body = s + 1;
                f.body_len = (size_t)(m - s - 1);
                f.body_line = line_of(base, s);
                f.text_len = (size_t)(m + 1 - st);
                s = m + 1;
            }
            if (p->nfuncs == *fcap) {
                int nc = *fcap ? *fcap * 2 : 16;
                ptx_func_t *nf = realloc(p->funcs, (size_t)nc * sizeof *nf);
                if (!nf) return NPU_EHOSTMEM;
                p->funcs = nf;
                *fcap = nc;
            }
            p->funcs[p->nfuncs++] = f;
            continue;
        }
        int sp = space_of(w);
        if (sp == SP_GLOBAL || sp == SP_CONST || sp == SP_SHARED || sp == SP_LOCAL) {
            const char *se = stmt_end(s, e);
            if (se >= e) goto bad;
            int before = p->nvars;
            if (parse_decl(p, st, se, sp, line_of(base, st), &p->vars, &p->nvars, vcap) != 0)
                goto bad;
            for (int i = before; i < p->nvars; i++)
                p->vars[i].is_extern |= ext;
            vis = ext = weak = 0;
            s = se + 1;
            continue;
        }
        goto bad;
    }
    return NPU_OK;
bad:
    NPU_ERR("ptx: line %d: malformed module-scope statement: %.40s", line_of(base, s < e ? s : e),
            s < e ? s : "(end of text)");
    return NPU_EPTX;
}

npu_status_t ptx_index(ptx_prog_t *p, const char *const *texts, const size_t *lens, int n)
{
    memset(p, 0, sizeof *p);
    if (n <= 0)
        return NPU_EINVAL;
    p->texts = calloc((size_t)n, sizeof(char *));
    if (!p->texts)
        return NPU_EHOSTMEM;
    int fcap = 0, vcap = 0;
    for (int i = 0; i < n; i++) {
        if (!texts[i])
            return NPU_EINVAL;
        size_t len = lens ? lens[i] : strlen(texts[i]);
        const char *z = memchr(texts[i], 0, len);
        if (z) len = (size_t)(z - texts[i]);
        p->texts[i] = strip_comments(texts[i], len);
        line_cache_reset();
        if (!p->texts[i])
            return NPU_EHOSTMEM;
        p->ntexts++;
        npu_status_t st = index_text(p, i, &fcap, &vcap);
        if (st != NPU_OK)
            return st;
    }
    int entries = 0;
    for (int i = 0; i < p->nfuncs; i++)
        entries += p->funcs[i].is_entry;
    if (!p->version && !p->nfuncs && !p->nvars) {
        NPU_ERR("ptx: text has no .version, function or variable: not PTX");
        return NPU_EPTX;
    }
    if (ptx_dump_enabled("index")) {
        fprintf(stderr, "== ptx index: version %u target sm_%u address_size %u, %d functions "
                "(%d entries), %d variables\n", p->version, p->target_sm, p->addr_size,
                p->nfuncs, entries, p->nvars);
        for (int i = 0; i < p->nfuncs; i++)
            fprintf(stderr, "  %s %s%s params=%d rets=%d line %d\n",
                    p->funcs[i].is_entry ? ".entry" : ".func", p->funcs[i].name,
                    p->funcs[i].is_decl ? " (declaration)" : "", p->funcs[i].nparams,
                    p->funcs[i].nrets, p->funcs[i].line);
        for (int i = 0; i < p->nvars; i++)
            fprintf(stderr, "  var %s space %d .%s x%lld align %d%s\n", p->vars[i].name,
                    p->vars[i].space, p->vars[i].type, p->vars[i].count, p->vars[i].align,
                    p->vars[i].init ? " (init)" : "");
    }
    return NPU_OK;
}

ptx_func_t *ptx_find_func(ptx_prog_t *p, const char *name)
{
    ptx_func_t *decl = NULL;
    for (int i = 0; i < p->nfuncs; i++)
        if (!strcmp(p->funcs[i].name, name)) {
            if (!p->funcs[i].is_decl)
                return &p->funcs[i];
            if (!decl)
                decl = &p->funcs[i];
        }
    return decl;
}

ptx_var_t *ptx_find_var(ptx_prog_t *p, const char *name)
{
    ptx_var_t *decl = NULL;
    for (int i = 0; i < p->nvars; i++)
        if (!strcmp(p->vars[i].name, name)) {
            if (!p->vars[i].is_extern)
                return &p->vars[i];
            if (!decl)
                decl = &p->vars[i];
        }
    return decl;
}

/* ------------------------------------------------------------ operands ---- */
static int parse_operand(ptx_prog_t *p, const char *s, const char *e, ptx_opnd_t *o);

static int split_list(ptx_prog_t *p, const char *s, const char *e, ptx_opnd_t **out, int *n)
{
    int cap = 0, cnt = 0;
    ptx_opnd_t *arr = NULL;
    s = skip_ws(s, e);
    while (s < e) {
        const char *c = s;
        int d = 0;
        while (c < e && (d || *c != ',')) {
            if (*c == '{' || *c == '[' || *c == '(') d++;
            else if (*c == '}' || *c == ']' || *c == ')') d--;
            c++;
        }
        if (cnt == cap) {
            cap = cap ? cap * 2 : 4;
            ptx_opnd_t *na = ptx_alloc(p, (size_t)cap * sizeof *na);
            if (!na) return -1;
            if (arr) memcpy(na, arr, (size_t)cnt * sizeof *na);
            arr = na;
        }
        if (parse_operand(p, s, c, &arr[cnt]) != 0)
            return -1;
        cnt++;
        s = c < e ? skip_ws(c + 1, e) : c;
    }
    *out = arr;
    *n = cnt;
    return 0;
}

static int parse_number(const char *s, const char *e, ptx_opnd_t *o)
{
    int neg = 0;
    if (s < e && (*s == '-' || *s == '+')) { neg = *s == '-'; s++; }
    if (e - s >= 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F') && e - s == 10) {
        o->kind = OP_FIMM;
        o->imm = strtoull(s + 2, NULL, 16);
        if (neg) o->imm ^= 0x80000000u;
        return 0;
    }
    if (e - s >= 2 && s[0] == '0' && (s[1] == 'd' || s[1] == 'D') && e - s == 18) {
        o->kind = OP_DIMM;
        o->imm = strtoull(s + 2, NULL, 16);
        if (neg) o->imm ^= 0x8000000000000000ull;
        return 0;
    }
    char buf[80];
    size_t n = (size_t)(e - s);
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    int hex = n > 2 && buf[0] == '0' && (buf[1] == 'x' || buf[1] == 'X');
    if (!hex && (strchr(buf, '.') || strchr(buf, 'e') || strchr(buf, 'E'))) {
        char *end;
        o->kind = OP_DEC;
        o->dval = strtod(buf, &end);
        if (*end) return -1;
        if (neg) o->dval = -o->dval;
        return 0;
    }
    if (n > 0 && (buf[n - 1] == 'U' || buf[n - 1] == 'u')) buf[--n] = 0;
    char *end;
    uint64_t v;
    if (n > 2 && buf[0] == '0' && (buf[1] == 'b' || buf[1] == 'B'))
        v = strtoull(buf + 2, &end, 2);
    else
        v = strtoull(buf, &end, 0);
    if (*end || n == 0) return -1;
    o->kind = OP_IMM;
    o->imm = neg ? (uint64_t)0 - v : v;
    return 0;
}

static int parse_operand(ptx_prog_t *p, const char *s, const char *e, ptx_opnd_t *o)
{
    memset(o, 0, sizeof *o);
    s = skip_ws(s, e);
    while (e > s && isspace((unsigned char)e[-1])) e--;
    if (s >= e) return -1;
    if (*s == '!') { o->neg = 1; s = skip_ws(s + 1, e); if (s >= e) return -1; }
    if (*s == '{' || *s == '(') {
        char close = *s == '{' ? '}' : ')';
        if (e[-1] != close) return -1;
        o->kind = *s == '{' ? OP_VEC : OP_LIST;
        return split_list(p, s + 1, e - 1, &o->elem, &o->nelem);
    }
    if (*s == '[') {
        if (e[-1] != ']') return -1;
        o->kind = OP_ADDR;
        const char *q = skip_ws(s + 1, e - 1), *qe = e - 1;
        while (qe > q && isspace((unsigned char)qe[-1])) qe--;
        if (q >= qe) return -1;
        if (isdigit((unsigned char)*q) || *q == '-') {
            ptx_opnd_t n;
            memset(&n, 0, sizeof n);
            if (parse_number(q, qe, &n) != 0 || n.kind != OP_IMM) return -1;
            o->base_is_imm = 1;
            o->off = (long long)n.imm;
            return 0;
        }
        const char *n0 = q;
        while (q < qe && (is_id((unsigned char)*q) || (*q == '.' && n0[0] == '%'))) q++;
        if (q == n0) return -1;
        o->name = ptx_strndup(p, n0, (size_t)(q - n0));
        q = skip_ws(q, qe);
        if (q < qe) {
            if (*q != '+' && *q != '-') return -1;
            int neg = *q == '-';
            q = skip_ws(q + 1, qe);
            ptx_opnd_t n;
            memset(&n, 0, sizeof n);
            if (parse_number(q, qe, &n) != 0 || n.kind != OP_IMM) return -1;
            o->off = neg ? -(long long)n.imm : (long long)n.imm;
        }
        return 0;
    }
    if (*s == '-' && s + 1 < e && (s[1] == '%' || isalpha((unsigned char)s[1]) || s[1] == '_')) {
        o->minus = 1;       /* vmad's "-%r1"; any other instruction rejects it in the check pass */
        s++;
    }
    if (isdigit((unsigned char)*s) || *s == '-' || *s == '+')
        return parse_number(s, e, o);
    if (*s == '_' && e - s == 1) { o->kind = OP_SINK; return 0; }
    const char *bar = NULL;
    for (const char *q = s; q < e; q++)
        if (*q == '|') { bar = q; break; }
    if (bar) {
        const char *a = bar;
        while (a > s && isspace((unsigned char)a[-1])) a--;
        const char *b2 = skip_ws(bar + 1, e);
        o->kind = OP_REG;
        o->name = ptx_strndup(p, s, (size_t)(a - s));
        o->name2 = ptx_strndup(p, b2, (size_t)(e - b2));
        if (!strcmp(o->name, "_")) o->name = NULL;
        return 0;
    }
    const char *n0 = s;
    while (s < e && (is_id((unsigned char)*s) || (*s == '.' && *n0 == '%'))) s++;
    if (s == n0) return -1;
    /* a video instruction's byte/half-word selector: "%r1.b2", "%r1.h10", "x.b3210" */
    const char *dot = s;
    while (dot > n0 && dot[-1] != '.') dot--;
    if (dot == n0 && s < e && *s == '.') {      /* a name without '%' stops at the dot */
        dot = s + 1;
        s = dot;
        while (s < e && isalnum((unsigned char)*s)) s++;
    }
    if (dot > n0 && s - dot >= 2 && (*dot == 'b' || *dot == 'h')) {
        const char *q = dot + 1;
        while (q < s && *q >= '0' && *q <= '7') q++;
        if (q == s) {
            o->sel = ptx_strndup(p, dot, (size_t)(s - dot));
            o->name = ptx_strndup(p, n0, (size_t)(dot - 1 - n0));
        }
    }
    if (!o->sel && dot > n0 && *n0 != '%') return -1;
    if (!o->name) o->name = ptx_strndup(p, n0, (size_t)(s - n0));
    o->kind = *n0 == '%' ? OP_REG : OP_SYM;
    s = skip_ws(s, e);
    if (s < e) {
        if (*s != '+' && *s != '-') return -1;
        int neg = *s == '-';
        ptx_opnd_t n;
        memset(&n, 0, sizeof n);
        if (parse_number(skip_ws(s + 1, e), e, &n) != 0 || n.kind != OP_IMM) return -1;
        o->off = neg ? -(long long)n.imm : (long long)n.imm;
        o->kind = OP_SYM;
    }
    if (!strcmp(o->name, "WARP_SZ") && !o->sel) {   /* the ISA's built-in constant (cuda_fp16.hpp's __shfl_*) */
        o->kind = OP_IMM;
        o->imm = (uint64_t)(32 + o->off);
        if (o->minus) o->imm = (uint64_t)0 - o->imm;
        o->name = NULL;
        o->off = 0;
        o->minus = 0;
    }
    return 0;
}

/* ------------------------------------------------------------ body ---- */
npu_status_t ptx_parse_func(ptx_prog_t *p, ptx_func_t *f)
{
    if (f->parsed)
        return f->parse_status;
    f->parsed = 1;
    f->parse_status = NPU_EPTX;
    if (f->is_decl || !f->body)
        return f->parse_status = NPU_OK;
    const char *base = p->texts[f->text_id];
    const char *s = f->body, *e = f->body + f->body_len;
    int line = f->body_line;
    const char *lpos = f->body;
    int icap = 0, lcap = 0;
    ptx_insn_t *insns = NULL;
    ptx_var_t *locals = NULL;
    int ni = 0, nl = 0;
    (void)base;
#define LINE_AT(q) (line += 0, ({ for (; lpos < (q); lpos++) line += *lpos == '\n'; line; }))
    int stack[256], depth = 0, next_scope = 1;
    stack[0] = 0;
    while (1) {
        s = skip_ws(s, e);
        if (s >= e)
            break;
        if (*s == ';') { s++; continue; }
        int ln = LINE_AT(s);
        ptx_insn_t in;
        memset(&in, 0, sizeof in);
        in.line = ln;
        if (*s == '{' || *s == '}') {
            if (*s == '{') {
                if (depth + 1 >= 256) { NPU_ERR("ptx: %s line %d: scopes nested too deeply", f->name, ln); goto fail; }
                stack[++depth] = next_scope++;
                in.is_label = 2;
            } else {
                if (depth == 0) { NPU_ERR("ptx: %s line %d: unbalanced '}'", f->name, ln); goto fail; }
                in.is_label = 3;
                depth--;
            }
            in.scope = stack[depth + (in.is_label == 3)];
            if (in.is_label == 2) in.scope = stack[depth];
            s++;
            goto push;
        }
        /* label? */
        if (*s != '.' && *s != '@') {
            const char *q = s;
            while (q < e && is_id((unsigned char)*q)) q++;
            const char *r = skip_ws(q, e);
            if (q > s && r < e && *r == ':') {
                in.is_label = 1;
                in.label = ptx_strndup(p, s, (size_t)(q - s));
                s = r + 1;
                goto push;
            }
        }
        if (*s == '.' && (!strncmp(s, ".loc", 4) || !strncmp(s, ".file", 5)) && !is_id((unsigned char)s[s[2] == 'o' ? 4 : 5])) {
            while (s < e && *s != '\n') s++;     /* debug line info: ends at the end of the line, no ';' */
            continue;
        }
        const char *se = stmt_end(s, e);
        if (se >= e) {
            NPU_ERR("ptx: %s line %d: statement not terminated by ';' (truncated PTX?)", f->name, ln);
            goto fail;
        }
        if (*s == '.') {
            const char *q = s + 1;
            char w[32];
            read_word(&q, se, w, sizeof w);
            char dw[34];
            snprintf(dw, sizeof dw, ".%s", w);
            int sp = space_of(w[0] == '.' ? w : dw);
            if (sp == SP_NONE && !strcmp(w, "extern")) sp = SP_SHARED;
            if (sp != SP_NONE) {
                int before = nl;
                if (parse_decl(p, s, se, sp, ln, &locals, &nl, &lcap) != 0) {
                    NPU_ERR("ptx: %s line %d: malformed declaration", f->name, ln);
                    goto fail;
                }
                for (int k = before; k < nl; k++) locals[k].scope = stack[depth];
            }
            /* .pragma, .loc, .file, .maxnreg ... ignored */
            s = se + 1;
            continue;
        }
        if (*s == '@') {
            s = skip_ws(s + 1, se);
            if (s < se && *s == '!') { in.pred_neg = 1; s = skip_ws(s + 1, se); }
            const char *n0 = s;
            while (s < se && is_id((unsigned char)*s)) s++;
            if (s == n0) { NPU_ERR("ptx: %s line %d: bad guard predicate", f->name, ln); goto fail; }
            in.pred = ptx_strndup(p, n0, (size_t)(s - n0));
            s = skip_ws(s, se);
        }
        {
            const char *o0 = s;
            /* "::" joins a modifier's parts (.L2::cache_hint, .shared::cta, .L1::no_allocate) */
            while (s < se && (isalnum((unsigned char)*s) || *s == '_' || *s == '.' ||
                              (*s == ':' && s + 1 < se && s[1] == ':') || (*s == ':' && s > o0 && s[-1] == ':'))) s++;
            if (s == o0) { NPU_ERR("ptx: %s line %d: expected an instruction: %.30s", f->name, ln, o0); goto fail; }
            in.opcode = ptx_strndup(p, o0, (size_t)(s - o0));
            char *m = ptx_strndup(p, o0, (size_t)(s - o0));
            char *tok = m;
            while (tok && in.nmods < PTX_MAXMODS) {
                char *dot = strchr(tok, '.');
                if (dot) *dot = 0;
                if (*tok) in.mods[in.nmods++] = tok;
                tok = dot ? dot + 1 : NULL;
            }
            if (tok) { NPU_ERR("ptx: %s line %d: too many modifiers in %s", f->name, ln, in.opcode); goto fail; }
            if (!in.nmods) { NPU_ERR("ptx: %s line %d: expected an instruction: %s", f->name, ln, in.opcode); goto fail; }
            ptx_opnd_t *ops = NULL;
            int nops = 0;
            if (split_list(p, s, se, &ops, &nops) != 0 || nops > PTX_MAXOPS) {
                in.bad_ops = 1;     /* reported by the check pass (EPTX, or EPTXUNSUP by name) */
                nops = 0;
            }
            for (int i = 0; i < nops; i++) in.ops[i] = ops[i];
            in.nops = nops;
            s = se + 1;
        }
push:
        if (ni == icap) {
            icap = icap ? icap * 2 : 64;
            ptx_insn_t *n2 = realloc(insns, (size_t)icap * sizeof *n2);
            if (!n2) goto fail;
            insns = n2;
        }
        insns[ni++] = in;
    }
#undef LINE_AT
    f->insns = ptx_alloc(p, (size_t)(ni ? ni : 1) * sizeof(ptx_insn_t));
    f->locals = ptx_alloc(p, (size_t)(nl ? nl : 1) * sizeof(ptx_var_t));
    if (!f->insns || !f->locals) goto fail;
    if (ni) memcpy(f->insns, insns, (size_t)ni * sizeof(ptx_insn_t));
    if (nl) memcpy(f->locals, locals, (size_t)nl * sizeof(ptx_var_t));
    f->ninsns = ni;
    f->nlocals = nl;
    free(insns);
    free(locals);
    if (ptx_dump_enabled("parse")) {
        fprintf(stderr, "== ptx parse: %s: %d statements, %d declarations\n", f->name, ni, nl);
        for (int i = 0; i < ni; i++) {
            ptx_insn_t *x = &f->insns[i];
            if (x->is_label == 1)
                fprintf(stderr, "  %5d %s:\n", x->line, x->label);
            else if (x->is_label)
                fprintf(stderr, "  %5d %c (scope %d)\n", x->line, x->is_label == 2 ? '{' : '}', x->scope);
            else
                fprintf(stderr, "  %5d %s%s%s %s (%d operands)\n", x->line, x->pred ? "@" : "",
                        x->pred_neg ? "!" : "", x->pred ? x->pred : "", x->opcode, x->nops);
        }
    }
    f->parse_status = NPU_OK;
    if (f->lifted) ptx_webs(p, f);
    return NPU_OK;
fail:
    free(insns);
    free(locals);
    return f->parse_status = NPU_EPTX;
}
