/* The search engine: paranoid alpha-beta with null windows, driven by bounds.
 *
 * One side is `seat`, the other the coalition of the two other seats. The value is
 * always the number of tricks `seat` wins; the side maximising it is `seat` (normal
 * play) or the coalition (misere). Every search asks "can the maximiser make seat
 * win at least t tricks?" and exact values come from iterating t.
 * This header is the C-only API used by the Python binding and the C tests. */
#ifndef SM_SEARCH_H
#define SM_SEARCH_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include "position.h"
#include "tt.h"
#include "trump_game.h"

typedef int (*sm_poll_fn)(void *arg); /* return nonzero to abort the search */

/* Counters of the last call (engine_solve etc.), what each bound and the table earn:
 * SM_STAT_X is the index of a counter, sm_stat_names[] its name (for the binding).
 * A bound's counter counts the nodes it answered; the cut-offs are the nodes where a
 * move reached the node's goal (the rest were searched to the end). */
#define SM_STATS(X)                                                                    \
    X(TT_PROBES, "table_probes")          /* trick-boundary nodes that asked the table */ \
    X(TT_HITS, "table_hits")              /* ... and got an answer */                      \
    X(TT_CHUNKS, "table_chunks")          /* chunks those probes read */                  \
    X(LAST_TRICK, "last_trick")           /* one trick left, played out */                \
    X(SETTLED, "settled_trumps")          /* settled_tricks answered */                   \
    X(RIGHT_HAND_TRUMPS, "right_hand_trumps")                                              \
    X(SEAT_CASH, "seat_cash")                                                              \
    X(SEAT_WINNERS, "seat_winners")                                                        \
    X(SOLE_TRUMPS, "sole_trumps")                                                          \
    X(ALL_TRICKS, "all_tricks")                                                            \
    X(FORCING_LEAD, "forcing_lead")                                                        \
    X(TRUMP_GAME, "trump_game")                                                            \
    X(MISERE_TRICK_LOST, "misere_trick_lost")                                              \
    X(MISERE_ESCAPE, "misere_escape")                                                      \
    X(MISERE_LOW_CARDS, "misere_low_cards")  /* misere_low_cards_bound answered */           \
    X(MISERE_TWO_ESCAPES, "misere_two_escapes")                                            \
    X(RELAXED_TABLE, "relaxed_table")     /* real misere nodes the relaxed game's table answered */ \
    X(RELAXED_SEARCHES, "relaxed_searches") /* real misere nodes searched in the relaxed game first */ \
    X(RELAXED_SEARCH, "relaxed_search")   /* ... where that search answered: the coalition fails */ \
    X(CUTOFFS, "cutoffs")                 /* a move reached the node's goal */            \
    X(FIRST_MOVE_CUTOFFS, "first_move_cutoffs") /* ... and it was the first tried */

#define SM_STAT_ENUM(id, name) SM_STAT_##id,
enum { SM_STATS(SM_STAT_ENUM) SM_NSTATS };
#undef SM_STAT_ENUM
extern const char *const sm_stat_names[SM_NSTATS];

typedef struct {
    TT tt;
    TrumpMemo trump_memo;                 /* results of trump_game_bound's small games */
    int trump, seat, misere, must_ruff;   /* context the table's entries belong to */
    uint64_t ctx_bits;                    /* context folded into table keys */
    uint64_t ctx_bits_nt;                 /* the same with no trump: a trump contract
                                           * whose trumps are all gone is no trump */
    uint64_t ctx_bits_relaxed;            /* the same two in misere's relaxed game */
    uint64_t ctx_bits_relaxed_nt;
    int relaxed;                          /* searching the relaxed game (relaxed_choice) */
    int relaxed_search;                   /* whether the real game searches the positions
                                           * where it expects the coalition to fail in the
                                           * relaxed game first (relaxed_search) */
    uint64_t nodes;                       /* nodes searched by the last call */
    uint64_t stat[SM_NSTATS];             /* counters of the last call (SM_STATS) */
    int aborted;                          /* why a search stopped: 0, SM_STOP_POLL or
                                           * SM_STOP_BUDGET */
    uint64_t node_limit;                  /* the query's node budget (0: none), checked
                                           * at the polls */
    jmp_buf *abort_to;                    /* where an aborted search returns to (the
                                           * root's caller), skipping every node's
                                           * check after each of its children */
    sm_poll_fn poll;                      /* called every SM_POLL_INTERVAL nodes */
    void *poll_arg;
    int root_first;                       /* exact_value's root: move to try first (-1) */
    int root_biggest;                     /* the root's move with the biggest subtree */
    uint16_t settled[1 << 13];            /* settled_tricks of the query's positions by
                                           * their live trumps (settled_counts) */
} Engine;

#define SM_POLL_INTERVAL 65536
#define SM_TRUMP_MEMO_BITS 16             /* 1 MiB of trump-game results */
#define SM_TRUMP_RECENT_BITS 11           /* and 32 KiB of the latest */
#define SM_ABORTED (-1)
#define SM_OVER_BUDGET (-3)
enum { SM_STOP_POLL = 1, SM_STOP_BUDGET = 2 };

/* Make an engine whose table uses at most tt_bytes; returns 0, or -1 if unusable. */
int engine_init(Engine *e, size_t tt_bytes);
void engine_free(Engine *e);
void engine_clear(Engine *e);
/* Set strain (0..3, 4 = no trump), seat, misere and must-ruff. The context is part
 * of every table key, so entries of several contexts live side by side. */
void engine_set_context(Engine *e, int trump, int seat, int misere, int must_ruff);

/* A position: hands at the start of the current trick, its leader, and the cards
 * already played to it (bit indices, at most NSEATS-1; they must be legal). */
typedef struct {
    uint64_t hands[NSEATS];
    int leader;
    int nplayed;
    int played[NSEATS];
} SmQuery;

/* Seat's value (tricks from the current trick on; misere: the fewest it can hold
 * itself to). SM_ABORTED if the poll function stopped the search. */
int engine_solve(Engine *e, const SmQuery *q);
/* The value in misere's relaxed game (search.c, relaxed_choice), for the tests. */
int engine_relaxed_solve(Engine *e, const SmQuery *q);
/* normal: can seat take >= target?  misere: can seat hold itself to <= target?
 * 1 yes, 0 no, SM_ABORTED. */
int engine_can_reach(Engine *e, const SmQuery *q, int target);
/* The same within a budget: SM_OVER_BUDGET once the search has passed max_nodes
 * (checked every SM_POLL_INTERVAL nodes; 0: no budget, as engine_can_reach). The entries stored before it stopped stay in
 * the table, so asking again with a larger budget goes on from what was proven. */
int engine_can_reach_within(Engine *e, const SmQuery *q, int target, uint64_t max_nodes);
/* For every legal card of the player to move: seat's value after it is played.
 * Fills cards[] and values[] (up to 17); returns the count or SM_ABORTED. `known`: the
 * position's exact value if the caller has proven it (each card's search starts there),
 * else -1. */
int engine_card_values(Engine *e, const SmQuery *q, int known, int cards[MAX_TRICKS], int values[MAX_TRICKS]);
/* The first card of order[0..norder) that keeps the position's exact value for the
 * player to move (*value receives it); SM_NO_CARD if none does, or SM_ABORTED. */
#define SM_NO_CARD (-2)
int engine_best_card(Engine *e, const SmQuery *q, const int *order, int norder, int *value);
/* The legal cards of the player to move that keep `value` (the seat's value of the
 * position, which the caller knows), as a mask; SM_ABORTED if stopped. */
int64_t engine_keeping_cards(Engine *e, const SmQuery *q, int value);
/* One optimal line to the end of the hand; returns its length or SM_ABORTED. */
int engine_pv(Engine *e, const SmQuery *q, int cards[NSEATS * MAX_TRICKS]);

#endif
