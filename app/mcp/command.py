"""`repolens-tui mcp PATH... [--http HOST:PORT] [--token-file F]`: index what needs it, load
each index once, keep it live, then serve until the client or a signal ends it."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from app.core.events import IndexProgress
from app.core.leave import exit_now_if_busy
from app.core.literal import literal
from app.mcp.auth import AuthSetupError, check_address, read_token
from app.mcp.served import Served

EXIT_ERROR, EXIT_USAGE = 1, 2


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="repolens-tui mcp",
        description="Serve the index to coding agents over the Model Context Protocol: stdio "
        "by default, streamable HTTP with --http. With no PATH, every index under --index-dir "
        "is served from its stored tables (build once, query anywhere).",
    )
    p.add_argument("paths", nargs="*", metavar="PATH", help="repositories (or stored indexes)")
    p.add_argument(
        "--http", metavar="HOST:PORT", help="streamable HTTP (HOST defaults to 127.0.0.1)"
    )
    p.add_argument("--token-file", type=Path, help="bearer token every HTTP request must carry")
    p.add_argument("--no-watch", action="store_true", help="do not keep the index live")
    p.add_argument("--index-dir", type=Path, help="where indexes live (REPOLENS_INDEX_DIR)")
    p.add_argument("--model", help="embedding model (REPOLENS_EMBEDDING_MODEL)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    return p


def parse_address(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep:
        host, port = "", text
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(f"--http wants HOST:PORT or PORT, got {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def main(argv: list[str]) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        address = parse_address(args.http) if args.http else None
    except argparse.ArgumentTypeError as error:
        print(f"repolens-tui mcp: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except SystemExit as exit_:
        return int(exit_.code or 0)
    return _run(args, address)


def _run(args: argparse.Namespace, address: tuple[str, int] | None) -> int:
    from app.service import user_errors

    errors: tuple[type[Exception], ...] = (AuthSetupError, *user_errors())

    served: Served | None = None
    code = 0
    try:
        token = read_token(args.token_file) if args.token_file else None
        if address is not None:
            check_address(address[0], token)
        served = _open(args)
        from app.mcp.server import build_server, serve_http, serve_stdio

        served.ask_offered = _answers_available(served)
        if served.ask_offered and served.settings.answer_preload:
            served.preload_answers(_say)
        server = build_server(served, with_ask=served.ask_offered)
        if address is None:
            serve_stdio(server)
        else:
            serve_http(server, address[0], address[1], token)
    except errors as error:
        print(f"repolens-tui: error: {literal(str(error))}", file=sys.stderr)
        code = EXIT_ERROR
    except KeyboardInterrupt:
        pass
    finally:
        if served is not None:
            served.stop()
    if served is not None:
        exit_now_if_busy(served.busy(), code)
    return code


def _open(args: argparse.Namespace) -> Served:
    """Every repository asked for, indexed and loaded, its live index started."""
    from app.core.settings import load_settings
    from app.service import RepositoryError, open_repository, stored_repositories

    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    if args.paths:
        services = [open_repository(Path(path), settings) for path in args.paths]
    else:
        services = stored_repositories(settings)
        if not services:
            root = settings.resolved_index_root()
            raise RepositoryError(f"no PATH given and no index under {root}; give a repository")
    for service in services:
        service.index_if_needed(_progress_line if not args.quiet else _no_progress, _say)
        service.searcher()  # the index and the model load once, before the first question
    served = Served.of(services)
    for name, service in served.services.items():
        if service.source_tree and not args.no_watch:
            served.workers[name] = service.live()
    return served


def _say(message: str) -> None:
    print(f"repolens-tui: {literal(message)}", file=sys.stderr)  # stdout is the protocol


def _progress_line(event: IndexProgress) -> None:
    if event.done == event.total:  # one line per finished phase: stdout is the protocol
        print(f"{event.phase:<6} {literal(event.message)}", file=sys.stderr)


def _no_progress(event: IndexProgress) -> None:
    pass


def _answers_available(served: Served) -> bool:
    """Whether `ask` can be offered: llama.cpp importable and the answer model at hand."""
    from app.answer.model import AnswerModelUnavailable, check_available

    if importlib.util.find_spec("llama_cpp") is None:
        print(
            "repolens-tui: ask is not offered: llama-cpp-python is not installed", file=sys.stderr
        )
        return False
    try:
        check_available(served.settings.answer_model)
    except AnswerModelUnavailable as error:
        print(f"repolens-tui: ask is not offered: {literal(str(error))}", file=sys.stderr)
        return False
    return True
