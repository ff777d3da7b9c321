"""Greedy choice of the next token under a GBNF grammar, the grammar asked about one token
first and about the whole vocabulary only when it rejects that one (llama.cpp's own order)."""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

_CELL = np.dtype([("id", np.int32), ("logit", np.float32), ("p", np.float32)], align=True)


class GreedySampler:
    """One answer's choices: the repetition penalty and the grammar as llama.cpp applies
    them, the first token's bias and the bias at every token, then the most likely token.
    The choice is the one applying the grammar to every token would make: when the best
    token overall is one the grammar allows, it is also the best among those it allows.
    Checking that one token costs microseconds; the grammar over 151k tokens costs about
    50 ms a token."""

    def __init__(
        self,
        llm: Any,
        grammar: str | None,
        repeat_penalty: float,
        first_bias: dict[int, float] | None = None,
        bias: dict[int, float] | None = None,
    ) -> None:
        import llama_cpp

        self._llm = llm
        self._n_vocab = int(llm.n_vocab())
        self._cells = np.zeros(self._n_vocab, dtype=_CELL)
        self._cells["id"] = np.arange(self._n_vocab, dtype=np.int32)
        self._one = np.zeros(1, dtype=_CELL)
        first = first_bias or {}
        self._bias_ids = np.array(list(first), dtype=np.int64)
        self._bias_values = np.array(list(first.values()), dtype=np.float32)
        steady = bias or {}
        self._steady_ids = np.array(list(steady), dtype=np.int64)
        self._steady_values = np.array(list(steady.values()), dtype=np.float32)
        self._first = True
        self.full_checks = 0  # choices the grammar had to make over the whole vocabulary
        self._penalties = llama_cpp.llama_sampler_init_penalties(
            self._n_vocab, llm.last_n_tokens_size, repeat_penalty, 0.0, 0.0
        )
        self._grammar = None
        if grammar is not None:
            vocab = llama_cpp.llama_model_get_vocab(llm._model.model)
            self._grammar = llama_cpp.llama_sampler_init_grammar(
                vocab, grammar.encode("utf-8"), b"root"
            )
            if not self._grammar:
                llama_cpp.llama_sampler_free(self._penalties)
                raise ValueError("llama.cpp could not parse the answer's grammar")

    def choose(self) -> int:
        """The next token from the logits of the last token read, accepted as chosen."""
        import llama_cpp

        logits = llama_cpp.llama_get_logits_ith(self._llm._ctx.ctx, -1)
        self._cells["logit"] = np.ctypeslib.as_array(logits, shape=(self._n_vocab,))
        self._cells["p"] = 0.0
        if self._first and self._bias_ids.size:
            self._cells["logit"][self._bias_ids] += self._bias_values
        self._first = False
        if self._steady_ids.size:
            self._cells["logit"][self._steady_ids] += self._steady_values
        self._apply(self._penalties, self._cells)
        token = int(np.argmax(self._cells["logit"]))  # the first of equal bests, as llama.cpp
        if self._grammar is not None and not self._allowed(token):
            self.full_checks += 1
            self._apply(self._grammar, self._cells)
            token = int(np.argmax(self._cells["logit"]))
        llama_cpp.llama_sampler_accept(self._penalties, token)
        if self._grammar is not None:
            llama_cpp.llama_sampler_accept(self._grammar, token)
        return token

    def _allowed(self, token: int) -> bool:
        self._one[0] = self._cells[token]
        self._apply(self._grammar, self._one)
        return bool(np.isfinite(self._one[0]["logit"]))

    @staticmethod
    def _apply(sampler: Any, cells: np.ndarray) -> None:
        import llama_cpp

        data = cells.ctypes.data_as(ctypes.POINTER(llama_cpp.llama_token_data))
        array = llama_cpp.llama_token_data_array(data, len(cells), -1, False)
        llama_cpp.llama_sampler_apply(sampler, ctypes.byref(array))

    def close(self) -> None:
        import llama_cpp

        for sampler in (self._penalties, self._grammar):
            if sampler:
                llama_cpp.llama_sampler_free(sampler)
        self._penalties = self._grammar = None
