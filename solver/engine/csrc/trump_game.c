/* The trump game of a position P (normal play, a trump contract, a trick boundary):
 * the same hands, leader, tricks left and must-ruff rule, but side cards have no rank,
 * only a suit. A hand plays a trump or "a card of side suit s" (one it holds); the
 * rules of following suit (and of must-ruff) are the real ones; a trick with a trump
 * in it goes to its highest trump, and a trick without one to whichever of the
 * players who played the led suit the coalition chooses (the leader among them). The
 * seat's value in it (most tricks it can make against the coalition's best play) is a
 * lower bound on its value in P.
 *
 * Why: let seat play in P by its best strategy for the trump game, playing a card of
 * side suit s (any one) where that strategy plays "a card of s". Whatever the
 * coalition does in P, read every card as a trump or as a card of its suit: each
 * trick is a legal trick of the trump game (the hands hold the same suits, so the same
 * cards are legal), the seat's cards in it are its strategy's, and the real winner is
 * one the trump game allows (with a trump, the same highest trump; without, the
 * highest card of the led suit, played by someone who played that suit, which the
 * coalition may choose). So the real play is a play of the trump game in which seat
 * follows its strategy, and seat takes as many tricks in P as in it: at least its
 * value. The coalition may do better in the trump game than in P (it picks the
 * winners of side-suit tricks), never worse.
 *
 * The trump game depends on the order of all the trumps still in play and on every
 * hand's suit lengths (the table key fixes those), so an answer relies on the trumps.
 * It is much smaller than P: side cards of one hand and suit are all alike, side suits
 * with the same lengths in every hand are alike, and its positions repeat across P's
 * many relatives, so a table of its results (TrumpMemo, kept across searches) answers
 * most of them. It is searched with a null window and a fixed effort: when the effort
 * runs out the answer is "nothing shown". Inside it the settled trumps
 * (settled_lanes) and the right-hand-trumps count (rht_line) cut the search: their
 * proofs use only what the trump game keeps (which trump wins a trick, who plays
 * before whom, that a lead takes a card from every hand holding the led suit).
 *
 * (Full tables: -21% to -32% nodes by seed range, about a tenth of the instructions
 * spent here; what did not pay is in docs/history.md. Near versions of the
 * game are wrong: the seat winning its side-suit leads when nobody trumps, a hand's
 * trumps alike when only a card on the table lies between them, the seat free to
 * discard under must-ruff or to trump holding the led suit; the tests keep a position
 * for each.) */
#include <stdlib.h>
#include "bounds.h"
#include "trump_game.h"
#include "cpu.h"

/* search effort per question: nodes of the trump game past its cheap bounds (a build
 * option, so that a fuzz can ask it with far more) */
#ifndef EFFORT
#define EFFORT 100
#endif
/* the table is asked from this many tricks left (smaller games are cheaper to redo) */
#define MEMO_MIN_TRICKS 3
#define OUT_OF_EFFORT (-1)

enum { ME, LEFT, RIGHT };      /* seat, the hand after it, the hand before it */
enum { NOTHING = -1, TRUMP = 3 }; /* led: nothing yet, a trump, or side suit 0..2 */

typedef struct {
    unsigned trumps[3];  /* lanes of ME, LEFT, RIGHT */
    unsigned suit[3];    /* side suit k: ME's length | LEFT's << 4 | RIGHT's << 8 */
    int tricks, must_ruff, effort;
} Game;

static inline int length_in(const Game *g, int x, int k) { return (int)(g->suit[k] >> (4 * x)) & 15; }

int trump_memo_init(TrumpMemo *m, unsigned bits, unsigned recent_bits)
{
    m->bits = bits;
    m->recent_bits = recent_bits;
    m->entry = malloc(((size_t)1 << bits) * sizeof *m->entry);
    m->recent = malloc(((size_t)1 << recent_bits) * sizeof *m->recent);
    if (!m->entry || !m->recent) {
        trump_memo_free(m);
        return -1;
    }
    trump_memo_clear(m);
    return 0;
}

void trump_memo_free(TrumpMemo *m)
{
    free(m->entry);
    free(m->recent);
    m->entry = m->recent = 0;
}

static void clear_entries(TrumpEntry *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        e[i].key = ~(uint64_t)0; /* no key has all bits set */
        e[i].tricks = -1;
    }
}

void trump_memo_clear(TrumpMemo *m)
{
    clear_entries(m->entry, (size_t)1 << m->bits);
    clear_entries(m->recent, (size_t)1 << m->recent_bits);
}

/* A position of the trump game as 61 bits: the trumps' owners in rank order (only
 * their order matters, so the ranks no hand holds are squeezed out: 31 bits), the side
 * suits' length words sorted (alike suits swap freely; the last suit's LEFT and RIGHT
 * lengths follow from the hand sizes: 28 bits), the leader and must-ruff. The owners
 * are squeezed with pext where the CPU has a fast one (as in tt.c), else from a table
 * of 4 ranks at a time. */
static inline uint64_t pack_key(uint64_t owners, const Game *g, int leader)
{
    unsigned a = g->suit[0], b = g->suit[1], c = g->suit[2], t;
    if (b > a) t = a, a = b, b = t;
    if (c > b) t = b, b = c, c = t;
    if (b > a) t = a, a = b, b = t;
    owners |= (uint64_t)(a | b << 12 | (c & 15) << 24) << 31;
    return owners | (uint64_t)leader << 59 | (uint64_t)g->must_ruff << 61;
}

/* LEFT's and RIGHT's trumps among the four ranks of each index (live, left, right
 * bits), squeezed to the low end (4 bits each), and the number of live ranks. */
static uint16_t squeezed[4096];

__attribute__((constructor)) static void make_squeezed(void)
{
    for (unsigned i = 0; i < 4096; i++) {
        unsigned live = i & 15, l = i >> 4 & 15, r = i >> 8 & 15, sl = 0, sr = 0, count = 0;
        for (int b = 0; b < 4; b++) {
            if (!(live >> b & 1)) continue;
            sl |= (l >> b & 1) << count;
            sr |= (r >> b & 1) << count;
            count++;
        }
        squeezed[i] = (uint16_t)(sl | sr << 4 | count << 8);
    }
}

static uint64_t game_key_table(const Game *g, int leader)
{
    unsigned all = g->trumps[ME] | g->trumps[LEFT] | g->trumps[RIGHT], l = 0, r = 0, n = 0;
    for (int c = 0; c < 13; c += 4) {
        unsigned e = squeezed[(all >> c & 15) | (g->trumps[LEFT] >> c & 15) << 4 |
                              (g->trumps[RIGHT] >> c & 15) << 8];
        l |= (e & 15) << n;
        r |= (e >> 4 & 15) << n;
        n += e >> 8;
    }
    return pack_key(l | (uint64_t)r << 13 | (uint64_t)n << 26, g, leader);
}

#if SM_X86_PATHS

__attribute__((target("bmi2"))) static uint64_t game_key_pext(const Game *g, int leader)
{
    unsigned all = g->trumps[ME] | g->trumps[LEFT] | g->trumps[RIGHT];
    uint64_t owners = _pext_u32(g->trumps[LEFT], all) | (uint64_t)_pext_u32(g->trumps[RIGHT], all) << 13;
    return pack_key(owners | (uint64_t)popcount32(all) << 26, g, leader);
}

static inline uint64_t game_key(const Game *g, int leader)
{
    return cpu_fast_bmi2 ? game_key_pext(g, leader) : game_key_table(g, leader);
}
#else
static inline uint64_t game_key(const Game *g, int leader) { return game_key_table(g, leader); }
#endif

/* right_hand_trumps' count in the trump game (the same leads from a hand of trumps
 * and undrawable side cards, from the lengths) */
static int game_rht(const Game *g, int need, int on_lead)
{
    if (popcount32(g->trumps[ME]) < need) return 0;
    int trumps_only = !((g->suit[0] | g->suit[1] | g->suit[2]) & 15);
    int undrawable = 0; /* (as undrawable_side_cards counts them) */
    for (int k = 0; k < 3 && !trumps_only && need > 1; k++) {
        int l = length_in(g, LEFT, k), r = length_in(g, RIGHT, k);
        int excess = length_in(g, ME, k) - (l > r ? l : r);
        if (excess > 0) undrawable += excess;
    }
    int trump_leads = rht_trump_leads(need, on_lead, trumps_only, undrawable);
    return rht_line(g->trumps[ME], g->trumps[LEFT], g->trumps[RIGHT], need, trump_leads) != 0;
}

static int reach(TrumpMemo *m, Game *g, int leader, int target);

static inline TrumpEntry *set_of(const TrumpMemo *m, uint64_t key)
{
    return m->entry + ((key * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - m->bits) & ~(uint64_t)3);
}

static TrumpEntry *find_entry(const TrumpMemo *m, uint64_t key)
{
    TrumpEntry *set = set_of(m, key);
    for (int i = 0; i < 4; i++)
        if (set[i].key == key) return &set[i];
    return 0;
}

/* an entry for `key` in place of the one of its set with the fewest tricks left */
static TrumpEntry *new_entry(const TrumpMemo *m, uint64_t key, int tricks)
{
    TrumpEntry *set = set_of(m, key), *e = &set[0];
    for (int i = 1; i < 4; i++)
        if (set[i].tricks < e->tricks) e = &set[i];
    e->key = key;
    e->lo = 0;
    e->hi = (int8_t)tricks;
    e->tricks = (int8_t)tricks;
    return e;
}

/* The trick in progress, `pos` cards played: 1 if seat still makes `target` tricks
 * from the start of this trick, 0 if not, or OUT_OF_EFFORT. best: the highest trump
 * played (0: none) and its owner; followed: the players who played the led side suit;
 * played: the trumps on the table (they separate the trumps of a hand that are alike). */
static int trick(TrumpMemo *m, Game *g, int leader, int pos, int led, unsigned best, int owner,
                 int followed, int target, unsigned played)
{
    if (pos == 3) {
        g->tricks--;
        int r = 1;
        if (best) r = reach(m, g, owner, target - (owner == ME));
        else { /* the coalition picks the winner among those who followed suit */
            static const int order[3] = {LEFT, RIGHT, ME};
            for (int i = 0; i < 3 && r == 1; i++)
                if (followed >> order[i] & 1) r = reach(m, g, order[i], target - (order[i] == ME));
        }
        g->tricks++;
        return r;
    }
    int x = leader + pos < 3 ? leader + pos : leader + pos - 3;
    int seat = x == ME;
    unsigned tr = g->trumps[x];
    int can_trump = tr != 0, side = -1, any_side = 0; /* side: the led suit it must follow */
    if (pos == 0) any_side = 1;
    else if (led == TRUMP) any_side = !tr;
    else if (length_in(g, x, led)) can_trump = 0, side = led;
    else any_side = !(g->must_ruff && tr);
    if (can_trump) {
        /* one trump of each run of this hand's trumps among those in play: seat from
         * the highest, the coalition from the lowest (its cheapest answers first) */
        unsigned others = (g->trumps[ME] | g->trumps[LEFT] | g->trumps[RIGHT] | played) & ~tr;
        for (unsigned left = tr; left;) {
            unsigned bit, run;
            if (seat) {
                bit = 1u << (31 - __builtin_clz(left));
                unsigned o = others & (bit - 1);
                run = tr & (bit - 1) & (o ? ~((2u << (31 - __builtin_clz(o))) - 1) : ~0u);
            } else {
                bit = left & (0u - left);
                unsigned o = others & ~((bit << 1) - 1);
                run = tr & ~((bit << 1) - 1) & (o ? (o & (0u - o)) - 1 : ~0u);
            }
            left &= ~(bit | run);
            g->trumps[x] &= ~bit;
            int r = trick(m, g, leader, pos + 1, pos == 0 ? TRUMP : led, bit > best ? bit : best,
                          bit > best ? x : owner, followed, target, played | bit);
            g->trumps[x] |= bit;
            if (r == OUT_OF_EFFORT || r == seat) return r;
        }
    }
    for (int k = 0; k < 3 && (any_side || side >= 0); k++) {
        if (side >= 0 ? k != side : !length_in(g, x, k)) continue;
        /* a suit alike in every hand to one tried already is the same (never the led
         * suit: this hand is void in it, so it holds neither) */
        int alike = 0;
        for (int j = 0; j < k && side < 0 && !alike; j++) alike = g->suit[j] == g->suit[k];
        if (alike) continue;
        g->suit[k] -= 1u << (4 * x);
        int r = pos == 0 ? trick(m, g, leader, 1, k, best, owner, 1 << x, target, played)
                         : trick(m, g, leader, pos + 1, led, best, owner, followed | (k == led) << x,
                                 target, played);
        g->suit[k] += 1u << (4 * x);
        if (r == OUT_OF_EFFORT || r == seat) return r;
    }
    return !seat;
}

/* At a trick boundary of the trump game: can seat make `target` more tricks? The
 * table first (its copy of recent entries is in the cache, and most questions are
 * repeats), then the settled trumps and right_hand_trumps' count, then a search. */
static int reach(TrumpMemo *m, Game *g, int leader, int target)
{
    if (target <= 0) return 1;
    if (target > g->tricks) return 0;
    int memo = g->tricks >= MEMO_MIN_TRICKS;
    uint64_t key = memo ? game_key(g, leader) : 0;
    TrumpEntry *recent = m->recent + ((key * UINT64_C(0xBF58476D1CE4E5B9)) >> (64 - m->recent_bits));
    if (memo && recent->key == key && recent->lo >= target) return 1;
    if (memo && recent->key == key && recent->hi < target) return 0;
    int seat_min, others_min;
    settled_lanes(g->trumps[ME], g->trumps[LEFT], g->trumps[RIGHT], &seat_min, &others_min);
    if (seat_min >= target) return 1;
    if (g->tricks - others_min < target) return 0;
    TrumpEntry *e = memo ? find_entry(m, key) : 0;
    if (e && e->lo >= target) return *recent = *e, 1;
    if (e && e->hi < target) return *recent = *e, 0;
    if (game_rht(g, target, leader == ME)) return 1;
    if (--g->effort < 0) return OUT_OF_EFFORT;
    int r = trick(m, g, leader, 0, NOTHING, 0, 0, 0, target, 0);
    if (r == OUT_OF_EFFORT || !memo) return r;
    e = find_entry(m, key); /* (the search below may have stored it, or another key in its place) */
    if (!e) e = new_entry(m, key, g->tricks);
    if (r && target > e->lo) e->lo = (int8_t)target;
    if (!r && target - 1 < e->hi) e->hi = (int8_t)(target - 1);
    *recent = *e;
    return r;
}

int trump_game_bound(TrumpMemo *m, const Position *p, int need, uint64_t *rel)
{
    if (p->trump == NOTRUMP) return SM_UNKNOWN;
    Game g;
    trump_lanes(p, &g.trumps[ME], &g.trumps[LEFT], &g.trumps[RIGHT]);
    /* seat wins a trick without a trump only where nobody else holds the suit led:
     * rarely enough not to ask (half the questions, 3% of the answers) */
    if (popcount32(g.trumps[ME]) < need) return SM_UNKNOWN;
    int hand[3] = {p->seat, left_of(p->seat), right_of(p->seat)};
    for (int k = 0, s = 0; s < NSUITS; s++) {
        if (s == p->trump) continue;
        g.suit[k] = 0;
        for (int x = 0; x < 3; x++)
            g.suit[k] |= (unsigned)word_length(length_word(p, hand[x]), s) << (4 * x);
        k++;
    }
    g.tricks = p->tricks_left;
    g.must_ruff = p->must_ruff;
    g.effort = EFFORT;
    int leader = p->leader == p->seat ? ME : p->leader == left_of(p->seat) ? LEFT : RIGHT;
    if (reach(m, &g, leader, need) != 1) return SM_UNKNOWN;
    *rel = all_hands(p) & suit_lane(p->trump);
    return SM_YES;
}
