"""``mtg-multiplayer``: Magic multiplayer (Commander) pods (docs/rules.md section 9, seed 004).

2n−1 points per win, 1 per shared draw (MP-PTS-1); pods of the standard size n (option
``pod_size``, MP-POD-1); ordered by MWP, OAMP, OMWP (MP-TB-1…3); round table P-RT-6;
top cuts of 4, 7, 10, 13, 16, 40 or 64 ending in one final pod (MP-SE-1), a drawn pod
won by the best Swiss seed (MP-SE-2). Round clock: 80-minute Swiss rounds, top cut
untimed (MP-TIME-1, with its last-turn and intentional-draw limits).

The database's matches arrive as ``MatchRecord`` values (``conceded`` holds the seats
that conceded or took a match-loss penalty); they become the engine's ``PodResult``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from standings.engine.multiplayer import PodResult, multiplayer_standings, points_per_win
from standings.engine.receipts import Receipt, multiplayer_receipts
from standings.engine.types import Entrant, MatchRecord, Outcome

from .base import (
    DROPS_BELOW_ACTIVE,
    Column,
    Context,
    Line,
    MatchFormat,
    OptionSpec,
    Ruleset,
    StructureId,
    as_decimal,
)
from .deck_rules import COMMANDER_EXAMPLE
from .i18n import gettext_noop
from .mtg import INFRACTIONS

POD_SIZES = (4, 3)
POD_CUT_SIZES = (4, 7, 10, 13, 16, 40, 64)  # MP-SE-1

OPTIONS = (
    OptionSpec(
        "pod_size",
        gettext_noop("Players per pod"),
        "choice",
        4,
        gettext_noop("Standard pod size n; smaller pods have n-1 players."),  # MP-POD-1
        (3, 4),
    ),
    DROPS_BELOW_ACTIVE,
)

COLUMNS = (
    Column(
        "mwp",
        gettext_noop("MWP"),
        "MWP",
        gettext_noop(
            "Match-win %: your match points (byes left out) ÷ the points of winning every "
            "match you played."
        ),
    ),
    Column(
        "oamp",
        gettext_noop("OAMP"),
        "OAMP",
        gettext_noop(
            "Opponents' average match points: the mean match points of everyone you shared a pod with."
        ),
        as_decimal,
    ),
    Column(
        "omwp",
        gettext_noop("OMWP"),
        "OMWP",
        gettext_noop("Opponents' match-win %: the average MWP of everyone you shared a pod with."),
    ),
)


def standard_size(options: Mapping[str, Any] | None) -> int:
    """The event option ``pod_size`` (4 or 3, default 4): the size tables are filled to
    (MP-POD-1)."""
    size = int((options or {}).get("pod_size", 4))
    return size if size in POD_SIZES else 4


def win_points(options: Mapping[str, Any]) -> int:
    """MP-PTS-1: the match points of a win under the event's ``options`` — the engine's
    ``2n − 1`` for the standard pod size (7 with pods of 4, also in a pod of 3)."""
    return points_per_win(standard_size(options))


def pod_results(matches: Sequence[MatchRecord]) -> list[PodResult]:
    """Reported pods as PodResults: a win, a draw shared by the players who did not
    concede (MP-PTS-1), a bye, a late entrant's automatic loss (P-LATE-1: a round played
    with 0 points). A double loss is a draw nobody shares; pending pods are left out."""
    results = []
    for m in matches:
        if m.outcome == Outcome.BYE:
            results.append(PodResult(round=m.round, players=m.players))
        elif m.outcome == Outcome.LATE_LOSS:
            results.append(PodResult(round=m.round, players=m.players, late_loss=True))
        elif m.outcome == Outcome.WIN:
            results.append(PodResult(round=m.round, players=m.players, winner=m.winner))
        elif m.outcome in (Outcome.DRAW, Outcome.DOUBLE_LOSS):
            out = frozenset(m.players) if m.outcome == Outcome.DOUBLE_LOSS else m.conceded
            results.append(PodResult(round=m.round, players=m.players, draw_excluded=out))
    return results


def multiplayer_lines(
    entrants: Sequence[Entrant], matches: Sequence[MatchRecord], ctx: Context
) -> list[Line]:
    """2n−1 points per win, 1 per shared draw (MP-PTS-1), ordered by MWP, OAMP, OMWP
    (MP-TB-1…3); keys ``mwp``, ``oamp``, ``omwp`` (docs/interfaces.md)."""
    rows = multiplayer_standings(
        entrants,
        pod_results(matches),
        rounds=ctx.rounds,
        standard=standard_size(ctx.options),
        seed=ctx.seed,
    )
    return [
        Line(r.player, r.match_points, r.record, {"mwp": r.mwp, "oamp": r.oamp, "omwp": r.omwp})
        for r in rows
    ]


def multiplayer_receipt_lines(
    entrants: Sequence[Entrant],
    matches: Sequence[MatchRecord],
    ctx: Context,
    only: Collection[str] | None,
) -> Mapping[str, Receipt]:
    """The tiebreaker receipts of :func:`multiplayer_lines` with the same inputs (
    item 2): MWP, OAMP and OMWP term by term, the pod floor and the virtual opponents of
    smaller pods named (MP-TB-1…3)."""
    return multiplayer_receipts(
        entrants,
        pod_results(matches),
        rounds=ctx.rounds,
        standard=standard_size(ctx.options),
        only=only,
    )


def _advancer(m: MatchRecord, seed: dict[str, int]) -> str | None:
    """Who goes on from a top-cut pod: the winner, or for a draw the best Swiss seed
    among the players who did not concede (MP-SE-2); None while pending."""
    if m.outcome in (Outcome.WIN, Outcome.BYE):
        return m.winner or m.players[0]
    if m.outcome == Outcome.DRAW:
        eligible = [p for p in m.players if p not in m.conceded]
        return min(eligible, key=lambda p: seed[p]) if eligible else None
    return None


def pod_cut_places(
    swiss_order: Sequence[str], cut_matches: Sequence[MatchRecord]
) -> tuple[str, ...]:
    """Final order after a pod top cut: players still in first, then by the round they
    were eliminated in (later is better), ties by Swiss seed; the rest keep their Swiss
    order (MP-SE-1, MP-SE-2, like P-TC-2/P-TC-3 for head-to-head cuts)."""
    seed = {pid: k for k, pid in enumerate(swiss_order)}
    alive = 1 << 30
    out_in: dict[str, int] = {}
    for m in sorted(cut_matches, key=lambda m: m.round):
        if m.outcome == Outcome.PENDING:
            continue
        winner = _advancer(m, seed)
        for pid in m.players:
            if pid != winner:
                out_in[pid] = m.round
    cut = {pid for m in cut_matches for pid in m.players}
    ranked = sorted(cut, key=lambda p: (-out_in.get(p, alive), seed[p]))
    return tuple(ranked) + tuple(p for p in swiss_order if p not in cut)


RULESET = Ruleset(
    id="mtg-multiplayer",
    label=gettext_noop("Magic multiplayer pods"),
    points_win=7,
    points_tie=1,
    points_loss=0,
    draw_word=gettext_noop("Draw"),
    match_format=MatchFormat.POD,
    columns=COLUMNS,
    standings=multiplayer_lines,
    receipts=multiplayer_receipt_lines,
    cut_places=pod_cut_places,
    round_table="mtg-multiplayer",
    options=OPTIONS,
    structures=(StructureId.SWISS, StructureId.SWISS_TOP_CUT),
    cuts=POD_CUT_SIZES,
    win_points=win_points,
    round_seconds=80 * 60,  # MP-TIME-1; the last-turn limit is tournaments.clock's
    elimination_seconds=None,
    infractions=INFRACTIONS,  # the Infraction Procedure Guide's names
    deck_example=COMMANDER_EXAMPLE,  # 1 Sol Ring: lists are any readable list (ANY_DECK)
)
