"""Writer of Pokémon TOM ``.tdf`` files, pure Python, no Django.

``write_tdf(doc)`` turns a :class:`TdfDocument` into the text TOM 1.80 writes: the same
elements in the same order, tab indentation, ``<round number="1" type="3" stage="6" >``
with its space before ``>``, ``<player userid="…" />`` in subgroups and standings but
``<player1 userid="…"/>`` in matches, ``<organizer …/>``, empty elements written
``<state></state>``, LF line ends and a final newline. Values the app does not
understand (stage codes, poddata, timings, timestamps) are carried in the document as
``(tag, text)`` pairs and written back unchanged. ``tdf.parse_tdf`` reads the result.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from xml.sax.saxutils import escape

Raw = tuple[tuple[str, str], ...]

#: Outcome value (``Outcome``) → TOM outcome code; a win is 1 or 2 by the winner's seat.
OUTCOME_CODE = {"pending": 0, "draw": 3, "bye": 5, "loss": 8, "double-loss": 10}


@dataclass(frozen=True)
class ExportPlayer:
    """One ``<player>``; dropped_round: the last round played, or None."""

    userid: str
    firstname: str
    lastname: str
    birthdate: str
    starter: bool
    dropped_round: int | None = None
    dropped_raw: Raw = (("status", "1"), ("timestamp", ""))
    raw: Raw = ()


@dataclass(frozen=True)
class ExportMatch:
    """One ``<match>``: TOM outcome code, one or two userids, timestamp, table (0: bye)."""

    code: int
    players: tuple[str, ...]
    timestamp: str
    table: int


@dataclass(frozen=True)
class ExportRound:
    number: int
    type: int
    stage: str
    raw: Raw
    matches: tuple[ExportMatch, ...]


@dataclass(frozen=True)
class ExportPod:
    category: int
    stage: str
    poddata: Raw
    subgroups: tuple[tuple[str, tuple[str, ...]], ...]
    rounds: tuple[ExportRound, ...]


@dataclass(frozen=True)
class ExportStanding:
    """One ``<standings><pod category type>``: userids in place order."""

    category: int
    type: str
    players: tuple[str, ...]


@dataclass(frozen=True)
class ExportCut:
    key: int
    options: tuple[int, ...]
    cut: int
    playercount: int | None
    paired_3rd_4th: bool


@dataclass(frozen=True)
class TdfDocument:
    """A whole file. root: (type, stage, version, gametype, mode) attribute values;
    data: ``<data>`` children in TOM's order as (tag, text) except ``organizer``
    (popid, name), written after ``finalsroundtime``; raw: top-level extras (timeelapsed)."""

    root: tuple[str, str, str, str, str]
    data: Raw
    organizer: tuple[str, str]
    data_raw: Raw
    raw: Raw
    players: tuple[ExportPlayer, ...]
    pods: tuple[ExportPod, ...]
    standings: tuple[ExportStanding, ...]
    cuts: tuple[ExportCut, ...]


def _attr(value: str) -> str:
    return escape(value, {'"': "&quot;"})


def _el(depth: int, tag: str, text: str) -> str:
    return f"{chr(9) * depth}<{tag}>{escape(text)}</{tag}>"


def _raw(depth: int, pairs: Raw) -> Iterator[str]:
    for tag, text in pairs:
        yield _el(depth, tag, text)


def _data(doc: TdfDocument) -> Iterator[str]:
    yield "\t<data>"
    for tag, text in doc.data:
        if tag == "startdate":
            popid, name = doc.organizer
            yield f'\t\t<organizer popid="{_attr(popid)}" name="{_attr(name)}"/>'
        yield _el(2, tag, text)
    yield from _raw(2, doc.data_raw)
    yield "\t</data>"


def _player(p: ExportPlayer) -> Iterator[str]:
    yield f'\t\t<player userid="{_attr(p.userid)}">'
    yield _el(3, "firstname", p.firstname)
    yield _el(3, "lastname", p.lastname)
    yield _el(3, "birthdate", p.birthdate)
    yield _el(3, "starter", "true" if p.starter else "false")
    if p.dropped_round is not None:
        yield "\t\t\t<dropped>"
        yield from _raw(4, p.dropped_raw[:1])
        yield _el(4, "round", str(p.dropped_round))
        yield from _raw(4, p.dropped_raw[1:])
        yield "\t\t\t</dropped>"
    yield from _raw(3, p.raw)
    yield "\t\t</player>"


def _match(m: ExportMatch) -> Iterator[str]:
    t = "\t" * 6
    yield f'{t}<match outcome="{m.code}">'
    if len(m.players) == 1:
        yield f'{t}\t<player userid="{_attr(m.players[0])}"/>'
    else:
        for n, userid in enumerate(m.players, start=1):
            yield f'{t}\t<player{n} userid="{_attr(userid)}"/>'
    yield _el(7, "timestamp", m.timestamp)
    yield _el(7, "tablenumber", str(m.table))
    yield f"{t}</match>"


def _round(r: ExportRound) -> Iterator[str]:
    yield f'\t\t\t\t<round number="{r.number}" type="{r.type}" stage="{_attr(r.stage)}" >'
    yield from _raw(5, r.raw)
    yield "\t\t\t\t\t<matches>"
    for m in r.matches:
        yield from _match(m)
    yield "\t\t\t\t\t</matches>"
    yield "\t\t\t\t</round>"


def _pod(pod: ExportPod) -> Iterator[str]:
    yield f'\t\t<pod category="{pod.category}" stage="{_attr(pod.stage)}">'
    yield "\t\t\t<poddata>"
    yield from _raw(4, pod.poddata)
    yield "\t\t\t</poddata>"
    yield "\t\t\t<subgroups>"
    for number, ids in pod.subgroups:
        yield f'\t\t\t\t<subgroup number="{_attr(number)}">'
        yield "\t\t\t\t\t<players>"
        yield from (f'\t\t\t\t\t\t<player userid="{_attr(i)}" />' for i in ids)
        yield "\t\t\t\t\t</players>"
        yield "\t\t\t\t</subgroup>"
    yield "\t\t\t</subgroups>"
    yield "\t\t\t<rounds>"
    for r in pod.rounds:
        yield from _round(r)
    yield "\t\t\t</rounds>"
    yield "\t\t</pod>"


def _standings(doc: TdfDocument) -> Iterator[str]:
    yield "\t<standings>"
    for s in doc.standings:
        yield f'\t\t<pod category="{s.category}" type="{_attr(s.type)}">'
        for place, userid in enumerate(s.players, start=1):
            yield f'\t\t\t<player id="{_attr(userid)}" place="{place}" />'
        yield "\t\t</pod>"
    yield "\t</standings>"


def _cuts(doc: TdfDocument) -> Iterator[str]:
    yield "\t<finalsoptions>"
    for c in doc.cuts:
        yield f'\t\t<categorycut key="{c.key}">'
        yield "\t\t\t<options>"
        yield from (_el(4, "value", str(v)) for v in c.options)
        yield "\t\t\t</options>"
        yield _el(3, "cut", str(c.cut))
        yield _el(3, "playercount", "" if c.playercount is None else str(c.playercount))
        yield _el(3, "paired3rd4th", "true" if c.paired_3rd_4th else "false")
        yield "\t\t</categorycut>"
    yield "\t</finalsoptions>"


def _lines(doc: TdfDocument) -> Iterator[str]:
    kind, stage, version, gametype, mode = (_attr(v) for v in doc.root)
    yield '<?xml version="1.0" encoding="UTF-8"?>'
    yield (
        f'<tournament type="{kind}" stage="{stage}" version="{version}" '
        f'gametype="{gametype}" mode="{mode}">'
    )
    yield from _data(doc)
    yield from _raw(1, doc.raw)
    yield "\t<players>"
    for p in doc.players:
        yield from _player(p)
    yield "\t</players>"
    yield "\t<pods>"
    for pod in doc.pods:
        yield from _pod(pod)
    yield "\t</pods>"
    yield from _standings(doc)
    yield from _cuts(doc)
    yield "</tournament>"


def write_tdf(doc: TdfDocument) -> str:
    """The TOM file text of ``doc`` (see the module docstring for the format quirks)."""
    return "\n".join(_lines(doc)) + "\n"
