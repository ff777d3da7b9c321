"""Overloads of one name in one file (C#, Java, C++) take one slot of the results: the best
ranked stands for them, and `--explain` says so. Python `@overload` stubs are folded into
their implementation when the file is parsed, so it is one definition to begin with."""

from __future__ import annotations

from collections.abc import Callable

from app.search import overloads
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

STEPS = "".join(f"            var step{n} = fields.Length + {n};\n" for n in range(12))
WRITER_CS = (
    "namespace Csv\n{\n    public class CsvWriter\n    {\n"
    + "".join(
        f"        /// Writes one record of {t} fields, quoting each field that holds the "
        f"delimiter.\n        public void WriteRecord({t}[] fields)\n        {{\n{STEPS}"
        "            foreach (var field in fields) { Quote(field); }\n        }\n\n"
        for t in ("string", "int", "object", "double", "long")
    )
    + "    }\n}\n"
)
QUOTING_CS = (
    "namespace Csv\n{\n    public static class Quoting\n    {\n"
    "        /// Whether a field must be quoted: it holds the delimiter, a quote or a break.\n"
    "        public static bool NeedsQuotes(string field, char delimiter)\n        {\n"
    "            return field.IndexOf(delimiter) >= 0 || field.Contains('\"');\n"
    "        }\n    }\n}\n"
)
STUBS_PY = (
    "from typing import overload\n\n\n"
    "@overload\ndef write_record(fields: list[str]) -> None: ...\n\n\n"
    "@overload\ndef write_record(fields: list[int]) -> None: ...\n\n\n"
    "def write_record(fields):\n"
    '    """Writes one record, quoting each field that holds the delimiter."""\n'
    + "".join(f"    step{n} = len(fields) + {n}\n" for n in range(8))
    + "    for field in fields:\n        quote(field)\n"
)


QUESTION = "how is a record written, quoting each field that holds the delimiter?"


def test_overloads_take_one_slot(indexed: Indexed) -> None:
    files = {"src/Csv/CsvWriter.cs": WRITER_CS, "src/Csv/Quoting.cs": QUOTING_CS}
    hits = indexed(files).search(QUESTION).hits
    names = [(h.path, h.qualified_name) for h in hits if h.kind in overloads.FUNCTION_KINDS]
    assert len(names) == len(set(names)), names
    best = next(h for h in hits if h.path == "src/Csv/CsvWriter.cs")
    folded = [s for s in best.explanation.signals if s.name == "overloads"]
    assert folded and folded[0].factor == 1.0 and "more overload(s)" in folded[0].reason


def test_python_overload_stubs_are_one_hit_with_the_implementation(indexed: Indexed) -> None:
    hits = indexed({"csv/writer.py": STUBS_PY, "csv/Quoting.cs": QUOTING_CS}).search(QUESTION).hits
    records = [h for h in hits if h.path == "csv/writer.py" and h.kind in overloads.FUNCTION_KINDS]
    assert len(records) == 1, [(h.qualified_name, h.start_line) for h in records]
    assert "quote(field)" in records[0].text


def test_fold_keeps_the_best_of_each_group() -> None:
    keys = {"a": ("f.cs", "A.M"), "b": ("f.cs", "A.M"), "c": None, "d": ("g.cs", "A.M")}
    assert overloads.fold(["a", "c", "b", "d"], keys.get) == (["a", "c", "d"], {"a": ["b"]})


SAMPLE_STEPS = "".join(f"    let step{n} = k * {n} + result.count\n" for n in range(10))
SAMPLE_SWIFT = (
    "extension Collection {\n"
    "  /// Picks `k` random elements, keeping them in their original order.\n"
    "  public func randomStableSample<G: RandomNumberGenerator>(\n"
    "    count k: Int, using rng: inout G\n"
    "  ) -> [Element] {\n"
    "    var result: [Element] = []\n"
    f"{SAMPLE_STEPS}"
    "    return result\n"
    "  }\n\n"
    "  /// Picks `k` random elements, keeping them in their original order.\n"
    "  public func randomStableSample(count k: Int) -> [Element] {\n"
    "    var g = SystemRandomNumberGenerator()\n"
    "    return randomStableSample(count: k, using: &g)\n"
    "  }\n\n"
    "  /// Picks `k` random elements, keeping them in their original order, from a range.\n"
    "  public func randomStableSample(count k: Int, in range: Range<Index>) -> [Element] {\n"
    "    var g = SystemRandomNumberGenerator()\n"
    "    return self[range].randomStableSample(count: k, using: &g)\n"
    "  }\n"
    "}\n"
)


def test_swift_functions_with_other_argument_labels_are_not_overloads(indexed: Indexed) -> None:
    # Swift names a function by its labels: randomStableSample(count:using:) and
    # randomStableSample(count:) are two functions, each may be the answer.
    hits = (
        indexed({"Sources/RandomSample.swift": SAMPLE_SWIFT, "Quoting.cs": QUOTING_CS})
        .search("where is a random subset picked, keeping the original order?")
        .hits
    )
    starts = sorted(h.start_line for h in hits if h.symbol == "randomStableSample")
    assert starts == [2, 20, 26], [(h.qualified_name, h.start_line) for h in hits]
    assert overloads.swift_labels("func f(_ x: Int, by p: (A) -> B) {", "f") == "_:by:"
