/* Two-level transposition table with winning-rank generalisation.
 *
 * Level one maps a group key (lengths, leader, context, and the owners of the top
 * cards of the longest suits, more of them the more tricks are left) to its group;
 * level two is the group's list of chunks, newest first. Every entry that could answer
 * a position is in the position's group (an entry that ignores such a top card is
 * stored in each group it fits), so a probe scans only candidates; a 32-bit signature
 * per entry (its top four cards a suit) rules most of them out from one cache line,
 * and matching the rest is a masked compare of two words. An entry that answers moves
 * to the group's front.
 *
 * Costs measured with valgrind and perf on full deals: a probe is a short chain of
 * cache misses (group slot, chunk header, key line), hence the prefetches; building
 * the position's codes is table-driven (four ranks a step), or three pdep and a pext
 * for two suits where BMI2 is fast. Perf on four deals' full tables (20.5M probes,
 * 80% answered): with the chunk scan in SSE2 those three loads are about 60% of
 * tt_probe's samples. A probe walks 2.2 chunks on average, but 1M probes of deep
 * groups walk about 17; those chains pay: stopping the walk after 8 chunks cost
 * 18% more nodes. Where AVX2 comes with a fast BMI2, tt_probe is built a second
 * time with the chunk scan eight signatures at a time and the key compare one vector
 * test (a probe's instructions -10%, tables of seeds 0-8 about 2% faster
 * in paired timing), and tt_pos a third time with the split suits' bytes made four
 * suits at once (its instructions -29%, about 1% faster); a store's key and
 * signature are made so too. SM_TT_PORTABLE builds it without SSE2, BMI2 and AVX2.
 *
 * A pointer chase on a 2-core VM: a random read past the 1 MiB L2 costs
 * 140-170 ns (the shared L3 hardly helps) and four independent misses take about as
 * long as one, so what pays is asking early and together: the search prefetches a
 * position's group slot before its bound tests (tt_prefetch), a split store asks for
 * all its groups' slots before writing any. The slot size hardly matters: 8-byte
 * slots (the group checked in the chunk header) and 32-byte ones both timed as these.
 *
 * Measured on big searches (37M nodes, 64 MiB): keying groups on the top two cards
 * of the longest suit and the top card of the others (deep positions) cut the chunks
 * walked a probe from 17 to 5; 32-bit signatures cut the key lines read from 10 to
 * 1.6 a probe; huge pages for the table took one such search from 11 s to 8 s
 * (every probe lands on a random page: with 4 KiB pages also a TLB miss). Finer
 * groups fill their chunks less, which is why replacement keeps what answers.
 *
 * Replacement: chunks are handed out from a pool in order; when the pool is used up
 * a ring hand takes back the next chunk none of whose entries answered a probe since
 * the ring last passed it (a "clock"), unlinking it from its group's list (the list
 * is doubly linked, so any chunk can go). */
#define _DEFAULT_SOURCE /* madvise */
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif
#include "tt_key.h"
#if defined(__SSE2__) && !defined(SM_TT_PORTABLE)
#include <emmintrin.h>
#endif

_Static_assert(sizeof(TTChunk) % 64 == 0, "chunks are whole cache lines");

/* Memory for a big array, 64-byte aligned; on Linux 2 MiB aligned and marked for
 * transparent huge pages, because probes land on random pages and with 4 KiB
 * pages nearly every one is a TLB miss on top of the cache miss. The size is not
 * rounded up: the memory bound holds (a partial last 2 MiB stays in small pages). */
static void *big_alloc(size_t bytes)
{
    bytes = (bytes + 63) / 64 * 64;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    const size_t huge = (size_t)2 << 20;
    if (bytes >= huge) {
        void *m = NULL;
        if (posix_memalign(&m, huge, bytes) != 0) return NULL;
        madvise(m, bytes / huge * huge, MADV_HUGEPAGE);
        return m;
    }
#endif
    return aligned_alloc(64, bytes);
}

int tt_init(TT *tt, size_t bytes)
{
    memset(tt, 0, sizeof *tt);
    size_t n = bytes / TT_BUCKET_BYTES;
    if (n == 0) return -1;
    size_t g = 2;
    while (g * 2 <= 2 * n) g *= 2; /* the largest power of two <= 2n, so n < g */
    /* the chunks get what the group slots leave, but never more than 3/4 of the
     * slots: a group owns at least one chunk, so the slots stay at most 3/4 full */
    n = (bytes - g * sizeof(TTGroup)) / (sizeof(TTChunk) + sizeof(TTChunkLink));
    if (n > g / 4 * 3) n = g / 4 * 3;
    if (n == 0) n = 1;
    if (n >= TT_NONE) n = TT_NONE - 1;
    tt->groups = (TTGroup *)big_alloc(g * sizeof(TTGroup));
    tt->chunks = (TTChunk *)big_alloc(n * sizeof(TTChunk));
    tt->links = (TTChunkLink *)big_alloc(n * sizeof(TTChunkLink));
    if (!tt->groups || !tt->chunks || !tt->links) {
        tt_free(tt);
        return -1;
    }
    tt->ngroups = g;
    tt->nbuckets = n;
    tt_clear(tt);
    return 0;
}

void tt_free(TT *tt)
{
    free(tt->groups);
    free(tt->chunks);
    free(tt->links);
    memset(tt, 0, sizeof *tt);
}

void tt_clear(TT *tt)
{
    /* chunks at or past `used` are free whatever they hold, so only groups are wiped */
    if (tt->groups) memset(tt->groups, 0, tt->ngroups * sizeof(TTGroup));
    tt->used = 0;
    tt->ring = 0;
}

/* The group slot of (lkey, skey), or of the empty slot where it would go. Never
 * loops: the group table is at most 3/4 full. */
static size_t find_group(const TT *tt, uint64_t lkey, uint32_t skey, size_t hash)
{
    size_t mask = tt->ngroups - 1, i = hash & mask;
    while (tt->groups[i].lkey && (tt->groups[i].lkey != lkey || tt->groups[i].skey != skey))
        i = (i + 1) & mask;
    return i;
}

static size_t home_slot(const TT *tt, const TTGroup *g)
{
    return hash_group(g->lkey, g->skey) & (tt->ngroups - 1);
}

/* Remove the group in slot i, shifting later members of its probe run back so
 * lookups keep working without tombstones. */
static void delete_group(TT *tt, size_t i)
{
    size_t mask = tt->ngroups - 1, j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (!tt->groups[j].lkey) break;
        size_t k = home_slot(tt, &tt->groups[j]);
        /* the entry at j may move to i unless its home lies cyclically in (i, j] */
        int stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (!stays) {
            tt->groups[i] = tt->groups[j];
            i = j;
        }
    }
    tt->groups[i].lkey = 0;
}

/* Take chunk c out of its group's list (dropping the group if c was its only one). */
static void unlink_chunk(TT *tt, uint32_t c)
{
    const TTChunkLink *l = &tt->links[c];
    uint32_t next = tt->chunks[c].next, prev = l->prev;
    if (next != TT_NONE) tt->links[next].prev = prev;
    if (prev != TT_NONE) {
        tt->chunks[prev].next = next;
        return;
    }
    size_t i = find_group(tt, l->lkey, l->skey, hash_group(l->lkey, l->skey));
    if (!tt->groups[i].lkey) return;
    if (next != TT_NONE) tt->groups[i].chunk = next;
    else delete_group(tt, i);
}

#ifndef TT_CLOCK_RUN
#define TT_CLOCK_RUN 16    /* at most this many chunks passed over for one taken */
#endif

/* A chunk for a new entry: a fresh one while the pool lasts, then the next one
 * the ring reaches whose entries did not answer a probe since the ring last
 * passed ("clock" replacement, a cheap LRU), taken out of its group. Plain
 * oldest-first is not enough once groups are small: a group that gets no new
 * entries keeps its useful ones in an old chunk, which would go however often
 * they answer. */
static uint32_t take_chunk(TT *tt)
{
    uint32_t c;
    if (tt->used < tt->nbuckets) return (uint32_t)tt->used++;
    for (int run = 0;; run++) {
        c = (uint32_t)tt->ring;
        tt->ring = (tt->ring + 1) % tt->nbuckets;
        TTChunk *ch = &tt->chunks[c];
        if (!ch->used || run >= TT_CLOCK_RUN) break;
        ch->used = 0;
    }
    unlink_chunk(tt, c);
    return c;
}

/* The compare mask of a key word (or of a word of 16-bit signatures): owner codes
 * are never 0, so the kept cards of a suit are exactly its nonzero 2-bit groups,
 * which run down from the top of its half. */
static inline uint64_t key_mask(uint64_t v)
{
    uint64_t nz = (v | v >> 1) & UINT64_C(0x5555555555555555);
    return nz | nz << 1;
}

/* The top cards of each suit that the key compares, as a card mask. Not inlined
 * (nor is hint_card): in tt_probe their registers would be saved on every probe,
 * for what the BMI2 build never calls and under a tenth of the probes call. */
__attribute__((noinline)) static uint64_t top_cards(const Position *p, const TTKey *key)
{
    uint64_t live = all_hands(p), rel = 0;
    const uint64_t m[2] = {key_mask(key->v[0]), key_mask(key->v[1])};
    for (int s = 0; s < NSUITS; s++) {
        int k = popcount32(suit_half(m, s)) / 2;
        if (!k) continue;
        unsigned lane = (unsigned)(live >> (LANE * s)) & LANE_MASK;
        /* drop the len - k lowest cards (k <= len: the key was made from these lengths) */
        for (int drop = popcount32(lane) - k; drop > 0; drop--) lane &= lane - 1;
        rel |= (uint64_t)lane << (LANE * s);
    }
    return rel;
}

#if SM_TT_BMI2
/* top_cards with BMI2: the key's kept codes of a suit are its top k slots, so one
 * pext per word gives each suit's kept slots as the top k of 16 bits; shifted down
 * to the suit's length they mark the top k of its compressed live cards. A word's
 * two suits are joined in the order of their live cards (suit 2w's first), so one
 * pdep puts both back in their lanes. */
__attribute__((target("bmi2,popcnt"))) static inline uint64_t top_cards_pdep(const Position *p,
                                                                            const TTKey *key)
{
    const uint64_t even = UINT64_C(0x5555555555555555);
    const uint64_t live = all_hands(p);
    uint64_t rel = 0;
    for (int w = 0; w < 2; w++) {
        /* suit 2w in bits 16-31, suit 2w+1 in bits 0-15 (the layout of the key words) */
        const uint32_t kept = (uint32_t)_pext_u64(key->v[w] | key->v[w] >> 1, even);
        const uint32_t lanes = (uint32_t)(live >> (32 * w));
        const unsigned n_hi = (unsigned)__builtin_popcount(lanes & 0xFFFFu);
        const unsigned n_lo = (unsigned)__builtin_popcount(lanes >> 16);
        const uint64_t top = ((uint64_t)kept >> (32 - n_hi)) |
                             (uint64_t)((kept & 0xFFFFu) >> (16 - n_lo)) << n_hi;
        rel |= _pdep_u64(top, lanes) << (32 * w);
    }
    return rel;
}

/* a call where the caller is not built for BMI2 */
__attribute__((target("bmi2,popcnt"), noinline)) static uint64_t top_cards_bmi2(const Position *p,
                                                                               const TTKey *key)
{
    return top_cards_pdep(p, key);
}
#endif

__attribute__((noinline)) static int hint_card(const Position *p, int hint)
{
    if (!hint) return -1;
    int s = (hint - 1) >> 4, idx = (hint - 1) & 15;
    unsigned lane = (unsigned)(all_hands(p) >> (LANE * s)) & LANE_MASK;
    while (lane && idx-- > 0) lane &= ~(1u << (31 - __builtin_clz(lane)));
    if (!lane) return -1;
    return LANE * s + 31 - __builtin_clz(lane);
}

/* Slot k of a word of owner codes (2 bits a slot) holds `mover` (seat + 1): bit 2k. */
static inline uint64_t slots_of(uint64_t code, unsigned mover)
{
    const uint64_t even = UINT64_C(0x5555555555555555);
    uint64_t x = code ^ (even * mover); /* 00 where a slot holds mover */
    return ~(x | x >> 1) & even;
}

/* The stored leads (hint codes) that name a card of the player to move (`mover`,
 * seat + 1), one bit each: hint h = 1 + (s << 4 | idx) is bit (h - 1) ^ 31, since
 * compressing a code word's slots puts suit 2w's slot idx at bit 32w + 31 - idx and
 * suit 2w+1's at 32w + 15 - idx. A slot past a suit's length holds 0, never a seat. */
static uint64_t mover_leads(const TTPos *tp, unsigned mover)
{
    uint64_t out = 0;
    for (int w = 0; w < 2; w++) {
        uint64_t x = slots_of(tp->code[w], mover);
        /* each 32-bit half's even bits into its low 16 bits, then the halves joined */
        x = (x | x >> 1) & UINT64_C(0x3333333333333333);
        x = (x | x >> 2) & UINT64_C(0x0F0F0F0F0F0F0F0F);
        x = (x | x >> 4) & UINT64_C(0x00FF00FF00FF00FF);
        x = (x | x >> 8) & UINT64_C(0x0000FFFF0000FFFF);
        out |= (uint64_t)(uint32_t)(x >> 16 | x) << (32 * w);
    }
    return out;
}

#if SM_TT_BMI2
/* mover_leads with pext doing the compressing */
__attribute__((target("bmi2"), noinline)) static uint64_t mover_leads_bmi2(const TTPos *tp,
                                                                         unsigned mover)
{
    const uint64_t even = UINT64_C(0x5555555555555555);
    return _pext_u64(slots_of(tp->code[0], mover), even) |
           _pext_u64(slots_of(tp->code[1], mover), even) << 32;
}
#endif

static int hint_code(const Position *p, int card)
{
    if (card < 0) return 0;
    int s = card_suit(card);
    unsigned lane = (unsigned)(all_hands(p) >> (LANE * s)) & LANE_MASK;
    int above = popcount32(lane >> (card_rank(card) + 1));
    return 1 + (s << 4 | above);
}

/* A lead to try first where no entry of the position answered or had one: the stored
 * lead of the group entry nearest the position, among those whose lead is a card of
 * the player to move (nearest: the fewest signature bits that differ where the entry
 * compares them; the signature lies in the chunk header the probe has just read, so
 * no key line is fetched; whose cards the leads name comes from one bit table of the
 * mover's leads, made from the position's owner codes, not from each entry's card).
 * The entries of a group agree with the position on the suit lengths, the leader,
 * the context and the owners of the longest suits' top cards: close relatives, and a
 * lead that cut there often cuts here. Most of the search's nodes go to first leads
 * that fail (an oracle that knows which lead cuts saves 40%), and most searched
 * positions are new to the table. Table nodes: seeds 0..3 -10%, 4..7 -7%, 8..11
 * -17%, 12..15 -17%, 16..23 -12%; declaration nodes (seeds 0, 1) -10%, misère (seed
 * 0) -11%. */
__attribute__((noinline)) static int group_hint(const TT *tt, uint32_t head, const Position *p,
                                                const TTPos *tp)
{
    int best = 0, fewest = INT32_MAX;
    const unsigned mover = (unsigned)p->to_move + 1;
#if SM_TT_BMI2
    const uint64_t mine = use_bmi2 ? mover_leads_bmi2(tp, mover) : mover_leads(tp, mover);
#else
    const uint64_t mine = mover_leads(tp, mover);
#endif
    for (uint32_t ci = head; ci != TT_NONE; ci = tt->chunks[ci].next) {
        const TTChunk *ch = &tt->chunks[ci];
        for (int i = ch->count - 1; i >= 0; i--) { /* newest first: ties go to it */
            unsigned h = ch->hint[i];
            if (!h || !(mine >> ((h - 1) ^ 31) & 1)) continue;
            int differ = popcount32((tp->sig ^ ch->sigv[i]) & (uint32_t)key_mask(ch->sigv[i]));
            if (differ >= fewest) continue;
            fewest = differ;
            best = (int)h;
        }
    }
    return hint_card(p, best);
}

/* Move entry i of chunk ci to the front of its group (the newest slot of the head
 * chunk, which it swaps with): entries that keep answering are found first and
 * are the last to be replaced. */
static inline void promote(TT *tt, uint32_t head, uint32_t ci, int i)
{
    TTChunk *h = &tt->chunks[head], *c = &tt->chunks[ci];
    int j = h->count - 1;
    if (h == c && i == j) return;
    TTKey k = c->key[i];
    uint32_t sv = c->sigv[i];
    int8_t lb = c->lb[i], ub = c->ub[i];
    uint8_t hint = c->hint[i];
    c->key[i] = h->key[j];
    c->sigv[i] = h->sigv[j];
    c->lb[i] = h->lb[j];
    c->ub[i] = h->ub[j];
    c->hint[i] = h->hint[j];
    h->key[j] = k;
    h->sigv[j] = sv;
    h->lb[j] = lb;
    h->ub[j] = ub;
    h->hint[j] = hint;
}

/* Entries of a chunk whose signature agrees with the position's, one bit each.
 * With SSE2 (every x86-64) four signatures at a time, branch-free: the chunk scan
 * is most of a probe's instructions (2.2 chunks a probe, some groups' chains
 * are 17 long). */
#if defined(__SSE2__) && !defined(SM_TT_PORTABLE)
static inline unsigned candidates(const TTChunk *ch, uint32_t sig)
{
    const __m128i pos = _mm_set1_epi32((int)sig), m55 = _mm_set1_epi32(0x55555555);
    unsigned out = 0;
    for (int i = 0; i < TT_CHUNK; i += 4) {
        __m128i v = _mm_load_si128((const __m128i *)&ch->sigv[i]);
        __m128i nz = _mm_and_si128(_mm_or_si128(v, _mm_srli_epi32(v, 1)), m55);
        __m128i x = _mm_and_si128(_mm_xor_si128(v, pos), _mm_or_si128(nz, _mm_slli_epi32(nz, 1)));
        __m128i z = _mm_cmpeq_epi32(x, _mm_setzero_si128());
        out |= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(z)) << i;
    }
    return out & ((1u << ch->count) - 1);
}

/* Entries of a chunk with exactly this signature, one bit each. */
static inline unsigned equal_sigs(const TTChunk *ch, uint32_t sv)
{
    const __m128i want = _mm_set1_epi32((int)sv);
    unsigned m = 0;
    for (int i = 0; i < TT_CHUNK; i += 4) {
        __m128i v = _mm_load_si128((const __m128i *)&ch->sigv[i]);
        m |= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, want))) << i;
    }
    return m & ((1u << ch->count) - 1);
}
#else
/* Two signatures a 64-bit word (key_mask works on them as on key words). */
static inline unsigned candidates(const TTChunk *ch, uint32_t sig)
{
    const uint64_t pos = (uint64_t)sig * UINT64_C(0x0000000100000001);
    unsigned out = 0;
    for (int i = 0; i < TT_CHUNK; i += 2) {
        uint64_t v = ch->sigv[i] | (uint64_t)ch->sigv[i + 1] << 32;
        uint64_t x = (v ^ pos) & key_mask(v);
        out |= ((unsigned)((uint32_t)x == 0) | (unsigned)((x >> 32) == 0) << 1) << i;
    }
    return out & ((1u << ch->count) - 1);
}

/* Entries of a chunk with exactly this signature, one bit each. */
static inline unsigned equal_sigs(const TTChunk *ch, uint32_t sv)
{
    unsigned m = 0;
    for (int i = 0; i < TT_CHUNK; i++) m |= (unsigned)(ch->sigv[i] == sv) << i;
    return m & ((1u << ch->count) - 1);
}
#endif

#if SM_TT_AVX2
/* candidates with AVX2, eight signatures at a time: half the vector instructions of
 * the chunk scan (callgrind, tables of seeds 0-1: tt_probe 765M -> 714M, and the
 * vector key compare below -> 690M) */
__attribute__((target("avx2"))) static inline unsigned candidates_avx2(const TTChunk *ch,
                                                                      uint32_t sig)
{
#if TT_CHUNK < 8
    return candidates(ch, sig);
#else
    const __m256i pos = _mm256_set1_epi32((int)sig), m55 = _mm256_set1_epi32(0x55555555);
    unsigned out = 0;
    for (int i = 0; i < TT_CHUNK; i += 8) {
        __m256i v = _mm256_load_si256((const __m256i *)&ch->sigv[i]);
        __m256i nz = _mm256_and_si256(_mm256_or_si256(v, _mm256_srli_epi32(v, 1)), m55);
        __m256i x = _mm256_and_si256(_mm256_xor_si256(v, pos),
                                     _mm256_or_si256(nz, _mm256_slli_epi32(nz, 1)));
        __m256i z = _mm256_cmpeq_epi32(x, _mm256_setzero_si256());
        out |= (unsigned)_mm256_movemask_ps(_mm256_castsi256_ps(z)) << i;
    }
    return out & ((1u << ch->count) - 1);
#endif
}

/* key_differs (below) with both words in one register */
__attribute__((target("avx2"))) static inline int key_differs_avx(const TTKey *k, __m128i code)
{
    const __m128i m55 = _mm_set1_epi32(0x55555555);
    __m128i v = _mm_load_si128((const __m128i *)k->v);
    __m128i nz = _mm_and_si128(_mm_or_si128(v, _mm_srli_epi64(v, 1)), m55);
    return !_mm_testz_si128(_mm_xor_si128(v, code), _mm_or_si128(nz, _mm_slli_epi64(nz, 1)));
}
#endif

/* Whether key k leaves out a card of the position whose owner codes are c0, c1 (a
 * kept card of another owner). */
static inline int key_differs(const TTKey *k, uint64_t c0, uint64_t c1)
{
    return (((c0 ^ k->v[0]) & key_mask(k->v[0])) | ((c1 ^ k->v[1]) & key_mask(k->v[1]))) != 0;
}

/* Ask for a chunk's header early: a probe is a chain of cache misses. Its key
 * lines are not fetched: few entries pass the signature test. */
static inline void prefetch_head(const TTChunk *ch) { __builtin_prefetch(ch); }

/* The body of tt_probe, made twice like tt_pos's: with AVX2 (and BMI2, inline) and
 * without. */
static inline __attribute__((always_inline)) int tt_probe_impl(TT *tt, TTPos *tp,
                                                               const Position *p, int need,
                                                               uint64_t *rel, int *hint, int avx2)
{
    if (hint) *hint = -1;
    size_t g = find_group(tt, tp->lkey, tp->skey, tp->bucket);
    tp->fresh = 1;
    tp->chunks = 0;
    if (!tt->groups[g].lkey) return -1;
    const uint64_t c0 = tp->code[0], c1 = tp->code[1];
    const uint32_t sig = tp->sig, head = tt->groups[g].chunk;
#if SM_TT_AVX2
    const __m128i code = _mm_set_epi64x((long long)c1, (long long)c0);
#endif
    prefetch_head(&tt->chunks[head]);
    for (uint32_t ci = head; ci != TT_NONE; ci = tt->chunks[ci].next) {
        TTChunk *ch = &tt->chunks[ci];
        tp->chunks++;
        if (ch->next != TT_NONE) prefetch_head(&tt->chunks[ch->next]); /* while this one is read */
#if SM_TT_AVX2
        unsigned m = avx2 ? candidates_avx2(ch, sig) : candidates(ch, sig);
#else
        unsigned m = candidates(ch, sig);
#endif
        while (m) { /* newest first */
            int i = 31 - __builtin_clz(m);
            m ^= 1u << i;
            const TTKey *k = &ch->key[i];
#if SM_TT_AVX2
            if (avx2 ? key_differs_avx(k, code) : key_differs(k, c0, c1)) continue;
#else
            if (key_differs(k, c0, c1)) continue;
#endif
            tp->fresh = 0;
            if (ch->lb[i] >= need || ch->ub[i] < need) {
#if SM_TT_AVX2
                *rel = avx2       ? top_cards_pdep(p, k)
                       : use_bmi2 ? top_cards_bmi2(p, k)
                                  : top_cards(p, k);
#elif SM_TT_BMI2
                *rel = use_bmi2 ? top_cards_bmi2(p, k) : top_cards(p, k);
#else
                *rel = top_cards(p, k);
#endif
                int known = ch->lb[i] >= need;
                promote(tt, head, ci, i);
                if (!tt->chunks[head].used) tt->chunks[head].used = 1; /* no needless dirty line */
                return known;
            }
            if (hint && *hint < 0) *hint = hint_card(p, ch->hint[i]);
        }
    }
    if (hint && *hint < 0) *hint = group_hint(tt, head, p, tp);
    (void)avx2;
    return -1;
}

#if SM_TT_AVX2
__attribute__((target("avx2,bmi2,popcnt"), noinline)) static int
tt_probe_avx2(TT *tt, TTPos *tp, const Position *p, int need, uint64_t *rel, int *hint)
{
    return tt_probe_impl(tt, tp, p, need, rel, hint, 1);
}
#endif

/* not inlined into tt_probe, as tt_pos_plain */
__attribute__((noinline)) static int tt_probe_plain(TT *tt, TTPos *tp, const Position *p,
                                                    int need, uint64_t *rel, int *hint)
{
    return tt_probe_impl(tt, tp, p, need, rel, hint, 0);
}

int tt_probe(TT *tt, TTPos *tp, const Position *p, int need, uint64_t *rel, int *hint)
{
#if SM_TT_AVX2
    if (use_avx2) return tt_probe_avx2(tt, tp, p, need, rel, hint);
#endif
    return tt_probe_plain(tt, tp, p, need, rel, hint);
}

/* Store in one group (its hash given), merging with an entry of the same key unless
 * the group is known to hold none (`fresh`). Inlined in both callers: a call with ten
 * arguments costs a tenth of its instructions. */
static inline __attribute__((always_inline)) void store_in_group(TT *tt, uint64_t gkey,
                                                                 uint32_t skey, size_t hash,
                                                                 uint32_t sv, const TTKey *key,
                                                                 int lb, int ub, int hint,
                                                                 int fresh)
{
    size_t g = find_group(tt, gkey, skey, hash);
    if (tt->groups[g].lkey && !fresh) {
        for (uint32_t ci = tt->groups[g].chunk; ci != TT_NONE; ci = tt->chunks[ci].next) {
            TTChunk *ch = &tt->chunks[ci];
            for (unsigned m = equal_sigs(ch, sv); m; ) {
                int i = 31 - __builtin_clz(m);
                m ^= 1u << i;
                const TTKey *k = &ch->key[i];
                if (k->v[0] != key->v[0] || k->v[1] != key->v[1]) /* the masks follow */
                    continue;
                if (ch->lb[i] > lb) lb = ch->lb[i];
                if (ch->ub[i] < ub) ub = ch->ub[i];
                ch->lb[i] = (int8_t)lb;
                ch->ub[i] = (int8_t)ub;
                if (hint) ch->hint[i] = (uint8_t)hint;
                return;
            }
        }
    }
    TTChunk *ch = NULL;
    if (tt->groups[g].lkey && tt->chunks[tt->groups[g].chunk].count < TT_CHUNK) {
        ch = &tt->chunks[tt->groups[g].chunk];
    } else {
        uint32_t ci = take_chunk(tt); /* may drop groups: look the slot up again */
        g = find_group(tt, gkey, skey, hash);
        ch = &tt->chunks[ci];
        ch->count = 0;
        ch->used = 0;
        tt->links[ci].lkey = gkey;
        tt->links[ci].skey = skey;
        tt->links[ci].prev = TT_NONE;
        if (tt->groups[g].lkey) {
            ch->next = tt->groups[g].chunk;
            tt->links[ch->next].prev = ci;
        } else {
            ch->next = TT_NONE;
            tt->groups[g].lkey = gkey;
            tt->groups[g].skey = skey;
        }
        tt->groups[g].chunk = ci;
    }
    int i = ch->count++;
    ch->key[i] = *key;
    ch->sigv[i] = sv;
    ch->lb[i] = (int8_t)lb;
    ch->ub[i] = (int8_t)ub;
    ch->hint[i] = (uint8_t)hint;
}

/* The owner patterns (one group-key byte each) a split suit's top d cards can have
 * in a group the entry fits, in the order the groups are stored: `byte` holds the
 * entry's kept codes in the first `slot` slots, `left` what each seat still holds of
 * the suit; each way the seats (within their lengths) can hold the remaining slots,
 * lowest seat first. Returns the count written to out. */
static int fill_slots(uint32_t byte, int slot, int d, int left[NSEATS], uint8_t *out)
{
    if (slot == d) {
        *out = (uint8_t)byte;
        return 1;
    }
    int n = 0;
    for (int h = 0; h < NSEATS; h++) {
        if (!left[h]) continue;
        left[h]--;
        n += fill_slots(byte | (uint32_t)(h + 1) << (6 - 2 * slot), slot + 1, d, left, out + n);
        left[h]++;
    }
    return n;
}

#ifndef TT_STORE_BATCH
#define TT_STORE_BATCH 16 /* groups of a split store whose slots are asked for at once */
#endif

/* A group key byte has 4 slots, so at most 3^4 patterns a suit. */
#define TT_MAX_PATTERNS 81

/* Store an entry that ignores some of the top cards its group key fixes in every
 * group it fits. The split suits are taken in rank order (longest first, lower suit
 * first among equals). For each the group key holds the owners of its top cards
 * (sigskip / 2 of them): where the entry keeps them all they are the position's (one
 * pattern), otherwise each pattern fill_slots lists gets a copy. The groups are every
 * combination, the first split suit's pattern varying slowest (the store order
 * decides replacement, so it is fixed). */
static void store_split(TT *tt, const TTPos *tp, const TTKey *key, uint32_t sv, int lb, int ub,
                        int hint)
{
    /* the split suits are those of the lowest ranks (the depth lists do not increase) */
    unsigned len[NSUITS];
    int split[NSUITS], nsplit = 0;
    for (int x = 0; x < NSUITS; x++)
        len[x] = (unsigned)(suit_length(tp->lkey, 0, x) + suit_length(tp->lkey, 1, x) +
                            suit_length(tp->lkey, 2, x));
    for (int x = 0; x < NSUITS; x++)
        if (tp->sigskip[x]) {
            split[suit_rank(len, x)] = x;
            nsplit++;
        }
    /* the suits with more than one pattern (`vary`, in rank order); the others keep
     * the position's byte of the key */
    uint8_t pattern[NSUITS][TT_MAX_PATTERNS];
    int npattern[NSUITS], at[NSUITS], vary[NSUITS], nvary = 0;
    uint32_t skey = tp->skey;
    for (int j = 0; j < nsplit; j++) {
        int x = split[j], d = tp->sigskip[x] / 2;
        uint32_t kept = suit_half(key->v, x) >> 24; /* the entry's top four codes of x */
        int slot = 0;
        while (slot < d && (kept >> (6 - 2 * slot) & 3)) slot++;
        if (slot == d) continue; /* keeps them all */
        int left[NSEATS];
        for (int h = 0; h < NSEATS; h++) left[h] = suit_length(tp->lkey, h, x);
        for (int q = 0; q < slot; q++) left[(kept >> (6 - 2 * q) & 3) - 1]--;
        uint32_t byte = kept & (0xFF00u >> (2 * slot)) & 0xFFu;
        npattern[j] = fill_slots(byte, slot, d, left, pattern[j]);
        at[j] = 0;
        skey = (skey & ~(0xFFu << (8 * x))) | (uint32_t)pattern[j][0] << (8 * x);
        vary[nvary++] = j;
    }
    /* The groups are taken a batch at a time, in the same order: every group slot of a
     * batch is asked for before the first store, since they are random cache misses
     * (a split store goes to 3-5 groups on average, on table8x 0 4) that one store
     * after another would wait for in turn, where asked together they overlap. */
    uint32_t bkey[TT_STORE_BATCH];
    size_t bhash[TT_STORE_BATCH];
    for (int more = 1; more; ) {
        int nb = 0;
        while (more && nb < TT_STORE_BATCH) {
            bkey[nb] = skey;
            bhash[nb] = skey == tp->skey ? tp->bucket : hash_group(tp->lkey, skey);
            tt_prefetch_slot(tt, bhash[nb]);
            nb++;
            /* the next combination: the last varying suit's pattern turns fastest */
            int v = nvary - 1;
            for (; v >= 0; v--) {
                int j = vary[v], x = split[j];
                if (++at[j] == npattern[j]) at[j] = 0;
                skey = (skey & ~(0xFFu << (8 * x))) | (uint32_t)pattern[j][at[j]] << (8 * x);
                if (at[j]) break;
            }
            more = v >= 0;
        }
        for (int b = 0; b < nb; b++) {
            int own = bkey[b] == tp->skey;
            store_in_group(tt, tp->lkey, bkey[b], bhash[b], sv, key, lb, ub, hint,
                           own && tp->fresh);
        }
    }
}

/* An entry's key (the position's codes of the cards kept, `kept`: the top cards of
 * each suit) and its signature; returns whether it keeps every top card the group
 * key fixes. */
static int entry_key(const TTPos *tp, uint64_t kept, TTKey *key, uint32_t *sv)
{
    uint64_t mask[2] = {0, 0};
    int whole = 1;
    for (int s = 0; s < NSUITS; s++) {
        int k = popcount32((unsigned)(kept >> (LANE * s)) & LANE_MASK);
        whole &= 2 * k >= tp->sigskip[s];
        /* the top k cards: the high 2k bits of the suit's left-aligned half */
        uint32_t m = ~(UINT32_C(0xFFFFFFFF) >> (2 * k));
        mask[s >> 1] |= (uint64_t)m << (s & 1 ? 0 : 32);
    }
    key->v[0] = tp->code[0] & mask[0];
    key->v[1] = tp->code[1] & mask[1];
    /* one signature for every group the entry goes to: the groups of a position
     * skip the same top cards */
    *sv = sig_of(key->v, tp->sigskip);
    return whole;
}

#if SM_TT_AVX2
/* entry_key with AVX2, a 32-bit lane a suit as in split_suits_avx2 (the kept cards
 * are counted in 64-bit lanes, where one byte sum adds up the nibbles' counts) */
__attribute__((target("avx2"), noinline)) static int entry_key_avx2(const TTPos *tp,
                                                                   uint64_t kept, TTKey *key,
                                                                   uint32_t *sv)
{
    /* suit s's kept cards in 64-bit lane s, counted a nibble at a time */
    const __m256i lanes = _mm256_and_si256(_mm256_srlv_epi64(_mm256_set1_epi64x((long long)kept),
                                                             _mm256_setr_epi64x(0, 16, 32, 48)),
                                           _mm256_set1_epi64x(LANE_MASK));
    const __m256i bits = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                          0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    const __m256i low4 = _mm256_set1_epi8(15);
    const __m256i nibbles = _mm256_add_epi8(
        _mm256_shuffle_epi8(bits, _mm256_and_si256(lanes, low4)),
        _mm256_shuffle_epi8(bits, _mm256_and_si256(_mm256_srli_epi64(lanes, 4), low4)));
    const __m256i count = _mm256_sad_epu8(nibbles, _mm256_setzero_si256());
    /* to 32-bit lanes, doubled: the bits of the kept codes */
    const __m256i low_halves = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    const __m128i bits_kept = _mm_slli_epi32(
        _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(count, low_halves)), 1);
    uint32_t skips;
    memcpy(&skips, tp->sigskip, NSUITS); /* x86: byte s is suit s's */
    const __m128i skip = _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)skips));
    /* lane s: suit s's half, as in split_suits_avx2, and back */
    const __m128i half = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)tp->code),
                                           _MM_SHUFFLE(2, 3, 0, 1));
    const __m128i kept_half = _mm_andnot_si128(_mm_srlv_epi32(_mm_set1_epi32(-1), bits_kept), half);
    _mm_storeu_si128((__m128i *)key->v, _mm_shuffle_epi32(kept_half, _MM_SHUFFLE(2, 3, 0, 1)));
    const __m128i tops = _mm_setr_epi8(3, 7, 11, 15, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                       -1);
    *sv = (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi8(_mm_sllv_epi32(kept_half, skip), tops));
    return _mm_testz_si128(_mm_cmpgt_epi32(skip, bits_kept), _mm_set1_epi32(-1));
}
#endif

void tt_store(TT *tt, const TTPos *tp, const Position *p, uint64_t rel, int lb, int ub, int best)
{
    /* each suit's cards from its lowest relevant one up (none if it has none) */
    const uint64_t kept = all_hands(p) & from_lowest_up(rel);
    TTKey key;
    uint32_t sv;
#if SM_TT_AVX2
    const int whole = use_avx2 ? entry_key_avx2(tp, kept, &key, &sv)
                               : entry_key(tp, kept, &key, &sv);
#else
    const int whole = entry_key(tp, kept, &key, &sv);
#endif
    int hint = hint_code(p, best);
    /* most entries (61% on two deals' tables) keep every top card the group key
     * fixes, so they go to the position's own group alone */
    if (whole) store_in_group(tt, tp->lkey, tp->skey, tp->bucket, sv, &key, lb, ub, hint, tp->fresh);
    else store_split(tt, tp, &key, sv, lb, ub, hint);
}
