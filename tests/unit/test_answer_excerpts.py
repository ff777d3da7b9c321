"""`repolens-tui-bench excerpts`: the excerpts an answer would read, measured without the model
generating: the real index, search and packer, and the answer model's own tokenizer."""

from __future__ import annotations

import json
from pathlib import Path

from app.answer.llm import load_model
from app.answer.model import resolve_model_file
from app.bench.cli import main
from app.core.settings import Settings

STEPS = "\n".join(f"    delay = delay * factor + {n}  # step {n} of the backoff" for n in range(40))
SCHEDULER = f'''\
def schedule_retry(attempt, delay, factor):
    """Wait longer before each new attempt of a failed request."""
{STEPS}
    return delay


def parse_header(line):
    """Split one header line into its name and value."""
    name, _, value = line.partition(":")
    return name.strip(), value.strip()


def open_session(url):
    """A session bound to one base URL."""
    return {{"url": url, "open": True}}
'''


def _bench(tmp_path: Path) -> tuple[Path, Path]:
    bench, corpora = tmp_path / "bench", tmp_path / "corpora"
    (bench / "queries").mkdir(parents=True)
    (corpora / "lib").mkdir(parents=True)
    (corpora / "lib" / "retry.py").write_text(SCHEDULER)
    (bench / "corpora.json").write_text('[{"name": "lib", "language": "python", "root": "lib"}]')
    question = {
        "id": "lib-01",
        "corpus": "lib",
        "question": "How does schedule_retry wait longer before each attempt?",
        "gold": [{"path": "retry.py", "symbol": "schedule_retry", "start_line": 1, "end_line": 43}],
    }
    (bench / "queries" / "lib.jsonl").write_text(json.dumps(question) + "\n")
    return bench, corpora


def test_the_excerpts_bench_reports_where_the_gold_is_and_the_prompts_real_tokens(
    tmp_path: Path, settings: Settings
) -> None:
    bench, corpora = _bench(tmp_path)
    rows_file = tmp_path / "rows.jsonl"
    argv = ["excerpts", "--bench", str(bench), "--corpora", str(corpora), "-q"]
    argv += ["--k", "1", "--k", "3", "--budget", "60", "--budget", "1000"]
    argv += ["--rows", str(rows_file), "--index-dir", str(settings.index_dir)]
    assert main(argv) == 0
    rows = {(r["k"], r["budget"]): r for r in map(json.loads, rows_file.read_text().splitlines())}
    assert sorted(rows) == [(1, 60), (1, 1000), (3, 60), (3, 1000)]
    assert rows[1, 1000]["excerpts"] == 1 and rows[3, 1000]["excerpts"] == 3
    assert all(r["gold_at"] == 1 and r["gold_nameable"] for r in rows.values())
    # 60 tokens hold the body's first lines (answers cut what does not fit); 1000 all of it.
    assert rows[1, 60]["gold_cut"] and not rows[1, 60]["gold_whole"]
    assert rows[1, 1000]["gold_whole"] and not rows[1, 1000]["gold_cut"]
    prefixes = {r["prompt_tokens"] - r["question_tokens"] for r in rows.values()}
    assert len(prefixes) == 1 and prefixes.pop() > 300  # the fixed prefix, the same for all
    # The body is read after Enter: counted by the model's tokenizer, not by characters / 3.6.
    model = load_model(
        resolve_model_file(settings.answer_model),
        n_ctx=settings.answer_context_tokens,
        threads=1,
        flash_attn=settings.answer_flash_attention,
    )
    body = model.count_tokens(SCHEDULER.split("\n\n\n")[0])
    assert rows[1, 60]["question_tokens"] < body < rows[1, 1000]["question_tokens"]
    assert rows[3, 1000]["question_tokens"] > rows[1, 1000]["question_tokens"]
