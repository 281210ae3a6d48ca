/* Move generation: legal cards with equivalent cards collapsed, then ordered. */
#ifndef SM_MOVES_H
#define SM_MOVES_H

#include "position.h"

typedef struct {
    uint64_t group;  /* every card equivalent to `card` (itself included) */
    int8_t card;     /* representative: the lowest card of its equivalence group */
    int16_t score;   /* ordering weight, higher first */
} Move;

/* Fill `out` with one move per group of equivalent legal cards, best first; the
 * group holding `hint` (a card, or -1) goes first. Cards of one hand and suit are
 * equivalent when no card of another hand and no card on the table lies between
 * them. Returns the number of moves. */
int gen_moves(const Position *p, Move out[MAX_MOVES], int hint);

#endif
