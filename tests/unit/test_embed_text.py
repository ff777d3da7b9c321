"""What the embedding model reads for a chunk: the name in plain words beside the code."""

from __future__ import annotations

import numpy as np

from app.core.models import Chunk
from app.indexer.context import embed_text, header
from app.indexer.embed import Embedder
from app.search.tokenize import name_words

CATCH_BODY = """\
export const $ZodCatch = $constructor("$ZodCatch", (inst, def) => {
  inst._zod.parse = (payload, ctx) => {
    const result = def.innerType._zod.run(payload, ctx);
    if (result.issues.length) {
      payload.value = def.catchValue({ ...payload, error: { issues: result.issues } });
      payload.issues = [];
    }
    return payload;
  };
});"""


def _chunk(kind: str, name: str, text: str, language: str = "typescript") -> Chunk:
    return Chunk(
        path="v4/core/schemas.ts",
        language=language,
        kind=kind,
        symbol=name.rsplit(".", 1)[-1],
        qualified_name=name,
        parent="",
        start_line=1,
        end_line=text.count("\n") + 1,
        signature=text.split("\n", 1)[0],
        doc="",
        text=text,
    )


def test_a_name_reads_as_plain_words() -> None:
    assert name_words("BaseClient._redirect_method") == "base client redirect method"
    assert name_words("$ZodCatch") == "zod catch"
    assert name_words("HTTPServerError") == "http server error"
    assert name_words("parseJSON2") == "parse json 2"


def test_a_chunk_gets_its_name_in_words_after_the_header() -> None:
    code = embed_text(_chunk("function", "$ZodCatch", CATCH_BODY), 4000)
    lines = code.split("\n")
    assert lines[0].startswith("v4/core/schemas.ts | ")
    assert lines[1] == "zod catch"
    assert code.endswith(CATCH_BODY)
    window = _chunk("window", "", "x = 1\ny = 2")  # nothing named: nothing added
    assert embed_text(window, 4000) == f"{header(window)}\n{window.text}"


def test_the_words_bring_a_plain_question_closer_to_the_code_it_asks_about() -> None:
    embedder = Embedder(max_tokens=384)
    question = "how does catch recover from a failed parse"
    with_words = embed_text(_chunk("function", "$ZodCatch", CATCH_BODY), 4000)
    without_words = with_words.replace("\nzod catch\n", "\n", 1)
    assert without_words != with_words
    vectors = embedder.embed([question, with_words, without_words])
    closer, farther = float(np.dot(vectors[0], vectors[1])), float(np.dot(vectors[0], vectors[2]))
    assert closer > farther
