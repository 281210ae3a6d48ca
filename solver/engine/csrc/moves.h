/* Move generation: legal cards with equivalent cards collapsed, then ordered. */
#ifndef SM_MOVES_H
#define SM_MOVES_H

#include "position.h"

typedef struct {
    uint64_t group;  /* every card equivalent to `card` (itself included) */
    int32_t key;     /* ordering key, higher first, all distinct: the ordering weight
                      * (key >> 5) - 32768 above five bits of (inverted) generation
                      * index, so that ties go in generation order */
    int8_t card;     /* representative: the lowest card of its equivalence group */
} Move;

/* Fill `out` with one move per group of equivalent legal cards, each with its
 * ordering key, the best first, the others in no particular order; the group holding
 * `hint` (a card, or -1) gets the highest key. Cards of one hand and suit are
 * equivalent when no card of another hand and no card on the table lies between them.
 * Returns the number of moves. The search takes the others best first with move_pick,
 * so a node cut off by its first move never sorts the rest. */
int gen_moves_unordered(const Position *p, Move out[MAX_MOVES], int hint);

/* The same, sorted best first. */
int gen_moves(const Position *p, Move out[MAX_MOVES], int hint);

/* Swap the best of moves[i..n) into place i (a step of a selection sort: the keys are
 * distinct, so picking n times gives exactly the sorted order). */
static inline void move_pick(Move *moves, int i, int n)
{
    int b = i;
    for (int j = i + 1; j < n; j++) b = moves[j].key > moves[b].key ? j : b;
    Move m = moves[b];
    moves[b] = moves[i];
    moves[i] = m;
}

#endif
