/* Fixed-size, 4-way bucketed transposition table (one 64-byte line per bucket).
 * Replacement: a new entry goes to the front of its bucket and the last one drops
 * out, so the most recently stored positions survive. */
#include <stdlib.h>
#include <string.h>
#include "tt.h"

#define KEY1_MASK ((UINT64_C(1) << 54) - 1)
#define LB_SHIFT 54
#define UB_SHIFT 59

int tt_init(TT *tt, size_t bytes)
{
    size_t bucket_bytes = sizeof(TTKey) * TT_WAYS;
    size_t n = 1;
    tt->slots = NULL;
    tt->nbuckets = 0;
    if (bytes < bucket_bytes) return -1;
    while (n * 2 * bucket_bytes <= bytes) n *= 2;
    tt->slots = (TTKey *)calloc(n * TT_WAYS, sizeof(TTKey));
    if (!tt->slots) return -1;
    tt->nbuckets = n;
    return 0;
}

void tt_free(TT *tt)
{
    free(tt->slots);
    tt->slots = NULL;
    tt->nbuckets = 0;
}

void tt_clear(TT *tt)
{
    if (tt->slots) memset(tt->slots, 0, tt->nbuckets * TT_WAYS * sizeof(TTKey));
}

uint64_t tt_context_bits(int trump, int seat, int misere, int must_ruff)
{
    uint64_t c = (uint64_t)trump | ((uint64_t)seat << 3) | ((uint64_t)(misere != 0) << 5) |
                 ((uint64_t)(must_ruff != 0) << 6);
    return c << 52;
}

TTKey tt_key(const Position *p)
{
    uint64_t code[NSUITS];
    for (int s = 0; s < NSUITS; s++) {
        unsigned lanes[NSEATS];
        unsigned live = 0;
        for (int h = 0; h < NSEATS; h++) {
            lanes[h] = (unsigned)(p->hand[h] >> (LANE * s)) & LANE_MASK;
            live |= lanes[h];
        }
        uint64_t c = 0;
        while (live) {
            int r = 31 - __builtin_clz(live);
            unsigned bit = 1u << r;
            live ^= bit;
            int owner = 0;
            while (!(lanes[owner] & bit)) owner++;
            c = (c << 2) | (uint64_t)(owner + 1);
        }
        code[s] = c;
    }
    TTKey k;
    k.k0 = code[0] | (code[1] << 26);
    k.k1 = code[2] | (code[3] << 26) | ((uint64_t)p->leader << 52);
    return k;
}

static inline size_t bucket_of(const TT *tt, TTKey key)
{
    uint64_t h = key.k0 * UINT64_C(0x9E3779B97F4A7C15) ^ (key.k1 & KEY1_MASK) * UINT64_C(0xC2B2AE3D27D4EB4F);
    h ^= h >> 31;
    h *= UINT64_C(0xD6E8FEB86659FD93);
    h ^= h >> 32;
    return (size_t)h & (tt->nbuckets - 1);
}

static inline int slot_used(TTKey e) { return (e.k1 >> UB_SHIFT) != 0; }
static inline int same_key(TTKey e, TTKey key)
{
    return e.k0 == key.k0 && (e.k1 & KEY1_MASK) == (key.k1 & KEY1_MASK) && slot_used(e);
}

int tt_probe(const TT *tt, TTKey key, int *lb, int *ub)
{
    const TTKey *b = tt->slots + bucket_of(tt, key) * TT_WAYS;
    for (int i = 0; i < TT_WAYS; i++) {
        if (same_key(b[i], key)) {
            *lb = (int)((b[i].k1 >> LB_SHIFT) & 31);
            *ub = (int)(b[i].k1 >> UB_SHIFT) - 1;
            return 1;
        }
    }
    return 0;
}

void tt_store(TT *tt, TTKey key, int lb, int ub)
{
    TTKey *b = tt->slots + bucket_of(tt, key) * TT_WAYS;
    int i;
    for (i = 0; i < TT_WAYS; i++) {
        if (same_key(b[i], key)) {
            int olb = (int)((b[i].k1 >> LB_SHIFT) & 31);
            int oub = (int)(b[i].k1 >> UB_SHIFT) - 1;
            if (olb > lb) lb = olb;
            if (oub < ub) ub = oub;
            break;
        }
    }
    if (i == TT_WAYS) i = TT_WAYS - 1; /* not found: the last (oldest) slot drops out */
    for (; i > 0; i--) b[i] = b[i - 1];
    b[0].k0 = key.k0;
    b[0].k1 = (key.k1 & KEY1_MASK) | ((uint64_t)lb << LB_SHIFT) | ((uint64_t)(ub + 1) << UB_SHIFT);
}
