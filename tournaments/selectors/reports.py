"""Players' own reports as the pages show them: the staff disputes queue, each table's
report state on the round page, and a player's private page."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet
from django.utils.translation import gettext as _

from ..models import Event, Match, MatchSeat, Outcome, Registration, RoundStatus, SelfReport
from .names import registration_name, twin_exists
from .rounds import (
    PUBLIC_STATUSES,
    MatchView,
    RoundView,
    _round_views,
    draw_word,
    match_for_staff,
    match_heading,
)


@dataclass(frozen=True)
class ReportLine:
    """One player's report: who, and what they said. winner_id: the winner they
    reported (None: a drawn match or double loss); score: the game record as text
    (" 2-1-0"), or ""."""

    registration_id: int
    name: str
    text: str
    winner_id: int | None = None
    winner_name: str = ""
    score: str = ""

    def seen_by(self, viewer_id: int) -> str:
        """What was reported as the player ``viewer_id`` reads it, so every line says
        whom it is about: "you win 2-1-0", "Misty Elm wins, you lose". A drawn match or
        double loss reads as reported. Who reported is the page's whole sentence
        ("You reported: …", "Misty Elm reported: …"), never a pronoun joined to a verb."""
        if self.winner_id is None:
            return self.text
        if self.winner_id == viewer_id:
            return _("you win%(score)s") % {"score": self.score}
        return _("%(name)s wins%(score)s, you lose") % {
            "name": self.winner_name,
            "score": self.score,
        }


@dataclass(frozen=True)
class ReportSummary:
    """The reports of one table: ``state`` is waiting, held (agreed, not yet recorded),
    disputed, or agreed/overridden once the match is recorded. ``one_browser``: one
    browser reported for two players of the table, so it is disputed whatever the
    reports say."""

    state: str
    lines: tuple[ReportLine, ...]
    one_browser: bool = False


def _score(games: list[int] | None) -> str:
    """A game record as the winner's games first: [1, 2, 0] → " 2-1-0"; None → ""."""
    return f" {max(games[0], games[1])}-{min(games[0], games[1])}-{games[2]}" if games else ""


def report_text(
    outcome: str, winner_name: str | None, games: list[int] | None = None, draw: str = "Draw"
) -> str:
    """What a player reported: "Ash wins", "Tie" (``draw``: the ruleset's word for a
    drawn match), "Double loss"; with a best-of-3 game record, the winner's games first
    ("Ash wins 2-1-0", M-MATCH-1)."""
    score = _score(games)
    if outcome == Outcome.WIN:
        return f"{winner_name} wins{score}"
    return (draw if outcome == Outcome.DRAW else "Double loss") + score


def _summaries(
    reports: list[SelfReport], matches: dict[int, Match], draw: str = "Draw"
) -> dict[int, ReportSummary]:
    by_match: dict[int, list[SelfReport]] = defaultdict(list)
    for r in reports:
        by_match[r.match_id].append(r)
    out = {}
    for match_id, rs in by_match.items():
        m = matches.get(match_id)
        # every seated player reports: 2 at a match, 3–5 in a pod (``services.report_submit``)
        need = getattr(m, "n_seats", 2) if m is not None else 2
        agree = len(rs) == need and all(r.same_result(rs[0]) for r in rs)
        differ = len({(r.outcome, r.winner_id) for r in rs}) > 1
        one_browser = any(r.one_browser for r in rs)
        if m is not None and m.outcome != Outcome.PENDING:
            same = not any(r.differs_from(m) for r in rs)
            state = "agreed" if same else "overridden"
        else:
            state = "held" if agree else ("disputed" if differ or len(rs) >= need else "waiting")
            state = "disputed" if one_browser else state
        lines = tuple(
            ReportLine(
                r.registration_id,
                registration_name(r.registration, getattr(r, "name_twin", None)),
                report_text(r.outcome, _winner_name(r), r.games, draw),
                r.winner_id if r.outcome == Outcome.WIN else None,
                _winner_name(r) or "",
                _score(r.games),
            )
            for r in rs
        )
        out[match_id] = ReportSummary(state, lines, one_browser)
    return out


def _winner_name(r: SelfReport) -> str | None:
    """The reported winner as people see them (told apart from a same-name player,
    ), or None for a drawn match or double loss."""
    if r.winner is None:
        return None
    return registration_name(r.winner, getattr(r, "winner_twin", None))


def _with_seats(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Matches with ``n_seats``: how many players must report (pods: MP-PTS-1)."""
    return matches.annotate(n_seats=Count("seats"))


def _reports_query():
    return (
        SelfReport.objects.select_related("registration__player", "winner__player")
        .annotate(name_twin=twin_exists("registration__"), winner_twin=twin_exists("winner__"))
        .order_by("match_id", "registration__player__name")
    )


def reports_for_round(
    round_id: int, match_ids: list[int] | None = None
) -> dict[int, ReportSummary]:
    """``{match id: ReportSummary}`` for the tables of a round with any report (only those
    of ``match_ids`` when given: a slip's answer redraws one row, and reading a 500-table
    round for it cost most of the slip), a drawn match in the ruleset's word. 2 queries."""
    matches_query = Match.objects.filter(round_id=round_id)
    reports_query = _reports_query().filter(match__round_id=round_id)
    if match_ids is not None:
        matches_query = matches_query.filter(pk__in=match_ids)
        reports_query = reports_query.filter(match_id__in=match_ids)
    matches = _with_seats(matches_query).select_related("round__event").in_bulk()
    draw = draw_word(next(iter(matches.values())).round.event) if matches else "Draw"
    return _summaries(list(reports_query), matches, draw)


@dataclass(frozen=True)
class QueueItem:
    """A table waiting for staff: disputed, or agreed and held for a click."""

    round: RoundView
    match: MatchView
    summary: ReportSummary


def disputes_for_staff(event: Event) -> list[QueueItem]:
    """Unrecorded tables of started rounds whose players disagree, or agree but wait for
    a staff click (the ``hold`` setting), in round and table order. 5 queries."""
    reports = list(
        _reports_query().filter(
            match__round__event=event,
            match__round__status=RoundStatus.STARTED,
            match__outcome=Outcome.PENDING,
        )
    )
    matches = _with_seats(Match.objects.filter(pk__in={r.match_id for r in reports}))
    matches = matches.select_related("round")
    summaries = _summaries(reports, {m.pk: m for m in matches}, draw_word(event))
    waiting = {k: s for k, s in summaries.items() if s.state in ("held", "disputed")}
    rounds = sorted(
        {m.round for m in matches if m.pk in waiting}, key=lambda r: (r.number, r.group_id)
    )
    items = []
    for view in _round_views(event, rounds, match_ids=list(waiting)):
        items += [QueueItem(view, m, waiting[m.id]) for m in view.matches]
    return items


@dataclass(frozen=True)
class PastRound:
    """One of a player's earlier rounds: its number, table (None for a bye), the
    opponents' names (none for a bye), the result from the player's side as text and as
    a key for pages and tests whatever the language (``won``, ``lost``, ``draw``,
    ``bye``, ``loss``, ``double-loss``, ``pending``), and its heading as players call it
    ("Round 3", a top cut's "Semi-finals": ``RoundView.heading``)."""

    number: int
    table: int | None
    opponents: tuple[str, ...]
    result: str
    key: str = ""
    heading: str = ""


@dataclass(frozen=True)
class PlayerPage:
    """What a player sees on their private link: their current table (the latest public
    round they are seated in), the reports of that table, and their earlier rounds with
    opponents and results."""

    round: RoundView | None
    match: MatchView | None
    summary: ReportSummary | None
    mine: str
    history: tuple[PastRound, ...]
    heading: str = ""  # the current round as players call it (``rounds.match_heading``)


def _result_for(m: MatchView, reg_id: int) -> str:
    """A player's result in an earlier round, from their side ("Won", "Draw")."""
    if m.outcome == Outcome.PENDING:
        return _("Not reported")
    if m.outcome in (Outcome.BYE, Outcome.LOSS):
        return str(Outcome(m.outcome).label)
    if m.outcome == Outcome.WIN:
        return _("Won") if m.winner_id == reg_id else _("Lost")
    return m.draw_word if m.outcome == Outcome.DRAW else _("Double loss")


def _result_key(m: MatchView, reg_id: int) -> str:
    """The result of :func:`_result_for` as a key: won, lost, draw, bye, loss, …"""
    if m.outcome == Outcome.WIN:
        return "won" if m.winner_id == reg_id else "lost"
    return str(m.outcome)


def page_for_player(reg: Registration) -> PlayerPage:
    """The private page of one registration. At most 9 queries, whatever the event size
    (two more once top-cut rounds are among them: their stage is counted over the whole
    round, ``RoundView.bracket``)."""
    seats = list(
        MatchSeat.objects.filter(registration=reg, round__status__in=PUBLIC_STATUSES)
        .select_related("round")
        .order_by("round__number", "round_id")
    )
    if not seats:
        return PlayerPage(None, None, None, "", ())
    past = _round_views(
        reg.event,
        [s.round for s in seats[:-1]],
        records=False,
        match_ids=[s.match_id for s in seats[:-1]],
    )
    history = tuple(
        PastRound(
            v.number,
            v.matches[0].table,
            tuple(s.name for s in v.matches[0].seats if s.registration_id != reg.pk),
            _result_for(v.matches[0], reg.pk),
            _result_key(v.matches[0], reg.pk),
            match_heading(v, v.matches[0]),
        )
        for v in past
        if v.matches
    )
    current = seats[-1].round
    match, _missing = match_for_staff(seats[-1].match_id)
    summary = _summaries(
        list(_reports_query().filter(match_id=match.id)),
        _with_seats(Match.objects.filter(pk=match.id)).in_bulk(),
        match.draw_word,
    ).get(match.id)
    mine = (
        next((x.text for x in summary.lines if x.registration_id == reg.pk), "") if summary else ""
    )
    view = _round_views(reg.event, [current], records=False, match_ids=[])[0]
    return PlayerPage(view, match, summary, mine, history, match_heading(view, match))


@dataclass(frozen=True)
class PlayerStanding:
    """A player's line in the event's latest standings: place (None while unplaced),
    players in the division (``of``), record, match points, the snapshot's label
    ("After round 3"), whether it is final and whether the player makes the top cut."""

    place: int | None
    of: int
    record: str
    match_points: int
    label: str
    final: bool
    top_cut: bool


def _snapshot_label(snapshot: Any) -> str:
    """ "Final standings" / "After round 3" in the visitor's language (the stored
    ``label`` is English, for the staff's record)."""
    if snapshot.final:
        return _("Final standings")
    return _("After round %(number)s") % {"number": snapshot.rounds_complete}


def standing_for_player(reg: Registration) -> PlayerStanding | None:
    """The player's row of the latest standings snapshot (the Standings JSON of
    docs/interfaces.md, found by the registration's ``external_id``), or None before the
    first standings or when the player is not in them. 1 query."""
    snapshot = reg.event.standings.order_by("-computed_at", "-id").first()
    if snapshot is None:
        return None
    for rows in snapshot.data.get("divisions", {}).values():
        for row in rows:
            if row.get("player") == reg.external_id:
                return PlayerStanding(
                    row.get("place"),
                    len(rows),
                    row.get("record", ""),
                    row.get("match_points", 0),
                    _snapshot_label(snapshot),
                    snapshot.final,
                    bool(row.get("top_cut")),
                )
    return None
