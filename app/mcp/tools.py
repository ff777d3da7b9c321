"""The MCP tools: each answers with the JSON contract of the matching CLI `--json` command.
Descriptions are fixed text of ours; repository text only ever travels as JSON data."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field

from app.contracts import answer_json, calls_json, json_text, search_json
from app.mcp.served import Served, confine

Repo = Annotated[
    str | None, Field(description="which served repository (needed when several are served)")
]
Tier = Annotated[
    str,
    Field(
        description="lowest confidence tier to list: certain, probable or uncertain",
        pattern="^(certain|probable|uncertain)$",
    ),
]
Count = Annotated[int, Field(ge=1, le=200)]
_READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)

_Fn = TypeVar("_Fn", bound=Callable[..., CallToolResult])


def _result(payload: dict[str, Any]) -> CallToolResult:
    """The payload as structured content, and as JSON text with terminal controls escaped."""
    return CallToolResult(
        content=[TextContent(type="text", text=json_text(payload))], structured_content=payload
    )


def _answers(fn: _Fn) -> _Fn:
    """The errors people can act on become a tool error of one line (no traceback logged)."""
    from app.answer.model import AnswerModelUnavailable
    from app.graph.navigate import GraphError
    from app.indexer.embed import ModelUnavailable
    from app.service import RepositoryError
    from app.store.manifest import IndexStoreError

    known = (GraphError, IndexStoreError, RepositoryError, ModelUnavailable, AnswerModelUnavailable)

    @functools.wraps(fn)
    def wrapped(*args: Any, **kwargs: Any) -> CallToolResult:
        try:
            return fn(*args, **kwargs)
        except known as error:
            raise ToolError(str(error)) from error

    return wrapped  # type: ignore[return-value]


def register(server: MCPServer, served: Served, *, with_ask: bool) -> None:
    """Add every tool to `server`; `ask` only when the local answer model can load."""
    tools: list[Callable[..., CallToolResult]] = [
        _search_code(served),
        _get_symbol(served),
        _calls(served, "callers"),
        _calls(served, "callees"),
        _hotspots(served),
        _symbols(served),
        _read_source(served),
        _index_status(served),
    ]
    if with_ask:
        tools.append(_ask(served))
    for tool in tools:
        server.add_tool(tool, annotations=_READ_ONLY)


def _search_code(served: Served) -> Callable[..., CallToolResult]:
    @_answers
    def search_code(
        query: Annotated[str, Field(description="a question or identifiers, in plain words")],
        k: Count | None = None,
        budget_tokens: Annotated[int, Field(ge=1, le=100_000)] | None = None,
        explain: bool = False,
        repo: Repo = None,
    ) -> CallToolResult:
        """Ranked code chunks for a question, packed into a token budget, best first. Each
        hit has path, start_line, end_line (1-based), symbol, kind, text and `stale` (the
        file changed since it was indexed); `explain` adds why each hit ranks there."""
        _, service = served.pick(repo)
        result = service.search(query, k=k, budget_tokens=budget_tokens)
        return _result(search_json(result, explain))

    return search_code


def _get_symbol(served: Served) -> Callable[..., CallToolResult]:
    @_answers
    def get_symbol(
        name: Annotated[str, Field(description="name, Class.method, qualified name or path::Q")],
        repo: Repo = None,
    ) -> CallToolResult:
        """The definition(s) a name names, each in full with its location as path:line."""
        _, service = served.pick(repo)
        definitions = service.definitions(name)
        if not definitions:
            raise ToolError(f"no definition named {name!r} in the index; try the symbols tool")
        return _result({"name": name, "definitions": definitions})

    return get_symbol


def _calls(served: Served, direction: str) -> Callable[..., CallToolResult]:
    @_answers
    def calls(
        symbol: Annotated[str, Field(description="name, Class.method, qualified name or path::Q")],
        min_tier: Tier = "uncertain",
        include_tests: bool = True,
        repo: Repo = None,
    ) -> CallToolResult:
        _, service = served.pick(repo)
        answer = getattr(service, direction)(symbol, min_tier, include_tests=include_tests)
        return _result(calls_json(answer, direction))

    calls.__name__ = direction
    calls.__doc__ = (
        f"The {direction} of a symbol, most confident first, each with its tier (certain, "
        "probable, uncertain), confidence, rule and the call's line; `unresolved` lists "
        "calls nothing in the project resolved."
    )
    return calls


def _hotspots(served: Served) -> Callable[..., CallToolResult]:
    @_answers
    def hotspots(
        limit: Count = 20, include_tests: bool = False, repo: Repo = None
    ) -> CallToolResult:
        """The definitions that carry the code: central in the call graph (PageRank), long,
        and calling much."""
        _, service = served.pick(repo)
        rows = service.hotspots(limit, include_tests=include_tests)
        return _result({"hotspots": rows, "calls_not_read": service.graph().calls_not_read})

    return hotspots


def _symbols(served: Served) -> Callable[..., CallToolResult]:
    @_answers
    def symbols(
        query: Annotated[str, Field(description="fuzzy name; kind:WORD and lang:WORD narrow it")],
        limit: Count = 20,
        repo: Repo = None,
    ) -> CallToolResult:
        """Definitions whose qualified name fuzzily matches the query, best first."""
        _, service = served.pick(repo)
        return _result({"query": query, "symbols": service.symbol(query, limit)})

    return symbols


def _read_source(served: Served) -> Callable[..., CallToolResult]:
    @_answers
    def read_source(
        path: Annotated[str, Field(description="a file, relative to the repository")],
        start_line: Annotated[int, Field(ge=1)] = 1,
        end_line: Annotated[int, Field(ge=1)] | None = None,
        repo: Repo = None,
    ) -> CallToolResult:
        """The current text of a repository file, or the lines asked for (1-based)."""
        _, service = served.pick(repo)
        relative = confine(service, path)
        if not service.source_tree:
            raise ToolError(f"{relative} cannot be read: {service.stored_note()}")
        text, problem = service.read_text(relative)
        if text is None:
            raise ToolError(f"{relative} cannot be read: {problem}")
        lines = text.split("\n")
        last = min(end_line or len(lines), len(lines))
        return _result(
            {
                "path": relative,
                "start_line": start_line,
                "end_line": last,
                "text": "\n".join(lines[start_line - 1 : last]),
            }
        )

    return read_source


def _index_status(served: Served) -> Callable[..., CallToolResult]:
    @_answers
    def index_status(repo: Repo = None) -> CallToolResult:
        """Files, chunks, vectors ready, pending changes, the live index's state, the last
        update, the commit indexed, the answer model's state (cold, loading, ready, failed
        or not-offered), and `calls_unread`: files whose calls the graph lacks because
        reading them failed."""
        name, service = served.pick(repo)
        payload = service.status()
        worker = served.workers.get(name)
        status = worker.status if worker is not None else None
        payload["repo"] = name
        payload["served"] = sorted(served.services)
        payload["answer_model"] = served.answer_model(service)
        payload["live"] = (
            {
                "state": status.state,
                "pending": status.pending,
                "updates": status.updates,
                "last_update": status.last_update,
                "error": status.error,
            }
            if status is not None
            else None
        )
        return _result(payload)

    return index_status


def _ask(served: Served) -> Callable[..., CallToolResult]:
    @_answers
    def ask(
        question: Annotated[str, Field(description="a question about the repository")],
        repo: Repo = None,
    ) -> CallToolResult:
        """A short answer from the local model over the ranked chunks, each citation [n]
        checked against the excerpts it was given (`grounded` says whether any held)."""
        _, service = served.pick(repo)
        with served.ask_lock:  # one local model, one answer at a time
            answer = service.ask(question)
        return _result(answer_json(answer))

    return ask
