"""The MCP server as a coding agent meets it: the SDK's own client drives a real
`repolens-tui mcp` process over stdio and over HTTP, the real index and model behind it."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures"
TOOLS = {
    "search_code", "get_symbol", "callers", "callees", "hotspots", "symbols", "read_source",
    "index_status",
}  # fmt: skip
pytestmark = pytest.mark.slow  # each server loads the real embedding model


def _env(tmp: Path) -> dict[str, str]:
    return {"REPOLENS_CONFIG": str(tmp / "no-config.toml"), "PYTHONPATH": str(ROOT)}


def _repo(tmp: Path) -> Path:
    repo = tmp / "repo"
    shutil.copytree(FIXTURES / "sample_repo", repo)
    (repo / "src" / "escape.py").symlink_to("/etc/hostname")  # a link leading out
    return repo


def _stdio(repo: Path | None, tmp: Path, *extra: str, **env: str) -> Client:
    command = [sys.executable, "-m", "app.main", "mcp", *extra, "--index-dir", str(tmp / "idx")]
    params = StdioServerParameters(
        command=command[0], args=[*command[1:], *([str(repo)] if repo is not None else [])],
        cwd=str(ROOT), env=_env(tmp) | env,
    )  # fmt: skip
    return Client(params, read_timeout_seconds=120)


def _data(result: Any) -> dict[str, Any]:
    assert not result.is_error, result.content[0].text
    text = json.loads(result.content[0].text)
    assert text == result.structured_content  # the text block is the same JSON
    return dict(result.structured_content)


async def _refused_outside(client: Client, **repo: str) -> None:
    for path in ("../outside.py", "/etc/passwd", "src/../../x", "src/escape.py"):
        with pytest.raises(MCPError, match="outside the served repository") as raised:
            await client.call_tool("read_source", {"path": path, **repo})
        assert raised.value.code == -32602  # invalid params


async def test_stdio_serves_search_graph_and_fresh_edits(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    short = {"REPOLENS_ANSWER_MAX_TOKENS": "8", "REPOLENS_ANSWER_BUDGET_TOKENS": "120"}
    async with _stdio(repo, tmp_path, **short) as client:
        listed = await client.list_tools()
        assert {tool.name for tool in listed.tools} >= TOOLS | {"ask"}  # the model is here
        assert all(tool.annotations and tool.annotations.read_only_hint for tool in listed.tools)

        found = _data(await client.call_tool("search_code", {"query": "retry backoff", "k": 3}))
        assert found["hits"][0]["symbol"] == "retry_backoff"
        assert found["hits"][0]["stale"] is False
        assert set(found) == {"query", "hits", "timings_ms", "vectors_ready"}

        callers = _data(await client.call_tool("callers", {"symbol": "retry_backoff"}))
        assert {c["symbol"] for c in callers["callers"]} == {
            "RetryPolicy.wait", "test_retry_backoff_is_capped",
        }  # fmt: skip
        assert all(c["tier"] == "certain" for c in callers["callers"])
        no_tests = _data(
            await client.call_tool("callers", {"symbol": "retry_backoff", "include_tests": False})
        )
        assert [c["symbol"] for c in no_tests["callers"]] == ["RetryPolicy.wait"]

        symbol = _data(await client.call_tool("get_symbol", {"name": "RetryPolicy.wait"}))
        [definition] = symbol["definitions"]
        assert definition["location"] == "src/retry.py:27"
        assert definition["text"].startswith("    def wait(self, attempt: int) -> None:")

        source = _data(
            await client.call_tool("read_source", {"path": "src/retry.py", "end_line": 1})
        )
        assert source["text"] == '"""Retry helpers for flaky network calls."""'
        await _refused_outside(client)

        # A malformed call: an MCP error, and the server goes on serving.
        bad = await client.call_tool("search_code", {"query": 5, "k": "many"})
        assert bad.is_error and "search_code" in bad.content[0].text
        missing = await client.call_tool("no_such_tool", {})
        assert missing.is_error and "no_such_tool" in missing.content[0].text
        unknown = await client.call_tool("get_symbol", {"name": "does_not_exist_anywhere"})
        assert unknown.is_error and "no definition named" in unknown.content[0].text

        answered = _data(await client.call_tool("ask", {"question": "What caps the backoff?"}))
        assert set(answered) == {"answer", "citations", "context", "grounded", "timings_ms"}
        assert answered["context"] and all("valid" in c for c in answered["citations"])

        status = _data(await client.call_tool("index_status", {}))
        assert status["files"] >= 4 and status["source_tree"] is True
        assert status["calls_unread"] == []
        assert status["live"]["state"] in {"starting", "indexing", "watching"}

        # Edited during the session: the live index shows the new code.
        retry = repo / "src" / "retry.py"
        retry.write_text(
            retry.read_text() + "\n\ndef jitter_window_seconds(spread: float) -> float:\n"
            "    return spread * 0.5\n"
        )
        hit = await _wait_for_hit(client, "jitter window seconds", "jitter_window_seconds")
        assert hit["stale"] is False and "spread * 0.5" in hit["text"]


async def _wait_for_hit(client: Client, query: str, symbol: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        found = _data(await client.call_tool("search_code", {"query": query, "k": 3}))
        for hit in found["hits"]:
            if hit["symbol"] == symbol:
                return dict(hit)
        time.sleep(0.2)
    raise AssertionError(f"{symbol} never showed up in search")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def http_server(tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    repo = _repo(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "ledger.py").write_text("def settle_ledger_balance(rows):\n    return sum(rows)\n")
    token = "t0ken-" + "x" * 26
    (tmp_path / "token").write_text(token + "\n")
    port = _free_port()
    command = [
        sys.executable, "-m", "app.main", "mcp", str(repo), str(other),
        "--index-dir", str(tmp_path / "idx"),
        "--http", f"127.0.0.1:{port}", "--token-file", str(tmp_path / "token"), "-q",
    ]  # fmt: skip
    log = (tmp_path / "server.log").open("w")
    process = subprocess.Popen(
        command, cwd=ROOT, env=os.environ | _env(tmp_path), stdout=log, stderr=log
    )
    try:
        _wait_for_port(port, process, tmp_path / "server.log")
        yield f"http://127.0.0.1:{port}/mcp", token, repo
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server ended: {log.read_text()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise AssertionError(f"the server never listened: {log.read_text()}")


def _http(url: str, token: str) -> Client:
    headers = {"Authorization": f"Bearer {token}"}
    transport = streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers))
    return Client(transport, read_timeout_seconds=120)


def _post(url: str, body: bytes, token: str | None) -> tuple[int, dict[str, Any]]:
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


async def test_http_checks_the_token_and_keeps_serving(
    http_server: tuple[str, str, Path],
) -> None:
    url, token, repo = http_server
    for wrong in (None, "wrong-token", token + "x"):
        status, body = _post(url, b'{"jsonrpc": "2.0", "id": 1, "method": "ping"}', wrong)
        assert status == 401 and "bearer token" in body["error"]["message"]
    with pytest.raises(Exception):  # noqa: B017 - the SDK's client surfaces the 401 its own way
        async with _http(url, "wrong-token") as client:
            await client.list_tools()

    async with _http(url, token) as client:
        listed = await client.list_tools()
        assert {tool.name for tool in listed.tools} >= TOOLS
        with pytest.raises(MCPError, match="no repo was given; give repo as one of: other, repo"):
            await client.call_tool("search_code", {"query": "html tag scanner"})
        found = _data(
            await client.call_tool("search_code", {"query": "html tag scanner", "repo": "repo"})
        )
        assert found["hits"][0]["path"] == "src/html_parser.py"
        ledger = _data(
            await client.call_tool("search_code", {"query": "settle ledger", "repo": "other"})
        )
        assert [h["symbol"] for h in ledger["hits"]] == ["settle_ledger_balance"]
        callers = _data(
            await client.call_tool("callers", {"symbol": "retry_backoff", "repo": "repo"})
        )
        assert "RetryPolicy.wait" in {c["symbol"] for c in callers["callers"]}
        await _refused_outside(client, repo="repo")

        # Not JSON at all: a JSON-RPC error on the wire, and the session goes on.
        status, body = _post(url, b"{not json", token)
        assert status == 400 and body["error"]["code"] == -32700
        again = _data(
            await client.call_tool("search_code", {"query": "retry backoff", "repo": "repo"})
        )
        assert again["hits"][0]["symbol"] == "retry_backoff"


def test_a_reachable_address_needs_a_token(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "app.main", "mcp", str(tmp_path),
         "--http", f"0.0.0.0:{_free_port()}"],
        cwd=ROOT, env=os.environ | _env(tmp_path), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert "0.0.0.0 is not a loopback address: serving it needs --token-file" in done.stderr
    assert done.stdout == ""


async def test_stdio_serves_a_copied_index_with_no_source_tree(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "src" / "escape.py").unlink()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "c"],
        cwd=repo, check=True,
    )  # fmt: skip
    sha = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()
    async with _stdio(repo, tmp_path, "--no-watch") as client:
        before = _data(await client.call_tool("search_code", {"query": "cookie expiry"}))
        callers_before = _data(await client.call_tool("callers", {"symbol": "retry_backoff"}))

    shipped = tmp_path / "shipped"
    shutil.move(tmp_path / "idx", shipped / "idx")
    shutil.rmtree(repo)
    no_model = {"REPOLENS_ANSWER_MODEL": str(tmp_path / "missing.gguf")}
    async with _stdio(None, shipped, **no_model) as client:  # no PATH: every index there
        assert "ask" not in {tool.name for tool in (await client.list_tools()).tools}
        after = _data(await client.call_tool("search_code", {"query": "cookie expiry"}))
        assert [h["path"] for h in after["hits"]] == [h["path"] for h in before["hits"]]
        assert [h["text"] for h in after["hits"]] == [h["text"] for h in before["hits"]]
        callers = _data(await client.call_tool("callers", {"symbol": "retry_backoff"}))
        assert callers == callers_before
        status = _data(await client.call_tool("index_status", {}))
        assert status["source_tree"] is False and status["commit"] == sha
        assert status["note"].startswith(
            f"source tree not found; answering from the stored index built at {sha}"
        )
        refused = await client.call_tool("read_source", {"path": "src/retry.py"})
        assert refused.is_error and "source tree not found" in refused.content[0].text


async def _answer_model(client: Client, wanted: str, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    while True:
        state = _data(await client.call_tool("index_status", {}))["answer_model"]
        if state == wanted or time.monotonic() > deadline:
            return str(state)
        await asyncio.sleep(0.2)


async def test_the_server_preloads_the_answer_model_before_the_first_ask(
    tmp_path: Path,
) -> None:
    repo = _repo(tmp_path)
    short = {"REPOLENS_ANSWER_MAX_TOKENS": "8", "REPOLENS_ANSWER_BUDGET_TOKENS": "120"}
    async with _stdio(repo, tmp_path, "--no-watch", **short) as client:
        assert await _answer_model(client, "ready", 120) == "ready"  # no question asked yet
    async with _stdio(
        repo, tmp_path, "--no-watch", REPOLENS_ANSWER_PRELOAD="false", **short
    ) as client:
        await asyncio.sleep(2.0)
        assert await _answer_model(client, "cold", 0) == "cold"
        _data(await client.call_tool("ask", {"question": "What caps the backoff?"}))
        assert await _answer_model(client, "ready", 0) == "ready"
    no_model = {"REPOLENS_ANSWER_MODEL": str(tmp_path / "missing.gguf")}
    async with _stdio(repo, tmp_path, "--no-watch", **no_model) as client:
        assert await _answer_model(client, "not-offered", 0) == "not-offered"


def test_mcp_bench_times_the_round_trip_beside_in_process_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.bench.cli import main as bench_main

    _repo(tmp_path).joinpath("src", "escape.py").unlink()
    bench = tmp_path / "bench" / "dev"
    (bench / "queries").mkdir(parents=True)
    (bench / "corpora.json").write_text(json.dumps([{"name": "sample", "root": "repo"}]))
    questions = [
        {"id": f"s-{i}", "corpus": "sample", "question": q, "gold": []}
        for i, q in enumerate(("retry with backoff", "scan html tags", "set a cookie"))
    ]
    (bench / "queries" / "sample.jsonl").write_text("\n".join(map(json.dumps, questions)))
    monkeypatch.setenv("REPOLENS_CONFIG", str(tmp_path / "no-config.toml"))
    monkeypatch.chdir(ROOT)
    words = ["mcp-bench", "--corpora", str(tmp_path), "--bench", str(bench.parent), "--json"]
    assert bench_main([*words, "--index-dir", str(tmp_path / "idx"), "--passes", "2"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["questions"] == 3 and report["passes"] == 2
    assert report["same_hits"] == 1.0  # the server answers what the library answers
    for figures in ("in_process_ms", "mcp_stdio_ms", "server_search_ms"):
        assert 0 < report[figures]["median"] <= report[figures]["p95"]
    assert report["mcp_stdio_ms"]["median"] >= report["server_search_ms"]["median"]
