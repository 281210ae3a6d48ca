"""Settings every test shares."""

from __future__ import annotations

import signal


def pytest_configure() -> None:
    """Let the Ctrl-C tests' children see a SIGINT, however pytest was started.

    A shell without job control starts a background command (`cmd &`, a CI script run
    from one) with SIGINT ignored, and an ignored signal stays ignored across exec: the
    child processes those tests start would then run on through the SIGINT they send,
    and Python would not even install its KeyboardInterrupt handler in them. Catching
    SIGINT here makes exec hand them the default disposition, as a terminal's Ctrl-C
    finds it."""
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
