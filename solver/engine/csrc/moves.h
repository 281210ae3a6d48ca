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

/* A list of one move per group of equivalent legal cards, each with its ordering
 * key, made in two steps: the best move first, the others only when the search needs
 * them (most nodes are cut off by their first move). Cards of one hand and suit are
 * equivalent when no card of another hand and no card on the table lies between them. */
typedef struct {
    Move move[MAX_MOVES];         /* the best first, the others in no particular order
                                   * (one spare slot, for lead_rest) */
    int n;                        /* the number of moves */
    int made;                     /* moves made: n, or 1 (the best only) */
    uint64_t legal, starts, good; /* what the others are made from, while made is 1 */
    const Position *lead;         /* ...and the position, for a hinted lead's (else NULL) */
} MoveList;

/* Make ml->move[0], the best move (the group holding `hint`, a card or -1, comes
 * first), and the others where that costs no more; returns the number of moves. */
int moves_first(const Position *p, MoveList *ml, int hint);

int moves_make_rest(MoveList *ml);

/* Make the others if they are not made yet; returns 1 when it made them in their final
 * order, best first (a follower's). Otherwise the search takes them best first with
 * move_pick, so that a node cut off by an early move never sorts the rest. */
static inline int moves_rest(MoveList *ml)
{
    if (ml->made == ml->n) return 0;
    return moves_make_rest(ml);
}

/* Every move, sorted best first. */
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
