"""Test, example and generated code is known by its role in every claimed language, and ranks
below the library code it exercises or was generated from."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.core.paths import (
    EXAMPLE,
    TEST,
    generated_header,
    generated_name,
    in_test_module,
    path_role,
    ui_preview,
)
from app.search import diversity, rerank
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]


@pytest.mark.parametrize(
    ("path", "role"),
    [
        ("src/Stateless.Tests/StateMachineFixture.cs", TEST),  # C# test project
        ("src/MyLib.UnitTests/ParserFacts.cs", TEST),
        ("src/Csv/CsvParserTester.cs", TEST),
        ("src/Data/StackSpec.hs", TEST),
        ("src/Csv/CsvParserTests.cs", TEST),
        ("src/test/java/org/apache/csv/CSVParserTest.java", TEST),  # Java, Kotlin
        ("lib/src/main/java/org/apache/csv/LexerTest.java", TEST),
        ("core/src/commonTest/kotlin/org/koin/ModuleTest.kt", TEST),
        ("core/src/jvmTest/kotlin/org/koin/InstanceTest.kt", TEST),
        ("spec/hashie/mash_spec.rb", TEST),  # Ruby
        ("lib/hashie/extensions/coercion_spec.rb", TEST),
        ("polls/tests.py", TEST),  # Django's tests module of an app
        ("hc/test.py", TEST),
        ("tokio/src/fs/file/tests.rs", TEST),  # Rust's out-of-line `mod tests;`
        ("src/DataFixtures/AppFixtures.php", TEST),  # made-up data: Symfony, Laravel
        ("database/factories/UserFactory.php", TEST),
        ("database/seeders/TagSeeder.php", TEST),
        ("e2e/helpers/articles.ts", TEST),  # end-to-end tests: Angular, Playwright, Cypress
        ("cypress/support/commands.js", TEST),
        ("src/login.cy.ts", TEST),
        ("test/app.e2e.ts", TEST),
        ("tests/graph.rs", TEST),  # Rust
        ("benches/dijkstra.rs", TEST),
        ("tests/Twig/Tests/EnvironmentTest.php", TEST),  # PHP
        ("Tests/SwiftAlgorithmsTests/ChunkedTests.swift", TEST),  # Swift
        ("UnitTests/Mocks/MockedSystemPermissions.swift", TEST),  # an Xcode test target
        ("App/DeepLinkUITests.swift", TEST),
        ("tests/AppTest.cpp", TEST),  # C++
        ("test/ParserTest.cpp", TEST),
        ("test-utils/common/src/TestBase.common.kt", TEST),  # test helpers, as named
        ("lib/testutils/server.go", TEST),
        ("core/src/testFixtures/kotlin/Fakes.kt", TEST),
        ("spring/test-support/src/main/java/Mocks.java", TEST),
        ("exposed-tests/src/main/kotlin/DatabaseTestsBase.kt", TEST),  # a module of tests
        ("ui/android/android-unit-tests/src/Dispatchers.kt", TEST),
        ("test_suite/no_std/src/main.rs", TEST),
        ("integration_test/cases/repo.exs", TEST),
        ("integration-testing/src/jvmCoreTest/kotlin/Stack.kt", TEST),
        ("src/java8Test/kotlin/Futures.kt", TEST),
        ("examples/subcommands.cpp", EXAMPLE),
        ("example/AlarmExample/Program.cs", EXAMPLE),
        ("_examples/rest/main.go", EXAMPLE),
        ("samples/basic.kt", EXAMPLE),
        ("benchmarks/mash_bench.rb", EXAMPLE),
        ("absl/strings/str_cat_benchmark.cc", EXAMPLE),  # benchmarks named for what they measure
        ("src/parse.bench.ts", EXAMPLE),
        ("lib/encode-bench.js", EXAMPLE),
        ("src/main/java/org/apache/ParserBenchmark.java", EXAMPLE),
        ("src/MessagePack.Benchmarks/SerializerBenchmarks.cs", EXAMPLE),
        ("src/jmh/java/org/apache/Lexing.java", EXAMPLE),
        ("src/Snippets/Docs/Retry.cs", EXAMPLE),  # code written for the documentation
        ("docs_src/body/tutorial001.py", EXAMPLE),
        ("demo/app.js", EXAMPLE),
        ("bench/Polly.Core.Benchmarks/RetryBenchmark.cs", EXAMPLE),  # a `bench/` folder
        ("perftests/bench1/src/perftests/FastParseParser.scala", EXAMPLE),
        ("lib/workbench/bench_press.py", ""),  # a folder only named like one
        ("lib/snippet.rb", ""),
        ("src/benchmark_register.cc", ""),  # google/benchmark's own library code
        ("src/pytest_benchmark/plugin.py", ""),
        ("src/Benchmark.java", ""),
        ("src/Stateless/StateMachine.cs", ""),
        ("src/main/java/org/apache/csv/Latest.java", ""),
        ("src/Contest.java", ""),
        ("src/TwigTest.php", ""),  # a Twig template test is library code
        ("lib/attest.rb", ""),
        ("src/sampler.py", ""),
        ("core/src/commonMain/kotlin/org/koin/Koin.kt", ""),
        # Libraries for their users' tests are the product: singular `-test`, `_test`.
        ("kotlinx-coroutines-test/common/src/TestBuilders.kt", ""),
        ("projects/core/koin-test/src/commonMain/kotlin/Verify.kt", ""),
        ("serde_test/src/de.rs", ""),
        ("src/_pytest/fixtures.py", ""),  # pytest's own code
        ("src/_pytest/pytester.py", ""),
        ("src/latest/Contests.kt", ""),
        ("src/attests.py", ""),
        ("src/Factories/UserFactory.php", ""),  # a factory of the app's own
        ("database/migrations/2024_create_users.php", ""),
        ("src/tests.go", ""),
        ("src/e2e.ts", ""),  # a module named so is no folder of tests
        ("src/privacy.ts", ""),
        # A JVM package's folders below its source root name the package, not examples.
        ("app/src/main/java/com/google/samples/apps/sunflower/GardenActivity.kt", ""),
        ("src/main/java/org/springframework/samples/petclinic/vet/Vet.java", ""),
        ("src/main/kotlin/com/example/demo/DemoApplication.kt", ""),
        ("examples/app/src/main/java/com/acme/Main.java", EXAMPLE),  # above the root
        ("src/main/java/com/acme/demo/ParserBenchmark.java", EXAMPLE),  # named as one
    ],
)
def test_path_roles_per_language(path: str, role: str) -> None:
    assert path_role(path) == role


def test_a_rust_test_module_is_test_code() -> None:
    assert in_test_module("rust", "function", "tests.splits", "tests")
    assert in_test_module("rust", "module", "graph.tests", "graph")
    assert not in_test_module("rust", "function", "test", "")
    assert not in_test_module("rust", "function", "attests.f", "attests")
    assert not in_test_module("python", "function", "tests.f", "tests")


LIBRARY_CS = """namespace Csv
{
    public class CsvReader
    {
        /// Splits one record into fields at each delimiter, honouring quotes.
        public string[] SplitRecord(string line, char delimiter)
        {
            var fields = new List<string>();
            var inQuotes = false;
            foreach (var c in line) { if (c == '"') inQuotes = !inQuotes; }
            return fields.ToArray();
        }
    }
}
"""
TESTER_CS = """namespace Csv.Tests
{
    public class CsvReaderTester
    {
        public void SplitRecordSplitsARecordIntoFieldsAtEachDelimiter()
        {
            var fields = new CsvReader().SplitRecord("a,b", ',');
            Assert.Equal(new[] { "a", "b" }, fields); // one record, fields, each delimiter
        }
    }
}
"""
LIBRARY_RS = """/// Splits one record into fields at each delimiter, honouring quotes.
pub fn split_record(line: &str, delimiter: char) -> Vec<String> {
    let mut fields = Vec::new();
    let mut in_quotes = false;
    for c in line.chars() { if c == '"' { in_quotes = !in_quotes; } }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_a_record_into_fields_at_each_delimiter() {
        let fields = split_record("a,b", ',');
        assert_eq!(fields, vec!["a", "b"]); // one record split into fields at each delimiter
    }
}
"""
EXAMPLE_KT = """fun main() {
    // Split one record into fields at each delimiter and print the fields.
    val fields = splitRecord("a,b", ',')
    println(fields) // fields of one record split at each delimiter
}
"""
GENERATED_GO = """// Code generated by protoc-gen-go. DO NOT EDIT.
// source: record.proto

package record

// SplitRecordRequest asks to split one record into fields at each delimiter.
type SplitRecordRequest struct {
	Record    string // the record to split into fields
	Delimiter string // each delimiter ends a field
}
"""
LIBRARY_GO = """package record

// SplitRecord splits one record into fields at each delimiter, honouring quotes.
func SplitRecord(line string, delimiter rune) []string {
	fields := []string{}
	inQuotes := false
	for _, c := range line {
		if c == '"' {
			inQuotes = !inQuotes
		}
	}
	return fields
}
"""
LIBRARY_KT = """/** Splits one record into fields at each delimiter, honouring quotes. */
fun splitRecord(line: String, delimiter: Char): List<String> {
    val fields = mutableListOf<String>()
    var inQuotes = false
    for (c in line) { if (c == '"') inQuotes = !inQuotes }
    return fields
}
"""


@pytest.mark.parametrize(
    ("files", "library", "other", "signal"),
    [
        (
            {"src/Csv/CsvReader.cs": LIBRARY_CS, "src/Csv/CsvReaderTester.cs": TESTER_CS},
            "src/Csv/CsvReader.cs",
            "src/Csv/CsvReaderTester.cs",
            "test",
        ),
        ({"src/record.rs": LIBRARY_RS}, "src/record.rs", "src/record.rs", "test"),
        (
            {"src/Record.kt": LIBRARY_KT, "samples/Split.kt": EXAMPLE_KT},
            "src/Record.kt",
            "samples/Split.kt",
            "example",
        ),
        (
            {"record/split.go": LIBRARY_GO, "record/record.pb.go": GENERATED_GO},
            "record/split.go",
            "record/record.pb.go",
            "generated",
        ),
    ],
)
def test_library_code_outranks_its_tests_and_examples(
    indexed: Indexed, files: dict[str, str], library: str, other: str, signal: str
) -> None:
    hits = indexed(files).search("split a record into fields at each delimiter").hits
    # No rerank factor lowers it; file-evidence may raise it (the test file's chunks match too).
    said = {s.name for s in hits[0].explanation.signals}
    assert hits[0].path == library and said <= set(diversity.SIGNALS)
    demoted = [h for h in hits[1:] if h.path == other and h.kind != "glue"]
    assert demoted, [(h.path, h.symbol) for h in hits]
    factor = {
        "test": rerank.TEST_FACTOR,
        "example": rerank.EXAMPLE_FACTOR,
        "generated": rerank.GENERATED_FACTOR,
    }[signal]
    assert any(s.name == signal and s.factor == factor for s in demoted[0].explanation.signals)


@pytest.mark.parametrize(
    ("head", "generated"),
    [
        ("// Code generated by protoc-gen-go. DO NOT EDIT.\npackage record\n", True),  # Go
        ("\ufeff//----\n// <auto-generated>\n//     This code was generated by a tool.\n", True),
        ("# Generated by the protocol buffer compiler.  DO NOT EDIT!\n# source: a.proto\n", True),
        ("/**\n * @generated SignedSource<<abc>>\n */\n", True),  # Meta's tools, Relay
        ("// This file is auto-generated by @hey-api/openapi-ts\n\nexport type A = {};\n", True),
        ("# this file is auto-generated by generate_self_schema.py, DO NOT edit manually\n", True),
        ("/* A Bison parser, made by GNU Bison 3.8.2.  */\n\n/* Bison implementation */\n", True),
        (
            '#line 2 "src/lexer.c"\n\n#line 4 "src/lexer.c"\n\n#define  YY_INT_ALIGNED short int\n'
            "\n/* A lexical scanner generated by flex */\n",
            True,
        ),  # line 7, below `#line`s
        ("/* Generated by Cython 3.0.11 */\n", True),
        ('"""This script generates abseil.podspec from all BUILD.bazel files."""\n', False),
        ("# This parser is written by hand; no generator made it.\n", False),
        ("// Package record splits records; its parser is generated at build time.\n", False),
        ("package a\n\n\n\n\n\n\n\n// Code generated by hand-waving. DO NOT EDIT.\n", False),  # 9
    ],
)
def test_a_generated_file_is_known_by_its_first_lines(head: str, generated: bool) -> None:
    assert generated_header(head) is generated


def test_a_file_that_loses_its_generated_header_is_library_code_again(indexed: Indexed) -> None:
    service = indexed({"record/split.go": LIBRARY_GO, "record/record.pb.go": GENERATED_GO})

    def signals() -> set[str]:
        hits = service.search("split record request fields delimiter").hits
        found = [h for h in hits if h.path == "record/record.pb.go" and h.kind != "glue"]
        return {s.name for s in found[0].explanation.signals}

    assert "generated" in signals()
    handwritten = GENERATED_GO.split("\n", 2)[2]  # the same code, its header gone
    (service.root / "record" / "record.pb.go").write_text(handwritten)
    service.index()
    assert "generated" not in signals()


def test_hotspots_leave_out_test_helpers_in_a_test_utils_folder(indexed: Indexed) -> None:
    # kotlinx-coroutines keeps its test base class in `test-utils/`: every test calls it.
    tests = {
        f"core/common/test/Flow{i}Test.kt": (
            f"class Flow{i}Test : TestBase() {{\n"
            f"    fun testCollect{i}() {{\n        expect(1)\n        collectAll()\n"
            f"        expect(2)\n        finish(3)\n    }}\n}}\n"
        )
        for i in range(6)
    }
    service = indexed(
        {
            "test-utils/common/src/TestBase.kt": (
                "open class TestBase {\n"
                "    fun expect(index: Int) { check(index > 0) }\n"
                "    fun finish(index: Int) { expect(index) }\n}\n"
            ),
            "core/common/src/Flow.kt": (
                "fun collectAll() {\n    emitAll()\n}\n\nfun emitAll() {\n    println(1)\n}\n"
            ),
            **tests,
        }
    )
    hot = [(h["symbol"], h["path"]) for h in service.hotspots(10)]
    assert ("emitAll", "core/common/src/Flow.kt") in hot
    assert not [path for _, path in hot if path.startswith("test-utils/")], hot
    with_tests = service.hotspots(10, include_tests=True)
    assert any(h["path"].startswith("test-utils/") for h in with_tests)


def test_hotspots_put_example_code_after_the_library_it_shows(indexed: Indexed) -> None:
    # MediatR's `samples/.../Runner.cs` calls everything and topped its hotspots.
    runner = "".join(f"    send{i}()\n    publish{i}()\n" for i in range(8))
    service = indexed(
        {
            "samples/Runner.py": f"def run():\n{runner}    dispatch()\n",
            "lib/mediator.py": (
                "def dispatch():\n    route()\n\n\ndef route():\n    return 1\n\n\n"
                + "".join(f"def send{i}():\n    dispatch()\n\n\n" for i in range(8))
                + "".join(f"def publish{i}():\n    route()\n\n\n" for i in range(8))
            ),
        }
    )
    hot = [h["path"] for h in service.hotspots(50)]
    assert "samples/Runner.py" in hot, hot
    assert hot[-1] == "samples/Runner.py", hot  # listed, after every library definition


def test_hotspots_put_generated_code_after_the_code_people_wrote(indexed: Indexed) -> None:
    # jq's Bison parser (`yyparse`, 68 callees) topped its hotspots.
    calls = "".join(f"    yyreduce{i}();\n" for i in range(12))
    parser = (
        "/* A Bison parser, made by GNU Bison 3.8.2.  */\n\n"
        + "".join(f"static void yyreduce{i}(void) {{ jq_compile(); }}\n" for i in range(12))
        + f"int yyparse(void) {{\n{calls}    return 0;\n}}\n"
    )
    library = (
        "int jq_compile(void) {\n    return jq_next();\n}\n\n"
        "int jq_next(void) {\n    return 1;\n}\n\n"
        "int main(void) {\n    yyparse();\n    return jq_compile();\n}\n"
    )
    service = indexed({"src/parser.c": parser, "src/execute.c": library})
    hot = [(h["path"], h["symbol"]) for h in service.hotspots(50)]
    made = [i for i, (path, _) in enumerate(hot) if path == "src/parser.c"]
    assert ("src/parser.c", "yyparse") in hot, hot  # listed,
    assert min(made) > max(i for i, (path, _) in enumerate(hot) if path != "src/parser.c"), hot


@pytest.mark.parametrize(
    ("path", "made"),
    [
        ("gradlew", True),
        ("android/gradlew.bat", True),
        ("mvnw.cmd", True),
        (".mvn/wrapper/MavenWrapperDownloader.java", True),
        ("App.xcodeproj/project.pbxproj", True),
        ("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", True),
        ("App.xcworkspace/contents.xcworkspacedata", True),
        ("App/Assets.xcassets/AppIcon.appiconset/Contents.json", True),
        ("App/Contents.json", False),  # not in an asset catalogue
        ("scripts/gradlew-helper.sh", False),
        ("src/main/java/org/acme/Wrapper.java", False),
    ],
)
def test_files_a_build_tool_writes_by_name(path: str, made: bool) -> None:
    assert generated_name(path) is made


def test_build_tool_wrapper_scripts_are_generated_code(indexed: Indexed) -> None:
    # Android's sunflower: Gradle's `gradlew` launcher was its second hotspot.
    wrapper = (
        "#!/bin/sh\n"
        'die () {\n    echo "$*"\n    exit 1\n}\n\n'
        'warn () {\n    echo "$*"\n}\n\n'
        'find_java () {\n    warn "looking for java"\n    command -v java || die "no java"\n}\n\n'
        'find_java\nwarn "starting"\nexec java -jar gradle/wrapper/gradle-wrapper.jar "$@"\n'
    )
    library = (
        "#!/bin/sh\n"
        "build_site () {\n    render_pages\n    copy_assets\n}\n\n"
        'render_pages () {\n    echo "pages"\n}\n\n'
        'copy_assets () {\n    echo "assets"\n}\n\n'
        "build_site\n"
    )
    service = indexed({"gradlew": wrapper, "mvnw": wrapper, "scripts/site.sh": library})
    hot = [h["path"] for h in service.hotspots(50)]
    assert "gradlew" in hot, hot
    wrappers = [i for i, path in enumerate(hot) if path in ("gradlew", "mvnw")]
    assert min(wrappers) > max(i for i, path in enumerate(hot) if path == "scripts/site.sh"), hot
    hits = service.search("where does it look for java before starting").hits
    launcher = next(h for h in hits if h.path == "gradlew")
    assert any(s.name == "generated" for s in launcher.explanation.signals)


def test_tests_inside_library_files_are_test_code_in_the_graph(indexed: Indexed) -> None:
    # http.zig's `test "request: fuzz"` block topped its hotspots; Rust's `mod tests` alike.
    checks = "".join(f"    try parse({i});\n    try expectEqual({i});\n" for i in range(8))
    service = indexed(
        {
            "src/request.zig": (
                "pub fn parse(n: u32) !void {\n    try validate(n);\n}\n\n"
                "fn validate(n: u32) !void {\n    _ = n;\n}\n\n"
                "fn expectEqual(n: u32) !void {\n    _ = n;\n}\n\n"
                f'test "request: fuzz" {{\n{checks}}}\n'
            ),
            "src/lib.rs": (
                "pub fn encode(x: u8) -> u8 {\n    shift(x)\n}\n\n"
                "fn shift(x: u8) -> u8 {\n    x << 1\n}\n\n"
                "#[cfg(test)]\nmod tests {\n    use super::*;\n\n"
                "    #[test]\n    fn round_trip() {\n        let a = encode(1);\n"
                "        let b = shift(a);\n        check(b);\n    }\n\n"
                "    fn check(x: u8) {\n        let _ = x;\n    }\n}\n"
            ),
        }
    )
    hot = {h["symbol"] for h in service.hotspots(50)}
    assert {"parse", "encode"} <= hot, hot
    assert not {s for s in hot if s.startswith("test ") or s.startswith("tests.")}, hot
    with_tests = {h["symbol"] for h in service.hotspots(50, include_tests=True)}
    assert 'test "request: fuzz"' in with_tests and "tests.round_trip" in with_tests, with_tests
    callers = service.callers("encode")
    assert [(e.symbol, e.test) for e in callers.entries] == [("tests.round_trip", True)]
    assert service.callers("encode", include_tests=False).entries == ()


def test_a_scripts_own_code_is_named_and_weighed_as_glue(indexed: Indexed) -> None:
    files = {
        "lib/logs.sh": "# Rotate the log files, keeping the last seven.\n"
        'rotate_logs() {\n  for f in "$LOG_DIR"/*.log; do mv "$f" "$f.1"; done\n}\n',
        "bin/rotate-logs": "#!/usr/bin/env bash\n# Summary: rotate the log files now\n"
        'source lib/logs.sh\nLOG_DIR="${1:-/var/log/app}"\nrotate_logs\necho "rotated the logs"\n',
    }
    hits = indexed(files).search("rotate the log files").hits
    assert [(h.path, h.symbol, h.kind) for h in hits[:2]] == [
        ("lib/logs.sh", "rotate_logs", "function"),
        ("bin/rotate-logs", "rotate-logs", "script"),  # named after its file, not "glue"
    ]
    signals = {s.name: s for s in hits[1].explanation.signals}
    assert signals["glue"].factor == rerank.GLUE_FACTOR, hits[1].explanation.signals


RATE_LIMITER_JAVA = """package org.demo.limits;

/** Hands out permits at a fixed rate; a caller without a free permit waits for one. */
public class RateLimiter {
    private final double permitsPerSecond;
    private double storedPermits;
    private long nextFreeTicketMicros;

    public RateLimiter(double permitsPerSecond) {
        this.permitsPerSecond = permitsPerSecond;
        this.storedPermits = 0;
        this.nextFreeTicketMicros = 0;
    }

    /** Waits until a permit is free, then takes it; returns the seconds spent waiting. */
    public double acquire() {
        long now = System.nanoTime() / 1000;
        long waitMicros = Math.max(nextFreeTicketMicros - now, 0);
        if (storedPermits >= 1) {
            storedPermits -= 1;
            waitMicros = 0;
        } else {
            nextFreeTicketMicros = Math.max(nextFreeTicketMicros, now)
                + (long) (1_000_000 / permitsPerSecond);
        }
        sleepMicros(waitMicros);
        return waitMicros / 1_000_000.0;
    }

    /** Takes a permit if one is free right now, without waiting. */
    public boolean tryAcquire() {
        long now = System.nanoTime() / 1000;
        if (nextFreeTicketMicros > now && storedPermits < 1) {
            return false;
        }
        acquire();
        return true;
    }

    public double getRate() {
        return permitsPerSecond;
    }

    private static void sleepMicros(long micros) {
        try {
            Thread.sleep(micros / 1000, (int) (micros % 1000) * 1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
"""


def test_a_types_head_ranks_below_its_member_that_does_the_work(indexed: Indexed) -> None:
    service = indexed({"src/main/java/org/demo/limits/RateLimiter.java": RATE_LIMITER_JAVA})
    hits = service.search("where does a caller wait until a permit is free?").hits
    names = [hit.qualified_name for hit in hits]
    assert names.index("RateLimiter.acquire") < names.index("RateLimiter"), names
    head = hits[names.index("RateLimiter")]
    said = [s for s in head.explanation.signals if s.name == "split-head"]
    assert said and said[0].factor == rerank.SPLIT_HEAD_FACTOR, head.explanation.signals
    assert not any(s.name == "split-head" for s in hits[0].explanation.signals)
    # Asked for by its name alone, the type's head is the answer.
    looked_up = service.search("RateLimiter").hits
    assert looked_up[0].qualified_name == "RateLimiter"
    assert not any(s.name == "split-head" for s in looked_up[0].explanation.signals)


@pytest.mark.parametrize(
    ("language", "text", "preview"),
    [
        ("kotlin", "@Preview\n@Composable\nprivate fun GalleryPreview() {\n    Gallery()\n}", True),
        ("kotlin", "@PreviewLightDark\n@Composable\nfun CardPreview() {\n    Card()\n}", True),
        ("kotlin", "@DevicePreviews\n@Composable\nfun HomePreview() {\n    Home()\n}", True),
        (
            "kotlin",
            "private class PlantsProvider :\n    PreviewParameterProvider<List<Plant>> {\n"
            "    override val values = sequenceOf(emptyList<Plant>())\n}",
            True,
        ),
        ("swift", "#Preview {\n    ImageView(url: nil)\n}", True),
        (
            "swift",
            "struct DetailRow_Previews: PreviewProvider {\n"
            "    static var previews: some View { DetailRow() }\n}",
            True,
        ),
        # The screen itself, whose parameter a preview fills, is the app's code.
        (
            "kotlin",
            "@Composable\nfun Gallery(\n    @PreviewParameter(P::class) x: Int\n) {}",
            False,
        ),
        ("kotlin", "@Composable\nfun PreviewCard(title: String) {\n    Text(title)\n}", False),
        (
            "swift",
            'struct Row: View {\n    var body: some View { Text("PreviewProvider") }\n}',
            False,
        ),
        ("java", "@Preview\nclass A {}", False),
    ],
)
def test_ui_previews_are_known_by_their_annotation_or_protocol(
    language: str, text: str, preview: bool
) -> None:
    assert ui_preview(language, text) is preview


SCREEN_KT = """@Composable
fun PlantList(plants: List<Plant>, onClick: (Plant) -> Unit) {
    LazyColumn {
        items(plants) { plant -> PlantRow(plant, onClick) }
    }
}

@Composable
fun PlantRow(plant: Plant, onClick: (Plant) -> Unit) {
    Text(plant.name)
}

@Preview
@Composable
private fun PlantListPreview() {
    PlantList(plants = samples, onClick = {})
}
"""


def test_a_ui_preview_ranks_below_the_screen_it_shows(indexed: Indexed) -> None:
    service = indexed({"app/src/main/java/com/acme/PlantList.kt": SCREEN_KT})
    hits = service.search("where is the list of plants shown").hits
    names = [h.symbol for h in hits]
    assert names.index("PlantList") < names.index("PlantListPreview"), names
    preview = next(h for h in hits if h.symbol == "PlantListPreview")
    signal = next(s for s in preview.explanation.signals if s.name == "preview")
    assert signal.factor == rerank.PREVIEW_FACTOR
    hot = [h["symbol"] for h in service.hotspots(20)]
    assert "PlantListPreview" in hot and hot[-1] == "PlantListPreview", hot


def test_a_stylesheet_ranks_below_the_code_its_selectors_are_named_after(
    indexed: Indexed,
) -> None:
    files = {
        "assets/styles/app.scss": (
            ".comment-form {\n  margin: 1em 0;\n}\n\n"
            ".post-comment {\n  border-left: 2px solid #ccc;\n  padding: 0 1em;\n}\n"
        ),
        "src/Controller/BlogController.php": (
            "<?php\nclass BlogController\n{\n"
            "    public function commentNew(Post $post, Comment $comment): Response\n    {\n"
            "        $post->addComment($comment);\n"
            "        $this->entityManager->flush();\n"
            "        return $this->redirectToRoute('blog_post');\n    }\n}\n"
        ),
    }
    hits = indexed(files).search("where is a comment added to a post").hits
    paths = [h.path for h in hits]
    assert paths[0] == "src/Controller/BlogController.php", paths
    style = next(h for h in hits if h.path == "assets/styles/app.scss")
    signal = next(s for s in style.explanation.signals if s.name == "stylesheet")
    assert signal.factor == rerank.STYLE_FACTOR
