"""Thin-wrapper detection on real parses, across languages."""

from __future__ import annotations

from app.indexer.chunk import parse_file


def _flags(path: str, source: str) -> dict[str, bool]:
    return {c.qualified_name: c.delegates for c in parse_file(path, source).chunks if c.symbol}


def test_python_wrapper_with_docstring_is_detected() -> None:
    source = '''
def get(url):
    """Send a GET request."""
    return request("GET", url)


def request(method, url):
    prepared = build(method, url)
    return send(prepared)
'''
    flags = _flags("client.py", source)
    assert flags["get"] is True
    assert flags["request"] is False


def test_typescript_factory_returning_new_as_any_is_a_wrapper() -> None:
    source = """
export function union(options: any[], params?: string): ZodUnion {
  return new ZodUnion({ type: "union", options }) as any;
}

export function parse(input: string): number {
  const value = Number(input);
  if (Number.isNaN(value)) throw new Error("not a number");
  return value;
}
"""
    flags = _flags("schemas.ts", source)
    assert flags["union"] is True
    assert flags["parse"] is False


def test_go_method_forwarding_to_a_route_is_a_wrapper() -> None:
    source = """package mux

func (r *Router) Path(tpl string) *Route {
	return r.NewRoute().Path(tpl)
}

func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	return p
}
"""
    flags = _flags("mux.go", source)
    assert flags["Router.Path"] is True
    assert flags["cleanPath"] is False


def test_classes_and_empty_functions_are_not_wrappers() -> None:
    source = "class A:\n    pass\n\n\ndef noop():\n    pass\n"
    assert not any(_flags("a.py", source).values())
