"""``sm358 board``: the analysis board in the browser (docs/board.md).

A local web server (Starlette on uvicorn) serves the page and its JSON endpoints; the
command prints the URL, opens the browser unless ``--no-open``, and runs until Ctrl-C.
"""

from __future__ import annotations

import argparse
import socket
import sys


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "board",
        help="walk through a hand in the browser, every card marked with its value",
        description="Open the analysis board: a hand file, a JSON match record (--hand N), a deal in "
        "notation or a deal file; with no SOURCE a seeded random deal and the editor. Every "
        "legal card is marked with its double-dummy value; step through the play, click "
        "any card to explore, kibitz one seat with single-dummy advice.",
    )
    p.add_argument("source", metavar="SOURCE", nargs="?", help="hand file, match record, deal or deal file")
    p.add_argument("--hand", type=int, metavar="N", help="hand N of a JSON match record (default 1)")
    p.add_argument("--rules", metavar="PRESET", help="for a deal: the rules (default twelve)")
    p.add_argument(
        "--contract", metavar="MODE", help="for a deal: the mode, S H D C N MT miz (default: the heuristic's)"
    )
    p.add_argument("--leader", metavar="SEAT", help="for an ending: the seat on lead (default: the rules')")
    p.add_argument("--seed", type=int, default=0, help="with no SOURCE: the random deal's seed (default 0)")
    p.add_argument(
        "--kibitz", metavar="SEAT", help="open kibitzing this seat: the page never gets the other hands"
    )
    p.add_argument("--samples", type=int, default=48, help="layouts per single-dummy advice (default 48)")
    p.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1, this machine only)"
    )
    p.add_argument("--port", type=int, default=8358, help="port (default 8358; 0 picks a free one)")
    p.add_argument("--no-open", action="store_true", help="do not open a browser")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from solver.board.app import create_app
    from solver.board.boards import Boards
    from solver.board.line import Line
    from solver.board.server import free_port, is_loopback
    from solver.board.sources import load_source, random_hand
    from solver.deal import Seat

    from ..common import terminal_safe
    from ..main import UsageError

    if args.hand is not None and args.hand < 1:
        raise UsageError(f"--hand {args.hand}: hands are numbered from 1")
    if not 1 <= args.samples <= 100_000:
        raise UsageError(f"--samples {args.samples}: must be 1..100000")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: must be 0..65535")
    if args.seed < 0:
        raise UsageError(f"--seed {args.seed}: must be 0 or more")
    kibitz = Seat.parse(args.kibitz) if args.kibitz else None
    if args.source is None:
        record = random_hand(args.seed, args.rules or "twelve")
    else:
        record = load_source(
            args.source, hand=args.hand, rules=args.rules, contract=args.contract, leader=args.leader
        )
    boards = Boards()
    opened = boards.open(Line(record), kibitz=kibitz, samples=args.samples)
    if not is_loopback(args.host):
        print(
            terminal_safe(
                f"sm358 board: warning: listening on {args.host}: anyone who can reach this address "
                f"can use the board and its engine (there is no login)"
            ),
            file=sys.stderr,
        )
    try:
        port = args.port or free_port(args.host)
        with socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET) as probe:
            probe.bind((args.host, port))  # a taken port or an unknown address: one clear line
    except OSError as exc:
        raise UsageError(f"cannot listen on {args.host} port {args.port}: {exc.strerror or exc}") from None
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{shown}:{port}/?b={opened.id}" + ("&edit=1" if args.source is None else "")
    print(f"sm358 board: {url}  (Ctrl-C stops it)", flush=True)
    if not args.no_open:
        import webbrowser

        webbrowser.open(url)
    import uvicorn

    server = uvicorn.Server(
        uvicorn.Config(
            create_app(boards, samples=args.samples), host=args.host, port=port, log_level="warning"
        )
    )
    try:
        server.run()  # Ctrl-C: uvicorn stops serving, then main() prints one line (exit code 130)
    finally:
        boards.close_all()
    return 0
