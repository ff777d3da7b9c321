"""Kotlin's own rules in the call graph, each found by kotlinc's bytecode oracle on koin
(`graph-oracle --language kotlin`): multiplatform source sets, members before extension
functions, extension functions called like methods, imports of an object's members."""

from __future__ import annotations

from pathlib import Path

from app.core.settings import Settings
from app.graph.kotlin import sees
from tests.unit.test_graph_resolution import at, edges_at, graph


def rules_at(rows: list[dict[str, object]], path: str, line: int, name: str) -> set[tuple]:
    """(callee id, rule) of the calls of `name` on one line."""
    return {
        (r["callee"], r["rule"])
        for r in at(rows, path, line)
        if str(r["callee_text"]).rpartition(".")[2] == name
    }


COMMON = "src/commonMain/kotlin/k"
MULTIPLATFORM = {
    f"{COMMON}/mp/Tools.kt": "package k.mp\n\nexpect object Tools {\n    fun mode(): Int\n}\n",
    "src/jvmMain/kotlin/k/mp/Tools.kt": (
        "package k.mp\n\nactual object Tools {\n    actual fun mode(): Int = 1\n}\n"
    ),
    "src/jsMain/kotlin/k/mp/Tools.kt": (
        "package k.mp\n\nactual object Tools {\n    actual fun mode(): Int = 2\n}\n"
    ),
    f"{COMMON}/core/Common.kt": (
        "package k.core\n\nimport k.mp.Tools\n\nfun common(): Int = Tools.mode()\n"
    ),
    "src/jvmMain/kotlin/k/core/Jvm.kt": (
        "package k.core\n\nimport k.mp.Tools\n\nfun jvm(): Int = Tools.mode()\n"
    ),
}


def test_common_code_calls_the_expect_and_a_platform_its_own_actual(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, MULTIPLATFORM)
    assert edges_at(rows, f"{COMMON}/core/Common.kt", 5) == {
        (f"{COMMON}/mp/Tools.kt::Tools.mode", True)
    }
    assert edges_at(rows, "src/jvmMain/kotlin/k/core/Jvm.kt", 5) == {
        ("src/jvmMain/kotlin/k/mp/Tools.kt::Tools.mode", True)
    }


def test_source_sets_see_common_code_their_own_and_their_platform_s_main() -> None:
    assert sees("src/jvmMain/kotlin/A.kt", "src/commonMain/kotlin/B.kt")
    assert not sees("src/commonMain/kotlin/A.kt", "src/jvmMain/kotlin/B.kt")
    assert not sees("src/jvmMain/kotlin/A.kt", "src/jsMain/kotlin/B.kt")
    assert sees("src/jvmTest/kotlin/A.kt", "src/jvmMain/kotlin/B.kt")
    assert not sees("src/jvmMain/kotlin/A.kt", "src/jvmTest/kotlin/B.kt")
    assert sees("src/iosArm64Main/kotlin/A.kt", "src/nativeMain/kotlin/B.kt")
    assert sees("lib/A.kt", "src/jvmMain/kotlin/B.kt")  # outside the layout: everything


EXTENSIONS = {
    "src/main/kotlin/k/core/Module.kt": """\
package k.core

class Module {
    fun includes(vararg module: Module) {}
    fun size(): Int = 0
}

class Definition
""",
    "src/main/kotlin/k/dsl/ModuleExt.kt": """\
package k.dsl

import k.core.Definition
import k.core.Module

fun Module.includes(module: List<Module>) {
    this.includes(module.first())
}

fun Module.total(): Int = size()

fun Definition.onOptions(flag: Boolean): Definition = this

fun app(block: Module.() -> Unit) {}

fun start(d: Definition, unknown: Any) {
    app { includes(Module()) }
    make().onOptions(true)
    d.callback.invoke()
}

fun make() = listOf(Definition()).first()

class Handler {
    operator fun invoke() {}
}
""",
}


def test_a_type_s_own_member_comes_before_an_extension_function_of_its_name(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, EXTENSIONS)
    ext, module = "src/main/kotlin/k/dsl/ModuleExt.kt", "src/main/kotlin/k/core/Module.kt"
    # `this.includes(...)` in `fun Module.includes`: Module's member, as Kotlin picks it when
    # the arguments fit (they decide, and the graph does not read them: probable).
    assert rules_at(rows, ext, 7, "includes") == {
        (f"{module}::Module.includes", "member-or-extension")
    }
    # No extension of that name competes: Module's own `size()`, certain.
    assert edges_at(rows, ext, 10) == {(f"{module}::Module.size", True)}
    # A bare `includes(...)` in a lambda whose receiver is a Module: the member again.
    assert rules_at(rows, ext, 17, "includes") == {
        (f"{module}::Module.includes", "member-or-extension")
    }


def test_an_extension_function_is_called_like_a_method_and_invoke_is_a_function_type_s(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, EXTENSIONS)
    ext = "src/main/kotlin/k/dsl/ModuleExt.kt"
    assert rules_at(rows, ext, 18, "onOptions") == {
        (f"{ext}::Definition.onOptions", "unique-method")
    }
    # `invoke` on a receiver of unknown type: most likely a function value's, not ours.
    assert rules_at(rows, ext, 19, "invoke") == {(f"{ext}::Handler.invoke", "builtin-method-name")}


def test_an_import_of_an_object_s_member_is_that_member(tmp_path: Path, settings: Settings) -> None:
    files = {
        "src/main/kotlin/k/mp/Tools.kt": (
            "package k.mp\n\nobject Tools {\n    fun map(): Int = 1\n}\n"
        ),
        "src/main/kotlin/k/other/Tools.kt": (
            "package k.other\n\nobject Tools {\n    fun map(): Int = 2\n}\n"
        ),
        "src/main/kotlin/k/core/Use.kt": (
            "package k.core\n\nimport k.mp.Tools.map\n\nfun use(): Int = map()\n"
        ),
    }
    rows = graph(tmp_path, settings, files)
    assert edges_at(rows, "src/main/kotlin/k/core/Use.kt", 5) == {
        ("src/main/kotlin/k/mp/Tools.kt::Tools.map", True)
    }


PROPERTIES = {
    "src/main/kotlin/k/Resolver.kt": """\
package k

interface Resolver {
    fun add(x: Int)
}

class ResolverV2 : Resolver {
    override fun add(x: Int) {}
}

class Koin {
    fun property(key: String): String = key
}

class Logger {
    fun display(s: String) {}
}
""",
    "src/main/kotlin/k/Scope.kt": """\
package k

class Scope(val id: String, private val _koin: Koin) {
    val resolver: Resolver = ResolverV2()
    var logger: Logger? = null

    fun go() {
        _koin.property(id)
        resolver.add(1)
        logger?.display(id)
        listOf(1).forEach { val k = Koin(); k.property(id) }
    }
}
""",
    "src/main/kotlin/k/Holder.kt": """\
package k

class Holder(private val koin: Koin) {
    @Deprecated("use koin")
    var logger: Logger = Logger()
        private set

    fun show() = logger.display(koin.property("a"))
}
""",
}


def test_a_property_s_declared_type_types_its_calls_constructor_properties_too(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, PROPERTIES)
    scope, types = "src/main/kotlin/k/Scope.kt", "src/main/kotlin/k/Resolver.kt"
    assert edges_at(rows, scope, 8) == {(f"{types}::Koin.property", True)}  # `val _koin: Koin`
    # The declared `Resolver`, not the value's class: what the compiler calls.
    assert edges_at(rows, scope, 9) == {(f"{types}::Resolver.add", True)}
    assert edges_at(rows, scope, 10) == {(f"{types}::Logger.display", True)}  # `Logger?`
    assert (f"{types}::Koin.property", True) in edges_at(rows, scope, 11)  # in a lambda
    # A property with a setter (a definition of its own) is still its class's attribute.
    holder = "src/main/kotlin/k/Holder.kt"
    assert (f"{types}::Logger.display", True) in edges_at(rows, holder, 8)


ON_BUILTINS = {
    "src/main/kotlin/k/Names.kt": """\
package k

fun String.inProperCase(): String = this
fun <T> Iterable<T>.appendTo(out: StringBuilder) {}

class Table(val tableName: String, val columns: List<String>) {
    fun render(out: StringBuilder) {
        tableName.inProperCase()
        columns.appendTo(out)
        tableName.trim()
    }
}
""",
}


def test_the_project_s_extension_functions_on_kotlin_s_own_types_are_called(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, ON_BUILTINS)
    names = "src/main/kotlin/k/Names.kt"
    assert rules_at(rows, names, 8, "inProperCase") == {
        (f"{names}::String.inProperCase", "extended-receiver")
    }
    assert rules_at(rows, names, 9, "appendTo") == {  # a List is an Iterable
        (f"{names}::Iterable.appendTo", "extended-receiver")
    }
    assert rules_at(rows, names, 10, "trim") == {("", "builtin receiver: String")}


SMART_CASTS = {
    "src/main/kotlin/k/State.kt": """\
package k

open class Collector {
    fun emit() {}
}

class Finishing : Collector() {
    fun addException() {}
}

fun handle(state: Any, collector: Collector) {
    if (state is Finishing) state.addException()
    collector.onSubscription()
    if (collector is Finishing) collector.addException()
}
""",
    "src/main/kotlin/k/Subscriptions.kt": "package k\n\nfun Collector.onSubscription() {}\n",
}


def test_a_smart_cast_leaves_a_guess_and_an_extension_on_a_project_type_answers(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, SMART_CASTS)
    path = "src/main/kotlin/k/State.kt"
    # `state: Any` has no addException: only a smart cast lets it compile, so the graph guesses
    # by the name rather than saying "builtin receiver: Any" (or "no method" on Collector).
    assert rules_at(rows, path, 12, "addException") == {
        (f"{path}::Finishing.addException", "unique-method")
    }
    assert rules_at(rows, path, 14, "addException") == {
        (f"{path}::Finishing.addException", "unique-method")
    }
    assert rules_at(rows, path, 13, "onSubscription") == {
        ("src/main/kotlin/k/Subscriptions.kt::Collector.onSubscription", "extended-receiver")
    }


ITEMS = {
    "src/main/kotlin/k/Items.kt": """\
package k

class Index {
    fun createStatement(): String = ""
}

class Other {
    fun createStatement(): String = ""
}

fun ddl(indices: List<Index>, more: Array<out Index>?) {
    for (index in indices) index.createStatement()
    indices.forEach { i -> i.createStatement() }
    indices.flatMap { listOf(it.createStatement()) }
    more?.forEach { it.createStatement() }
    indices.size
}
""",
}


def test_loop_and_collection_lambda_items_are_the_collection_s_elements(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, ITEMS)
    path = "src/main/kotlin/k/Items.kt"
    for line in (12, 13, 14, 15):  # `for`, a named parameter, `it`, a nullable `Array<out T>?`
        assert rules_at(rows, path, line, "createStatement") == {
            (f"{path}::Index.createStatement", "typed-receiver")
        }, line
    assert rules_at(rows, path, 16, "size") == set()  # a property, not a call


RESULTS = {
    "src/main/kotlin/k/App.kt": """\
package k

class App {
    fun go(): Int = 1
    companion object {
        fun init(): App = App()
    }
}

fun resolve(x: Int): App? = null

fun start(): Int? {
    val a = App.init()
    a.go()
    val b = resolve(1) ?: return null
    return b.go()
}
""",
}


def test_a_value_a_call_returns_is_of_the_type_the_function_declares(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, RESULTS)
    path = "src/main/kotlin/k/App.kt"
    assert edges_at(rows, path, 14) == {(f"{path}::App.go", True)}  # a companion's `App`
    assert edges_at(rows, path, 16) == {(f"{path}::App.go", True)}  # `App?`, after `?:`


def test_a_scope_function_on_any_value_is_kotlin_s_own(tmp_path: Path, settings: Settings) -> None:
    files = {
        "src/main/kotlin/k/Drop.kt": (
            "package k\n\nclass Scope\n\nfun drop(scope: Scope?) {\n    scope?.let { }\n}\n"
        )
    }
    rows = graph(tmp_path, settings, files)
    assert rules_at(rows, "src/main/kotlin/k/Drop.kt", 6, "let") == {
        ("", "the language's own: let is in Kotlin's standard library (imported by default)")
    }


def test_a_collection_method_no_project_type_has_is_kotlin_s_own(
    tmp_path: Path, settings: Settings
) -> None:
    files = {
        "src/main/kotlin/k/Scope.kt": """\
package k

class Scope {
    private val callbacks = LinkedHashSet<String>()
    fun close(items: Widgets) {  // a library's type, not the project's
        callbacks.clear()
        items.forEach { }
    }
}
"""
    }
    rows = graph(tmp_path, settings, files)
    path = "src/main/kotlin/k/Scope.kt"
    assert rules_at(rows, path, 6, "clear") == {("", "builtin receiver: LinkedHashSet")}
    assert rules_at(rows, path, 7, "forEach") == {
        ("", "the language's own: forEach is a method of Kotlin's collections")
    }


BOUNDED = {
    "src/main/kotlin/k/Component.kt": """\
package k

interface KoinComponent {
    fun getKoin(): Int = 1
}

interface KoinScopeComponent : KoinComponent

fun <T : KoinScopeComponent> T.createScope(): Int {
    return getKoin()
}
""",
}


def test_inside_an_extension_on_a_bounded_type_parameter_this_is_the_bound(
    tmp_path: Path, settings: Settings
) -> None:
    rows = graph(tmp_path, settings, BOUNDED)
    path = "src/main/kotlin/k/Component.kt"
    assert edges_at(rows, path, 10) == {(f"{path}::KoinComponent.getKoin", True)}
