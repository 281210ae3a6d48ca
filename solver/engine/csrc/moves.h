/* Move generation: legal cards with equivalent cards collapsed, then ordered. */
#ifndef SM_MOVES_H
#define SM_MOVES_H

#include "position.h"

typedef struct {
    int8_t card;     /* representative: the lowest card of its equivalence group */
    int16_t score;   /* ordering weight, higher first */
} Move;

/* Fill `out` with one move per group of equivalent legal cards, best first.
 * Cards of one hand and suit are equivalent when no card of another hand and no
 * card on the table lies between them. Returns the number of moves. */
int gen_moves(const Position *p, Move out[MAX_MOVES]);
/* All legal cards of the player to move that are equivalent to `card`. */
uint64_t equivalent_cards(const Position *p, int card);

#endif
