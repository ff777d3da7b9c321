"""reStructuredText, AsciiDoc and Org documents are read by section under their own headings,
as Markdown is; what only looks like a heading (code, literal blocks, tables) is no title."""

from __future__ import annotations

from app.indexer.chunk import parse_file
from app.parse.languages import PROSE_LANGUAGES

RST = """\
=========
 Routing
=========

How requests find their handler.

Rules
=====

A rule maps a path to a view::

    Rules
    =====
    (an indented literal block: no title)

Converters
----------

``<int:id>`` takes digits.

Host matching
=============

A paragraph's second line
with a line of dashes under it
------------------------------

``<host>`` is matched too.

+--------+--------+
| grid   | table  |
+========+========+
| a      | b      |
+--------+--------+
"""

ADOC = """\
= OS-Lib
:toc:

A library for working with files.

== Cookbook

=== Spawning a subprocess

[source,scala]
----
== not a title (a listing block)
os.proc("ls").call()
----

== Operations

// a comment line
# Markdown-style title
Text.
"""

ORG = """\
#+TITLE: notes
Preamble.

* Install
Run it.
#+begin_src sh
* not a headline
#+end_src
** From source
*bold* is no headline.
* Use
"""


def _rows(name: str, text: str) -> list[tuple[int, int, str, str, str]]:
    parsed = parse_file(name, text)
    assert parsed.strategy == "sections"
    assert {c.kind for c in parsed.chunks} == {"section"}
    return [(c.start_line, c.end_line, c.symbol, c.parent, c.signature) for c in parsed.chunks]


def test_restructuredtext_titles_by_adornment_order() -> None:
    assert _rows("docs/routing.rst", RST) == [
        (1, 5, "Routing", "", "Routing"),  # overlined: starts at the overline
        (7, 14, "Rules", "Routing", "Rules"),
        (16, 19, "Converters", "Routing > Rules", "Converters"),  # `-` came third: level 3
        (21, 34, "Host matching", "Routing", "Host matching"),
    ]
    assert parse_file("docs/routing.rst", RST).language == "rst"


def test_asciidoc_titles_outside_delimited_blocks() -> None:
    assert _rows("Readme.adoc", ADOC) == [
        (1, 4, "OS-Lib", "", "= OS-Lib"),
        (6, 6, "Cookbook", "OS-Lib", "== Cookbook"),
        (8, 14, "Spawning a subprocess", "OS-Lib > Cookbook", "=== Spawning a subprocess"),
        (16, 18, "Operations", "OS-Lib", "== Operations"),
        (19, 20, "Markdown-style title", "", "# Markdown-style title"),
    ]


def test_org_headlines_outside_blocks() -> None:
    assert _rows("NOTES.org", ORG) == [
        (1, 2, "", "", ""),  # the text before the first headline
        (4, 8, "Install", "", "* Install"),
        (9, 10, "From source", "Install", "** From source"),
        (11, 11, "Use", "", "* Use"),
    ]


def test_prose_formats_count_as_documentation_in_ranking() -> None:
    for name in ("README.md", "index.rst", "Readme.adoc", "NOTES.org", "notes.txt"):
        assert parse_file(name, "# x\ntext\n").language in PROSE_LANGUAGES, name
