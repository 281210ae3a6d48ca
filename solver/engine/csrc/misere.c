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
 * lowest card of s (a lower lead only leaves seat fewer such cards), or under every card
 * of s of the leader's partner, who must then play one. Holding s, seat plays its lowest
 * x: the proof fixes the cards of s from the higher of those two lines that lies above
 * x (that hand holds none below it, seat the same number); void in s, seat discards,
 * which only the suit lengths decide. */
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
    int L = p->leader, P = L == left_of(seat) ? right_of(seat) : left_of(seat);
    uint64_t fix = 0;
    for (int s = 0; s < NSUITS; s++) {
        uint64_t lead = p->hand[L] & suit_lane(s);
        if (!lead) continue;
        uint64_t own = mine & suit_lane(s);
        if (!own) {
            if (!pos_can_stay_under(p, seat, s, __builtin_ctzll(lead))) return SM_UNKNOWN;
            continue;
        }
        uint64_t x = own & -own, line = 0, partner = p->hand[P] & suit_lane(s);
        if ((lead & -lead) > x) line = lead & -lead;
        if ((partner & -partner) > x && (partner & -partner) > line) line = partner & -partner;
        if (!line) return SM_UNKNOWN;
        fix |= all_hands(p) & suit_lane(s) & ~(line - 1);
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

/* How many cards of coalition hand h's suit s may leave it within the `horizon` tricks
 * to come, at most, other than in tricks of s (see misere_low_cards_bound): its
 * discards, which need a void in another suit first, so none before its shortest other
 * suit has left it, one card a trick (`w` is its length word, the suits no hand holds
 * counted long: nobody can lead them). Without the voids, the horizon itself: a length
 * of at least `horizon` always lasts. */
static int discards_within(unsigned w, int s, int horizon)
{
    w |= 15u << (4 * s); /* s itself never the shortest */
    int a = word_length(w, 0) < word_length(w, 1) ? word_length(w, 0) : word_length(w, 1);
    int b = word_length(w, 2) < word_length(w, 3) ? word_length(w, 2) : word_length(w, 3);
    int d = horizon - 1 - (a < b ? a : b);
    return d > 0 ? d : 0;
}

/* Seat's sure escapes: seat wins at most tricks_left - k tricks when it holds k "low
 * side cards" that the coalition cannot outlast. Call a card x of seat low when x is
 * not a trump (in no trump any card) and lies below every card of its suit s in some
 * coalition hand h that still holds s whenever seat plays x. Whenever seat plays a low
 * card, it loses that trick:
 *  - following a lead of s: h plays a card of s above x (or led it);
 *  - following another suit: x is neither of the led suit nor a trump;
 *  - leading x: h must follow with a card of s, above x.
 * Seat's play: follow with a low card whenever one is legal (a loss, as above), else
 * any legal card; lead a low card. Then seat never spends a low card on a trick it
 * wins, every trick it wins gives it the next lead, and that lead is a loss: no two
 * won tricks follow each other, so its k-th loss comes at trick 2k - 1 or earlier from
 * here (2k with the coalition on lead now: one won trick may come first), the horizon.
 * h still holds s then if fewer than its length of s have left it: they leave in tricks
 * of s, where seat plays one of its low cards of s while it has one (so before seat's
 * j-th of them, at most j - 1 left that way), and in h's discards (discards_within). So
 * seat's low cards of s below h's count up to h's length less those discards. Each
 * suit counts with the hand that gives it the more low cards. The answer relies on the
 * ranks of each counted suit from that hand's lowest card up (the cards below it, seat's
 * and the other hand's, counted by the suit lengths, which also fix the voids). */
int misere_low_cards_bound(const Position *p, int need, uint64_t *rel)
{
    int seat = p->seat, k = p->tricks_left - need + 1;
    int horizon = 2 * k - 1 + (p->leader != seat);
    int hands[2] = {left_of(seat), right_of(seat)};
    uint64_t mine = p->hand[seat], fix = 0;
    int low = 0;
    *rel = 0;
    unsigned dead = 0; /* the suits no hand holds: nobody can lead them */
    for (int u = 0; u < NSUITS; u++)
        if (!(all_hands(p) & suit_lane(u))) dead |= 15u << (4 * u);
    for (int s = 0; s < NSUITS && low < k; s++) {
        if (s == p->trump || !(mine & suit_lane(s))) continue;
        int best = 0;
        uint64_t best_line = 0;
        for (int i = 0; i < 2; i++) {
            unsigned w = length_word(p, hands[i]);
            int len = word_length(w, s);
            if (!len) continue;
            int kept = len >= horizon ? MAX_TRICKS : len - discards_within(w | dead, s, horizon);
            if (kept <= best) continue;
            uint64_t theirs = p->hand[hands[i]] & suit_lane(s), line = theirs & -theirs;
            int n = popcount64(mine & suit_lane(s) & (line - 1));
            if (n > kept) n = kept;
            if (n > best || (n == best && line > best_line)) { /* equal: the fewer fixed */
                best = n;
                best_line = line;
            }
        }
        if (!best) continue;
        low += best;
        fix |= all_hands(p) & suit_lane(s) & ~(best_line - 1);
    }
    if (low < k) return SM_UNKNOWN;
    *rel = fix;
    return SM_NO;
}

/* Seat's hand as misere_two_escapes_bound follows it through one trick: per suit its
 * length and its low cards (as misere_two_escapes_bound defines them, counted at the
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
 * Here a card of seat is low when it lies below every coalition card of its suit, or
 * below every card of a coalition hand holding two or more of the suit: that hand
 * still holds one in the next trick, and must play it above seat's card whoever leads.
 *
 * This trick. Seat on lead: it leads a low card of a suit a coalition hand holds, and
 * that hand must follow above it. The coalition on lead: for every suit the leader
 * holds, seat holds a low card of it (it stays under whatever the leader and the third
 * hand do), or is void in it and may discard a card that cannot win (as above). Either
 * way the coalition wins the trick and leads the next.
 * The next trick: every suit the coalition can lead then, it holds now; seat's low cards
 * stay low (coalition cards only leave). stays_under_next is asked of seat's hand after
 * each card it may have to play now: its lowest card of the suit led (one low card
 * fewer), or, void in it, one discard it chooses (a highest card of some suit, which
 * keeps that suit's low cards unless all its cards are low); it must pass for every
 * lead. The answer relies on the ranks of the suits seat holds, from the line of its
 * low cards up (the cards below are counted by the suit lengths). */
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
        uint64_t line = theirs & -theirs;
        for (int i = 0; i < 2; i++) {
            uint64_t hs = p->hand[i ? right_of(seat) : left_of(seat)] & suit_lane(s);
            if ((hs & (hs - 1)) && (hs & -hs) > line) line = hs & -hs;
        }
        h.low[s] = popcount64(own & (line - 1));
        if (own) fix |= live & suit_lane(s) & ~(line - 1);
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
