"""A search that asks what a definition calls, or what calls it, is answered from the call
graph: the neighbours join the top hits, the definition asked about stays in the list."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.search.calls import CALLEES, CALLERS, CallQuestion, question_of
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

# Definitions whose names and text share the question's words (`process`, `call`), so BM25
# and the vectors rank them above the real callees and callers, whose words are their own.
DISTRACTORS = "".join(
    f'''
def process_call_{n}(calls):
    """Process the call queue {n}: each call is processed, then the call returns."""
    processed = [call for call in calls if call]
    return processed
'''
    for n in range(12)
) + "".join(
    f'''
def strip_comments_{n}(source):
    """Like strip_comments, for block {n}: who calls it gets the comments stripped."""
    stripped = [comment for comment in source if comment]
    return stripped
'''
    for n in range(12)
)

PIPELINE = '''
from text import fold_whitespace, drop_byte_order_mark


class Pipeline:
    def process(self, raw):
        """Process the raw input and call each step."""
        text = drop_byte_order_mark(raw)
        return fold_whitespace(text)
'''

TEXT = '''
def fold_whitespace(text):
    """Runs of blanks become one space."""
    return " ".join(text.split())


def drop_byte_order_mark(text):
    """A leading BOM is removed."""
    return text[1:] if text.startswith("\\ufeff") else text


def strip_comments(lines):
    """Lines starting with a hash are left out."""
    kept = [line for line in lines if not line.startswith("#")]
    return kept
'''

READERS = '''
from text import strip_comments


def read_settings(lines):
    """Settings file lines, parsed into pairs."""
    pairs = [line.split("=", 1) for line in strip_comments(lines)]
    return dict(pairs)


def read_hosts(lines):
    """The hosts file, one name per line."""
    names = [line.strip() for line in strip_comments(lines)]
    return names
'''

FILES = {"pipeline.py": PIPELINE, "text.py": TEXT, "readers.py": READERS, "calls.py": DISTRACTORS}


@pytest.mark.parametrize(
    ("query", "direction", "name"),
    [
        ("What does App::_process call?", CALLEES, "App._process"),
        ("what does Hashie::Mash#custom_writer call", CALLEES, "Hashie.Mash.custom_writer"),
        ("What functions does `parse_url` call?", CALLEES, "parse_url"),
        ("What does Seq.sample(count:using:) call?", CALLEES, "Seq.sample"),
        ("callees of Router.dispatch", CALLEES, "Router.dispatch"),
        ("Who calls CSVParser.nextRecord?", CALLERS, "CSVParser.nextRecord"),
        ("What calls twig_check_arrow_in_sandbox?", CALLERS, "twig_check_arrow_in_sandbox"),
        ("where is $mailer->send used?", CALLERS, "mailer.send"),
        ("callers of Graph::change_edge_links", CALLERS, "Graph.change_edge_links"),
    ],
)
def test_call_questions_are_read_with_their_name(query: str, direction: str, name: str) -> None:
    assert question_of(query) == CallQuestion(direction, name)


@pytest.mark.parametrize(
    "query",
    [
        "how are route callbacks called after a match?",
        "where is the proxy used when the environment sets one?",
        "what does the client do on a redirect?",
        "how the observable pattern is used for subscriptions",
        "What does Pipeline.process return?",
    ],
)
def test_other_questions_are_not_call_questions(query: str) -> None:
    assert question_of(query) is None


def _top(service: Service, query: str, k: int = 5) -> list[str]:
    return [hit.qualified_name for hit in service.search(query, k=10).hits[:k]]


def test_what_x_calls_puts_its_callees_in_the_top_five(indexed: Indexed) -> None:
    service = indexed(FILES)
    query = "What does Pipeline.process call?"
    searcher = service.searcher()
    searcher.call_graph, graph = None, searcher.call_graph
    without = _top(service, query)
    # Without the graph, the words of the question find the distractors, not the callees.
    assert "fold_whitespace" not in without and "drop_byte_order_mark" not in without
    searcher.call_graph = graph
    hits = service.search(query, k=10).hits
    top = [hit.qualified_name for hit in hits[:5]]
    assert {"fold_whitespace", "drop_byte_order_mark"} <= set(top)
    assert "pipeline.py" in [hit.path for hit in hits]  # the small class is one chunk
    reasons = {
        signal.reason
        for hit in hits
        if hit.qualified_name == "fold_whitespace"
        for signal in hit.explanation.signals
        if signal.name == "called-by"
    }
    assert reasons == {"called by `Pipeline.process` (certain, 0.95)"}, reasons


def test_who_calls_x_puts_its_callers_first(indexed: Indexed) -> None:
    service = indexed(FILES)
    # Without the graph, the vectors find one caller at #5 and the other below the
    # functions whose docs name strip_comments.
    top = _top(service, "Who calls strip_comments?", k=3)
    assert {"read_settings", "read_hosts"} <= set(top)


def test_a_question_of_no_call_form_ranks_exactly_as_without_the_graph(
    indexed: Indexed,
) -> None:
    service = indexed(FILES)
    query = "how does the pipeline process the raw input and call each step?"
    with_graph = [(h.chunk_id, h.score) for h in service.search(query, k=10).hits]
    service.searcher().call_graph = None
    assert with_graph == [(h.chunk_id, h.score) for h in service.search(query, k=10).hits]


def test_a_name_no_definition_has_ranks_as_without_the_graph(indexed: Indexed) -> None:
    service = indexed(FILES)
    query = "What does Pipeline.nothing_here call?"
    with_graph = [(h.chunk_id, h.score) for h in service.search(query, k=10).hits]
    service.searcher().call_graph = None
    assert with_graph == [(h.chunk_id, h.score) for h in service.search(query, k=10).hits]
