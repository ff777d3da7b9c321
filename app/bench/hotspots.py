"""`repolens-tui-bench hotspot-bench`: how high the hotspot list puts the definitions the dev and
dev2 questions ask about, for PageRank alone and for the shipped score, per repository; and
the score's exponents chosen on the other repositories for each one in turn.

A question of these sets was written from the library's documentation by someone learning it,
and its gold is the definition that answers it: the code a newcomer needs to read. A hotspot
list that opens with those serves the same reader. Each repository is indexed without vectors
(the graph needs none)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.bench import devbench
from app.core.paths import EXAMPLE, path_role
from app.core.settings import Settings
from app.graph.navigate import HOTSPOT_KINDS
from app.graph.rank import HOTSPOT_CALLS_EXPONENT, HOTSPOT_LINES_EXPONENT, hotspot_score

TOP = 20  # the rows the hotspot list shows at 160x45
GRID = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0)  # exponents tried for lines and for callees

Row = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Repository:
    set_name: str
    name: str
    rows: list[Row]  # what the hotspot list ranks: code definitions with at least one edge
    asked: set[str]  # symbol ids of the definitions the questions ask about
    gold: int  # distinct gold definitions, found in the graph or not
    generated: frozenset[str] = frozenset()  # paths whose header says a tool wrote them


def _lines(row: Row) -> int:
    return int(row["end_line"]) - int(row["start_line"]) + 1


def score(lines_exp: float, calls_exp: float) -> Callable[[Row], float]:
    """The hotspot score at these exponents (the list's own at HOTSPOT_LINES_EXPONENT,
    HOTSPOT_CALLS_EXPONENT; PageRank alone at 0, 0)."""

    def of(row: Row) -> float:
        return hotspot_score(row["pagerank"], _lines(row), row["fan_out"], lines_exp, calls_exp)

    return of


def placed(repo: Repository, by: Callable[[Row], float]) -> tuple[float, float]:
    """(share of the asked definitions in the top TOP, their mean percentile: 1 = first);
    example code after the library's and generated code after both, as the list puts it."""

    def key(r: Row) -> tuple[bool, bool, float, str]:
        return (r["path"] in repo.generated, path_role(r["path"]) == EXAMPLE, -by(r), r["id"])

    ordered = sorted(repo.rows, key=key)
    rank = {r["id"]: i for i, r in enumerate(ordered)}
    ranks = [rank[sid] for sid in repo.asked if sid in rank]
    top = sum(1 for r in ranks if r < TOP) / repo.gold if repo.gold else 0.0
    n = max(len(ordered), 1)
    percentile = sum(1 - r / n for r in ranks) / repo.gold if repo.gold else 0.0
    return top, percentile


def _asked(graph: Any, gold: Sequence[devbench.GoldRange]) -> set[str]:
    """The graph's symbol for each gold range: same file, same name, starting in the range."""
    found = set()
    by_path: dict[str, list[Row]] = {}
    for row in graph.symbols.values():
        by_path.setdefault(row["path"], []).append(row)
    for g in gold:
        name = g.symbol.replace("::", ".").rsplit(".", 1)[-1]
        rows = [r for r in by_path.get(g.path, []) if r["name"] == name]
        inside = [r for r in rows if g.start_line <= r["start_line"] <= g.end_line]
        if inside or rows:
            found.add((inside or rows)[0]["id"])
    return found


def load(bench: Path, corpora: dict[str, Path], settings: Settings) -> list[Repository]:
    from app.service import Service

    found = []
    for set_name, folder in corpora.items():
        questions = devbench.load_questions(bench / set_name)
        for corpus, root in devbench.corpus_roots(bench / set_name, folder).items():
            service = Service(root, settings)
            service.index(with_vectors=False)
            graph = service.graph()
            gold = {(g.path, g.symbol, g.start_line): g for q in questions if q.corpus == corpus
                    for g in q.gold}  # fmt: skip
            rows = [
                r for r in graph.symbols.values()
                if r["kind"] in HOTSPOT_KINDS and not graph.is_test(r["id"])
                and (r["fan_in"] or r["fan_out"])
            ]  # fmt: skip
            asked = _asked(graph, list(gold.values()))
            made = frozenset(graph.generated_files(r["path"] for r in rows))
            found.append(Repository(set_name, corpus, rows, asked, len(gold), made))
    return found


def leave_one_out(repos: Sequence[Repository]) -> list[tuple[tuple[float, float], float, float]]:
    """For each repository, the grid's exponents that place the others' asked definitions
    best (top share + percentile), and how they place its own."""
    table = {
        (a, b): [placed(r, score(a, b)) for r in repos] for a in GRID for b in GRID
    }  # fmt: skip
    out = []
    for i in range(len(repos)):

        def others(key: tuple[float, float], i: int = i) -> float:
            return sum(t + p for j, (t, p) in enumerate(table[key]) if j != i)

        best = max(table, key=others)
        out.append((best, *table[best][i]))
    return out


def report(repos: Sequence[Repository]) -> str:
    shipped = score(HOTSPOT_LINES_EXPONENT, HOTSPOT_CALLS_EXPONENT)
    pagerank = score(0.0, 0.0)
    held = leave_one_out(repos)
    lines = [
        f"asked definitions in the top {TOP} / their mean percentile (1 = first), per repository",
        f"{'set':<5} {'repository':<17} {'asked':>5} {'PageRank alone':>16} "
        f"{f'shipped {(HOTSPOT_LINES_EXPONENT, HOTSPOT_CALLS_EXPONENT)}':>17} "
        f"{'left out: chosen':>17} {'its figures':>12}",
    ]
    sums = [0.0] * 6
    for repo, (chosen, h_top, h_pct) in zip(repos, held, strict=True):
        p_top, p_pct = placed(repo, pagerank)
        s_top, s_pct = placed(repo, shipped)
        for k, v in enumerate((p_top, p_pct, s_top, s_pct, h_top, h_pct)):
            sums[k] += v
        lines.append(
            f"{repo.set_name:<5} {repo.name:<17} {repo.gold:>5} {p_top:>7.2f} / {p_pct:.2f} "
            f"{s_top:>8.2f} / {s_pct:.2f} {str(chosen):>17} {h_top:>5.2f} / {h_pct:.2f}"
        )
    n = max(len(repos), 1)
    m = [v / n for v in sums]
    lines.append(
        f"{'mean':<23} {m[0]:>13.3f} / {m[1]:.3f} {m[2]:>5.3f} / {m[3]:.3f} "
        f"{'leave-one-out':>17} {m[4]:.3f} / {m[5]:.3f}"
    )
    return "\n".join(lines)
