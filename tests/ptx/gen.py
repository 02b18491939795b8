#!/usr/bin/env python3
"""tests/ptx/gen.py - writes the PTX-tier test cases: NAME.ptx (hand-written instruction
snippets wrapped in a kernel `test(in, out)`), NAME.in (input words) and NAME.expected (output
words computed here by an independent host reference written from the PTX ISA text, with exact
rational arithmetic for the rounding modes). Run it after changing a case; run_ptx.sh only
compares. Every thread t of one 32-thread block reads in[3t..3t+2] as a, b, c (also viewed as
f32, and x = {a,b}, y = {c,a} as 64-bit) and writes out[t*N + j] for its N results.
"""
import math
import os
import random
import struct
from fractions import Fraction as Fr

HERE = os.path.dirname(os.path.abspath(__file__))
M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1


def s32(v): v &= M32; return v - (1 << 32) if v >> 31 else v
def s64(v): v &= M64; return v - (1 << 64) if v >> 63 else v
def s16(v): v &= 0xFFFF; return v - (1 << 16) if v >> 15 else v
def s24(v): v &= 0xFFFFFF; return v - (1 << 24) if v >> 23 else v
def s8(v): v &= 0xFF; return v - 256 if v >> 7 else v
def u32(v): return v & M32


def f32(bits): return struct.unpack('<f', struct.pack('<I', bits & M32))[0]
def bits32(f): return struct.unpack('<I', struct.pack('<f', f))[0]
def f64(bits): return struct.unpack('<d', struct.pack('<Q', bits & M64))[0]
def bits64(f): return struct.unpack('<Q', struct.pack('<d', f))[0]


CNAN = 0x7FFFFFFF


def isnan32(b): return (b & 0x7F800000) == 0x7F800000 and (b & 0x7FFFFF) != 0


# ---------------------------------------------------------------- rounding reference ----
# Formats: (precision p incl. hidden bit, emin, emax, exponent bias, mantissa bits)
F32 = (24, -126, 127)
F16 = (11, -14, 15)
BF16 = (8, -126, 127)


def fmt_bits(sign, E, n, fmt):
    """n: integer significand (< 2^p) at exponent E (value n * 2^(E-p+1))"""
    p, emin, emax = fmt
    ebits = {F32: 8, F16: 5, BF16: 8}[fmt]
    mb = p - 1
    if n < (1 << mb):                        # subnormal (E == emin)
        e_field = 0
    else:
        e_field = E + emax
    return (sign << (ebits + mb)) | (e_field << mb) | (n & ((1 << mb) - 1))


def round_exact(q, mode, fmt, neg_zero=False):
    """q: Fraction (exact value). mode: 'rn','rz','rm','rp'. Returns the format's bits."""
    p, emin, emax = fmt
    ebits = {F32: 8, F16: 5, BF16: 8}[fmt]
    mb = p - 1
    inf = ((1 << ebits) - 1) << mb
    if q == 0:
        return (1 << (ebits + mb)) if neg_zero else 0
    sign = 1 if q < 0 else 0
    m = -q if sign else q
    e = m.numerator.bit_length() - m.denominator.bit_length()
    if Fr(2) ** e > m:
        e -= 1
    while Fr(2) ** (e + 1) <= m:
        e += 1
    E = max(e, emin)
    scaled = m / (Fr(2) ** (E - mb))
    n = scaled.numerator // scaled.denominator
    rem = scaled - n
    up = False
    if rem:
        if mode == 'rn':
            up = rem > Fr(1, 2) or (rem == Fr(1, 2) and n % 2 == 1)
        elif mode == 'rz':
            up = False
        elif mode == 'rm':
            up = bool(sign)
        elif mode == 'rp':
            up = not sign
    if up:
        n += 1
    if n == (1 << p):
        n >>= 1
        E += 1
    if E > emax:
        to_inf = mode == 'rn' or (mode == 'rm' and sign) or (mode == 'rp' and not sign)
        return (sign << (ebits + mb)) | (inf if to_inf else inf - 1)
    return fmt_bits(sign, E, n, fmt)


def fr32(b):
    return Fr(f32(b))


def special32(b): return (b & 0x7F800000) == 0x7F800000


def arith32(op, mode, *bs):
    """f32 add/sub/mul/fma/div with a rounding mode; NaN results canonical."""
    xs = [f32(v) for v in bs]
    if any(map(isnan32, bs)) or any(map(special32, bs)):
        # inf/nan inputs: IEEE result in double arithmetic is exact enough (inf, nan)
        with_np = {'add': lambda a, b: a + b, 'sub': lambda a, b: a - b, 'mul': lambda a, b: a * b,
                   'fma': lambda a, b, c: a * b + c,
                   'div': lambda a, b: (a / b if b != 0 else (math.copysign(math.inf, a) * math.copysign(1, b) if a != 0 and not math.isnan(a) else math.nan))}
        try:
            r = with_np[op](*xs)
        except (ZeroDivisionError, OverflowError):
            r = math.nan
        if math.isnan(r):
            return CNAN
        return bits32(r)
    fs = [Fr(x) for x in xs]
    if op == 'add': q = fs[0] + fs[1]
    elif op == 'sub': q = fs[0] - fs[1]
    elif op == 'mul': q = fs[0] * fs[1]
    elif op == 'fma': q = fs[0] * fs[1] + fs[2]
    elif op == 'div':
        if fs[1] == 0:
            if fs[0] == 0:
                return CNAN
            neg = (xs[0] < 0) != (math.copysign(1, xs[1]) < 0)
            return 0xFF800000 if neg else 0x7F800000
        q = fs[0] / fs[1]
    if q == 0:
        # sign of an exact zero
        if op in ('mul', 'div'):
            neg = (math.copysign(1, xs[0]) < 0) != (math.copysign(1, xs[1]) < 0)
        elif op == 'fma':
            pz = (math.copysign(1, xs[0]) < 0) != (math.copysign(1, xs[1]) < 0)
            if xs[0] * xs[1] == 0 and xs[2] == 0:
                neg = pz and math.copysign(1, xs[2]) < 0 if mode != 'rm' else (pz or math.copysign(1, xs[2]) < 0)
            else:
                neg = mode == 'rm'
        else:
            a, b = xs[0], (xs[1] if op == 'add' else -xs[1])
            if a == 0 and b == 0:
                sa, sb = math.copysign(1, a) < 0, math.copysign(1, b) < 0
                neg = (sa and sb) if mode != 'rm' else (sa or sb)
            else:
                neg = mode == 'rm'
        return round_exact(q, mode, F32, neg)
    return round_exact(q, mode, F32)


# ---------------------------------------------------------------- cases ----
def prmt(a, b, c, mode):
    x = (b << 32) | a
    by = [(x >> (8 * i)) & 0xFF for i in range(8)]
    s = c & 3
    tabs = {
        'f4e': [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
        'b4e': [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
        'rc8': [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
        'ecl': [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
        'ecr': [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
        'rc16': [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]],
    }
    out = []
    for i in range(4):
        if mode == '':
            sel = (c >> (4 * i)) & 0xF
            v = by[sel & 7]
            if sel & 8:
                v = 0xFF if v & 0x80 else 0
        else:
            v = by[tabs[mode][s][i]]
        out.append(v)
    return sum(v << (8 * i) for i, v in enumerate(out))


def bfe(a, pos, ln, bits, signed):
    pos &= 0xFF
    ln &= 0xFF
    msb = bits - 1
    sbit = 0
    if signed and ln:
        sbit = (a >> min(pos + ln - 1, msb)) & 1
    d = 0
    for i in range(bits):
        bit = ((a >> (pos + i)) & 1) if (i < ln and pos + i <= msb) else sbit
        d |= bit << i
    return d


def bfi(f, b, pos, ln, bits):
    pos &= 0xFF
    ln &= 0xFF
    d = b
    for i in range(ln):
        if pos + i > bits - 1:
            break
        d = (d & ~(1 << (pos + i))) | (((f >> i) & 1) << (pos + i))
    return d


def bfind(v, bits, signed, shiftamt):
    if signed and (v >> (bits - 1)) & 1:
        v = ~v & ((1 << bits) - 1)
    if signed:
        v &= (1 << (bits - 1)) - 1
    if v == 0:
        return M32
    p = v.bit_length() - 1
    return (bits - 1 - p) if shiftamt else p


def brev32(v): return int('{:032b}'.format(v)[::-1], 2)


def shf(a, b, c, left, wrap):
    n = (c & 31) if wrap else min(c, 32)
    v = (b << 32) | a
    return ((v << n) >> 32) & M32 if left else (v >> n) & M32


def divs(a, b, bits):
    if b == 0:
        return -1
    if b == -1:
        return -a
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def rems(a, b):
    if b == 0:
        return a
    if b == -1:
        return 0
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def dp4a(a, b, c, sa, sb):
    s = s32(c)
    for i in range(4):
        x = (a >> (8 * i)) & 0xFF
        y = (b >> (8 * i)) & 0xFF
        if sa: x = s8(x)
        if sb: y = s8(y)
        s += x * y
    return u32(s)


def dp2a(a, b, c, sa, sb, hi):
    s = s32(c)
    for i in range(2):
        x = (a >> (16 * i)) & 0xFFFF
        y = (b >> (8 * (i + 2 * hi))) & 0xFF
        if sa: x = s16(x)
        if sb: y = s8(y)
        s += x * y
    return u32(s)


def lop3(a, b, c, lut):
    d = 0
    for i in range(32):
        k = (((a >> i) & 1) << 2) | (((b >> i) & 1) << 1) | ((c >> i) & 1)
        d |= ((lut >> k) & 1) << i
    return d


def sat32(v): return max(-(1 << 31), min((1 << 31) - 1, v))


INT_OPS = [
    ("mul.hi.u32 %d, %a, %b;", lambda a, b, c, x, y: (a * b) >> 32),
    ("mul.hi.s32 %d, %a, %b;", lambda a, b, c, x, y: u32((s32(a) * s32(b)) >> 32)),
    ("mul.lo.u32 %d, %a, %b;", lambda a, b, c, x, y: u32(a * b)),
    ("mul.wide.s32 %z, %a, %b; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32(s32(a) * s32(b))),
    ("mul.wide.s32 %z, %a, %b; shr.b64 %z, %z, 32; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32((s32(a) * s32(b)) >> 32)),
    ("div.u32 %d, %a, %b;", lambda a, b, c, x, y: (a // b) if b else M32),
    ("rem.u32 %d, %a, %b;", lambda a, b, c, x, y: (a % b) if b else a),
    ("div.s32 %d, %a, %b;", lambda a, b, c, x, y: u32(divs(s32(a), s32(b), 32))),
    ("rem.s32 %d, %a, %b;", lambda a, b, c, x, y: u32(rems(s32(a), s32(b)))),
    ("and.b32 %s, %b, 63; shl.b32 %d, %a, %s;", lambda a, b, c, x, y: u32(a << (b & 63)) if (b & 63) < 32 else 0),
    ("and.b32 %s, %b, 63; shr.u32 %d, %a, %s;", lambda a, b, c, x, y: (a >> (b & 63)) if (b & 63) < 32 else 0),
    ("and.b32 %s, %b, 63; shr.s32 %d, %a, %s;", lambda a, b, c, x, y: u32(s32(a) >> min(b & 63, 31))),
    ("bfe.u32 %d, %a, %b, %c;", lambda a, b, c, x, y: bfe(a, b, c, 32, False)),
    ("bfe.s32 %d, %a, %b, %c;", lambda a, b, c, x, y: bfe(a, b, c, 32, True)),
    ("shr.u32 %s, %c, 8; bfi.b32 %d, %a, %c, %b, %s;", lambda a, b, c, x, y: bfi(a, c, b, c >> 8, 32)),
    ("popc.b32 %d, %a;", lambda a, b, c, x, y: bin(a).count('1')),
    ("clz.b32 %d, %a;", lambda a, b, c, x, y: 32 - a.bit_length()),
    ("brev.b32 %d, %a;", lambda a, b, c, x, y: brev32(a)),
    ("bfind.u32 %d, %a;", lambda a, b, c, x, y: bfind(a, 32, False, False)),
    ("bfind.s32 %d, %a;", lambda a, b, c, x, y: bfind(a, 32, True, False)),
    ("bfind.shiftamt.u32 %d, %a;", lambda a, b, c, x, y: bfind(a, 32, False, True)),
    ("shf.l.wrap.b32 %d, %a, %b, %c;", lambda a, b, c, x, y: shf(a, b, c, True, True)),
    ("shf.r.clamp.b32 %d, %a, %b, %c;", lambda a, b, c, x, y: shf(a, b, c, False, False)),
    ("shf.l.clamp.b32 %d, %a, %b, %c;", lambda a, b, c, x, y: shf(a, b, c, True, False)),
    ("shf.r.wrap.b32 %d, %a, %b, %c;", lambda a, b, c, x, y: shf(a, b, c, False, True)),
    ("dp4a.s32.s32 %d, %a, %b, %c;", lambda a, b, c, x, y: dp4a(a, b, c, 1, 1)),
    ("dp4a.u32.s32 %d, %a, %b, %c;", lambda a, b, c, x, y: dp4a(a, b, c, 0, 1)),
    ("dp2a.lo.s32.u32 %d, %a, %b, %c;", lambda a, b, c, x, y: dp2a(a, b, c, 1, 0, 0)),
    ("dp2a.hi.u32.s32 %d, %a, %b, %c;", lambda a, b, c, x, y: dp2a(a, b, c, 0, 1, 1)),
    ("sad.s32 %d, %a, %b, %c;", lambda a, b, c, x, y: u32(c + abs(s32(a) - s32(b)))),
    ("sad.u32 %d, %a, %b, %c;", lambda a, b, c, x, y: u32(c + abs(a - b))),
    ("min.s32 %d, %a, %b;", lambda a, b, c, x, y: u32(min(s32(a), s32(b)))),
    ("max.u32 %d, %a, %b;", lambda a, b, c, x, y: max(a, b)),
    ("abs.s32 %d, %a;", lambda a, b, c, x, y: u32(abs(s32(a)))),
    ("neg.s32 %d, %a;", lambda a, b, c, x, y: u32(-a)),
    ("not.b32 %d, %a;", lambda a, b, c, x, y: a ^ M32),
    ("and.b32 %s, %a, 3; cnot.b32 %d, %s;", lambda a, b, c, x, y: 1 if (a & 3) == 0 else 0),
    ("add.sat.s32 %d, %a, %b;", lambda a, b, c, x, y: u32(sat32(s32(a) + s32(b)))),
    ("sub.sat.s32 %d, %a, %b;", lambda a, b, c, x, y: u32(sat32(s32(a) - s32(b)))),
    ("mad.hi.u32 %d, %a, %b, %c;", lambda a, b, c, x, y: u32(((a * b) >> 32) + c)),
    ("mad.lo.s32 %d, %a, %b, %c;", lambda a, b, c, x, y: u32(a * b + c)),
    ("mul.hi.u64 %z, %x, %y; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32((x * y) >> 64)),
    ("mul.hi.u64 %z, %x, %y; shr.u64 %z, %z, 32; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32((x * y) >> 96)),
    ("mul.hi.s64 %z, %x, %y; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32((s64(x) * s64(y)) >> 64)),
    ("mul.hi.s64 %z, %x, %y; shr.u64 %z, %z, 32; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32((s64(x) * s64(y)) >> 96)),
    ("div.s64 %z, %x, %y; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32(divs(s64(x), s64(y), 64))),
    ("rem.u64 %z, %x, %y; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32((x % y) if y else x)),
    ("prmt.b32 %d, %a, %b, %c;", lambda a, b, c, x, y: prmt(a, b, c, '')),
    ("prmt.b32.f4e %d, %a, %b, %c;", lambda a, b, c, x, y: prmt(a, b, c, 'f4e')),
    ("prmt.b32.b4e %d, %a, %b, %c;", lambda a, b, c, x, y: prmt(a, b, c, 'b4e')),
    ("prmt.b32.ecl %d, %a, %b, %c;", lambda a, b, c, x, y: prmt(a, b, c, 'ecl')),
    ("prmt.b32.ecr %d, %a, %b, %c;", lambda a, b, c, x, y: prmt(a, b, c, 'ecr')),
    ("prmt.b32.rc8 %d, %a, %b, %c;", lambda a, b, c, x, y: prmt(a, b, c, 'rc8')),
    ("prmt.b32.rc16 %d, %a, %b, %c;", lambda a, b, c, x, y: prmt(a, b, c, 'rc16')),
    ("and.b32 %s, %b, 127; shl.b64 %z, %x, %s; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32(x << (b & 127)) if (b & 127) < 64 else 0),
    ("and.b32 %s, %b, 127; shl.b64 %z, %x, %s; shr.u64 %z, %z, 32; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32((x << (b & 127)) >> 32) if (b & 127) < 64 else 0),
    ("and.b32 %s, %b, 127; shr.s64 %z, %x, %s; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32(s64(x) >> min(b & 127, 63))),
    ("and.b32 %s, %b, 127; shr.s64 %z, %x, %s; shr.u64 %z, %z, 32; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32((s64(x) >> min(b & 127, 63)) >> 32)),
    ("bfe.u64 %z, %x, %b, %c; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32(bfe(x, b, c, 64, False))),
    ("bfe.s64 %z, %x, %b, %c; shr.u64 %z, %z, 32; cvt.u32.u64 %d, %z;", lambda a, b, c, x, y: u32(bfe(x, b, c, 64, True) >> 32)),
    ("popc.b64 %d, %x;", lambda a, b, c, x, y: bin(x).count('1')),
    ("clz.b64 %d, %x;", lambda a, b, c, x, y: 64 - x.bit_length()),
    ("add.cc.u32 %s, %a, %c; addc.u32 %d, %b, %a;", lambda a, b, c, x, y: u32((x + y) >> 32)),
    ("add.cc.u32 %d, %a, %c; addc.u32 %s, %b, %a;", lambda a, b, c, x, y: u32(x + y)),
    ("sub.cc.u32 %s, %a, %c; subc.u32 %d, %b, %a;", lambda a, b, c, x, y: u32((x - y) >> 32)),
    ("mad.lo.cc.u32 %s, %a, %b, %c; madc.hi.u32 %d, %a, %b, 0;", lambda a, b, c, x, y: u32((a * b + c) >> 32)),
    ("add.cc.u32 %s, %a, %b; addc.cc.u32 %s, %b, %c; addc.u32 %d, 0, 0;", lambda a, b, c, x, y: ((b + c + ((a + b) >> 32)) >> 32)),
    ("cvt.u16.u32 %h1, %a; cvt.u16.u32 %h2, %b; mul.wide.u16 %d, %h1, %h2;", lambda a, b, c, x, y: (a & 0xFFFF) * (b & 0xFFFF)),
    ("cvt.u16.u32 %h1, %a; cvt.u16.u32 %h2, %b; mul.wide.s16 %d, %h1, %h2;", lambda a, b, c, x, y: u32(s16(a) * s16(b))),
    ("cvt.s8.s32 %h1, %a; cvt.s32.s16 %d, %h1;", lambda a, b, c, x, y: u32(s8(a))),
    ("cvt.sat.s8.s32 %h1, %a; cvt.s32.s16 %d, %h1;", lambda a, b, c, x, y: u32(max(-128, min(127, s32(a))))),
    ("cvt.sat.u16.s32 %h1, %a; cvt.u32.u16 %d, %h1;", lambda a, b, c, x, y: max(0, min(65535, s32(a)))),
    ("cvt.sat.s32.u32 %d, %a;", lambda a, b, c, x, y: min(a, 0x7FFFFFFF)),
    ("setp.lt.s32 %p1, %a, %b; selp.u32 %d, 1, 0, %p1;", lambda a, b, c, x, y: int(s32(a) < s32(b))),
    ("setp.lo.u32 %p1, %a, %b; setp.hs.u32 %p2, %b, %c; and.pred %p3, %p1, %p2; selp.u32 %d, 7, 9, %p3;", lambda a, b, c, x, y: 7 if (a < b and b >= c) else 9),
    # %p0 is false (set at kernel start): p = cmp AND false, q = !cmp AND false -> both false
    ("setp.gt.and.s32 %p1|%p2, %a, %b, %p0; selp.u32 %s, 2, 0, %p1; selp.u32 %d, 1, 0, %p2; or.b32 %d, %d, %s;", lambda a, b, c, x, y: 0),
    # p = cmp OR false, q = !cmp OR false
    ("setp.ne.or.u32 %p1|%p2, %a, %c, %p0; selp.u32 %s, 2, 0, %p1; selp.u32 %d, 1, 0, %p2; or.b32 %d, %d, %s;", lambda a, b, c, x, y: 2 if a != c else 1),
    ("slct.u32.s32 %d, %a, %b, %c;", lambda a, b, c, x, y: a if s32(c) >= 0 else b),
    # after sub.cc the carry flag is the carry of a + ~b + 1 (1 = no borrow), as nvcc's int128
    # division relies on when it tests a subc chain with addc
    ("sub.cc.u32 %s, %a, %c; addc.u32 %d, 0, 0;", lambda a, b, c, x, y: 1 if a >= c else 0),
    ("sub.cc.u32 %s, %a, %c; subc.cc.u32 %s, %b, %a; addc.u32 %d, 0, 0;", lambda a, b, c, x, y: 1 if x >= y else 0),
    ("lop3.b32 %d, %a, %b, %c, 0x96;", lambda a, b, c, x, y: a ^ b ^ c),
    ("lop3.b32 %d, %a, %b, %c, 0xe8;", lambda a, b, c, x, y: (a & b) | (a & c) | (b & c)),
    ("and.b32 %s, %c, 255; lop3.b32 %d, %a, %b, %c, %s;", lambda a, b, c, x, y: lop3(a, b, c, c & 255)),
    ("mul24.lo.s32 %d, %a, %b;", lambda a, b, c, x, y: u32(s24(a) * s24(b))),
    ("mul24.hi.u32 %d, %a, %b;", lambda a, b, c, x, y: u32(((a & 0xFFFFFF) * (b & 0xFFFFFF)) >> 16)),
    ("mad24.lo.u32 %d, %a, %b, %c;", lambda a, b, c, x, y: u32((a & 0xFFFFFF) * (b & 0xFFFFFF) + c)),
    ("mul.lo.u16 %h1, %a, %b; cvt.u32.u16 %d, %h1;", lambda a, b, c, x, y: (a * b) & 0xFFFF),
    ("div.s16 %h1, %a, %b; cvt.s32.s16 %d, %h1;", lambda a, b, c, x, y: u32(divs(s16(a), s16(b), 16) if not (s16(a) == -32768 and s16(b) == -1) else -32768)),
    ("min.u16 %h1, %a, %b; cvt.u32.u16 %d, %h1;", lambda a, b, c, x, y: min(a & 0xFFFF, b & 0xFFFF)),
]




def canon(expr_ptx):
    """Float op writing %fd, then canonicalise NaN and move bits to %d."""
    return expr_ptx + " testp.notanumber.f32 %p1, %fd; mov.b32 %d, %fd; selp.b32 %d, 0x7fffffff, %d, %p1;"


def fmin(a, b, mx, nanprop=False):
    if isnan32(a) or isnan32(b):
        if nanprop or (isnan32(a) and isnan32(b)):
            return CNAN
        return b if isnan32(a) else a
    fa, fb = f32(a), f32(b)
    if fa == fb:
        neg_a = a >> 31
        if mx:
            return b if neg_a else a
        return a if neg_a else b
    if mx:
        return a if fa > fb else b
    return a if fa < fb else b


def ftz(b):
    return b & 0x80000000 if (b & 0x7F800000) == 0 else b


def cvt_f2i(b, mode, bits, signed):
    # PTX ISA cvt: a NaN source gives 0 unless the source is .f64 or the destination 64-bit, then
    # 1 << (bits - 1) (MININT / (MAXINT >> 1) + 1); the source here is always .f32
    if isnan32(b):
        return 1 << (bits - 1) if bits == 64 else 0
    v = f32(b)
    if math.isinf(v):
        r = v
    else:
        fr = Fr(v)
        if mode == 'rni':
            fl = math.floor(fr)
            d = fr - fl
            r = fl + 1 if d > Fr(1, 2) or (d == Fr(1, 2) and fl % 2) else fl
        elif mode == 'rzi': r = math.trunc(fr)
        elif mode == 'rmi': r = math.floor(fr)
        else: r = math.ceil(fr)
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if r >= hi: return hi & ((1 << bits) - 1)
    if r <= lo: return lo & ((1 << bits) - 1)
    return int(r) & ((1 << bits) - 1)


def cvt_i2f(v, mode):
    return round_exact(Fr(v), mode, F32)


def f2small(b, mode, fmt):
    if isnan32(b):
        return 0x7FFF
    v = f32(b)
    if math.isinf(v):
        return (0xFC00 if v < 0 else 0x7C00) if fmt == F16 else (0xFF80 if v < 0 else 0x7F80)
    return round_exact(Fr(v), mode, fmt, neg_zero=(b >> 31) == 1)


def h2f_bits(h):
    e, m, s = (h >> 10) & 31, h & 1023, h >> 15
    if e == 31:
        return CNAN if m else (0xFF800000 if s else 0x7F800000)
    v = Fr(m, 1 << 24) if e == 0 else Fr(m + 1024) * Fr(2) ** (e - 25)
    return round_exact(-v if s else v, 'rn', F32, neg_zero=bool(s))


def rint_f(b, mode):
    if isnan32(b): return CNAN
    v = f32(b)
    if math.isinf(v) or v == 0: return b
    fr = Fr(v)
    if mode == 'rni':
        fl = math.floor(fr); d = fr - fl
        r = fl + 1 if d > Fr(1, 2) or (d == Fr(1, 2) and fl % 2) else fl
    elif mode == 'rzi': r = math.trunc(fr)
    elif mode == 'rmi': r = math.floor(fr)
    else: r = math.ceil(fr)
    return round_exact(Fr(r), 'rn', F32, neg_zero=v < 0)


def satf(b):
    if isnan32(b): return 0
    v = f32(b)
    if v <= 0: return 0
    if v >= 1: return 0x3F800000
    return b


def cmpf(a, b, op):
    na, nb = isnan32(a), isnan32(b)
    un = na or nb
    fa, fb = f32(a), f32(b)
    base = {'eq': lambda: fa == fb, 'ne': lambda: fa != fb, 'lt': lambda: fa < fb, 'le': lambda: fa <= fb,
            'gt': lambda: fa > fb, 'ge': lambda: fa >= fb}
    if op == 'num': return not un
    if op == 'nan': return un
    if op.endswith('u') and len(op) == 3:
        return un or base[op[:2]]()
    return (not un) and base[op]()


def testp(b, k):
    # PTX ISA, testp: "As a special case, positive and negative zero are considered normal
    # numbers" (ptxas's sm_80 code for testp.normal agrees: the SASS front end found it).
    e, m = (b >> 23) & 0xFF, b & 0x7FFFFF
    return {'finite': e != 255, 'infinite': e == 255 and m == 0, 'number': not (e == 255 and m),
            'notanumber': e == 255 and m != 0, 'normal': 0 < e < 255 or (e == 0 and m == 0),
            'subnormal': e == 0 and m != 0}[k]


FLOAT_OPS = []
for m in ('rn', 'rz', 'rm', 'rp'):
    FLOAT_OPS.append((canon("add.%s.f32 %%fd, %%fa, %%fb;" % m), (lambda m: lambda a, b, c: arith32('add', m, a, b))(m)))
    FLOAT_OPS.append((canon("mul.%s.f32 %%fd, %%fa, %%fb;" % m), (lambda m: lambda a, b, c: arith32('mul', m, a, b))(m)))
    FLOAT_OPS.append((canon("fma.%s.f32 %%fd, %%fa, %%fb, %%fc;" % m), (lambda m: lambda a, b, c: arith32('fma', m, a, b, c))(m)))
    FLOAT_OPS.append((canon("div.%s.f32 %%fd, %%fa, %%fb;" % m), (lambda m: lambda a, b, c: arith32('div', m, a, b))(m)))
FLOAT_OPS += [
    (canon("sub.f32 %fd, %fa, %fb;"), lambda a, b, c: arith32('sub', 'rn', a, b)),
    (canon("add.ftz.f32 %fd, %fa, %fb;"), lambda a, b, c: ftz(arith32('add', 'rn', ftz(a), ftz(b)))),
    (canon("mul.sat.f32 %fd, %fa, %fb;"), lambda a, b, c: satf(arith32('mul', 'rn', a, b))),
    (canon("min.f32 %fd, %fa, %fb;"), lambda a, b, c: fmin(a, b, False)),
    (canon("max.f32 %fd, %fa, %fb;"), lambda a, b, c: fmin(a, b, True)),
    (canon("min.NaN.f32 %fd, %fa, %fb;"), lambda a, b, c: fmin(a, b, False, True)),
    ("abs.f32 %fd, %fa; mov.b32 %d, %fd;", lambda a, b, c: a & 0x7FFFFFFF),
    ("neg.f32 %fd, %fa; mov.b32 %d, %fd;", lambda a, b, c: a ^ 0x80000000),
    ("copysign.f32 %fd, %fa, %fb; mov.b32 %d, %fd;", lambda a, b, c: (b & 0x7FFFFFFF) | (a & 0x80000000)),
    (canon("abs.f32 %fd, %fa; sqrt.rn.f32 %fd, %fd;"), lambda a, b, c: CNAN if isnan32(a) else bits32(float(__import__('numpy').sqrt(__import__('numpy').float32(abs(f32(a))))))),
    (canon("cvt.rni.f32.f32 %fd, %fa;"), lambda a, b, c: rint_f(a, 'rni')),
    (canon("cvt.rzi.f32.f32 %fd, %fa;"), lambda a, b, c: rint_f(a, 'rzi')),
    (canon("cvt.rmi.f32.f32 %fd, %fa;"), lambda a, b, c: rint_f(a, 'rmi')),
    (canon("cvt.rpi.f32.f32 %fd, %fa;"), lambda a, b, c: rint_f(a, 'rpi')),
    (canon("cvt.sat.f32.f32 %fd, %fa;"), lambda a, b, c: satf(a)),
    ("cvt.rni.s32.f32 %d, %fa;", lambda a, b, c: cvt_f2i(a, 'rni', 32, True)),
    ("cvt.rzi.s32.f32 %d, %fa;", lambda a, b, c: cvt_f2i(a, 'rzi', 32, True)),
    ("cvt.rmi.s32.f32 %d, %fa;", lambda a, b, c: cvt_f2i(a, 'rmi', 32, True)),
    ("cvt.rpi.s32.f32 %d, %fa;", lambda a, b, c: cvt_f2i(a, 'rpi', 32, True)),
    ("cvt.rni.u32.f32 %d, %fa;", lambda a, b, c: cvt_f2i(a, 'rni', 32, False)),
    ("cvt.rzi.u16.f32 %h1, %fa; cvt.u32.u16 %d, %h1;", lambda a, b, c: cvt_f2i(a, 'rzi', 16, False)),
    ("cvt.rzi.s64.f32 %z, %fa; shr.u64 %z, %z, 32; cvt.u32.u64 %d, %z;", lambda a, b, c: cvt_f2i(a, 'rzi', 64, True) >> 32),
    ("cvt.rn.f32.s32 %fd, %a; mov.b32 %d, %fd;", lambda a, b, c: cvt_i2f(s32(a), 'rn')),
    ("cvt.rz.f32.s32 %fd, %a; mov.b32 %d, %fd;", lambda a, b, c: cvt_i2f(s32(a), 'rz')),
    ("cvt.rm.f32.u32 %fd, %a; mov.b32 %d, %fd;", lambda a, b, c: cvt_i2f(a, 'rm')),
    ("cvt.rp.f32.u32 %fd, %a; mov.b32 %d, %fd;", lambda a, b, c: cvt_i2f(a, 'rp')),
    ("cvt.rp.f32.s64 %fd, %x; mov.b32 %d, %fd;", lambda a, b, c: cvt_i2f(s64((b << 32) | a), 'rp')),
    ("cvt.rn.f16.f32 %h1, %fa; cvt.u32.u16 %d, %h1;", lambda a, b, c: f2small(a, 'rn', F16)),
    ("cvt.rz.f16.f32 %h1, %fa; cvt.u32.u16 %d, %h1;", lambda a, b, c: f2small(a, 'rz', F16)),
    ("cvt.rn.bf16.f32 %h1, %fa; cvt.u32.u16 %d, %h1;", lambda a, b, c: f2small(a, 'rn', BF16)),
    ("cvt.rn.f16x2.f32 %d, %fa, %fb;", lambda a, b, c: (f2small(a, 'rn', F16) << 16) | f2small(b, 'rn', F16)),
    ("cvt.rn.bf16x2.f32 %d, %fa, %fb;", lambda a, b, c: (f2small(a, 'rn', BF16) << 16) | f2small(b, 'rn', BF16)),
    (canon("cvt.u16.u32 %h1, %c; cvt.f32.f16 %fd, %h1;"), lambda a, b, c: h2f_bits(c & 0xFFFF)),
    (canon("mov.b32 {%h1, %h2}, %c; cvt.f32.bf16 %fd, %h2;"), lambda a, b, c: CNAN if isnan32((c >> 16) << 16) else ((c >> 16) << 16)),
    (canon("cvt.f64.f32 %da, %fa; cvt.f64.f32 %db, %fb; mul.rn.f64 %dd, %da, %db; cvt.rn.f32.f64 %fd, %dd;"),
     lambda a, b, c: CNAN if (isnan32(a) or isnan32(b)) else (arith32('mul', 'rn', a, b) if (special32(a) or special32(b)) else round_exact(fr32(a) * fr32(b), 'rn', F32, neg_zero=((a ^ b) >> 31) == 1))),
    ("set.gtu.u32.f32 %d, %fa, %fb;", lambda a, b, c: M32 if cmpf(a, b, 'gtu') else 0),
    ("slct.f32.f32 %fd, %fa, %fb, %fc; mov.b32 %d, %fd;", lambda a, b, c: a if (not isnan32(c) and f32(c) >= 0) else b),
    ("selp.f32 %fd, %fa, %fb, %p0; mov.b32 %d, %fd;", lambda a, b, c: b),
]
for k in ('finite', 'infinite', 'number', 'notanumber', 'normal', 'subnormal'):
    FLOAT_OPS.append(("testp.%s.f32 %%p1, %%fa; selp.u32 %%d, 1, 0, %%p1;" % k, (lambda k: lambda a, b, c: int(testp(a, k)))(k)))
for op in ('eq', 'ne', 'lt', 'le', 'gt', 'ge', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num', 'nan'):
    FLOAT_OPS.append(("setp.%s.f32 %%p1, %%fa, %%fb; selp.u32 %%d, 1, 0, %%p1;" % op, (lambda op: lambda a, b, c: int(cmpf(a, b, op)))(op)))


# ---- f16 / bf16 packed arithmetic (inputs: pairs of moderate halves)
def h_val(h):
    e, m, s = (h >> 10) & 31, h & 1023, h >> 15
    if e == 31: return None
    v = Fr(m, 1 << 24) if e == 0 else Fr(m + 1024) * Fr(2) ** (e - 25)
    return -v if s else v


def b_val(h):
    b = h << 16
    if isnan32(b) or special32(b): return None
    return Fr(f32(b))


def hop(op, a, b, c, bf, mode='rn'):
    val = b_val if bf else h_val
    fmt = BF16 if bf else F16
    if op == 'neg': return a ^ 0x8000
    if op == 'abs': return a & 0x7FFF
    xa, xb, xc = val(a), val(b), val(c)
    if op in ('min', 'max'):
        if xa is None or xb is None: raise ValueError('special input')
        if xa == xb: return (b if a >> 15 else a) if op == 'max' else (a if a >> 15 else b)
        return (a if xa > xb else b) if op == 'max' else (a if xa < xb else b)
    if xa is None or xb is None or (op == 'fma' and xc is None): raise ValueError('special input')
    q = {'add': lambda: xa + xb, 'sub': lambda: xa - xb, 'mul': lambda: xa * xb, 'fma': lambda: xa * xb + xc}[op]()
    neg0 = False
    if q == 0:
        if op == 'mul': neg0 = ((a ^ b) >> 15) == 1
        elif op == 'add': neg0 = (a >> 15) == 1 and (b >> 15) == 1
        elif op == 'sub': neg0 = (a >> 15) == 1 and (b >> 15) == 0
        else: neg0 = (((a ^ b) >> 15) == 1) and (c >> 15) == 1
    return round_exact(q, mode, fmt, neg0)


def h2op(op, a, b, c, bf):
    lo = hop(op, a & 0xFFFF, b & 0xFFFF, c & 0xFFFF, bf)
    hi = hop(op, a >> 16, b >> 16, c >> 16, bf)
    return (hi << 16) | lo


def relu2(v):
    out = 0
    for sh in (0, 16):
        h = (v >> sh) & 0xFFFF
        if (h & 0x7C00) == 0x7C00 and (h & 0x3FF): h = 0x7FFF
        elif h & 0x8000 and (h & 0x7FFF): h = 0
        out |= h << sh
    return out


HALF_OPS = []
for op in ('add', 'sub', 'mul'):
    HALF_OPS.append(("%s.rn.f16x2 %%d, %%a, %%b;" % op, (lambda op: lambda a, b, c: h2op(op, a, b, c, False))(op)))
    HALF_OPS.append(("%s.rn.bf16x2 %%d, %%a, %%b;" % op, (lambda op: lambda a, b, c: h2op(op, a, b, c, True))(op)))
HALF_OPS += [
    ("fma.rn.f16x2 %d, %a, %b, %c;", lambda a, b, c: h2op('fma', a, b, c, False)),
    ("fma.rn.bf16x2 %d, %a, %b, %c;", lambda a, b, c: h2op('fma', a, b, c, True)),
    ("fma.rn.relu.f16x2 %d, %a, %b, %c;", lambda a, b, c: relu2(h2op('fma', a, b, c, False))),
    ("neg.f16x2 %d, %a;", lambda a, b, c: a ^ 0x80008000),
    ("abs.bf16x2 %d, %a;", lambda a, b, c: a & 0x7FFF7FFF),
    ("min.f16x2 %d, %a, %b;", lambda a, b, c: h2op('min', a, b, c, False)),
    ("max.bf16x2 %d, %a, %b;", lambda a, b, c: h2op('max', a, b, c, True)),
    ("mov.b32 {%h1, %h2}, %a; mov.b32 {%h3, %h0}, %b; add.rn.f16 %h1, %h1, %h3; cvt.u32.u16 %d, %h1;", lambda a, b, c: hop('add', a & 0xFFFF, b & 0xFFFF, 0, False)),
    ("mov.b32 {%h1, %h2}, %a; mov.b32 {%h3, %h0}, %b; mul.rn.bf16 %h2, %h2, %h0; cvt.u32.u16 %d, %h2;", lambda a, b, c: hop('mul', a >> 16, b >> 16, 0, True)),
    ("mov.b32 {%h1, %h2}, %a; cvt.f32.f16 %fd, %h1; cvt.f32.f16 %fa, %h2; add.f32 %fd, %fd, %fa; mov.b32 %d, %fd;",
     lambda a, b, c: round_exact(h_val(a & 0xFFFF) + h_val(a >> 16), 'rn', F32, neg_zero=(a & 0x8000 != 0 and a >> 31 == 1))),
    ("mov.b32 {%h1, %h2}, %a; mov.b32 {%h3, %h0}, %b; setp.lt.f16 %p1, %h1, %h3; selp.u32 %d, 1, 0, %p1;", lambda a, b, c: int(h_val(a & 0xFFFF) < h_val(b & 0xFFFF))),
]


# ---------------------------------------------------------------- video, sm_70+ integer ----
# References from the PTX ISA text: the scalar video instructions (partSelectSignExtend,
# optSaturate, optSecondaryOp, optMerge), the SIMD ones (extractAndSignExt_2/_4, mask, .add),
# vmad, szext, bmsk, cvt.pack; then mad.hi.sat, 64-bit integer -> f16/bf16, WARP_SZ and the
# glued ".reg.f32 f;" declarations of the CUDA headers' inline asm.
def vpart(x, sel, sgn):
    """sel: None (word), 'b0'..'b3', 'h0'..'h1'"""
    if sel is None: v, w = x & M32, 32
    elif sel[0] == 'b': v, w = (x >> (8 * int(sel[1]))) & 0xFF, 8
    else: v, w = (x >> (16 * int(sel[1]))) & 0xFFFF, 16
    return v - (1 << w) if sgn and v >> (w - 1) else v


def vclamp(v, bits, sgn):
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if sgn else (0, (1 << bits) - 1)
    return max(lo, min(hi, v))


VCALC = {'add': lambda x, y: x + y, 'sub': lambda x, y: x - y, 'absdiff': lambda x, y: abs(x - y),
         'min': min, 'max': max, 'avrg': lambda x, y: (x + y + 1) >> 1 if x + y >= 0 else (x + y) >> 1,
         'eq': lambda x, y: int(x == y), 'ne': lambda x, y: int(x != y), 'lt': lambda x, y: int(x < y),
         'le': lambda x, y: int(x <= y), 'gt': lambda x, y: int(x > y), 'ge': lambda x, y: int(x >= y)}


def vscalar(op, ds, as_, bs, a, b, c, asel=None, bsel=None, dsel=None, sat=False, op2=None, mode=None):
    ta = vpart(a, asel, as_)
    if op in ('shl', 'shr'):
        tb = vpart(b, bsel, False)
        tb = min(tb, 32) if mode == 'clamp' else tb & 31
        t = ta << tb if op == 'shl' else ta >> tb
    else:
        t = VCALC[op](ta, vpart(b, bsel, bs))
    if sat:
        t = vclamp(t, 32 if dsel is None else 8 if dsel[0] == 'b' else 16, ds)
    tc = s32(c) if ds else c
    if op2 == 'add': t = t + tc
    elif op2 == 'min': t = min(t, tc)
    elif op2 == 'max': t = max(t, tc)
    t &= M32
    if dsel is not None:
        w = 8 if dsel[0] == 'b' else 16
        sh = w * int(dsel[1])
        m = ((1 << w) - 1) << sh
        t = ((t << sh) & m) | (c & ~m & M32)
    return t


def vsimd(n, op, ds, as_, bs, a, b, c, asel=None, bsel=None, mask=None, sat=False, add=False):
    w = 32 // n
    ab = (b << 32) | a
    lm = (1 << w) - 1
    asel = asel or ('10' if n == 2 else '3210')
    bsel = bsel or ('32' if n == 2 else '7654')
    lanes = set(range(n)) if mask is None else {int(ch) for ch in mask}

    def elem(sel, i, sgn):
        v = (ab >> (w * int(sel[n - 1 - i]))) & lm
        return v - (1 << w) if sgn and v >> (w - 1) else v
    d = c if add else 0
    for i in range(n):
        t = VCALC[op](elem(asel, i, as_), elem(bsel, i, bs))
        if sat: t = vclamp(t, w, ds)
        if add:
            d += t if i in lanes else 0
        else:
            d |= ((t if i in lanes else c >> (w * i)) & lm) << (w * i)
    return d & M32


def vmad(as_, bs, a, b, c, asel=None, bsel=None, nega=False, negb=False, negc=False, po=False, shift=0, sat=False):
    ta, tb = vpart(a, asel, as_), vpart(b, bsel, bs)
    signed = as_ or bs or (nega != negb) or negc
    t = ta * tb
    lsb = 0
    if po: lsb = 1
    elif nega != negb: t, lsb = ~t, 1
    elif negc: c, lsb = ~c & M32, 1
    c128 = s32(c) if signed else c
    t = (t + c128 + lsb) >> shift
    if sat: t = vclamp(t, 32, signed)
    return t & M32


def szext(a, b, clamp, sgn):
    b1 = b & 31
    if clamp and b >= 32: return a
    if b1 == 0: return 0
    v = a & ((1 << b1) - 1)
    return (v | (M32 ^ ((1 << b1) - 1))) if sgn and (a >> (b1 - 1)) & 1 else v


def bmsk(a, b, clamp):
    a1, b1 = a & 31, b & 31
    mask0 = 0 if clamp and a >= 32 else (M32 << a1) & M32
    if a1 + b1 >= 32 or (clamp and (a >= 32 or b >= 32)): mask1 = 0
    elif b1 == 0: mask1 = M32
    else: mask1 = (M32 << (a1 + b1)) & M32
    return mask0 & ~mask1 & M32


def pack_sat(a, b, c, w, sgn):
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if sgn else (0, (1 << w) - 1)
    ta, tb = max(lo, min(hi, s32(a))) & ((1 << w) - 1), max(lo, min(hi, s32(b))) & ((1 << w) - 1)
    return ((c << (2 * w)) | (ta << w) | tb) & M32


def i64_small(v, mode, fmt):
    return round_exact(Fr(v), mode, fmt)


VIDEO_OPS = [
    ("vadd.s32.u32.s32.sat %d, %a.b0, %b.h0;", lambda a, b, c, x, y: vscalar('add', 1, 0, 1, a, b, c, 'b0', 'h0', sat=True)),
    ("vsub.s32.s32.u32.sat %d, %a.h1, %b.h1;", lambda a, b, c, x, y: vscalar('sub', 1, 1, 0, a, b, c, 'h1', 'h1', sat=True)),
    ("vsub.u32.s32.s32.sat %d, %a, %b;", lambda a, b, c, x, y: vscalar('sub', 0, 1, 1, a, b, c, sat=True)),
    ("vabsdiff.s32.s32.s32.sat %d.h0, %a.b0, %b.b2, %c;", lambda a, b, c, x, y: vscalar('absdiff', 1, 1, 1, a, b, c, 'b0', 'b2', 'h0', sat=True)),
    ("vmin.s32.s32.s32.sat.add %d, %a, %b, %c;", lambda a, b, c, x, y: vscalar('min', 1, 1, 1, a, b, c, sat=True, op2='add')),
    ("vmax.u32.u32.s32.max %d, %a.b3, %b, %c;", lambda a, b, c, x, y: vscalar('max', 0, 0, 1, a, b, c, 'b3', op2='max')),
    ("vmax.s32.u32.s32.min %d, %a.h0, %b.b1, %c;", lambda a, b, c, x, y: vscalar('max', 1, 0, 1, a, b, c, 'h0', 'b1', op2='min')),
    ("vadd.u32.u32.u32.sat %d.b1, %a.b2, %b.b3, %c;", lambda a, b, c, x, y: vscalar('add', 0, 0, 0, a, b, c, 'b2', 'b3', 'b1', sat=True)),
    ("vsub.s32.s32.s32 %d.b3, %a, %b.h1, %c;", lambda a, b, c, x, y: vscalar('sub', 1, 1, 1, a, b, c, None, 'h1', 'b3')),
    ("vshl.s32.u32.u32.clamp %d, %a, %b;", lambda a, b, c, x, y: vscalar('shl', 1, 0, 0, a, b, c, mode='clamp')),
    ("vshl.u32.s32.u32.sat.clamp %d, %a.b1, %b;", lambda a, b, c, x, y: vscalar('shl', 0, 1, 0, a, b, c, 'b1', mode='clamp', sat=True)),
    ("vshr.u32.u32.u32.wrap %d, %a, %b.h1;", lambda a, b, c, x, y: vscalar('shr', 0, 0, 0, a, b, c, None, 'h1', mode='wrap')),
    ("vshr.s32.s32.u32.clamp.add %d, %a, %b.b0, %c;", lambda a, b, c, x, y: vscalar('shr', 1, 1, 0, a, b, c, None, 'b0', mode='clamp', op2='add')),
    ("vshl.u32.u32.u32.wrap %d.h1, %a.b1, %b, %c;", lambda a, b, c, x, y: vscalar('shl', 0, 0, 0, a, b, c, 'b1', None, 'h1', mode='wrap')),
    ("vset.s32.u32.lt %d, %a, %b;", lambda a, b, c, x, y: vscalar('lt', 0, 1, 0, a, b, c)),
    ("vset.u32.u32.ne.add %d, %a, %b.h1, %c;", lambda a, b, c, x, y: vscalar('ne', 0, 0, 0, a, b, c, None, 'h1', op2='add')),
    ("vset.s32.s32.ge %d.b3, %a.b1, %b.b2, %c;", lambda a, b, c, x, y: vscalar('ge', 0, 1, 1, a, b, c, 'b1', 'b2', 'b3')),
    ("vset.u32.s32.gt.max %d, %a.h0, %b.h1, %c;", lambda a, b, c, x, y: vscalar('gt', 0, 0, 1, a, b, c, 'h0', 'h1', op2='max')),
    ("vmad.s32.s32.u32.sat %d, %a, %b, -%c;", lambda a, b, c, x, y: vmad(1, 0, a, b, c, negc=True, sat=True)),
    ("vmad.u32.u32.u32.shr15 %d, %a.h0, %b.h0, %c;", lambda a, b, c, x, y: vmad(0, 0, a, b, c, 'h0', 'h0', shift=15)),
    ("vmad.s32.s32.s32.shr7.sat %d, -%a.h1, %b.b2, %c;", lambda a, b, c, x, y: vmad(1, 1, a, b, c, 'h1', 'b2', nega=True, shift=7, sat=True)),
    ("vmad.u32.u32.u32.po %d, %a.b0, %b.b1, %c;", lambda a, b, c, x, y: vmad(0, 0, a, b, c, 'b0', 'b1', po=True)),
    ("vmad.s32.u32.u32.sat %d, %a, %b, %c;", lambda a, b, c, x, y: vmad(0, 0, a, b, c, sat=True)),
    ("vmad.s32.s32.s32 %d, -%a, -%b, %c;", lambda a, b, c, x, y: vmad(1, 1, a, b, c, nega=True, negb=True)),
    ("vadd2.s32.s32.u32.sat %d, %a, %b, %c;", lambda a, b, c, x, y: vsimd(2, 'add', 1, 1, 0, a, b, c, sat=True)),
    ("vsub2.s32.s32.s32.sat %d.h0, %a.h10, %b.h32, %c;", lambda a, b, c, x, y: vsimd(2, 'sub', 1, 1, 1, a, b, c, '10', '32', '0', sat=True)),
    ("vmin2.s32.u32.u32.add %d.h10, %a.h00, %b.h22, %c;", lambda a, b, c, x, y: vsimd(2, 'min', 1, 0, 0, a, b, c, '00', '22', '10', add=True)),
    ("vavrg2.s32.s32.s32 %d.h1, %a.h01, %b.h23, %c;", lambda a, b, c, x, y: vsimd(2, 'avrg', 1, 1, 1, a, b, c, '01', '23', '1')),
    ("vabsdiff2.u32.u32.u32.add %d, %a, %b, %c;", lambda a, b, c, x, y: vsimd(2, 'absdiff', 0, 0, 0, a, b, c, add=True)),
    ("vmax2.u32.u32.u32 %d, %a.h31, %b.h02, %c;", lambda a, b, c, x, y: vsimd(2, 'max', 0, 0, 0, a, b, c, '31', '02')),
    ("vset2.s32.u32.lt %d, %a, %b, %c;", lambda a, b, c, x, y: vsimd(2, 'lt', 0, 1, 0, a, b, c)),
    ("vset2.u32.u32.ne.add %d.h1, %a, %b, %c;", lambda a, b, c, x, y: vsimd(2, 'ne', 0, 0, 0, a, b, c, mask='1', add=True)),
    ("vadd4.s32.s32.u32.sat %d, %a, %b, %c;", lambda a, b, c, x, y: vsimd(4, 'add', 1, 1, 0, a, b, c, sat=True)),
    ("vsub4.s32.s32.s32.sat %d.b0, %a.b3210, %b.b7654, %c;", lambda a, b, c, x, y: vsimd(4, 'sub', 1, 1, 1, a, b, c, '3210', '7654', '0', sat=True)),
    ("vmin4.s32.u32.u32.add %d.b20, %a.b0000, %b.b2222, %c;", lambda a, b, c, x, y: vsimd(4, 'min', 1, 0, 0, a, b, c, '0000', '2222', '20', add=True)),
    ("vavrg4.u32.u32.u32 %d, %a.b4567, %b.b0123, %c;", lambda a, b, c, x, y: vsimd(4, 'avrg', 0, 0, 0, a, b, c, '4567', '0123')),
    ("vavrg4.s32.s32.s32 %d.b321, %a, %b, %c;", lambda a, b, c, x, y: vsimd(4, 'avrg', 1, 1, 1, a, b, c, mask='321')),
    ("vabsdiff4.s32.s32.s32.sat %d.b31, %a, %b, %c;", lambda a, b, c, x, y: vsimd(4, 'absdiff', 1, 1, 1, a, b, c, mask='31', sat=True)),
    ("vmax4.s32.s32.s32 %d, %a.b7531, %b.b6420, %c;", lambda a, b, c, x, y: vsimd(4, 'max', 1, 1, 1, a, b, c, '7531', '6420')),
    ("vset4.s32.s32.le.add %d, %a, %b.b3210, %c;", lambda a, b, c, x, y: vsimd(4, 'le', 0, 1, 1, a, b, c, None, '3210', add=True)),
    ("vset4.u32.u32.eq %d.b2, %a.b1111, %b.b5555, %c;", lambda a, b, c, x, y: vsimd(4, 'eq', 0, 0, 0, a, b, c, '1111', '5555', '2')),
    ("vsub4.s32.s32.s32.add %d, %a, %b, %c;", lambda a, b, c, x, y: vsimd(4, 'sub', 1, 1, 1, a, b, c, add=True)),
    ("szext.clamp.s32 %d, %a, %b;", lambda a, b, c, x, y: szext(a, b, True, True)),
    ("szext.wrap.s32 %d, %a, %b;", lambda a, b, c, x, y: szext(a, b, False, True)),
    ("szext.clamp.u32 %d, %a, %c;", lambda a, b, c, x, y: szext(a, c, True, False)),
    ("szext.wrap.u32 %d, %a, %b;", lambda a, b, c, x, y: szext(a, b, False, False)),
    ("and.b32 %s, %c, 63; bmsk.clamp.b32 %d, %b, %s;", lambda a, b, c, x, y: bmsk(b, c & 63, True)),
    ("and.b32 %s, %c, 63; bmsk.wrap.b32 %d, %b, %s;", lambda a, b, c, x, y: bmsk(b, c & 63, False)),
    ("bmsk.clamp.b32 %d, %a, %b;", lambda a, b, c, x, y: bmsk(a, b, True)),
    ("cvt.pack.sat.s16.s32 %d, %a, %b;", lambda a, b, c, x, y: pack_sat(a, b, 0, 16, True)),
    ("shr.s32 %s, %a, 14; cvt.pack.sat.u16.s32 %d, %s, %b;", lambda a, b, c, x, y: pack_sat(s32(a) >> 14, b, 0, 16, False)),
    ("shr.s32 %s, %a, 23; cvt.pack.sat.s8.s32.b32 %d, %s, %b, %c;", lambda a, b, c, x, y: pack_sat(s32(a) >> 23, b, c, 8, True)),
    ("shr.s32 %s, %a, 22; cvt.pack.sat.u8.s32.b32 %d, %b, %s, %c;", lambda a, b, c, x, y: pack_sat(b, s32(a) >> 22, c, 8, False)),
    ("shr.s32 %s, %a, 27; cvt.pack.sat.s4.s32.b32 %d, %s, %b, %c;", lambda a, b, c, x, y: pack_sat(s32(a) >> 27, b, c, 4, True)),
    ("shr.s32 %s, %a, 29; cvt.pack.sat.u2.s32.b32 %d, %s, %b, %c;", lambda a, b, c, x, y: pack_sat(s32(a) >> 29, b, c, 2, False)),
    ("mad.hi.sat.s32 %d, %a, %b, %c;", lambda a, b, c, x, y: u32(sat32(((s32(a) * s32(b)) >> 32) + s32(c)))),
    ("mad24.hi.sat.s32 %d, %a, %b, %c;", lambda a, b, c, x, y: u32(sat32(((s24(a) * s24(b)) >> 16) + s32(c)))),
    ("and.b32 %s, %c, 63; shr.s64 %z, %x, %s; cvt.rn.f16.s64 %h1, %z; cvt.u32.u16 %d, %h1;",
     lambda a, b, c, x, y: i64_small(s64(x) >> (c & 63), 'rn', F16)),
    ("and.b32 %s, %c, 63; shr.u64 %z, %x, %s; cvt.rm.f16.u64 %h1, %z; cvt.u32.u16 %d, %h1;",
     lambda a, b, c, x, y: i64_small(x >> (c & 63), 'rm', F16)),
    ("and.b32 %s, %c, 63; shr.s64 %z, %y, %s; cvt.rp.bf16.s64 %h1, %z; cvt.u32.u16 %d, %h1;",
     lambda a, b, c, x, y: i64_small(s64(y) >> (c & 63), 'rp', BF16)),
    ("cvt.rz.bf16.u64 %h1, %y; cvt.u32.u16 %d, %h1;", lambda a, b, c, x, y: i64_small(y, 'rz', BF16)),
    # a bf16 tie plus a bit far below: a double would round the bit away first, then tie to even
    ("and.b64 %z, %x, 0xff80000000000001; cvt.rn.bf16.u64 %h1, %z; cvt.u32.u16 %d, %h1;",
     lambda a, b, c, x, y: i64_small(x & 0xff80000000000001, 'rn', BF16)),
    ("and.b64 %z, %x, 0xff80000000000000; cvt.rn.bf16.s64 %h1, %z; cvt.u32.u16 %d, %h1;",
     lambda a, b, c, x, y: i64_small(s64(x & 0xff80000000000000), 'rn', BF16)),
    ("mov.u32 %d, WARP_SZ;", lambda a, b, c, x, y: 32),
    ("{ .reg.b32 q; add.u32 q, %a, WARP_SZ; mov.u32 %d, q; }", lambda a, b, c, x, y: u32(a + 32)),
    ("cvt.u16.u32 %h1, %a; { .reg.f32 f; mov.b32 f, {0, %h1}; mov.b32 %d, f; }", lambda a, b, c, x, y: (a & 0xFFFF) << 16),
    ("{ .reg.pred q; setp.lt.u32 q, %a, %b; selp.u32 %d, 5, 6, q; }", lambda a, b, c, x, y: 5 if a < b else 6),
]


# ---------------------------------------------------------------- inputs ----
def int_inputs(rng):
    edge = [0, 1, M32, 0x80000000, 0x7FFFFFFF, 2, 31, 32, 33, 63, 64, 0xFFFF, 0x10000, 0xFF, 0x80, 0xFFFFFF80]
    words = []
    for t in range(32):
        if t < 8:
            a, b, c = edge[t], edge[(t * 5 + 3) % 16], edge[(t * 7 + 1) % 16]
        elif t < 16:
            a, b, c = rng.getrandbits(32), rng.randrange(0, 70), rng.randrange(0, 70) | (rng.randrange(0, 40) << 8)
        elif t < 20:
            a, b, c = edge[rng.randrange(16)], edge[rng.randrange(16)], edge[rng.randrange(16)]
        else:
            a, b, c = rng.getrandbits(32), rng.getrandbits(32), rng.getrandbits(32)
        words += [a, b, c]
    return words


def float_inputs(rng):
    specials = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x3F800000, 0xBF800000,
                0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0x40200000, 0xC0200000, 0x3FC00000, 0x4F000000,
                0xCF000001, 0x4B800001, 0x3F000000, 0x5F800000, 0x33800001, 0x477FF000]
    words = []
    for t in range(32):
        if t < 12:
            a, b, c = specials[t], specials[(t * 7 + 5) % 20], specials[(t * 3 + 11) % 20]
        elif t < 20:
            a = bits32(rng.uniform(-4, 4))
            b = bits32(rng.uniform(-4, 4))
            c = bits32(rng.uniform(-1e-3, 1e-3))
        elif t < 24:
            a, b, c = specials[rng.randrange(20)], bits32(rng.uniform(-100, 100)), specials[rng.randrange(20)]
        else:
            a = bits32(rng.uniform(-1e6, 1e6)); b = bits32(rng.uniform(-3, 3)); c = bits32(rng.uniform(-1e6, 1e6))
        words += [a, b, c]
    return words


def half_inputs(rng):
    def h(v):
        return f2small(bits32(v), 'rn', F16)

    def bh(v):
        return f2small(bits32(v), 'rn', BF16)
    words = []
    for t in range(32):
        if t % 2 == 0:
            vals = [h(rng.uniform(-60, 60)) | (bh(rng.uniform(-60, 60)) << 16) for _ in range(3)]
        else:
            vals = [h(rng.uniform(-2, 2)) | (bh(rng.uniform(-2, 2)) << 16) for _ in range(3)]
        if t == 3:
            vals[0] = 0x0001 | (0x0001 << 16)      # subnormals
        if t == 5:
            vals[1] = 0x8000 | (0x8000 << 16)      # -0
        words += vals
    return words


# ---------------------------------------------------------------- writer ----
HDR = """// Generated by tests/ptx/gen.py from its instruction list: {what}.
// PTX-TEST: threads=32 in=96 out={nout}
.version 8.0
.target sm_80
.address_size 64

.visible .entry test(.param .u64 pin, .param .u64 pout)
{{
	.reg .pred %p<4>;
	.reg .b32 %a, %b, %c, %d, %s, %t;
	.reg .f32 %fa, %fb, %fc, %fd;
	.reg .f64 %da, %db, %dd;
	.reg .b64 %x, %y, %z, %rin, %rout;
	.reg .b16 %h<4>;
	ld.param.u64 %rin, [pin];
	ld.param.u64 %rout, [pout];
	mov.u32 %t, %tid.x;
	mul.wide.u32 %z, %t, 12;
	add.s64 %rin, %rin, %z;
	ld.global.u32 %a, [%rin];
	ld.global.u32 %b, [%rin+4];
	ld.global.u32 %c, [%rin+8];
	mov.b32 %fa, %a;
	mov.b32 %fb, %b;
	mov.b32 %fc, %c;
	mov.b64 %x, {{%a, %b}};
	mov.b64 %y, {{%c, %a}};
	setp.ne.u32 %p0, 0, 0;
	mul.wide.u32 %z, %t, {stride};
	add.s64 %rout, %rout, %z;
"""


def write_case(name, what, ops, words, refs_args):
    n = len(ops)
    lines = [HDR.format(what=what, nout=32 * n, stride=4 * n)]
    for j, (ptx, _) in enumerate(ops):
        lines.append("\t" + ptx + "\n\tst.global.u32 [%rout+{}], %d;\n".format(4 * j))
    lines.append("\tret;\n}\n")
    with open(os.path.join(HERE, name + ".ptx"), "w") as f:
        f.write("".join(lines))
    with open(os.path.join(HERE, name + ".in"), "w") as f:
        f.write("\n".join("0x%08x" % w for w in words) + "\n")
    out = []
    for t in range(32):
        a, b, c = words[3 * t:3 * t + 3]
        for j, (ptx, ref) in enumerate(ops):
            v = ref(*refs_args(a, b, c))
            out.append("0x%08x" % (v & M32))
    with open(os.path.join(HERE, name + ".expected"), "w") as f:
        f.write("\n".join(out) + "\n")


def main():
    rng = random.Random(20260501)
    write_case("int_ops", "integer and bit instructions", INT_OPS, int_inputs(rng),
               lambda a, b, c: (a, b, c, (b << 32) | a, (a << 32) | c))
    write_case("float_ops", "f32 arithmetic, rounding modes, cvt, setp, testp", FLOAT_OPS, float_inputs(rng),
               lambda a, b, c: (a, b, c))
    write_case("half_ops", "f16/bf16 scalar and packed arithmetic", HALF_OPS, half_inputs(rng),
               lambda a, b, c: (a, b, c))
    write_case("video_ops", "video instructions, szext, bmsk, cvt.pack, mad.hi.sat, s64 -> f16/bf16, WARP_SZ",
               VIDEO_OPS, int_inputs(rng), lambda a, b, c: (a, b, c, (b << 32) | a, (a << 32) | c))


if __name__ == "__main__":
    main()
