"""One definition copied into several files (Kotlin's `jsMain` and `wasmJsMain`, a vendored
module) takes one slot of the results: the best ranked copy stands for the others, and
`--explain` names them. Definitions that only share a name stay apart."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from app.search import copies
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

CONTEXT_KT = (
    "package org.demo.context\n\n"
    "/** The application started once for the whole process, available everywhere. */\n"
    "object GlobalContext {\n"
    "    private var started: Application? = null\n\n"
    "    /** Starts the application, failing when one has already been started. */\n"
    "    fun startApplication(application: Application) {\n"
    "        if (started != null) {\n"
    '            throw AlreadyStartedException("An application has already been started")\n'
    "        }\n"
    "        started = application\n"
    "    }\n"
    "}\n"
)
OTHER_KT = (
    "package org.demo.context\n\n"
    "/** Stops the application that was started, forgetting its modules. */\n"
    "object Shutdown {\n"
    "    fun stopApplication(context: Context) {\n"
    "        context.modules.clear()\n"
    "        context.close()\n"
    "    }\n"
    "}\n"
)
QUESTION = "where is the application started, failing when one has already been started?"


def test_copies_in_platform_folders_take_one_slot(indexed: Indexed) -> None:
    files = {
        "src/jsMain/kotlin/org/demo/context/GlobalContext.kt": CONTEXT_KT,
        "src/wasmJsMain/kotlin/org/demo/context/GlobalContext.kt": CONTEXT_KT,
        "src/commonMain/kotlin/org/demo/context/Shutdown.kt": OTHER_KT,
    }
    hits = indexed(files).search(QUESTION).hits
    starts = [h for h in hits if h.qualified_name.startswith("GlobalContext")]
    assert len(starts) == 1, [(h.path, h.qualified_name) for h in hits]
    said = [s for s in starts[0].explanation.signals if s.name == "copies"]
    assert said and said[0].factor == 1.0, starts[0].explanation.signals
    other = "wasmJsMain" if "/jsMain/" in starts[0].path else "/jsMain/"
    assert other in said[0].reason


def test_fold_keeps_different_code_of_one_name() -> None:
    body = (
        'fun start(application: Application) {\n    check(started == null) { "started twice" }\n'
        "    started = application\n}"
    )
    changed = body.replace("check(started == null)", "require(isMainThread()); log(application)")
    texts = {"a": body, "b": body + "\n", "c": changed, "d": body}
    paths = {"a": "js/Ctx.kt", "b": "wasm/Ctx.kt", "c": "jvm/Ctx.kt", "d": "js/Ctx.kt"}
    kept, folded = copies.fold(["a", "b", "c", "d"], lambda _: "Ctx.start", paths.get, texts.get)
    # b is a copy of a in another file; c is other code; d is in a's own file (not a copy).
    assert kept == ["a", "c", "d"] and folded == {"a": ["b"]}


def test_short_definitions_are_never_copies() -> None:
    texts = {"a": "fun get() = value", "b": "fun get() = value"}
    paths = {"a": "js/A.kt", "b": "wasm/A.kt"}
    assert copies.fold(["a", "b"], lambda _: "A.get", paths.get, texts.get) == (["a", "b"], {})


def test_long_copies_are_folded_and_long_namesakes_are_not() -> None:
    # A manual kept in several versions: one top-level key (`sections`) holds long, different
    # text in each; only the near-identical pair is a copy.
    def text(seed: int, edit: str = "") -> str:
        words = (hashlib.sha1(f"{seed} {i}".encode()).hexdigest()[:12] for i in range(90))
        return "\n".join(f"- title: {word}" for word in words) + edit

    texts = {"a": text(0), "b": text(0, "\n- title: added"), "c": text(3), "d": text(7)}
    paths = {chunk: f"docs/{chunk}/manual.yml" for chunk in texts}
    kept, folded = copies.fold(
        list(texts), lambda _: "sections", paths.__getitem__, texts.__getitem__
    )
    assert kept == ["a", "c", "d"] and folded == {"a": ["b"]}
    assert copies.alike(texts["a"], texts["b"]) and not copies.alike(texts["a"], texts["c"])
