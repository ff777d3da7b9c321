"""`repolens-tui-bench eval answers`: the local answers over the dev questions (speed, citation
validity, gold citations), beside baselines from the same run."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from app.bench import devbench
from app.bench.devbench import ResultChunk


@dataclass(frozen=True, slots=True)
class AnswerRecord:
    id: str
    corpus: str
    first_token_ms: float | None
    tokens_per_s: float
    retrieve_ms: float
    tokens: int
    prompt_tokens: int
    excerpts: int
    all_valid: bool
    grounded: bool
    cites_gold: bool
    gold_in_context: bool
    answer: str


def add_answer_eval_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model-file", type=Path, help="answers: a local GGUF answer model")
    parser.add_argument("--max-tokens", type=int, default=None, help="answers: longest answer")
    parser.add_argument(
        "--limit",
        type=int,
        default=None,
        help="answers: first N questions; mined: questions per repository (default 100)",
    )


def _median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def _share(flags: list[bool]) -> float:
    return sum(flags) / len(flags) if flags else float("nan")


def run_answer_eval(args: argparse.Namespace) -> int:
    from app.answer.llm import Generation
    from app.answer.prompt import build_prompt
    from app.cli.common import ProgressPrinter
    from app.core.settings import load_settings
    from app.service import Service

    if args.corpora is None:
        print("repolens-tui: error: eval answers needs --corpora DIR", file=sys.stderr)
        return 2
    settings = load_settings(index_dir=args.index_dir, embedding_model=args.model)
    questions = devbench.load_questions(args.bench, args.corpus)[: args.limit]
    roots = devbench.corpus_roots(args.bench, args.corpora)
    load_before = os.getloadavg()[0]
    records: list[AnswerRecord] = []
    services: dict[str, Service] = {}
    prompts: list[tuple[int, Service, str, list[Any]]] = []  # for the raw-model baseline
    started = time.perf_counter()
    for question in questions:
        service = services.get(question.corpus)
        if service is None:
            service = Service(roots[question.corpus], settings)
            print(f"[{question.corpus}] indexing {service.root}", file=sys.stderr)
            service.index(ProgressPrinter(quiet=args.quiet))
            services[question.corpus] = service
        answer = service.ask(
            question.question,
            budget_tokens=args.budget,
            max_tokens=args.max_tokens,
            model_file=args.model_file,
        )
        gold = question.gold
        cited = [ResultChunk(c.path, c.start_line, c.end_line) for c in answer.citations if c.valid]
        packed = [ResultChunk(h.path, h.start_line, h.end_line) for h in answer.context]
        record = AnswerRecord(
            question.id,
            question.corpus,
            answer.timings_ms.get("first_token"),
            answer.tokens_per_s,
            answer.timings_ms.get("retrieve", 0.0),
            answer.tokens,
            answer.prompt_tokens,
            len(answer.context),
            answer.all_citations_valid,
            answer.grounded,
            any(devbench.is_hit(c, gold) for c in cited),
            any(devbench.is_hit(c, gold) for c in packed),
            answer.text,
        )
        records.append(record)
        if args.results:  # one line per answer as it comes, so a stopped run keeps its part
            with Path(args.results).open("a" if len(records) > 1 else "w") as out:
                out.write(json.dumps(asdict(record), ensure_ascii=False) + "\n")
        if answer.context:
            prompts.append((answer.prompt_tokens, service, question.question, answer.context))
        print(
            f"{question.id}: first token {record.first_token_ms} ms, "
            f"{record.tokens_per_s} tok/s, valid {record.all_valid}, gold {record.cites_gold}",
            file=sys.stderr,
        )
    baseline: Generation | None = None
    if prompts:  # the median-length prompt of this run, replayed raw on a cold cache
        _, service, text, context = sorted(prompts, key=lambda p: p[0])[len(prompts) // 2]
        model = service.answerer(args.model_file).model()
        tokens, _ = model.prompt_tokens(build_prompt(text, context).messages)
        baseline = model.raw_generate(
            tokens, max_tokens=args.max_tokens or settings.answer_max_tokens
        )
    summary = _summary(records, baseline, settings, args, load_before, started)
    print(json.dumps(summary, indent=2) if args.json else _format(summary))
    return 0


def _summary(
    records: list[AnswerRecord],
    baseline: Any,
    settings: Any,
    args: argparse.Namespace,
    load_before: float,
    started: float,
) -> dict[str, Any]:
    def block(rows: list[AnswerRecord]) -> dict[str, Any]:
        with_text = [r for r in rows if r.first_token_ms is not None]
        return {
            "questions": len(rows),
            "first_token_ms_p50": round(_median([r.first_token_ms or 0.0 for r in with_text]), 1),
            "tokens_per_s_p50": round(_median([r.tokens_per_s for r in with_text]), 2),
            "retrieve_ms_p50": round(_median([r.retrieve_ms for r in rows]), 1),
            "prompt_tokens_p50": _median([float(r.prompt_tokens) for r in rows]),
            "all_citations_valid": round(_share([r.all_valid for r in rows]), 4),
            "grounded": round(_share([r.grounded for r in rows]), 4),
            "cites_gold": round(_share([r.cites_gold for r in rows]), 4),
            "gold_in_context": round(_share([r.gold_in_context for r in rows]), 4),
        }

    corpora = sorted({r.corpus for r in records})
    return {
        "model": str(args.model_file or settings.answer_model),
        "budget_tokens": args.budget or settings.answer_budget_tokens,
        "max_tokens": args.max_tokens or settings.answer_max_tokens,
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "wall_s": round(time.perf_counter() - started, 1),
        "all": block(records),
        "by_corpus": {name: block([r for r in records if r.corpus == name]) for name in corpora},
        "baseline_raw_model": None
        if baseline is None
        else {
            "prompt_tokens": baseline.prompt_tokens,
            "first_token_ms": baseline.first_token_ms,
            "tokens_per_s": round(baseline.tokens_per_s, 2),
        },
    }


def _format(summary: dict[str, Any]) -> str:
    a = summary["all"]
    raw = summary["baseline_raw_model"] or {}
    lines = [
        f"answers: {a['questions']} dev questions, model {summary['model']}, "
        f"budget {summary['budget_tokens']}, max {summary['max_tokens']} tokens, "
        f"load average {summary['load_average'][0]} -> {summary['load_average'][1]}, "
        f"{summary['wall_s']} s",
        "",
        f"{'':<28}{'repolens ask':>14}   baseline (same run)",
        f"{'time to first token, p50':<28}{a['first_token_ms_p50'] / 1000:>12.2f} s   "
        f"raw model, median prompt ({raw.get('prompt_tokens')} tokens): "
        f"{(raw.get('first_token_ms') or 0) / 1000:.2f} s",
        f"{'tokens/s, p50':<28}{a['tokens_per_s_p50']:>14.1f}   "
        f"raw model: {raw.get('tokens_per_s', 0):.1f}",
        f"{'retrieve, p50':<28}{a['retrieve_ms_p50']:>11.0f} ms   "
        f"(prompt tokens p50 {a['prompt_tokens_p50']:.0f})",
        f"{'all citations valid':<28}{a['all_citations_valid']:>14.3f}",
        f"{'grounded (cites >= 1)':<28}{a['grounded']:>14.3f}",
        f"{'cites a gold chunk':<28}{a['cites_gold']:>14.3f}   "
        f"gold chunk in the context: {a['gold_in_context']:.3f}",
        "",
        f"{'corpus':<14}{'ttft p50':>10}{'tok/s':>8}{'valid':>8}{'grounded':>10}"
        f"{'gold':>7}{'gold in ctx':>13}",
    ]
    for name, b in summary["by_corpus"].items():
        lines.append(
            f"{name:<14}{b['first_token_ms_p50'] / 1000:>9.2f}s{b['tokens_per_s_p50']:>8.1f}"
            f"{b['all_citations_valid']:>8.3f}{b['grounded']:>10.3f}{b['cites_gold']:>7.3f}"
            f"{b['gold_in_context']:>13.3f}"
        )
    return "\n".join(lines)
