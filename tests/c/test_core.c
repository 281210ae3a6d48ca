/* C-level test of the search core, built with sanitizers by run_sanitizers.sh.
 *
 * Random small positions are solved by the engine and by a plain minimax written
 * here from the rules alone (no pruning, no table), for every strain, leader, seat,
 * misere, must-ruff and 0..2 cards already played; card values, can_reach and the
 * principal variation are checked too. A tiny table forces constant replacement.
 * A few larger deals exercise deep searches under the sanitizers. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "search.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* ---- reference rules, independent of position.c ---- */
static int suit_of(int c) { return c / 16; }
static int rank_of(int c) { return c % 16; }

static uint64_t ref_legal(uint64_t hand, const int *trick, int n, int trump, int must_ruff)
{
    if (n == 0) return hand;
    uint64_t lane = (uint64_t)0x1FFF << (16 * suit_of(trick[0]));
    if (hand & lane) return hand & lane;
    if (must_ruff && trump < 4) {
        uint64_t t = hand & ((uint64_t)0x1FFF << (16 * trump));
        if (t) return t;
    }
    return hand;
}

static int ref_winner(const int *trick, int trump)
{
    int best = 0;
    for (int i = 1; i < NSEATS; i++) {
        int c = trick[i], b = trick[best];
        if (suit_of(c) == suit_of(b)) {
            if (rank_of(c) > rank_of(b)) best = i;
        } else if (trump < 4 && suit_of(c) == trump) {
            best = i;
        }
    }
    return best;
}

/* seat's tricks from here on under paranoid play */
static int ref_value(uint64_t h[NSEATS], int to_move, int *trick, int n, int trump, int seat,
                     int misere, int must_ruff)
{
    if (n == NSEATS) {
        int leader = to_move;
        int w = (leader + ref_winner(trick, trump)) % NSEATS;
        int t[NSEATS];
        return (w == seat) + ref_value(h, w, t, 0, trump, seat, misere, must_ruff);
    }
    if (n == 0 && h[to_move] == 0) return 0;
    uint64_t legal = ref_legal(h[to_move], trick, n, trump, must_ruff);
    int wants_more = (to_move == seat) != misere;
    int best = wants_more ? -1 : 99;
    while (legal) {
        int c = __builtin_ctzll(legal);
        legal &= legal - 1;
        h[to_move] &= ~((uint64_t)1 << c);
        trick[n] = c;
        int v = ref_value(h, (to_move + 1) % NSEATS, trick, n + 1, trump, seat, misere, must_ruff);
        h[to_move] |= (uint64_t)1 << c;
        if (wants_more ? v > best : v < best) best = v;
    }
    return best;
}

static int failures = 0;
#define CHECK(cond, ...)                          \
    do {                                          \
        if (!(cond)) {                            \
            fprintf(stderr, "FAIL: " __VA_ARGS__); \
            fprintf(stderr, "\n");                \
            failures++;                           \
        }                                         \
    } while (0)

static void deal_random(uint64_t hands[NSEATS], int size)
{
    int deck[52];
    for (int i = 0; i < 52; i++) deck[i] = (i / 13) * 16 + i % 13;
    for (int i = 51; i > 0; i--) {
        int j = (int)(rnd() % (uint64_t)(i + 1));
        int t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    for (int s = 0; s < NSEATS; s++) {
        hands[s] = 0;
        for (int k = 0; k < size; k++) hands[s] |= (uint64_t)1 << deck[s * size + k];
    }
}

/* Play random legal cards to the current trick (0..2 of them). */
static int random_played(const uint64_t hands[NSEATS], int leader, int trump, int must_ruff, int want,
                         int played[NSEATS])
{
    int n = 0;
    for (; n < want; n++) {
        int seat = (leader + n) % NSEATS;
        uint64_t legal = ref_legal(hands[seat], played, n, trump, must_ruff);
        int k = (int)(rnd() % (uint64_t)__builtin_popcountll(legal));
        while (k--) legal &= legal - 1;
        played[n] = __builtin_ctzll(legal);
    }
    return n;
}

static void check_pv(Engine *e, const SmQuery *q, int trump, int value)
{
    int line[NSEATS * MAX_TRICKS];
    int len = engine_pv(e, q, line);
    uint64_t h[NSEATS];
    int trick[NSEATS], n = q->nplayed, leader = q->leader, won = 0;
    for (int s = 0; s < NSEATS; s++) h[s] = q->hands[s];
    for (int i = 0; i < n; i++) {
        trick[i] = q->played[i];
        h[(leader + i) % NSEATS] &= ~((uint64_t)1 << q->played[i]);
    }
    for (int i = 0; i < len; i++) {
        int mover = (leader + n) % NSEATS;
        uint64_t bit = (uint64_t)1 << line[i];
        uint64_t legal = ref_legal(h[mover], trick, n, trump, e->must_ruff);
        CHECK(legal & bit, "pv card %d illegal for seat %d", line[i], mover);
        h[mover] &= ~bit;
        trick[n++] = line[i];
        if (n == NSEATS) {
            leader = (leader + ref_winner(trick, trump)) % NSEATS;
            won += leader == e->seat;
            n = 0;
        }
    }
    CHECK(n == 0 && !(h[0] | h[1] | h[2]), "pv does not reach the end of the hand");
    CHECK(won == value, "pv gives %d tricks, value %d", won, value);
}

static void random_positions(int count, int max_size, size_t tt_bytes)
{
    Engine e;
    if (engine_init(&e, tt_bytes) != 0) {
        fprintf(stderr, "FAIL: engine_init\n");
        failures++;
        return;
    }
    for (int it = 0; it < count; it++) {
        int size = 1 + (int)(rnd() % (uint64_t)max_size);
        SmQuery q;
        deal_random(q.hands, size);
        int trump = (int)(rnd() % 5), seat = (int)(rnd() % 3), misere = (int)(rnd() % 2);
        int must_ruff = (int)(rnd() % 2);
        q.leader = (int)(rnd() % 3);
        q.nplayed = random_played(q.hands, q.leader, trump, must_ruff, (int)(rnd() % 3), q.played);
        engine_set_context(&e, trump, seat, misere, must_ruff);

        uint64_t h[NSEATS];
        int trick[NSEATS];
        for (int s = 0; s < NSEATS; s++) h[s] = q.hands[s];
        for (int i = 0; i < q.nplayed; i++) {
            trick[i] = q.played[i];
            h[(q.leader + i) % NSEATS] &= ~((uint64_t)1 << q.played[i]);
        }
        int mover = (q.leader + q.nplayed) % NSEATS;
        int expect = ref_value(h, mover, trick, q.nplayed, trump, seat, misere, must_ruff);
        int got = engine_solve(&e, &q);
        CHECK(got == expect, "solve %d != %d (it %d size %d trump %d seat %d misere %d ruff %d played %d)",
              got, expect, it, size, trump, seat, misere, must_ruff, q.nplayed);
        CHECK(engine_can_reach(&e, &q, expect) == 1, "can_reach fails at the value (it %d)", it);
        int beyond = misere ? expect - 1 : expect + 1;
        if (beyond >= 0 && beyond <= size)
            CHECK(engine_can_reach(&e, &q, beyond) == 0, "can_reach holds beyond the value (it %d)", it);

        int cards[MAX_TRICKS], values[MAX_TRICKS];
        int n = engine_card_values(&e, &q, -1, cards, values);
        uint64_t legal = ref_legal(h[mover], trick, q.nplayed, trump, must_ruff);
        CHECK(n == __builtin_popcountll(legal), "card_values lists %d cards, %d legal (it %d)", n,
              __builtin_popcountll(legal), it);
        for (int i = 0; i < n; i++) {
            h[mover] &= ~((uint64_t)1 << cards[i]);
            trick[q.nplayed] = cards[i];
            int v = ref_value(h, (mover + 1) % NSEATS, trick, q.nplayed + 1, trump, seat, misere, must_ruff);
            h[mover] |= (uint64_t)1 << cards[i];
            CHECK(values[i] == v, "card value of %d: %d != %d (it %d)", cards[i], values[i], v, it);
        }
        /* the same values when the position's value is given */
        int known_cards[MAX_TRICKS], known_values[MAX_TRICKS];
        CHECK(engine_card_values(&e, &q, expect, known_cards, known_values) == n, "card_values from the value (it %d)", it);
        for (int i = 0; i < n; i++)
            CHECK(known_cards[i] == cards[i] && known_values[i] == values[i],
                  "card value of %d from the value: %d != %d (it %d)", cards[i], known_values[i], values[i], it);
        check_pv(&e, &q, trump, expect);
    }
    engine_free(&e);
}

/* Larger deals: no reference, but the pv must be legal and reproduce the value,
 * and a tiny table must give the same answers as a large one. */
static void larger_deals(int count, int size)
{
    Engine big, tiny;
    if (engine_init(&big, (size_t)8 << 20) != 0 || engine_init(&tiny, 1) == 0) {
        fprintf(stderr, "FAIL: engine_init size handling\n");
        failures++;
        return;
    }
    if (engine_init(&tiny, TT_BUCKET_BYTES) != 0) {
        fprintf(stderr, "FAIL: engine_init of a one-bucket table\n");
        failures++;
        engine_free(&big);
        return;
    }
    for (int it = 0; it < count; it++) {
        SmQuery q;
        deal_random(q.hands, size);
        q.leader = (int)(rnd() % 3);
        q.nplayed = 0;
        int trump = (int)(rnd() % 5), seat = (int)(rnd() % 3), misere = it % 2, must_ruff = it % 3 == 0;
        engine_set_context(&big, trump, seat, misere, must_ruff);
        engine_set_context(&tiny, trump, seat, misere, must_ruff);
        int a = engine_solve(&big, &q);
        int b = engine_solve(&tiny, &q);
        CHECK(a == b, "large-table value %d != tiny-table value %d (deal %d)", a, b, it);
        check_pv(&big, &q, trump, a);
    }
    engine_free(&big);
    engine_free(&tiny);
}

int main(void)
{
    random_positions(1500, 4, 64 << 10);
    random_positions(1500, 4, TT_BUCKET_BYTES); /* one bucket: constant replacement */
    random_positions(60, 5, 1 << 20);
    larger_deals(6, 9);
    if (failures) {
        fprintf(stderr, "%d failure(s)\n", failures);
        return 1;
    }
    printf("test_core: all checks passed\n");
    return 0;
}
