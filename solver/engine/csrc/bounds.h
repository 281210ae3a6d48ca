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

/* Tricks that are settled whoever plays how: the top trumps. `seat` wins at least
 * *seat_min tricks (its own unbroken run of top trumps: each falls on a different
 * trick and wins it) and the other seats at least *others_min (the longer of the
 * two shares of their unbroken run of top trumps). *rel receives those trumps.
 * Valid at a trick boundary, in normal play and misere alike. */
void settled_tricks(const Position *p, int *seat_min, int *others_min, uint64_t *rel);

#endif
