/* Cheap sure-trick counts used to cut the search short. */
#ifndef SM_BOUNDS_H
#define SM_BOUNDS_H

#include "position.h"

/* At a trick boundary: tricks the leader is sure to win by cashing his own top
 * cards, whatever the other two seats do (a lower bound for the leader's side when
 * that side wants tricks, i.e. in normal play; meaningless in misere). */
int quick_tricks(const Position *p);

#endif
