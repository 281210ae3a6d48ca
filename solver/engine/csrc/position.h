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
} Position;

/* Bit counts without relying on a POPCNT instruction (portable builds would
 * otherwise call a slow library routine). */
static inline int popcount64(uint64_t x)
{
    x = x - ((x >> 1) & UINT64_C(0x5555555555555555));
    x = (x & UINT64_C(0x3333333333333333)) + ((x >> 2) & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0F0F0F0F0F0F0F0F);
    return (int)((x * UINT64_C(0x0101010101010101)) >> 56);
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

/* Set up a position at the start of a trick. */
void pos_init(Position *p, const uint64_t hands[NSEATS], int trump, int leader,
              int seat, int misere, int must_ruff);
/* Does `card` beat the card `best` already winning the trick? */
int pos_beats(const Position *p, int card, int best);
/* Mask of the cards the player to move may play. */
uint64_t pos_legal(const Position *p);
/* The cards seat x may play to a trick led in suit `led` (x not the leader). */
uint64_t pos_legal_to(const Position *p, int x, int led);
/* Has x, playing to a trick led in `led` in which card w is winning, a legal card that
 * does not beat w? (A card beats w when it is of w's suit and higher, or a trump on a
 * non-trump w.) Misere play turns on this: nobody takes a trick it can stay out of. */
int pos_can_stay_under(const Position *p, int x, int led, int w);
/* Play `card` (must be legal) for the player to move; completes the trick when full. */
void pos_play(Position *p, int card);

#endif
