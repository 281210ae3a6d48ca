/* The table's key for a position (tt_pos): the lengths key, the owner codes of every
 * live card (two bits a card, highest rank first, left-aligned per suit), the group's
 * split key and the signature; built from constant tables, or with BMI2 and AVX2 where
 * the CPU runs them fast. The table that keeps the entries is tt.c. */
#include "tt_key.h"

uint64_t tt_context_bits(int trump, int seat, int misere, int must_ruff, int relaxed)
{
    uint64_t c = (uint64_t)trump | ((uint64_t)seat << 3) | ((uint64_t)(misere != 0) << 5) |
                 ((uint64_t)(must_ruff != 0) << 6) | ((uint64_t)(relaxed != 0) << 7);
    return c << 50;
}

/* pack4[l | x << 4 | y << 8]: for four ranks with live cards l and owner-code bit
 * planes x, y, the live cards' codes (highest rank first) in the low byte and twice
 * their number (the shift to append them) in the high byte. A constant table. */
#define P4_PAIR(i, r) ((((i) >> (4 + (r))) & 1) | ((((i) >> (8 + (r))) & 1) << 1))
#define P4_LIVE(i, r) (((i) >> (r)) & 1)
#define P4_V3(i) (P4_LIVE(i, 3) ? P4_PAIR(i, 3) : 0)
#define P4_V2(i) (P4_LIVE(i, 2) ? (P4_V3(i) << 2 | P4_PAIR(i, 2)) : P4_V3(i))
#define P4_V1(i) (P4_LIVE(i, 1) ? (P4_V2(i) << 2 | P4_PAIR(i, 1)) : P4_V2(i))
#define P4_V0(i) (P4_LIVE(i, 0) ? (P4_V1(i) << 2 | P4_PAIR(i, 0)) : P4_V1(i))
#define P4_N(i) (P4_LIVE(i, 0) + P4_LIVE(i, 1) + P4_LIVE(i, 2) + P4_LIVE(i, 3))
#define P4(i) (uint16_t)(P4_V0(i) | (2 * P4_N(i)) << 8)
#define P4x4(i) P4(i), P4((i) + 1), P4((i) + 2), P4((i) + 3)
#define P4x16(i) P4x4(i), P4x4((i) + 4), P4x4((i) + 8), P4x4((i) + 12)
#define P4x64(i) P4x16(i), P4x16((i) + 16), P4x16((i) + 32), P4x16((i) + 48)
#define P4x256(i) P4x64(i), P4x64((i) + 64), P4x64((i) + 128), P4x64((i) + 192)
#define P4x1024(i) P4x256(i), P4x256((i) + 256), P4x256((i) + 512), P4x256((i) + 768)
static const uint16_t pack4[4096] = {P4x1024(0), P4x1024(1024), P4x1024(2048), P4x1024(3072)};

/* Each suit's live cards' owner codes, highest rank first ending in bits 0-1 (not
 * aligned), from the bit planes b0, b1 of the codes: appended four ranks at a time. */
static void suit_codes(uint64_t live, uint64_t b0, uint64_t b1, uint32_t c[NSUITS])
{
    for (int s = 0; s < NSUITS; s++) {
        unsigned l = (unsigned)(live >> (LANE * s)), x = (unsigned)(b0 >> (LANE * s));
        unsigned y = (unsigned)(b1 >> (LANE * s));
        uint32_t cs = 0;
        for (int q = 12; q >= 0; q -= 4) {
            uint16_t e = pack4[((l >> q) & 15) | ((x >> q) & 15) << 4 | ((y >> q) & 15) << 8];
            cs = (cs << (e >> 8)) | (e & 0xFF);
        }
        c[s] = cs;
    }
}

/* The owner codes of a word pair (suits 2w, 2w+1) as TTKey.v lays them out, from
 * each suit's codes ending in bits 0-1 (c) and its length. */
static inline uint64_t code_word(uint32_t c_hi, unsigned len_hi, uint32_t c_lo, unsigned len_lo)
{
    uint32_t hi = (uint32_t)((uint64_t)c_hi << (32 - 2 * len_hi));
    uint32_t lo = (uint32_t)((uint64_t)c_lo << (32 - 2 * len_lo));
    return (uint64_t)hi << 32 | lo;
}

#if SM_TT_BMI2
/* A word pair's owner codes with BMI2, two suits at once: spread both bit planes
 * of the two lanes into 2-bit codes (dead cards are 00: no hand holds them), then
 * squeeze out the dead cards' codes with one pext; suit 2w's codes come out in the
 * low 2 x len bits, 2w+1's above them. */
__attribute__((target("bmi2"))) static inline uint64_t code_word_bmi2(uint32_t live, uint32_t b0,
                                                                      uint32_t b1, unsigned len_hi,
                                                                      unsigned len_lo)
{
    const uint64_t even = UINT64_C(0x5555555555555555);
    uint64_t codes = _pdep_u64(b0, even) | _pdep_u64(b1, even << 1);
    uint64_t both = _pext_u64(codes, _pdep_u64(live, even) * 3);
    return code_word((uint32_t)both, len_hi, (uint32_t)(both >> (2 * len_hi)), len_lo);
}
#endif

/* The body of tt_pos, made three times: with BMI2 (pext/pdep inline, and its shifts
 * by a variable count, of which tt_pos has many, take one instruction instead of
 * three), with BMI2 and AVX2 (the split suits four at once), and plain. */
static inline __attribute__((always_inline)) void tt_pos_impl(const Position *p,
                                                              uint64_t ctx_bits, TTPos *out,
                                                              int bmi2, int avx2)
{
    /* everything in locals, written out once at the end: through `out` the compiler
     * must assume stores may change *p and reload */
    const uint64_t h0 = p->hand[0], h1 = p->hand[1], h2 = p->hand[2];
    const uint64_t live = h0 | h1 | h2;
    /* the live cards of each suit, 4 bits a suit: the hands' lengths summed (a suit
     * has 13 cards, so no nibble carries) */
    const uint64_t lens = (p->lengths + (p->lengths >> 16) + (p->lengths >> 32)) & 0xFFFF;
    /* bit 63 keeps every key nonzero (0 marks an empty group slot) */
    const uint64_t lkey = ctx_bits | ((uint64_t)p->leader << 48) | (UINT64_C(1) << 63) | p->lengths;
    unsigned len[NSUITS];
    for (int s = 0; s < NSUITS; s++) len[s] = (unsigned)word_length((unsigned)lens, s);
    /* owner code bit planes: bit 0 and bit 1 of seat+1 for every live card */
    const uint64_t b0 = h0 | h2, b1 = h1 | h2;
    uint64_t code[2];
#if SM_TT_BMI2
    if (bmi2) {
        for (int w = 0; w < 2; w++)
            code[w] = code_word_bmi2((uint32_t)(live >> (32 * w)), (uint32_t)(b0 >> (32 * w)),
                                     (uint32_t)(b1 >> (32 * w)), len[2 * w], len[2 * w + 1]);
    } else
#endif
    {
        uint32_t c[NSUITS];
        suit_codes(live, b0, b1, c);
        for (int w = 0; w < 2; w++)
            code[w] = code_word(c[2 * w], len[2 * w], c[2 * w + 1], len[2 * w + 1]);
    }
    /* the split suits: the longest (the first of equals); the lengths fix them.
     * A suit's depth is its rank's entry of the list (capped by its length). The
     * group key holds suit s's top owners in byte s: which suits and how deep are
     * split makes the groups, not where in the key (so no sort: the stores still
     * go to the split copies in rank order, see store_split). */
    const uint32_t depths = p->tricks_left >= TT_SPLIT_DEEP ? depths_deep
                            : p->tricks_left >= TT_SPLIT_MID ? depths_mid : depths_low;
    uint32_t skey = 0, sig = 0;
#if SM_TT_AVX2
    if (avx2) split_suits_avx2(code, (unsigned)lens, depths, &skey, &sig, out->sigskip);
    else
#endif
    for (int s = 0; s < NSUITS; s++) {
        uint32_t half = suit_half(code, s); /* the suit's codes, left-aligned */
        unsigned want = (depths >> (8 * suit_rank(len, s))) & 0xFF;
        unsigned skip = 2 * (want < len[s] ? want : len[s]); /* bits of the fixed codes */
        out->sigskip[s] = (uint8_t)skip;
        skey |= ((half >> 24) & (0xFF00u >> skip) & 0xFFu) << (8 * s);
        /* the signature: the four codes below those (as sig_of) */
        sig |= (half << skip >> 24) << (8 * s);
    }
    out->code[0] = code[0];
    out->code[1] = code[1];
    out->sig = sig;
    out->fresh = 0;
    out->lkey = lkey;
    out->skey = skey;
    out->bucket = hash_group(lkey, skey);
    (void)bmi2;
    (void)avx2;
}

#if SM_TT_BMI2
__attribute__((target("bmi2"))) static void tt_pos_bmi2(const Position *p, uint64_t ctx_bits,
                                                        TTPos *out)
{
    tt_pos_impl(p, ctx_bits, out, 1, 0);
}

__attribute__((target("avx2,bmi2"))) static void tt_pos_avx2(const Position *p, uint64_t ctx_bits,
                                                             TTPos *out)
{
    tt_pos_impl(p, ctx_bits, out, 1, 1);
}
#endif

/* not inlined into tt_pos: its register saves would be paid by the BMI2 calls too */
__attribute__((noinline)) static void tt_pos_plain(const Position *p, uint64_t ctx_bits,
                                                   TTPos *out)
{
    tt_pos_impl(p, ctx_bits, out, 0, 0);
}

void tt_pos(const Position *p, uint64_t ctx_bits, TTPos *out)
{
#if SM_TT_BMI2
    if (use_avx2) {
        tt_pos_avx2(p, ctx_bits, out);
        return;
    }
    if (use_bmi2) {
        tt_pos_bmi2(p, ctx_bits, out);
        return;
    }
#endif
    tt_pos_plain(p, ctx_bits, out);
}
