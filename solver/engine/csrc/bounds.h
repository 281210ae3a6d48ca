/* Cheap sure-trick counts used to cut the search short. */
#ifndef SM_BOUNDS_H
#define SM_BOUNDS_H

#include "position.h"

/* At a trick boundary: tricks the leader's side is sure to win by cashing the top
 * cards of the leader, or of the leader's partner after a low lead to the partner's
 * top card (*who receives the seat whose top cards count), whatever the other
 * seats do: a lower bound for the leader's side when that side wants tricks, i.e.
 * in normal play; meaningless in misere. The caller wants `want` of them: a count
 * below that may come back as a smaller one (cheaply: most calls fall short). */
int quick_tricks(const Position *p, int want, int *who);

/* The cards whose ranks `count` (<= the count found) of those quick tricks rely on,
 * `who` being the seat quick_tricks named. */
uint64_t quick_trick_cards(const Position *p, int who, int count);

/* Tricks that are settled whoever plays how, from the trumps alone: `seat` wins at
 * least *seat_min tricks (its i highest trumps less the other seats' trumps above
 * them, best i) and the other seats at least *others_min (likewise for one
 * coalition player's share of the top trumps against seat's higher trumps).
 * Valid at a trick boundary, in normal play and misere alike. */
void settled_tricks(const Position *p, int *seat_min, int *others_min);

/* The trumps a settled count of `count` tricks for seat (for_seat) or for the
 * coalition relies on. */
uint64_t settled_cards(const Position *p, int for_seat, int count);

/* Bounds for a side that needs EVERY remaining trick, at a trick boundary with at
 * least two tricks left: 1 if the maximiser surely makes seat's `need` more tricks,
 * 0 if it surely cannot, -1 if this says nothing. Normal play: `need` equal to the
 * tricks left (seat needs them all) or 1 (the coalition needs them all); misere:
 * `need` equal to the tricks left. *rel receives the cards the answer depends on
 * (beyond the suit lengths and who is on lead). */
int all_tricks_bound(const Position *p, int need, uint64_t *rel);

/* Normal play, the coalition on lead: seat's top cards it is sure to cash, those of
 * side suits only as often as every coalition hand holding trumps must still follow,
 * plus its settled trumps (seat_min from settled_tricks). Returns a lower bound on
 * seat's tricks of at least `need`, or 0 when it cannot show `need`; *rel receives
 * the cards it relies on. At need 1 it adds nothing once all_tricks_bound said
 * nothing (proof in bounds.c). */
int seat_winners_bound(const Position *p, int need, int seat_min, uint64_t *rel);

/* Normal play, seat on lead, trumps in play: seat cashes the side-suit top cards
 * that no coalition trump can ruff, then keeps its settled trumps (seat_min from
 * settled_tricks). Returns that sure count when it reaches `need`, else 0; *rel
 * receives the cards it relies on. */
int seat_cash_bound(const Position *p, int need, int seat_min, uint64_t *rel);

/* Normal play, a coalition player on lead, trumps in play: it cashes its side-suit
 * top cards that seat cannot ruff, then the coalition keeps its settled trumps
 * (others_min). Returns 1 when seat then surely misses `need`, else 0; *rel
 * receives the cards relied on. */
int coalition_cash_bound(const Position *p, int need, int others_min, uint64_t *rel);

#endif
