/* Cheap sure-trick counts used to cut the search short. */
#ifndef SM_BOUNDS_H
#define SM_BOUNDS_H

#include "position.h"

/* The trump lanes of seat (*mine) and of each coalition hand (*y: seat's left, *z). */
static inline void trump_lanes(const Position *p, unsigned *mine, unsigned *y, unsigned *z)
{
    int t = LANE * p->trump, seat = p->seat;
    *mine = (unsigned)(p->hand[seat] >> t) & LANE_MASK;
    *y = (unsigned)(p->hand[left_of(seat)] >> t) & LANE_MASK;
    *z = (unsigned)(p->hand[right_of(seat)] >> t) & LANE_MASK;
}

/* Tricks that are settled whoever plays how, from the trumps alone: `seat` wins at
 * least *seat_min tricks (its i highest trumps less the other seats' trumps above
 * them, best i) and the other seats at least *others_min (likewise for one
 * coalition player's share of the top trumps against seat's higher trumps).
 * Valid at a trick boundary, in normal play and misere alike (the proof is in
 * bounds.c). Inline: it runs first at every trick boundary, and as a call it spent
 * half its instructions on the call and its register saves.
 *
 * One pass over seat's trumps from the lowest up, j of them above the current one.
 * Seat's count can only grow at its own cards. A coalition hand X's grows at X's
 * cards and drops at seat's, so its best is reached just above one of seat's cards
 * (X's trumps above it, less j) or at X's lowest (all of X's trumps less all of
 * seat's); the other candidates this adds are never above those. settled_lanes
 * counts from the trump lanes of seat (mine) and of the coalition hands (y, z). */
static inline void settled_lanes(unsigned mine, unsigned y, unsigned z, int *seat_min,
                                 int *others_min)
{
    int ny = popcount32(y), nz = popcount32(z), j = popcount32(mine);
    int best_seat = 0, best_others = (ny > nz ? ny : nz) - j;
    for (unsigned m = mine; m; m &= m - 1) {
        unsigned above = 0u - ((m & (0u - m)) << 1); /* the lane bits above this card */
        int a = popcount32(y & above), b = popcount32(z & above);
        j--;
        if (j + 1 - a - b > best_seat) best_seat = j + 1 - a - b;
        if ((a > b ? a : b) - j > best_others) best_others = (a > b ? a : b) - j;
    }
    *seat_min = best_seat;
    *others_min = best_others > 0 ? best_others : 0;
}

static inline void settled_tricks(const Position *p, int *seat_min, int *others_min)
{
    *seat_min = *others_min = 0;
    if (p->trump == NOTRUMP) return;
    unsigned mine, y, z;
    trump_lanes(p, &mine, &y, &z);
    settled_lanes(mine, y, z, seat_min, others_min);
}

/* The trumps a settled count of `count` tricks for seat (for_seat) or for the
 * coalition relies on. */
uint64_t settled_cards(const Position *p, int for_seat, int count);

/* Normal play, a trump contract: SM_YES if seat surely takes `need` more tricks with its top
 * trumps. The right-hand opponent plays before seat whenever the coalition leads, so seat
 * beats its higher trumps with higher top trumps or plays under them with lower trumps
 * (it must hold enough); each higher trump of the left-hand opponent can take one top
 * trump. Else SM_UNKNOWN. *rel receives the trumps it relies on. */
int right_hand_trumps(const Position *p, int need, uint64_t *rel);

/* a of right_hand_trumps: the leads from a hand of nothing but trumps that seat, on
 * lead or not, holding only trumps or not, may have to make on the way to `need`,
 * fewer by its side cards the coalition cannot draw (`undrawable`; it is read only when
 * seat holds side cards and need > 1, so callers may pass 0 otherwise). Shared with the
 * trump game, whose count must be the same rule; inline, as both ask it at every
 * question. */
static inline int rht_trump_leads(int need, int on_lead, int trumps_only, int undrawable)
{
    int trump_leads = need - 1 + (on_lead && trumps_only);
    if (trump_leads && !trumps_only) { /* (nothing to cut when none is charged) */
        int after_side = need - 1 + on_lead - undrawable;
        if (after_side < trump_leads) trump_leads = after_side > 0 ? after_side : 0;
    }
    return trump_leads;
}

/* The count behind right_hand_trumps, from trump lanes (seat's, its left-hand and its
 * right-hand opponent's) and the leads from a hand of trumps it must allow for: the
 * line t (a lane bit: seat's top trumps are t and those above it) when seat surely
 * takes `need` tricks, else 0. */
int rht_line(unsigned mine, unsigned l, unsigned r, int need, int trump_leads);

/* Normal play, a trump contract, seat on lead: SM_YES if seat surely takes `need` more tricks
 * by a lead that makes the coalition spend trumps (a trump, which both coalition hands
 * must follow, or a side-suit top card that only a ruff takes) and then its settled
 * trumps (seat_min from settled_tricks before the lead); else SM_UNKNOWN. *rel receives the cards
 * it relies on. */
int forcing_lead_bound(const Position *p, int need, int seat_min, uint64_t *rel);

/* Bounds for a side that needs EVERY remaining trick, at a trick boundary with at
 * least two tricks left: SM_YES if the maximiser surely makes seat's `need` more tricks,
 * SM_NO if it surely cannot, SM_UNKNOWN if this says nothing. Normal play: `need` equal to the
 * tricks left (seat needs them all) or 1 (the coalition needs them all); misere:
 * `need` equal to the tricks left. *rel receives the cards the answer depends on
 * (beyond the suit lengths and who is on lead). */
int all_tricks_bound(const Position *p, int need, uint64_t *rel);

/* Normal play, the coalition on lead: seat's top cards it is sure to cash, those of
 * side suits only as often as every coalition hand holding trumps must still follow,
 * plus its settled trumps (seat_min from settled_tricks). SM_YES when they make
 * `need`, else SM_UNKNOWN; *rel receives
 * the cards it relies on. At need 1 it adds nothing once all_tricks_bound said
 * nothing (proof in bounds.c). */
int seat_winners_bound(const Position *p, int need, int seat_min, uint64_t *rel);

/* Normal play, a trump contract, the coalition on lead, seat holding every live trump:
 * SM_YES if its trumps and its side-suit top runs (each card wins once seat is on lead, and
 * a trump gets it there) make `need` tricks, else SM_UNKNOWN; *rel receives the side cards it
 * relies on. */
int sole_trumps_bound(const Position *p, int need, uint64_t *rel);

/* Normal play, seat on lead: seat cashes the side-suit top cards that no coalition
 * trump can ruff (in no trump, all its top cards), then keeps its settled trumps
 * (seat_min from settled_tricks). SM_YES when that sure count reaches `need`, else
 * SM_UNKNOWN; *rel
 * receives the cards it relies on. */
int seat_cash_bound(const Position *p, int need, int seat_min, uint64_t *rel);

#endif
