/* CPython binding: the type `_core.Engine`, a thin wrapper around search.h.
 *
 * Arguments arrive already validated by solver/engine/__init__.py (hands as three
 * masks, played cards as bit indices); check_query refuses anything the search could
 * read out of bounds on, for callers of the private type. The GIL is released during search; every
 * SM_POLL_INTERVAL nodes the poll callback re-takes it to run signal handlers, so
 * Ctrl-C aborts a long search with KeyboardInterrupt, and to see whether another
 * thread has called cancel() (signals reach only the main thread, so a search on a
 * worker thread is stopped that way), or whether stop_all() has raised the process's
 * stop flag (a Ctrl-C seen by the main thread stops every worker thread's search at its
 * next poll; the flag stays up, refusing new searches, until stop_all(False)). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "search.h"

typedef struct {
    PyObject_HEAD
    Engine engine;
    int ready;                 /* engine_init succeeded */
    int busy;                  /* a search is running (guards against concurrent use) */
    PyThreadState *saved;      /* thread state while the GIL is released */
    int cancelled;             /* set by cancel(): every search aborts from then on */
} EngineObject;

/* The process's stop flag (stop_all). Read and written with the GIL held, so a plain
 * int is enough: every poll re-takes the GIL before reading it. */
static int stop_requested = 0;

static int poll_signals(void *arg)
{
    EngineObject *self = (EngineObject *)arg;
    PyEval_RestoreThread(self->saved);
    int stop = self->cancelled || stop_requested || PyErr_CheckSignals() < 0;
    self->saved = PyEval_SaveThread();
    return stop;
}

/* An abort raised by the stop flag is a Ctrl-C passed on from the main thread. */
static PyObject *stopped_error(void)
{
    PyErr_SetString(PyExc_KeyboardInterrupt, "search stopped (stop_all)");
    return NULL;
}

static int Engine_init(EngineObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"tt_bytes", NULL};
    Py_ssize_t bytes;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "n", kwlist, &bytes)) return -1;
    if (self->ready) {
        engine_free(&self->engine);
        self->ready = 0;
    }
    if (bytes <= 0 || engine_init(&self->engine, (size_t)bytes) != 0) {
        PyErr_Format(PyExc_MemoryError, "cannot allocate a transposition table of %zd bytes", bytes);
        return -1;
    }
    self->ready = 1;
    self->engine.poll = poll_signals;
    self->engine.poll_arg = self;
    return 0;
}

static void Engine_dealloc(EngineObject *self)
{
    if (self->ready) engine_free(&self->engine);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Refuse a position the search would read out of bounds on: cards outside the 13 rank
 * bits of a lane, a card in two hands, hands of unequal size or over MAX_TRICKS cards,
 * a played card not in the hand of the seat whose turn it was. The Python layer checks
 * all of this before calling; this is the C core's own guard (ValueError, not a crash). */
static int check_query(const SmQuery *q)
{
    const uint64_t lanes = (uint64_t)LANE_MASK * (1 | 1ULL << LANE | 1ULL << 2 * LANE | 1ULL << 3 * LANE);
    uint64_t seen = 0;
    int size = -1;
    for (int s = 0; s < NSEATS; s++) {
        uint64_t h = q->hands[s];
        int n = __builtin_popcountll(h);
        if (h & ~lanes) {
            PyErr_Format(PyExc_ValueError, "hand %d has bits outside the deck", s);
            return -1;
        }
        if (h & seen) {
            PyErr_SetString(PyExc_ValueError, "a card is in two hands");
            return -1;
        }
        if (size >= 0 && n != size) {
            PyErr_SetString(PyExc_ValueError, "the hands differ in size");
            return -1;
        }
        seen |= h;
        size = n;
    }
    if (size < 1 || size > MAX_TRICKS) {
        PyErr_Format(PyExc_ValueError, "hands of %d cards; the engine takes 1..%d", size, MAX_TRICKS);
        return -1;
    }
    for (int i = 0; i < q->nplayed; i++) {
        if (!(q->hands[(q->leader + i) % NSEATS] >> q->played[i] & 1)) {
            PyErr_SetString(PyExc_ValueError, "a played card is not in the hand of the seat that played it");
            return -1;
        }
    }
    return 0;
}

/* A card's bit index from a Python int into *card; -1 with ValueError "<what> index out
 * of range" for a number that is no card. */
static int parse_card_index(PyObject *o, int *card, const char *what)
{
    long c = PyLong_AsLong(o);
    if (c == -1 && PyErr_Occurred()) return -1;
    if (c < 0 || c >= 64 || (c & 15) > 12) {
        PyErr_Format(PyExc_ValueError, "%s index out of range", what);
        return -1;
    }
    *card = (int)c;
    return 0;
}

/* Parse (trump, seat, misere, must_ruff, (h0, h1, h2), leader, played_tuple). */
static int parse_query(EngineObject *self, PyObject *args, SmQuery *q, int *extra, int want_extra)
{
    int trump, seat, misere, must_ruff;
    unsigned long long h[NSEATS];
    PyObject *played;
    int ok;
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "engine not initialised");
        return -1;
    }
    if (want_extra)
        ok = PyArg_ParseTuple(args, "iippKKKiO!i", &trump, &seat, &misere, &must_ruff, &h[0], &h[1],
                              &h[2], &q->leader, &PyTuple_Type, &played, extra);
    else
        ok = PyArg_ParseTuple(args, "iippKKKiO!", &trump, &seat, &misere, &must_ruff, &h[0], &h[1],
                              &h[2], &q->leader, &PyTuple_Type, &played);
    if (!ok) return -1;
    if (trump < 0 || trump > NOTRUMP || seat < 0 || seat >= NSEATS || q->leader < 0 ||
        q->leader >= NSEATS) {
        PyErr_SetString(PyExc_ValueError, "strain, seat or leader out of range");
        return -1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(played);
    if (n >= NSEATS) {
        PyErr_SetString(PyExc_ValueError, "too many played cards");
        return -1;
    }
    for (int s = 0; s < NSEATS; s++) q->hands[s] = (uint64_t)h[s];
    q->nplayed = (int)n;
    for (Py_ssize_t i = 0; i < n; i++)
        if (parse_card_index(PyTuple_GET_ITEM(played, i), &q->played[i], "played card") < 0) return -1;
    if (check_query(q) < 0) return -1;
    if (self->cancelled) {
        PyErr_SetString(PyExc_RuntimeError, "search cancelled");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "this engine is already searching in another thread");
        return -1;
    }
    if (stop_requested) {
        stopped_error();
        return -1;
    }
    engine_set_context(&self->engine, trump, seat, misere, must_ruff);
    return 0;
}

#define RUN_SEARCH(self, stmt)                 \
    do {                                       \
        (self)->busy = 1;                      \
        (self)->saved = PyEval_SaveThread();   \
        stmt;                                  \
        PyEval_RestoreThread((self)->saved);   \
        (self)->busy = 0;                      \
    } while (0)

static PyObject *aborted_error(void)
{
    if (PyErr_Occurred()) return NULL;
    if (stop_requested) return stopped_error();
    PyErr_SetString(PyExc_RuntimeError, "search cancelled");
    return NULL;
}

/* Called with the GIL held, typically from another thread than the one searching. */
static PyObject *Engine_cancel(EngineObject *self, PyObject *Py_UNUSED(ignored))
{
    self->cancelled = 1;
    Py_RETURN_NONE;
}

/* A value of the query in `args`, found by `value` (engine_solve and its kin). */
static PyObject *value_with(EngineObject *self, PyObject *args, int (*value)(Engine *, const SmQuery *))
{
    SmQuery q;
    int v;
    if (parse_query(self, args, &q, NULL, 0) < 0) return NULL;
    RUN_SEARCH(self, v = value(&self->engine, &q));
    if (v == SM_ABORTED) return aborted_error();
    return PyLong_FromLong(v);
}

static PyObject *Engine_solve(EngineObject *self, PyObject *args)
{
    return value_with(self, args, engine_solve);
}

/* The value in misere's relaxed game, a hook for the tests. */
static PyObject *Engine_relaxed_solve(EngineObject *self, PyObject *args)
{
    return value_with(self, args, engine_relaxed_solve);
}

/* Whether misere's real game searches its expected refutations in the relaxed game
 * (relaxed_search; a hook for the tests: without them the real game stands alone). */
static PyObject *Engine_set_relaxed_search(EngineObject *self, PyObject *args)
{
    int search;
    if (!PyArg_ParseTuple(args, "p", &search)) return NULL;
    self->engine.relaxed_search = search;
    Py_RETURN_NONE;
}

/* can_reach on the query and target in `args`, within max_nodes (0: no budget): True,
 * False, or None once the search has passed the budget without an answer. */
static PyObject *reach(EngineObject *self, PyObject *args, uint64_t max_nodes)
{
    SmQuery q;
    int target, v;
    if (parse_query(self, args, &q, &target, 1) < 0) return NULL;
    if (target < 0 || target > __builtin_popcountll(q.hands[0])) {
        PyErr_SetString(PyExc_ValueError, "target out of range");
        return NULL;
    }
    RUN_SEARCH(self, v = engine_can_reach_within(&self->engine, &q, target, max_nodes));
    if (v == SM_OVER_BUDGET) Py_RETURN_NONE;
    if (v == SM_ABORTED) return aborted_error();
    return PyBool_FromLong(v);
}

static PyObject *Engine_can_reach(EngineObject *self, PyObject *args)
{
    return reach(self, args, 0);
}

/* can_reach's arguments and then max_nodes, a positive int. */
static PyObject *Engine_can_reach_within(EngineObject *self, PyObject *args)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n < 1) {
        PyErr_SetString(PyExc_TypeError, "can_reach_within needs can_reach's arguments and max_nodes");
        return NULL;
    }
    unsigned long long max_nodes = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(args, n - 1));
    if (max_nodes == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    if (max_nodes == 0) {
        PyErr_SetString(PyExc_ValueError, "max_nodes must be positive");
        return NULL;
    }
    PyObject *rest = PyTuple_GetSlice(args, 0, n - 1);
    if (!rest) return NULL;
    PyObject *answer = reach(self, rest, (uint64_t)max_nodes);
    Py_DECREF(rest);
    return answer;
}

/* card_values(...same as solve..., known): known is the position's proven value, or -1. */
static PyObject *Engine_card_values(EngineObject *self, PyObject *args)
{
    SmQuery q;
    int cards[MAX_TRICKS], values[MAX_TRICKS], n;
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "card_values needs the query and the known value (-1: none)");
        return NULL;
    }
    long known = PyLong_AsLong(PyTuple_GET_ITEM(args, nargs - 1));
    if (known == -1 && PyErr_Occurred()) return NULL;
    PyObject *rest = PyTuple_GetSlice(args, 0, nargs - 1);
    if (!rest) return NULL;
    int parsed = parse_query(self, rest, &q, NULL, 0);
    Py_DECREF(rest);
    if (parsed < 0) return NULL;
    if (known < -1 || known > __builtin_popcountll(q.hands[0]) + 1) {
        PyErr_SetString(PyExc_ValueError, "known value out of range");
        return NULL;
    }
    RUN_SEARCH(self, n = engine_card_values(&self->engine, &q, (int)known, cards, values));
    if (n == SM_ABORTED) return aborted_error();
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *pair = Py_BuildValue("(ii)", cards[i], values[i]);
        if (!pair) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, pair);
    }
    return list;
}

static PyObject *Engine_pv(EngineObject *self, PyObject *args)
{
    SmQuery q;
    int cards[NSEATS * MAX_TRICKS], n;
    if (parse_query(self, args, &q, NULL, 0) < 0) return NULL;
    RUN_SEARCH(self, n = engine_pv(&self->engine, &q, cards));
    if (n == SM_ABORTED) return aborted_error();
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *c = PyLong_FromLong(cards[i]);
        if (!c) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, c);
    }
    return list;
}

/* best_card(...same as solve..., order_tuple) -> (card_bit_index or -2, value) */
static PyObject *Engine_best_card(EngineObject *self, PyObject *args)
{
    SmQuery q;
    int order[MAX_TRICKS], value = 0, card;
    Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError, "best_card needs the query and an order");
        return NULL;
    }
    PyObject *seq = PyTuple_GET_ITEM(args, nargs - 1);
    if (!PyTuple_Check(seq) || PyTuple_GET_SIZE(seq) > MAX_TRICKS) {
        PyErr_SetString(PyExc_ValueError, "the order must be a tuple of at most 17 card indices");
        return NULL;
    }
    int norder = (int)PyTuple_GET_SIZE(seq);
    for (int i = 0; i < norder; i++)
        if (parse_card_index(PyTuple_GET_ITEM(seq, i), &order[i], "card") < 0) return NULL;
    PyObject *query = PyTuple_GetSlice(args, 0, nargs - 1);
    if (!query) return NULL;
    int bad = parse_query(self, query, &q, NULL, 0);
    Py_DECREF(query);
    if (bad < 0) return NULL;
    RUN_SEARCH(self, card = engine_best_card(&self->engine, &q, order, norder, &value));
    if (card == SM_ABORTED) return aborted_error();
    return Py_BuildValue("(ii)", card, value);
}

static PyObject *Engine_keeping_cards(EngineObject *self, PyObject *args)
{
    SmQuery q;
    int value;
    int64_t mask;
    if (parse_query(self, args, &q, &value, 1) < 0) return NULL;
    if (value < 0 || value > MAX_TRICKS) {
        PyErr_SetString(PyExc_ValueError, "value out of range");
        return NULL;
    }
    RUN_SEARCH(self, mask = engine_keeping_cards(&self->engine, &q, value));
    if (mask == SM_ABORTED) return aborted_error();
    return PyLong_FromUnsignedLongLong((unsigned long long)mask);
}

static PyObject *Engine_clear(EngineObject *self, PyObject *Py_UNUSED(ignored))
{
    if (self->ready && !self->busy) engine_clear(&self->engine);
    Py_RETURN_NONE;
}

static PyObject *Engine_get_nodes(EngineObject *self, void *Py_UNUSED(closure))
{
    return PyLong_FromUnsignedLongLong(self->ready ? self->engine.nodes : 0);
}

/* The counters of the last call (search.h's SM_STATS), nodes first, as a dict. */
static PyObject *Engine_stats(EngineObject *self, PyObject *Py_UNUSED(ignored))
{
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    PyObject *v = PyLong_FromUnsignedLongLong(self->ready ? self->engine.nodes : 0);
    if (!v || PyDict_SetItemString(d, "nodes", v) < 0) goto fail;
    Py_DECREF(v);
    for (int i = 0; i < SM_NSTATS; i++) {
        v = PyLong_FromUnsignedLongLong(self->ready ? self->engine.stat[i] : 0);
        if (!v || PyDict_SetItemString(d, sm_stat_names[i], v) < 0) goto fail;
        Py_DECREF(v);
    }
    return d;
fail:
    Py_XDECREF(v);
    Py_DECREF(d);
    return NULL;
}

static PyObject *Engine_get_table_bytes(EngineObject *self, void *Py_UNUSED(closure))
{
    size_t b = self->ready ? self->engine.tt.nbuckets * TT_BUCKET_BYTES : 0;
    return PyLong_FromSize_t(b);
}

static PyMethodDef Engine_methods[] = {
    {"solve", (PyCFunction)Engine_solve, METH_VARARGS,
     "solve(trump, seat, misere, must_ruff, h0, h1, h2, leader, played) -> seat's value"},
    {"relaxed_solve", (PyCFunction)Engine_relaxed_solve, METH_VARARGS,
     "relaxed_solve(...same as solve...) -> seat's value in misere's relaxed game (tests)"},
    {"set_relaxed_search", (PyCFunction)Engine_set_relaxed_search, METH_VARARGS,
     "set_relaxed_search(on): whether misere's real game searches relaxed (tests)"},
    {"can_reach", (PyCFunction)Engine_can_reach, METH_VARARGS,
     "can_reach(trump, seat, misere, must_ruff, h0, h1, h2, leader, played, target) -> bool"},
    {"can_reach_within", (PyCFunction)Engine_can_reach_within, METH_VARARGS,
     "can_reach_within(...same as can_reach..., max_nodes) -> bool, or None past max_nodes"},
    {"card_values", (PyCFunction)Engine_card_values, METH_VARARGS,
     "card_values(...same as solve..., known) -> [(card_bit_index, value), ...]"},
    {"best_card", (PyCFunction)Engine_best_card, METH_VARARGS,
     "best_card(...same as solve..., order) -> (first card of order keeping the value or -2, value)"},
    {"keeping_cards", (PyCFunction)Engine_keeping_cards, METH_VARARGS,
     "keeping_cards(...same as solve..., value) -> mask of the legal cards that keep value"},
    {"pv", (PyCFunction)Engine_pv, METH_VARARGS, "pv(...same as solve...) -> [card_bit_index, ...]"},
    {"clear", (PyCFunction)Engine_clear, METH_NOARGS, "Empty the transposition table."},
    {"stats", (PyCFunction)Engine_stats, METH_NOARGS, "stats() -> {counter: count} of the last call"},
    {"cancel", (PyCFunction)Engine_cancel, METH_NOARGS,
     "Abort the running search (RuntimeError in its thread) and every later one."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Engine_getset[] = {
    {"nodes", (getter)Engine_get_nodes, NULL, "nodes searched by the last call", NULL},
    {"table_bytes", (getter)Engine_get_table_bytes, NULL, "bytes used by the table", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "solver.engine._core.Engine",
    .tp_doc = "Search engine holding one transposition table.",
    .tp_basicsize = sizeof(EngineObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Engine_init,
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_methods = Engine_methods,
    .tp_getset = Engine_getset,
};

/* stop_all(flag=True): raise (or lower) the process's stop flag; returns the old value. */
static PyObject *core_stop_all(PyObject *Py_UNUSED(module), PyObject *args)
{
    int flag = 1, old = stop_requested;
    if (!PyArg_ParseTuple(args, "|p", &flag)) return NULL;
    stop_requested = flag;
    return PyBool_FromLong(old);
}

static PyMethodDef core_functions[] = {
    {"stop_all", core_stop_all, METH_VARARGS,
     "stop_all(flag=True) -> bool: stop every running search and refuse new ones "
     "(KeyboardInterrupt in their threads) until stop_all(False); returns the old flag."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "C search core of the double-dummy engine.", -1,
    core_functions, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void)
{
    if (PyType_Ready(&EngineType) < 0) return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(m, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(m);
        return NULL;
    }
    PyModule_AddIntConstant(m, "NSEATS", NSEATS);
    return m;
}
