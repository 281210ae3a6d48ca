# The developer commands, one target each; .ci/run calls these same targets.
# Install first: pip install -e '.[test,dev]'  (or: make install)

PYTHON ?= python
# bench: a quick pass over every bench script; pass BENCH_DEALS=100 for the full solve bench
BENCH_DEALS ?= 20

.PHONY: install lint format type test test-slow sanitize bench

install:
	$(PYTHON) -m pip install -q -e '.[test,dev]'

# Ruff lint, the formatter's check (it changes nothing), and the import-layer contract
lint:
	ruff check .
	ruff format --check .
	lint-imports

# Rewrite the files in the formatter's style, imports sorted (ruff's isort rules)
format:
	ruff check --select I --fix .
	ruff format .

# bench/ and tests/ are checked without the strict flags: their functions need not be
# annotated, but what they call must be called right. Imports are followed silently (the
# package's own findings are the strict run's). tests/ is a second run because bench/pooled.py
# imports tests.support.bruteforce while the tests import it as bruteforce; MYPYPATH=bench finds the
# scripts the tests import by bare name. The bodies of unannotated tests are checked too
# (--check-untyped-defs): a test that passes a wrong type on purpose says so with a
# `type: ignore[code]`, and an ignore that is no longer needed is an error.
LOOSE_MYPY = --follow-imports=silent --allow-untyped-defs --allow-incomplete-defs --allow-untyped-calls \
	--allow-any-generics --no-warn-return-any --allow-untyped-decorators --allow-subclassing-any

type:
	mypy solver cli
	mypy $(LOOSE_MYPY) bench
	MYPYPATH=bench mypy $(LOOSE_MYPY) --check-untyped-defs tests

test:
	$(PYTHON) -m pytest -q

test-slow:
	$(PYTHON) -m pytest -q -m slow

# The C core and its C-level test under AddressSanitizer and UndefinedBehaviorSanitizer
sanitize:
	bash tests/c/run_sanitizers.sh

# Timings are printed, never asserted; compare builds with bench/compare.py (see CONTRIBUTING.md)
bench:
	$(PYTHON) bench/solve.py --deals $(BENCH_DEALS)
	$(PYTHON) bench/declare.py --deals 3
	$(PYTHON) bench/simulate.py --matches 20 --repeat 1 --presets twelve
	$(PYTHON) bench/board.py --hands 2
	$(PYTHON) bench/deal.py --deals 100
