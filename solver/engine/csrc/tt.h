/* Transposition table for positions at trick boundaries.
 *
 * A position is keyed on RELATIVE ranks: for each suit, the owners of the cards still
 * in play listed from the highest down (2 bits per card, seat+1), so positions that
 * differ only in which low cards are already gone share one entry. An entry stores a
 * lower and an upper bound on the tricks the maximising side takes from that position
 * on. Memory is fixed when the table is made; nothing is allocated during search. */
#ifndef SM_TT_H
#define SM_TT_H

#include <stddef.h>
#include <stdint.h>
#include "position.h"

typedef struct {
    uint64_t k0;   /* suits 0 and 1, 26 bits each; search context in bits 52..58 */
    uint64_t k1;   /* suits 2 and 3 (52 bits), leader (2 bits), lb (5 bits), ub+1 (5 bits) */
} TTKey;

typedef struct {
    TTKey *slots;      /* nbuckets * TT_WAYS entries; ub+1 == 0 marks an empty slot */
    size_t nbuckets;   /* a power of two */
} TT;

#define TT_WAYS 4

/* Allocate a table using at most `bytes`; returns 0 on success, -1 if unusable. */
int tt_init(TT *tt, size_t bytes);
void tt_free(TT *tt);
void tt_clear(TT *tt);
/* Key bits for the search context (strain, seat, misere, must-ruff), to OR into k0. */
uint64_t tt_context_bits(int trump, int seat, int misere, int must_ruff);
/* The key of a trick-boundary position (context bits not included). */
TTKey tt_key(const Position *p);
/* Look up bounds for remaining tricks; returns 1 and sets *lb, *ub if found. */
int tt_probe(const TT *tt, TTKey key, int *lb, int *ub);
/* Merge new bounds into the entry for `key`, making one if needed. */
void tt_store(TT *tt, TTKey key, int lb, int ub);

#endif
