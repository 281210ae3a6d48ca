"""Running the board: uvicorn in the foreground (``sm358 board``) or on a thread (Jupyter).

Why uvicorn on a thread for Jupyter: the kernel already runs an event loop, so the
server gets its own thread and loop; the notebook shows the page in an IFrame.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

from ..deal import Seat
from .app import create_app
from .boards import Boards
from .line import Line
from .sources import load_source, random_hand

__all__ = ["LOOPBACK", "board", "is_loopback", "running_server"]

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def is_loopback(host: str) -> bool:
    return host in LOOPBACK or host.startswith("127.")


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class _Background:
    """One uvicorn server on a daemon thread, with its registry of boards."""

    def __init__(
        self, host: str = "127.0.0.1", port: int | None = None, long_jobs: int | None = None
    ) -> None:
        import uvicorn

        self.boards = Boards(long_jobs=long_jobs)
        self.host = host
        self.port = port or free_port(host)
        config = uvicorn.Config(create_app(self.boards), host=host, port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True, name="board-server")
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.02)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)


_running: _Background | None = None
_running_lock = threading.Lock()


def running_server() -> _Background:
    """The process's background board server, started on first use."""
    global _running
    with _running_lock:
        if _running is None or not _running.thread.is_alive():
            _running = _Background()
        return _running


def board(
    source: Any = None,
    *,
    hand: int | None = None,
    kibitz: Seat | str | None = None,
    seed: int = 0,
    width: str = "100%",
    height: int = 860,
) -> Any:
    """The analysis board of ``source`` inline in Jupyter (an IFrame of a server in the kernel).

    ``source`` is what ``sm358 board`` takes: a hand file, a match record (``hand`` picks
    the hand), a deal, or None for a seeded random deal. The page is the same as in a
    browser: step through, click a card to branch, kibitz one seat (``kibitz="E"``).
    """
    from IPython.display import IFrame

    record = random_hand(seed) if source is None else load_source(source, hand=hand)
    seat = Seat.parse(kibitz) if kibitz is not None else None
    server = running_server()  # started once the source is known to be good
    opened = server.boards.open(Line(record), kibitz=seat)
    return IFrame(f"{server.url}?b={opened.id}", width=width, height=height)
