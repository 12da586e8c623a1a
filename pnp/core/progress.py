"""Progress of the long steps of a build (cards drawn, sheets imposed, boards, rulebook passes,
exports, pages rasterised), told to whoever listens.

The code doing the work says what it is doing and how far it is, and knows nothing of
consoles: ``with step("cards", len(cards)) as s: ... s.advance()``. A listener, set with
:func:`listen` (the command line's progress bars, :func:`pnp.cli.output.progress_bars`), receives
:class:`Event` s. With no listener a step costs one attribute test per call. Worker
processes send their events to the listener through a queue (:func:`send_to`), so the games
of a build that run side by side each have their line.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Callable, NamedTuple

from .parallel import process_context

INTERVAL = 0.1
"""Seconds between two events of one step (its last event is always sent): a 12,800-card deck
sends about as many events as a 128-card one."""


class Event(NamedTuple):
    """Where one game's work stands: ``game`` (its id), the ``step`` under way (``cards``,
    ``boards``, ``rulebook``, ``export tgc``, ...), and ``done`` of ``total`` units (cards,
    sheets, pages, passes; ``total`` 0 when unknown)."""

    game: str
    step: str
    done: int
    total: int


_sink: Callable[[Event], None] | None = None
_game = ""


def listen(sink: Callable[[Event], None] | None) -> None:
    """Send every later event of this process to ``sink`` (None: to nobody)."""
    global _sink
    _sink = sink


def listening() -> bool:
    """Whether anyone receives this process's events."""
    return _sink is not None


def for_game(game: str) -> None:
    """Name the game whose work the following steps of this process are."""
    global _game
    _game = game


def send_to(queue) -> None:
    """Worker-process initializer: send this process's events to ``queue`` (a
    multiprocessing queue the listening process reads)."""
    listen(queue.put)


class Step:
    """One long step, ``total`` units: :meth:`advance` as units are done. A context manager;
    leaving it reports the step complete."""

    __slots__ = ("name", "total", "done", "_last")

    def __init__(self, name: str, total: int = 0):
        self.name, self.total, self.done = name, max(0, int(total)), 0
        self._last = 0.0
        self._send()

    def advance(self, units: int = 1) -> None:
        """``units`` more are done."""
        self.done += units
        if _sink is not None:
            now = time.monotonic()
            if now - self._last >= INTERVAL or (self.total and self.done >= self.total):
                self._send(now)

    def each(self, items):
        """Yield each of ``items``, advancing one unit after each; the step is complete when
        they are."""
        for item in items:
            yield item
            self.advance()
        self.__exit__(None, None, None)

    def _send(self, now: float | None = None) -> None:
        if _sink is not None:
            self._last = time.monotonic() if now is None else now
            _sink(Event(_game, self.name, min(self.done, self.total) if self.total else self.done, self.total))

    def __enter__(self) -> Step:
        return self

    def __exit__(self, *exc) -> None:
        if self.total and self.done < self.total and exc[0] is None:
            self.done = self.total
            self._send()


@contextmanager
def relay(listener: Callable[[Event], None]):
    """Within the block, every event of this process and of the worker processes given the
    queue it yields (``initializer=send_to, initargs=(queue,)``) reaches ``listener``, called
    from one thread of this process in the order the events arrive."""
    queue = process_context().Queue()

    def pump() -> None:
        while (event := queue.get()) is not None:
            listener(Event(*event))

    thread = threading.Thread(target=pump, name="pnp-progress", daemon=True)
    thread.start()
    before = _sink
    listen(queue.put)
    try:
        yield queue
    finally:
        listen(before)
        queue.put(None)
        thread.join()


def step(name: str, total: int = 0) -> Step:
    """Begin step ``name`` of ``total`` units (0: a step that is not counted)."""
    return Step(name, total)
