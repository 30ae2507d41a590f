"""Deck lists as players write them, and a game's deck-construction rules (
item 5), without a card database.

Pure Python (no Django). :func:`parse_decklist` reads the text a player pastes — one
``4 Card Name`` line per card, the way the Pokémon TCG Live and MTG Arena exports and
hand-typed lists write them — into :class:`DeckLine` rows; :class:`DeckRules` is the
strategy data a ruleset module declares (``Ruleset.decklist``): how many cards the main
deck and the sideboard hold, how many of one name are allowed and which names are
exempt (basic Energy, basic lands), and which section headers it knows. Every refusal
is a :class:`DeckProblem` whose ``message`` is a :class:`rulesets.i18n.Text` naming the
line (and the count), translated where it is shown.

What the parser tolerates (decisions, the rules being silent):

* a count written ``4``, ``4x`` or ``4 x``; a leading bullet (``*``, ``•``, ``-``, ``#``);
  a per-line ``SB:`` prefix (sideboard); blank lines and ``//`` comment lines;
* set codes and collector numbers after the name: ``4 Pikachu ex SVI 057``,
  ``1 Jirachi PR-SV 161``, ``8 Lightning Energy Energy 4`` (Pokémon, an upper-case code
  starting with a letter, then a number), ``4 Lightning Bolt (2XM) 141`` and
  ``[2XM]`` (Magic, a code in brackets, the number optional), and a foil mark ``*F*``;
* section headers the game knows, with or without a count: ``Pokémon: 12``,
  ``Trainer - 36``, ``Energy: 12``, ``Total Cards: 60`` (ignored), ``Deck``,
  ``Sideboard``, ``Creatures (24)``; a header switches the section of the lines below it.
  A blank line never does: players leave blank lines between groups, so a sideboard
  needs its header (or ``SB:``).

Names are compared case-, accent- and apostrophe-blind (``Pokemon Catcher`` is
``Pokémon Catcher``), so two printings of one card (``2 Pikachu ex SVI 57`` and
``2 Pikachu ex OBF 63``) count as one name.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from .i18n import Text, gettext_noop, text

#: The longest list read (lines) and the largest count on one line: a pasted page of
#: anything else is refused at once, naming the limit.
MAX_LINES = 400
MAX_COUNT = 999


class Section(StrEnum):
    """Where a card line belongs: the main deck or the sideboard (Magic, MTR 100.4)."""

    MAIN = "main"
    SIDEBOARD = "sideboard"


@dataclass(frozen=True)
class DeckLine:
    """One card line of a list. ``line``: its number in the text, 1 first. ``count``:
    the copies (1–999). ``name``: the card's name as written, without set code,
    collector number or foil mark. ``section``: :class:`Section`. ``key``: the name as
    compared (:func:`card_key`)."""

    line: int
    count: int
    name: str
    section: Section
    key: str


@dataclass(frozen=True)
class DeckList:
    """A parsed list: its card lines in the order written."""

    lines: tuple[DeckLine, ...]

    def total(self, section: Section | None = None) -> int:
        """Cards in ``section`` (None: the whole list)."""
        return sum(c.count for c in self.lines if section is None or c.section is section)

    @property
    def main(self) -> tuple[DeckLine, ...]:
        return tuple(c for c in self.lines if c.section is Section.MAIN)

    @property
    def sideboard(self) -> tuple[DeckLine, ...]:
        return tuple(c for c in self.lines if c.section is Section.SIDEBOARD)


@dataclass(frozen=True)
class DeckExample:
    """How a game's lists are written, for the help beside a list box and the refusal of
    an unreadable line, declared by each ruleset module (``Ruleset.deck_example``).
    ``line``: a card line of the game ("4 Lightning Bolt"); ``set_codes``: the set codes
    and collector numbers its lists write after a name, which may stay ("(2XM) 141"),
    or "" to say nothing of them. Card names and codes, never translated."""

    line: str
    set_codes: str = ""


@dataclass(frozen=True)
class DeckProblem:
    """Why a list is refused: ``message`` (a ``Text``: the English value, translated
    where shown) and the ``lines`` it is about (empty for a whole-deck count)."""

    message: Text
    lines: tuple[int, ...] = ()


class DeckListError(ValueError):
    """A list that is refused; ``problems`` lists every reason, in line order, then the
    counts. ``str()`` is the first problem's message."""

    def __init__(self, problems: list[DeckProblem]) -> None:
        super().__init__(problems[0].message)
        self.problems = tuple(problems)


# --- reading the text ------------------------------------------------------------

_BULLET = re.compile(r"^[\s*•#]+|^-\s+")
_SIDEBOARD_PREFIX = re.compile(r"^SB:\s*", re.IGNORECASE)
_CARD = re.compile(r"^(?P<count>\d{1,4})\s*(?:[xX](?=\s))?\s+(?P<name>\S.*)$")
_FOIL = re.compile(r"\s+\*[A-Z]\*$")
_MAGIC_SET = re.compile(r"\s+[(\[][A-Za-z0-9]{2,6}[)\]](?:\s+[A-Za-z0-9★-]{1,8})?$")
_POKEMON_SET = re.compile(
    r"\s+(?:[A-Z][A-Z0-9]{1,4}(?:-[A-Z0-9]{1,4})?|Energy)\s+[A-Za-z]{0,3}\d{1,4}[a-z]?$"
)
_HEADER = re.compile(r"^(?P<word>[^\d():]+?)\s*(?:[:\-–—]\s*)?(?:\(\d+\)|\d+)?\s*:?$")


def card_key(name: str) -> str:
    """A card name as compared: accents dropped, case folded, curly apostrophes made
    straight, runs of spaces made one. ``"Pokémon  Catcher"`` → ``"pokemon catcher"``."""
    decomposed = unicodedata.normalize("NFKD", name.replace("’", "'").replace("‘", "'"))
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(plain.casefold().split())


def _card_name(raw: str) -> str:
    """The name without a foil mark, a Magic ``(SET) 141`` or a Pokémon ``SVI 057``."""
    name = _FOIL.sub("", raw.strip())
    name = _MAGIC_SET.sub("", name)
    return _POKEMON_SET.sub("", name).strip()


def _unreadable(number: int, raw: str, example: str) -> DeckProblem:
    if not example:
        message = text(
            gettext_noop(
                "Line %(line)s: “%(text)s” is not a card line: write the count, then the "
                "card's name."
            ),
            line=number,
            text=raw[:80],
        )
    else:
        message = text(
            gettext_noop(
                "Line %(line)s: “%(text)s” is not a card line: write the count, then the "
                "card's name (%(example)s)."
            ),
            line=number,
            text=raw[:80],
            example=example,
        )
    return DeckProblem(message, (number,))


def parse_decklist(raw: str, headers: Mapping[str, Section | None], example: str = "") -> DeckList:
    """Read a pasted list (see the module docstring) into :class:`DeckList`.

    ``headers``: the section words the game knows, as :func:`card_key` writes them →
    the section the lines below belong to (None: a header that is only a note, like
    ``Total Cards: 60``). ``example``: a card line of the game ("4 Lightning Bolt",
    :class:`DeckExample`) that the refusal of an unreadable line shows; "" for none.
    Raises :class:`DeckListError` naming every line that is neither a card line, a known
    header nor blank, every line with a count of 0, and a list longer than
    :data:`MAX_LINES` lines.
    """
    rows = raw.splitlines()
    if len(rows) > MAX_LINES:
        problem = text(
            gettext_noop("The list has %(count)s lines; at most %(limit)s are read."),
            count=len(rows),
            limit=MAX_LINES,
        )
        raise DeckListError([DeckProblem(problem)])
    section, cards, problems = Section.MAIN, [], []
    for number, row in enumerate(rows, start=1):
        line = _BULLET.sub("", row.strip()).strip()
        if not line or line.startswith("//"):
            continue
        here = section
        if prefixed := _SIDEBOARD_PREFIX.match(line):
            line, here = line[prefixed.end() :], Section.SIDEBOARD
        if card := _CARD.match(line):
            count, name = int(card["count"]), _card_name(card["name"])
            if count == 0 or count > MAX_COUNT:
                problems.append(_bad_count(number, row.strip(), count))
            elif name:
                cards.append(DeckLine(number, count, name, here, card_key(name)))
            continue
        header = _HEADER.match(line)
        if header and (key := card_key(header["word"].rstrip(":-–— "))) in headers:
            section = headers[key] or section
            continue
        problems.append(_unreadable(number, row.strip(), example))
    if problems:
        raise DeckListError(problems)
    return DeckList(tuple(cards))


def _bad_count(number: int, raw: str, count: int) -> DeckProblem:
    return DeckProblem(
        text(
            gettext_noop("Line %(line)s: “%(text)s”: %(count)s is not a number of cards (1–999)."),
            line=number,
            text=raw[:80],
            count=count,
        ),
        (number,),
    )


# --- the game's rules --------------------------------------------------------------

#: (was the event marked as awarding Championship Points, the event's options) → whether
#: the event collects deck lists unless the organiser says otherwise.
RequiredByDefault = Callable[[bool, Mapping[str, Any]], bool]


def _never(championship_points: bool, options: Mapping[str, Any]) -> bool:
    return False


@dataclass(frozen=True)
class DeckRules:
    """A game's deck-construction rules as data, checked without a card database.

    main_min / main_max: cards in the main deck (equal: exactly that many; main_max None:
    no upper limit). sideboard_max: cards in the sideboard (0: a sideboard is refused;
    None: no limit). copies: at most this many cards of one name, main deck and
    sideboard together (MTR 100.2a; None: no limit). any_number: names exempt from
    ``copies`` (basic Energy, basic lands), as :func:`card_key` writes them; ``own_limits``:
    names with a limit of their own printed on the card (``"seven dwarves": 7``).
    headers: the section words of the game's lists (:func:`parse_decklist`).
    required_by_default: whether an event collects lists when its organiser has not
    said (Pokémon: a Championship Point event, P-POST-5; Magic: Competitive or
    Professional rules enforcement).
    """

    main_min: int
    main_max: int | None
    sideboard_max: int | None
    copies: int | None
    any_number: frozenset[str] = frozenset()
    own_limits: Mapping[str, int] = field(default_factory=dict)
    headers: Mapping[str, Section | None] = field(default_factory=dict)
    required_by_default: RequiredByDefault = _never

    def parse(self, raw: str, example: str = "") -> DeckList:
        """:func:`parse_decklist` with this game's headers (``example``: the card line an
        unreadable line's refusal shows, "" for none)."""
        return parse_decklist(raw, self.headers, example)

    def problems(self, deck: DeckList) -> list[DeckProblem]:
        """Every rule ``deck`` breaks: too many of a name (naming its lines and count),
        then the main deck's and the sideboard's sizes (naming the count). Empty when
        the deck is legal."""
        return [*self._copies(deck), *self._sizes(deck)]

    def validate(self, raw: str, example: str = "") -> DeckList:
        """The parsed list when it is readable and legal; raises :class:`DeckListError`
        with every problem otherwise (``example`` as for :meth:`parse`)."""
        deck = self.parse(raw, example)
        if problems := self.problems(deck):
            raise DeckListError(problems)
        return deck

    def _copies(self, deck: DeckList) -> list[DeckProblem]:
        by_name: dict[str, list[DeckLine]] = {}
        for card in deck.lines:
            by_name.setdefault(card.key, []).append(card)
        found = []
        for key, cards in by_name.items():
            limit = self.own_limits.get(key, self.copies)
            count = sum(c.count for c in cards)
            if limit is None or key in self.any_number or count <= limit:
                continue
            lines = tuple(c.line for c in cards)
            params = {"count": count, "name": cards[0].name, "limit": limit}
            if len(lines) == 1:
                msgid = gettext_noop(
                    "Line %(lines)s: %(count)s cards named %(name)s; at most %(limit)s."
                )
            else:
                msgid = gettext_noop(
                    "Lines %(lines)s: %(count)s cards named %(name)s together; at most %(limit)s."
                )
            found.append(DeckProblem(text(msgid, lines=_numbers(lines), **params), lines))
        return sorted(found, key=lambda p: p.lines)

    def _sizes(self, deck: DeckList) -> list[DeckProblem]:
        main, side = deck.total(Section.MAIN), deck.total(Section.SIDEBOARD)
        found = []
        if self.main_max == self.main_min and main != self.main_min:
            found.append(
                text(
                    gettext_noop("The deck has %(count)s cards; it must have exactly %(size)s."),
                    count=main,
                    size=self.main_min,
                )
            )
        elif main < self.main_min:
            found.append(
                text(
                    gettext_noop("The main deck has %(count)s cards; it needs at least %(size)s."),
                    count=main,
                    size=self.main_min,
                )
            )
        elif self.main_max is not None and main > self.main_max:
            found.append(
                text(
                    gettext_noop("The main deck has %(count)s cards; at most %(size)s."),
                    count=main,
                    size=self.main_max,
                )
            )
        if self.sideboard_max == 0 and side:
            found.append(
                text(
                    gettext_noop("This game has no sideboard: %(count)s cards are under one."),
                    count=side,
                )
            )
        elif self.sideboard_max is not None and side > self.sideboard_max:
            found.append(
                text(
                    gettext_noop("The sideboard has %(count)s cards; at most %(size)s."),
                    count=side,
                    size=self.sideboard_max,
                )
            )
        return [DeckProblem(m) for m in found]


def _numbers(lines: tuple[int, ...]) -> str:
    return ", ".join(str(n) for n in lines)


def keys(*names: str) -> frozenset[str]:
    """Names as :func:`card_key` writes them (for ``any_number``)."""
    return frozenset(card_key(n) for n in names)


#: The lists of a ruleset that declares no rules of its own: any readable list with at
#: least one card, main deck and sideboard, no limit on copies.
ANY_DECK = DeckRules(
    main_min=1,
    main_max=None,
    sideboard_max=None,
    copies=None,
    headers={
        "deck": Section.MAIN,
        "main": Section.MAIN,
        "main deck": Section.MAIN,
        "sideboard": Section.SIDEBOARD,
        "banquillo": Section.SIDEBOARD,
    },
)
