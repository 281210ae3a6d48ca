/* Misere's looser games. The real game asks them node by node (search.c, step 9 of
 * the pipeline): each gives the coalition the choice of its next leader after more
 * tricks than the game before it, so every line of play of a stricter game is one of
 * the looser's, each value bounds the stricter one's from above, and where the
 * coalition fails in a looser game it fails in the stricter ones too. The choice makes
 * some ranks between coalition cards decide nothing, so each game keys a position by a
 * canonical form that merges every split of those cards between the coalition hands.
 *
 *  - SM_GAME_RELAXED: the choice after a trick won by a coalition hand where both
 *    coalition hands played cards of one suit, each above every card seat holds of it
 *    (the one just played included).
 *  - SM_GAME_LOOSE: the choice after a trick won by a coalition hand where both
 *    coalition hands played cards of one suit, each beating seat's card. */
#ifndef SM_MISERE_GAMES_H
#define SM_MISERE_GAMES_H

#include "position.h"
#include "search.h"

/* Does `card`, completing the trick at p (won by `winner`), give the coalition its
 * choice of the next leader in `game`? Where ranks decide that, either way, *rc
 * receives the card that decides it (the higher of the two cards compared: in the
 * relaxed game seat's top card of the suit and the coalition's lower card, in the
 * loose game seat's card and the coalition's lower card): a table entry made without
 * the choice must not answer a position that has it (a full deal's relaxed value came
 * out below the real one where only the choice's cards were relied on). */
static inline int game_choice(int game, const Position *p, int card, int winner, uint64_t *rc)
{
    if (game == SM_GAME_REAL || winner == p->seat) return 0;
    int seat_at = (p->seat - p->leader + NSEATS) % NSEATS;
    int cards[NSEATS] = {p->played[0], p->played[1], card};
    int a = cards[seat_at == 0 ? 1 : 0], b = cards[seat_at == 2 ? 1 : 2];
    int s = card_suit(a);
    if (card_suit(b) != s) return 0;
    uint64_t low = (uint64_t)1 << (a < b ? a : b), seat_cards;
    if (game == SM_GAME_LOOSE) /* seat's card alone; another suit's cannot beat theirs */
        seat_cards = card_suit(cards[seat_at]) == s ? (uint64_t)1 << cards[seat_at] : 0;
    else
        seat_cards = (p->hand[p->seat] | (uint64_t)1 << cards[seat_at]) & suit_lane(s);
    if (!seat_cards) return 1;
    uint64_t top = high_card(seat_cards);
    *rc |= top > low ? top : low;
    return top < low;
}

/* The other coalition hand leads the trick after c's (a looser game's choice). */
static inline void lead_from_partner(Position *c, int seat)
{
    int other = c->leader == left_of(seat) ? right_of(seat) : left_of(seat);
    uint64_t t = with_byte(c->word[TRICK_WORD], offsetof(Position, leader), other);
    c->word[TRICK_WORD] = with_byte(t, offsetof(Position, to_move), other);
}

/* q receives the position that stands for p in `game` (a looser one); returns whether
 * it differs from p. */
int game_canonical(int game, const Position *p, Position *q);

/* The cards a stricter game's position must share with p for `game`'s canonical form
 * of it to agree with p's on the cards `rq` names, so that an entry of `game` relying
 * on rq answers it too. */
uint64_t game_canonical_cards(int game, const Position *p, uint64_t rq);

#endif
