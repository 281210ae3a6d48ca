/* Cut-offs that hold only in misere (seat wants the fewest tricks). */
#ifndef SM_MISERE_H
#define SM_MISERE_H

#include "position.h"

/* At a trick boundary of a misere search where the coalition needs seat to take every
 * remaining trick (`need` equal to the tricks left): SM_NO if seat surely escapes the
 * current trick, so the coalition cannot; SM_UNKNOWN if this says nothing. *rel receives the
 * cards whose ranks the answer depends on (beyond suit lengths and the leader). */
int misere_escape_bound(const Position *p, int need, uint64_t *rel);

/* Inside a trick of a misere search: has seat already lost it (it played, and a
 * coalition card is winning)? Then *rel receives the card whose rank decided that. */
int misere_trick_lost(const Position *p, uint64_t *rel);

/* At a trick boundary of a misere search: SM_NO if seat surely keeps the coalition from
 * `need` more tricks by the low side cards it holds (it surely loses tricks_left -
 * need + 1 of the tricks left), SM_UNKNOWN if this says nothing; *rel as above. */
int misere_low_cards_bound(const Position *p, int need, uint64_t *rel);

/* At a trick boundary of a misere search: SM_NO if seat surely loses both this trick and
 * the next, so the coalition cannot make it take `need` >= tricks_left - 1 of the
 * tricks left; SM_UNKNOWN if this says nothing; *rel as above. */
int misere_two_escapes_bound(const Position *p, int need, uint64_t *rel);

#endif
