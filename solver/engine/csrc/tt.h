/* Transposition table for positions at trick boundaries, generalised DDS-style.
 *
 * Positions are compared on RELATIVE ranks (the order of the cards still in play),
 * so which low cards are already gone never matters. An entry is keyed on the
 * leader, the search context and every hand's length in every suit; it then stores,
 * per suit, only the owners of the top K cards — the ranks that actually decided
 * tricks in the search below it ("winning ranks"). Cards under those are "small":
 * only how many each hand holds matters, and the lengths fix that. So one entry
 * answers every position that agrees on lengths and on those top cards.
 * An entry holds a lower and an upper bound on the tricks `seat` takes from there.
 * Memory is fixed when the table is made; nothing is allocated during search. */
#ifndef SM_TT_H
#define SM_TT_H

#include <stddef.h>
#include <stdint.h>
#include "position.h"

/* An entry is split in two arrays so that a bucket scan reads only the keys. */
typedef struct {
    uint32_t pat[NSUITS]; /* K (bits 26..29) and the owner codes (seat+1, 2 bits) of the top K cards */
    int8_t lb, ub;        /* bounds on seat's tricks from here on */
    uint8_t hint;         /* best lead found: 1 + (suit << 4 | index from the top), 0 = none */
    uint8_t pad;
} TTEntry;

typedef struct {
    uint64_t *keys;    /* nbuckets * TT_WAYS lengths keys (lengths, leader, context); 0 = empty */
    TTEntry *slots;    /* the rest of each entry, same indices */
    uint16_t *next;    /* per bucket: the slot the next new entry replaces (a ring) */
    size_t nbuckets;   /* a power of two */
} TT;

/* Bytes one bucket takes (for sizing tables). */
#define TT_BUCKET_BYTES (TT_WAYS * (sizeof(uint64_t) + sizeof(TTEntry)) + sizeof(uint16_t))

/* A boundary position in the table's terms. */
typedef struct {
    uint64_t lkey;
    uint32_t code[NSUITS];  /* owner codes of all live cards of the suit, highest first */
    int len[NSUITS];        /* live cards per suit */
    size_t bucket;
} TTPos;

#define TT_WAYS 256   /* a power of two */
#define HASH_TOP 0   /* top cards per suit always kept exact (they pick the bucket) */

/* Allocate a table using at most `bytes`; returns 0 on success, -1 if unusable. */
int tt_init(TT *tt, size_t bytes);
void tt_free(TT *tt);
void tt_clear(TT *tt);
/* Key bits for the search context (strain, seat, misere, must-ruff). */
uint64_t tt_context_bits(int trump, int seat, int misere, int must_ruff);
/* Describe a trick-boundary position. */
void tt_pos(const Position *p, uint64_t ctx_bits, TTPos *out);
/* Is seat's remaining trick count known to be >= need (1) or < need (0)? -1 if not
 * known. On an answer *rel receives the cards whose ranks the stored result needs;
 * otherwise *hint receives the best lead stored for the position (a card) or -1. */
int tt_probe(const TT *tt, const TTPos *tp, const Position *p, int need, uint64_t *rel, int *hint);
/* Store bounds found with the relevant cards `rel` (merged with an equal entry) and
 * the lead that proved them (`best`, a card, or -1). */
void tt_store(TT *tt, const TTPos *tp, const Position *p, uint64_t rel, int lb, int ub, int best);

#endif
