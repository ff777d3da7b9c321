"""The Ruby oracle: the repository's own tests, run under a TracePoint (oracle_ruby.rb) that
writes down every call made from the repository's files and the method Ruby ran for it. It is
no type checker: it knows only the calls the tests run, and those exactly, dynamic dispatch,
mixins and `method_missing` included. A method that ran stands with the repository's methods
of that name it overrides (in its class's ancestors): a reader of the call may name those.

The tests run with `rspec` when the repository has `spec/**/*_spec.rb` files, else every
`test/**/*_test.rb` under Ruby's own minitest. A library the tests require that is not
installed is skipped (its examples fail; the calls that ran still count).

What it cannot say: a site the tests never reach, a call that ended in `method_missing` (no
method of that name ran), and which of two calls of one name on one line is which; such sites
count as unresolved by the oracle and are not judged."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections import defaultdict
from pathlib import Path

from app.bench.oracle import OracleUnavailable, Site, Target

TRACER = Path(__file__).with_name("oracle_ruby.rb")
TEST_TIMEOUT_S = 1_800
_MINITEST = "Dir[File.join(Dir.pwd, 'test', '**', '*_test.rb')].sort.each { |f| require f }"


def ruby_setup() -> tuple[str, str]:
    """`ruby`'s path and version line, or a clear reason why the oracle cannot run."""
    ruby = shutil.which("ruby")
    if ruby is None:
        raise OracleUnavailable(
            "the Ruby oracle runs the repository's tests: it needs Ruby 2.7 or later and "
            "RSpec (`ruby`, `rspec` on PATH), for example `apt-get install ruby ruby-rspec`"
        )
    done = subprocess.run([ruby, "--version"], capture_output=True, text=True, check=False)
    return ruby, (done.stdout.strip() or "ruby")


def _test_command(root: Path, ruby: str) -> list[str]:
    if next((root / "spec").glob("**/*_spec.rb"), None) is not None:
        rspec = shutil.which("rspec")
        if rspec is None:
            raise OracleUnavailable(
                "the Ruby oracle runs the repository's RSpec specs: `rspec` is not on PATH "
                "(for example `apt-get install ruby-rspec`)"
            )
        return [rspec, "--require", str(TRACER)]
    if next((root / "test").glob("**/*_test.rb"), None) is not None:
        return [ruby, "-Ilib", "-Itest", "-r", str(TRACER), "-rminitest/autorun", "-e", _MINITEST]
    raise OracleUnavailable(
        f"the Ruby oracle runs the repository's tests: {root} has no spec/**/*_spec.rb "
        "or test/**/*_test.rb"
    )


def ruby_answers(root: Path, sites: list[Site]) -> tuple[list[list[Target] | None], str]:
    """One answer per site, in order (None: the tests never ran a method of the site's name
    from its line), and the oracle's name."""
    ruby, version = ruby_setup()
    command = _test_command(root, ruby)
    with tempfile.TemporaryDirectory(prefix="repolens-ruby-oracle-") as work:
        out = Path(work) / "calls.jsonl"
        env = {**os.environ, "ORACLE_ROOT": str(root.resolve()), "ORACLE_OUT": str(out)}
        # Loaded before anything else, so a `.rspec` file's `--require spec_helper` (with its
        # `require "bundler/setup"`) already meets the tracer's `require`.
        env["RUBYOPT"] = f"-r{TRACER} {os.environ.get('RUBYOPT', '')}".strip()
        subprocess.run(
            command,
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=TEST_TIMEOUT_S,
            check=False,  # failing examples are expected; the calls that ran are what counts
        )
        if not out.is_file():
            raise OracleUnavailable(
                f"the Ruby oracle's test run wrote no trace: `{' '.join(command)}` in {root} "
                "stopped before its end"
            )
        ran = _calls_by_line(out.read_text(encoding="utf-8"))
    return [_answer(site, ran) for site in sites], f"the tests under TracePoint ({version})"


def _calls_by_line(text: str) -> dict[tuple[str, int], list[tuple[str, Target]]]:
    """The trace by caller (path, line): each call's name and what it ran."""
    ran: dict[tuple[str, int], list[tuple[str, Target]]] = defaultdict(list)
    for line in text.splitlines():
        path, at, called, method, target_path, target_line, above = json.loads(line)
        ran[(path, int(at))].append((called, Target(target_path, int(target_line), method)))
        ran[(path, int(at))].extend((called, Target(p, int(n), method)) for p, n in above)
    return ran


def _answer(
    site: Site, ran: dict[tuple[str, int], list[tuple[str, Target]]]
) -> list[Target] | None:
    """What the tests ran for this site: the methods called by its name from its line (Ruby
    reports a call on the line of its name or of its start). `Foo.new` also ran an
    `initialize`: the project's one when there is one."""
    lines = dict.fromkeys((site.name_line, site.line))
    seen = list(
        dict.fromkeys(ran_call for at in lines for ran_call in ran.get((site.path, at), []))
    )
    targets = [t for called, t in seen if called == site.name]
    if site.name == "new":
        targets += [t for _, t in seen if t.name == "initialize" and t not in targets]
        if any(t.path for t in targets):
            targets = [t for t in targets if t.path]
    return targets or None
