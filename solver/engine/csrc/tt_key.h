/* The table's key computation, shared by the key's maker (tt_key.c: tt_pos) and the
 * table (tt.c: the split stores make the keys of the groups an entry fits): the hashes,
 * the split depths that make the group keys, the signature, and the code paths the CPU
 * runs fast (cpu.h). Internal to those two files. */
#ifndef SM_TT_KEY_H
#define SM_TT_KEY_H

#include <string.h>
#include "cpu.h"
#include "tt.h"

/* BMI2 (pext/pdep) where the CPU has a fast one builds the codes instead of tables
 * (measured: this and the tables were a tenth of the search's time), see
 * code_word_bmi2; with AVX2 as well, tt_pos takes the four suits at once and
 * tt_probe's chunk scan all eight signatures. */
#define SM_TT_BMI2 SM_X86_PATHS
#define SM_TT_AVX2 SM_X86_PATHS
#define use_bmi2 cpu_fast_bmi2
#define use_avx2 cpu_fast_avx2

/* Four cards of each suit's half of a key word pair, 8 bits a suit: the four below
 * the cards the group key already fixes (`skip`, in bits, per suit), since every
 * entry of a group agrees with its positions on those. */
static inline uint32_t sig_of(const uint64_t w[2], const uint8_t skip[NSUITS])
{
    uint32_t sig = 0;
    for (int s = 0; s < NSUITS; s++)
        sig |= (uint32_t)(((w[s >> 1] >> ((s & 1 ? 24 : 56) - skip[s])) & 0xFF) << (8 * s));
    return sig;
}

static inline size_t hash_key(uint64_t gkey)
{
    uint64_t h = gkey * UINT64_C(0x9E3779B97F4A7C15);
    h ^= h >> 29;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    h ^= h >> 32;
    return (size_t)h;
}

/* Groups are keyed on the lengths key AND the owners of the top cards of the
 * longest suits ("split suits"; depth[j] cards of the j-th longest): positions of
 * one deal with equal lengths differ only in which cards were played, and these
 * owners tell them apart, so a group holds few entries and a probe walks a short
 * chain. An entry that keeps fewer of a split suit's top cards than the depth is
 * stored in every group it fits (each way of owning the cards it ignores).
 * Deep positions (many tricks left) have big groups of specific entries, so they
 * split finer; near the end groups are small anyway, and splitting them only
 * leaves chunks part empty (measured: fewer nodes when the table is full). */
#ifndef TT_SPLIT_MID
#define TT_SPLIT_MID 5    /* from this many tricks left, the middle depths */
#endif
#ifndef TT_SPLIT_DEEP
#define TT_SPLIT_DEEP 7   /* from this many, the deep depths */
#endif
#ifndef TT_DEPTHS_LOW
#define TT_DEPTHS_LOW 1, 0, 0, 0
#endif
#ifndef TT_DEPTHS_MID
#define TT_DEPTHS_MID 2, 1, 0, 0
#endif
#ifndef TT_DEPTHS_DEEP
#define TT_DEPTHS_DEEP 2, 1, 1, 1
#endif
/* A depth list packed a byte each, the j-th longest suit's in byte j. The lists
 * must not increase: a suit is split only if every longer one is, so the split
 * suits are the lowest ranks (store_split relies on it); a group key byte holds at
 * most four owners. */
#define TT_PACK_DEPTHS(a, b, c, d)                                                      \
    ((uint32_t)(a) | (uint32_t)(b) << 8 | (uint32_t)(c) << 16 | (uint32_t)(d) << 24)
#define TT_PACKED(list) TT_PACK_DEPTHS(list)
#define TT_DEPTHS_VALID(a, b, c, d) ((a) <= 4 && (a) >= (b) && (b) >= (c) && (c) >= (d))
#define TT_DEPTHS_OK(list) TT_DEPTHS_VALID(list)
_Static_assert(TT_DEPTHS_OK(TT_DEPTHS_LOW) && TT_DEPTHS_OK(TT_DEPTHS_MID) &&
                   TT_DEPTHS_OK(TT_DEPTHS_DEEP),
               "depth lists of at most 4 that do not increase");
static const uint32_t depths_low = TT_PACKED(TT_DEPTHS_LOW);
static const uint32_t depths_mid = TT_PACKED(TT_DEPTHS_MID);
static const uint32_t depths_deep = TT_PACKED(TT_DEPTHS_DEEP);

/* Suit s's 32 bits of a key or code word pair. */
static inline uint32_t suit_half(const uint64_t w[2], int s)
{
    return (uint32_t)(w[s >> 1] >> (s & 1 ? 0 : 32));
}

/* A group's slot hash. skey is the last thing tt_pos makes, and the search asks for
 * the slot as soon as it has the hash (the slot's miss is mostly not hidden), so
 * skey goes in with one multiply, its high half (which every bit of skey reaches),
 * onto lkey's mix, which does not wait for it; three multiplies in a row after skey
 * took about 10 cycles more (paired timing, tables of seeds 0-8: 1-5% faster, on a
 * loaded machine). Where the groups sit changes no entry, answer or replacement. */
static inline size_t hash_group(uint64_t lkey, uint32_t skey)
{
    return hash_key(lkey) ^ (size_t)(((uint64_t)skey * UINT64_C(0xD6E8FEB86659FD93)) >> 32);
}

/* Suit s's rank by length (0 = longest, the lower suit first among equals): the
 * suits before it at least as long and those after it longer. */
static inline unsigned suit_rank(const unsigned len[NSUITS], int s)
{
    unsigned rank = 0;
    for (int t = 0; t < NSUITS; t++) rank += t < s ? len[t] >= len[s] : t > s && len[t] > len[s];
    return rank;
}

/* Length of seat h in suit s, from a group key. */
static inline int suit_length(uint64_t key, int h, int s) { return (int)((key >> (16 * h + 4 * s)) & 15); }

#if SM_TT_AVX2
/* The split suits' part of tt_pos (the loop there) for the four suits at once, a
 * 32-bit lane a suit: each suit's rank by length (how many of the other keys
 * 4 x length + 3 - suit are larger: the longer suits and the lower ones as long),
 * its depth from the list capped by its length, then its fixed codes for the group
 * key, the four codes below them for the signature, and the skips, a byte a suit.
 * With it tt_pos takes 161 instructions a call instead of 227 (callgrind, tables of
 * seeds 0-1). */
__attribute__((target("avx2"))) static inline void split_suits_avx2(const uint64_t code[2],
                                                                    unsigned lens, uint32_t depths,
                                                                    uint32_t *skey, uint32_t *sig,
                                                                    uint8_t sigskip[NSUITS])
{
    /* lane s: suit s's half (code[0] holds suit 0's in its high half) and length */
    const __m128i half = _mm_shuffle_epi32(_mm_set_epi64x((long long)code[1], (long long)code[0]),
                                           _MM_SHUFFLE(2, 3, 0, 1));
    const __m128i len = _mm_and_si128(_mm_srlv_epi32(_mm_set1_epi32((int)lens),
                                                     _mm_setr_epi32(0, 4, 8, 12)),
                                      _mm_set1_epi32(15));
    const __m128i key = _mm_add_epi32(_mm_slli_epi32(len, 2), _mm_setr_epi32(3, 2, 1, 0));
    /* the other suits' keys by rotation; each larger one counts -1 */
    __m128i minus_rank =
        _mm_add_epi32(_mm_cmpgt_epi32(_mm_shuffle_epi32(key, _MM_SHUFFLE(0, 3, 2, 1)), key),
                      _mm_cmpgt_epi32(_mm_shuffle_epi32(key, _MM_SHUFFLE(1, 0, 3, 2)), key));
    minus_rank = _mm_add_epi32(
        minus_rank, _mm_cmpgt_epi32(_mm_shuffle_epi32(key, _MM_SHUFFLE(2, 1, 0, 3)), key));
    const __m128i rank = _mm_sub_epi32(_mm_setzero_si128(), minus_rank);
    const __m128i want = _mm_and_si128(
        _mm_srlv_epi32(_mm_set1_epi32((int)depths), _mm_slli_epi32(rank, 3)), _mm_set1_epi32(0xFF));
    const __m128i skip = _mm_slli_epi32(_mm_min_epu32(want, len), 1);
    const __m128i fixed = _mm_andnot_si128(_mm_srlv_epi32(_mm_set1_epi32(-1), skip), half);
    const __m128i below = _mm_sllv_epi32(half, skip);
    /* each lane's byte into byte s of a word: the top byte of fixed and below, the
     * low byte of skip */
    const __m128i tops = _mm_setr_epi8(3, 7, 11, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                       -1);
    const __m128i lows = _mm_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                       -1);
    *skey = (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi8(fixed, tops));
    *sig = (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi8(below, tops));
    uint32_t skips = (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi8(skip, lows));
    memcpy(sigskip, &skips, NSUITS); /* x86: byte s first */
}
#endif

#endif
