/* Misere's looser games: their canonical forms (misere_games.h). */
#include "misere_games.h"

/* Where the coalition's cards of `cards` (a set of one suit) lie between the same two
 * of seat's cards, the ranks between them decide nothing in a looser game that gives
 * the choice after every trick where two of them meet: there either both beat seat's
 * card, and the coalition picks the next leader whoever won, or seat's card beats
 * both; against every other card they stand as they did. So q gives the hand to
 * seat's left the top ones (its number of them unchanged), the other hand the rest.
 * Returns whether that moved a card. */
static int left_takes_the_top(const Position *p, Position *q, uint64_t cards)
{
    int L = left_of(p->seat), R = right_of(p->seat);
    uint64_t theirs = (p->hand[L] | p->hand[R]) & cards, left = p->hand[L] & cards;
    if (!left || left == theirs) return 0;
    uint64_t top = 0, rest = theirs;
    for (int i = popcount64(left); i > 0; i--) {
        uint64_t high = high_card(rest);
        top |= high;
        rest &= ~high;
    }
    if (top == left) return 0;
    q->hand[L] = (q->hand[L] & ~left) | top;
    q->hand[R] = (q->hand[R] & ~(theirs & ~left)) | rest;
    return 1;
}

/* The relaxed game merges the coalition's cards above every card seat holds of their
 * suit (all of them where it holds none); the loose game those between each two
 * neighbouring cards of seat's, below its lowest and above its highest. */
int game_canonical(int game, const Position *p, Position *q)
{
    int changed = 0;
    pos_copy(q, p);
    for (int s = 0; s < NSUITS; s++) {
        uint64_t lane = suit_lane(s), mine = p->hand[p->seat] & lane;
        if (game == SM_GAME_RELAXED) {
            changed |= left_takes_the_top(p, q, mine ? lane & ~((high_card(mine) << 1) - 1) : lane);
            continue;
        }
        uint64_t open = lane, next;
        do { /* the stretches below each of seat's cards from the lowest up, then above */
            next = mine & -mine;
            uint64_t stretch = next ? open & (next - 1) : open;
            changed |= left_takes_the_top(p, q, stretch);
            open &= ~stretch & ~next;
            mine &= ~next;
        } while (next);
    }
    return changed;
}

/* Which coalition cards lie in which stretch decides what game_canonical moves: in each
 * suit seat holds where rq names cards, every card from the bottom of the stretch that
 * holds rq's lowest card of the suit up (in the relaxed game from seat's top card up,
 * as only that stretch moves). Where seat holds none of a suit the lengths decide it. */
uint64_t game_canonical_cards(int game, const Position *p, uint64_t rq)
{
    uint64_t cards = 0, live = all_hands(p);
    for (int s = 0; s < NSUITS; s++) {
        uint64_t lane = suit_lane(s), mine = p->hand[p->seat] & lane, named = rq & lane;
        if (!mine || !named) continue;
        uint64_t from;
        if (game == SM_GAME_RELAXED) {
            from = high_card(mine);
        } else {
            uint64_t lowest = named & -named, below = mine & (lowest - 1);
            from = below ? high_card(below) : lowest;
        }
        cards |= live & lane & ~(from - 1);
    }
    return cards;
}
