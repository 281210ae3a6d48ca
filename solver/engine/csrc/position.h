/* Positions: one 64-bit mask per seat (16-bit lane per suit, bit 16*suit + rank-2,
 * the layout of solver/cards.py) plus the state of the trick being played.
 * Positions are small plain values: the search copies a position and plays one card
 * on the copy ("copy-make"), so no undo stack is needed. */
#ifndef SM_POSITION_H
#define SM_POSITION_H

#include <stdint.h>

#define NSEATS 3          /* seats in the game; the layout leaves room for four */
#define NSUITS 4
#define NOTRUMP 4         /* strain number of no trump */
#define LANE 16           /* bits per suit lane */
#define LANE_MASK 0x1FFFu /* the 13 rank bits of a lane */
#define MAX_TRICKS 17
#define MAX_MOVES 20

typedef struct {
    uint64_t hand[NSEATS];
    uint64_t table;          /* cards played to the current trick */
    uint64_t lengths;        /* every hand's length in every suit, 4 bits a suit, 16
                              * a seat (kept up as cards are played: the table keys on
                              * them, and counting them afresh cost more) */
    int8_t side[NSEATS];     /* 1 for the seats of the maximising side */
    int8_t seat;             /* the seat whose tricks are counted */
    int8_t misere;           /* the maximiser is the coalition wanting seat to win */
    int8_t trump;            /* 0..3, or NOTRUMP */
    int8_t must_ruff;        /* a player void in the led suit must trump if able */
    int8_t leader;           /* seat that led (or will lead) the current trick */
    int8_t nplayed;          /* cards already on the table */
    int8_t to_move;
    int8_t led_suit;
    int8_t win_seat;         /* seat currently winning the trick */
    int8_t win_card;         /* its card (bit index) */
    int8_t counted;          /* tricks `seat` has won so far */
    int8_t tricks_left;      /* tricks not yet complete, the current one included */
    int8_t played[NSEATS];   /* cards on the table in order (bit indices) */
    /* settled_tricks' counts as last made on the way here, and the live trumps (a lane;
     * 0xFFFF: none made yet) they were made from: the counts depend on the trump lanes
     * only, and while no trump is played the search can take them from here */
    uint16_t settled_trumps;
    int8_t seat_min, others_min;
} Position;

/* Bit counts: the POPCNT instruction where the build targets it (setup.py asks for it
 * on CPUs that have it), else a portable count rather than the compiler's library
 * routine, which is slow. */
static inline int popcount64(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
#endif
}
static inline int popcount32(unsigned x) { return popcount64(x); }

static inline int card_suit(int card) { return card >> 4; }
static inline int card_rank(int card) { return card & 15; } /* 0 = two .. 12 = ace */
static inline uint64_t suit_lane(int suit) { return (uint64_t)LANE_MASK << (LANE * suit); }
static inline uint64_t all_hands(const Position *p)
{
    uint64_t m = 0;
    for (int s = 0; s < NSEATS; s++) m |= p->hand[s];
    return m;
}

/* Highest card (as a mask) of a non-empty set of cards. */
static inline uint64_t high_card(uint64_t cards) { return (uint64_t)1 << (63 - __builtin_clzll(cards)); }

/* Every rank, in each suit, at or above the lowest card of `cards` in that suit (none in
 * a suit where it has none), all lanes at once: bit 15 of a lane, never a card, keeps
 * the subtractions inside it. The table keeps a result's cards exact from there up. */
static inline uint64_t from_lowest_up(uint64_t cards)
{
    const uint64_t guard = UINT64_C(0x8000800080008000), one = UINT64_C(0x0001000100010001);
    const uint64_t lowest = cards & ~((cards | guard) - one);
    return ~((lowest | guard) - one) & UINT64_C(0x1FFF1FFF1FFF1FFF);
}

/* The seats after `seat` in play order: its left (the next to play) and its right. A
 * compare is much cheaper than the division `% NSEATS` compiles to, and these run at
 * every node. */
static inline int left_of(int seat) { return seat == NSEATS - 1 ? 0 : seat + 1; }
static inline int right_of(int seat) { return seat == 0 ? NSEATS - 1 : seat - 1; }

/* Seat's word of suit lengths (4 bits a suit, from p->lengths), and suit s's length in
 * such a word. */
static inline unsigned length_word(const Position *p, int seat)
{
    return (unsigned)(p->lengths >> (LANE * seat));
}
static inline int word_length(unsigned w, int s) { return (int)(w >> (4 * s)) & 15; }

/* Set up a position at the start of a trick. */
void pos_init(Position *p, const uint64_t hands[NSEATS], int trump, int leader,
              int seat, int misere, int must_ruff);

/* The hot helpers below are defined here, inline, because the search calls them at
 * every node from other files (a call through the shared library's PLT cost more
 * than the work). */

/* Does `card` beat the card `best` already winning the trick? */
static inline int pos_beats(const Position *p, int card, int best)
{
    /* without a branch: which way it goes is hard to predict during the search, and
     * both answers are cheap (same suit: the higher bit index is the higher rank) */
    int same = card_suit(card) == card_suit(best);
    return (same & (card > best)) | (!same & (card_suit(card) == p->trump));
}

/* The cards seat x may play to a trick led in suit `led` (x not the leader). */
static inline uint64_t pos_legal_to(const Position *p, int x, int led)
{
    uint64_t h = p->hand[x];
    uint64_t follow = h & suit_lane(led);
    if (follow) return follow;
    if (p->must_ruff && p->trump != NOTRUMP) {
        uint64_t trumps = h & suit_lane(p->trump);
        if (trumps) return trumps;
    }
    return h;
}

/* Mask of the cards the player to move may play. */
static inline uint64_t pos_legal(const Position *p)
{
    if (p->nplayed == 0) return p->hand[p->to_move];
    return pos_legal_to(p, p->to_move, p->led_suit);
}

/* Has x, playing to a trick led in `led` in which card w is winning, a legal card that
 * does not beat w? (A card beats w when it is of w's suit and higher, or a trump on a
 * non-trump w.) Misere play turns on this: nobody takes a trick it can stay out of. */
static inline int pos_can_stay_under(const Position *p, int x, int led, int w)
{
    uint64_t l = pos_legal_to(p, x, led);
    int ws = card_suit(w);
    uint64_t under = l & suit_lane(ws) & (((uint64_t)1 << w) - 1);
    uint64_t other = l & ~suit_lane(ws);
    if (p->trump != NOTRUMP && ws != p->trump) other &= ~suit_lane(p->trump);
    return (under | other) != 0;
}

/* Play `card` (must be legal) for the player to move, `np` being p->nplayed; completes
 * the trick when full. (The search knows np for every child of a node, so that the
 * compiler can make one loop per value of it, each without the tests on it.) */
static inline void pos_play_at(Position *p, int card, int np)
{
    uint64_t bit = (uint64_t)1 << card;
    int seat = p->to_move;
    p->hand[seat] &= ~bit;
    p->lengths -= (uint64_t)1 << (LANE * seat + 4 * card_suit(card));
    p->played[np] = (int8_t)card;
    if (np == 0) {
        p->led_suit = (int8_t)card_suit(card);
        p->win_seat = (int8_t)seat;
        p->win_card = (int8_t)card;
        p->table = bit;
    } else {
        if (pos_beats(p, card, p->win_card)) {
            p->win_seat = (int8_t)seat;
            p->win_card = (int8_t)card;
        }
        p->table |= bit;
    }
    if (np == NSEATS - 1) {
        p->counted += p->win_seat == p->seat;
        p->tricks_left--;
        p->leader = p->win_seat;
        p->to_move = p->win_seat;
        p->nplayed = 0;
        p->table = 0;
    } else {
        p->nplayed = (int8_t)(np + 1);
        p->to_move = (int8_t)left_of(seat);
    }
}

/* Play `card` (must be legal) for the player to move; completes the trick when full.
 * (Copy-make: the search plays on a copy, so nothing is undone.) */
static inline void pos_play(Position *p, int card) { pos_play_at(p, card, p->nplayed); }

#endif
