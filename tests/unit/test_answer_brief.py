"""The brief's line per top hit: the first sentence of its doc comment as the parser read it."""

from __future__ import annotations

from pathlib import Path

from app.answer.brief import brief, first_doc_sentence
from app.core.settings import Settings
from app.service import Service

METHODS = "\n".join(
    f"    public int step{n}(int value) {{\n        return value + {n};\n    }}\n"
    for n in range(12)
)
LEDGER = f"""package demo;

/** Keeps the entries of one account. */
public class Ledger {{
{METHODS}
    /**
     * Settles every open entry against the balance, oldest first.
     * Entries that do not fit stay open.
     *
     * @param balance what the account holds
     */
    public int settleOpenEntries(int balance) {{
        int left = balance;
        for (int n = 0; n < 3; n++) {{
            left = left - n;
        }}
        return left;
    }}
}}
"""


def test_the_brief_reads_the_first_sentence_of_a_parsed_doc_comment() -> None:
    assert first_doc_sentence("Wait a bit. Then go.") == "Wait a bit."
    assert first_doc_sentence("dispatch req, res into this route\n@private") == (
        "dispatch req, res into this route"
    )
    assert first_doc_sentence("Router matches requests\nto handlers.\n\nMore.") == (
        "Router matches requests to handlers."
    )
    javadoc = "Prints the given {@code values} to {@link Appendable out}.\n<p>\nThe values"
    assert first_doc_sentence(javadoc) == "Prints the given values to Appendable out."
    assert first_doc_sentence('Fires <see cref="Trigger"/> with <c>args</c>.') == (
        "Fires Trigger with args."
    )
    assert first_doc_sentence("Returns a List<T> keyed by Map<K, B>.") == (
        "Returns a List<T> keyed by Map<K, B>."
    )
    assert first_doc_sentence("") == ""
    assert first_doc_sentence("@return nothing") == ""


def test_a_member_packed_under_its_owner_still_gets_its_doc_sentence(
    tmp_path: Path, settings: Settings
) -> None:
    # The packer puts the class's signature above a member whose class is not listed
    # (`public class Ledger {` then `...`): the brief once read that line as the doc's place
    # and showed no sentence for such members (117 of 336 excerpts of the answer eval).
    repo = tmp_path / "ledger"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "Ledger.java").write_text(LEDGER)
    service = Service(repo, settings)
    service.index(with_vectors=False)
    hits = service.search("settle open entries against the balance", k=1).hits
    assert hits[0].qualified_name == "Ledger.settleOpenEntries"
    assert hits[0].text.startswith("public class Ledger {\n    ...\n")
    assert [entry.summary for entry in brief(hits)] == [
        "Settles every open entry against the balance, oldest first."
    ]


def test_an_undocumented_hit_shows_its_signature_and_a_text_window_its_file_name(
    tmp_path: Path, settings: Settings
) -> None:
    repo = tmp_path / "ledger"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "ledger.py").write_text(
        "def settle_open_entries(\n    balance: int,\n    *, oldest_first: bool = True\n"
        ") -> int:\n    left = balance\n    for n in range(3):\n        left -= n\n"
        "    return left\n"
    )
    (repo / "NOTES.txt").write_text("Open entries are settled against the balance.\n" * 3)
    service = Service(repo, settings)
    service.index(with_vectors=False)
    hits = service.search("settle open entries against the balance", k=2).hits
    entries = {entry.path: entry for entry in brief(hits)}
    code = entries["src/ledger.py"]
    assert (code.symbol, code.summary) == ("settle_open_entries", "")
    assert code.signature == (
        "def settle_open_entries( balance: int, *, oldest_first: bool = True ) -> int:"
    )
    notes = entries["NOTES.txt"]
    assert (notes.symbol, notes.summary, notes.signature) == ("NOTES.txt", "", "")
