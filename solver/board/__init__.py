"""The analysis board (``sm358 board``, :func:`solver.board`): see ``docs/board.md``."""
