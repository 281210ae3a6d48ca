/* Quick tricks: a top card of the leader wins when led unless an opponent of the
 * leader can ruff it. Top trumps always win. Side-suit winners are counted in full
 * when no opponent holds a trump, or when the leader's top trumps first draw every
 * opponent trump; otherwise only the best single side suit counts, cashed first and
 * only as long as every opponent holding trumps must still follow. With must-ruff
 * a partner void in the suit would be forced to ruff and take the lead away, so
 * the partner's trumps count like an opponent's. */
#include "bounds.h"

static int top_run(unsigned own, unsigned live)
{
    int n = 0;
    while (live) {
        int r = 31 - __builtin_clz(live);
        unsigned bit = 1u << r;
        if (!(own & bit)) break;
        n++;
        live ^= bit;
    }
    return n;
}

static int quick_tricks_for(const Position *p, int L)
{
    uint64_t live = all_hands(p);
    int top[NSUITS];
    int total = 0;
    for (int s = 0; s < NSUITS; s++) {
        top[s] = top_run((unsigned)(p->hand[L] >> (LANE * s)) & LANE_MASK,
                         (unsigned)(live >> (LANE * s)) & LANE_MASK);
        total += top[s];
    }
    if (p->trump == NOTRUMP) return total;
    int t = p->trump;
    int opp_trumps = 0;
    for (int o = 0; o < NSEATS; o++) {
        if (o == L || (p->side[o] == p->side[L] && !p->must_ruff)) continue;
        int n = popcount64(p->hand[o] & suit_lane(t));
        if (n > opp_trumps) opp_trumps = n;
    }
    if (top[t] >= opp_trumps) return total;
    int best = 0;
    for (int s = 0; s < NSUITS; s++) {
        if (s == t || top[s] == 0) continue;
        int k = top[s];
        for (int o = 0; o < NSEATS; o++) {
            if (o == L || (p->side[o] == p->side[L] && !p->must_ruff)) continue;
            if (!(p->hand[o] & suit_lane(t))) continue;
            int len = popcount64(p->hand[o] & suit_lane(s));
            if (len < k) k = len;
        }
        if (k > best) best = k;
    }
    return top[t] + best;
}

/* Can the leader's partner P be reached in suit s: the leader holds a card of s,
 * P holds the top card of s, and no opponent can ruff it? */
static int partner_entry(const Position *p, int L, int P, int s)
{
    uint64_t lane = suit_lane(s);
    if (!(p->hand[L] & lane)) return 0;
    uint64_t live = all_hands(p) & lane;
    if (!live) return 0;
    uint64_t top = (uint64_t)1 << (63 - __builtin_clzll(live));
    if (!(p->hand[P] & top)) return 0;
    for (int o = 0; o < NSEATS; o++) {
        if (p->side[o] == p->side[L]) continue;
        if (!(p->hand[o] & lane) && p->trump != NOTRUMP && (p->hand[o] & suit_lane(p->trump))) return 0;
    }
    return 1;
}

int quick_tricks(const Position *p, int *who)
{
    int L = p->leader;
    int best = quick_tricks_for(p, L);
    *who = L;
    for (int P = 0; P < NSEATS; P++) {
        if (P == L || p->side[P] != p->side[L]) continue;
        int entry = 0;
        for (int s = 0; s < NSUITS && !entry; s++) entry = partner_entry(p, L, P, s);
        if (!entry) continue;
        /* the entry trick is one of P's counted top cards, and cashing it costs P at
         * most one of the rest, so P's own count stands for the side */
        int q = quick_tricks_for(p, P);
        if (q > best) {
            best = q;
            *who = P;
        }
    }
    return best;
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
 * Both bounds depend only on the owners of the trumps down to the card where the
 * best count is reached: those go to *rel. This holds for any play, so in misere too. */
void settled_tricks(const Position *p, int *seat_min, int *others_min, uint64_t *rel)
{
    *seat_min = *others_min = 0;
    *rel = 0;
    if (p->trump == NOTRUMP) return;
    int t = p->trump;
    unsigned lanes[NSEATS], live = 0;
    for (int h = 0; h < NSEATS; h++) {
        lanes[h] = (unsigned)(p->hand[h] >> (LANE * t)) & LANE_MASK;
        live |= lanes[h];
    }
    int mine = 0, theirs = 0;      /* trumps seen so far: seat's, the coalition's */
    int share[NSEATS] = {0};       /* the coalition's, per player */
    unsigned seat_low = 0, others_low = 0; /* lowest card each best count needs */
    while (live) {
        unsigned bit = 1u << (31 - __builtin_clz(live));
        live ^= bit;
        int owner = 0;
        while (!(lanes[owner] & bit)) owner++;
        if (owner == p->seat) {
            mine++;
            if (mine - theirs > *seat_min) {
                *seat_min = mine - theirs;
                seat_low = bit;
            }
        } else {
            theirs++;
            share[owner]++;
            if (share[owner] - mine > *others_min) {
                *others_min = share[owner] - mine;
                others_low = bit;
            }
        }
    }
    unsigned low = seat_low && others_low ? (seat_low < others_low ? seat_low : others_low)
                                          : (seat_low | others_low);
    if (low) {
        unsigned all = (unsigned)(all_hands(p) >> (LANE * t)) & LANE_MASK;
        *rel = (uint64_t)(all & ~(low - 1)) << (LANE * t);
    }
}
