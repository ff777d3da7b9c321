"""`repolens-tui-bench mcp-bench --corpora DIR`: the MCP `search_code` round trip over stdio
(a real `repolens-tui mcp` process, the SDK's client) beside the in-process search of the
same questions on the same indexes, in the same run, warm."""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.bench.report import latency_summary
from app.core.settings import Settings

WARM_UP_PASSES = 1


@dataclass
class McpBenchReport:
    questions: int
    passes: int
    in_process_ms: dict[str, float] = field(default_factory=dict)
    mcp_stdio_ms: dict[str, float] = field(default_factory=dict)
    server_search_ms: dict[str, float] = field(default_factory=dict)  # timings_ms.total
    same_hits: float = 0.0  # share of questions whose MCP hits equal the in-process ones

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def measure(
    roots: dict[str, Path], questions: list[tuple[str, str]], settings: Settings, passes: int
) -> McpBenchReport:
    """`questions` are (corpus name, question); `roots` maps corpus names to folders. Each
    question is asked in process, then over MCP, one after the other, so that both meet the
    same load on the machine."""
    import anyio

    from app.mcp.served import Served
    from app.service import Service

    services = {name: Service(root, settings) for name, root in roots.items()}
    for service in services.values():
        if service.needs_indexing(with_vectors=True):
            service.index()
        service.searcher()
    served = Served.of(list(services.values()))
    repo_of = {
        corpus: next(key for key, s in served.services.items() if s is services[corpus])
        for corpus in services
    }
    figures = anyio.run(_interleaved, services, questions, repo_of, settings, passes)
    local, remote, server, same = figures
    return McpBenchReport(
        questions=len(questions),
        passes=passes,
        in_process_ms=latency_summary(local, digits=2),
        mcp_stdio_ms=latency_summary(remote, digits=2),
        server_search_ms=latency_summary(server, digits=2),
        same_hits=round(same, 3),
    )


async def _interleaved(
    services: dict[str, Any],
    questions: list[tuple[str, str]],
    repo_of: dict[str, str],
    settings: Settings,
    passes: int,
) -> tuple[list[float], list[float], list[float], float]:
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    args = ["-m", "app.main", "mcp", *(str(s.root) for s in services.values()), "-q"]
    args += ["--index-dir", str(settings.resolved_index_root())]
    env = {key: os.environ[key] for key in ("REPOLENS_CONFIG", "PYTHONPATH") if key in os.environ}
    params = StdioServerParameters(command=sys.executable, args=args, cwd=os.getcwd(), env=env)
    local: list[float] = []
    remote: list[float] = []
    server: list[float] = []
    same = 0
    async with Client(params, read_timeout_seconds=600) as client:
        for number in range(WARM_UP_PASSES + passes):
            for corpus, question in questions:
                started = time.perf_counter()
                result = services[corpus].search(question)
                local_ms = (time.perf_counter() - started) * 1000
                started = time.perf_counter()
                answer = await client.call_tool(
                    "search_code", {"query": question, "repo": repo_of[corpus]}
                )
                remote_ms = (time.perf_counter() - started) * 1000
                payload = answer.structured_content or {}
                if answer.is_error or "hits" not in payload:
                    raise RuntimeError(f"search_code failed: {answer.content}")
                if number < WARM_UP_PASSES:
                    hits = [(h["path"], h["start_line"]) for h in payload["hits"]]
                    same += hits == [(h.path, h.start_line) for h in result.hits]
                    continue
                local.append(local_ms)
                remote.append(remote_ms)
                server.append(float(payload["timings_ms"].get("total", 0.0)))
    return local, remote, server, same / max(1, len(questions))


def format_report(report: McpBenchReport) -> str:
    def line(label: str, figures: dict[str, float]) -> str:
        return f"{label:<34} p50 {figures['median']:>7.2f} ms  p95 {figures['p95']:>7.2f} ms"

    return "\n".join(
        [
            f"{report.questions} questions x {report.passes} warm passes (after "
            f"{WARM_UP_PASSES} warm-up pass)",
            line("MCP search_code round trip, stdio", report.mcp_stdio_ms),
            line("  of which the server's search", report.server_search_ms),
            line("in-process search (baseline)", report.in_process_ms),
            f"same hits over MCP as in process: {report.same_hits:.0%} of questions",
        ]
    )
