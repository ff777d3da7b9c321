"""A query that names a type (`Channel for sending ...`) raises the file named after that
type and defining it, above files whose code only uses the type."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.search import rerank
from app.service import Service

Indexed = Callable[[dict[str, str]], Service]

CHANNEL = """package kotlinx.coroutines.channels

/** A non-blocking primitive for communication between a sender and a receiver. */
public interface Channel<E> : SendChannel<E>, ReceiveChannel<E> {
    public companion object Factory {
        public const val UNLIMITED: Int = Int.MAX_VALUE
        public const val RENDEZVOUS: Int = 0
    }
}

public fun <E> Channel(capacity: Int = RENDEZVOUS): Channel<E> =
    when (capacity) {
        RENDEZVOUS -> BufferedChannel(RENDEZVOUS)
        UNLIMITED -> BufferedChannel(UNLIMITED)
        else -> BufferedChannel(capacity)
    }
"""
PRODUCE = """package kotlinx.coroutines.channels

/** Launches a coroutine that produces values by sending them to a channel. */
public fun <E> CoroutineScope.produce(
    capacity: Int = 0,
    block: suspend ProducerScope<E>.() -> Unit,
): ReceiveChannel<E> {
    val channel = Channel<E>(capacity)
    val coroutine = ProducerCoroutine(newCoroutineContext(EmptyCoroutineContext), channel)
    coroutine.start(CoroutineStart.DEFAULT, coroutine, block)
    return coroutine
}

/** Receives every value the channel sends and returns them, sending stops the channel. */
public suspend fun <E> ReceiveChannel<E>.toList(): List<E> {
    val values = ArrayList<E>()
    for (value in this) values.add(value)
    return values
}

/** Sends each value to the channel, receiving side consumes them between coroutines. */
public suspend fun <E> SendChannel<E>.sendAll(values: List<E>) {
    for (value in values) send(value)
    close()
}
"""


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("Channel for sending and receiving values", ["Channel"]),
        ("what does `Scope.close()` drop?", ["Scope"]),
        ("Mutex and Semaphore, and a Mutex again", ["Mutex", "Semaphore"]),
        ("how is $Var or _Private or x.y read", []),
    ],
)
def test_capitalised_words(query: str, words: list[str]) -> None:
    assert rerank.capitalised(query) == words


def test_the_file_named_after_a_named_type_comes_first(indexed: Indexed) -> None:
    service = indexed(
        {"channels/Channel.kt": CHANNEL, "channels/Produce.kt": PRODUCE, "Other.kt": "val x = 1\n"}
    )
    hits = service.search("Channel for sending and receiving values between coroutines").hits
    assert hits[0].path == "channels/Channel.kt"
    reasons = [s.reason for s in hits[0].explanation.signals if s.name == "type-file"]
    assert reasons == ["the query names `Channel`; this file is named after it and defines it"]
    produced = [h for h in hits if h.path == "channels/Produce.kt"]
    assert produced and all(s.name != "type-file" for h in produced for s in h.explanation.signals)
    # A file named after a word that defines no such type gets nothing.
    hits = service.search("Other values sent to the channel").hits
    assert all(s.name != "type-file" for h in hits for s in h.explanation.signals)
