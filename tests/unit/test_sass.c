/*
 * test_sass.c - the SASS decoder's fields, as a lifter reads them, on real instructions. Each
 * case is an instruction taken from an nvcc/ptxas cubin (or PyTorch's) with nvdisasm's text
 * for it (the reference): sass_format() must reproduce the text and the typed fields must
 * say what the text says (register numbers and widths, immediates, constant-bank and memory
 * operands, predicates, branch targets, scheduling control). Then the error paths: truncated
 * buffers, unknown opcodes, unsupported SMs, fields we do not model.
 * The exhaustive comparison with nvdisasm is tests/sass/run_sass.sh.
 */
#include "npu_runtime/kernel/sass.h"
#include "check.h"

#include <stdint.h>
#include <string.h>

static sass_insn_t in;
static char text[256], err[256];

/* decodes (w0, w1) at pc for sm and checks the text */
static int dec(uint64_t w0, uint64_t w1, uint64_t pc, unsigned sm, const char *want)
{
    uint8_t b[16];
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(w0 >> (8 * i));
        b[8 + i] = (uint8_t)(w1 >> (8 * i));
    }
    sass_status_t st = sass_decode(b, 16, pc, sm, &in, err, sizeof err);
    CHECK_MSG(st == SASS_OK, "%s: status %s (%s)", want, sass_status_name(st), err);
    if (st != SASS_OK)
        return 0;
    sass_format(&in, text, sizeof text);
    CHECK_MSG(!strcmp(text, want), "got \"%s\", nvdisasm \"%s\"", text, want);
    return 1;
}

static const sass_operand_t *op(int i) { return &in.opnd[i]; }

int main(void)
{
    /* IMAD.WIDE: 64-bit destination and addend, cbank source c */
    if (dec(0x0000580002027625ull, 0x000fca00078e0203ull, 0, 80,
            "IMAD.WIDE R2, R2, R3, c[0x0][0x160]")) {
        CHECK_EQ(in.op, SASS_OP_IMAD);
        CHECK(sass_has_mod(&in, SASS_MOD_WIDE) && !sass_has_mod(&in, SASS_MOD_U32));
        CHECK_EQ(in.nopnds, 4);
        CHECK(op(0)->kind == SASS_OPND_REG && op(0)->reg == 2 && op(0)->width == 64);
        CHECK(op(1)->kind == SASS_OPND_REG && op(1)->reg == 2 && op(1)->width == 32);
        CHECK(op(2)->kind == SASS_OPND_REG && op(2)->reg == 3);
        CHECK(op(3)->kind == SASS_OPND_CBANK && op(3)->bank == 0 && op(3)->imm == 0x160 &&
              op(3)->width == 64 && op(3)->reg2 == SASS_NONE_REG);
        CHECK_EQ(in.guard, SASS_PT);
        CHECK_EQ(in.ctrl.stall, 5);
        CHECK_EQ(in.ctrl.wr_bar, 7);
        CHECK_EQ(in.ctrl.rd_bar, 7);
    }
    /* the IMAD aliases of nvdisasm keep every operand: IMAD.MOV.U32 is RZ*RZ + x */
    if (dec(0x00000a00ff017624ull, 0x000fe400078e00ffull, 0, 80,
            "IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]")) {
        CHECK(sass_has_mod(&in, SASS_MOD_MOV) && sass_has_mod(&in, SASS_MOD_U32));
        CHECK(op(1)->reg == SASS_RZ && op(2)->reg == SASS_RZ && op(3)->imm == 0x28);
    }
    if (dec(0x00100000060e7825ull, 0x001fc600078e02ffull, 0, 80,
            "IMAD.WIDE R14, R6, 0x100000, RZ"))
        CHECK(op(2)->kind == SASS_OPND_IMM && op(2)->imm == 0x100000 && op(3)->width == 64);
    /* loads and stores: widths from the access size, 64-bit address registers */
    if (dec(0x0000000404047981ull, 0x000ee4000c1e1b00ull, 0, 80, "LDG.E.64 R4, [R4.64]")) {
        CHECK(sass_has_mod(&in, SASS_MOD_E) && sass_has_mod(&in, SASS_MOD_64));
        CHECK(op(0)->kind == SASS_OPND_REG && op(0)->width == 64);
        CHECK(op(1)->kind == SASS_OPND_MEM && op(1)->reg == 4 && (op(1)->flags & SASS_OF_WIDE) &&
              op(1)->reg2 == SASS_NONE_REG && op(1)->imm == 0);
    }
    if (dec(0x0000080616007986ull, 0x0001e2000c101b24ull, 0, 80, "STG.E.64 [R22.64+0x8], R6")) {
        CHECK(op(0)->kind == SASS_OPND_MEM && op(0)->reg == 22 && op(0)->imm == 8);
        CHECK(op(1)->kind == SASS_OPND_REG && op(1)->reg == 6 && op(1)->width == 64);
    }
    if (dec(0x0000000807007988ull, 0x0023e20008008a04ull, 0, 80, "STS.64 [R7.X8+UR4], R8"))
        CHECK(op(0)->sel == SASS_SEL_X8 && op(0)->reg2 == 4 && op(1)->width == 64);
    if (dec(0x00003800ff047984ull, 0x000e240000000a00ull, 0, 80, "LDS.64 R4, [0x38]"))
        CHECK(op(1)->reg == SASS_RZ && op(1)->imm == 0x38);
    if (dec(0x1200008008cf7faeull, 0x0005e8000b901d46ull, 0, 80,
            "LDGSTS.E.BYPASS.LTC128B.128 [R207+0x12000], [R8.64+0x80]")) {
        CHECK(op(0)->reg == 207 && op(0)->imm == 0x12000);
        CHECK(op(1)->reg == 8 && (op(1)->flags & SASS_OF_WIDE) && op(1)->imm == 0x80);
        CHECK(sass_has_mod(&in, SASS_MOD_BYPASS) && sass_has_mod(&in, SASS_MOD_128));
    }
    /* constant bank indexed by a register; uniform constant load of 64 bits */
    if (dec(0x0080030009047b82ull, 0x000e240000000800ull, 0, 80, "LDC R4, c[0x2][R9+0xc]"))
        CHECK(op(1)->bank == 2 && op(1)->reg2 == 9 && op(1)->reg2kind == SASS_OPND_REG &&
              op(1)->imm == 0xc);
    if (dec(0x0000460000047ab9ull, 0x000fd20000000a00ull, 0, 80, "ULDC.64 UR4, c[0x0][0x118]")) {
        CHECK(op(0)->kind == SASS_OPND_UREG && op(0)->reg == 4 && op(0)->width == 64);
        CHECK(in.guard_uniform == 1);
    }
    /* predicates: destinations, negated sources, carries */
    if (dec(0x00005a0002007a0cull, 0x000fda0003f06270ull, 0, 80,
            "ISETP.GE.AND P0, PT, R2, c[0x0][0x168], PT")) {
        CHECK(sass_has_mod(&in, SASS_MOD_GE) && sass_has_mod(&in, SASS_MOD_AND));
        CHECK(op(0)->kind == SASS_OPND_PRED && op(0)->reg == 0);
        CHECK(op(1)->kind == SASS_OPND_PRED && op(1)->reg == SASS_PT);
    }
    if (dec(0x0000001500157210ull, 0x000fc800007e250full, 0, 80,
            "IADD3.X R21, ~R0, R21, R15, P0, P1")) {
        CHECK(op(1)->flags & SASS_OF_NOT);
        CHECK(op(4)->kind == SASS_OPND_PRED && op(4)->reg == 0 && op(5)->reg == 1);
    }
    if (dec(0x0000000200ff7812ull, 0x000fe2000788c0ffull, 0, 80,
            "LOP3.LUT P4, RZ, R0, 0x2, RZ, 0xc0, !PT")) {
        CHECK(op(0)->kind == SASS_OPND_PRED && op(0)->reg == 4);
        CHECK(op(5)->kind == SASS_OPND_IMM && op(5)->imm == 0xc0);
        CHECK(op(6)->reg == SASS_PT && (op(6)->flags & SASS_OF_NOT));
    }
    /* float immediates keep their bits and type */
    if (dec(0x00000008ff037435ull, 0x000fe200000001ffull, 0, 80,
            "HFMA2.MMA R3, -RZ, RZ, 0, 4.76837158203125e-07")) {
        CHECK(op(1)->flags & SASS_OF_NEG);
        CHECK(op(3)->kind == SASS_OPND_FIMM && op(3)->ftype == SASS_FT_F16X2 && op(3)->imm == 8);
    }
    if (dec(0x036000000900780bull, 0x000fca0003f4e200ull, 0, 80,
            "FSETP.GEU.AND P2, PT, |R9|, 6.5827683646048100446e-37, PT")) {
        CHECK(op(2)->flags & SASS_OF_ABS);
        CHECK(op(3)->ftype == SASS_FT_F32 && op(3)->imm == 0x03600000);
    }
    if (dec(0x000000000c0a7229ull, 0x000e88000000010eull, 0, 80, "DADD R10, -R12, R14"))
        CHECK(op(0)->width == 64 && op(1)->width == 64 && (op(1)->flags & SASS_OF_NEG));
    /* special registers, conversions */
    if (dec(0x0000000000157919ull, 0x000e220000002100ull, 0, 80, "S2R R21, SR_TID.X"))
        CHECK(op(1)->kind == SASS_OPND_SREG && op(1)->reg == 33 &&
              !strcmp(sass_sreg_name(op(1)->reg), "SR_TID.X"));
    if (dec(0x0000000200037305ull, 0x000ea4000021f000ull, 0, 80, "F2I.FTZ.U32.TRUNC.NTZ R3, R2"))
        CHECK(sass_has_mod(&in, SASS_MOD_TRUNC) && sass_has_mod(&in, SASS_MOD_NTZ));
    /* branches: absolute targets computed from the pc; guard predicate */
    if (dec(0x0000004000008947ull, 0x000fea0003800000ull, 0x5e0, 80, "@!P0 BRA 0x630")) {
        CHECK(in.guard == 0 && in.guard_not == 1);
        CHECK(op(0)->kind == SASS_OPND_TARGET && op(0)->imm == 0x630);
    }
    if (dec(0x0000124000007944ull, 0x000fea0003c00000ull, 0x5a70, 80, "CALL.REL.NOINC 0x6cc0"))
        CHECK(op(0)->imm == 0x6cc0 && sass_has_mod(&in, SASS_MOD_NOINC));
    if (dec(0x0000018000067945ull, 0x000fe20003800000ull, 0x100, 80, "BSSY B6, 0x290"))
        CHECK(op(0)->kind == SASS_OPND_BAR && op(0)->reg == 6 && op(1)->imm == 0x290);
    /* warp shuffle with immediates; atomics with their predicate destination */
    if (dec(0x00a01f0000087f89ull, 0x004e2800000e0000ull, 0, 80, "SHFL.IDX PT, R8, R0, 0x5, 0x1f"))
        CHECK(op(3)->imm == 5 && op(4)->imm == 0x1f);
    if (dec(0x00000007020709a8ull, 0x0020a200081ee1c4ull, 0, 80,
            "@P0 ATOMG.E.ADD.STRONG.GPU PT, R7, [R2.64], R7"))
        CHECK(sass_has_mod(&in, SASS_MOD_STRONG) && sass_has_mod(&in, SASS_MOD_GPU) &&
              op(2)->kind == SASS_OPND_MEM);
    /* sm_75: scopes always printed; the same memory order code means something else */
    dec(0x00000000020b0381ull, 0x000ea800001ee900ull, 0, 75, "@P0 LDG.E.SYS R11, [R2]");
    /* reuse flags: recorded in ctrl, shown on the operand (yield bit set) */
    if (dec(0x000000010a087810ull, 0x040fe40007f3e0ffull, 0, 80, "IADD3 R8, P1, R10.reuse, 0x1, RZ"))
        CHECK((in.ctrl.reuse & 1) && (op(2)->flags & SASS_OF_REUSE) && in.ctrl.yield == 1);

    /* formatting into a short buffer truncates and reports the full length */
    {
        char small[6];
        int n = sass_format(&in, small, sizeof small);
        CHECK(n == (int)strlen("IADD3 R8, P1, R10.reuse, 0x1, RZ") && !strcmp(small, "IADD3"));
    }

    /* sparse tensor-core MMA (PyTorch sm_80): metadata register with its own reuse flag and
       the thread selector as operands 4 and 5; a is half as wide as in the dense shape */
    if (dec(0x0004024c4804723cull, 0x054fe20000081a04ull, 0x2520, 80,
            "HMMA.SP.16816.F32.TF32 R4, R72.reuse, R76, R4, R2.reuse, 0x0")) {
        CHECK(sass_has_mod(&in, SASS_MOD_SP) && sass_has_mod(&in, SASS_MOD_TF32));
        CHECK_EQ(in.nopnds, 6);
        CHECK(op(0)->width == 128 && op(1)->reg == 72 && op(1)->width == 128 &&
              op(2)->width == 128 && op(3)->reg == 4);
        CHECK(op(4)->kind == SASS_OPND_REG && op(4)->reg == 2 && (op(4)->flags & SASS_OF_REUSE));
        CHECK(op(5)->kind == SASS_OPND_IMM && op(5)->imm == 0);
    }
    /* BRXU: indirect branch through a uniform register, offset -(pc + 16) */
    if (dec(0xfffff06004007958ull, 0x000fea000b83ffffull, 0xf90, 80, "BRXU UR4 -0xfa0")) {
        CHECK(op(0)->kind == SASS_OPND_UREG && op(0)->reg == 4 && op(0)->width == 64);
        CHECK(op(1)->kind == SASS_OPND_IMM && op(1)->imm == -0xfa0);
    }

    /* errors: a status, a message naming pc and opcode bits, nothing half-decoded */
    uint8_t b[16] = {0};
    CHECK_EQ(sass_decode(b, 15, 0x40, 80, &in, err, sizeof err), SASS_ETRUNC);
    CHECK(strstr(err, "0x40") != NULL);
    CHECK_EQ(sass_decode(NULL, 16, 0, 80, &in, err, sizeof err), SASS_ETRUNC);
    CHECK_EQ(sass_decode(b, 16, 0, 90, &in, err, sizeof err), SASS_EARCH);
    b[0] = 0xff; b[1] = 0x0f;           /* opcode 0xfff: not an instruction */
    CHECK_EQ(sass_decode(b, 16, 0x120, 80, &in, err, sizeof err), SASS_EUNKNOWN);
    CHECK(strstr(err, "0xfff") && strstr(err, "0x120") && in.op == SASS_OP_NONE && in.nopnds == 0);
    /* IMAD with a set bit nvdisasm ignores (72): refused, not guessed */
    uint64_t w0 = 0x0000000405057224ull, w1 = 0x000fc800078e02ffull | (1ull << 8);
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(w0 >> (8 * i));
        b[8 + i] = (uint8_t)(w1 >> (8 * i));
    }
    CHECK_EQ(sass_decode(b, 16, 0, 80, &in, err, sizeof err), SASS_EFIELD);
    CHECK(strstr(err, "bit 72") && strstr(err, "IMAD"));
    /* LDGSTS is sm_80 only */
    w0 = 0x1200008008cf7faeull; w1 = 0x0005e8000b901d46ull;
    for (int i = 0; i < 8; i++) {
        b[i] = (uint8_t)(w0 >> (8 * i));
        b[8 + i] = (uint8_t)(w1 >> (8 * i));
    }
    CHECK_EQ(sass_decode(b, 16, 0, 75, &in, err, sizeof err), SASS_EUNKNOWN);
    CHECK(!strcmp(sass_op_name(SASS_OP_LDGSTS), "LDGSTS") && !strcmp(sass_mod_name(SASS_MOD_16816), "16816"));
    return CHECK_DONE();
}
