"""One settings object: built-in defaults < TOML file < REPOLENS_* environment < flags."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)
from pydantic_settings import SettingsError as SourceParseError

from app.core import paths

# The offline default: all-MiniLM-L6-v2 as int8 ONNX, assembled from installed packages.
DEFAULT_EMBEDDING_MODEL = "repolens/all-minilm-l6-v2-int8"
ENV_PREFIX = "REPOLENS_"


class SettingsError(Exception):
    """A setting that cannot be used; the message names its file or variable and what is
    wrong, on one line."""


class Settings(BaseSettings):
    """Every knob of the engine. Environment variables are `REPOLENS_<NAME>`."""

    model_config = SettingsConfigDict(env_prefix=ENV_PREFIX, extra="ignore")

    index_dir: Path | None = None
    """Where indexes live (one folder per repository). Default: the user data directory."""

    embedding_model: str = DEFAULT_EMBEDDING_MODEL
    """The embedding model: the offline default, or any fastembed model name (needs internet
    the first time) or a local directory holding model.onnx and tokenizer files."""

    embedding_max_tokens: int = Field(default=384, ge=16, le=512)
    """Wordpieces per embedded text. 384 measured best on the dev bench (128, 256 and 512 all
    scored lower; see README); each step up costs embedding time."""

    embedding_batch_size: int = Field(default=8, ge=1, le=1024)
    """Texts the model takes at once. Memory grows with it (the 256 longest Django chunks
    peaked at 2.5 GB with 32 and 1.0 GB with 8, at the same speed), so it stays small."""

    embedding_threads: int | None = None
    """ONNX Runtime threads; default lets the runtime decide (all cores)."""

    embed_tests: bool = False
    """Embed chunks of test files too. Off by default: tests rank below the code they test
    anyway, and they are often a third to a half of a repository, so leaving them to BM25
    saves that share of the embedding time."""

    max_file_bytes: int = Field(default=1_000_000, ge=1_000)
    """Files larger than this are skipped (reason `too-large`)."""

    extra_ignores: list[str] = Field(default_factory=list)
    """Extra gitignore-style patterns, relative to the repository root."""

    max_chunk_lines: int = Field(default=120, ge=20)
    """Definitions longer than this are split into parts that each keep the signature."""

    watch: bool = True
    """The TUI keeps the index fresh as files change (watchfiles); off: it indexes once at
    start. `repolens-tui watch PATH` always watches."""

    search_k: int = Field(default=10, ge=1, le=200)
    """How many hits `search` returns at most."""

    search_budget_tokens: int = Field(default=1000, ge=50)
    """Token budget the packer fills with hits (a token is about 3.6 characters of code)."""

    answer_model: str = "repolens/qwen2.5-coder-0.5b-instruct"
    """The answer model: the offline default (assembled from installed packages into the
    cache) or the path of any local GGUF file."""

    answer_budget_tokens: int = Field(default=450, ge=50, le=6000)
    """Token budget of the excerpts an answer is written from. Prompt reading dominates the
    time to first token on two cores: two excerpts in 450 hold the best hit whole 0.70 of
    the time at 387 prompt tokens, four in 300 0.29 at 436 (`bench excerpts`)."""

    answer_k: int = Field(default=2, ge=1, le=50)
    """Hits an answer is written from (each excerpt's header costs prompt tokens too)."""

    answer_cut_tokens: int = Field(default=100, ge=0, le=6000)
    """An excerpt whose body does not fit the budget shows up to this many tokens of its
    first lines (often its doc comment) beyond its signature, where room is left; 0: the
    signature alone. The model can only say what it is shown, and sentences about a bare
    signature were mostly the question restated; each token also delays the first word."""

    answer_max_tokens: int = Field(default=256, ge=8, le=2048)
    """Longest answer, in model tokens."""

    answer_context_tokens: int = Field(default=4096, ge=512, le=32768)
    """The model's context window (prompt + answer)."""

    answer_threads: int | None = None
    """llama.cpp threads; default: the machine's cores (at most 8)."""

    answer_flash_attention: bool = True
    """llama.cpp's fused attention: reads the prompt faster on the CPU."""

    answer_preload: bool = True
    """Load the answer model and read its fixed instructions in the background as soon as
    the TUI opens (and when the MCP server offers `ask`), so that the first question waits
    only for its own excerpts; in the TUI, once typing pauses on shown results, the model
    also reads that question's prompt ahead (the next key stops it). Off: the model loads
    at the first question."""

    answer_read_ahead_after_s: float = Field(default=0.8, ge=0.0, le=10.0)
    """Seconds typing must pause on shown results before the TUI reads that question's
    prompt ahead (with answer_preload)."""

    answer_lead_with_top_hit: bool = True
    """Under the grammar, the answer's first sentence opens with a name of excerpt [1], the
    best hit, and cites it; the others may cite any excerpt."""

    answer_constrained: bool = True
    """Answers supported by construction: abstain before the model when the question names
    what the repository never mentions; a grammar makes every sentence open with a name from
    excerpt k and end citing [k] (at most three); sentences whose key terms their excerpt
    lacks are left out. False: free text, unsupported sentences only flagged."""

    answer_excerpt_bias: float = Field(default=2.0, ge=0.0, le=10.0)
    """Under answer_constrained, added to the logit of each token that writes a word of the
    excerpts (their prose and the parts of their names), at every token of the answer: the
    model says what the excerpts say in their words rather than restating the question
    (2: measured against 0 and 3 in app/bench/RESULTS.md, 2026-12-04). 0: off."""

    answer_leave_out_unsaid: bool = True
    """Under answer_constrained, also leave out a sentence most of whose words its excerpt
    lacks (a question restated about a name: checks.WORDS_FOUND), so that an answer of such
    sentences only becomes the abstention; off, they are kept and flagged. Sentences about
    excerpts packed as signatures only are kept and flagged either way."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        toml = TomlConfigSettingsSource(settings_cls, toml_file=paths.config_file())
        return (init_settings, env_settings, toml)

    def resolved_index_root(self) -> Path:
        return self.index_dir if self.index_dir is not None else paths.default_index_root()


def load_settings(**overrides: Any) -> Settings:
    """Settings from file and environment, with flags (non-None overrides) on top; a bad
    file or value raises SettingsError."""
    given = {key: value for key, value in overrides.items() if value is not None}
    config = paths.config_file()
    try:
        return Settings(**given)
    except ValidationError as error:
        problems = [_problem(issue, given, config) for issue in error.errors()]
        raise SettingsError("; ".join(problems)) from None
    except SourceParseError as error:  # a list or dict from the environment that is no JSON
        field = re.search(r'field "(\w+)"', str(error))
        name = _env_name(field.group(1)) if field else "the environment"
        raise SettingsError(
            f'{name}: not valid JSON (a list is written ["a", "b"]): {error.__cause__ or error}'
        ) from None
    except UnicodeDecodeError:
        raise SettingsError(f"{config}: not UTF-8 text") from None
    except ValueError as error:  # tomllib.TOMLDecodeError
        raise SettingsError(f"{config}: not valid TOML: {error}") from None
    except OSError as error:
        raise SettingsError(f"{config}: cannot be read: {error.strerror or error}") from None


def _env_name(field: str) -> str:
    return f"{ENV_PREFIX}{field.upper()}"


def _problem(issue: Any, given: dict[str, Any], config: Path) -> str:
    """One validation issue as `<where it came from>: <what is wrong>`; the sources are
    looked at in the order they win: flags, then the environment, then the file."""
    field = str(issue["loc"][0]) if issue["loc"] else ""
    what = f"{issue['msg']} (got {issue['input']!r})"
    if field in given:
        return f"option {field}: {what}"
    env = _env_name(field)
    if any(key.upper() == env for key in os.environ):
        return f"{env}: {what}"
    return f"{config}: {'.'.join(map(str, issue['loc']))}: {what}"
