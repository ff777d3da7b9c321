"""`repolens-tui-bench excerpts`: what the answer model would read for each dev and dev2 question,
per excerpt count and budget, without running it: the gold among the excerpts, first, whole
or cut to its first lines, and the prompt's tokens by the model's own tokenizer (whatever the
load)."""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from app.answer.grammar import excerpt_names
from app.answer.prompt import Excerpt, build_prompt
from app.bench import devbench
from app.bench.devbench import GoldRange, ResultChunk
from app.core.models import Hit
from app.search.pack import BODY, CUT

DEFAULT_KS = (1, 2, 3, 4, 6)
DEFAULT_BUDGETS = (150, 200, 300, 450)


@dataclass(frozen=True, slots=True)
class ExcerptRow:
    """One question's excerpts at one (k, budget)."""

    id: str
    set: str
    corpus: str
    language: str
    k: int
    budget: int
    excerpts: int
    gold_at: int | None  # the excerpt number of the first gold chunk, None when none is given
    gold_whole: bool  # that excerpt is the chunk's whole body, not its signature
    gold_cut: bool  # that excerpt is the body's first lines (app.search.pack's CUT)
    gold_nameable: bool  # the grammar lets a sentence citing it open with the gold's name
    prompt_tokens: int  # the whole prompt, as the model reads it
    question_tokens: int  # beyond the fixed prefix: what is read after Enter


def gold_position(hits: Sequence[Hit], gold: Sequence[GoldRange]) -> int | None:
    for n, hit in enumerate(hits, 1):
        if devbench.is_hit(ResultChunk(hit.path, hit.start_line, hit.end_line), gold):
            return n
    return None


def _last_part(name: str) -> str:
    return re.split(r"\.|::|#", name.rstrip("()"))[-1]


def nameable(hit: Hit, n: int, gold: Sequence[GoldRange]) -> bool:
    """A sentence citing this excerpt may open with a name the eval counts as the gold's."""
    offered = {_last_part(name) for name in excerpt_names(Excerpt(n, hit))}
    return any(_last_part(g.symbol) in offered for g in gold if g.symbol)


def measure(
    question: devbench.Question,
    set_name: str,
    language: str,
    hits: Sequence[Hit],
    k: int,
    budget: int,
    count: Any,
    prefix: int,
) -> ExcerptRow:
    """`count(messages)` is the prompt's length in model tokens; `prefix` the fixed part."""
    at = gold_position(hits, question.gold)
    tokens = count(build_prompt(question.question, hits).messages)
    return ExcerptRow(
        question.id,
        set_name,
        question.corpus,
        language,
        k,
        budget,
        len(hits),
        at,
        at is not None and hits[at - 1].packed == BODY,
        at is not None and hits[at - 1].packed == CUT,
        at is not None and nameable(hits[at - 1], at, question.gold),
        tokens,
        tokens - prefix,
    )


def _share(flags: list[bool]) -> float:
    return round(sum(flags) / len(flags), 3) if flags else float("nan")


def summarise(rows: Sequence[ExcerptRow]) -> dict[str, Any]:
    """Per group: questions, gold among the excerpts, as [1], whole (of all questions), the
    grammar can name it, and the mean tokens read after Enter."""
    given = [r for r in rows if r.gold_at is not None]
    return {
        "questions": len(rows),
        "gold_in": _share([r.gold_at is not None for r in rows]),
        "gold_first": _share([r.gold_at == 1 for r in rows]),
        "gold_whole": _share([r.gold_whole for r in rows]),
        "gold_cut": _share([r.gold_cut for r in rows]),
        "gold_nameable": _share([r.gold_nameable for r in rows]),
        "gold_mean_position": round(statistics.mean(r.gold_at or 0 for r in given), 2)
        if given
        else float("nan"),
        "question_tokens": round(statistics.mean(r.question_tokens for r in rows), 1),
        "question_tokens_p90": _p90([r.question_tokens for r in rows]),
    }


def _p90(values: list[int]) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))] if ordered else 0


def report(rows: Sequence[ExcerptRow]) -> dict[str, Any]:
    combos = list(dict.fromkeys((r.k, r.budget) for r in rows))
    sets = list(dict.fromkeys(r.set for r in rows))
    out: dict[str, Any] = {"combos": [], "languages": []}
    for k, budget in combos:
        mine = [r for r in rows if (r.k, r.budget) == (k, budget)]
        entry: dict[str, Any] = {"k": k, "budget": budget}
        for set_name in sets:
            entry[set_name] = summarise([r for r in mine if r.set == set_name])
        entry["all"] = summarise(mine)
        out["combos"].append(entry)
        for set_name in sets:
            for language in dict.fromkeys(r.language for r in mine if r.set == set_name):
                group = [r for r in mine if r.set == set_name and r.language == language]
                out["languages"].append(
                    {"k": k, "budget": budget, "set": set_name, "language": language}
                    | summarise(group)
                )
    return out


def format_report(summary: dict[str, Any], prefix: int) -> str:
    sets = [s for s in ("dev", "dev2", "all") if summary["combos"] and s in summary["combos"][0]]
    cell = (
        "{gold_in:.3f} {gold_first:.3f} {gold_whole:.3f} {gold_cut:.3f} {gold_nameable:.3f} "
        "{tok:>5.0f}"
    )
    head = "  ".join(f"{s + ': in / [1] / whole / cut / nameable / tokens':<46}" for s in sets)
    lines = [
        f"excerpts the answer model would read (tokens: read after Enter, beside the "
        f"{prefix}-token fixed prefix; means)",
        "",
        f"{'k':>3} {'budget':>6}   {head}",
    ]
    for entry in summary["combos"]:
        cells = "  ".join(
            f"{cell.format(**entry[s], tok=entry[s]['question_tokens']):<46}" for s in sets
        )
        lines.append(f"{entry['k']:>3} {entry['budget']:>6}   {cells}")
    lines += ["", "by language: in / [1] / whole / cut / nameable / tokens"]
    by_language: dict[tuple[str, str], list[str]] = {}
    for entry in summary["languages"]:
        text = cell.format(**entry, tok=entry["question_tokens"])
        by_language.setdefault((entry["set"], entry["language"]), []).append(
            f"k={entry['k']} b={entry['budget']}: {text}"
        )
    for (set_name, language), texts in by_language.items():
        lines.append(f"  {set_name} {language} ({len(texts)} settings)")
        lines += [f"    {t}" for t in texts]
    return "\n".join(lines)


def add_excerpt_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bench", type=Path, default=Path("../shared/bench"), help="bench folder")
    parser.add_argument("--corpora", type=Path, required=True, help="the dev corpora folder")
    parser.add_argument("--corpora2", type=Path, help="the dev2 corpora folder (else skipped)")
    parser.add_argument("--corpus", action="append", help="only this corpus (repeatable)")
    parser.add_argument(
        "--k", action="append", type=int, help=f"excerpts per answer (repeatable; {DEFAULT_KS})"
    )
    parser.add_argument(
        "--budget",
        action="append",
        type=int,
        help=f"the excerpts' token budget (repeatable; {DEFAULT_BUDGETS})",
    )
    parser.add_argument("--rows", type=Path, help="write one JSON line per question and setting")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def _questions(args: argparse.Namespace) -> list[tuple[str, str, devbench.Question, Path]]:
    sets = [("dev", Path(args.bench), Path(args.corpora))]
    if args.corpora2 is not None:
        sets.append(("dev2", Path(args.bench) / "dev2", Path(args.corpora2)))
    found = []
    for name, bench, corpora in sets:
        roots = devbench.corpus_roots(bench, corpora)
        languages = {c.name: c.language for c in devbench.load_corpora(bench)}
        for q in devbench.load_questions(bench, args.corpus):
            found.append((name, languages.get(q.corpus, ""), q, roots[q.corpus]))
    return found


def run_excerpts(args: argparse.Namespace) -> int:
    from app.answer.engine import fixed_prefix
    from app.answer.llm import load_model
    from app.answer.model import AnswerModelUnavailable, resolve_model_file
    from app.cli.common import ProgressPrinter
    from app.core.settings import load_settings
    from app.service import Service

    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    try:  # the tokenizer is the model's own: the weights are mapped, never run
        model = load_model(
            resolve_model_file(settings.answer_model),
            n_ctx=settings.answer_context_tokens,
            threads=1,
            flash_attn=settings.answer_flash_attention,
        )
    except AnswerModelUnavailable as error:
        print(f"repolens-tui: error: {error}", file=sys.stderr)
        return 1
    prefix = len(fixed_prefix(model))

    def count(messages: list[dict[str, str]]) -> int:
        return len(model.prompt_tokens(messages)[0])

    ks, budgets = args.k or list(DEFAULT_KS), args.budget or list(DEFAULT_BUDGETS)
    services: dict[Path, Service] = {}
    rows: list[ExcerptRow] = []
    started = time.perf_counter()
    for set_name, language, question, root in _questions(args):
        service = services.get(root)
        if service is None:
            service = services[root] = Service(root, settings)
            print(f"[{question.corpus}] indexing {service.root}", file=sys.stderr)
            service.index(ProgressPrinter(quiet=args.quiet))
        for k in ks:
            for budget in budgets:
                hits = service.search(
                    question.question,
                    k=k,
                    budget_tokens=budget,
                    cut_tokens=settings.answer_cut_tokens,
                ).hits
                rows.append(measure(question, set_name, language, hits, k, budget, count, prefix))
    if args.rows:
        Path(args.rows).write_text("".join(json.dumps(asdict(r)) + "\n" for r in rows))
    wall = round(time.perf_counter() - started)
    summary = report(rows) | {"fixed_prefix": prefix, "wall_s": wall}
    print(json.dumps(summary, indent=2) if args.json else format_report(summary, prefix))
    return 0
