"""Work done in turns (the bootstrap's batches of replicates): who hears that a turn is done.

An engine that computes the parts of :meth:`Frame.in_turn
<framemetrics.core.frame.Frame.in_turn>` one after the other calls
:func:`turn_done` after each; the command line listens (:func:`listening`)
to show the bootstrap's progress. Nothing listens by default.

Examples
--------
>>> heard = []
>>> with listening(lambda done, total: heard.append((done, total))):
...     turn_done(1, 2)
>>> heard
[(1, 2)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["listening", "turn_done"]

Listener = Callable[[int, int], None]
_LISTENER: ContextVar[Listener | None] = ContextVar("framemetrics_turn_listener", default=None)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """While the body runs, call ``listener(done, total)`` after each turn an engine computes.

    Examples
    --------
    >>> with listening(print):
    ...     turn_done(3, 4)
    3 4
    """
    token = _LISTENER.set(listener)
    try:
        yield
    finally:
        _LISTENER.reset(token)


def turn_done(done: int, total: int) -> None:
    """Tell the listener, if any, that ``done`` of ``total`` turns are computed.

    Examples
    --------
    >>> turn_done(1, 2)  # nothing listens
    """
    listener = _LISTENER.get()
    if listener is not None:
        listener(done, total)
