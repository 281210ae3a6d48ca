/* Move generation and ordering.
 *
 * Ordering matters more than anything else for a null-window search: the first move
 * tried at a node should usually be the one that proves the bound. Rules, in the
 * spirit of DDS: the leader tries sure winners, then low cards; a follower whose
 * partner is winning plays low; a follower whose opponent is winning tries the
 * cheapest card that takes the trick, then ducks low; discards come from the lowest. */
#include "moves.h"

static int16_t score_move(const Position *p, int card, unsigned live_lane_top_owner_is_us,
                          int partner_tops)
{
    int me = p->to_move;
    int r = card_rank(card);
    int s = card_suit(card);
    if (p->nplayed == 0) {
        if (live_lane_top_owner_is_us) return (int16_t)(200 + r);
        if (partner_tops) return (int16_t)(150 - r);
        return (int16_t)(100 - r - 2 * (s == p->trump));
    }
    int partner_winning = p->side[p->win_seat] == p->side[me];
    int wins = pos_beats(p, card, p->win_card);
    if (partner_winning) {
        if (wins) return (int16_t)(50 - r);
        return (int16_t)(150 - r - 20 * (s == p->trump));
    }
    if (wins) return (int16_t)(200 - r);
    return (int16_t)(100 - r - 20 * (s == p->trump));
}

int gen_moves(const Position *p, Move out[MAX_MOVES], int hint)
{
    int n = 0;
    int me = p->to_move;
    uint64_t legal = pos_legal(p);
    uint64_t hands_live = all_hands(p);
    uint64_t live_all = hands_live | p->table;
    for (int s = 0; s < NSUITS; s++) {
        unsigned own = (unsigned)(legal >> (LANE * s)) & LANE_MASK;
        if (!own) continue;
        unsigned live = (unsigned)(live_all >> (LANE * s)) & LANE_MASK;
        /* who holds the highest card of this suit still in the hands */
        unsigned hl = (unsigned)(hands_live >> (LANE * s)) & LANE_MASK;
        int top_ours = 0, partner_top = 0;
        if (hl) {
            unsigned topbit = 1u << (31 - __builtin_clz(hl));
            uint64_t tb = (uint64_t)topbit << (LANE * s);
            if (p->hand[me] & tb) top_ours = 1;
            else
                for (int o = 0; o < NSEATS; o++)
                    if (o != me && p->side[o] == p->side[me] && (p->hand[o] & tb)) partner_top = 1;
        }
        /* walk live cards from low to high; a run of our cards is one group,
         * represented by its lowest card */
        int in_run = 0;
        for (int r = 0; r < 13; r++) {
            unsigned bit = 1u << r;
            if (!(live & bit)) continue;
            if (own & bit) {
                if (!in_run) {
                    int card = LANE * s + r;
                    out[n].card = (int8_t)card;
                    out[n].score = score_move(p, card, 0, 0);
                    out[n].group = 0;
                    n++;
                    in_run = 1;
                }
                out[n - 1].group |= (uint64_t)bit << (LANE * s);
            } else {
                in_run = 0;
            }
        }
        /* the group holding the suit's top card (leader only): mark it */
        if (p->nplayed == 0 && top_ours) {
            out[n - 1].score = score_move(p, out[n - 1].card, 1, 0);
        } else if (p->nplayed == 0 && partner_top) {
            /* lead low towards the partner's winner: the lowest group */
            for (int i = n - 1; i >= 0 && card_suit(out[i].card) == s; i--)
                out[i].score = score_move(p, out[i].card, 0, 1);
        }
    }
    if (hint >= 0) {
        uint64_t hb = (uint64_t)1 << hint;
        for (int i = 0; i < n; i++)
            if (out[i].group & hb) out[i].score = 1000;
    }
    /* insertion sort, best first (stable) */
    for (int i = 1; i < n; i++) {
        Move m = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].score < m.score) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = m;
    }
    return n;
}
