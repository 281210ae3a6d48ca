/* Null-window alpha-beta over trick play, with a transposition table at trick
 * boundaries, quick-trick cut-offs and equivalent-card pruning. */
#include "search.h"
#include "bounds.h"
#include "moves.h"

int engine_init(Engine *e, size_t tt_bytes)
{
    e->trump = e->seat = -1;
    e->misere = e->must_ruff = 0;
    e->ctx_bits = 0;
    e->nodes = 0;
    e->aborted = 0;
    e->poll = 0;
    e->poll_arg = 0;
    return tt_init(&e->tt, tt_bytes);
}

void engine_free(Engine *e) { tt_free(&e->tt); }

void engine_clear(Engine *e) { tt_clear(&e->tt); }

void engine_set_context(Engine *e, int trump, int seat, int misere, int must_ruff)
{
    misere = misere != 0;
    must_ruff = must_ruff != 0;
    e->trump = trump;
    e->seat = seat;
    e->misere = misere;
    e->must_ruff = must_ruff;
    e->ctx_bits = tt_context_bits(trump, seat, misere, must_ruff);
}

/* Can the maximiser make `seat` win `target` tricks in total (counted included)? */
static int ab(Engine *e, const Position *p, int target)
{
    if ((++e->nodes & (SM_POLL_INTERVAL - 1)) == 0 && e->poll && !e->aborted) {
        if (e->poll(e->poll_arg)) e->aborted = 1;
    }
    if (e->aborted) return 0;
    int need = target - p->counted;
    if (need <= 0) return 1;
    if (need > p->tricks_left) return 0;

    TTKey key = {0, 0};
    int boundary = p->nplayed == 0;
    if (boundary) {
        if (p->tricks_left == 1) return last_trick(p) >= need;
        int lb, ub;
        key = tt_key(p);
        key.k0 |= e->ctx_bits;
        if (tt_probe(&e->tt, key, &lb, &ub)) {
            if (lb >= need) return 1;
            if (ub < need) return 0;
        }
        if (!p->misere) {
            int q = quick_tricks(p);
            if (p->side[p->leader]) {
                if (q >= need) {
                    tt_store(&e->tt, key, q, p->tricks_left);
                    return 1;
                }
            } else if (p->tricks_left - q < need) {
                tt_store(&e->tt, key, 0, p->tricks_left - q);
                return 0;
            }
        }
    }

    Move moves[MAX_MOVES];
    int n = gen_moves(p, moves);
    int maximiser = p->side[p->to_move];
    int result = !maximiser;
    for (int i = 0; i < n; i++) {
        Position c = *p;
        pos_play(&c, moves[i].card);
        int r = ab(e, &c, target);
        if (e->aborted) return 0;
        if (r == maximiser) {
            result = r;
            break;
        }
    }
    if (boundary) {
        if (result) tt_store(&e->tt, key, need, p->tricks_left);
        else tt_store(&e->tt, key, 0, need - 1);
    }
    return result;
}

/* Exact value: seat's tricks, counted included. */
static int exact_value(Engine *e, const Position *p)
{
    int lo = p->counted, hi = p->counted + p->tricks_left;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        int r = ab(e, p, mid);
        if (e->aborted) return SM_ABORTED;
        if (r) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static void setup(Engine *e, const SmQuery *q, Position *p)
{
    pos_init(p, q->hands, e->trump, q->leader, e->seat, e->misere, e->must_ruff);
    for (int i = 0; i < q->nplayed; i++) pos_play(p, q->played[i]);
    e->nodes = 0;
    e->aborted = 0;
}

int engine_solve(Engine *e, const SmQuery *q)
{
    Position p;
    setup(e, q, &p);
    return exact_value(e, &p);
}

int engine_can_reach(Engine *e, const SmQuery *q, int target)
{
    Position p;
    setup(e, q, &p);
    /* misere: seat holds itself to <= target unless the coalition forces target+1 */
    int r = e->misere ? !ab(e, &p, target + 1) : ab(e, &p, target);
    return e->aborted ? SM_ABORTED : r;
}

int engine_card_values(Engine *e, const SmQuery *q, int cards[MAX_TRICKS], int values[MAX_TRICKS])
{
    Position p;
    setup(e, q, &p);
    Move moves[MAX_MOVES];
    int n = gen_moves(&p, moves);
    int count = 0;
    uint64_t nodes = 0;
    for (int i = 0; i < n; i++) {
        Position c = p;
        pos_play(&c, moves[i].card);
        e->nodes = 0;
        int v = exact_value(e, &c);
        nodes += e->nodes;
        if (v == SM_ABORTED) return SM_ABORTED;
        uint64_t group = equivalent_cards(&p, moves[i].card);
        while (group) {
            int card = __builtin_ctzll(group);
            group &= group - 1;
            cards[count] = card;
            values[count] = v;
            count++;
        }
    }
    e->nodes = nodes;
    return count;
}

int engine_pv(Engine *e, const SmQuery *q, int cards[NSEATS * MAX_TRICKS])
{
    Position p;
    setup(e, q, &p);
    int v = exact_value(e, &p);
    if (v == SM_ABORTED) return SM_ABORTED;
    int len = 0;
    while (p.tricks_left > 0) {
        Move moves[MAX_MOVES];
        int n = gen_moves(&p, moves);
        int maximiser = p.side[p.to_move];
        int chosen = -1;
        for (int i = 0; i < n && chosen < 0; i++) {
            Position c = p;
            pos_play(&c, moves[i].card);
            /* the maximiser keeps v (child >= v); the minimiser keeps it (child < v+1) */
            int r = ab(e, &c, maximiser ? v : v + 1);
            if (e->aborted) return SM_ABORTED;
            if (r == maximiser) chosen = moves[i].card;
        }
        if (chosen < 0) chosen = moves[0].card; /* unreachable when the value is exact */
        pos_play(&p, chosen);
        cards[len++] = chosen;
    }
    return len;
}
