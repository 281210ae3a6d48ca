/* Misere cut-offs. In misere everyone but seat wants seat to take tricks, and nobody
 * takes a trick it could stay out of by choice: a card that beats the winning card only
 * helps seat's opponents when seat is the one winning. */
#include "misere.h"

/* Seat escapes the current trick (a trick it does not win is lost for the coalition's
 * goal of taking them all), by its own choice of cards, whatever the coalition does.
 *
 * Seat on lead: it leads its lowest card x of a suit s. If the next player must beat x
 * (it holds s, every card of it above x; or, void in s under must-ruff, it holds a
 * trump and x is no trump), the trick is not seat's. Otherwise the next player may
 * stay under x; then if the last player must beat x, the trick is not seat's either
 * (the next player beating x voluntarily also takes the trick from seat). The proof
 * fixes the cards of s from the forced player's lowest one up: seat then still holds
 * a card of s below all of that player's (the lengths below are fixed).
 *
 * Coalition on lead: it leads some card c of a suit s it holds; a card of seat that
 * does not beat c leaves the trick to c or a higher coalition card. Seat stays under
 * every lead if, for every suit s the leader holds, seat can stay under the leader's
 * lowest card of s (a lower lead only leaves seat fewer such cards). With a card of s
 * that takes seat's lowest of s below the leader's lowest (the cards of s from the
 * leader's lowest up are fixed: the leader holds none below, seat the same number);
 * void in s, by a discard, which only the suit lengths decide. */
int misere_escape_bound(const Position *p, int need, uint64_t *rel)
{
    int seat = p->seat, n = p->tricks_left;
    *rel = 0;
    if (need != n) return SM_UNKNOWN;
    uint64_t mine = p->hand[seat];
    if (p->leader == seat) {
        int y = (seat + 1) % NSEATS, z = (seat + 2) % NSEATS;
        for (int s = 0; s < NSUITS; s++) {
            uint64_t own = mine & suit_lane(s);
            if (!own) continue;
            int x = __builtin_ctzll(own);
            int forced = -1;
            if (!pos_can_stay_under(p, y, s, x)) forced = y;
            else if (!pos_can_stay_under(p, z, s, x)) forced = z;
            if (forced < 0) continue;
            uint64_t theirs = p->hand[forced] & suit_lane(s);
            /* forced by its cards of s, or (void) by must-ruff: lengths only */
            *rel = theirs ? all_hands(p) & suit_lane(s) & ~((theirs & -theirs) - 1) : 0;
            return SM_NO;
        }
        return SM_UNKNOWN;
    }
    int L = p->leader;
    uint64_t fix = 0;
    for (int s = 0; s < NSUITS; s++) {
        uint64_t lead = p->hand[L] & suit_lane(s);
        if (!lead) continue;
        int c = __builtin_ctzll(lead);
        if (!pos_can_stay_under(p, seat, s, c)) return SM_UNKNOWN;
        if (mine & suit_lane(s)) fix |= all_hands(p) & suit_lane(s) & ~(((uint64_t)1 << c) - 1);
    }
    *rel = fix;
    return SM_NO;
}

/* Seat has played to the current trick and another card beats its card: the players
 * after it are the coalition, whose cards can only take the trick for the coalition.
 * When the winning card beat seat's by rank, that rank is what the result relies on. */
int misere_trick_lost(const Position *p, uint64_t *rel)
{
    for (int i = 0; i < p->nplayed; i++) {
        if ((p->leader + i) % NSEATS != p->seat) continue;
        if (p->win_seat == p->seat) return 0;
        int mine = p->played[i];
        *rel = card_suit(mine) == card_suit(p->win_card) ? (uint64_t)1 << p->win_card : 0;
        return 1;
    }
    return 0;
}

/* Seat's sure escapes: seat wins at most tricks_left - k tricks when it holds k "low
 * side cards" that the coalition cannot outlast. Call a card x of seat low when x is
 * not a trump (in no trump any card) and every coalition card of x's suit s lies above
 * it (the coalition holding s). Whenever seat plays a low card, it loses that trick,
 * except by leading it when neither coalition hand holds s any more:
 *  - following a lead of s: the led card is a coalition card of s, above x (the
 *    coalition's cards of s now are some of those it holds at this node);
 *  - following another suit: x is neither of the led suit nor a trump;
 *  - leading x while a coalition hand holds s: that hand must follow with a card of s,
 *    above x.
 * Seat's play: follow with a low card whenever one is legal (a loss, as above), else
 * any legal card; lead a low card. Then seat never spends a low card on a trick it
 * wins, every trick it wins gives it the next lead, and that lead is a loss: no two
 * won tricks follow each other, so its k-th loss comes at trick 2k - 1 or earlier from
 * here (2k with the coalition on lead now: one won trick may come first). A hand
 * loses at most one card of a suit per trick, so a low card of a suit some coalition
 * hand holds at least 2k - 1 (2k) cards of still finds a coalition card of its suit
 * at any of those leads; seat holding k such cards has one for each lead before its
 * k-th loss. The answer relies on the ranks of each counted suit from the coalition's
 * lowest card up (the cards below it are seat's, counted by the suit lengths). */
int misere_low_cards_bound(const Position *p, int need, uint64_t *rel)
{
    int seat = p->seat, k = p->tricks_left - need + 1;
    int reach = 2 * k - 1 + (p->leader != seat); /* the lengths that outlast k losses */
    unsigned wy = length_word(p, left_of(seat)), wz = length_word(p, right_of(seat));
    uint64_t coalition = p->hand[left_of(seat)] | p->hand[right_of(seat)];
    uint64_t mine = p->hand[seat], fix = 0;
    int low = 0;
    *rel = 0;
    for (int s = 0; s < NSUITS && low < k; s++) {
        if (s == p->trump) continue;
        int ly = word_length(wy, s), lz = word_length(wz, s);
        if ((ly > lz ? ly : lz) < reach) continue;
        uint64_t theirs = coalition & suit_lane(s);
        uint64_t lowest = theirs & -theirs;
        int n = popcount64(mine & suit_lane(s) & (lowest - 1));
        if (!n) continue;
        low += n;
        fix |= all_hands(p) & suit_lane(s) & ~(lowest - 1);
    }
    if (low < k) return SM_UNKNOWN;
    *rel = fix;
    return SM_NO;
}

/* Seat's hand as misere_two_escapes_bound follows it through one trick: per suit its
 * length and its low cards (below every coalition card of the suit, as counted at the
 * node), its cards that are no trump (all of them in no trump) and its trumps. */
typedef struct {
    int len[NSUITS], low[NSUITS];
    int side_cards, trumps;
} SeatCards;

static void seat_cards_less(SeatCards *h, int suit, int low, int trump)
{
    h->len[suit]--;
    h->low[suit] -= low;
    if (suit == trump) h->trumps--;
    else h->side_cards--;
}

/* After the first trick, the coalition leads (it won that trick) a suit it holds now
 * (`held`): does seat surely stay under every such lead with the cards `h`? Holding the
 * suit, by a low card: the lead is a coalition card of the suit, above it. Void in it,
 * by a card that is no trump, which cannot win (in no trump any card; on a trump lead,
 * seat void in trumps plays no trump), unless must-ruff makes it trump. */
static int stays_under_next(const Position *p, const SeatCards *h, unsigned held)
{
    for (int u = 0; u < NSUITS; u++) {
        if (!(held >> u & 1)) continue;
        if (h->len[u]) {
            if (!h->low[u]) return 0;
        } else if (p->trump != NOTRUMP && u != p->trump &&
                   (h->side_cards == 0 || (p->must_ruff && h->trumps))) {
            return 0;
        }
    }
    return 1;
}

/* Seat surely loses two of the tricks left, this one and the next, so the coalition
 * cannot make it take tricks_left - 1 of them (or more).
 *
 * This trick. Seat on lead: it leads a low card of a suit a coalition hand holds, and
 * that hand must follow above it. The coalition on lead: for every suit the leader
 * holds, seat holds a low card of it (below any card the leader can lead, so it stays
 * under whatever the third hand does), or is void in it and may discard a card that
 * cannot win (as above). Either way the coalition wins the trick and leads the next.
 * The next trick: every suit the coalition can lead then, it holds now; seat's low cards
 * stay low (coalition cards only leave). stays_under_next is asked of seat's hand after
 * each card it may have to play now: its lowest card of the suit led (one low card
 * fewer), or, void in it, one discard it chooses (a highest card of some suit, which
 * keeps that suit's low cards unless all its cards are low); it must pass for every
 * lead. The answer relies on the ranks of the suits seat holds, from the coalition's
 * lowest card up (seat's cards below are counted by the suit lengths). */
int misere_two_escapes_bound(const Position *p, int need, uint64_t *rel)
{
    int seat = p->seat, n = p->tricks_left, trump = p->trump;
    *rel = 0;
    if (n < 2 || need < n - 1) return SM_UNKNOWN;
    uint64_t mine = p->hand[seat];
    uint64_t coalition = p->hand[left_of(seat)] | p->hand[right_of(seat)];
    uint64_t live = all_hands(p), fix = 0;
    SeatCards h;
    unsigned held = 0; /* suits a coalition hand holds */
    h.side_cards = h.trumps = 0;
    for (int s = 0; s < NSUITS; s++) {
        uint64_t own = mine & suit_lane(s), theirs = coalition & suit_lane(s);
        h.len[s] = popcount64(own);
        if (s == trump) h.trumps = h.len[s];
        else h.side_cards += h.len[s];
        h.low[s] = h.len[s];
        if (!theirs) continue;
        held |= 1u << s;
        uint64_t lowest = theirs & -theirs;
        h.low[s] = popcount64(own & (lowest - 1));
        if (own) fix |= live & suit_lane(s) & ~(lowest - 1);
    }
    if (p->leader == seat) {
        for (int s = 0; s < NSUITS; s++) {
            if (!(held >> s & 1) || !h.low[s]) continue;
            SeatCards after = h;
            seat_cards_less(&after, s, 1, trump);
            if (stays_under_next(p, &after, held)) {
                *rel = fix;
                return SM_NO;
            }
        }
        return SM_UNKNOWN;
    }
    int discards = 0;
    for (int u = 0; u < NSUITS; u++) {
        if (!(p->hand[p->leader] & suit_lane(u))) continue;
        if (h.len[u]) {
            if (!h.low[u]) return SM_UNKNOWN;
            SeatCards after = h;
            seat_cards_less(&after, u, 1, trump);
            if (!stays_under_next(p, &after, held)) return SM_UNKNOWN;
        } else {
            if (trump != NOTRUMP && u != trump && (h.side_cards == 0 || (p->must_ruff && h.trumps)))
                return SM_UNKNOWN;
            discards = 1;
        }
    }
    if (discards) { /* seat may discard: one card that keeps the next trick safe */
        int found = 0;
        for (int v = 0; v < NSUITS && !found; v++) {
            if (!h.len[v] || (trump != NOTRUMP && v == trump)) continue;
            SeatCards after = h;
            seat_cards_less(&after, v, h.low[v] == h.len[v], trump);
            found = stays_under_next(p, &after, held);
        }
        if (!found) return SM_UNKNOWN;
    }
    *rel = fix;
    return SM_NO;
}
