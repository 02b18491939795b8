#!/usr/bin/env python3
"""tests/ptx/prelude_check.py - checks rounding helpers of npu_runtime/kernel/ptx_prelude.h against
an exact reference (fractions, gen.py's round_exact) on a few hundred thousand inputs:
  - f16/bf16 add, sub, fma (also .relu, .sat, and all four rounding modes of the final rounding):
    one correctly rounded result, no double rounding through double. Inputs: random finite bit
    patterns (bf16 exponents span 2^-133..2^127, so p + c is often inexact in double), products
    that are exact ties of the format with an addend far below them (the H200 case: bf16 fma
    (0x64c0, 0xc093, 0xbd36) = 0xe5dd), and near-cancelling addends.
  - cvt.ftz.f32.f64 (__d2f_ftz), all rounding modes: tininess after rounding, as recorded on an
    H200: round to 24 bits with an unbounded exponent, flush to signed zero if below 2^-126.
  - float -> integer NaN results (__cvt_sat_s/__cvt_sat_u): 1 << (bits - 1) for an f64 source or
    a 64-bit destination, else 0.
Prints PASS/FAIL lines (run by run_prelude.sh). Usage: prelude_check.py HARNESS_BINARY [N]"""
import os
import random
import struct
import subprocess
import sys
from fractions import Fraction as Fr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen  # noqa: E402  (round_exact, h_val, b_val: the PTX tier's exact reference)

MODES = ('rn', 'rz', 'rm', 'rp')          # the prelude's numbering 0..3
OPS = {'add': 0, 'sub': 1, 'fma': 7}


def finite(h, bf):
    return (h & 0x7F80) != 0x7F80 if bf else (h & 0x7C00) != 0x7C00


def val(h, bf):
    return gen.b_val(h) if bf else gen.h_val(h)


def sig(h, bf):
    """(integer significand, exponent of its unit) of a finite nonzero value"""
    mb, bias = (7, 127) if bf else (10, 15)
    e, m = (h >> mb) & ((1 << (15 - mb)) - 1), h & ((1 << mb) - 1)
    if e == 0:
        return m, 1 - bias - mb
    return m | (1 << mb), e - bias - mb


def enc_pow2(k, sign, bf):
    """bits of +-2^k (normal or subnormal), None if out of range"""
    mb, bias = (7, 127) if bf else (10, 15)
    if k >= 1 - bias:
        e = k + bias
        return None if e >= (1 << (15 - mb)) - 1 else (sign << 15) | (e << mb)
    s = k - (1 - bias - mb)
    return None if s < 0 else (sign << 15) | (1 << s)


def reference(op, a, b, c, bf, fl, mode):
    fmt = gen.BF16 if bf else gen.F16
    x, y, z = val(a, bf), val(b, bf), val(c, bf)
    q = {'add': lambda: x + y, 'sub': lambda: x - y, 'fma': lambda: x * y + z}[op]()
    if fl & 2:                                    # .sat: clamp to [0, 1]
        q = min(max(q, Fr(0)), Fr(1))
    if fl & 8 and q < 0:                          # .relu: negative -> +0
        return 0
    if q == 0:
        if fl & 2:
            return 0                              # .sat: +0
        return gen.hop(op, a, b, c, bf)           # exact zero: sign rules (round to nearest); .relu keeps -0
    return gen.round_exact(q, mode, fmt)


def gen_half(rng, n):
    cases = []                                    # (op, a, b, c, bf, fl, mode)

    def rnd_finite(bf):
        while True:
            h = rng.getrandbits(16)
            if finite(h, bf):
                return h
    for i in range(n):
        bf = i & 1
        kind = rng.random()
        op, fl, mode = 'fma', 0, 'rn'
        if kind < 0.35:                           # random bit patterns
            a, b, c = rnd_finite(bf), rnd_finite(bf), rnd_finite(bf)
            op = ('fma', 'fma', 'add', 'sub')[rng.randrange(4)]
        elif kind < 0.75:                         # product = exact tie of the format, addend far below
            p_bits = 8 if bf else 11
            while True:
                a, b = rnd_finite(bf), rnd_finite(bf)
                if not (a & 0x7FFF and b & 0x7FFF):
                    continue
                (ma, ea), (mb_, eb) = sig(a, bf), sig(b, bf)
                P = ma * mb_
                d = P.bit_length() - p_bits
                if d > 0 and P & ((1 << d) - 1) == 1 << (d - 1):
                    break
            top = ea + eb + P.bit_length()        # 2^top > |a * b|
            c = None
            for _ in range(20):
                c = enc_pow2(top - rng.randrange(p_bits + 3, 100 if bf else 40), rng.getrandbits(1), bf)
                if c is not None:
                    break
            if c is None:
                c = rng.getrandbits(1) << 15 | 1  # smallest subnormal
            if rng.random() < 0.3:                # a few more significand bits in the addend
                c |= rng.getrandbits(3)
        else:                                     # near cancellation: c ~ -a*b
            a, b = rnd_finite(bf), rnd_finite(bf)
            pr = val(a, bf) * val(b, bf)
            fmt = gen.BF16 if bf else gen.F16
            c = gen.round_exact(-pr, MODES[rng.randrange(4)], fmt) if pr != 0 else rnd_finite(bf)
            if not finite(c, bf):
                c = rnd_finite(bf)
        r = rng.random()
        if r < 0.15:
            fl = 8                                # .relu
        elif r < 0.25:
            fl = 2                                # .sat
        elif r < 0.55 and op == 'fma':
            mode = MODES[rng.randrange(4)]        # the final rounding in every mode
        cases.append((op, a, b, c, bf, fl, mode))
    # the two triples recorded on the H200 (fma.rn.bf16)
    cases += [('fma', 0x64C0, 0xC093, 0xBD36, 1, 0, 'rn'), ('fma', 0xBEE0, 0x5754, 0x1E77, 1, 0, 'rn')]
    return cases


def d2f_ftz_ref(xbits, mode):
    x = struct.unpack('<d', struct.pack('<Q', xbits))[0]
    q = Fr(x)
    if q == 0:
        return 0x80000000 if xbits >> 63 else 0
    m = abs(q)
    if m < Fr(2) ** -126:                         # round to 24 bits, exponent unbounded
        e = m.numerator.bit_length() - m.denominator.bit_length()
        while Fr(2) ** e > m:
            e -= 1
        while Fr(2) ** (e + 1) <= m:
            e += 1
        s = m / Fr(2) ** (e - 23)
        n, rem = s.numerator // s.denominator, s - s.numerator // s.denominator
        neg = q < 0
        up = rem and (mode == 'rn' and (rem > Fr(1, 2) or (rem == Fr(1, 2) and n % 2)) or
                      mode == 'rp' and not neg or mode == 'rm' and neg)
        r = (n + (1 if up else 0)) * Fr(2) ** (e - 23)
        if r < Fr(2) ** -126:
            return 0x80000000 if neg else 0
    return gen.round_exact(q, mode, gen.F32)


def gen_d2f(rng, n):
    cases = [(0x380FFFFFE0000000, 0), (0x380FFFFFF0000000, 0), (0x3810000000000000, 0), (0x36A0000000000000, 3)]
    for i in range(n):
        k = rng.random()
        if k < 0.5:                               # around FLT_MIN: 2^-126 - j * 2^-152
            x = 0x3810000000000000 - (rng.randrange(1, 1 << 8) << 24) - rng.choice((0, 0, rng.getrandbits(24)))
        elif k < 0.8:                             # anywhere in [2^-160, 2^-120)
            x = ((rng.randrange(0x3FF - 160, 0x3FF - 120)) << 52) | rng.getrandbits(52)
        else:
            x = rng.getrandbits(63)
            if (x >> 52) == 0x7FF:
                x = 0
        cases.append((x | (rng.getrandbits(1) << 63), rng.randrange(4)))
    return cases


def main():
    exe = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 300000
    rng = random.Random(20260601)
    half = gen_half(rng, n)
    d2f = gen_d2f(rng, n // 4)
    nan = [(bits, f64) for bits in (8, 16, 32, 64) for f64 in (0, 1)]
    lines = ["H %d %d %d %d %x %x %x" % (OPS[op], bf, fl, MODES.index(mode), a, b, c) for op, a, b, c, bf, fl, mode in half]
    lines += ["D %d %x" % (m, x) for x, m in d2f]
    lines += ["S %d %d 7ff8000000000000" % (bits, f64) for bits, f64 in nan]
    out = subprocess.run([exe], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True).stdout.split("\n")
    ok = True
    bad = 0
    for i, (op, a, b, c, bf, fl, mode) in enumerate(half):
        got, want = int(out[i], 16), reference(op, a, b, c, bf, fl, mode)
        if got != want:
            bad += 1
            if bad <= 10:
                print("  %s %s bf=%d fl=%d (%04x, %04x, %04x): got %04x want %04x" % (op, mode, bf, fl, a, b, c, got, want))
    print("%s prelude_half_round (%d cases, %d differ)" % ("PASS" if bad == 0 else "FAIL", len(half), bad))
    ok &= bad == 0
    base, bad = len(half), 0
    for i, (x, m) in enumerate(d2f):
        got, want = int(out[base + i], 16), d2f_ftz_ref(x, MODES[m])
        if got != want:
            bad += 1
            if bad <= 10:
                print("  d2f_ftz %s %016x: got %08x want %08x" % (MODES[m], x, got, want))
    print("%s prelude_d2f_ftz (%d cases, %d differ)" % ("PASS" if bad == 0 else "FAIL", len(d2f), bad))
    ok &= bad == 0
    base, bad = base + len(d2f), 0
    for i, (bits, f64) in enumerate(nan):
        s, u = (int(w, 16) for w in out[base + i].split())
        hi = f64 or bits == 64
        ws, wu = ((-(1 << (bits - 1))) & ((1 << 64) - 1) if hi else 0), ((1 << (bits - 1)) if hi else 0)
        if (s, u) != (ws, wu):
            bad += 1
            print("  NaN -> %d bits (f64 source %d): got %x %x want %x %x" % (bits, f64, s, u, ws, wu))
    print("%s prelude_cvt_nan (%d cases, %d differ)" % ("PASS" if bad == 0 else "FAIL", len(nan), bad))
    ok &= bad == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
