/* Fixed-size bucketed transposition table with winning-rank generalisation.
 * A bucket is chosen by the lengths key, so all the generalised entries that could
 * answer a position are in one place; buckets are long (TT_WAYS) and filled as a
 * ring, so the oldest entry of a full bucket is the one replaced. */
#include <stdlib.h>
#include <string.h>
#include "tt.h"

#define K_SHIFT 26
#define CODE_MASK ((1u << K_SHIFT) - 1)

int tt_init(TT *tt, size_t bytes)
{
    size_t n = 1;
    tt->keys = NULL;
    tt->slots = NULL;
    tt->next = NULL;
    tt->nbuckets = 0;
    if (bytes < TT_BUCKET_BYTES) return -1;
    while (n * 2 * TT_BUCKET_BYTES <= bytes) n *= 2;
    tt->keys = (uint64_t *)calloc(n * TT_WAYS, sizeof(uint64_t));
    tt->slots = (TTEntry *)calloc(n * TT_WAYS, sizeof(TTEntry));
    tt->next = (uint16_t *)calloc(n, sizeof(uint16_t));
    if (!tt->keys || !tt->slots || !tt->next) {
        tt_free(tt);
        return -1;
    }
    tt->nbuckets = n;
    return 0;
}

void tt_free(TT *tt)
{
    free(tt->keys);
    free(tt->slots);
    free(tt->next);
    tt->keys = NULL;
    tt->slots = NULL;
    tt->next = NULL;
    tt->nbuckets = 0;
}

void tt_clear(TT *tt)
{
    if (tt->keys) memset(tt->keys, 0, tt->nbuckets * TT_WAYS * sizeof(uint64_t));
    if (tt->next) memset(tt->next, 0, tt->nbuckets * sizeof(uint16_t));
}

uint64_t tt_context_bits(int trump, int seat, int misere, int must_ruff)
{
    uint64_t c = (uint64_t)trump | ((uint64_t)seat << 3) | ((uint64_t)(misere != 0) << 5) |
                 ((uint64_t)(must_ruff != 0) << 6);
    return c << 50;
}

void tt_pos(const Position *p, uint64_t ctx_bits, TTPos *out)
{
    uint64_t lkey = ctx_bits | ((uint64_t)p->leader << 48);
    for (int s = 0; s < NSUITS; s++) {
        unsigned lanes[NSEATS];
        unsigned live = 0;
        for (int h = 0; h < NSEATS; h++) {
            lanes[h] = (unsigned)(p->hand[h] >> (LANE * s)) & LANE_MASK;
            live |= lanes[h];
            lkey |= (uint64_t)popcount32(lanes[h]) << (4 * (NSEATS * s + h));
        }
        uint32_t c = 0;
        out->len[s] = popcount32(live);
        while (live) {
            int r = 31 - __builtin_clz(live);
            unsigned bit = 1u << r;
            live ^= bit;
            int owner = 0;
            while (!(lanes[owner] & bit)) owner++;
            c = (c << 2) | (uint32_t)(owner + 1);
        }
        out->code[s] = c;
    }
    out->lkey = lkey;
    /* the bucket also depends on the owners of each suit's top HASH_TOP cards, which
     * every entry therefore keeps exact; this spreads positions of equal lengths */
    uint64_t tops = 0;
    for (int s = 0; s < NSUITS; s++) {
        int k = out->len[s] < HASH_TOP ? out->len[s] : HASH_TOP;
        tops = (tops << (2 * HASH_TOP)) | (k ? out->code[s] >> (2 * (out->len[s] - k)) : 0);
    }
    uint64_t h = lkey * UINT64_C(0x9E3779B97F4A7C15) ^ tops * UINT64_C(0xC2B2AE3D27D4EB4F);
    h ^= h >> 29;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    h ^= h >> 32;
    out->bucket = (size_t)h;
}

static inline size_t bucket_index(const TT *tt, const TTPos *tp)
{
    return (tp->bucket & (tt->nbuckets - 1)) * TT_WAYS;
}

static inline int pattern_matches(const TTEntry *e, const TTPos *tp)
{
    for (int s = 0; s < NSUITS; s++) {
        int k = (int)(e->pat[s] >> K_SHIFT);
        uint32_t top = k ? tp->code[s] >> (2 * (tp->len[s] - k)) : 0;
        if (top != (e->pat[s] & CODE_MASK)) return 0;
    }
    return 1;
}

/* The top k live cards of each suit, as a card mask. */
static uint64_t top_cards(const Position *p, const uint32_t pat[NSUITS])
{
    uint64_t live = all_hands(p), rel = 0;
    for (int s = 0; s < NSUITS; s++) {
        int k = (int)(pat[s] >> K_SHIFT);
        unsigned lane = (unsigned)(live >> (LANE * s)) & LANE_MASK;
        while (k-- > 0) {
            unsigned bit = 1u << (31 - __builtin_clz(lane));
            lane ^= bit;
            rel |= (uint64_t)bit << (LANE * s);
        }
    }
    return rel;
}

static int hint_card(const Position *p, int hint)
{
    if (!hint) return -1;
    int s = (hint - 1) >> 4, idx = (hint - 1) & 15;
    unsigned lane = (unsigned)(all_hands(p) >> (LANE * s)) & LANE_MASK;
    while (lane && idx-- > 0) lane &= ~(1u << (31 - __builtin_clz(lane)));
    if (!lane) return -1;
    return LANE * s + 31 - __builtin_clz(lane);
}

static int hint_code(const Position *p, int card)
{
    if (card < 0) return 0;
    int s = card_suit(card);
    unsigned lane = (unsigned)(all_hands(p) >> (LANE * s)) & LANE_MASK;
    int above = popcount32(lane >> (card_rank(card) + 1));
    return 1 + (s << 4 | above);
}

int tt_probe(const TT *tt, const TTPos *tp, const Position *p, int need, uint64_t *rel, int *hint)
{
    size_t base = bucket_index(tt, tp);
    const uint64_t *keys = tt->keys + base;
    const TTEntry *b = tt->slots + base;
    int start = tt->next[base / TT_WAYS];
    *hint = -1;
    for (int j = 1; j <= TT_WAYS; j++) { /* newest first: the ring's last written slot */
        int i = (start - j) & (TT_WAYS - 1);
        if (keys[i] != tp->lkey || !pattern_matches(&b[i], tp)) continue;
        if (b[i].lb >= need || b[i].ub < need) {
            *rel = top_cards(p, b[i].pat);
            return b[i].lb >= need;
        }
        if (*hint < 0) *hint = hint_card(p, b[i].hint);
    }
    return -1;
}

void tt_store(TT *tt, const TTPos *tp, const Position *p, uint64_t rel, int lb, int ub, int best)
{
    uint64_t live = all_hands(p);
    uint32_t pat[NSUITS];
    for (int s = 0; s < NSUITS; s++) {
        unsigned r = (unsigned)(rel >> (LANE * s)) & LANE_MASK;
        unsigned lane = (unsigned)(live >> (LANE * s)) & LANE_MASK;
        int k = 0;
        if (r) {
            unsigned lowest = r & -r;
            k = popcount32(lane & ~(lowest - 1));
        }
        if (k < HASH_TOP) k = tp->len[s] < HASH_TOP ? tp->len[s] : HASH_TOP;
        uint32_t top = k ? tp->code[s] >> (2 * (tp->len[s] - k)) : 0;
        pat[s] = ((uint32_t)k << K_SHIFT) | top;
    }
    size_t bi = tp->bucket & (tt->nbuckets - 1);
    uint64_t *keys = tt->keys + bi * TT_WAYS;
    TTEntry *b = tt->slots + bi * TT_WAYS;
    int hint = hint_code(p, best);
    int i;
    for (i = 0; i < TT_WAYS; i++) {
        if (keys[i] == tp->lkey && memcmp(b[i].pat, pat, sizeof pat) == 0) {
            if (b[i].lb > lb) lb = b[i].lb;
            if (b[i].ub < ub) ub = b[i].ub;
            if (!hint) hint = b[i].hint;
            break;
        }
    }
    if (i == TT_WAYS) { /* not found: the oldest entry of the ring drops out */
        i = tt->next[bi];
        tt->next[bi] = (uint16_t)((i + 1) % TT_WAYS);
    }
    keys[i] = tp->lkey;
    memcpy(b[i].pat, pat, sizeof pat);
    b[i].lb = (int8_t)lb;
    b[i].ub = (int8_t)ub;
    b[i].hint = (uint8_t)hint;
}
