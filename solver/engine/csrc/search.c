/* Null-window alpha-beta over trick play, with a generalising transposition table at
 * trick boundaries, quick-trick cut-offs and equivalent-card pruning.
 *
 * Every search also returns `rel`, the cards whose ranks its result depends on
 * (cards that won a trick by outranking a card of their suit, top cards behind a
 * quick-trick or table cut-off). The table stores results with only those ranks
 * exact, so one entry answers many positions. */
#include <string.h>
#include "search.h"
#include "bounds.h"
#include "moves.h"
#include "misere.h"

#define SM_STAT_NAME(id, name) name,
const char *const sm_stat_names[SM_NSTATS] = {SM_STATS(SM_STAT_NAME)};
#undef SM_STAT_NAME

#define STAT(e, id) ((e)->stat[SM_STAT_##id]++)

int engine_init(Engine *e, size_t tt_bytes)
{
    e->root_first = e->root_biggest = -1;
    e->trump = e->seat = -1;
    e->misere = e->must_ruff = 0;
    e->ctx_bits = e->ctx_bits_nt = e->ctx_bits_relaxed = e->ctx_bits_relaxed_nt = 0;
    e->relaxed = 0;
    e->relaxed_search = 1;
    e->nodes = 0;
    memset(e->stat, 0, sizeof e->stat);
    e->aborted = 0;
    e->node_limit = 0;
    e->abort_to = 0;
    e->poll = 0;
    e->poll_arg = 0;
    if (trump_memo_init(&e->trump_memo, SM_TRUMP_MEMO_BITS, SM_TRUMP_RECENT_BITS)) return -1;
    if (tt_init(&e->tt, tt_bytes)) {
        trump_memo_free(&e->trump_memo);
        return -1;
    }
    return 0;
}

void engine_free(Engine *e)
{
    tt_free(&e->tt);
    trump_memo_free(&e->trump_memo);
}

void engine_clear(Engine *e)
{
    tt_clear(&e->tt);
    trump_memo_clear(&e->trump_memo);
}

void engine_set_context(Engine *e, int trump, int seat, int misere, int must_ruff)
{
    e->trump = trump;
    e->seat = seat;
    e->misere = misere != 0;
    e->must_ruff = must_ruff != 0;
    e->ctx_bits = tt_context_bits(trump, seat, e->misere, e->must_ruff, 0);
    e->ctx_bits_nt = tt_context_bits(NOTRUMP, seat, e->misere, 0, 0);
    e->ctx_bits_relaxed = tt_context_bits(trump, seat, e->misere, e->must_ruff, 1);
    e->ctx_bits_relaxed_nt = tt_context_bits(NOTRUMP, seat, e->misere, 0, 1);
}

/* The card whose rank decided a complete trick (its cards `trick`, won by card `w`),
 * or 0 when the winner took it without outranking a card of its own suit. */
static uint64_t rank_decider(uint64_t trick, int w)
{
    uint64_t bw = (uint64_t)1 << w;
    return (trick & suit_lane(card_suit(w)) & ~bw) ? bw : 0;
}

/* The same for the trick that `card` completes (the table holds the cards before it). */
static uint64_t trick_rank_card(const Position *p, int card)
{
    int w = pos_beats(p, card, p->win_card) ? card : p->win_card;
    return rank_decider(p->table | (uint64_t)1 << card, w);
}

/* In a node where every move was searched, results of group representatives stand
 * for the whole group; that only carries over to other positions if the group's
 * cards are exact there too, unless the whole group lies below every relevant card
 * of its suit (then all its cards are interchangeable "small" cards). A group's cards
 * lie between two of the node's others', so covering one never lowers a suit's lowest
 * relevant card below another group's top: every group is tested against `rel` as
 * given, as one mask of the cards at or above its suit's lowest relevant card. */
static uint64_t cover_groups(uint64_t rel, const Move *moves, int n)
{
    uint64_t up = from_lowest_up(rel), covered = 0;
    for (int i = 0; i < n; i++) {
        uint64_t g = moves[i].group;
        if ((g & (g - 1)) && (g & up)) covered |= g;
    }
    return rel | covered;
}

/* The trumps of `cards`, as a lane (a trump contract). */
static inline unsigned trump_lane(const Position *p, uint64_t cards)
{
    return (unsigned)(cards >> (LANE * p->trump)) & LANE_MASK;
}

/* settled_tricks at a trick boundary of a trump contract, `live` (a lane, not empty)
 * being the trumps still in the hands. The counts depend on the trump lanes only, and
 * in the positions of one query (the descendants of its deal) a live trump is where
 * the deal put it, so the live trumps decide them: they are made once per query and
 * set of live trumps (an entry is seat_min + 1 | others_min << 8, 0 while not made).
 * Not in misere's relaxed game, whose positions stand for canonical ones (see
 * relaxed_canonical). */
static inline void settled_counts(Engine *e, const Position *p, unsigned live, int *seat_min,
                                  int *others_min)
{
    unsigned known = e->settled[live];
    if (!known) {
        settled_tricks(p, seat_min, others_min);
        e->settled[live] = (uint16_t)((*seat_min + 1) | *others_min << 8);
        return;
    }
    *seat_min = (int)(known & 0xFF) - 1;
    *others_min = (int)(known >> 8);
}

/* Sibling moves whose rank cannot matter. A move's result depends only on the exact
 * ranks of the cards in its `rc`; cards of a suit below the lowest such card count only
 * by number. So when the card played lies below that line, any other card of the same
 * hand and suit also below it gives the same result: swap the two cards and the same
 * proof holds. Returns the new bound (bit index) under which cards of `card`'s suit
 * may be skipped: `limit` or higher. */
static int rank_free_limit(uint64_t rc, int card, int limit)
{
    int s = card_suit(card);
    uint64_t rs = rc & suit_lane(s);
    int line = rs ? __builtin_ctzll(rs) : LANE * s + LANE;
    return card < line && line > limit ? line : limit;
}

/* The search has one function per number of cards on the table (np, = p->nplayed),
 * all made from ab_at, and the root of a search (`root`, called from outside) has its
 * own copies: each copy knows its children's, so that the tests on np (boundary work,
 * how a card is played, whether it completes a trick) and the root's bookkeeping
 * vanish from the code of the nodes below the root. */
static int ab0(Engine *e, const Position *p, int target, uint64_t *rel, int expect_no);
static int ab1(Engine *e, const Position *p, int target, uint64_t *rel, int expect_no);
static int ab2(Engine *e, const Position *p, int target, uint64_t *rel, int expect_no);

/* Why the search must stop at this poll, if it must: its node budget is spent, or the
 * poll function says so (Ctrl-C, cancel). */
static int stop_reason(Engine *e)
{
    if (e->node_limit && e->nodes >= e->node_limit) return SM_STOP_BUDGET;
    return e->poll && e->poll(e->poll_arg) ? SM_STOP_POLL : 0;
}

/* Count a node, polling every SM_POLL_INTERVAL of them; an abort leaves the whole
 * search at once, back to `ab` (nothing is stored on the way, as no node's result is
 * known). */
static inline void count_node(Engine *e)
{
    if ((++e->nodes & (SM_POLL_INTERVAL - 1)) == 0 && (e->aborted = stop_reason(e)))
        longjmp(*e->abort_to, 1);
}

/* The steps of ab_at are numbered as in docs/engine.md ("The trick-boundary
 * pipeline"). Each step answers SM_YES or SM_NO (the maximiser's answer, bounds.h's
 * convention) or SM_UNKNOWN, and every helper below is inlined into the node
 * functions, so the split costs nothing at run time. A bound is asked only where it
 * can answer; ANSWER returns a bound's answer, counting it, when it has one. */
#define ANSWER(e, id, expr)                                                            \
    do {                                                                               \
        int answer_ = (expr);                                                          \
        if (answer_ != SM_UNKNOWN) {                                                   \
            STAT(e, id);                                                               \
            return answer_;                                                            \
        }                                                                              \
    } while (0)
#define NODE_STEP static inline __attribute__((always_inline))

/* What the steps at a trick boundary share. */
typedef struct {
    int need;                     /* tricks the maximiser must still make the seat take */
    unsigned live_trumps;         /* the trumps still in the hands (a lane; 0 in no trump) */
    unsigned seat_trumps;         /* the seat's */
    int seat_min, others_min;     /* the settled counts (settled_counts) */
    TTPos tp;                     /* the position's table key */
    int hint;                     /* the table's suggested first move, or -1 */
    int expect_no;                /* the node is expected to answer no (see search_moves) */
} Boundary;

/* Step 1, the last trick: played out (each player's only card) and compared. */
NODE_STEP int last_trick(Engine *e, const Position *p, int need, uint64_t *rel)
{
    Position q;
    pos_copy(&q, p);
    int last = 0;
    while (q.tricks_left == p->tricks_left) {
        last = __builtin_ctzll(q.hand[q.to_move]);
        if (q.nplayed == NSEATS - 1) *rel = trick_rank_card(&q, last);
        pos_play(&q, last);
    }
    STAT(e, LAST_TRICK);
    return q.counted - p->counted >= need ? SM_YES : SM_NO;
}

/* Step 2, the settled trumps (trump contracts, both objectives), and step 3, the
 * right-hand trumps (normal play, the seat holding at least `need` trumps: cheap, and
 * about 1% of the nodes of full tables beside the trump game). */
NODE_STEP int trump_counts(Engine *e, const Position *p, Boundary *b, uint64_t *rel)
{
    int need = b->need;
    b->live_trumps = p->trump == NOTRUMP ? 0 : trump_lane(p, all_hands(p));
    b->seat_min = b->others_min = 0;
    if (b->live_trumps) {
        /* the relaxed game's canonical positions move trumps between the coalition
         * hands: its counts are made afresh (with the memo, a 13-card diamond misère
         * solve came out a trick low) */
        if (e->relaxed) settled_tricks(p, &b->seat_min, &b->others_min);
        else settled_counts(e, p, b->live_trumps, &b->seat_min, &b->others_min);
    }
    if (need <= b->seat_min) {
        STAT(e, SETTLED);
        *rel = settled_cards(p, 1, need);
        return SM_YES;
    }
    if (need > p->tricks_left - b->others_min) {
        STAT(e, SETTLED);
        *rel = settled_cards(p, 0, p->tricks_left - need + 1);
        return SM_NO;
    }
    b->seat_trumps = b->live_trumps ? trump_lane(p, p->hand[p->seat]) : 0;
    if (!p->misere && popcount32(b->seat_trumps) >= need)
        ANSWER(e, RIGHT_HAND_TRUMPS, right_hand_trumps(p, need, rel));
    return SM_UNKNOWN;
}

/* Step 5, the bounds asked before the probe (while the group slot that step 4 asked
 * for arrives): in normal play the seat's cashing bound on lead, else the
 * seat-winners and sole-trumps bounds (at need 1 the seat-winners bound adds nothing
 * to the all-tricks bounds of step 7; the proof is in bounds.c); in misere the seat's
 * low cards (before the probe: on deals of 12 and 13 cards 3-5% fewer nodes). */
NODE_STEP int bounds_before_probe(Engine *e, const Position *p, const Boundary *b, uint64_t *rel)
{
    int need = b->need;
    if (p->misere) {
        ANSWER(e, MISERE_LOW_CARDS, misere_low_cards_bound(p, need, rel));
        return SM_UNKNOWN;
    }
    if (p->side[p->leader]) {
        ANSWER(e, SEAT_CASH, seat_cash_bound(p, need, b->seat_min, rel));
        return SM_UNKNOWN;
    }
    if (need > 1) {
        ANSWER(e, SEAT_WINNERS, seat_winners_bound(p, need, b->seat_min, rel));
        if (b->seat_trumps && b->seat_trumps == b->live_trumps)
            ANSWER(e, SOLE_TRUMPS, sole_trumps_bound(p, need, rel));
    }
    return SM_UNKNOWN;
}

static int relaxed_canonical(const Position *p, Position *q);

/* The cards a real position must share with p for the relaxed game's canonical form of
 * it to agree with p's on the cards `rq` names (and so for a relaxed entry relying on
 * rq to answer it too): in each suit seat holds where rq names cards, every card from
 * seat's top one up, as which coalition cards lie above seat's decides what
 * relaxed_canonical moves. Where seat holds none of a suit the lengths decide it. */
static uint64_t canonical_cards(const Position *p, uint64_t rq)
{
    uint64_t cards = 0, live = all_hands(p);
    for (int s = 0; s < NSUITS; s++) {
        uint64_t lane = suit_lane(s), mine = p->hand[p->seat] & lane;
        if (mine && (rq & lane)) cards |= live & lane & ~(high_card(mine) - 1);
    }
    return cards;
}

/* Step 9 in misere's real game (normal play's is the trump game): the relaxed game's
 * table. The relaxed value bounds the real one from above, so where the relaxed game's
 * table holds that the coalition fails, it fails for real. Its successes say nothing of
 * the real game (nor its hints: tried first, within 2% either way). */
NODE_STEP int relaxed_table(Engine *e, const Position *p, const Boundary *b, uint64_t *rel)
{
    Position canonical;
    const Position *q = relaxed_canonical(p, &canonical) ? &canonical : p;
    TTPos tp;
    tt_pos(q, b->live_trumps ? e->ctx_bits_relaxed : e->ctx_bits_relaxed_nt, &tp);
    uint64_t rq;
    if (tt_probe(&e->tt, &tp, q, b->need, &rq, NULL) != SM_NO) return SM_UNKNOWN;
    *rel = rq | canonical_cards(p, rq);
    return SM_NO;
}

/* Step 9 in misere's real game, where neither table answered and the node is a
 * coalition's lead that the search expects to fail (b->expect_no): the position is
 * searched in the relaxed game first. Where the coalition fails there it fails for real
 * (as in relaxed_table), and a proof that the coalition fails, misere's dear side, is
 * far cheaper in the relaxed game, whose table answers every split of the cards its
 * canonical form merges. Where the relaxed game finds the coalition succeeding, the
 * real search goes on, and the refutations the relaxed search stored below answer its
 * own (relaxed_table). This is the only way the relaxed game is asked: spades misere
 * solves of seeds 0-19 took 134.0M nodes with the relaxed value found first and the
 * real game asked at it, 118.6M this way (seed 9 8.2M -> 2.9M); at the seat's leads
 * too, or there alone, it costs more. */
NODE_STEP int relaxed_search(Engine *e, const Position *p, const Boundary *b, uint64_t *rel)
{
    uint64_t rq;
    STAT(e, RELAXED_SEARCHES);
    e->relaxed = 1;
    int r = ab0(e, p, p->counted + b->need, &rq, 1);
    e->relaxed = 0;
    if (r) return SM_UNKNOWN;
    *rel = rq | canonical_cards(p, rq);
    return SM_NO;
}

/* Steps 7-9, after the probe (where the table answers, the probe is the cheaper):
 * the all-tricks bounds at need 1 or every trick (tables 0.98-0.99 of the time this
 * way), in misere the escape and, at need of at least the tricks left less one, the
 * two escapes (before the probe: 1% more nodes on full deals), then in its real game
 * the relaxed game's table and, at a coalition's lead expected to fail, its search; in
 * normal play the forcing lead (seat on lead, both sides holding trumps) and last the
 * trump game, a search of its own whose success is stored. */
NODE_STEP int bounds_after_probe(Engine *e, const Position *p, Boundary *b, uint64_t *rel)
{
    int need = b->need;
    if (need == 1 || need == p->tricks_left) ANSWER(e, ALL_TRICKS, all_tricks_bound(p, need, rel));
    if (p->misere) {
        ANSWER(e, MISERE_ESCAPE, misere_escape_bound(p, need, rel));
        if (need >= p->tricks_left - 1)
            ANSWER(e, MISERE_TWO_ESCAPES, misere_two_escapes_bound(p, need, rel));
        if (!e->relaxed) {
            ANSWER(e, RELAXED_TABLE, relaxed_table(e, p, b, rel));
            if (b->expect_no && e->relaxed_search && p->side[p->to_move])
                ANSWER(e, RELAXED_SEARCH, relaxed_search(e, p, b, rel));
        }
        return SM_UNKNOWN;
    }
    if (p->leader == p->seat && b->seat_trumps && b->seat_trumps != b->live_trumps)
        ANSWER(e, FORCING_LEAD, forcing_lead_bound(p, need, b->seat_min, rel));
    if (trump_game_bound(&e->trump_memo, p, need, rel) == SM_YES) {
        STAT(e, TRUMP_GAME);
        tt_store(&e->tt, &b->tp, p, *rel, need, p->tricks_left, -1);
        return SM_YES;
    }
    return SM_UNKNOWN;
}

/* Steps 1-9 at a trick boundary: an answer, or SM_UNKNOWN with the table key and
 * hint in *b for the move loop. */
NODE_STEP int boundary_steps(Engine *e, const Position *p, Boundary *b, uint64_t *rel)
{
    if (p->tricks_left == 1) return last_trick(e, p, b->need, rel); /* 1 */
    int r = trump_counts(e, p, b, rel);                              /* 2, 3 */
    if (r != SM_UNKNOWN) return r;
    /* 4: the key, and its group slot asked for: the slot is a cache miss, which the
     * bounds' work then hides */
    uint64_t ctx = b->live_trumps ? (e->relaxed ? e->ctx_bits_relaxed : e->ctx_bits)
                                  : (e->relaxed ? e->ctx_bits_relaxed_nt : e->ctx_bits_nt);
    tt_pos(p, ctx, &b->tp);
    tt_prefetch(&e->tt, &b->tp);
    r = bounds_before_probe(e, p, b, rel); /* 5 */
    if (r != SM_UNKNOWN) return r;
    STAT(e, TT_PROBES); /* 6 */
    r = tt_probe(&e->tt, &b->tp, p, b->need, rel, &b->hint);
    e->stat[SM_STAT_TT_CHUNKS] += (uint64_t)b->tp.chunks;
    if (r >= 0) {
        STAT(e, TT_HITS);
        return r;
    }
    return bounds_after_probe(e, p, b, rel); /* 7-9 */
}

/* Misere's relaxed game (asked by relaxed_search, node by node): after a trick won by a
 * coalition hand where both coalition hands played cards of one suit, each above every
 * card seat holds of it (the one just played included), the coalition picks which of
 * its hands leads next. The ranks between such cards then decide nothing. Does `card`,
 * completing the trick at p (won by `winner`), make such a trick? Where ranks decide
 * that, either way, *rc receives the card that decides it (seat's top card of the suit
 * where that is higher, else the coalition's lower card): a table entry made without
 * the choice must not answer a position that has it (a full deal's relaxed value came
 * out below the real one where only the choice's cards were relied on). */
static inline int relaxed_choice(const Engine *e, const Position *p, int card, int winner,
                                 uint64_t *rc)
{
    if (!e->relaxed || winner == p->seat) return 0;
    int seat_at = (p->seat - p->leader + NSEATS) % NSEATS;
    int cards[NSEATS] = {p->played[0], p->played[1], card};
    int a = cards[seat_at == 0 ? 1 : 0], b = cards[seat_at == 2 ? 1 : 2];
    int s = card_suit(a);
    if (card_suit(b) != s) return 0;
    int low = a < b ? a : b;
    uint64_t seat_cards = (p->hand[p->seat] | (uint64_t)1 << cards[seat_at]) & suit_lane(s);
    if (!seat_cards) return 1;
    uint64_t top = high_card(seat_cards);
    *rc |= top > ((uint64_t)1 << low) ? top : (uint64_t)1 << low;
    return top < ((uint64_t)1 << low);
}

/* The other coalition hand leads the trick after c's (the relaxed game's choice). */
static inline void lead_from_partner(Position *c, int seat)
{
    int other = c->leader == left_of(seat) ? right_of(seat) : left_of(seat);
    uint64_t t = with_byte(c->word[TRICK_WORD], offsetof(Position, leader), other);
    c->word[TRICK_WORD] = with_byte(t, offsetof(Position, to_move), other);
}

/* In the relaxed game the ranks between the coalition's cards above every card seat
 * holds of their suit decide nothing: two of them meet only in a trick the relaxed
 * game lets the coalition pick its next leader after, and against any other card they
 * stand as they did. So every position stands for the one whose hand to seat's left
 * holds the top ones of those cards (each hand's number of them unchanged): one table
 * entry answers them all. Returns whether q (that position) differs from p. */
static int relaxed_canonical(const Position *p, Position *q)
{
    int L = left_of(p->seat), R = right_of(p->seat), changed = 0;
    pos_copy(q, p);
    for (int s = 0; s < NSUITS; s++) {
        uint64_t lane = suit_lane(s), mine = p->hand[p->seat] & lane;
        uint64_t above = mine ? lane & ~((high_card(mine) << 1) - 1) : lane;
        uint64_t theirs = (p->hand[L] | p->hand[R]) & above, left = p->hand[L] & above;
        if (!left || left == theirs) continue;
        uint64_t top = 0, rest = theirs;
        for (int i = popcount64(left); i > 0; i--) {
            uint64_t high = high_card(rest);
            top |= high;
            rest &= ~high;
        }
        if (top == left) continue;
        q->hand[L] = (q->hand[L] & ~left) | top;
        q->hand[R] = (q->hand[R] & ~(theirs & ~left)) | rest;
        changed = 1;
    }
    return changed;
}

/* One child of step 10: play `card` and search on, or count the child as a leaf when
 * the trick it completes decides (two in five of the boundary nodes), without the call.
 * *rc receives the child's relied-on cards, the card that decided that trick included
 * (where the relaxed game's coalition picked the next leader, the card that made the
 * trick one where it may: see relaxed_choice). */
NODE_STEP int search_child(Engine *e, const Position *p, int card, int target, uint64_t *rc,
                           const int np, int expect_no)
{
    Position c;
    pos_copy(&c, p);
    pos_play_at(&c, card, np);
    int r, child_need = target - c.counted;
    if (np == NSEATS - 1 && (child_need <= 0 || child_need > c.tricks_left)) {
        count_node(e);
        *rc = 0;
        r = child_need <= 0;
    } else {
        r = np == 0   ? ab1(e, &c, target, rc, expect_no)
            : np == 1 ? ab2(e, &c, target, rc, expect_no)
                      : ab0(e, &c, target, rc, expect_no);
        if (np == NSEATS - 1 && relaxed_choice(e, p, card, c.leader, rc)) {
            if (!r) { /* the coalition (the maximiser) tries its other hand on lead */
                uint64_t rc2;
                lead_from_partner(&c, p->seat);
                r = ab0(e, &c, target, &rc2, expect_no);
                *rc |= rc2;
            }
            return r;
        }
    }
    if (np == NSEATS - 1) *rc |= rank_decider(p->table | (uint64_t)1 << card, c.win_card);
    return r;
}

/* Step 10, the moves: best first (the hint first; at the root, after a failed step of
 * the exact value, the move that came nearest), sorted only as far as searched; a move
 * that reaches the maximiser's goal cuts. Skips the members of searched groups and the
 * rank-free siblings; at a boundary stores the result (a success as the lower bound
 * need, a failure as the upper bound need - 1) with its relied-on cards, which
 * include every equivalent group that is not wholly small when no move cut. */
NODE_STEP int search_moves(Engine *e, const Position *p, int target, Boundary *b,
                           uint64_t *rel, const int np, const int root)
{
    if (root && e->root_first >= 0) b->hint = e->root_first;
    MoveList ml;
    int n = moves_first_at(p, &ml, b->hint, np);
    Move *moves = ml.move;
    uint64_t biggest = 0, rel_all = 0;
    int maximiser = p->side[p->to_move];
    int result = !maximiser, cut = 0, best = -1, sorted = 0;
    int small_below[NSUITS] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        if (i) { /* (the first move is never skipped) */
            if (i == 1) sorted = moves_rest(&ml);
            if (!sorted) move_pick(moves, i, n);
            if (63 - __builtin_clzll(moves[i].group) < small_below[card_suit(moves[i].card)])
                continue;
        }
        int card = moves[i].card;
        uint64_t rc, before = root ? e->nodes : 0;
        /* what each child is expected to answer, as a null-window search's node types:
         * the maximiser's first move is expected to cut, and once it has not, the
         * others to fail too; the minimiser's first move is expected to refute a node
         * expected to fail, and once it has not, the others to fail as refutations */
        int child_no = maximiser ? b->expect_no || i > 0 : b->expect_no && i == 0;
        int r = search_child(e, p, card, target, &rc, np, child_no);
        if (root && e->nodes - before > biggest) {
            biggest = e->nodes - before;
            e->root_biggest = card;
        }
        if (r == maximiser) {
            STAT(e, CUTOFFS);
            if (!i) STAT(e, FIRST_MOVE_CUTOFFS);
            result = r;
            rel_all = rc;
            cut = 1;
            best = card;
            break;
        }
        rel_all |= rc;
        small_below[card_suit(card)] = rank_free_limit(rc, card, small_below[card_suit(card)]);
    }
    if (!cut) rel_all = cover_groups(rel_all, moves, n);
    *rel = rel_all;
    if (np == 0) {
        if (result) tt_store(&e->tt, &b->tp, p, rel_all, b->need, p->tricks_left, best);
        else tt_store(&e->tt, &b->tp, p, rel_all, 0, b->need - 1, best);
    }
    return result;
}

/* Can the maximiser make `seat` win `target` tricks in total (counted included)? */
NODE_STEP int ab_at(Engine *e, const Position *p, int target, uint64_t *rel, const int np,
                    const int root, const int expect_no)
{
    *rel = 0;
    count_node(e);
    Boundary b;
    Position canonical;
    b.need = target - p->counted;
    b.hint = -1;
    b.expect_no = expect_no;
    /* 0: only the root checks that need is between 1 and the tricks left; below it
     * these tests were passed: inside a trick by the parent's need, which stands, at a
     * trick boundary by the parent, which counts such a child as a leaf (step 10) */
    if (root) {
        if (b.need <= 0) return 1;
        if (b.need > p->tricks_left) return 0;
    }
    if (np) {
        /* inside a trick, misere: a coalition needing every trick fails once the seat
         * has lost this one */
        if (p->misere && b.need == p->tricks_left && misere_trick_lost(p, rel)) {
            STAT(e, MISERE_TRICK_LOST);
            return 0;
        }
    } else {
        if (e->relaxed && relaxed_canonical(p, &canonical)) p = &canonical;
        int r = boundary_steps(e, p, &b, rel); /* 1-9 */
        if (r != SM_UNKNOWN) return r;
    }
    return search_moves(e, p, target, &b, rel, np, root); /* 10 */
}

static int ab0(Engine *e, const Position *p, int target, uint64_t *rel, int expect_no)
{
    return ab_at(e, p, target, rel, 0, 0, expect_no);
}

static int ab1(Engine *e, const Position *p, int target, uint64_t *rel, int expect_no)
{
    return ab_at(e, p, target, rel, 1, 0, expect_no);
}

static int ab2(Engine *e, const Position *p, int target, uint64_t *rel, int expect_no)
{
    return ab_at(e, p, target, rel, 2, 0, expect_no);
}

__attribute__((noinline))
static int ab_root(Engine *e, const Position *p, int target, uint64_t *rel)
{
    switch (p->nplayed) {
    case 0: return ab_at(e, p, target, rel, 0, 1, 0);
    case 1: return ab_at(e, p, target, rel, 1, 1, 0);
    default: return ab_at(e, p, target, rel, 2, 1, 0);
    }
}

/* The search from any position (the root of a search: e->root_first, -1 or a move to
 * try first, and e->root_biggest, its move with the biggest subtree so far). An
 * aborted search comes back here by longjmp with e->aborted set, and gives 0. */
static int ab(Engine *e, const Position *p, int target, uint64_t *rel)
{
    jmp_buf here;
    e->abort_to = &here;
    const int relaxed = e->relaxed; /* an abort inside relaxed_search skips its reset */
    if (setjmp(here)) {
        e->relaxed = relaxed;
        *rel = 0;
        return 0;
    }
    return ab_root(e, p, target, rel);
}

/* The steps of the exact value between lo and hi (see exact_value_within). */
static int step_value(Engine *e, const Position *p, int lo, int hi, int g)
{
    uint64_t rel;
    e->root_first = -1;
    while (lo < hi) {
        if (g > hi) g = hi;
        if (g <= lo) g = lo + 1;
        e->root_biggest = -1;
        int r = ab(e, p, g, &rel);
        if (e->aborted) {
            e->root_first = -1;
            return SM_ABORTED;
        }
        /* Seat to move at the root and every move failed: the one whose refutation
         * took longest came nearest, so it goes first at the lower target. A wrong
         * first move there costs a whole refutation (seed 11's diamonds entry for E
         * spent half its nodes refuting the heart ace), and the exact value's steps
         * down from a high first target see every move fail first. Only the seat's
         * root: for the coalition's, the same rule cost 10% on single solves. */
        e->root_first = (!r && !p->misere && p->side[p->to_move]) ? e->root_biggest : -1;
        if (r) lo = g++;
        else hi = --g;
    }
    e->root_first = -1; /* the other searches from outside have no first move */
    return lo;
}

/* Exact value: seat's tricks, counted included, known to lie in lo..hi (the caller's
 * knowledge; the position's own range and settled trumps narrow it further). The proofs
 * at and next to the true value cost the most and searches far from it are cheap, so
 * rather than bisecting it steps one trick at a time from the first target g. (In
 * misere the relaxed game comes in node by node: relaxed_table, relaxed_search.) */
static int exact_value_within(Engine *e, const Position *p, int lo, int hi, int g)
{
    if (lo < p->counted) lo = p->counted;
    if (hi > p->counted + p->tricks_left) hi = p->counted + p->tricks_left;
    if (p->nplayed == 0) {
        int seat_min, others_min;
        settled_tricks(p, &seat_min, &others_min);
        if (lo < p->counted + seat_min) lo = p->counted + seat_min;
        if (hi > p->counted + p->tricks_left - others_min) hi = p->counted + p->tricks_left - others_min;
    }
    return step_value(e, p, lo, hi, g);
}

/* Where the exact value's steps start with nothing known: a typical value, a third of
 * the tricks left. */
static inline int first_target(const Position *p)
{
    return p->counted + (p->tricks_left + 1) / 3;
}

/* The exact value with nothing known. */
static int exact_value(Engine *e, const Position *p)
{
    return exact_value_within(e, p, 0, MAX_TRICKS, first_target(p));
}

static void setup(Engine *e, const SmQuery *q, Position *p)
{
    pos_init(p, q->hands, e->trump, q->leader, e->seat, e->misere, e->must_ruff);
    for (int i = 0; i < q->nplayed; i++) pos_play(p, q->played[i]);
    e->nodes = 0;
    memset(e->stat, 0, sizeof e->stat);
    e->aborted = 0;
    memset(e->settled, 0, sizeof e->settled); /* a new deal: its own settled counts */
}

int engine_solve(Engine *e, const SmQuery *q)
{
    Position p;
    setup(e, q, &p);
    return exact_value(e, &p);
}

int engine_relaxed_solve(Engine *e, const SmQuery *q)
{
    Position p;
    setup(e, q, &p);
    e->relaxed = p.misere;
    int v = step_value(e, &p, p.counted, p.counted + p.tricks_left, first_target(&p));
    e->relaxed = 0;
    return v;
}

int engine_can_reach(Engine *e, const SmQuery *q, int target)
{
    Position p;
    uint64_t rel;
    setup(e, q, &p);
    /* misere: seat holds itself to <= target unless the coalition forces target+1 */
    int r = e->misere ? !ab(e, &p, target + 1, &rel) : ab(e, &p, target, &rel);
    return e->aborted ? SM_ABORTED : r;
}

int engine_can_reach_within(Engine *e, const SmQuery *q, int target, uint64_t max_nodes)
{
    e->node_limit = max_nodes;
    int r = engine_can_reach(e, q, target);
    e->node_limit = 0;
    return r == SM_ABORTED && e->aborted == SM_STOP_BUDGET ? SM_OVER_BUDGET : r;
}

/* Every card's value. Where the caller knows the position's value (known >= 0), it
 * bounds every child's on one side (at most that after a card of the maximiser, at least
 * that after one of the minimiser) and each child's steps start there: a card that keeps
 * the value then costs one question, answered by the table where the caller's searches
 * proved it. */
int engine_card_values(Engine *e, const SmQuery *q, int known, int cards[MAX_TRICKS], int values[MAX_TRICKS])
{
    Position p;
    setup(e, q, &p);
    int maximiser = p.side[p.to_move];
    Move moves[MAX_MOVES];
    int n = gen_moves(&p, moves, -1);
    int count = 0;
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        Position c = p;
        pos_play(&c, moves[i].card);
        e->nodes = 0;
        int v = known < 0   ? exact_value(e, &c)
                : maximiser ? exact_value_within(e, &c, 0, known, known)
                            : exact_value_within(e, &c, known, MAX_TRICKS, known + 1);
        nodes += e->nodes;
        if (v == SM_ABORTED) return SM_ABORTED;
        uint64_t group = moves[i].group;
        while (group) {
            cards[count] = __builtin_ctzll(group);
            values[count] = v;
            count++;
            group &= group - 1;
        }
    }
    e->nodes = nodes;
    return count;
}

/* Whether `card`, played by the mover at p, keeps seat's value v: the maximiser keeps
 * it when the child still reaches v, the minimiser when the child does not reach v+1.
 * One null-window search; an abort leaves e->aborted set. */
static int keeps_value(Engine *e, const Position *p, int card, int v)
{
    uint64_t rel;
    int maximiser = p->side[p->to_move];
    Position c = *p;
    pos_play(&c, card);
    return ab(e, &c, maximiser ? v : v + 1, &rel) == maximiser;
}

/* The mover's first card in `order` that keeps the position's exact value: one exact
 * value, then one null-window search a card at that value (a card that loses it is
 * refuted at the cheap side; the one that keeps it finds most of its proof in the
 * table), where card_values needs an exact value for every card. Cards equivalent to
 * one already refuted are skipped, and so are cards not legal now. */
int engine_best_card(Engine *e, const SmQuery *q, const int *order, int norder, int *value)
{
    Position p;
    uint64_t refuted = 0;
    setup(e, q, &p);
    int v = exact_value(e, &p);
    if (v == SM_ABORTED) return SM_ABORTED;
    *value = v;
    Move moves[MAX_MOVES];
    int n = gen_moves(&p, moves, -1);
    for (int k = 0; k < norder; k++) {
        uint64_t group = 0;
        for (int i = 0; i < n && !group; i++)
            if (moves[i].group >> order[k] & 1) group = moves[i].group;
        if (!group || (group & refuted)) continue;
        int kept = keeps_value(e, &p, order[k], v);
        if (e->aborted) return SM_ABORTED;
        if (kept) return order[k];
        refuted |= group;
    }
    return SM_NO_CARD; /* no card of `order` is legal and keeps the value */
}

/* The legal cards of the player to move that keep `value`, the seat's value of the
 * position (known to the caller): one null-window search an equivalent group, at that
 * value. Returns the cards as a mask, or SM_ABORTED. */
int64_t engine_keeping_cards(Engine *e, const SmQuery *q, int value)
{
    Position p;
    uint64_t keeping = 0;
    setup(e, q, &p);
    Move moves[MAX_MOVES];
    int n = gen_moves(&p, moves, -1);
    for (int i = 0; i < n; i++) {
        int kept = keeps_value(e, &p, moves[i].card, value);
        if (e->aborted) return SM_ABORTED;
        if (kept) keeping |= moves[i].group;
    }
    return (int64_t)keeping;
}

int engine_pv(Engine *e, const SmQuery *q, int cards[NSEATS * MAX_TRICKS])
{
    Position p;
    setup(e, q, &p);
    int v = exact_value(e, &p);
    if (v == SM_ABORTED) return SM_ABORTED;
    int len = 0;
    while (p.tricks_left > 0) {
        Move moves[MAX_MOVES];
        int n = gen_moves(&p, moves, -1);
        int chosen = -1;
        for (int i = 0; i < n && chosen < 0; i++) {
            int kept = keeps_value(e, &p, moves[i].card, v);
            if (e->aborted) return SM_ABORTED;
            if (kept) chosen = moves[i].card;
        }
        if (chosen < 0) chosen = moves[0].card; /* unreachable when the value is exact */
        pos_play(&p, chosen);
        cards[len++] = chosen;
    }
    return len;
}
