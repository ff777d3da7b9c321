"""A query's member syntax in any language (`Url::parse`, `Mash#fetch`, `$mailer->send()`,
`Vendor\\Mail\\Mailer`) meets `Owner.member` names as `Owner.member` does."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.search.tokenize import identifiers, member_names
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

FILLER = "".join(f"    // step {n}: read the next part of the input, keep it\n" for n in range(45))


@pytest.mark.parametrize(
    ("query", "pairs"),
    [
        ("how does Url::parse handle ports", ["url.parse"]),
        ("what does Foo::bar() return", ["foo.bar"]),
        ("Mash#fetch with a default", ["mash.fetch"]),
        ("when is $mailer->sendMail() retried", ["mailer.sendmail"]),
        ("the Vendor\\Mail\\Mailer class", ["mail.mailer"]),
        ("issue #123 in C# code", []),
        ("Expression.compile", ["expression.compile"]),
    ],
)
def test_member_syntax_reads_as_owner_member(query: str, pairs: list[str]) -> None:
    assert member_names(query) == pairs


def test_a_namespace_path_names_its_last_part() -> None:
    assert identifiers("the Vendor\\Mail\\Mailer class") == ["Mailer"]


@pytest.mark.parametrize(
    ("files", "query", "path", "pair"),
    [
        (
            {
                "src/url.rs": "pub struct Url { s: String }\n\nimpl Url {\n"
                f"    pub fn parse(s: &str) -> Url {{\n{FILLER}        Url {{ s: s.into() }}\n"
                "    }\n}\n",
                "src/host.rs": "/// Parse the host and the ports of a url.\n"
                "pub fn parse(url: &str) -> u16 {\n    url.len() as u16 // ports of a url\n}\n",
            },
            "how does Url::parse read the ports of a url?",
            "src/url.rs",
            "url.parse",
        ),
        (
            {
                "lib/mash.rb": "class Mash\n  def fetch(key, default = nil)\n"
                + FILLER.replace("//", "#")
                + "    self[key] || default\n  end\nend\n",
                "lib/cache.rb": "# fetch a key with a default value\n"
                "def fetch(key, default)\n  default # a key with a default\nend\n",
            },
            "what does Mash#fetch return for a missing key with a default?",
            "lib/mash.rb",
            "mash.fetch",
        ),
        (
            {
                "src/Mailer.php": "<?php\nclass Mailer\n{\n    public function sendMail($to)\n"
                f"    {{\n{FILLER}        return $to;\n    }}\n}}\n",
                "src/Retry.php": "<?php\n// when a mail is retried: send mail again\n"
                "function sendMail($to) { return retry($to); }\n",
            },
            "when is $mailer->sendMail() retried?",
            "src/Mailer.php",
            "mailer.sendmail",
        ),
    ],
)
def test_member_syntax_finds_the_member(
    indexed: Indexed, files: dict[str, str], query: str, path: str, pair: str
) -> None:
    hit = next(h for h in indexed(files).search(query).hits if h.path == path)
    reasons = [s.reason for s in hit.explanation.signals if s.name == "exact-name"]
    assert reasons == [f"the query names `{pair}`, defined here"]
