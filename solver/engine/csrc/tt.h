/* Transposition table for positions at trick boundaries, generalised DDS-style.
 *
 * Positions are compared on RELATIVE ranks (the order of the cards still in play),
 * so which low cards are already gone never matters. An entry is keyed on the
 * leader, the search context and every hand's length in every suit (the "lengths
 * key"); it then stores, per suit, only the owners of the top K cards — the ranks
 * that actually decided tricks in the search below it ("winning ranks"). Cards under
 * those are "small": only how many each hand holds matters, and the lengths fix
 * that. So one entry answers every position that agrees on lengths and on those top
 * cards. An entry holds a lower and an upper bound on the tricks `seat` takes.
 *
 * Layout (two levels, so a probe only looks at entries that can match): a hash
 * table of groups, one per lengths key and owners of the longest suits' top cards,
 * each pointing to a list of chunks holding that group's entries, newest first. An
 * entry's top cards are kept as owner codes, so matching one entry is two AND/XORs.
 * Memory is fixed when the table is made; nothing is allocated during search: chunks
 * come from one pool, reused (those whose entries stopped answering first) when it
 * runs out. */
#ifndef SM_TT_H
#define SM_TT_H

#include <stddef.h>
#include <stdint.h>
#include "position.h"

#ifndef TT_CHUNK
#define TT_CHUNK 8           /* entries per chunk: 4, 8 or 16 */
#endif
#define TT_HEAD_BYTES (7 * TT_CHUNK + 6)
#define TT_HEAD_PAD ((64 - TT_HEAD_BYTES % 64) % 64)
#define TT_NONE UINT32_MAX   /* no chunk */

/* Owner codes (seat+1, 2 bits a card, highest card first) of the cards that must
 * match, suit s in the 32-bit half (s & 1 ? low : high) of word s >> 1, left-aligned
 * so the top card of a suit is always in the same place, 0 below them. Codes are
 * never 0, so the compared bits follow from v itself. */
typedef struct {
    uint64_t v[2];
} TTKey;

/* A chunk (of 8) is three cache lines: the first holds what a scan reads for every entry
 * (a signature: four cards of each suit, 8 bits a suit, and the bounds); the full
 * keys are read only where the signature matches. The four cards are those below
 * the top cards the group key fixes (every entry of a group agrees with the
 * group's positions on those), and four, not two, because a false candidate costs
 * a cache miss on its key line: on table8 0 4 this left 1.95M false candidates in
 * 20.5M probes, against 9.4M with the plain top four cards. */
typedef struct {
    uint32_t sigv[TT_CHUNK];
    uint32_t next;           /* the next older chunk of the same group, or TT_NONE */
    uint8_t count;           /* entries used, filled from index 0 */
    uint8_t used;            /* an entry answered a probe since the ring last passed */
    int8_t lb[TT_CHUNK], ub[TT_CHUNK]; /* bounds on seat's tricks from here on */
    uint8_t hint[TT_CHUNK];  /* best lead found: 1 + (suit << 4 | index from the top), 0 = none */
    uint8_t pad[TT_HEAD_PAD];
    TTKey key[TT_CHUNK];
} TTChunk;

/* What only replacement needs, kept apart from the chunks. */
typedef struct {
    uint64_t lkey;           /* the chunk's group (with skey) */
    uint32_t prev;           /* the next newer chunk of the group, or TT_NONE */
    uint32_t skey;
} TTChunkLink;

/* A group is named by two keys: lkey (lengths, leader, context) and skey (the
 * owners of the top cards of the split suits, 8 bits a suit). */
typedef struct {
    uint64_t lkey;           /* 0 = empty slot */
    uint32_t chunk;          /* the group's newest chunk */
    uint32_t skey;
} TTGroup;

typedef struct {
    TTGroup *groups;   /* open addressing, linear probing, ngroups a power of two */
    TTChunk *chunks;   /* the pool, 64-byte aligned */
    TTChunkLink *links; /* per chunk */
    size_t ngroups;
    size_t nbuckets;   /* chunks in the pool (one "bucket" = a chunk and two group slots) */
    size_t used;       /* chunks handed out since the last clear */
    size_t ring;       /* once all are used: the next (oldest) chunk to reuse */
} TT;

/* Bytes one bucket takes (for sizing tables). Chunks are at most 3/4 of the group
 * slots and every group owns a chunk, so the group table is never more than 3/4
 * full. */
#define TT_BUCKET_BYTES (sizeof(TTChunk) + sizeof(TTChunkLink) + 2 * sizeof(TTGroup))

/* A boundary position in the table's terms. */
typedef struct {
    uint64_t lkey;          /* the lengths key: lengths, leader, context */
    uint64_t code[2];       /* owner codes of all live cards, laid out as TTKey.v */
    uint32_t skey;          /* the split key: the split suits' top owners, suit s in byte s */
    uint32_t sig;           /* four codes of each suit, laid out as TTChunk.sigv */
    size_t bucket;          /* hash of the group's keys */
    uint8_t sigskip[NSUITS]; /* per suit, 2 x the top cards the group key fixes (0: not split) */
    int fresh;              /* set by tt_probe: no entry of the position's group matched it */
    int chunks;             /* set by tt_probe: the chunks it read (a cache miss each) */
} TTPos;

/* Allocate a table using at most `bytes`; returns 0 on success, -1 if unusable. */
int tt_init(TT *tt, size_t bytes);
void tt_free(TT *tt);
void tt_clear(TT *tt);
/* Key bits for the search context (strain, seat, misere, must-ruff, and whether the
 * game is misere's relaxed one: its values are not the real game's). */
uint64_t tt_context_bits(int trump, int seat, int misere, int must_ruff, int relaxed);
/* Describe a trick-boundary position. */
void tt_pos(const Position *p, uint64_t ctx_bits, TTPos *out);
/* Ask for the group slot a group hash lands on, ahead of its use (a cache miss: see
 * tt.c); tt_prefetch asks for tp's, ahead of tt_probe. */
static inline void tt_prefetch_slot(const TT *tt, size_t hash)
{
    __builtin_prefetch(&tt->groups[hash & (tt->ngroups - 1)]);
}
static inline void tt_prefetch(const TT *tt, const TTPos *tp) { tt_prefetch_slot(tt, tp->bucket); }
/* Is seat's remaining trick count known to be >= need (1) or < need (0)? -1 if not
 * known (not const: an answering entry moves to the front of its group). On an
 * answer *rel receives the cards whose ranks the stored result needs; otherwise
 * *hint receives the best lead stored for the position or, failing that, for its
 * nearest relative in the group (a card of the player to move), or -1. Notes in
 * tp->fresh whether no entry matched, which lets tt_store skip its merge scan. A caller
 * that searches no moves below passes hint NULL: the nearest relative's lead is a second
 * walk of the group. */
int tt_probe(TT *tt, TTPos *tp, const Position *p, int need, uint64_t *rel, int *hint);
/* Store bounds found with the relevant cards `rel` (merged with an equal entry) and
 * the lead that proved them (`best`, a card, or -1). Between tt_probe and tt_store
 * of one tp nothing may be stored for positions with the same lengths key: the
 * search stores only deeper positions (fewer cards) in between. */
void tt_store(TT *tt, const TTPos *tp, const Position *p, uint64_t rel, int lb, int ub, int best);

#endif
