/* test_webs.c - ptx_webs.c's register webs on hand-written bodies shaped like the SASS front
 * end's output: which definitions end up sharing a register, checked against the webs worked
 * out by hand from the reaching definitions (the end-to-end oracle is tests/sasslift, which
 * runs every kernel test through the lifter and webs against host references). */
#include "npu_runtime/npu.h"
#include "npu_runtime/kernel/ptx_internal.h"
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *SRC =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .entry k(.param .u64 __p0)\n{\n"
    "  .reg .b32 %r0, %r1, %r2, %r3;\n  .reg .b32 %t<2>;\n  .reg .b64 %td0, %td1, %tda0;\n"
    "  .reg .pred %p0, %p1;\n"
    "  ld.param.u64 %tda0, [__p0];\n"
    /* A: two straight-line values of %r1 -> two webs */
    "  mov.b32 %r1, 1;\n"                      /* 1 */
    "  st.global.b32 [%tda0], %r1;\n"          /* 2 */
    "  mov.b32 %r1, 2;\n"                      /* 3 */
    "  st.global.b32 [%tda0+4], %r1;\n"        /* 4 */
    /* B: a guarded definition joins the value it may keep */
    "  mov.u32 %r0, %tid.x;\n"                 /* 5 */
    "  setp.eq.u32 %p0, %r0, 0;\n"             /* 6 */
    "  mov.b32 %r2, 5;\n"                      /* 7 */
    "  @%p0 mov.b32 %r2, 6;\n"                 /* 8 */
    "  st.global.b32 [%tda0+8], %r2;\n"        /* 9 */
    /* C: a use under the same guard sees the guarded definition alone */
    "  mov.b32 %t0, 7;\n"                      /* 10 */
    "  st.global.b32 [%tda0+12], %t0;\n"       /* 11 */
    "  @!%p0 mov.b32 %t0, 8;\n"                /* 12 */
    "  @!%p0 st.global.b32 [%tda0+16], %t0;\n" /* 13 */
    "  mov.b32 %t0, 9;\n"                      /* 14: kills both */
    "  st.global.b32 [%tda0+20], %t0;\n"       /* 15 */
    /* D: a loop: the value at the head is the one from before and the one from the body */
    "  mov.b32 %r3, 0;\n"                      /* 16 */
    "L1:\n"                                    /* 17 */
    "  add.u32 %r3, %r3, 1;\n"                 /* 18 */
    "  setp.lt.u32 %p1, %r3, 4;\n"             /* 19 */
    "  @%p1 bra L1;\n"                         /* 20 */
    "  st.global.b32 [%tda0+24], %r3;\n"       /* 21 */
    /* E: a pack of an unpack is the packed register */
    "  mov.b64 %td0, 77;\n"                    /* 22 */
    "  mov.b64 {%t0, %t1}, %td0;\n"            /* 23 */
    "  mov.b64 %td1, {%t0, %t1};\n"            /* 24 */
    "  st.global.b64 [%tda0+32], %td1;\n"      /* 25 */
    /* F: the guard changed between the guarded definition and the use: no shortcut */
    "  mov.b32 %r1, 10;\n"                     /* 26 */
    "  @%p0 mov.b32 %r1, 11;\n"                /* 27 */
    "  setp.eq.u32 %p0, %r0, 1;\n"             /* 28 */
    "  @%p0 st.global.b32 [%tda0+40], %r1;\n"  /* 29 */
    /* G: a guarded write of the guard itself; its next read (as a guard) may see either value */
    "  mov.b32 %r1, 12;\n"                     /* 30 */
    "  @!%p0 setp.eq.u32 %p0, %r1, 12;\n"      /* 31 */
    "  @!%p0 st.global.b32 [%tda0+44], %r1;\n" /* 32 */
    "  ret;\n"                                 /* 33 */
    "}\n";

static ptx_insn_t *I(ptx_func_t *f, int k)      /* the k-th statement (labels count) */
{
    CHECK(k < f->ninsns);
    return &f->insns[k];
}
static const char *dst(ptx_func_t *f, int k) { return I(f, k)->ops[0].name; }
static const char *src(ptx_func_t *f, int k, int o) { return I(f, k)->ops[o].name; }

int main(void)
{
    if (!getenv("TEST_WEBS_OFF")) setenv("NPU_SASS_WEBS", "1", 1);   /* the pass is opt-in */
    ptx_prog_t p;
    memset(&p, 0, sizeof p);
    const char *texts[] = { SRC };
    size_t lens[] = { strlen(SRC) };
    CHECK_EQ(ptx_index(&p, texts, lens, 1), NPU_OK);
    ptx_func_t *f = ptx_find_func(&p, "k");
    CHECK(f != NULL);
    f->lifted = 1;
    CHECK_EQ(ptx_parse_func(&p, f), NPU_OK);
    CHECK(f->ninsns >= 34);
    /* A */
    CHECK(strcmp(dst(f, 1), dst(f, 3)) != 0);
    CHECK(!strcmp(dst(f, 1), src(f, 2, 1)));
    CHECK(!strcmp(dst(f, 3), src(f, 4, 1)));
    /* B */
    CHECK(!strcmp(dst(f, 7), dst(f, 8)));
    CHECK(!strcmp(dst(f, 8), src(f, 9, 1)));
    /* C */
    CHECK(!strcmp(dst(f, 10), src(f, 11, 1)));
    CHECK(!strcmp(dst(f, 12), src(f, 13, 1)));
    CHECK(strcmp(dst(f, 10), dst(f, 12)) != 0);
    CHECK(strcmp(dst(f, 14), dst(f, 12)) != 0 && strcmp(dst(f, 14), dst(f, 10)) != 0);
    CHECK(!strcmp(dst(f, 14), src(f, 15, 1)));
    /* D: label at 17 */
    CHECK(I(f, 17)->is_label == 1);
    CHECK(!strcmp(dst(f, 16), dst(f, 18)) && !strcmp(dst(f, 18), src(f, 18, 1)));
    CHECK(!strcmp(dst(f, 18), src(f, 21, 1)));
    CHECK(!strcmp(src(f, 19, 1), dst(f, 18)));
    /* E */
    CHECK_EQ(I(f, 24)->ops[1].kind, OP_REG);
    CHECK(!strcmp(src(f, 24, 1), dst(f, 22)));
    /* F: the use at 29 may see 26 or 27 (p0 was rewritten at 28) */
    CHECK(!strcmp(dst(f, 26), dst(f, 27)) && !strcmp(dst(f, 27), src(f, 29, 1)));
    /* G: the guard read at 32 joins 31's definition with the older ones (28) */
    CHECK(!strcmp(I(f, 31)->ops[0].name, I(f, 28)->ops[0].name));
    CHECK(!strcmp(I(f, 32)->pred, I(f, 31)->ops[0].name));
    /* every name in use is declared */
    for (int i = 0; i < f->ninsns; i++) {
        ptx_insn_t *in = &f->insns[i];
        if (in->is_label) continue;
        for (int o = 0; o < in->nops; o++) {
            const char *n = in->ops[o].kind == OP_REG ? in->ops[o].name : NULL;
            if (!n || n[0] != '%' || !strncmp(n, "%tid", 4)) continue;
            int found = 0;
            for (int v = 0; v < f->nlocals && !found; v++) {
                ptx_var_t *x = &f->locals[v];
                if (x->nregs) {
                    size_t l = strlen(x->name);
                    found = !strncmp(n, x->name, l) && n[l] >= '0' && n[l] <= '9' && atoi(n + l) < x->nregs &&
                            !strchr(n + l, '_');
                } else found = !strcmp(n, x->name);
            }
            CHECK_MSG(found, "statement %d: %s is not declared", i, n);
        }
    }
    /* bad input: a body that does not parse is left alone, the pass refuses an unparsed function */
    ptx_func_t g;
    memset(&g, 0, sizeof g);
    CHECK_EQ(ptx_webs(&p, &g), 0);
    ptx_prog_free(&p);
    return CHECK_DONE();
}
