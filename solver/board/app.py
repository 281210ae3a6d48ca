"""The board's web application: a Starlette app of JSON endpoints and the page's static files.

The endpoints are documented in ``docs/board.md``. Every handler that touches the engine
is a plain function, which Starlette runs on its thread pool, so a long request never
stalls the event loop; the long work itself runs in :mod:`.jobs` and the page polls.
Nothing a request carries reaches the file system: boards are made from text, and the
only file the page gets is the hand-file download it asks for.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..deal import Seat
from ..errors import RecordError, SolverError
from ..game.handfile import parse_hand
from ..game.rules import get_ruleset, preset_names
from ..inputs import load_json
from .boards import Board, Boards, KibitzRefused
from .line import Line, decode_query
from .sources import edited_hand, random_hand

__all__ = ["MAX_BODY_BYTES", "create_app"]

STATIC = Path(__file__).resolve().parent / "static"
#: The largest request body read (a hand file pasted in the editor is a few KB).
MAX_BODY_BYTES = 64 * 1024
MAX_SEED = 2**63 - 1


class BadRequest(Exception):
    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


async def _body(request: Request) -> dict[str, Any]:
    """The JSON object a request carries, read up to MAX_BODY_BYTES (413 beyond)."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY_BYTES):
        raise BadRequest(413, f"the request body is larger than {MAX_BODY_BYTES} bytes")
    data = bytearray()
    async for chunk in request.stream():
        data += chunk
        if len(data) > MAX_BODY_BYTES:
            raise BadRequest(413, f"the request body is larger than {MAX_BODY_BYTES} bytes")
    if not data:
        return {}
    value = load_json(bytes(data), what="the request body", error=RecordError)  # bounded depth and numbers
    if not isinstance(value, dict):
        raise BadRequest(400, "the request body must be a JSON object")
    return value


def _error(status: int, reason: str) -> JSONResponse:
    return JSONResponse({"error": reason}, status_code=status)


def _seat_or_none(value: Any) -> Seat | None:
    if value in (None, "", "none"):
        return None
    if not isinstance(value, str):
        raise BadRequest(400, "kibitz must be a seat D, E or M, or null")
    return Seat.parse(value)


def _wait(request: Request) -> float:
    text = request.query_params.get("wait", "0")
    try:
        return max(0.0, min(float(text), 30.0))
    except ValueError:
        raise BadRequest(400, f"wait={text[:12]!r} is not a number of seconds") from None


def create_app(boards: Boards | None = None, *, samples: int = 48) -> Starlette:
    """The application; ``boards`` holds the open boards (a new registry when None)."""
    registry = boards if boards is not None else Boards()

    def board_of(request: Request) -> Board:
        board = registry.get(request.path_params["board"])
        if board is None:
            raise BadRequest(404, "no such board (the server may have restarted: reload the page)")
        return board

    def new_board(body: dict[str, Any]) -> Board:
        kibitz = _seat_or_none(body.get("kibitz"))
        if "query" in body:
            line = decode_query(_text(body, "query"))
        elif "hand" in body:
            line = Line(parse_hand(_text(body, "hand")))
        elif "edit" in body:
            edit = body["edit"]
            if not isinstance(edit, dict):
                raise BadRequest(400, "edit must be an object")
            line = Line(
                edited_hand(
                    _text(edit, "deal"),
                    rules=_text(edit, "rules", "twelve"),
                    contract=_text(edit, "contract", None),
                    leader=_text(edit, "leader", None),
                    declarer=_text(edit, "declarer", None),
                    discard=_text(edit, "discard", None),
                )
            )
        else:
            seed = body.get("seed", 0)
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
                raise BadRequest(400, "seed must be a whole number from 0")
            line = Line(random_hand(seed, _text(body, "rules", "twelve")))
        return registry.open(line, kibitz=kibitz, samples=samples)

    def handle(fn: Callable[[Request, dict[str, Any]], Response]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                body = await _body(request) if request.method == "POST" else {}
                return await run_in_threadpool(fn, request, body)
            except BadRequest as exc:
                return _error(exc.status, exc.reason)
            except KibitzRefused as exc:
                return _error(403, str(exc))
            except SolverError as exc:
                return _error(400, str(exc))

        return endpoint

    def create(request: Request, body: dict[str, Any]) -> Response:
        board = new_board(body)
        return JSONResponse(board.state())

    def state(request: Request, body: dict[str, Any]) -> Response:
        return JSONResponse(board_of(request).state())

    def move(request: Request, body: dict[str, Any]) -> Response:
        board = board_of(request)
        action = request.path_params["action"]
        value: Any = None
        if action == "play":
            value = _text(body, "card")
        elif action == "goto":
            value = body.get("at")
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadRequest(400, "goto needs at: a number of cards")
        board.move(action, value)
        return JSONResponse(board.state())

    def kibitz(request: Request, body: dict[str, Any]) -> Response:
        board = board_of(request)
        board.set_kibitz(_seat_or_none(body.get("seat")))
        return JSONResponse(board.state())

    def marks(request: Request, body: dict[str, Any]) -> Response:
        return JSONResponse(board_of(request).marks(_wait(request)))

    def panel(request: Request, body: dict[str, Any]) -> Response:
        return JSONResponse(board_of(request).panel(request.path_params["name"], _wait(request)))

    def handfile(request: Request, body: dict[str, Any]) -> Response:
        text = board_of(request).hand_text()
        return PlainTextResponse(
            text, headers={"Content-Disposition": 'attachment; filename="board-hand.txt"'}
        )

    def close(request: Request, body: dict[str, Any]) -> Response:
        registry.close(request.path_params["board"])
        return JSONResponse({"closed": True})

    def rules(request: Request, body: dict[str, Any]) -> Response:
        out = []
        for name in preset_names():
            rs = get_ruleset(name)
            out.append(
                {
                    "name": name,
                    "modes": [str(m) for m in rs.mode_order],
                    "declarer": rs.declarer.name,
                    "hand_size": rs.hand_size,
                    "widow_size": rs.widow_size,
                }
            )
        return JSONResponse(out)

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    routes = [
        Route("/", index),
        Route("/api/rules", handle(rules)),
        Route("/api/boards", handle(create), methods=["POST"]),
        Route("/api/boards/{board}", handle(state)),
        Route("/api/boards/{board}/close", handle(close), methods=["POST"]),
        Route("/api/boards/{board}/kibitz", handle(kibitz), methods=["POST"]),
        Route("/api/boards/{board}/marks", handle(marks)),
        Route("/api/boards/{board}/panel/{name}", handle(panel)),
        Route("/api/boards/{board}/handfile", handle(handfile)),
        Route("/api/boards/{board}/{action}", handle(move), methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        registry.close_all()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.boards = registry
    return app


def _text(body: dict[str, Any], key: str, default: Any = ...) -> Any:
    """A string field of a request body (400 when missing or of another type)."""
    if key not in body or body[key] is None:
        if default is ...:
            raise BadRequest(400, f"missing field {key!r}")
        return default
    value = body[key]
    if not isinstance(value, str):
        raise BadRequest(400, f"field {key!r} must be text")
    return value
