"""Standings and pairings as CSV for spreadsheets (docs/interfaces.md ``export_csv``; the
staff pages' "CSV" links): rows of text, written in UTF-8 with a byte-order mark so that
spreadsheets read names with accents right.

Players are named by their file id, as in TOM files: the Play! Pokémon ID (any
organisation's player id) where it names them alone, else the registration's id in the
event (``tournaments.identities.file_ids``). Columns are only ever added, at the end
(docs/interfaces.md).
"""

from __future__ import annotations

import csv
import io
from typing import Any

from standings.adapters import decimal_text
from standings.services import standings_data
from tournaments.models import Event, Outcome, Round
from tournaments.selectors.names import file_ids_for_event, shown_names_by_external_id
from tournaments.spreadsheet import safe_rows

#: A spreadsheet opens UTF-8 text as UTF-8 only after this byte-order mark.
ENCODING = "utf-8-sig"


def _tiebreaker(line: dict[str, Any], key: str) -> str:
    """A tiebreaker cell: a count as it is, a percentage (0–1) or average as a number
    rounded as the Standings JSON writes it (``adapters.decimal_text``); empty when the
    ruleset gives none."""
    value = line.get("tiebreakers", {}).get(key)
    if value is None:
        return ""
    return str(value) if isinstance(value, int) else decimal_text(line["exact"][key])


def standings_rows(event: Event) -> list[list[str]]:
    """Header plus one row per player and division, in standings order: division, place
    (empty for a disqualified player), player id (the file id, module docstring), name,
    record (W-L-T), match points, every tiebreaker column of the event's ruleset, headed
    as on the pages (:func:`_tiebreaker`), then ``dropped`` (``true`` / ``false``, as the
    Standings JSON)."""
    columns = event.rules.columns
    rows = [
        ["division", "place", "player id", "name", "record", "match points"]
        + [c.heading for c in columns]
        + ["dropped"]
    ]
    ids = file_ids_for_event(event.pk)
    names = shown_names_by_external_id(event.pk)  # same-name players told apart
    for code, lines in standings_data(event).get("divisions", {}).items():
        for line in lines:
            rows.append(
                [
                    code,
                    "" if line["place"] is None else str(line["place"]),
                    ids.get(line["player"], line["player"]),
                    names.get(line["player"], line["name"]),
                    line["record"],
                    str(line["match_points"]),
                    *(_tiebreaker(line, c.key) for c in columns),
                    "true" if line["dropped"] else "false",
                ]
            )
    return rows


def _result(outcome: str, winner: str | None) -> str:
    """A match's result as event JSON writes it: the winner's id, ``draw``,
    ``double-loss``, ``bye``, ``loss``; empty while not reported."""
    if outcome == Outcome.WIN:
        return winner or ""
    return "" if outcome == Outcome.PENDING else str(outcome)


def pairings_rows(event: Event, round: Round | None = None) -> list[list[str]]:
    """Header plus one row per match: round, pairing group, table (0 for a bye), each
    seat's player id (the file id, module docstring) and name, the result
    (:func:`_result`, the winner by file id), then the table's marks as the pairings
    show them: ``fixed seat`` (``Match.seating``: ``fixed``, ``fixed-not-top`` for a
    fixed seat that is not a top table, empty otherwise; never the private reason) and
    ``feature table`` (the featured match's feature table name, empty when not
    featured). ``round``: that round only; default the
    current pairings: in each family of pairing groups (a division's Swiss group with its
    flights and its top cut), the rounds of the highest number, so a player who went on
    to the top cut is listed once, not again with their last Swiss round (
    item 14)."""
    rounds = [round] if round is not None else _current_rounds(event)
    ids = file_ids_for_event(event.pk)
    names = shown_names_by_external_id(event.pk)  # same-name players told apart
    out: list[tuple[list[str], list[str]]] = []
    seats_max = 2
    for rnd in rounds:
        matches = rnd.matches.order_by("table", "pk").select_related("winner")
        for m in matches.prefetch_related("seats__registration__player"):
            seats = sorted(m.seats.all(), key=lambda s: s.seat)
            seats_max = max(seats_max, len(seats))
            row = [str(rnd.number), rnd.group.key, str(m.table or 0)]
            for s in seats:
                ext = s.registration.external_id
                row += [ids[ext], names.get(ext, s.registration.player.name)]
            result = _result(m.outcome, ids[m.winner.external_id] if m.winner else None)
            out.append((row, [result, m.seating, m.feature_table]))
    header = ["round", "group", "table"]
    for n in range(1, seats_max + 1):
        header += [f"player {n} id", f"player {n}"]
    width = len(header)
    return [header + ["result", "fixed seat", "feature table"]] + [
        row + [""] * (width - len(row)) + tail for row, tail in out
    ]


def _current_rounds(event: Event) -> list[Round]:
    """The latest rounds of each family of pairing groups (groups joined by ``parent``),
    in family then table order."""
    all_rounds = list(
        Round.objects.filter(event=event).select_related("group").order_by("number", "pk")
    )
    parent = dict(event.groups.values_list("pk", "parent_id"))

    def root(group_id: int) -> int:
        while parent.get(group_id) is not None:
            group_id = parent[group_id]
        return group_id

    latest: dict[int, int] = {}
    for rnd in all_rounds:
        latest[root(rnd.group_id)] = rnd.number
    return [r for r in all_rounds if latest[root(r.group_id)] == r.number]


def csv_text(rows: list[list[str]]) -> str:
    """The rows as CSV text (write it with :data:`ENCODING`, or encode it so); a cell a
    spreadsheet would run as a formula is written as text (``tournaments.spreadsheet``)."""
    buffer = io.StringIO()
    csv.writer(buffer).writerows(safe_rows(rows))  # never a formula in a spreadsheet
    return buffer.getvalue()
