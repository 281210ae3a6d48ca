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

/* Lowest cards of the groups of equivalent cards, all four suit lanes at once: a
 * card of `own` starts a group unless the nearest live card below it is also ours.
 * `dead` cards (in no hand, not on the table) are skipped over: a run of dead cards
 * directly above one of ours is found by adding its lowest bit to `dead`, the carry
 * clearing the run (it stops at the unused bits above each lane, so lanes stay
 * apart). Branch-free, instead of walking the cards one by one. */
static inline uint64_t group_starts(uint64_t own, uint64_t live)
{
    const uint64_t lanes = UINT64_C(0x1FFF1FFF1FFF1FFF);
    uint64_t dead = ~live & lanes;
    uint64_t t = (own << 1) & dead;               /* dead runs starting above ours */
    uint64_t runs = ((dead + t) ^ dead) & dead;   /* ...and the whole of those runs */
    return own & ~((own | runs) << 1);
}

/* The best move of a node with more than one (legal: the cards the player to move may
 * play, starts: group_starts of them), for a lead, the second hand or the last
 * (moves_first_at); returns the number of moves. */
int lead_first(const Position *p, MoveList *ml, uint64_t legal, uint64_t starts, int hint);
int second_first(const Position *p, MoveList *ml, uint64_t legal, uint64_t starts, int hint);
int last_first(const Position *p, MoveList *ml, uint64_t legal, uint64_t starts, int hint);

/* Make ml->move[0], the best move (the group holding `hint`, a card or -1, comes
 * first), and the others where that costs no more; returns the number of moves. `np`
 * is p->nplayed: the search knows it, so inline this is made without the tests on it,
 * and a forced move (a quarter of the nodes) needs no call. */
static inline __attribute__((always_inline)) int moves_first_at(const Position *p, MoveList *ml,
                                                                 int hint, int np)
{
    uint64_t legal = np == 0 ? p->hand[p->to_move] : pos_legal_to(p, p->to_move, p->led_suit);
    uint64_t starts = group_starts(legal, all_hands(p) | (np == 0 ? 0 : p->table));
    int n = popcount64(starts);
    ml->n = ml->made = n;
    if (n == 1) { /* a forced move needs no ordering */
        ml->move[0].card = (int8_t)__builtin_ctzll(starts);
        ml->move[0].group = legal;
        ml->move[0].key = 0;
        return n;
    }
    return np == 0   ? lead_first(p, ml, legal, starts, hint)
           : np == 1 ? second_first(p, ml, legal, starts, hint)
                     : last_first(p, ml, legal, starts, hint);
}

static inline int moves_first(const Position *p, MoveList *ml, int hint)
{
    switch (p->nplayed) {
    case 0: return moves_first_at(p, ml, hint, 0);
    case 1: return moves_first_at(p, ml, hint, 1);
    default: return moves_first_at(p, ml, hint, 2);
    }
}

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
    int32_t best = moves[i].key; /* in a register: a load per step would chain the steps */
    for (int j = i + 1; j < n; j++) {
        int32_t key = moves[j].key;
        int better = key > best;
        b = better ? j : b;
        best = better ? key : best;
    }
    Move m = moves[b];
    moves[b] = moves[i];
    moves[i] = m;
}

#endif
