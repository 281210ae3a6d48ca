/* Positions: one 64-bit mask per seat (16-bit lane per suit, bit 16*suit + rank-2,
 * the layout of solver/cards.py) plus the state of the trick being played.
 * Positions are small plain values: the search copies a position and plays one card
 * on the copy ("copy-make"), so no undo stack is needed. */
#ifndef SM_POSITION_H
#define SM_POSITION_H

#include <stddef.h>
#include <stdint.h>

#define NSEATS 3          /* seats in the game; the layout leaves room for four */
#define NSUITS 4
#define NOTRUMP 4         /* strain number of no trump */
#define LANE 16           /* bits per suit lane */
#define LANE_MASK 0x1FFFu /* the 13 rank bits of a lane */
#define MAX_TRICKS 17
#define MAX_MOVES 20

/* Every bound answers the search's question, "can the maximiser (the seat in normal
 * play, the coalition in misere) make the seat take `need` more tricks?", with one of
 * these; a bound that can only ever prove one side of it never returns the other. */
#define SM_NO 0
#define SM_YES 1
#define SM_UNKNOWN (-1)

/* Eight 64-bit words. What a play changes fills whole words (the masks, the trick
 * word, the played word), and pos_play_at writes each of them whole; pos_copy reads
 * them word by word. The search copies a position right after its parent played on
 * it, and a load that spans more than one store still in flight is not served from the
 * store buffer but waits until they reach the cache: a plain struct copy (16-byte loads
 * over byte fields just written) spent 10-20% of the node functions' samples there. */
typedef union {
    struct {
        uint64_t hand[NSEATS];
        uint64_t table;          /* cards played to the current trick */
        uint64_t lengths;        /* every hand's length in every suit, 4 bits a suit, 16
                                  * a seat (kept up as cards are played: the table keys on
                                  * them, and counting them afresh cost more) */
        /* the trick word */
        int8_t nplayed;          /* cards already on the table */
        int8_t to_move;
        int8_t led_suit;
        int8_t win_seat;         /* seat currently winning the trick */
        int8_t win_card;         /* its card (bit index) */
        int8_t counted;          /* tricks `seat` has won so far */
        int8_t tricks_left;      /* tricks not yet complete, the current one included */
        int8_t leader;           /* seat that led (or will lead) the current trick */
        /* the played word */
        int8_t played[NSEATS];   /* cards on the table in order (bit indices) */
        int8_t unused[8 - NSEATS];
        /* fixed for a search */
        int8_t side[NSEATS];     /* 1 for the seats of the maximising side */
        int8_t seat;             /* the seat whose tricks are counted */
        int8_t misere;           /* the maximiser is the coalition wanting seat to win */
        int8_t trump;            /* 0..3, or NOTRUMP */
        int8_t must_ruff;        /* a player void in the led suit must trump if able */
        int8_t unused2;
    };
    uint64_t word[8];
} Position;

/* The words pos_play_at rewrites; the shift of the byte field at `offset` (an offsetof)
 * in the value of its word, which the machine's byte order decides; and word w with
 * that byte set to v. */
enum { TRICK_WORD = offsetof(Position, nplayed) / 8, PLAYED_WORD = offsetof(Position, played) / 8 };
_Static_assert(offsetof(Position, leader) == 8 * TRICK_WORD + 7, "the trick word is one word");
_Static_assert(offsetof(Position, side) == 8 * PLAYED_WORD + 8, "the played word is one word");
_Static_assert(sizeof(Position) == 64, "a position is eight words");

static inline int byte_shift(size_t offset)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return 8 * (7 - (int)(offset % 8));
#else
    return 8 * (int)(offset % 8);
#endif
}

static inline uint64_t with_byte(uint64_t w, size_t offset, int v)
{
    int at = byte_shift(offset);
    return (w & ~(UINT64_C(0xFF) << at)) | (uint64_t)(uint8_t)v << at;
}

/* Copy a position word by word (see above): the empty asm keeps the compiler from
 * merging the words into wider loads. */
static inline void pos_copy(Position *to, const Position *from)
{
    for (int i = 0; i < 8; i++) {
        uint64_t w = from->word[i];
        __asm__("" : "+r"(w));
        to->word[i] = w;
    }
}

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
 * compiler can make one loop per value of it, each without the tests on it.) Each
 * changed word is written whole (see Position). */
static inline void pos_play_at(Position *p, int card, int np)
{
    uint64_t bit = (uint64_t)1 << card;
    int seat = p->to_move;
    p->hand[seat] &= ~bit;
    p->lengths -= (uint64_t)1 << (LANE * seat + 4 * card_suit(card));
    p->table = np == 0 ? bit : p->table | bit;
    p->word[PLAYED_WORD] = with_byte(p->word[PLAYED_WORD], offsetof(Position, played) + np, card);
    uint64_t t = p->word[TRICK_WORD];
    int wins = np == 0 || pos_beats(p, card, p->win_card);
    int win_seat = wins ? seat : p->win_seat;
    if (np == 0) t = with_byte(t, offsetof(Position, led_suit), card_suit(card));
    if (wins) {
        t = with_byte(t, offsetof(Position, win_seat), seat);
        t = with_byte(t, offsetof(Position, win_card), card);
    }
    if (np == NSEATS - 1) {
        /* (counted <= 16 and tricks_left >= 1: neither carries into a neighbour) */
        t += ((uint64_t)(win_seat == p->seat) << byte_shift(offsetof(Position, counted))) -
             ((uint64_t)1 << byte_shift(offsetof(Position, tricks_left)));
        t = with_byte(t, offsetof(Position, leader), win_seat);
        t = with_byte(t, offsetof(Position, to_move), win_seat);
        t = with_byte(t, offsetof(Position, nplayed), 0);
        p->table = 0;
    } else {
        t = with_byte(t, offsetof(Position, nplayed), np + 1);
        t = with_byte(t, offsetof(Position, to_move), left_of(seat));
    }
    p->word[TRICK_WORD] = t;
}

/* Play `card` (must be legal) for the player to move; completes the trick when full.
 * (Copy-make: the search plays on a copy, so nothing is undone.) */
static inline void pos_play(Position *p, int card) { pos_play_at(p, card, p->nplayed); }

#endif
