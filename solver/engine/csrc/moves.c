/* Move generation and ordering.
 *
 * Ordering matters more than anything else for a null-window search: the first move
 * tried at a node should usually be the one that proves the bound. Leads in normal
 * play: seat first knocks out the one card above its top group of a suit (its way to
 * make a trick without a top card), then cashes sure winners (unless an opponent can
 * ruff), then leads its long suits where the others hold no trump and, holding
 * trumps, its short side suits, low cards before high, suits an opponent ruffs last;
 * the coalition first tries the cheapest lead that surely keeps the trick (to the
 * partner's higher card, above seat's best, or to the partner's ruff after those)
 * or knocks out seat's cards above its own top group, then its own top cards, suits
 * seat is short in first. A follower tries the cards that leave the
 * trick with its side, looking at whether the last player can still beat the card,
 * cheapest first (a second hand forcing the last player's higher card before that).
 * Misere has its own rule (score_misere): who ends up with the trick when every
 * player stays under the winning card whenever it can. A lead remembered by the
 * transposition table goes first. The classes were chosen by node counts. */
#include <stddef.h>
#include "moves.h"

/* Is seat o void in suit s while holding a trump (so it could ruff a lead of s)? */
static int can_ruff(const Position *p, int o, int s)
{
    return p->trump != NOTRUMP && s != p->trump && !(p->hand[o] & suit_lane(s)) &&
           (p->hand[o] & suit_lane(p->trump));
}

/* Highest rank (0..12) seat x holds in suit s, or -1. */
static int top_rank(const Position *p, int x, int s)
{
    unsigned lane = (unsigned)(p->hand[x] >> (LANE * s)) & LANE_MASK;
    return lane ? 31 - __builtin_clz(lane) : -1;
}

/* Misere: must player x (with a card still to play to a trick led in `led`) beat the
 * winning card w, having no legal card that stays under it? */
static int forced_over(const Position *p, int x, int led, int w)
{
    return pos_legal_to(p, x, led) && !pos_can_stay_under(p, x, led, w);
}

/* Lowest card of a non-empty mask. */
static int low_card(uint64_t m) { return __builtin_ctzll(m); }

/* Misere ordering (everyone wants to lose the trick; the coalition wants seat to take
 * it). Playing last, a player beats the winning card only when it cannot stay under
 * it; second, it plays its lowest legal card. Outcomes the mover wants first, the
 * highest card first among them (shed high cards while safe); the classes and
 * tie-breaks of the other leads were chosen by node counts on misere deals. */
static int16_t score_misere(const Position *p, int card)
{
    int me = p->to_move, seat = p->seat;
    int r = card_rank(card), s = card_suit(card);
    int y = (me + 1) % NSEATS, z = (me + 2) % NSEATS;
    int seat_wins;
    if (p->nplayed == 0) {
        if (me == seat) {
            /* seat loses if the next player must go over, or, when it ducks, the last */
            seat_wins = !forced_over(p, y, s, card) && !forced_over(p, z, s, card);
        } else if (y == seat) {
            /* seat second: it must go over; then its lowest legal card must stand */
            seat_wins = 0;
            if (forced_over(p, seat, s, card)) {
                int sc = low_card(pos_legal_to(p, seat, s));
                seat_wins = !forced_over(p, z, s, sc);
            }
        } else {
            /* seat last: the partner plays its lowest legal card first */
            int w = card;
            uint64_t l = pos_legal_to(p, y, s);
            if (l && forced_over(p, y, s, card)) w = low_card(l);
            seat_wins = forced_over(p, seat, s, w);
        }
        int good = (me == seat) ? !seat_wins : seat_wins;
        /* seat's safe leads from its shortest suits first (30 a card, above any rank
         * difference), so that it runs out of them and can then discard its high cards
         * on the coalition's leads there. Full deals, seeds 0-9 in spades: nodes
         * 346.9M -> 325.5M, median solve 19.3M -> 15.2M; seeds 10-14 in no trump
         * 520.8M -> 458.5M. 45 or 60 a card: the same medians, seed 9's tail solve
         * +13% and +32%; 8 a card: 12-card deals -2%, full deals not measured */
        if (good && me == seat) return (int16_t)(200 + r - 30 * popcount64(p->hand[me] & suit_lane(s)));
        if (good) return (int16_t)(200 + r);
        if (me == seat) {
            /* seat takes this trick: a card no one can beat last */
            uint64_t over = (p->hand[y] | p->hand[z]) & suit_lane(s) & ~(((uint64_t)2 << card) - 1);
            return (int16_t)(50 + r - 30 * !over);
        }
        /* the coalition cannot force seat now: leads in seat's longest suits first (40
         * a card; from 3 cards of seat's level with the leads that force it now), the
         * highest card first. Misère solves, dealer's value, eldest leads: 12- and
         * 13-card deals (seeds 0-19 and 0-9, spades and no trump) 27.09M -> 18.86M
         * nodes; full deals seeds 0, 1, 3, 4, 5 in spades 55.29M -> 45.22M, seeds 6-8 in
         * spades and 10, 11 in no trump 366.6M -> 188.3M (low leads in suits seat holds
         * before). 30 a card: 19.94M, 44.91M, 195.3M; 20: 23.3M, 49.7M; 60: 18.9M,
         * 46.2M. High leads there without the length: 26.5M and 57.7M; capped below the
         * forcing leads: 24.0M and 55.6M; the forcing leads ordered by length too: worse
         * at every weight tried */
        int seat_len = popcount64(p->hand[seat] & suit_lane(s));
        return (int16_t)(50 + r + 30 * (seat_len != 0) + 40 * seat_len);
    }
    int wins = pos_beats(p, card, p->win_card);
    int w_seat = wins ? me : p->win_seat;
    int w_card = wins ? card : p->win_card;
    if (p->nplayed == 1 && forced_over(p, y, p->led_suit, w_card)) w_seat = y;
    int good = (me == seat) ? w_seat != seat : w_seat == seat;
    int trump_penalty = (s == p->trump && s != p->led_suit && !good) ? 20 : 0;
    /* seat discarding safely: from its shortest suit first (30 a card, above any rank
     * difference), towards a void where it can shed more high cards later. Full deals
     * seeds 0-9 in spades: nodes 325.5M -> 261.0M (seed 9 163.5M -> 112.0M); seeds
     * 10-14 in no trump 458.5M -> 412.5M; 13-card deals -13% */
    if (me == seat && good && s != p->led_suit)
        return (int16_t)(300 + r - 30 * popcount64(p->hand[me] & suit_lane(s)));
    return (int16_t)((good ? 300 : 100) + r - trump_penalty);
}

/* The ordering key of the move with weight sc made i-th: the weight above five bits
 * of (inverted) index, all distinct, so that a higher key is a better move, ties in
 * generation order. */
static inline int32_t move_key(int sc, int i) { return ((sc + 32768) << 5) | (31 - i); }

/* No rank lies above this one (the ace): a band line no card is above. */
#define NO_LINE 12

/* Normal play, player `me` leading a card of suit s below its top group: the rank
 * above which such a lead is in me's top group of the suit (me's highest card and
 * those of its cards that no opponent's card separates from it), when that group has
 * a >= 1 opponents' cards above it, at most `max_above`, and more than a of me's
 * cards; NO_LINE when it has not. Each lead of the group forces out at least one card
 * above it (or wins at once), so after a of them me holds the top card of the suit:
 * that is how a side without a top card makes one (an ordering hint only). `opp`:
 * the cards of me's opponents, both other hands for seat, seat's alone for a
 * coalition player (the partner's cards between do not matter). */
static inline int knock_out_line(const Position *p, uint64_t opp, int s, int max_above)
{
    unsigned own = (unsigned)(p->hand[p->to_move] >> (LANE * s)) & LANE_MASK;
    unsigned theirs = (unsigned)(opp >> (LANE * s)) & LANE_MASK;
    int top = 31 - __builtin_clz(own);
    int above = popcount32(theirs >> (top + 1));
    if (above < 1 || above > max_above) return NO_LINE;
    unsigned below = theirs & ((1u << top) - 1);
    int floor = below ? 31 - __builtin_clz(below) : -1; /* the group lies above this rank */
    return popcount32(own >> (floor + 1)) > above ? floor : NO_LINE;
}

/* Does player x hold more cards of suit s than each other hand? */
static int longest_in(const Position *p, int x, int s)
{
    int len = popcount64(p->hand[x] & suit_lane(s));
    for (int o = 0; o < NSEATS; o++)
        if (o != x && popcount64(p->hand[o] & suit_lane(s)) >= len) return 0;
    return 1;
}

/* The suits an opponent of the player to move can ruff a lead of, as the top bit (15)
 * of their lanes: those it is void in while holding a trump. All suits at once, for
 * a lead's every suit: a lane is empty when adding 0x7FFF leaves its top bit clear. */
static uint64_t ruffable_leads(const Position *p)
{
    const uint64_t tops = UINT64_C(0x8000800080008000);
    if (p->trump == NOTRUMP) return 0;
    int me = p->to_move;
    uint64_t voids = 0;
    for (int o = 0; o < NSEATS; o++)
        if (p->side[o] != p->side[me] && (p->hand[o] & suit_lane(p->trump)))
            voids |= ~(p->hand[o] + UINT64_C(0x7FFF7FFF7FFF7FFF)) & tops;
    return voids & ~((uint64_t)1 << (LANE * p->trump + 15));
}

/* The ordering weight of a normal-play lead below the top group of a suit no opponent
 * can ruff depends on its rank r only through where r lies against two lines of the
 * suit: the weight is (r > hi ? high : r > lo ? mid : low) - r. So the weights are
 * made once a suit (rather than once a card, which repeated every test of the suit
 * for each of its groups). */
typedef struct {
    int lo, hi;          /* the lines (ranks; NO_LINE: no card above it) */
    int low, mid, high;  /* the weights of the three bands, plus the rank */
} LeadBands;

static void lead_bands(const Position *p, uint64_t live, int s, LeadBands *b)
{
    int me = p->to_move;
    if (p->side[me]) {
        uint64_t others = live & ~p->hand[me];
        /* seat (its top cards and suits an opponent ruffs are weighted in lead_keys):
         * a low lead into a void lets that opponent discard (or ruff) at will */
        int low = 100;
        for (int o = 0; o < NSEATS; o++)
            if (o != me && !(p->hand[o] & suit_lane(s))) low -= 10;
        /* holding trumps, its short side suits first (voids make ruffs) */
        int tail = -2 * (s == p->trump);
        if (p->trump != NOTRUMP && s != p->trump && (p->hand[me] & suit_lane(p->trump))) {
            int len = popcount64(p->hand[me] & suit_lane(s));
            tail = 3 * (4 - (len < 4 ? len : 4));
        }
        /* knocking out the one card above seat's top group first of all, before
         * cashing (table nodes over seeds 0..3 -27%, declaration nodes seeds 0, 2
         * -51%); in trumps only when seat is longest there, so that it keeps
         * control (table nodes seeds 0..7 -1.5%, declaration nodes -1%); against
         * two cards above it, not (table nodes +2%) */
        int knock = knock_out_line(p, others, s, 1);
        if (knock != NO_LINE && s == p->trump && !longest_in(p, me, s)) knock = NO_LINE;
        /* otherwise its long suits, where the others hold no trump: seat's last
         * cards there win once the others' are gone (table nodes seeds 0..7 -1.3%,
         * declaration nodes -0.6%) */
        int long_suit = longest_in(p, me, s) &&
                        (p->trump == NOTRUMP || !(others & suit_lane(p->trump)));
        b->lo = knock;
        b->hi = NO_LINE;
        b->mid = b->high = low + 200 + tail;
        b->low = low + 10 * long_suit + tail;
        return;
    }
    /* coalition: the cheapest lead that surely keeps the trick (to the partner's
     * higher card or ruff, or over seat's best) beats cashing a top card, which
     * spends a winner; measured on the bench deals. Among the leads that keep
     * the trick, and among the plain ones, the suits seat is short in come first:
     * they strip seat's short suits and leave its long ones, where its length
     * would make tricks, untouched (6 per card of seat's: about a third fewer
     * declaration-optimiser nodes, seeds 0..4) */
    int seat = p->seat, partner = 3 - me - seat;
    int seat_len = popcount64(p->hand[seat] & suit_lane(s));
    int st = top_rank(p, seat, s), pt = top_rank(p, partner, s);
    /* into seat's void (seat discards at will) after the others */
    int keep = (seat_len ? 200 : 165) - 6 * seat_len;
    /* a lead over seat's best card keeps the trick */
    b->hi = st;
    b->high = keep;
    if (pt > st || (st >= 0 && can_ruff(p, partner, s))) {
        /* so does any lead when the partner beats seat's best or ruffs while seat
         * must follow; kept only by the partner's ruff after the others: the ruff
         * spends a trump the coalition may need against seat's (table nodes seeds
         * 0..7 -0.6%, declaration nodes seeds 0, 2 -3%) */
        b->lo = NO_LINE;
        b->low = b->mid = keep - 30 * (pt < st);
        return;
    }
    /* a knock-out lead ranks with the leads that keep the trick (table nodes
     * seeds 0..3 -10%, declaration nodes seeds 0, 2 -6%), whatever the number
     * of seat's cards it knocks out (against only one: table nodes seeds 0..7
     * +1.4%, declaration nodes +11%) */
    b->lo = knock_out_line(p, p->hand[seat], s, 13);
    b->low = 100 - 2 * (s == p->trump) - 6 * seat_len;
    b->mid = b->low + 100;
}

/* Ordering weights of leads in normal play (followers: follower_keys; misere:
 * score_misere). Seat cashes winners unless an opponent ruffs; suits an opponent
 * ruffs come last, a top card there before low ones. The coalition leads the cheapest
 * card that keeps the trick before cashing a top card (lead_bands). Groups come suit
 * by suit, low to high, so a suit's bands are made at its first group that needs them
 * (the top group, the last of its suit, never does). */
static void lead_keys(const Position *p, uint64_t live, Move *out, int n)
{
    int cash = p->side[p->to_move] ? 250 : 150;
    int suit = -1, ruffable = 0, banded = 0;
    uint64_t ruffs = ruffable_leads(p), top = 0;
    LeadBands b = {NO_LINE, NO_LINE, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        int card = out[i].card, s = card_suit(card), r = card_rank(card), w;
        if (s != suit) {
            suit = s;
            ruffable = (int)(ruffs >> (LANE * s + 15) & 1);
            banded = 0;
            top = high_card(live & suit_lane(s)); /* the suit's highest card in the hands */
        }
        if (out[i].group & top) {
            w = (ruffable ? 70 : cash) + r;
        } else if (ruffable) {
            w = 60 - r;
        } else {
            if (!banded) {
                lead_bands(p, live, s, &b);
                banded = 1;
            }
            w = (r > b.hi ? b.high : r > b.lo ? b.mid : b.low) - r;
        }
        out[i].key = move_key(w, i);
    }
}

/* Keys of a follower's moves (second or last hand) in normal play. Outcomes that leave
 * the trick with the mover's side first, the cheapest card among them; bad outcomes
 * last, with the card one can best spare. A card's outcome depends only on whether
 * it beats the winning card, so the classes are card masks made once a node (rather
 * than asking, card by card, who wins and whether the last player can beat it).
 * Weights: 300 (good) or 100, minus the rank, minus 20 for a trump discarded to no
 * avail, plus the covers below. */
typedef struct {
    uint64_t good;          /* cards that leave the trick with the mover's side */
    uint64_t penalty;       /* trumps discarded to no avail */
    uint64_t cover;         /* covers and forcing cards */
    uint64_t cover_by_rank; /* forcing cards that go highest first */
} FollowerClasses;

/* The classes of the cards of a follower, np being p->nplayed (a constant where this is
 * inlined: the last hand's are simpler, with no covers). */
static inline __attribute__((always_inline)) void follower_classes(const Position *p,
                                                                    FollowerClasses *fc, int np)
{
    int me = p->to_move, led = p->led_suit, wc = p->win_card;
    uint64_t trumps_lane = p->trump != NOTRUMP ? suit_lane(p->trump) : 0;
    uint64_t led_lane = suit_lane(led);
    /* the cards that beat the winning card */
    uint64_t beats = (suit_lane(card_suit(wc)) & ~((UINT64_C(2) << wc) - 1)) |
                     (card_suit(wc) != p->trump ? trumps_lane : 0);
    /* a card that does not beat it leaves the trick where it is */
    int good_under = p->side[p->win_seat] == p->side[me];
    uint64_t good, cover = 0, cover_by_rank = 0;
    if (np == 1) {
        /* the last player x, and the cards it could beat: those of the led suit below
         * its best one; void, holding trumps: any other suit's, trumps below its best */
        int x = left_of(me);
        uint64_t follow = p->hand[x] & led_lane, trumps = p->hand[x] & trumps_lane;
        uint64_t beatable = follow   ? led_lane & (high_card(follow) - 1)
                            : trumps ? ~trumps_lane | (trumps_lane & (high_card(trumps) - 1))
                                     : 0;
        if (p->side[p->win_seat] != p->side[x] && (beatable >> wc & 1)) good_under = !good_under;
        good = (p->side[me] != p->side[x] ? beats & ~beatable : beats) | (good_under ? ~beats : 0);
        if (p->leader == p->seat) {
            /* coalition second hand covering seat's lead: before the duck when the
             * partner (last) is void or could beat seat's card only with the suit's
             * top card, which is a trick anyway (declaration optimiser nodes -1.8% on
             * seeds 0..4, -3% on 5..8; covering whenever the partner holds no card
             * between seat's and this one saves more there but costs 3% on bench
             * tables) */
            uint64_t above = follow & ~((UINT64_C(2) << wc) - 1);
            uint64_t live = all_hands(p) & led_lane;
            if (live && (!follow || above == high_card(live))) cover = beats & led_lane;
        }
        /* second hand: beating the led card where the last player can beat it again
         * forces that player to spend a higher card; try it before the duck, seat its
         * cheapest such card, the coalition its highest (declaration optimiser nodes
         * -12% on seeds 0..4, -15% on 5..8, bench table nodes -29%) */
        uint64_t force = beats & ~good & led_lane;
        cover |= force;
        if (!p->side[me]) cover_by_rank = force;
    } else {
        good = good_under ? ~UINT64_C(0) : beats;
    }
    fc->good = good;
    fc->penalty = trumps_lane & ~led_lane & ~good;
    fc->cover = cover;
    fc->cover_by_rank = cover_by_rank;
}

/* Does follower_keys' common case hold: only good and bad cards among the legal ones? */
static inline int good_or_bad(const FollowerClasses *fc, uint64_t legal)
{
    return !((fc->penalty | fc->cover) & legal);
}

/* The keys of that common case. */
static void good_bad_keys(uint64_t good, Move *out, int n)
{
    for (int i = 0; i < n; i++) {
        int b = out[i].card;
        out[i].key = move_key(100 + 200 * (int)(good >> b & 1) - card_rank(b), i);
    }
}

static void follower_keys(const FollowerClasses *fc, uint64_t legal, Move *out, int n)
{
    uint64_t good = fc->good;
    if (good_or_bad(fc, legal)) {
        good_bad_keys(good, out, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        int b = out[i].card, r = card_rank(b);
        int sc = 100 + 200 * (int)(good >> b & 1) - r - 20 * (int)(fc->penalty >> b & 1) +
                 50 * (int)(fc->cover >> b & 1) + 2 * r * (int)(fc->cover_by_rank >> b & 1);
        out[i].key = move_key(sc, i);
    }
}

/* One move per group, from low to high, suit by suit, each represented by its lowest
 * card: a group is the legal cards left below the next start (every suit holding legal
 * cards has a start of its own, its lowest legal card, so no suit mask is needed).
 * Returns the number of groups. */
static int make_groups(uint64_t legal, uint64_t starts, Move *out)
{
    int n = 0;
    uint64_t rest = legal;
    do {
        out[n].card = (int8_t)__builtin_ctzll(starts);
        starts &= starts - 1;
        uint64_t g = rest & ((starts & -starts) - 1); /* all the rest after the last start */
        rest ^= g;
        out[n].group = g;
        n++;
    } while (starts);
    return n;
}

/* Every move with its key, in generation order (fc: the follower's classes, in
 * normal play); returns the number of moves. */
static int keyed_moves(const Position *p, uint64_t legal, uint64_t starts,
                       const FollowerClasses *fc, Move *out)
{
    int n = make_groups(legal, starts, out);
    if (p->misere) {
        for (int i = 0; i < n; i++) out[i].key = move_key(score_misere(p, out[i].card), i);
    } else if (p->nplayed == 0) {
        lead_keys(p, all_hands(p), out, n);
    } else {
        follower_keys(fc, legal, out, n);
    }
    return n;
}

/* Every move with its key, the best first; returns the number of moves. */
__attribute__((noinline))
static int make_moves(const Position *p, uint64_t legal, uint64_t starts,
                      const FollowerClasses *fc, Move *out, int hint)
{
    int n = keyed_moves(p, legal, starts, fc, out);
    if (hint >= 0) {
        for (int i = 0; i < n; i++)
            if (out[i].group >> hint & 1) out[i].key = move_key(1000, i);
    }
    /* the best move first: most nodes are cut off by it, and the search then picks
     * the others only when it needs them */
    move_pick(out, 0, n);
    return n;
}

/* The ranks (as lane bits) at which `m` holds a card of any suit: its four lanes
 * folded onto one. */
static inline unsigned ranks_held(uint64_t m)
{
    return (unsigned)((m | m >> LANE | m >> 2 * LANE | m >> 3 * LANE) & LANE_MASK);
}

/* The cards of `m` of rank r, in every suit. */
static inline uint64_t cards_of_rank(uint64_t m, int r)
{
    return m & (UINT64_C(0x0001000100010001) << r);
}

/* The lowest-ranked card of a non-empty mask, of the lowest suit among equals: the
 * first in generation order of the cards with the same weight. */
static int lowest_rank_card(uint64_t m)
{
    return __builtin_ctzll(cards_of_rank(m, __builtin_ctz(ranks_held(m))));
}

/* The group of legal cards that starts at `card` (one of `starts`): up to the next
 * start above it. */
static inline uint64_t group_at(uint64_t legal, uint64_t starts, int card)
{
    uint64_t above = starts & (~UINT64_C(0) << card << 1);
    return legal & (~UINT64_C(0) << card) & ((above & -above) - 1);
}

/* Most nodes are cut off by their first move, and most of them are a follower's in
 * normal play whose legal cards are only good or bad (follower_keys' common case):
 * its best move, the cheapest good group (or the cheapest group when none is good),
 * comes from the masks of group starts, without making the other moves. */
static inline __attribute__((always_inline)) int follower_first_at(const Position *p, MoveList *ml,
                                                                    uint64_t legal, uint64_t starts,
                                                                    int hint, int np)
{
    FollowerClasses fc;
    follower_classes(p, &fc, np);
    if (hint >= 0 || !good_or_bad(&fc, legal))
        return make_moves(p, legal, starts, &fc, ml->move, hint);
    uint64_t good = starts & fc.good, m = good ? good : starts;
    /* following suit (legal cards only of the led suit), bit order is rank order */
    int card = legal & suit_lane(p->led_suit) ? __builtin_ctzll(m) : lowest_rank_card(m);
    ml->move[0].card = (int8_t)card;
    ml->move[0].group = group_at(legal, starts, card);
    ml->made = 1;
    ml->legal = legal;
    ml->starts = starts;
    ml->good = fc.good;
    ml->lead = NULL;
    return ml->n;
}

/* A lead with a hint among its cards (the table's remembered lead: about half of the
 * searched leads have one): the hint's group goes first whatever the keys, and it cuts
 * at three in four of those leads, so the keys are made only when the others are
 * (lead_rest). */
static int hinted_lead_first(const Position *p, MoveList *ml, uint64_t legal, uint64_t starts,
                             int hint)
{
    int card = 63 - __builtin_clzll(starts & ((UINT64_C(2) << hint) - 1)); /* its group's start */
    ml->move[0].card = (int8_t)card;
    ml->move[0].group = group_at(legal, starts, card);
    ml->move[0].key = 0;
    ml->made = 1;
    ml->legal = legal;
    ml->starts = starts;
    ml->lead = p;
    return ml->n;
}

/* Hidden: the search calls these at every node, and a hidden symbol is called directly
 * rather than through the shared library's PLT. One copy for each follower: the last
 * hand's classes are simpler (no covers). Misere has its own keys. */
__attribute__((visibility("hidden")))
int lead_first(const Position *p, MoveList *ml, uint64_t legal, uint64_t starts, int hint)
{
    if (hint >= 0 && (legal >> hint & 1)) return hinted_lead_first(p, ml, legal, starts, hint);
    return make_moves(p, legal, starts, NULL, ml->move, hint);
}

__attribute__((visibility("hidden")))
int second_first(const Position *p, MoveList *ml, uint64_t legal, uint64_t starts, int hint)
{
    if (p->misere) return make_moves(p, legal, starts, NULL, ml->move, hint);
    return follower_first_at(p, ml, legal, starts, hint, 1);
}

__attribute__((visibility("hidden")))
int last_first(const Position *p, MoveList *ml, uint64_t legal, uint64_t starts, int hint)
{
    if (p->misere) return make_moves(p, legal, starts, NULL, ml->move, hint);
    return follower_first_at(p, ml, legal, starts, hint, 2);
}

/* The groups starting at the cards of `m` (some of `starts`) in the order of
 * good_bad_keys within one class: by rank, then suit (its ties in generation order),
 * each suit's lane folded onto the ranks. Returns their number. */
static int groups_by_rank(uint64_t m, uint64_t legal, uint64_t starts, Move *out)
{
    int n = 0;
    unsigned ranks = ranks_held(m);
    while (ranks) {
        uint64_t at = cards_of_rank(m, __builtin_ctz(ranks));
        ranks &= ranks - 1;
        do {
            int card = __builtin_ctzll(at);
            at &= at - 1;
            out[n].card = (int8_t)card;
            out[n].group = group_at(legal, starts, card);
            n++;
        } while (at);
    }
    return n;
}

/* The same when all the cards are of one suit, where rank order is bit order. */
static int groups_in_suit(uint64_t m, uint64_t legal, uint64_t starts, Move *out)
{
    int n = 0;
    for (; m; m &= m - 1, n++) {
        int card = __builtin_ctzll(m);
        out[n].card = (int8_t)card;
        out[n].group = group_at(legal, starts, card);
    }
    return n;
}

/* The others of a hinted lead, with the keys make_moves gives them (their generation
 * index included), in no particular order: the search picks them best first, in the
 * order they would have had. Made after the first, so the hint's group leaves the
 * list (the last takes its place). */
static void lead_rest(MoveList *ml)
{
    Move *out = ml->move + 1;
    int n = keyed_moves(ml->lead, ml->legal, ml->starts, NULL, out);
    int i = 0;
    while (out[i].card != ml->move[0].card) i++;
    out[i] = out[n - 1];
}

/* The others of follower_first_at's common case, made in their final order (the good
 * groups, then the bad, each cheapest first), so that the search picks none of them:
 * the same order good_bad_keys' keys give, with no keys. A follower mostly follows
 * suit: then its cards need no sorting by rank. */
static void follower_rest(MoveList *ml)
{
    uint64_t rest = ml->starts & ~(UINT64_C(1) << ml->move[0].card);
    uint64_t good = rest & ml->good;
    int n = 1;
    if (!(ml->legal & ~suit_lane(card_suit(ml->move[0].card)))) {
        n += groups_in_suit(good, ml->legal, ml->starts, ml->move + 1);
        groups_in_suit(rest & ~good, ml->legal, ml->starts, ml->move + n);
    } else {
        n += groups_by_rank(good, ml->legal, ml->starts, ml->move + 1);
        groups_by_rank(rest & ~good, ml->legal, ml->starts, ml->move + n);
    }
}

__attribute__((visibility("hidden")))
int moves_make_rest(MoveList *ml)
{
    ml->made = ml->n;
    if (ml->lead) {
        lead_rest(ml);
        return 0;
    }
    follower_rest(ml);
    return 1;
}

int gen_moves(const Position *p, Move out[MAX_MOVES], int hint)
{
    MoveList ml;
    int n = moves_first(p, &ml, hint);
    if (!moves_rest(&ml))
        for (int i = 1; i + 1 < n; i++) move_pick(ml.move, i, n);
    for (int i = 0; i < n; i++) out[i] = ml.move[i];
    return n;
}
