"""Java and Kotlin calls the JVM's own rules resolve: a package spans folders (`src/main/java/p`
and `src/test/java/p`), static imports and imports of nested classes, receivers typed by `new`,
by a static field, by `var` and try-with-resources, Kotlin's bases; with real tree-sitter, the
index and the resolver. `graph-oracle --language java` measures the same against javac."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings
from tests.unit.test_graph_resolution import at, graph

MAIN = "src/main/java/p"
JAVA = {
    f"{MAIN}/Builder.java": """\
package p;
public class Builder {
  public static final Builder DEFAULT = new Builder();
  public Builder append(Object o) { return this; }
  public int done() { return 1; }
  public static class Part { public int size() { return 1; } }
}
""",
    f"{MAIN}/Pred.java": """\
package p;
public interface Pred {
  Pred FALSE = t -> false;
  boolean test(int t);
  default Pred and(Pred other) { return this; }
}
""",
    f"{MAIN}/Util.java": """\
package p;
public class Util {
  public static int helper() { return 1; }
  public static int other() { return 1; }
}
""",
    f"{MAIN}/Printer.java": """\
package p;
public class Printer implements AutoCloseable {
  public void print(Object o) {}
  public void close() {}
}
""",
    "src/main/java/p/q/Util.java": (
        "package p.q;\npublic class Util { public static int helper() { return 2; } }\n"
    ),
    "src/main/java/p/q/Other.java": """\
package p.q;
public class Other {
  public void print(Object o) {}
  public int done() { return 0; }
  public int size() { return 0; }
  public boolean test(int t) { return true; }
  public Other append(Object o) { return this; }
}
""",
    "src/main/java/p/Visitor.java": """\
package p;
import java.util.TimeZone;
public class Visitor {
  public static class Builder { public Visitor get() { return null; } }
  public static Builder builder() { return new Builder(); }
  public static TimeZone zone() { return null; }
  public static class Executable { int getParameterCount() { return 0; } }
}
""",
    "src/main/java/p/Methods.java": """\
package p;
import java.lang.reflect.Executable;
class Methods {
  int count(Executable e, Thread t) {
    Visitor.zone().getRawOffset();
    t.getName();
    return e.getParameterCount();
  }
  static int twice() { return 2; }
  static class Rule {
    int apply() { return twice(); }
    Object make() { return new Visitor.Builder(); }
    int qualified() { return p.Util.helper() + new p.q.Other().size(); }
  }
}
""",
    "src/test/java/p/UseTest.java": """\
package p;
import static p.Util.helper;
import static p.Util.*;
import static p.Builder.DEFAULT;
import p.Builder.Part;
class UseTest {
  void t() {
    new Builder().append(1).done();
    Builder.DEFAULT.append(2);
    DEFAULT.append(3);
    Pred.FALSE.and(null).test(0);
    helper();
    other();
    Util.helper();
    try (Printer printer = new Printer()) { printer.print(1); }
    var made = new Printer();
    made.print(2);
    new Part().size();
    Visitor.builder().get();
  }
}
""",
    "src/main/java/p/Breaker.java": """\
package p;
public abstract class Breaker {
  protected enum State { OPEN; State opposite() { return this; } }
  static class Base { int a() { return 1; } }
  static class Sub extends Base { int b() { return a(); } }
}
""",
    "src/main/java/p/Counting.java": """\
package p;
public class Counting extends Breaker {
  void flip(State state) { state.opposite(); }
}
""",
    "src/main/java/p/Machine.java": """\
package p;
class Machine {  // namesakes of Breaker's nested classes, which only Machine sees
  enum State { ON; State opposite() { return this; } }
  static class Base { int a() { return 2; } }
}
""",
    "src/test/java/p/q/QTest.java": (
        "package p.q;\nclass QTest {\n  void t() { Util.helper(); }\n}\n"
    ),
}


def test_java_calls_resolve_as_javac_would(tmp_path: Path, settings: Settings) -> None:
    rows = graph(tmp_path, settings, JAVA)
    test = "src/test/java/p/UseTest.java"
    expected = {
        8: {"Builder.append", "Builder.done", "Builder"},  # `new` starts a typed chain
        9: {"Builder.append"},  # a static field's declared type
        10: {"Builder.append"},  # ... imported statically
        11: {"Pred.and", "Pred.test"},  # an interface's constant, then what `and` returns
        12: {"Util.helper"},  # `import static p.Util.helper`
        13: {"Util.other"},  # `import static p.Util.*`
        14: {"Util.helper"},  # the class of the test's own package, not p.q's
        15: {"Printer", "Printer.print"},  # try-with-resources
        17: {"Printer.print"},  # `var made = new Printer()`
        18: {"Builder.Part", "Builder.Part.size"},  # `import p.Builder.Part`
        19: {"Visitor.builder", "Visitor.Builder.get"},  # `Builder` inside Visitor is its own
    }
    for line, names in expected.items():
        found = {
            (r["callee"].split("::")[1], round(r["confidence"], 3) >= 0.9)
            for r in at(rows, test, line)
        }
        assert found == {(name, True) for name in names}, (line, found)
    # A nested class is seen from a subclass of its outer class, and a nested class's base
    # may be its sibling.
    found = {(r["callee"], r["rule"]) for r in at(rows, "src/main/java/p/Counting.java", 3)}
    assert found == {("src/main/java/p/Breaker.java::Breaker.State.opposite", "typed-receiver")}
    found = {(r["callee"], r["rule"]) for r in at(rows, "src/main/java/p/Breaker.java", 5)}
    assert found == {("src/main/java/p/Breaker.java::Breaker.Base.a", "self-method")}
    [q] = at(rows, "src/test/java/p/q/QTest.java", 3)
    assert q["callee"] == "src/main/java/p/q/Util.java::Util.helper"
    # Types from outside the project: what a method declares it returns (java.util's
    # TimeZone), java.lang's, which no file imports, and an imported one that shares its name
    # with a class nested in another (`Visitor.Executable` is no `Executable` to Methods).
    methods = "src/main/java/p/Methods.java"
    for line, targets in (
        (11, {"src/main/java/p/Methods.java::Methods.twice"}),  # the outer class's method
        (12, {"src/main/java/p/Visitor.java::Visitor.Builder"}),  # `new Outer.Inner()`
        (13, {"src/main/java/p/Util.java::Util.helper", "src/main/java/p/q/Other.java::Other",
              "src/main/java/p/q/Other.java::Other.size"}),  # through packages, spelled out
    ):  # fmt: skip
        found = {(r["callee"], round(r["confidence"], 3) >= 0.9) for r in at(rows, methods, line)}
        assert found == {(target, True) for target in targets}, (line, found)
    for line, called, reason in (
        (5, "getRawOffset", "method of TimeZone, a type outside the project"),
        (6, "getName", "method of Thread, a type outside the project"),
        (7, "getParameterCount", "method of Executable, a type outside the project"),
    ):
        said = [
            (r["callee"], r["rule"])
            for r in at(rows, methods, line)
            if r["callee_text"].endswith(f".{called}")
        ]
        assert said == [("", reason)], (line, said)


KOTLIN = {
    "src/commonMain/kotlin/p/Chan.kt": """\
/* Licence */
package p

/** A doc comment the package header's node runs on over. */
interface Send<in E> { fun send(e: E) }
interface Recv<out E> { fun receive(): E }
interface Chan<E> : Send<E>, Recv<E>
open class Base { fun ping() {} }
class Impl : Base(), Chan<Int> {
    override fun send(e: Int) {}
    override fun receive(): Int = 1
}
object Single : Base()
expect object Tools { fun context(): Int }
""",
    "src/jsMain/kotlin/p/Tools.kt": (
        "package p\n\nactual object Tools { actual fun context(): Int = 2 }\n"
    ),
    "src/commonMain/kotlin/p/Use.kt": """\
package p

fun use(c: Chan<Int>) {
    c.send(1)
    c.receive()
    val i = Impl()
    i.ping()
    Single.ping()
    Tools.context()
}
""",
    "src/commonTest/kotlin/p/UseTest.kt": "package p\n\nfun check() {\n    Impl().ping()\n}\n",
}


def test_kotlin_calls_resolve_through_bases_and_packages(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, KOTLIN)
    use = "src/commonMain/kotlin/p/Use.kt"
    for line, target in (
        (4, "src/commonMain/kotlin/p/Chan.kt::Send.send"),  # through the interface's bases
        (5, "src/commonMain/kotlin/p/Chan.kt::Recv.receive"),
        (7, "src/commonMain/kotlin/p/Chan.kt::Base.ping"),  # a class's base class
        (8, "src/commonMain/kotlin/p/Chan.kt::Base.ping"),  # an object's
        (9, "src/commonMain/kotlin/p/Chan.kt::Tools.context"),  # the `expect` beside it
    ):
        found = {(r["callee"], round(r["confidence"], 3) >= 0.9) for r in at(rows, use, line)}
        assert found == {(target, True)}, (line, found)
    # The test folder is the same package: its `Impl` is the main folder's, certainly.
    found = {(r["callee"], r["rule"]) for r in at(rows, "src/commonTest/kotlin/p/UseTest.kt", 4)}
    assert ("src/commonMain/kotlin/p/Chan.kt::Impl", "same-package") in found


RUST_ASSOCIATED = {
    "src/lib.rs": """\
pub struct Graph {}
pub struct Neighbors {}
pub trait IntoNeighbors { type Neighbors; }
impl IntoNeighbors for Graph { type Neighbors = Neighbors; }
impl Graph {
    pub fn neighbors(&self) -> Neighbors { Neighbors {} }
}
impl Neighbors {
    pub fn detach(&self) {}
}
pub fn walk(g: Graph) {
    g.neighbors().detach();
}
""",
}


def test_a_rust_associated_type_is_not_the_struct_a_method_returns(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, RUST_ASSOCIATED)
    found = {
        (r["callee"], r["rule"]) for r in at(rows, "src/lib.rs", 12) if "detach" in r["callee_text"]
    }
    assert found == {("src/lib.rs::Neighbors.detach", "return-type")}
