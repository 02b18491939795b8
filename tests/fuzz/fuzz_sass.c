/*
 * fuzz_sass.c - libFuzzer harness for the SASS decoder (npu_runtime/kernel/sass_decode.c,
 * sass_decode_ctl.c, sass_format.c).
 *
 * The decoder's contract: any 16 bytes (or fewer, with the length saying so) give a status,
 * never a read outside the buffer, never a crash; an accepted instruction formats into any
 * buffer size without overflowing, and the text is the length sass_format returns; a refused
 * one leaves no operands behind and comes with a message.
 *
 * Input layout: byte 0 selects the SM (75, 80, 86, 89 or an unsupported one) and whether the
 * stream is decoded at full length or with every length 0-16; the rest is the instruction
 * stream, in an exactly-sized malloc block so that ASan sees any read past its end.
 */
#include "npu_runtime/kernel/sass.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const unsigned sms[8] = {75, 80, 86, 89, 75, 80, 70, 90};
    if (size < 1)
        return 0;
    unsigned sm = sms[data[0] & 7];
    int lengths = (data[0] >> 3) & 1;
    size_t n = size - 1;
    uint8_t *code = malloc(n ? n : 1);
    if (!code)
        return 0;
    memcpy(code, data + 1, n);
    char err[192], text[256], small[9];
    for (size_t off = 0; off < n || off == 0; off += 16) {
        size_t left = n - off;
        for (size_t len = lengths ? 0 : left; len <= left && len <= 16; len++) {
            sass_insn_t in;
            sass_status_t st = sass_decode(code + off, len, off, sm, &in, err, sizeof err);
            if (st == SASS_OK) {
                int k = sass_format(&in, text, sizeof text);
                if (k <= 0 || (size_t)k >= sizeof text || strlen(text) != (size_t)k)
                    abort();
                memset(small, 0x55, sizeof small);
                if (sass_format(&in, small, 8) != k || small[8] != 0x55 || strlen(small) > 7)
                    abort();
                for (unsigned i = 0; i < in.nmods; i++)
                    if (!sass_has_mod(&in, (sass_mod_t)in.mods[i]))
                        abort();
            } else {
                if (!err[0] || in.op != SASS_OP_NONE || in.nopnds || in.nmods)
                    abort();
            }
            if (!lengths)
                break;
        }
        if (n == 0)
            break;
    }
    free(code);
    return 0;
}
