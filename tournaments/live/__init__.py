"""Live pages: every open page of an event learns of a change within seconds.

One mechanism for every page that shows event state, in three parts:

- ``versions``: what changed, kept in the database (``LiveVersion``: a counter per event
  and *topic*). A service calls :func:`changed` in its transaction; after commit the
  counters grow and every process is told (in-process at once, other processes through
  Redis pub/sub when configured, and in any case by reading the table every second).
- ``hub``: one per process; holds the open connections (listeners) and hands each change
  to those that follow its topic.
- ``stream``: the server-sent-events answer (``text/event-stream``) that a page holds
  open, served by a thread under WSGI (``make run``, the tests' live server) and by the
  event loop under ASGI (uvicorn, production). The page then fetches only what changed:
  the prebuilt public fragment (with its ETag) or the player's own section.

Topics: ``public`` (public pages and the public parts of a player's page), ``staff``
(staff pages: any change at all), ``clock`` (a round clock), ``results`` (a result was
entered: the projector's tables still playing), ``finished`` (the event is over: public
streams close) and ``reg:<registration id>`` (one player's own match or entry). A public
page follows ``clock`` and ``results`` only when it asks (the projector): a few thousand
phones on the pairings page are not told of every slip.
"""

from .versions import (
    CLOCK,
    FINISHED,
    OPTIONAL_PUBLIC,
    PUBLIC,
    RESULTS,
    STAFF,
    bump,
    changed,
    current,
    player_topic,
)

__all__ = [
    "CLOCK",
    "FINISHED",
    "OPTIONAL_PUBLIC",
    "PUBLIC",
    "RESULTS",
    "STAFF",
    "bump",
    "changed",
    "current",
    "player_topic",
]
