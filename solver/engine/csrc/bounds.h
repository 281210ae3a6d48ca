/* Cheap sure-trick counts used to cut the search short. */
#ifndef SM_BOUNDS_H
#define SM_BOUNDS_H

#include "position.h"

/* At a trick boundary: tricks the leader's side is sure to win by cashing the top
 * cards of the leader, or of the leader's partner after a low lead to the partner's
 * top card (*who receives the seat whose top cards count), whatever the other
 * seats do: a lower bound for the leader's side when that side wants tricks, i.e.
 * in normal play; meaningless in misere. */
int quick_tricks(const Position *p, int *who);

/* Tricks that are settled whoever plays how, from the trumps alone: `seat` wins at
 * least *seat_min tricks (its i highest trumps less the other seats' trumps above
 * them, best i) and the other seats at least *others_min (likewise for one
 * coalition player's share of the top trumps against seat's higher trumps).
 * *rel receives the trumps those counts depend on.
 * Valid at a trick boundary, in normal play and misere alike. */
void settled_tricks(const Position *p, int *seat_min, int *others_min, uint64_t *rel);

#endif
