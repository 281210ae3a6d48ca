/* Playing cards on a position and the legality rule (follow suit; optionally must ruff). */
#include "position.h"

void pos_init(Position *p, const uint64_t hands[NSEATS], int trump, int leader,
              int seat, int misere, int must_ruff)
{
    int n = 0;
    for (int i = 0; i < 8; i++) p->word[i] = 0;
    for (int s = 0; s < NSEATS; s++) {
        p->hand[s] = hands[s];
        p->side[s] = (int8_t)((s == seat) != (misere != 0));
        p->played[s] = -1;
    }
    p->lengths = 0;
    for (int s = 0; s < NSEATS; s++)
        for (int x = 0; x < NSUITS; x++)
            p->lengths |= (uint64_t)popcount64(hands[s] & suit_lane(x)) << (LANE * s + 4 * x);
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
