"""Deck lists from players (P-POST-5).

An event collects lists when its organiser says so, else by its ruleset's default
(``Event.collects_decklists``). Each player submits and edits their list on their
private link until the event's deadline (``Event.decklist_deadline``; none set: until
a first round starts); after it the list is locked, and staff may reopen one player's
list for one more submission (``Registration.decklist_reopened``). Every list a player
submits is read and checked by the ruleset's deck rules (``rulesets.decklists``: the
count of cards, copies of a name, the sideboard) before it is kept: a refused list
changes nothing and every refusal names its line or the count. Staff may still record
a list handed in on paper (``services.decklists.decklist_record``); it is kept as
received, and the judges' page shows what its rules would refuse.

Judges read every list (``decklist_for_staff``); the organiser chooses whether the lists
are public once the event is finished (``Event.decklists_public``,
``decklists_for_public``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from rulesets.decklists import ANY_DECK, DeckList, DeckListError, DeckRules, Section

from ..actors import Actor
from ..errors import DecklistRefused, InvalidInput
from ..models import Event, EventStatus, Registration, RoundStatus
from ..public_pages import public_pages_changed
from ..selectors.names import registration_name, with_shown_names
from ..stored_text import shown
from .audit import audit_log

#: The longest list kept, in characters (the staff form's limit too).
MAX_CHARS = 20_000


def deck_rules(event: Event) -> DeckRules:
    """The deck rules lists of ``event`` are checked by: its ruleset's, or any readable
    list for a ruleset that declares none (``rulesets.decklists.ANY_DECK``)."""
    return event.rules.decklist or ANY_DECK


def _example_line(event: Event) -> str:
    """A card line of ``event``'s game ("4 Lightning Bolt"), or "" when its ruleset
    declares none (``Ruleset.deck_example``)."""
    example = event.rules.deck_example
    return example.line if example else ""


def decklist_help(event: Event) -> str:
    """How to write a list for ``event``, in the reader's language, from its ruleset's
    example (``Ruleset.deck_example``): "One line per card: the count, then the name (4
    Lightning Bolt). Set codes may stay ((2XM) 141). A Sideboard header starts the
    sideboard." — the example, the set codes and the sideboard each only where the game
    has them (a Pokémon deck has no sideboard)."""
    example = event.rules.deck_example
    if example:
        sentences = [
            gettext("One line per card: the count, then the name (%(example)s).")
            % {"example": example.line}
        ]
    else:
        sentences = [gettext("One line per card: the count, then the name.")]
    if example and example.set_codes:
        sentences.append(gettext("Set codes may stay (%(codes)s).") % {"codes": example.set_codes})
    if deck_rules(event).sideboard_max != 0:
        sentences.append(gettext("A Sideboard header starts the sideboard."))
    return " ".join(sentences)


@dataclass(frozen=True)
class DecklistWindow:
    """Whether a player may submit or edit their list now. ``open``; ``deadline``: the
    event's deadline (None: lists close when a first round starts); ``reopened``: staff
    reopened this player's list; ``reason``: why it is closed, in the reader's language
    (empty when open)."""

    open: bool
    deadline: dt.datetime | None
    reopened: bool = False
    reason: str = ""


def _play_started(event: Event) -> bool:
    return event.rounds.filter(status__in=(RoundStatus.STARTED, RoundStatus.COMPLETE)).exists()


def decklist_window(registration: Registration, now: dt.datetime | None = None) -> DecklistWindow:
    """Whether ``registration`` may submit or edit their list at ``now`` (default: now):
    the event collects lists, it is not finished, the player still plays, and the
    deadline has not passed (none set: no round has started) or staff reopened their
    list. At most one query."""
    event, now = registration.event, now or timezone.now()
    deadline, reopened = event.decklist_deadline, registration.decklist_reopened

    def closed(reason: str) -> DecklistWindow:
        return DecklistWindow(False, deadline, reopened, reason)

    if not event.collects_decklists:
        return closed(gettext("This event does not collect deck lists."))
    if event.status == EventStatus.FINISHED:
        return closed(gettext("The event is finished."))
    if registration.disqualified or registration.dropped:
        return closed(gettext("You no longer play in this event."))
    if reopened:
        return DecklistWindow(True, deadline, True)
    if deadline is not None and now >= deadline:
        return closed(gettext("The deadline for deck lists has passed: ask the staff."))
    if deadline is None and _play_started(event):
        return closed(gettext("Deck lists closed when round 1 started: ask the staff."))
    return DecklistWindow(True, deadline)


def decklist_check(event: Event, text: str) -> DeckList:
    """The list ``text`` read and checked by ``event``'s deck rules (``deck_rules``).
    Raises DecklistRefused with every problem (naming its line or the count) in the
    reader's language, or InvalidInput for an empty or overlong text."""
    text = text.strip()
    if not text:
        example = _example_line(event)
        raise InvalidInput(
            gettext("Paste or type your list: one line per card, like %(example)s.")
            % {"example": example}
            if example
            else gettext("Paste or type your list: one line per card, the count then the name.")
        )
    if len(text) > MAX_CHARS:
        raise InvalidInput(
            gettext("The list is %(chars)s characters long; at most %(limit)s.")
            % {"chars": len(text), "limit": MAX_CHARS}
        )
    try:
        return deck_rules(event).validate(text, _example_line(event))
    except DeckListError as e:
        raise DecklistRefused([shown(p.message) for p in e.problems]) from None


@transaction.atomic
def decklist_submit(
    *, registration: Registration, text: str, now: dt.datetime | None = None
) -> Registration:
    """The player submits (or replaces) their own list on their private link (
    item 5): kept only while their window is open (``decklist_window``) and the list is
    legal (``decklist_check``); a submission after a reopening locks the list again.
    Audited as the player (``decklist.submit``). Raises InvalidInput (closed, empty) or
    DecklistRefused; nothing changes then."""
    reg = (
        Registration.objects.select_for_update()
        .select_related("event", "player")
        .get(pk=registration.pk)
    )
    window = decklist_window(reg, now)
    if not window.open:
        raise InvalidInput(window.reason)
    text = "\n".join(text.strip().splitlines())  # a browser posts CRLF; kept as LF
    deck = decklist_check(reg.event, text)
    old = {"received": reg.decklist_received_at is not None, "chars": len(reg.decklist)}
    reg.decklist, reg.decklist_received_at = text, now or timezone.now()
    reg.decklist_reopened = False
    reg.save(update_fields=["decklist", "decklist_received_at", "decklist_reopened"])
    new = {
        "received": True,
        "chars": len(reg.decklist),
        "main": deck.total(Section.MAIN),
        "sideboard": deck.total(Section.SIDEBOARD),
        "reopened": window.reopened,
    }
    audit_log(event=reg.event, by=reg, action="decklist.submit", obj=reg, old=old, new=new)
    return reg


@transaction.atomic
def decklist_reopen(*, registration: Registration, by: Actor, reopen: bool = True) -> Registration:
    """Staff reopen one player's list after the deadline (``reopen``: they may submit it
    once more; their next submission locks it again), or lock it again (``reopen=False``).
    Only a list handed in is reopened: a reopening is for one correction, and a missing
    list is typed in by staff (``decklist_record``). Audited (``decklist.reopen`` /
    ``decklist.lock``). Raises InvalidInput when the event collects no lists or is
    finished, or to reopen a list the player never handed in."""
    reg = (
        Registration.objects.select_for_update()
        .select_related("event", "player")
        .get(pk=registration.pk)
    )
    if not reg.event.collects_decklists:
        raise InvalidInput(gettext("This event does not collect deck lists."))
    if reg.event.status == EventStatus.FINISHED:
        raise InvalidInput(gettext("The event is finished."))
    if reopen and reg.decklist_received_at is None:
        raise InvalidInput(
            gettext(
                "%(name)s has not handed in a deck list: there is none to reopen. "
                "Type in a list handed in on paper with Received."
            )
            % {"name": registration_name(reg)}
        )
    if reg.decklist_reopened != reopen:
        reg.decklist_reopened = reopen
        reg.save(update_fields=["decklist_reopened"])
        action = "decklist.reopen" if reopen else "decklist.lock"
        audit_log(event=reg.event, by=by, action=action, obj=reg, new={"reopened": reopen})
    return reg


@transaction.atomic
def decklist_deadline_set(*, event: Event, by: Actor, deadline: dt.datetime | None) -> Event:
    """Set (or clear: None) the time until which players submit and edit their lists.
    Audited (``decklist.deadline``) with the old and new times (ISO 8601); the players'
    open pages show the new time (:func:`_players_pages_changed`)."""
    ev = Event.objects.select_for_update().get(pk=event.pk)
    old = ev.decklist_deadline
    if old != deadline:
        ev.decklist_deadline = deadline
        ev.save(update_fields=["decklist_deadline"])
        audit_log(
            event=ev,
            by=by,
            action="decklist.deadline",
            old={"deadline": old.isoformat() if old else None},
            new={"deadline": deadline.isoformat() if deadline else None},
        )
        _players_pages_changed(ev)
    return ev


def _players_pages_changed(event: Event) -> None:
    """The deck list card of every player's page changes (it appears, goes, or says
    another deadline): the players' pages follow the public notice (``sse:public``,
    spread over the seconds the server asks for), which the public pages' rebuild sends
    once stored; no pairings fragment to rebuild. 1 query."""
    public_pages_changed(event.pk, pairings=False)


@transaction.atomic
def decklist_settings_update(
    *, event: Event, by: Actor, required: bool | None, public: bool
) -> Event:
    """The organiser's choices: whether players hand in lists (``required``; None: the
    ruleset's default) and whether the lists are public once the event is finished.
    Audited (``decklist.settings``) when something changes; the players' open pages
    then show or drop their Deck list card (:func:`_players_pages_changed`)."""
    ev = Event.objects.select_for_update().get(pk=event.pk)
    old = {"required": ev.decklists_required, "public": ev.decklists_public}
    new = {"required": required, "public": public}
    if old != new:
        ev.decklists_required, ev.decklists_public = required, public
        ev.save(update_fields=["decklists_required", "decklists_public"])
        audit_log(event=ev, by=by, action="decklist.settings", old=old, new=new)
        _players_pages_changed(ev)
    return ev


@dataclass(frozen=True)
class DecklistReading:
    """A list as a judge (or, once published, anyone) reads it: ``text`` as submitted;
    ``main`` / ``sideboard``: its card lines (empty when unreadable); ``problems``: what
    the deck rules refuse, in the reader's language (a list staff recorded from paper
    may have some; a player's own list never does)."""

    text: str
    main: tuple[tuple[int, str], ...]
    sideboard: tuple[tuple[int, str], ...]
    main_count: int
    sideboard_count: int
    problems: tuple[str, ...]


def decklist_reading(event: Event, text: str) -> DecklistReading:
    """``text`` read by ``event``'s deck rules for a page: the card lines as (count,
    name) per section, their totals and every problem. Never raises for a bad list."""
    rules = deck_rules(event)
    try:
        deck = rules.parse(text, _example_line(event))
    except DeckListError as e:
        return DecklistReading(text, (), (), 0, 0, tuple(shown(p.message) for p in e.problems))
    problems = tuple(shown(p.message) for p in rules.problems(deck)) if text.strip() else ()
    return DecklistReading(
        text,
        tuple((c.count, c.name) for c in deck.main),
        tuple((c.count, c.name) for c in deck.sideboard),
        deck.total(Section.MAIN),
        deck.total(Section.SIDEBOARD),
        problems,
    )


def decklists_published(event: Event) -> bool:
    """Whether ``event``'s lists are public: the organiser chose so and it is finished."""
    return event.decklists_public and event.status == EventStatus.FINISHED


def decklists_for_public(event: Event) -> list[Registration]:
    """The players of a published event (``decklists_published``) whose list was
    submitted or typed in, by name; empty when the lists are not public. 1 query."""
    if not decklists_published(event):
        return []
    regs = event.registrations.exclude(decklist="").select_related("player")
    return list(with_shown_names(regs, event.pk).order_by("player__name"))
