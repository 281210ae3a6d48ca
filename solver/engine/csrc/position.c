/* Playing cards on a position and the legality rule (follow suit; optionally must ruff). */
#include "position.h"

void pos_init(Position *p, const uint64_t hands[NSEATS], int trump, int leader,
              int seat, int misere, int must_ruff)
{
    int n = 0;
    for (int s = 0; s < NSEATS; s++) {
        p->hand[s] = hands[s];
        p->side[s] = (int8_t)((s == seat) != (misere != 0));
        p->played[s] = -1;
    }
    n = popcount64(hands[leader]);
    p->seat = (int8_t)seat;
    p->misere = (int8_t)(misere != 0);
    p->table = 0;
    p->trump = (int8_t)trump;
    p->must_ruff = (int8_t)(must_ruff != 0);
    p->leader = (int8_t)leader;
    p->nplayed = 0;
    p->to_move = (int8_t)leader;
    p->led_suit = -1;
    p->win_seat = -1;
    p->win_card = -1;
    p->counted = 0;
    p->tricks_left = (int8_t)n;
}

int pos_beats(const Position *p, int card, int best)
{
    if (card_suit(card) == card_suit(best)) return card_rank(card) > card_rank(best);
    return card_suit(card) == p->trump;
}

uint64_t pos_legal_to(const Position *p, int x, int led)
{
    uint64_t h = p->hand[x];
    uint64_t follow = h & suit_lane(led);
    if (follow) return follow;
    if (p->must_ruff && p->trump != NOTRUMP) {
        uint64_t trumps = h & suit_lane(p->trump);
        if (trumps) return trumps;
    }
    return h;
}

uint64_t pos_legal(const Position *p)
{
    if (p->nplayed == 0) return p->hand[p->to_move];
    return pos_legal_to(p, p->to_move, p->led_suit);
}

int pos_can_stay_under(const Position *p, int x, int led, int w)
{
    uint64_t l = pos_legal_to(p, x, led);
    int ws = card_suit(w);
    uint64_t under = l & suit_lane(ws) & (((uint64_t)1 << w) - 1);
    uint64_t other = l & ~suit_lane(ws);
    if (p->trump != NOTRUMP && ws != p->trump) other &= ~suit_lane(p->trump);
    return (under | other) != 0;
}

void pos_play(Position *p, int card)
{
    uint64_t bit = (uint64_t)1 << card;
    int seat = p->to_move;
    p->hand[seat] &= ~bit;
    if (p->nplayed == 0) {
        p->led_suit = (int8_t)card_suit(card);
        p->win_seat = (int8_t)seat;
        p->win_card = (int8_t)card;
        p->table = bit;
    } else {
        if (pos_beats(p, card, p->win_card)) {
            p->win_seat = (int8_t)seat;
            p->win_card = (int8_t)card;
        }
        p->table |= bit;
    }
    p->played[p->nplayed++] = (int8_t)card;
    if (p->nplayed == NSEATS) {
        p->counted += p->win_seat == p->seat;
        p->tricks_left--;
        p->leader = p->win_seat;
        p->to_move = p->win_seat;
        p->nplayed = 0;
        p->table = 0;
    } else {
        p->to_move = (int8_t)((seat + 1) % NSEATS);
    }
}
