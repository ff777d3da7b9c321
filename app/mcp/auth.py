"""The HTTP server's guard: loopback unless a bearer token is set, and that token checked on
every request in constant time."""

from __future__ import annotations

import hmac
import ipaddress
import json
from pathlib import Path
from typing import Any

LOCAL_NAMES = frozenset({"localhost"})
MIN_TOKEN_CHARS = 16


class AuthSetupError(Exception):
    """The address or token file cannot be served as asked; the message is for people."""


def is_loopback(host: str) -> bool:
    if host.lower() in LOCAL_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a name other than localhost may resolve anywhere


def read_token(path: Path) -> str:
    """The token in `path` (its first line, trimmed); refused when missing or too short."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise AuthSetupError(f"cannot read the token file {path} ({error})") from error
    token = lines[0].strip() if lines else ""
    if len(token) < MIN_TOKEN_CHARS:
        raise AuthSetupError(
            f"the token file {path} must hold a token of at least {MIN_TOKEN_CHARS} characters "
            "on its first line (for example the output of `openssl rand -hex 32`)"
        )
    return token


def check_address(host: str, token: str | None) -> None:
    """Refuse an address other machines can reach unless a token guards it."""
    if token is None and not is_loopback(host):
        raise AuthSetupError(
            f"{host} is not a loopback address: serving it needs --token-file F "
            "(a bearer token every request must carry), or serve 127.0.0.1"
        )


class BearerToken:
    """ASGI middleware: an HTTP request without `Authorization: Bearer <token>` gets 401."""

    def __init__(self, app: Any, token: str) -> None:
        self.app = app
        self._expected = f"Bearer {token}".encode()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not self._allowed(scope):
            await _refuse(send)
            return
        await self.app(scope, receive, send)

    def _allowed(self, scope: dict[str, Any]) -> bool:
        given = b""
        for name, value in scope.get("headers", ()):
            if name.lower() == b"authorization":
                given = value
        return hmac.compare_digest(given, self._expected)


async def _refuse(send: Any) -> None:
    body = json.dumps(
        {"jsonrpc": "2.0", "id": None,
         "error": {"code": -32001, "message": "missing or wrong bearer token"}}
    ).encode()  # fmt: skip
    headers = [
        (b"content-type", b"application/json"),
        (b"www-authenticate", b'Bearer realm="repolens-tui"'),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": 401, "headers": headers})
    await send({"type": "http.response.body", "body": body})
