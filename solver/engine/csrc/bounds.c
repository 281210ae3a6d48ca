/* Sure-trick bounds at trick boundaries; each states its soundness argument. */
#include "bounds.h"

/* The highest `count` cards of `cards` (all of them if fewer). */
static uint64_t highest(uint64_t cards, int count)
{
    uint64_t out = 0;
    for (; count > 0 && cards; count--) {
        uint64_t bit = high_card(cards);
        out |= bit;
        cards ^= bit;
    }
    return out;
}

/* The top run of every suit of `hand` at once (a card mask): its cards above every
 * other live card of their suit (all of its cards of a suit nobody else holds). The
 * other cards are smeared down their lanes, each bit filling the ones below it; the
 * masks drop what a shift carries in from the lane above (13 rank bits a lane). */
static inline uint64_t top_runs(uint64_t live, uint64_t hand)
{
    uint64_t x = live & ~hand;
    x |= (x >> 1) & UINT64_C(0x1FFF1FFF1FFF1FFF);
    x |= (x >> 2) & UINT64_C(0x1FFF1FFF1FFF1FFF);
    x |= (x >> 4) & UINT64_C(0x0FFF0FFF0FFF0FFF);
    x |= (x >> 8) & UINT64_C(0x00FF00FF00FF00FF);
    return hand & ~x;
}

/* The suits (a 4-bit mask) whose top live card is in `hand`: its lane, read as a
 * number, exceeds the other live cards' (the higher top bit decides). The four lanes
 * are compared at once: with bit 15 of each lane set, own - (others + 1) keeps that
 * bit exactly when own > others, and no borrow crosses a lane (13 rank bits). */
static inline unsigned top_suits(uint64_t live, uint64_t hand)
{
    const uint64_t high = UINT64_C(0x8000800080008000), one = UINT64_C(0x0001000100010001);
    uint64_t d = ((hand | high) - ((live & ~hand) + one)) & high;
    return (unsigned)((d >> 15 | d >> 30 | d >> 45 | d >> 60) & 15);
}

/* The highest of own's trumps (a lane bit) at which its running margin over the
 * opposing trumps `against` (i less the opposing trumps above own's i-th highest)
 * reaches `count`, or 0 if none does. */
static unsigned margin_reached(unsigned own, unsigned against, int count)
{
    int i = 0;
    while (own) {
        int b = 31 - __builtin_clz(own);
        own ^= 1u << b;
        if (++i - popcount32(against >> b) >= count) return 1u << b;
    }
    return 0;
}

/* Trump tricks settled whoever plays how. Every trick in which a trump is played is
 * won by the highest trump in it. Take seat's i highest trumps: they fall on i
 * different tricks (one card per player per trick), and each of those tricks is lost
 * only if another seat plays a higher trump to it. A card that beats one of them is
 * above the lowest of them, and one card spoils one trick, so seat wins at least
 * i - (other seats' trumps above its i-th highest). The coalition likewise: of its
 * top trumps, player X's share lies on iX different tricks and only seat's higher
 * trumps can take those tricks from the coalition (a partner's higher trump keeps
 * them), so it wins at least max(iX, iY) - (seat's trumps above the lowest of them).
 * This holds for any play, so in misere too; settled_cards names the trumps a count
 * depends on. The count itself, settled_tricks, is inline in bounds.h. */

/* The coalition's suit lengths (hand 0: Y, seat's left; 1: Z) and the discard count
 * two bounds rely on. With the coalition on lead and seat not yet winning a trick,
 * hand X's cards of a side suit s leave, before s is first led, only as discards on
 * its partner's leads of suits X is void in: at most D = sum over the side suits u
 * other than s of max(0, partner's length in u - X's length in u) (the proof is in
 * all_tricks_bound's comment). */
typedef struct {
    int len[2][NSUITS];
    int trumps[2];
    int spare[2]; /* that sum over every side suit, s included */
} Coalition;

/* The lengths only (cheap, for an early exit before the rest). */
static inline void coalition_lengths(const Position *p, Coalition *c)
{
    /* each hand's 16-bit word of lengths once, then constant shifts */
    unsigned wy = length_word(p, left_of(p->seat));
    unsigned wz = length_word(p, right_of(p->seat));
    for (int s = 0; s < NSUITS; s++) {
        c->len[0][s] = word_length(wy, s);
        c->len[1][s] = word_length(wz, s);
    }
}

/* The trumps and spares, from the lengths. */
static inline void coalition_spares(const Position *p, Coalition *c)
{
    c->trumps[0] = p->trump != NOTRUMP ? c->len[0][p->trump] : 0;
    c->trumps[1] = p->trump != NOTRUMP ? c->len[1][p->trump] : 0;
    c->spare[0] = c->spare[1] = 0;
    for (int s = 0; s < NSUITS; s++) {
        if (s == p->trump) continue;
        int ly = c->len[0][s], lz = c->len[1][s];
        if (lz > ly) c->spare[0] += lz - ly;
        else c->spare[1] += ly - lz;
    }
}

static inline void coalition_of(const Position *p, Coalition *c)
{
    coalition_lengths(p, c);
    coalition_spares(p, c);
}

/* A hand's word of suit lengths (4 bits a suit) spread to one byte a suit, in the
 * order of suits 0, 2, 1, 3, so that bytewise arithmetic with a guard bit (bit 7)
 * handles the four suits at once: lengths are at most 13, so no borrow or carry
 * crosses a byte. */
static inline unsigned spread_lengths(unsigned w)
{
    return (w & 0x0F0Fu) | (w & 0xF0F0u) << 12;
}

/* The bytes of spread_lengths that hold the suits of a 4-bit suit mask. */
static const unsigned suit_bytes[16] = {
    0x00000000u, 0x000000FFu, 0x00FF0000u, 0x00FF00FFu, 0x0000FF00u, 0x0000FFFFu,
    0x00FFFF00u, 0x00FFFFFFu, 0xFF000000u, 0xFF0000FFu, 0xFFFF0000u, 0xFFFF00FFu,
    0xFF00FF00u, 0xFF00FFFFu, 0xFFFFFF00u, 0xFFFFFFFFu,
};

/* The leads the coalition surely has in the suits outside `tops` (a 4-bit mask): the
 * longer coalition holding of each, summed (cheap: two bounds test it first and most
 * of their calls end there). All four suits at once: the longer holding is picked
 * bytewise by the guard bit of Y's length less Z's, and the bytes are summed by a
 * multiplication. */
static inline int leads_outside(const Position *p, unsigned tops)
{
    unsigned y = spread_lengths(length_word(p, left_of(p->seat)));
    unsigned z = spread_lengths(length_word(p, right_of(p->seat)));
    unsigned y_longer = ((((y | 0x80808080u) - z) >> 7) & 0x01010101u) * 0xFFu;
    unsigned longer = ((y & y_longer) | (z & ~y_longer)) & ~suit_bytes[tops];
    return (int)((longer * 0x01010101u) >> 24);
}

/* Leads of side suit s that hand x surely still follows before s is first led: its
 * length less the D of s (<= 0: it could become void there). */
static inline int sure_follows(const Coalition *c, int x, int s)
{
    int own = c->len[x][s], other = c->len[!x][s];
    return own - (c->spare[x] - (other > own ? other - own : 0));
}

/* Seat needs one trick (normal play): the coalition must win every trick, so after
 * the first it leads every one. For a suit s where seat holds a1 > a2 > ... > am: a
 * coalition hand can win a trick led in s without a higher card of s only by ruffing
 * it, void in s and holding a trump, and each such ruff takes a trump of the ruffer
 * and a card of s from its partner (who led it), so there are at most r = min(Z's
 * trumps, Y's length) + min(Y's trumps, Z's length) of them (0 in no trump; the trump
 * suit itself is never reserved: were seat to stop it, settled trumps would already
 * count a trick). With the coalition on lead (it then leads every trick) a hand at
 * least as long as its partner in every suit never ruffs: a lead takes a card of the
 * suit from each hand holding it and the other hand may only discard, so the order of
 * lengths stands and that hand is never void in a suit led; its trumps count 0 in r.
 * Seat on lead keeps that when it has an unreserved card of a suit both coalition
 * hands hold to lead first (both follow, and the coalition leads the rest). Let j be
 * the least index with j + r < m such that at most j coalition cards of s lie above
 * a(j+r+1). Seat plays its highest card of s whenever s is led: each coalition win in
 * such a trick is a ruff or takes a coalition card above the card seat played, so when
 * seat plays a(j+r+1) after rho <= r ruffs and j + r - rho such wins, no card above it
 * is left (j + r - rho <= j forces rho = r) and no ruff either: the coalition wins at
 * most j + r tricks led in s while seat holds its top j + r + 1 cards there. Seat may
 * do better keeping a1 and playing low until a1 can win. A trick Y leads (seat plays
 * last) is won by a1 unless a coalition card above a1 is in it or Z ruffed it (at most
 * min(Z's trumps, Y's length) times). A lead of Z above a1 takes such a card; one
 * below a1 loses to a1 when Y (playing after seat) holds no card of s above a1 and
 * cannot ruff (no trump counted for it in r), else seat plays low and the loss takes
 * one of Z's cards below a1. So with k the coalition cards above a1, plus Z's ruffs,
 * plus in the second case Z's cards below a1, every coalition win in s takes one of k,
 * and seat holding a1 and k other cards of s wins the (k + 1)-th lead at the latest:
 * k+1 cards serve as the reserve, a1 the card relied on. Reserve those cards in each
 * suit of a set G and call R their number; a lead of a suit outside G takes one card
 * of that suit from every coalition hand holding it, so there are at most L = sum over
 * the suits outside G of max(Y's length, Z's length) such leads. If L <= n - R seat
 * has an unreserved card for each of them (it follows, ruffs or discards with one; its
 * trumps are never reserved), so the coalition wins at most L + R - |G| < n tricks
 * when G is not empty. Seat on lead first leads an unreserved card (there is one when
 * L + R <= n - 1); the coalition's cards that trick only shorten L and the cards above
 * seat's, and then it leads the n - 1 tricks left. A suit moved into G changes the
 * cost L + R by its reserve less its max length; G takes the suits that save most, as
 * few as pass the test (at least one). *rel: the card relied on in each suit of G,
 * a(j+r+1) or a1 (its owners from the top down are in the key; the rest is
 * lengths). */
static __attribute__((noinline)) int stopper_rest(const Position *p, int ty, int tz,
                                                  int reserves[NSUITS], unsigned *g, uint64_t *rel);

static inline int stopper_with(const Position *p, int ty, int tz, int reserves[NSUITS], unsigned *g,
                               uint64_t *rel)
{
    int seat = p->seat, n = p->tricks_left - (p->leader == seat);
    int y = left_of(seat), z = right_of(seat);
    int t = p->trump;
    unsigned wy = length_word(p, y), wz = length_word(p, z);
    unsigned ws = length_word(p, seat);
    /* Most calls fail, so first a necessary condition: both rules below reserve at
     * least 1 + min(tz, Y's length) + the coalition cards above a1 of a suit (not the
     * trump), and at most seat's length there, so no G costs less than the sum over
     * the suits of the smaller of that and max(Y's length, Z's length). The rest,
     * with its register saves, is a function of its own. */
    int least = 0;
    for (int s = 0; s < NSUITS; s++) {
        int ly = word_length(wy, s), lz = word_length(wz, s);
        int l = ly > lz ? ly : lz, m = word_length(ws, s);
        int lb = 1 + (tz < ly ? tz : ly);
        if (s != t && m && lb < l) { /* (else the cards above a1 cannot bring lb below l) */
            unsigned held = (unsigned)(p->hand[seat] >> (LANE * s)) & LANE_MASK;
            unsigned theirs = (unsigned)((p->hand[y] | p->hand[z]) >> (LANE * s)) & LANE_MASK;
            lb += popcount32(theirs >> (32 - __builtin_clz(held)));
            if (lb < l && lb <= m) l = lb;
        }
        least += l;
    }
    *rel = 0;
    if (least > n) return SM_UNKNOWN;
    return stopper_rest(p, ty, tz, reserves, g, rel);
}

static int stopper_rest(const Position *p, int ty, int tz, int reserves[NSUITS], unsigned *g,
                        uint64_t *rel)
{
    int seat = p->seat, n = p->tricks_left - (p->leader == seat);
    int y = left_of(seat), z = right_of(seat);
    int t = p->trump;
    int cost = 0, delta[NSUITS];
    uint64_t marks[NSUITS] = {0, 0, 0, 0};
    unsigned wy = length_word(p, y), wz = length_word(p, z);
    for (int s = 0; s < NSUITS; s++) {
        int ly = word_length(wy, s), lz = word_length(wz, s);
        int l = ly > lz ? ly : lz;
        unsigned mine = (unsigned)(p->hand[seat] >> (LANE * s)) & LANE_MASK;
        unsigned theirs = (unsigned)((p->hand[y] | p->hand[z]) >> (LANE * s)) & LANE_MASK;
        int r = 0;
        if (s != t && t != NOTRUMP) {
            r = (tz < ly ? tz : ly) + (ty < lz ? ty : lz);
            for (int i = 0; i < r && mine; i++) mine ^= 1u << (31 - __builtin_clz(mine));
        }
        int reserve = LANE; /* cards of s seat keeps for the leads of s (LANE: none) */
        for (int i = 0; mine && s != t; i++) {
            int b = 31 - __builtin_clz(mine);
            if (popcount32(theirs >> (b + 1)) <= i) {
                reserve = i + r + 1;
                marks[s] = (uint64_t)1 << (LANE * s + b);
                break;
            }
            mine ^= 1u << b;
        }
        unsigned held = (unsigned)(p->hand[seat] >> (LANE * s)) & LANE_MASK;
        if (s != t && held && ly + lz) {
            int top = 31 - __builtin_clz(held);
            unsigned y_above = ((unsigned)(p->hand[y] >> (LANE * s)) & LANE_MASK) >> (top + 1);
            unsigned z_above = ((unsigned)(p->hand[z] >> (LANE * s)) & LANE_MASK) >> (top + 1);
            int k = popcount32(y_above | z_above);
            if (lz && (y_above || ty)) k += lz - popcount32(z_above); /* Z's leads below a1 */
            k += tz < ly ? tz : ly; /* Z's ruffs of Y's leads */
            if (k < popcount32(held) && k + 1 <= reserve) {
                reserve = k + 1;
                marks[s] = (uint64_t)1 << (LANE * s + top);
            }
        }
        cost += l;
        reserves[s] = reserve;
        delta[s] = reserve < LANE ? reserve - l : LANE;
    }
    /* G: the suits that save most, as few as pass the test (fewer cards relied on) */
    unsigned used = 0;
    for (int size = 0; size < NSUITS; size++) {
        int best = -1;
        for (int s = 0; s < NSUITS; s++)
            if (!(used >> s & 1) && (best < 0 || delta[s] < delta[best])) best = s;
        if (delta[best] >= LANE || (size && delta[best] >= 0)) return SM_UNKNOWN;
        used |= 1u << best;
        cost += delta[best];
        *rel |= marks[best];
        if (cost <= n) {
            *g = used;
            return SM_YES;
        }
    }
    return SM_UNKNOWN;
}

/* Is some suit's length in the length word a (4 bits a suit) below b's? One
 * subtraction of the spread lengths compares them all. */
static inline int some_shorter(unsigned a, unsigned b)
{
    const unsigned guard = 0x80808080u;
    return (((spread_lengths(a) | guard) - spread_lengths(b)) & guard) != guard;
}

static int stopper_bound(const Position *p, uint64_t *rel)
{
    int seat = p->seat, y = left_of(seat), z = right_of(seat), t = p->trump;
    int ty = 0, tz = 0, reserves[NSUITS];
    unsigned g;
    if (t != NOTRUMP) {
        unsigned wy = length_word(p, y), wz = length_word(p, z);
        ty = word_length(wy, t);
        tz = word_length(wz, t);
        int y_short = some_shorter(wy, wz), z_short = some_shorter(wz, wy);
        if ((ty && !y_short) || (tz && !z_short)) {
            int r = stopper_with(p, y_short ? ty : 0, z_short ? tz : 0, reserves, &g, rel);
            if (r > 0 && p->leader != seat) return r;
            /* seat on lead: a lead of a suit both coalition hands hold keeps their order */
            for (int s = 0; s < NSUITS && r > 0; s++) {
                int held = popcount64(p->hand[seat] & suit_lane(s));
                int both = word_length(wy, s) && word_length(wz, s);
                if (both && held > (g >> s & 1 ? reserves[s] : 0)) return r;
            }
        }
    }
    return stopper_with(p, ty, tz, reserves, &g, rel);
}

/* Seat's side cards that the coalition can never draw by leading: in each side suit,
 * those beyond the longer coalition hand's length there. Every lead of a suit, by
 * anyone, takes a card of it from each coalition hand still holding one, so the
 * coalition leads suit s at most m_s times (the longer of its two lengths), and the
 * excess sum over s of max(0, k_s - m_s) (k_s seat's length) never falls while seat
 * only follows suit: a coalition lead of s that seat follows lowers k_s and m_s
 * alike, a coalition discard lowers m_s only. Seat's own lead of s keeps it too unless
 * both coalition hands are void in s, when it lowers it by one. So seat, playing no
 * side card but to follow suit or to lead, still holds a side card at each of its
 * first (this count) leads. */
static int undrawable_side_cards(const Position *p)
{
    unsigned ws = length_word(p, p->seat), wl = length_word(p, left_of(p->seat)),
             wr = length_word(p, right_of(p->seat));
    int count = 0;
    for (int s = 0; s < NSUITS; s++) {
        if (s == p->trump) continue;
        int ls = word_length(wl, s), rs = word_length(wr, s);
        int excess = word_length(ws, s) - (ls > rs ? ls : rs);
        if (excess > 0) count += excess;
    }
    return count;
}

/* Normal play, a trump contract, seat needing `need`. For some j >= need let t be seat's
 * j-th highest trump (its "top" trumps are t and those above it), U_R the trumps above t
 * of seat's right-hand opponent R, U_L those of its left-hand one L, and u the cards of
 * U_R that the top trumps cannot all beat, one top trump a card (a top trump beats the
 * cards below it): the most by which R's cards above some rank outnumber the top trumps
 * above it, found by pairing each card of U_R, from the highest down, with a top trump
 * above it while one is free. Let a be the leads seat may have to make from a hand of
 * nothing but trumps: need - 1 (one more when it is on lead holding only trumps), or,
 * when it holds side cards, need - 1 + (1 if on lead) - d if that is less (d its side
 * cards the coalition cannot draw, undrawable_side_cards), but not below 0. If
 * j - |U_L| >= need and seat holds at least u + a trumps below t ("small" ones), seat
 * takes `need` tricks.
 *
 * Why: R plays before seat in every trick the coalition leads (R leads, or R's partner
 * L leads and R, its left, plays next). In such a trick, when seat may play a trump (a
 * trump is led, or it is void in the led suit; must-ruff only narrows it to trumps): if
 * R has played a card c of U_R, seat plays its lowest top trump above c if it holds one,
 * else ("a duck") its lowest trump; otherwise it plays its lowest top trump (above
 * whatever R played). When on lead it leads a side card, or its lowest trump if it holds
 * only trumps. So a top trump of seat loses only to a card of L above it, a card of
 * U_L, unless seat plays it into a card of U_R for want of a small trump. While seat
 * holds top trumps it ducks at most u times: at a duck let p be its highest top trump
 * left. Every top trump above p is gone, and none went as the lowest one (p was there),
 * so each beat a card of U_R, which was above p (p, also there, was not above it);
 * every duck so far was of a card above the then highest top trump, so above p too. So
 * R's cards above p outnumber seat's top trumps above p by at least the ducks. Suppose
 * seat took fewer than `need` tricks. It leads now (if on lead) and after each win, so
 * at most need - 1 (+ 1 if on lead) times. While it holds top trumps it plays a side
 * card only to follow suit or to lead, so (undrawable_side_cards) its first d leads are
 * side cards, and at most a of its leads come from a hand of trumps. It gives up a small
 * trump only in a duck or for such a lead, so whenever it would have to play a top trump
 * into a card of U_R (R has played one, or seat leads from a hand of top trumps with one
 * still out) it still holds a small one: that never happens. Every top trump is then played by
 * the end, each to a trick it wins or to one where a card of U_L beats it, a card of U_L
 * in one trick only: j - |U_L| >= need of them win, a contradiction. Only the ranks of
 * the trumps from t up matter; the small ones count by number, and the suit lengths
 * behind d are fixed by the table key. The small trumps needed grow with j, so the
 * least j that counts `need` decides. (Each part is needed: the small trumps for leads,
 * U_L in the count, and a top trump beating one card of U_R only: K97 against QJ3 on
 * the right and AT2 on the left, the right to lead, takes nothing (the king beats
 * the queen or the jack, not both); a count of side cards that ignores
 * the coalition's leads, or one more than undrawable_side_cards, is wrong too. The
 * brute-force tests keep these positions.) */
int rht_line(unsigned mine, unsigned l, unsigned r, int need, int trump_leads)
{
    int held = popcount32(mine);
    /* one pass down seat's trumps, t its j-th: the cards of R between the previous top
     * trump and t pair with the top trumps still free above them, the rest are u */
    int free_tops = 0, u = 0;
    unsigned rest = mine, prev = 1u << 13; /* just above the ace */
    for (int j = 1; j <= held; j++) {
        unsigned t = 1u << (31 - __builtin_clz(rest));
        rest &= ~t;
        unsigned above = 0u - (t << 1);
        int between = popcount32(r & above & (prev - 1));
        int paired = between < free_tops ? between : free_tops;
        free_tops += 1 - paired; /* t itself is free for the cards below it */
        u += between - paired;
        prev = t;
        if (j < need) continue;
        /* the small trumps needed only grow with j */
        if (held - j < u + trump_leads) return 0;
        if (j - popcount32(l & above) >= need) return (int)t;
    }
    return 0;
}

int right_hand_trumps(const Position *p, int need, uint64_t *rel)
{
    if (p->trump == NOTRUMP) return SM_UNKNOWN;
    unsigned mine, l, r;
    trump_lanes(p, &mine, &l, &r);
    if (popcount32(mine) < need) return SM_UNKNOWN;
    int trumps_only = !(p->hand[p->seat] & ~suit_lane(p->trump));
    int undrawable = trumps_only || need == 1 ? 0 : undrawable_side_cards(p); /* unused there */
    int trump_leads = rht_trump_leads(need, p->leader == p->seat, trumps_only, undrawable);
    unsigned t = (unsigned)rht_line(mine, l, r, need, trump_leads);
    if (!t) return SM_UNKNOWN;
    *rel = (all_hands(p) & suit_lane(p->trump)) & ~(((uint64_t)t << (LANE * p->trump)) - 1);
    return SM_YES;
}

/* The lowest card of a lane (0 if none). */
static inline unsigned lowest(unsigned lane) { return lane & (0u - lane); }

/* Seat's settled count (settled_tricks) from trump lanes. */
static inline int seat_settled(unsigned mine, unsigned y, unsigned z)
{
    int count, unused;
    settled_lanes(mine, y, z, &count, &unused);
    return count;
}

/* Normal play, a trump contract, seat on lead, needing `need`: leads that force the
 * coalition to spend trumps, after which settled_tricks (true for any play) counts
 * seat's trumps again. A coalition hand that spends a lower trump instead of a higher
 * one never raises seat's count (each of seat's trumps then has at least as many
 * coalition trumps above it), so for each lead a few answers of the coalition, its
 * lowest trumps, decide.
 *
 * A trump x: each coalition hand holding trumps must follow with one, so the trick is
 * won by seat (no coalition trump above x in it) or by a coalition trump above x, and
 * seat makes won + its settled count of the trumps left. The coalition does best with
 * one of three answers: both hands play their lowest trumps (seat wins if both are
 * below x), or one hand takes the trick with its lowest trump above x and the other
 * plays its lowest (a hand without trumps plays a side card, which changes no count).
 * Any other answer leaves seat at least the count of one of these: if seat wins, both
 * lowest trumps are below x too; if hand X takes the trick, X's card is at least its
 * lowest above x and its partner's at least its lowest.
 *
 * Seat's top card of a side suit s (no coalition card of s above it), some coalition
 * hand being void in s and holding trumps: the coalition takes the trick only by
 * ruffing it. Either seat wins it (1 + its settled count now, seat_min) or a void hand ruffs,
 * best with its lowest trump, and its partner follows to s if it can, else discards,
 * or under must-ruff, holding trumps, plays one (its lowest is best); seat keeps its
 * trumps.
 *
 * If for some lead the least of its answers reaches `need`, seat takes `need` tricks.
 * That depends on the ranks of the trumps, on the led side card being on top (the
 * cards of s below it count by number, and the voids are lengths) and nothing else.
 * (The search finds these in a trick of nodes, but seat's ordering leads trumps last:
 * table nodes -3.1% to -4.6% for trump leads, a further -0.7% for side leads.) */
int forcing_lead_bound(const Position *p, int need, int seat_min, uint64_t *rel)
{
    if (p->trump == NOTRUMP) return SM_UNKNOWN;
    unsigned mine, y, z;
    trump_lanes(p, &mine, &y, &z);
    if (!mine || !(y | z)) return SM_UNKNOWN;
    uint64_t trumps = all_hands(p) & suit_lane(p->trump);
    unsigned ly = lowest(y), lz = lowest(z); /* each hand's lowest trump (or 0) */
    for (unsigned m = mine; m; m &= m - 1) {
        unsigned x = lowest(m), rest = mine & ~x;
        unsigned above = 0u - (x << 1);
        int count = !((ly | lz) & above) + seat_settled(rest, y & ~ly, z & ~lz);
        if (count >= need && (y & above)) {
            int c = seat_settled(rest, y & ~lowest(y & above), z & ~lz);
            if (c < count) count = c;
        }
        if (count >= need && (z & above)) {
            int c = seat_settled(rest, y & ~ly, z & ~lowest(z & above));
            if (c < count) count = c;
        }
        if (count >= need) {
            *rel = trumps;
            return SM_YES;
        }
    }
    /* a side lead gives at most one more than the count now */
    if (seat_min + 1 < need) return SM_UNKNOWN;
    int seat = p->seat;
    unsigned tops = top_suits(all_hands(p), p->hand[seat]) & ~(1u << p->trump);
    for (int s = 0; s < NSUITS; s++) {
        if (!(tops >> s & 1)) continue;
        uint64_t top = high_card(p->hand[seat] & suit_lane(s));
        int y_ruffs = y && !(p->hand[left_of(seat)] & suit_lane(s));
        int z_ruffs = z && !(p->hand[right_of(seat)] & suit_lane(s));
        if (!y_ruffs && !z_ruffs) continue; /* a plain winner: the cashing bounds count it */
        int count = 1 + seat_min;
        /* under must-ruff a void partner holding trumps spends its lowest too */
        unsigned y_also = p->must_ruff && y_ruffs ? ly : 0, z_also = p->must_ruff && z_ruffs ? lz : 0;
        if (y_ruffs) {
            int c = seat_settled(mine, y & ~ly, z & ~z_also);
            if (c < count) count = c;
        }
        if (z_ruffs) {
            int c = seat_settled(mine, y & ~y_also, z & ~lz);
            if (c < count) count = c;
        }
        if (count >= need) {
            *rel = trumps | top;
            return SM_YES;
        }
    }
    return SM_UNKNOWN;
}

/* Seat needs every trick (normal play). If seat is on lead it leads every trick, so
 * each of its cards is a lead that must win. Take a suit s where seat holds a card d
 * but a coalition player Y holds the top card c. Y keeps c until seat leads d: Y
 * only has to play c when s is led and c is its last card of s (then c, the top,
 * wins the trick), or when c is its very last card (impossible while seat still
 * holds d: the lead is then d, of suit s, and Y is not void in it); must-ruff only
 * forces trumps, and c is not a trump (else the settled trumps already count it).
 * When d is led, Y plays c and wins. If the coalition is on lead with n >= 2 tricks
 * left and seat holds two cards of s, the first trick either sees s led (Y plays c
 * and wins it) or leaves seat a card of s and Y its c (c is not Y's last card), and
 * the argument above applies to the rest. The same holds when seat has one card of
 * s and the leader can lead another suit that seat holds: seat must follow it and
 * keeps its card of s. Either way the coalition takes a trick.
 *
 * The coalition needs every trick (normal play, seat needs one) and leads now, so it
 * leads every trick. Call a non-trump suit s *ruffable* when a coalition hand X could
 * ever ruff its partner P's lead of s: X holds a trump, P holds s, and X could become
 * void in s by discards, i.e. X's length in s is at most D = sum over the suits u
 * other than s and the trump of max(0, P's length in u - X's length in u). (Before
 * any trick led in s, X's cards of s leave only as discards, each on a lead of a suit
 * u that X is void in, so led by P; not on a trump lead, as X still holds a trump. X
 * plays its u cards on u leads (lX_u - d_u of them, d_u: those it discards) before
 * its first void u lead, and P, who still holds u then, plays one on each of those
 * and on every void lead: X meets at most max(0, lP_u - lX_u) + d_u void u leads. Its
 * discards of suits u other than s use up the d_u, so at most D are left for s.)
 * Let H be the h suits where seat holds the top card, the coalition holds cards and
 * that are not ruffable; every other suit the coalition holds is "M". A trick led
 * in a suit of M takes one card of it from each coalition hand holding it, so M's
 * suit s can be led at most max(Y's length, Z's length) times; call the sum over M
 * L. Seat keeps its h top cards while it has others (it follows a suit of M with a
 * card of that suit, discards or ruffs with others first; a top trump of seat would
 * be a settled trick), so if the coalition wins the first n - h + 1 tricks seat holds
 * them all through those tricks. The first of them led in a suit s of H is won by
 * seat's top card unless the leader's partner X ruffs it, void in s: X held s at the
 * start (else s, P holding it and X a trump, would be ruffable), no trick was led in
 * s before, so X discarded all its cards of s, which s not being ruffable rules out.
 * So those n - h + 1 tricks are all led in M: the coalition needs L >= n - h + 1.
 * Who could ruff depends only on the lengths (in the table key); of the top cards only
 * H's owners matter: were seat to hold the top card of a suit of M that is not
 * ruffable, that suit would move to H, h grow by 1 and L shrink by at least 1.
 *
 * When this says nothing, and when seat (needing one) is on lead, stopper_bound
 * counts finer: seat's lower cards that the coalition cannot all beat.
 *
 * Misere, the coalition needs seat to take every trick and seat is on lead: a card d
 * of seat below every card of suit s in a coalition hand that holds s loses the
 * trick (that player must follow above it), so seat escapes. */
int all_tricks_bound(const Position *p, int need, uint64_t *rel)
{
    int n = p->tricks_left, seat = p->seat;
    uint64_t live = all_hands(p), mine = p->hand[seat];
    *rel = 0;
    if (!p->misere) {
        if (need == n) {
            int leads = p->leader == seat;
            /* suits the leader can lead and seat must follow: seat cannot discard */
            uint64_t follow = 0;
            for (int s = 0; s < NSUITS; s++)
                if ((p->hand[p->leader] & suit_lane(s)) && (mine & suit_lane(s))) follow |= 1u << s;
            for (int s = 0; s < NSUITS; s++) {
                uint64_t own = mine & suit_lane(s);
                if (!own) continue;
                uint64_t top = high_card(live & suit_lane(s));
                if (top & own) continue;
                if (leads || popcount64(own) >= 2 || (follow & ~(1u << s))) {
                    *rel = top;
                    return SM_NO;
                }
            }
        } else if (need == 1 && p->leader == seat) {
            return stopper_bound(p, rel);
        } else if (need == 1) {
            /* H needs a suit whose top card seat holds: without one, the stoppers */
            unsigned top_s = top_suits(live, mine);
            if (!top_s) return stopper_bound(p, rel);
            /* the leads outside top_s alone leave no room for h >= 1 (most calls) */
            if (leads_outside(p, top_s) + 1 > n) return stopper_bound(p, rel);
            Coalition c;
            coalition_of(p, &c);
            int h = 0, leads = 0;
            uint64_t tops = 0;
            for (int s = 0; s < NSUITS; s++) {
                int ly = c.len[0][s], lz = c.len[1][s];
                if (!ly && !lz) continue;
                /* can a hand holding trumps ever ruff its partner's lead of s? */
                if ((top_s >> s & 1) &&
                    !(s != p->trump &&
                      ((c.trumps[0] && lz && sure_follows(&c, 0, s) <= 0) ||
                       (c.trumps[1] && ly && sure_follows(&c, 1, s) <= 0)))) {
                    h++;
                    tops |= high_card(live & suit_lane(s));
                } else {
                    leads += ly > lz ? ly : lz;
                }
            }
            if (h && leads <= n - h) {
                *rel = tops;
                return SM_YES;
            }
            return stopper_bound(p, rel);
        }
        return SM_UNKNOWN;
    }
    if (need != n || p->leader != seat) return SM_UNKNOWN;
    for (int s = 0; s < NSUITS; s++) {
        uint64_t own = mine & suit_lane(s);
        if (!own) continue;
        uint64_t low = own & -own;
        for (int y = 0; y < NSEATS; y++) {
            uint64_t theirs = p->hand[y] & suit_lane(s);
            if (y == seat || !theirs) continue;
            uint64_t ylow = theirs & -theirs;
            if (low < ylow) {
                *rel = live & suit_lane(s) & ~(ylow - 1);
                return SM_NO;
            }
        }
    }
    return SM_UNKNOWN;
}

/* The trumps behind a settled count of `count` tricks for seat (for_seat) or for the
 * coalition: every trump from the top down to the first card where the running count
 * of settled_tricks reaches `count` (count >= 1 and at most the count found). Fewer
 * fixed ranks make a more general table entry. */
uint64_t settled_cards(const Position *p, int for_seat, int count)
{
    unsigned mine, y, z, bit;
    trump_lanes(p, &mine, &y, &z);
    if (for_seat) {
        bit = margin_reached(mine, y | z, count);
    } else {
        unsigned by = margin_reached(y, mine, count), bz = margin_reached(z, mine, count);
        bit = by > bz ? by : bz; /* the one reached first, from the top down */
    }
    unsigned all = mine | y | z;
    if (bit) all &= ~(bit - 1);
    return (uint64_t)all << (LANE * p->trump); /* not reached: every trump */
}

/* Normal play, the coalition on lead. Call seat's winners its cards above every other
 * live card of their suit (its top run of each suit). When a coalition hand X holds
 * trumps, a winner of a side suit s counts only as long as X surely still follows s:
 * before seat first wins a trick the coalition leads every trick, and X's cards of s
 * leave only as discards (a lead of s while X holds s would give seat the trick), at
 * most D = sum over the suits u other than s and the trump of max(0, P's length in u -
 * X's length in u) of them (P: X's partner; see all_tricks_bound for the count: each
 * void lead of u X meets is P's, after X's u cards, on each of which P played one);
 * afterwards seat leads only suits X still holds. With c_s = min(run of s, X's length
 * in s - D) for each such X, seat keeps the top k_s cards, k_s <= c_s, of each side
 * suit, at least one where c_s > 0 and the coalition holds the suit, and its top trump
 * if it holds it and the coalition holds trumps (A: the suits of those cards that the
 * coalition holds, a of them; K: the cards kept) and has n - K other cards (K >= 1,
 * so the coalition's leads below run out first). A lead of a suit of A gives seat
 * the trick (its top card, which X cannot ruff: it still holds the suit); the
 * coalition keeps the lead only by leading outside A, and one lead of suit s takes a
 * card of s from each coalition hand holding s, so it keeps the lead for at most sum
 * over s outside A of max(Y's length, Z's length) tricks in a row. If that is at most
 * n - K, seat spends a non-kept card on each of them (it follows outside A with one,
 * discards or ruffs with one), so it still holds every kept card when it first wins a
 * trick (with a kept card, or cheaper); from then on it leads, and each kept card
 * wins when cashed: the k_s leads of a side suit are all followed. So seat's side-suit
 * cards win at least sum k_s tricks; its trumps win at least seat_min others (from
 * settled_tricks, true for any play; a trick seat wins is won by the card it played),
 * and at least one when it keeps the top trump. sum k_s can be anything from a (less
 * the top trump, and at least 1) to min(sum of c_s, n - leads - the top trump), the
 * coalition holding no card of a suit outside A with a winner kept (no leads there).
 * Returns a count >= need so made (as few side winners and settled trumps as it
 * takes), or 0 when there is none; *rel receives the cards kept and the settled
 * trumps relied on (the rest is lengths, in the table key: the same choice serves any
 * position where seat owns those cards).
 *
 * At need 1 (no settled trump, so seat's trumps are not on top and A holds side suits
 * only) this adds nothing to all_tricks_bound's need-one check and stopper bound: a
 * suit of A is one of the check's H (seat holds its top card, the coalition holds it,
 * and c_s >= 1 means no hand holding trumps can become void in it), and each suit of
 * H outside A adds at least one card to the leads, so leads <= n - a gives the check's
 * leads <= n - h. With A empty a winner counts only in a suit the coalition lacks and
 * only when no coalition hand holds a trump; that suit's stopper reserve is then its
 * top card alone (delta 1), and stopper_with finds cost <= leads + 1 <= n. So the
 * search skips this bound at need 1. */
static __attribute__((noinline)) int seat_winners_rest(const Position *p, int need, int seat_min,
                                                       uint64_t *rel);

int seat_winners_bound(const Position *p, int need, int seat_min, uint64_t *rel)
{
    int seat = p->seat;
    *rel = 0;
    if (p->misere || p->nplayed || p->side[p->leader]) return SM_UNKNOWN;
    unsigned tops = top_suits(all_hands(p), p->hand[seat]); /* the suits whose top card seat holds */
    if (!tops) return SM_UNKNOWN;
    /* Most calls end at the test below, so the rest, with its register saves, is a
     * function of its own. */
    int others = leads_outside(p, tops);
    /* the winners kept (at least one, need - seat_min in all) leave the rest of the
     * tricks for the coalition's leads */
    int least = need - seat_min > 1 ? need - seat_min : 1;
    if (others + least > p->tricks_left) return SM_UNKNOWN;
    /* nor can the side winners counted exceed seat's side-suit top runs */
    uint64_t side_suits = p->trump == NOTRUMP ? ~(uint64_t)0 : ~suit_lane(p->trump);
    if (popcount64(top_runs(all_hands(p), p->hand[seat]) & side_suits) + seat_min < need) return SM_UNKNOWN;
    return seat_winners_rest(p, need, seat_min, rel) ? SM_YES : SM_UNKNOWN;
}

static int seat_winners_rest(const Position *p, int need, int seat_min, uint64_t *rel)
{
    int seat = p->seat, t = p->trump;
    uint64_t live = all_hands(p);
    Coalition co;
    coalition_of(p, &co);
    const int *ly = co.len[0], *lz = co.len[1];
    int side = 0, a = 0, leads = 0, caps[NSUITS];
    unsigned in_a = 0; /* suits the coalition holds whose top card seat keeps */
    uint64_t runs[NSUITS], all_runs = top_runs(live, p->hand[seat]);
    for (int s = 0; s < NSUITS; s++) {
        unsigned run = (unsigned)(all_runs >> (LANE * s)) & LANE_MASK;
        int c = popcount32(run), held = ly[s] || lz[s];
        if (s == t) {
            c = c > 0 && held; /* the top trump keeps trump leads seat's; settled trumps count */
        } else if (c) {
            /* the leads of s each coalition hand holding trumps surely follows */
            for (int x = 0; x < 2; x++)
                if (co.trumps[x] && sure_follows(&co, x, s) < c) c = sure_follows(&co, x, s);
            if (c > 0) side += c;
        }
        caps[s] = c > 0 ? c : 0;
        runs[s] = (uint64_t)run << (LANE * s);
        if (c > 0 && held) {
            a++;
            in_a |= 1u << s;
        } else if (c <= 0) {
            leads += ly[s] > lz[s] ? ly[s] : lz[s];
        }
    }
    int room = p->tricks_left - leads;
    if (a > room) return 0;
    int top_trump = t != NOTRUMP && caps[t];
    if (side > room - top_trump) side = room - top_trump;
    if (side + seat_min < need) return 0;
    /* keep one winner of each side suit of A, more while settled trumps fall short */
    int a_side = a - top_trump, want = need - seat_min;
    if (want < a_side) want = a_side;
    if (want < 1) want = 1;
    if (want > side) return 0;
    int extra = want - a_side;
    for (int s = 0; s < NSUITS; s++) {
        if (!caps[s] || s == t) continue;
        int must = in_a >> s & 1;
        int k = must + (caps[s] - must < extra ? caps[s] - must : extra);
        extra -= k - must;
        *rel |= highest(runs[s], k);
    }
    if (top_trump) *rel |= highest(runs[t], 1);
    int from_trumps = need - want;
    if (from_trumps > 0) *rel |= settled_cards(p, 1, from_trumps);
    return want + (from_trumps > top_trump ? from_trumps : top_trump);
}

/* The seat's side-suit top runs (`runs`), each capped where a coalition hand holding
 * trumps could ruff it: such a hand follows the suit only as long as its cards of it
 * last (caps[s]; in no trump nobody ruffs, so a whole run counts). Returns their sum. */
static int side_cash(const Position *p, uint64_t runs, int caps[NSUITS])
{
    unsigned ruffers[NSEATS - 1];
    int n = 0, total = 0;
    if (p->trump != NOTRUMP)
        for (int o = 0; o < NSEATS; o++) {
            unsigned w = length_word(p, o);
            if (o != p->seat && word_length(w, p->trump)) ruffers[n++] = w;
        }
    for (int s = 0; s < NSUITS; s++) {
        int k = popcount64(runs & suit_lane(s));
        for (int i = 0; i < n; i++)
            if (word_length(ruffers[i], s) < k) k = word_length(ruffers[i], s);
        caps[s] = k;
        total += k;
    }
    return total;
}

/* The cards a cashing count of `count` tricks relies on, as few as it needs: the
 * highest cards of the seat's capped runs first, then its settled trumps for what is
 * still missing. */
static uint64_t cash_cards(const Position *p, uint64_t runs, const int caps[NSUITS], int count)
{
    uint64_t rel = 0;
    for (int s = 0; s < NSUITS && count > 0; s++) {
        int k = caps[s] < count ? caps[s] : count;
        rel |= highest(runs & suit_lane(s), k);
        count -= k;
    }
    if (count > 0) rel |= settled_cards(p, 1, count);
    return rel;
}

static __attribute__((noinline)) int seat_cash_rest(const Position *p, int need, int seat_min,
                                                    uint64_t runs, uint64_t *rel)
{
    int caps[NSUITS];
    int total = side_cash(p, runs, caps) + seat_min;
    if (total < need) return 0;
    *rel = cash_cards(p, runs, caps, need);
    return total;
}

/* Normal play, seat on lead at a trick boundary: the seat's quick tricks. Seat leads
 * the top run of a side suit s (its cards above every other live card of s): a
 * coalition player holding trumps and at least k cards of s must follow the first k
 * of those leads, a player without trumps can never ruff, so with k_s the run length
 * capped by the shortest s holding of a coalition player with trumps, seat wins k_s
 * tricks in a row and keeps the lead. Those tricks take only cards of s from every
 * hand holding s (a trumpless void hand discards; it can never win a trick anyway),
 * so the other side suits' runs, caps and every trump are untouched, and seat goes on
 * with the next suit: sum k_s tricks. Then the trumps are as they were, and
 * settled_tricks (true for any play) gives seat seat_min more. So seat takes at least
 * sum k_s + seat_min. In no trump every run counts in full and seat_min is 0.
 * Must-ruff changes nothing: only a void hand could be forced to trump, and the caps
 * keep the trump holders following. Returns that count when it reaches `need` (>= 1),
 * else 0; *rel receives the highest run cards used and the settled trumps relied on
 * (the lengths are in the table key). */
int seat_cash_bound(const Position *p, int need, int seat_min, uint64_t *rel)
{
    *rel = 0;
    if (p->misere || p->nplayed || p->leader != p->seat) return SM_UNKNOWN;
    uint64_t runs = top_runs(all_hands(p), p->hand[p->seat]);
    if (p->trump != NOTRUMP) runs &= ~suit_lane(p->trump);
    if (popcount64(runs) + seat_min < need) return SM_UNKNOWN;
    return seat_cash_rest(p, need, seat_min, runs, rel) ? SM_YES : SM_UNKNOWN;
}


/* Normal play, a trump contract, the coalition on lead, seat holding every live trump
 * (t >= 1 of them): seat takes t tricks plus one for each of its side-suit cards above
 * every other live card of its suit (its top runs, "kept" cards).
 *
 * Why: no coalition hand can ruff, so a kept card wins any trick led in its suit, and a
 * trump any trick it is played to. Seat plays, while the coalition leads: its top card
 * of a suit s led in which it holds only kept cards (it wins), else a card that is not
 * kept if it has a legal one; once on lead, its kept cards one after the other (each
 * wins, so it keeps the lead), then anything. It could be made to give up a kept card
 * only while the coalition leads and all it holds are kept cards; but then it has played
 * all its trumps, each winning a trick, and after the first of those it was on lead and
 * cashed every kept card. So every kept card and every trump wins its trick.
 *
 * Returns 1 when t plus the kept cards reach `need`, else 0; *rel receives the kept
 * cards relied on, the highest first (the trumps count by number: the lengths, in the
 * table key, show the coalition has none). Checked by a brute-force fuzz of the rule
 * alone (up to five cards a hand, both must-ruff settings, about 2,500 firings, all
 * sound; counting seat's top trumps with lower coalition trumps out, or top cards
 * without a trump, fails it at once). Full-table nodes -0.8% to -2.1% (seeds 0-23),
 * declaration nodes -8.9%. */
int sole_trumps_bound(const Position *p, int need, uint64_t *rel)
{
    *rel = 0;
    if (p->misere || p->nplayed || p->side[p->leader] || p->trump == NOTRUMP) return SM_UNKNOWN;
    unsigned mine, y, z;
    trump_lanes(p, &mine, &y, &z);
    if ((y | z) || !mine) return SM_UNKNOWN;
    uint64_t runs = top_runs(all_hands(p), p->hand[p->seat]) & ~suit_lane(p->trump);
    int want = need - popcount32(mine);
    if (want > popcount64(runs)) return SM_UNKNOWN;
    for (int s = 0; s < NSUITS && want > 0; s++) {
        uint64_t run = highest(runs & suit_lane(s), want);
        *rel |= run;
        want -= popcount64(run);
    }
    return SM_YES;
}
