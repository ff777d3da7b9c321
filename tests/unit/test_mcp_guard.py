"""The MCP server's guards on their own: addresses, tokens, the bearer check, path checks."""

from __future__ import annotations

import argparse
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from mcp.shared.exceptions import MCPError

from app.main import opens_tui
from app.mcp.auth import AuthSetupError, BearerToken, check_address, is_loopback, read_token
from app.mcp.command import parse_address
from app.mcp.served import confine


def test_addresses_parse_and_only_loopback_goes_without_a_token() -> None:
    assert parse_address("8765") == ("127.0.0.1", 8765)
    assert parse_address("0.0.0.0:9000") == ("0.0.0.0", 9000)
    assert parse_address("[::1]:9000") == ("::1", 9000)
    with pytest.raises(argparse.ArgumentTypeError):
        parse_address("host:99999")
    assert is_loopback("127.0.0.1") and is_loopback("127.8.0.1") and is_loopback("::1")
    assert is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("10.1.2.3")
    assert not is_loopback("example.test")  # a name may resolve anywhere
    check_address("127.0.0.1", None)
    check_address("0.0.0.0", "a-token")
    with pytest.raises(AuthSetupError, match="needs --token-file"):
        check_address("0.0.0.0", None)


def test_a_token_file_must_hold_a_long_enough_token(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text("short\n")
    with pytest.raises(AuthSetupError, match="at least 16 characters"):
        read_token(token_file)
    with pytest.raises(AuthSetupError, match="cannot read the token file"):
        read_token(tmp_path / "missing")
    token_file.write_text("  " + "k" * 20 + "  \nignored\n")
    assert read_token(token_file) == "k" * 20


async def test_the_bearer_check_lets_only_the_exact_token_through() -> None:
    reached: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        reached.append(scope["type"])

    guard = BearerToken(app, "s" * 20)
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    for header in (None, b"Bearer " + b"s" * 19, b"bearer " + b"s" * 20, b"Basic x"):
        headers = [] if header is None else [(b"authorization", header)]
        await guard({"type": "http", "headers": headers}, None, send)
    assert [m["status"] for m in sent if m["type"] == "http.response.start"] == [401] * 4
    assert reached == []
    right = [(b"authorization", b"Bearer " + b"s" * 20)]
    await guard({"type": "http", "headers": right}, None, send)
    await guard({"type": "lifespan"}, None, send)  # the app's start-up passes through
    assert reached == ["http", "lifespan"]


def test_paths_stay_inside_the_repository(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "src").mkdir(parents=True)
    (root / "src" / "a.py").write_text("x = 1\n")
    (root / "src" / "out.py").symlink_to(tmp_path / "secret.py")
    (root / "src" / "in.py").symlink_to(root / "src" / "a.py")
    service: Any = SimpleNamespace(root=root.resolve())
    assert confine(service, "src/a.py") == "src/a.py"
    assert confine(service, str(root / "src" / "a.py")) == "src/a.py"
    assert confine(service, "src/in.py") == "src/a.py"  # a link that stays inside
    for path in ("../x", "src/../a.py", "/etc/passwd", "src/out.py", "", "."):
        with pytest.raises(MCPError, match="outside the served repository"):
            confine(service, path)


def test_mcp_is_a_command_not_a_folder_for_the_ui() -> None:
    assert not opens_tui(["mcp", "."])
    assert not opens_tui(["--index-dir", "x", "mcp"])


def test_ask_is_offered_only_when_the_answer_model_is_at_hand(tmp_path: Path) -> None:
    from app.answer.model import DEFAULT_ANSWER_MODEL, AnswerModelUnavailable, check_available

    check_available(DEFAULT_ANSWER_MODEL)  # the six part packages are installed here
    with pytest.raises(AnswerModelUnavailable, match="does not exist"):
        check_available(str(tmp_path / "missing.gguf"))
    (tmp_path / "fake.gguf").write_bytes(b"not a model")
    with pytest.raises(AnswerModelUnavailable, match="not a GGUF"):
        check_available(str(tmp_path / "fake.gguf"))
