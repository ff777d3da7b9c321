"""`repolens-tui-bench eval answers`: the local answers over the dev and dev2 questions and our
unanswerable ones, judged sentence by sentence, each model beside the others in the same run."""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from app.answer.checks import ALL_LEFT_OUT, abstains, check_sentences, degeneration
from app.answer.citations import check_citations
from app.answer.engine import fixed_prefix
from app.answer.prompt import Excerpt
from app.bench import devbench
from app.bench.devbench import GoldRange, ResultChunk
from app.core.models import Hit

UNANSWERABLE = Path(__file__).with_name("data") / "unanswerable.jsonl"
FREE_TEXT = "free text"  # the label of an unconstrained answer's model in --baseline runs


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the eval sees in one answer, from its text and the excerpts alone."""

    names_gold: bool
    cites_gold: bool
    citations_valid: bool
    sentences: int  # sentences that make a claim
    supported: int  # of those, cited with every key term in the cited excerpts
    degenerate: tuple[str, ...]
    abstained: bool
    unsupported: tuple[str, ...]  # "sentence -> why", for reading the results file
    first_cited: int | None = None  # the excerpt the first sentence cites
    # Of the claims, those whose key terms and enough of whose words are in the cited
    # excerpts (checks.WORDS_FOUND): a restated question is no evidence.
    supported_strict: int = 0


@dataclass(frozen=True, slots=True)
class AnswerRecord:
    id: str
    set: str  # "dev", "dev2" or "unanswerable"
    corpus: str
    model: str
    first_token_ms: float | None
    tokens_per_s: float
    tokens: int
    prompt_tokens: int
    excerpts: int
    gold_in_context: bool
    verdict: Verdict
    answer: str
    finish: str
    context: tuple[dict[str, Any], ...]  # the excerpts, so that a results file can be re-judged
    dropped: tuple[str, ...] = ()  # sentences left out as unsupported ("sentence -> why")
    gated: bool = False  # abstained before the model ran (the question names what is absent)
    reused_tokens: int = 0
    gold_at: int | None = None  # the excerpt number of the first gold chunk
    left_out_unsaid: bool = False  # the run's answer_leave_out_unsaid
    kind: str = ""  # the question's kind ("api-name", ..., "unanswerable"); "" in older files


def judge(text: str, context: Sequence[Hit], finish: str, gold: Sequence[GoldRange]) -> Verdict:
    """The answer's checks; `gold` is empty for a question the repository cannot answer."""
    excerpts = [Excerpt(n, hit) for n, hit in enumerate(context, 1)]
    citations = check_citations(text, excerpts)
    cited = [ResultChunk(c.path, c.start_line, c.end_line) for c in citations if c.valid]
    checks = [c for c in check_sentences(text, excerpts) if c.claim]
    return Verdict(
        names_gold=any(_names(text, g.symbol) for g in gold),
        cites_gold=any(devbench.is_hit(c, gold) for c in cited),
        citations_valid=all(c.valid for c in citations),
        sentences=len(checks),
        supported=sum(c.terms_supported for c in checks),
        degenerate=tuple(degeneration(text, excerpts, finish)),
        abstained=finish in {"no-context", "abstained"} or abstains(text),
        unsupported=tuple(f"{c.text} -> {c.problem}" for c in checks if not c.supported),
        first_cited=next((c.n for c in citations), None),
        supported_strict=sum(c.supported for c in checks),
    )


def _names(text: str, symbol: str) -> bool:
    """The answer names the symbol: its last part (`BaseClient._redirect_method` is named by
    `_redirect_method`), as a whole word."""
    name = re.split(r"\.|::|#", symbol)[-1].strip()
    return bool(name) and re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text) is not None


def add_answer_eval_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model-file", type=Path, help="answers: a local GGUF answer model")
    parser.add_argument(
        "--compare",
        action="append",
        default=[],
        help="answers: another answer model (a name such as repolens/qwen2.5-coder-0.5b-instruct, "
        "or a GGUF file) answering the same questions in the same run (repeatable)",
    )
    parser.add_argument("--corpora2", type=Path, help="answers: the dev2 corpora folder")
    parser.add_argument("--max-tokens", type=int, default=None, help="answers: longest answer")
    parser.add_argument(
        "--limit",
        type=int,
        default=None,
        help="answers: first N questions; mined: questions per repository (default 100)",
    )
    parser.add_argument(
        "--per-corpus", type=int, default=None, help="answers: the first N questions of each corpus"
    )
    parser.add_argument(
        "--per-kind",
        type=int,
        default=None,
        help="answers: the first N questions of each kind in each corpus, and every unanswerable "
        "one (the first N of a corpus are often all one kind)",
    )
    parser.add_argument(
        "--question",
        action="append",
        default=None,
        help="answers: only the question of this id (repeatable; after --per-corpus)",
    )
    parser.add_argument(
        "--baseline",
        action="store_true",
        help="answers: each model also answers unconstrained (free text, unsupported sentences "
        "flagged, not left out: answers as before issue 17) in the same run",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        help="answers: settings for another constrained variant of the default model, such as "
        '"answer_k=2 answer_budget_tokens=450", answering the same questions in turn (repeatable)',
    )
    parser.add_argument(
        "--labels",
        action="store_true",
        help="answers: how the sentence checks agree with the hand labels (no model runs)",
    )
    parser.add_argument(
        "--judge",
        type=Path,
        help="answers: judge the answers of an earlier --results file again (no model runs)",
    )


@dataclass(frozen=True, slots=True)
class _Item:
    set: str
    question: devbench.Question
    root: Path


def _items(args: argparse.Namespace) -> list[_Item]:
    items: list[_Item] = []
    sets = [("dev", Path(args.bench), Path(args.corpora))]
    if args.corpora2 is not None:
        sets.append(("dev2", Path(args.bench) / "dev2", Path(args.corpora2)))
    dev_roots: dict[str, Path] = {}
    for name, bench, corpora in sets:
        roots = devbench.corpus_roots(bench, corpora)
        if name == "dev":
            dev_roots = roots
        items += [
            _Item(name, q, roots[q.corpus]) for q in devbench.load_questions(bench, args.corpus)
        ]
    for raw in UNANSWERABLE.read_text(encoding="utf-8").splitlines():
        q = json.loads(raw)
        if q["corpus"] in dev_roots and (args.corpus is None or q["corpus"] in args.corpus):
            question = devbench.Question(q["id"], q["corpus"], q["question"], "unanswerable", ())
            items.append(_Item("unanswerable", question, dev_roots[q["corpus"]]))
    if args.per_corpus is not None:
        items = _first_of_each(items, args.per_corpus, lambda i: (i.set, i.question.corpus))
    if args.per_kind is not None:  # every unanswerable question still: there are 3 a corpus
        items = _first_of_each(
            items,
            args.per_kind,
            lambda i: (
                i.set,
                i.question.corpus,
                i.question.kind,
                i.question.id if i.set == "unanswerable" else "",
            ),
        )
    if args.question:
        items = [item for item in items if item.question.id in args.question]
    return items[: args.limit]


def _first_of_each(
    items: list[_Item], n: int, key: Callable[[_Item], tuple[str, ...]]
) -> list[_Item]:
    """The first `n` items of each `key`, in their order."""
    taken: dict[tuple[str, ...], int] = {}
    kept = []
    for item in items:
        k = key(item)
        taken[k] = taken.get(k, 0) + 1
        if taken[k] <= n:
            kept.append(item)
    return kept


def _share(flags: list[bool]) -> float:
    return round(sum(flags) / len(flags), 4) if flags else float("nan")


def _counts(values: list[int | None]) -> str:
    """How many answers' first sentence cited each excerpt ("[1] 9, [2] 3, none 2")."""
    seen = sorted({v for v in values if v is not None})
    parts = [f"[{n}] {values.count(n)}" for n in seen] + [f"none {values.count(None)}"]
    return ", ".join(parts)


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1) if values else float("nan")


def run_answer_eval(args: argparse.Namespace) -> int:
    from app.answer.model import AnswerModelUnavailable, resolve_model_file
    from app.cli.common import ProgressPrinter
    from app.core.settings import load_settings
    from app.service import Service

    if args.labels:
        from app.bench.support_labels import report

        print(report())
        return 0
    if args.judge is not None:
        return _judge_again(args)
    if args.corpora is None:
        print("repolens-tui: error: eval answers needs --corpora DIR", file=sys.stderr)
        return 2
    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    models = [str(args.model_file or settings.answer_model), *args.compare]
    try:
        files = {name: resolve_model_file(name) for name in models}
    except AnswerModelUnavailable as error:
        print(f"repolens-tui: error: {error}", file=sys.stderr)
        return 1
    shapes = [settings.answer_constrained, *([False] if args.baseline else [])]
    variants = [
        _Variant(_label(name, constrained, args.baseline), name, constrained, settings)
        for name in models
        for constrained in dict.fromkeys(shapes)
    ]
    try:
        variants += [
            _Variant(spec, models[0], True, variant_settings(settings, spec))
            for spec in args.variant
        ]
    except ValueError as error:
        print(f"repolens-tui: error: --variant: {error}", file=sys.stderr)
        return 2
    names = [v.label for v in variants]
    items = _items(args)
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    services: dict[Path, Service] = {}
    records: list[AnswerRecord] = []
    for item in items:
        service = services.get(item.root)
        if service is None:
            service = Service(item.root, settings)
            print(f"[{item.question.corpus}] indexing {service.root}", file=sys.stderr)
            service.index(ProgressPrinter(quiet=args.quiet))
            services[item.root] = service
        for variant in variants:  # in turn: the same load for all
            label = variant.label
            record = _answer(service, item, variant, files[variant.model], args)
            records.append(record)
            if args.results:  # one line per answer as it comes: a stopped run keeps its part
                with Path(args.results).open("a" if len(records) > 1 else "w") as out:
                    out.write(json.dumps(asdict(record), ensure_ascii=False) + "\n")
            v = record.verdict
            print(
                f"{item.question.id} [{Path(label).name}]: first token {record.first_token_ms} ms, "
                f"gold {v.names_gold}/{v.cites_gold}, supported {v.supported}/{v.sentences}, "
                f"degenerate {list(v.degenerate)}, abstained {v.abstained}",
                file=sys.stderr,
            )
    summary = {
        "max_tokens": args.max_tokens or settings.answer_max_tokens,
        "budget_tokens": args.budget or settings.answer_budget_tokens,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "wall_s": round(time.perf_counter() - started, 1),
        "models": {name: _model_summary([r for r in records if r.model == name]) for name in names},
    }
    print(json.dumps(summary, indent=2) if args.json else format_summary(summary))
    return 0


def _judge_again(args: argparse.Namespace) -> int:
    """The records of a results file, judged by the checks as they are now."""
    gold: dict[str, tuple[GoldRange, ...]] = {}
    kinds: dict[str, str] = {}
    for bench in (Path(args.bench), Path(args.bench) / "dev2"):
        if (bench / "queries").is_dir() or (bench / "dev" / "queries").is_dir():
            for q in devbench.load_questions(bench):
                gold[q.id], kinds[q.id] = q.gold, q.kind
    records: list[AnswerRecord] = []
    for line in Path(args.judge).read_text(encoding="utf-8").splitlines():
        raw = json.loads(line)
        context = [_context_hit(n, c) for n, c in enumerate(raw["context"], 1)]
        answer, dropped = left_out_again(
            raw["answer"],
            raw.get("dropped", ()),
            context,
            raw.get("left_out_unsaid", False),
            constrained=not raw["model"].endswith(f"({FREE_TEXT})"),
        )
        verdict = judge(answer, context, raw["finish"], gold.get(raw["id"], ()))
        kind = raw.get("kind") or kinds.get(raw["id"], "unanswerable")
        again = {"answer": answer, "dropped": dropped, "verdict": verdict, "kind": kind}
        records.append(AnswerRecord(**{**raw, **again, "context": tuple(raw["context"])}))
    names = list(dict.fromkeys(r.model for r in records))
    summary = {
        "max_tokens": "as run",
        "budget_tokens": "as run",
        "load_average": ["-", "-"],
        "wall_s": 0.0,
        "models": {name: _model_summary([r for r in records if r.model == name]) for name in names},
    }
    print(json.dumps(summary, indent=2) if args.json else format_summary(summary))
    return 0


def left_out_again(
    answer: str,
    dropped: Sequence[str],
    context: Sequence[Hit],
    unsaid_too: bool = False,
    constrained: bool = True,
) -> tuple[str, tuple[str, ...]]:
    """A constrained answer and the sentences it left out ("sentence -> why"), left out again
    by the checks as they are now (`unsaid_too`: answer_leave_out_unsaid). An answer emptied
    to the abstention is its left-out sentences in the order written; otherwise those now
    supported follow the kept ones. A free-text answer (`constrained` False) is as written."""
    if not constrained:  # free text: nothing is left out
        return answer, tuple(dropped)
    written = [*([] if abstains(answer) else [answer])]  # the phrase of its day
    written += [d.rsplit(" -> ", 1)[0] for d in dropped]
    excerpts = [Excerpt(n, hit) for n, hit in enumerate(context, 1)]
    checks = check_sentences(" ".join(written), excerpts, bounded=True)
    kept = [c.text for c in checks if not c.left_out(unsaid_too)]
    still = tuple(f"{c.text} -> {c.problem}" for c in checks if c.left_out(unsaid_too))
    return (" ".join(kept) if kept else ALL_LEFT_OUT), still


def _context_hit(n: int, raw: dict[str, Any]) -> Hit:
    symbol = str(raw.get("symbol", ""))
    return Hit(
        f"{raw['path']}:{raw['start_line']}",
        raw["path"],
        raw["start_line"],
        raw["end_line"],
        symbol,
        symbol,
        "",
        "",
        0.0,
        raw["text"],
        str(raw.get("packed", "body")),  # results files before issue 17's echo check lack it
    )


@dataclass(frozen=True, slots=True)
class _Variant:
    label: str
    model: str
    constrained: bool
    settings: Any  # app.core.settings.Settings


def variant_settings(settings: Any, spec: str) -> Any:
    """`settings` with the answer settings of `spec` ("answer_k=2 answer_budget_tokens=450")
    replaced, each value checked as the setting's own."""
    update: dict[str, str] = {}
    for pair in spec.split():
        key, sep, value = pair.partition("=")
        if not sep or not key.startswith("answer_") or key not in type(settings).model_fields:
            raise ValueError(f"{pair!r} is not answer_SETTING=VALUE")
        update[key] = value
    try:
        return type(settings).model_validate({**settings.model_dump(), **update})
    except Exception as error:  # pydantic's ValidationError: say which value
        raise ValueError(f"{spec!r}: {error}") from None


def _label(name: str, constrained: bool, baseline: bool) -> str:
    if not baseline:
        return name
    return f"{Path(name).name} ({'constrained' if constrained else FREE_TEXT})"


def _answer(
    service: Any, item: _Item, variant: _Variant, model_file: Path, args: argparse.Namespace
) -> AnswerRecord:
    # The variant's settings for this answer: the search's k and budget, the grammar's shape.
    answerer = service.answerer(model_file)
    service.settings = answerer.settings = variant.settings
    # Each variant answers the same question: without this the second would find the whole
    # prompt warm. The cache keeps the fixed prefix, as after any other question.
    model = answerer.model()
    model.forget_from(len(fixed_prefix(model)))
    answer = service.ask(
        item.question.question,
        budget_tokens=args.budget,
        max_tokens=args.max_tokens,
        model_file=model_file,
        constrained=variant.constrained,
    )
    gold = item.question.gold
    packed = [ResultChunk(h.path, h.start_line, h.end_line) for h in answer.context]
    at = next((n for n, c in enumerate(packed, 1) if devbench.is_hit(c, gold)), None)
    return AnswerRecord(
        item.question.id,
        item.set,
        item.question.corpus,
        variant.label,
        answer.timings_ms.get("first_token"),
        answer.tokens_per_s,
        answer.tokens,
        answer.prompt_tokens,
        len(answer.context),
        at is not None,
        judge(answer.text, answer.context, answer.finish, gold),
        answer.text,
        answer.finish,
        tuple(
            {
                "path": h.path,
                "start_line": h.start_line,
                "end_line": h.end_line,
                "symbol": h.qualified_name or h.symbol,
                "text": h.text,
                "packed": h.packed,
            }
            for h in answer.context
        ),
        tuple(f"{c.text} -> {c.problem}" for c in answer.dropped),
        answer.finish == "abstained",
        answer.reused_tokens,
        at,
        variant.settings.answer_leave_out_unsaid,
        item.question.kind,
    )


def _hand_labelled(records: list[AnswerRecord]) -> tuple[int, int, int]:
    """Of the claims the answers make, how many the hand labels call supported, how many they
    label, and how many they do not (a sentence no labelled answer wrote)."""
    from app.bench.support_labels import labels_by_sentence

    labels = labels_by_sentence()
    supported = labelled = unlabelled = 0
    for r in records:
        excerpts = [Excerpt(n, _context_hit(n, c)) for n, c in enumerate(r.context, 1)]
        for check in check_sentences(r.answer, excerpts):
            label = labels.get((r.id, check.text))
            if not check.claim:
                continue
            if label is None:
                unlabelled += 1
            else:
                labelled += 1
                supported += label
    return supported, labelled, unlabelled


def _hand_share(records: list[AnswerRecord]) -> float:
    supported, labelled, _ = _hand_labelled(records)
    return round(supported / labelled, 4) if labelled else float("nan")


def _model_summary(records: list[AnswerRecord]) -> dict[str, Any]:
    answerable = [r for r in records if r.set != "unanswerable"]
    hand_supported, hand_labelled, hand_unlabelled = _hand_labelled(records)
    unanswerable = [r for r in records if r.set == "unanswerable"]
    timed = [r for r in records if r.first_token_ms is not None]
    sentences = sum(r.verdict.sentences for r in records)
    return {
        "answers": len(records),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "names_gold": _share([r.verdict.names_gold for r in answerable]),
        "cites_gold": _share([r.verdict.cites_gold for r in answerable]),
        "gold_in_context": _share([r.gold_in_context for r in answerable]),
        "gold_in_not_named": _share(
            [not r.verdict.names_gold for r in answerable if r.gold_in_context]
        ),
        "first_cites_gold": _share(
            [r.gold_at is not None and r.verdict.first_cited == r.gold_at for r in answerable]
        ),
        "first_cited": _counts([r.verdict.first_cited for r in answerable]),
        "prompt_tokens_mean": round(statistics.mean(r.prompt_tokens for r in read), 1)
        if (read := [r for r in records if r.prompt_tokens])
        else float("nan"),
        "supported_sentences": round(sum(r.verdict.supported for r in records) / sentences, 4)
        if sentences
        else float("nan"),
        "supported_strict": round(sum(r.verdict.supported_strict for r in records) / sentences, 4)
        if sentences
        else float("nan"),
        "supported_hand": round(hand_supported / hand_labelled, 4)
        if hand_labelled
        else float("nan"),
        "unlabelled_sentences": hand_unlabelled,
        "supported_as_written": round(
            sum(r.verdict.supported for r in records)
            / (sentences + sum(len(r.dropped) for r in records)),
            4,
        )
        if sentences + sum(len(r.dropped) for r in records)
        else float("nan"),
        "fully_supported_answers": _share(
            [r.verdict.supported == r.verdict.sentences > 0 for r in answerable]
        ),
        "degenerate": sum(bool(r.verdict.degenerate) for r in records),
        "repeats_cut": sum(r.finish == "repeat" for r in records),
        "dropped_sentences": sum(len(r.dropped) for r in records),
        "emptied_answers": sum(bool(r.dropped) and r.verdict.sentences == 0 for r in records),
        "gated": sum(r.gated for r in records),
        "gated_answerable": sum(r.gated for r in answerable),
        "citations_valid": _share([r.verdict.citations_valid for r in records]),
        "abstains_unanswerable": _share([r.verdict.abstained for r in unanswerable]),
        "abstains_answerable": _share([r.verdict.abstained for r in answerable]),
        "abstains_with_gold": sum(r.verdict.abstained for r in answerable if r.gold_in_context),
        "first_token_ms_p50": _median([r.first_token_ms or 0.0 for r in timed]),
        "tokens_per_s_p50": _median([r.tokens_per_s for r in timed]),
        "by_set": {
            name: {
                "answers": len(rows),
                "names_gold": _share([r.verdict.names_gold for r in rows]),
                "cites_gold": _share([r.verdict.cites_gold for r in rows]),
                "supported_answers": _share(
                    [r.verdict.supported == r.verdict.sentences for r in rows]
                ),
                "abstained": _share([r.verdict.abstained for r in rows]),
            }
            for name in ("dev", "dev2", "unanswerable")
            if (rows := [r for r in records if r.set == name])
        },
        "by_kind": {
            kind: {
                "answers": len(rows),
                "names_gold": _share([r.verdict.names_gold for r in rows]),
                "gold_in_context": _share([r.gold_in_context for r in rows]),
                "supported_hand": _hand_share(rows),
                "abstained": _share([r.verdict.abstained for r in rows]),
            }
            for kind in dict.fromkeys(r.kind for r in records if r.kind)
            if (rows := [r for r in records if r.kind == kind])
        },
    }


_ROWS = (
    ("answers (answerable + unanswerable)", "answers", "{}"),
    ("names a gold symbol", "names_gold", "{:.3f}"),
    ("cites a gold chunk", "cites_gold", "{:.3f}"),
    ("gold chunk in the context", "gold_in_context", "{:.3f}"),
    ("  of them not named", "gold_in_not_named", "{:.3f}"),
    ("first sentence cites the gold", "first_cites_gold", "{:.3f}"),
    ("first sentence cites", "first_cited", "{}"),
    ("prompt tokens, mean", "prompt_tokens_mean", "{:.0f}"),
    ("supported sentences", "supported_sentences", "{:.3f}"),
    ("  as written, before leaving out", "supported_as_written", "{:.3f}"),
    ("supported (strict)", "supported_strict", "{:.3f}"),
    ("supported (hand labels)", "supported_hand", "{:.3f}"),
    ("  sentences with no label", "unlabelled_sentences", "{}"),
    ("answers wholly supported", "fully_supported_answers", "{:.3f}"),
    ("degenerate answers", "degenerate", "{}"),
    ("  a sentence said again, cut", "repeats_cut", "{}"),
    ("sentences left out", "dropped_sentences", "{}"),
    ("answers left empty by it", "emptied_answers", "{}"),
    ("abstained before the model", "gated", "{}"),
    ("  of them answerable", "gated_answerable", "{}"),
    ("citations all valid", "citations_valid", "{:.3f}"),
    ("abstains, unanswerable", "abstains_unanswerable", "{:.3f}"),
    ("abstains, answerable", "abstains_answerable", "{:.3f}"),
    ("  of them gold in the context", "abstains_with_gold", "{}"),
    ("first token p50 (ms)", "first_token_ms_p50", "{:.0f}"),
    ("tokens/s p50", "tokens_per_s_p50", "{:.1f}"),
)


def format_summary(summary: dict[str, Any]) -> str:
    models = summary["models"]
    width = 30
    head = "".join(f"{Path(name).name[:32]:>34}" for name in models)
    lines = [
        f"answers: max {summary['max_tokens']} tokens, budget {summary['budget_tokens']}, "
        f"load average {summary['load_average'][0]} -> {summary['load_average'][1]}, "
        f"{summary['wall_s']} s",
        "",
        f"{'':<{width}}{head}",
    ]
    for label, key, form in _ROWS:
        cells = "".join(f"{form.format(m[key]):>34}" for m in models.values())
        lines.append(f"{label:<{width}}{cells}")
    for name, model in models.items():
        lines.append("")
        lines.append(f"{Path(name).name}: by set (names gold / cites gold / supported / abstained)")
        for set_name, b in model["by_set"].items():
            lines.append(
                f"  {set_name:<14}{b['answers']:>4}  {b['names_gold']:.3f} / {b['cites_gold']:.3f}"
                f" / {b['supported_answers']:.3f} / {b['abstained']:.3f}"
            )
        if model["by_kind"]:
            lines.append(
                f"{Path(name).name}: by kind (names gold / gold in the context / supported by "
                "hand labels / abstained)"
            )
        for kind, b in model["by_kind"].items():
            lines.append(
                f"  {kind:<14}{b['answers']:>4}  {b['names_gold']:.3f} / "
                f"{b['gold_in_context']:.3f} / {b['supported_hand']:.3f} / {b['abstained']:.3f}"
            )
    return "\n".join(lines)
