"""llama.cpp behind one small class: load a GGUF once, keep it warm, stream a completion that
can be cancelled between prompt batches and between tokens."""

from __future__ import annotations

import io
import os
import threading
import time
from collections.abc import Callable, Iterable
from contextlib import redirect_stderr
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from app.answer.backends import prepare_llama
from app.answer.model import DEFAULT_GGUF_NAME, AnswerModelUnavailable
from app.answer.sampling import GreedySampler

# Prompt tokens per llama_decode call. Cancellation does not wait for a step to end: an abort
# callback stops llama.cpp between graph nodes (milliseconds).
PREFILL_STEP = 256
_CHATML_STOPS = ["<|im_end|>", "<|endoftext|>"]
REPEAT_PENALTY = 1.05
ReadingCallback = Callable[[int, int], None]  # prompt tokens read so far, tokens to read


@dataclass(frozen=True, slots=True)
class Generation:
    text: str
    prompt_tokens: int
    tokens: int
    prefill_ms: float  # prompt evaluation (tokens not already in the warm cache)
    first_token_ms: float | None  # from the start of generate to the first text
    decode_ms: float  # from the first text to the end
    finish: str  # "stop", "length" or "cancelled"
    reused: int = 0  # prompt tokens found in the warm cache (not read again)
    # Tokens for which the grammar had to rule over the whole vocabulary: the model's own
    # best token broke it (GreedySampler).
    full_grammar_checks: int = 0
    wait_ms: float = 0.0  # waiting for the model: another reading (a read-ahead) held it

    @property
    def tokens_per_s(self) -> float:
        if self.tokens <= 1 or self.decode_ms <= 0:
            return 0.0
        return (self.tokens - 1) / (self.decode_ms / 1000)


def never() -> bool:
    """The cancellation check of work nothing cancels."""
    return False


def default_threads() -> int:
    return max(1, min(os.cpu_count() or 1, 8))


class LocalModel:
    """A loaded GGUF. One generation at a time (llama.cpp contexts are not thread-safe)."""

    def __init__(self, path: Path, *, n_ctx: int, threads: int, flash_attn: bool) -> None:
        # llama.cpp's OpenMP workers spin while they wait; on two cores shared with the
        # embedder (or anything else) the spinning starves everyone: 3.0 tokens/s instead of
        # 16.4 in the same loaded run. Read by libgomp when llama_cpp first loads it.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            from llama_cpp import Llama
        except ImportError as error:
            raise AnswerModelUnavailable(
                f"llama-cpp-python is not installed ({error}): run the README's set-up command"
            ) from error
        prepare_llama(path)
        self.path = path
        self.n_ctx = n_ctx
        self.lock = threading.Lock()
        started = time.perf_counter()
        try:
            self.llm: Any = _quiet_load(
                Llama,
                model_path=str(path),
                n_ctx=n_ctx,
                n_threads=threads,
                n_threads_batch=threads,
                flash_attn=flash_attn,
            )
        except (ValueError, RuntimeError, OSError) as error:
            fix = (
                "delete it and run again to re-assemble it"
                if path.name == DEFAULT_GGUF_NAME
                else "choose a complete GGUF file with --model-file FILE"
            )
            raise AnswerModelUnavailable(
                f"llama.cpp could not load {path}: the file is truncated, corrupt or not a "
                f"supported GGUF model ({error}); {fix}"
            ) from error
        self.load_ms = round((time.perf_counter() - started) * 1000, 1)
        self.warm_ms: float | None = None  # reading the fixed prefix at load (Answerer.model)
        self._formatter = self._make_formatter()
        self._stop: Callable[[], bool] = never
        self._install_abort_callback()

    def _install_abort_callback(self) -> None:
        import llama_cpp

        def abort(_data: Any) -> bool:
            return bool(self._stop())

        self._abort = llama_cpp.ggml_abort_callback(abort)  # kept: C holds only a pointer
        llama_cpp.llama_set_abort_callback(self.llm._ctx.ctx, self._abort, None)

    def _make_formatter(self) -> Any:
        from llama_cpp.llama_chat_format import Jinja2ChatFormatter

        template = self.llm.metadata.get("tokenizer.chat_template")
        if not template:
            return None
        model = self.llm._model
        eos, bos = self.llm.token_eos(), self.llm.token_bos()
        return Jinja2ChatFormatter(
            template=template,
            eos_token=model.token_get_text(eos) if eos != -1 else "",
            bos_token=model.token_get_text(bos) if bos != -1 else "",
        )

    def prompt_tokens(self, messages: list[dict[str, str]]) -> tuple[list[int], list[str]]:
        """The chat-formatted prompt as tokens, and the stop strings of its template."""
        if self._formatter is None:  # no template in the file: ChatML, the common default
            text = "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages)
            text += "<|im_start|>assistant\n"
            return self.llm.tokenize(text.encode(), add_bos=False, special=True), _CHATML_STOPS
        response = self._formatter(messages=messages)
        stops = response.stop if isinstance(response.stop, list) else [response.stop or ""]
        tokens = self.llm.tokenize(
            response.prompt.encode(), add_bos=not response.added_special, special=True
        )
        return tokens, [s for s in stops + _CHATML_STOPS if s]

    def count_tokens(self, text: str) -> int:
        return len(self.llm.tokenize(text.encode(), add_bos=False, special=False))

    def generate(
        self,
        tokens: list[int],
        *,
        max_tokens: int,
        stop: list[str],
        on_text: Callable[[str], None],
        cancelled: Callable[[], bool],
        on_progress: ReadingCallback | None = None,
        grammar: str | None = None,
        first_bias: dict[int, float] | None = None,
        bias: dict[int, float] | None = None,
    ) -> Generation:
        """`grammar`: GBNF the answer must follow (app.answer.grammar); `first_bias`: added
        to these tokens' logits at the answer's first token only; `bias`: at every token."""
        asked = time.perf_counter()
        with self.lock:
            waited = _ms(asked)
            self._stop = cancelled
            try:
                generation = self._generate(
                    tokens, max_tokens, stop, on_text, cancelled, on_progress, grammar,
                    first_bias, bias,
                )  # fmt: skip
                return replace(generation, wait_ms=waited)
            except RuntimeError:  # llama_decode returned "aborted"
                if not cancelled():
                    raise
                return Generation("", len(tokens), 0, 0.0, None, 0.0, "cancelled")
            finally:
                self._stop = never

    def _generate(
        self,
        tokens: list[int],
        max_tokens: int,
        stop: list[str],
        on_text: Callable[[str], None],
        cancelled: Callable[[], bool],
        on_progress: ReadingCallback | None,
        grammar: str | None,
        first_bias: dict[int, float] | None,
        bias: dict[int, float] | None,
    ) -> Generation:
        llm = self.llm
        started = time.perf_counter()
        shared = _keep_shared_prefix(llm, tokens)
        unread = len(tokens) - 1 - shared
        for start in range(shared, len(tokens) - 1, PREFILL_STEP):
            if cancelled():
                return Generation("", len(tokens), 0, _ms(started), None, 0.0, "cancelled")
            if on_progress is not None:
                on_progress(start - shared, unread)
            llm.eval(tokens[start : min(start + PREFILL_STEP, len(tokens) - 1)])
        prefill_ms = _ms(started)
        sampler = GreedySampler(llm, grammar, REPEAT_PENALTY, first_bias, bias)
        try:
            cut, finish, first_at = self._decode(
                tokens, max_tokens, stop, on_text, cancelled, sampler
            )
        finally:
            sampler.close()
        ended = time.perf_counter()
        generated = max(0, llm.n_tokens - len(tokens))
        first_ms = round((first_at - started) * 1000, 1) if first_at is not None else None
        decode_ms = round((ended - first_at) * 1000, 1) if first_at is not None else 0.0
        return Generation(
            cut.shown, len(tokens), generated, prefill_ms, first_ms, decode_ms, finish, shared,
            sampler.full_checks,
        )  # fmt: skip

    def _decode(
        self,
        tokens: list[int],
        max_tokens: int,
        stop: list[str],
        on_text: Callable[[str], None],
        cancelled: Callable[[], bool],
        sampler: GreedySampler,
    ) -> tuple[_StopCut, str, float | None]:
        """Write from the prompt `tokens` (all but the last already read) as llama-cpp-python's
        create_completion does, token by token: its text, why it ended, when text first came."""
        import llama_cpp

        llm = self.llm
        cut = _StopCut(stop)
        written: list[int] = []
        first_at: float | None = None
        finish = "length"
        llm.eval(tokens[-1:])
        while len(written) < max_tokens:
            if cancelled():
                return cut, "cancelled", first_at
            token = sampler.choose()
            if llama_cpp.llama_vocab_is_eog(llm._model.vocab, token):
                finish = "stop"
                break
            written.append(token)
            piece = cut.feed(llm.detokenize(written, prev_tokens=tokens))
            if piece:
                first_at = first_at or time.perf_counter()
                on_text(piece)
            if cut.stopped:
                finish = "stop"
                break
            if len(written) < max_tokens:  # the last token is not read: nothing follows it
                try:
                    llm.eval([token])
                except RuntimeError:  # "aborted": stopped while it read (the answer's timings stay)
                    if not cancelled():
                        raise
                    return cut, "cancelled", first_at
        rest = cut.rest()
        if rest:
            first_at = first_at or time.perf_counter()
            on_text(rest)
        return cut, finish, first_at

    def warm(self, tokens: list[int], cancelled: Callable[[], bool] = never) -> float | None:
        """Read `tokens` into the cache now (the fixed prefix, at load) so that the next prompt
        that starts with them does not; the milliseconds it took, or None when `cancelled`
        stopped it first (a person quitting while the TUI preloads)."""
        with self.lock:
            self._stop = cancelled
            started = time.perf_counter()
            self.llm.reset()
            try:
                for start in range(0, len(tokens), PREFILL_STEP):
                    if cancelled():
                        return None
                    self.llm.eval(tokens[start : start + PREFILL_STEP])
            except RuntimeError:  # llama_decode returned "aborted"
                if not cancelled():
                    raise
                return None
            finally:
                self._stop = never
            return _ms(started)

    def read_ahead(self, tokens: list[int], cancelled: Callable[[], bool]) -> int:
        """Read the prompt `tokens` into the cache now (all but the last, as a generation
        does), so that generating from the same prompt starts at once; stops within
        milliseconds when `cancelled`. The tokens read."""
        with self.lock:
            self._stop = cancelled
            llm = self.llm
            shared = _keep_shared_prefix(llm, tokens)
            try:
                for start in range(shared, len(tokens) - 1, PREFILL_STEP):
                    if cancelled():
                        break
                    llm.eval(tokens[start : min(start + PREFILL_STEP, len(tokens) - 1)])
            except RuntimeError:  # llama_decode returned "aborted": what was read stays
                if not cancelled():
                    raise
            finally:
                self._stop = never
            return int(llm.n_tokens) - shared

    def opening_tokens(self, text: str) -> list[int]:
        """The tokens a completion that writes `text` can start with: each one-token prefix."""
        found: list[int] = []
        for end in range(1, len(text) + 1):
            ids = self.llm.tokenize(text[:end].encode(), add_bos=False, special=False)
            if len(ids) == 1 and ids[0] not in found:
                found.append(ids[0])
        return found

    def word_tokens(self, words: Iterable[str]) -> set[int]:
        """The tokens that write each word whole, alone or after a space, lower-case or
        capitalised as a sentence would ("redirect", " redirect", " Redirect")."""
        found: set[int] = set()
        for word in words:
            for form in (word, f" {word}", f" {word.capitalize()}"):
                ids = self.llm.tokenize(form.encode(), add_bos=False, special=False)
                if len(ids) == 1:
                    found.add(ids[0])
        return found

    def forget_from(self, position: int) -> None:
        """The warm cache keeps its first `position` tokens only: the next prompt reads the
        rest again, as after a different question."""
        with self.lock:
            self.llm.n_tokens = min(self.llm.n_tokens, position)

    def raw_generate(self, tokens: list[int], *, max_tokens: int) -> Generation:
        """The baseline: llama-cpp-python's own streaming on a cold cache, no app around it."""
        with self.lock:
            self.llm.reset()
            started = time.perf_counter()
            first_at: float | None = None
            stream = self.llm.create_completion(
                prompt=tokens, max_tokens=max_tokens, temperature=0.0, stream=True
            )
            for chunk in stream:
                if first_at is None and chunk["choices"][0]["text"]:
                    first_at = time.perf_counter()
            ended = time.perf_counter()
            generated = max(0, self.llm.n_tokens - len(tokens))
            first_ms = round((first_at - started) * 1000, 1) if first_at is not None else None
            decode_ms = round((ended - first_at) * 1000, 1) if first_at is not None else 0.0
            return Generation("", len(tokens), generated, 0.0, first_ms, decode_ms, "stop")


_LOADED: dict[tuple[str, int, int, bool], LocalModel] = {}
_LOADED_LOCK = threading.Lock()


def load_model(path: Path, *, n_ctx: int, threads: int, flash_attn: bool) -> LocalModel:
    """The warm model for this file and shape; loaded on first use, then shared."""
    key = (str(path.resolve()), n_ctx, threads, flash_attn)
    with _LOADED_LOCK:
        model = _LOADED.get(key)
        if model is None:
            model = LocalModel(path, n_ctx=n_ctx, threads=threads, flash_attn=flash_attn)
            _LOADED[key] = model
        return model


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)


def _quiet_load(llama: Any, **params: Any) -> Any:
    """Load a model with nothing printed and the process's file descriptors left alone.

    With verbose=False llama-cpp-python points descriptors 1 and 2 at /dev/null for the load
    (dup2, process-wide, about a second). Under the TUI descriptor 2 is the terminal Textual
    draws on from its own thread: every frame of that second would go to /dev/null while
    Textual takes it as shown, and the results or code it drew stay blank until repainted.
    verbose=True skips the redirection; its log lines are dropped (`backends.drop_llama_log`),
    its prints (system info, metadata: Python's sys.stderr only) go to a buffer, and
    generation prints nothing after."""
    with redirect_stderr(io.StringIO()):
        llm = llama(**params, verbose=True)
    llm.verbose = False
    return llm


class _StopCut:
    """A completion's text as it grows: what is safe to show (no part of a stop string, no
    half of a UTF-8 character), and where the first stop string ends it."""

    def __init__(self, stops: list[str]) -> None:
        self._stops = [s.encode() for s in stops if s]
        self._data = b""
        self._sent = 0
        self._end: int | None = None  # where the first stop string begins
        self.shown = ""

    @property
    def stopped(self) -> bool:
        return self._end is not None

    def feed(self, data: bytes) -> str:
        """`data`: the whole completion so far; the text newly safe to show."""
        self._data = data
        found = [data.find(s) for s in self._stops if s in data]
        if found:
            self._end = min(found)
            return ""
        held = max((_stop_prefix_at_end(data, s) for s in self._stops), default=0)
        return self._send(_whole_characters(data, len(data) - held))

    def rest(self) -> str:
        """The text not shown yet, up to the stop string if one came."""
        return self._send(len(self._data) if self._end is None else self._end)

    def _send(self, end: int) -> str:
        if end <= self._sent:
            return ""
        piece = self._data[self._sent : end].decode("utf-8", errors="ignore")
        self._sent = end
        self.shown += piece
        return piece


def _stop_prefix_at_end(data: bytes, stop: bytes) -> int:
    """How many of `data`'s last bytes begin `stop` (they may yet become it)."""
    for size in range(min(len(stop) - 1, len(data)), 0, -1):
        if data.endswith(stop[:size]):
            return size
    return 0


def _whole_characters(data: bytes, end: int) -> int:
    """`end`, moved back before a UTF-8 character whose last bytes are not there yet."""
    for back in range(1, min(4, end) + 1):
        byte = data[end - back]
        if byte < 0x80:
            return end
        if byte >= 0xC0:  # a lead byte: its character needs this many bytes
            size = 2 if byte < 0xE0 else 3 if byte < 0xF0 else 4
            return end if back >= size else end - back
    return end


def _keep_shared_prefix(llm: Any, tokens: list[int]) -> int:
    """Keep the cache's tokens that begin `tokens` (the instructions and the worked examples,
    usually; all but the last token, which a generation reads itself) and forget the rest;
    how many were kept."""
    cached = llm.input_ids[: llm.n_tokens].tolist()
    shared = 0
    for old, new in zip(cached, tokens[:-1], strict=False):
        if old != new:
            break
        shared += 1
    llm.n_tokens = shared
    return shared
