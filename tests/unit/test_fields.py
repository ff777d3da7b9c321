"""Field-weighted lexical scoring over a real index: a definition whose name holds the
query's rare word outranks a long body of common words, and edits and deletes keep each
field's postings as a fresh load of the index would have them."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings
from app.search.corpus import Corpus
from app.search.tokenize import tokens
from app.service import Service
from app.store.store import Store

QUERY = "expand tilde in a path"

# A definition as long as many are: its name alone holds `tilde`.
EXPAND = (
    'export function expandTilde(path: string): string {\n  if (!path.startsWith("~")) {\n'
    "    return path;\n  }\n"
    + "".join(
        f"  const home{n} = process.env.HOME ?? homedir(); // the user's home\n" for n in range(9)
    )
    + "  return home0 + path.slice(1);\n}\n"
)

# A longer body that says `path` and `expand` over and over, and `tilde` once in passing.
NORMALIZE = (
    "export function normalizeInput(path: string, base: string): string {\n"
    + "".join(
        f"  const part{n} = join(base, path, {n}); // expand the path part by part\n"
        for n in range(22)
    )
    + "  // a leading tilde is left as it is\n  return join(base, path);\n}\n"
)


def helper(n: int, name: str = "") -> str:
    return f"export function {name or f'helper{n}'}(value: string) {{\n  return value.trim();\n}}\n"


def build(repo: Path) -> None:
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "home.ts").write_text(EXPAND)
    (repo / "src" / "normalize.ts").write_text(NORMALIZE)
    for n in range(12):
        (repo / "src" / f"util{n}.ts").write_text(helper(n))


def lexical_top(service: Service) -> list[str]:
    corpus = service.searcher().corpus
    found = corpus.bm25(tokens(QUERY), 3)
    return [f"{corpus.row(i)['path']} {corpus.row(i)['symbol']}" for i in found]


def fresh_top(service: Service) -> list[str]:
    corpus = Corpus(Store.open(service.index_dir), None, embed_tests=False)
    found = corpus.bm25(tokens(QUERY), 3)
    return [f"{corpus.row(i)['path']} {corpus.row(i)['symbol']}" for i in found]


def test_a_name_holding_the_rare_word_outranks_a_long_body_of_common_words(
    tmp_path: Path, settings: Settings
) -> None:
    build(tmp_path / "repo")
    service = Service(tmp_path / "repo", settings)
    service.index(with_vectors=False)
    assert lexical_top(service)[:2] == [
        "src/home.ts expandTilde",
        "src/normalize.ts normalizeInput",
    ]
    hit = next(h for h in service.search(QUERY).hits if h.symbol == "expandTilde")
    assert hit.explanation.bm25_fields == ("name",)  # --explain says what lifted it
    assert hit.explanation.summary().startswith("bm25 #1 (name) · ")


def test_edits_and_deletes_keep_every_field_as_a_fresh_load_has_it(
    tmp_path: Path, settings: Settings
) -> None:
    repo = tmp_path / "repo"
    build(repo)
    service = Service(repo, settings)
    service.index(with_vectors=False)
    corpus = service.searcher().corpus
    assert lexical_top(service)[0] == "src/home.ts expandTilde"

    # The name moves to another file: the old rows' name tokens must stop counting.
    (repo / "src" / "home.ts").write_text(EXPAND.replace("expandTilde", "userHome"))
    (repo / "src" / "util3.ts").write_text(EXPAND.replace("expandTilde", "tildeExpand"))
    service.index(changed=["src/home.ts", "src/util3.ts"], with_vectors=False, with_graph=False)
    assert service.searcher().corpus is corpus  # updated in place, not loaded afresh
    assert lexical_top(service)[0] == "src/util3.ts tildeExpand"
    assert lexical_top(service) == fresh_top(service)

    (repo / "src" / "util3.ts").unlink()
    service.index(changed=["src/util3.ts"], with_vectors=False, with_graph=False)
    assert service.searcher().corpus is corpus
    assert lexical_top(service)[0] == "src/normalize.ts normalizeInput"
    assert lexical_top(service) == fresh_top(service)
