/* tests/ptx/prelude_check.c - runs helpers of npu_runtime/kernel/ptx_prelude.h on inputs read from
 * stdin, one per line, and prints one hex result per line; prelude_check.py compares them with an
 * exact reference (Python fractions). Lines:
 *   H op bf fl m a b c   __hop(a, b, c, op, bf, fl, m)      (f16/bf16 arithmetic, values in hex)
 *   D m x                __d2f_ftz(x, m)                    (cvt.ftz.f32.f64, x: f64 bits in hex)
 *   S bits f64 x         __cvt_sat_s(x, 0, bits, nanhi)     (NaN results; x: f64 bits in hex)
 * Built with the translator's flags that matter here: -O2 -ffp-contract=off. */
#include "npu_runtime/kernel/ptx_prelude.h"
#include <stdio.h>

int main(void)
{
    char k[4];
    while (scanf("%3s", k) == 1) {
        if (k[0] == 'H') {
            int op, bf, fl, m; unsigned a, b, c;
            if (scanf("%d %d %d %d %x %x %x", &op, &bf, &fl, &m, &a, &b, &c) != 7) return 2;
            printf("%04x\n", __hop((uint16_t)a, (uint16_t)b, (uint16_t)c, op, bf, fl, m));
        } else if (k[0] == 'D') {
            int m; unsigned long long x;
            if (scanf("%d %llx", &m, &x) != 2) return 2;
            printf("%08x\n", __f2u(__d2f_ftz(__u2d(x), m)));
        } else if (k[0] == 'S') {
            int bits, f64; unsigned long long x;
            if (scanf("%d %d %llx", &bits, &f64, &x) != 3) return 2;
            printf("%016llx %016llx\n", (unsigned long long)__cvt_sat_s(__u2d(x), 0, bits, f64 || bits == 64),
                   (unsigned long long)__cvt_sat_u(__u2d(x), 0, bits, f64 || bits == 64));
        } else return 2;
    }
    return 0;
}
