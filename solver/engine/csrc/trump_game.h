/* The trump game: a lower bound for the seat in trump contracts, from a smaller game
 * that keeps the trumps exactly and the side suits only as lengths (see trump_game.c
 * for the rules of that game and why its value is a lower bound). */
#ifndef SM_TRUMP_GAME_H
#define SM_TRUMP_GAME_H

#include <stdint.h>
#include "position.h"

/* Results of the small game's positions, kept across searches (they depend on nothing
 * but the position of the small game): a 4-way set-associative table, and in front of
 * it a small direct-mapped copy of the entries used last, which stays in the cache
 * (the table's own reads were half the small game's time). */
typedef struct {
    uint64_t key;
    int8_t lo, hi;  /* bounds on the seat's tricks from there */
    int8_t tricks;  /* tricks left there (the entry with the fewest is replaced) */
} TrumpEntry;

typedef struct {
    TrumpEntry *entry;
    unsigned bits;        /* 1 << bits entries */
    TrumpEntry *recent;
    unsigned recent_bits; /* 1 << recent_bits entries */
} TrumpMemo;

int trump_memo_init(TrumpMemo *m, unsigned bits, unsigned recent_bits); /* 0, or -1 */
void trump_memo_free(TrumpMemo *m);
void trump_memo_clear(TrumpMemo *m);

/* Normal play, a trump contract, at a trick boundary: SM_YES if the small game shows that
 * seat surely takes `need` more tricks (within a fixed search effort), else SM_UNKNOWN; *rel
 * receives the cards the answer relies on (the trumps). */
int trump_game_bound(TrumpMemo *m, const Position *p, int need, uint64_t *rel);

#endif
