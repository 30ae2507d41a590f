"""The cut-line outlook as the pages word it: the stored
``CutOutlook.data`` (``pairings.outlook_services.outlook_json``) read through the
event's reverse relations, so this module needs neither ``standings`` nor ``pairings``.

Wording rules: a proven verdict reads "in" / "out"; a player who dropped or was
disqualified since the outlook was computed reads "dropped" / "disqualified" at once
(:func:`withdrawn_view`: the stored outlook stays, the pages check the registration);
an estimate is a whole percentage,
never 100 % or 0 % ("over 99 %", "under 1 %"; :func:`percent` is the one place they are
worded); what the next round changes is said only where the figure, as shown, moves the
way the result would move it (:func:`_next_round`); how often a final record made the cut
is a natural frequency out of 20 simulated endings ("18 of 20"), never "20 of 20" or "0
of 20" unless proven. No query except where a function says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db.models import Q, Subquery
from django.db.models.fields.json import KeyTransform
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from ..models import DivisionCode, Registration

IN, OUT = "in", "out"
#: Verdicts of a player out of the running whatever the outlook says (:func:`withdrawn_view`).
DROPPED, DISQUALIFIED = "dropped", "disqualified"
TOP_CUT, DAY2 = "top-cut", "day2"
#: A final record's share is told out of this many simulated endings.
ENDINGS = 20


#: :func:`percent_level` of a share shown "under 1 %" / "over 99 %".
UNDER_1, OVER_99 = 0, 100


def percent_level(share: float) -> int:
    """The whole percentage an estimated share 0–1 is shown as: 1–99, the nearest whole
    percentage (half up, from the share as stored: 0.005 is 0.5 %, never a binary
    0.4999…); :data:`UNDER_1` below 1 % and :data:`OVER_99` above 99 %, so an estimate
    never reads 0 % or 100 %. Never decreases as the share grows: two figures compare as
    the page shows them. 0.637 → 64, 0.99 → 99, 0.9901 → 100, 0.0099 → 0."""
    value = Decimal(str(share)) * 100
    if value < 1:
        return UNDER_1
    if value > 99:
        return OVER_99
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def percent(share: float) -> str:
    """An estimated share 0–1 as the pages show it (:func:`percent_level`):
    0.637 → ``"64 %"``, 0.995 → ``"over 99 %"``, 0.005 → ``"under 1 %"``. The one place
    the outlook's percentages are worded (the standings cells, the player's sentences)."""
    level = percent_level(share)
    if level == OVER_99:
        return _("over 99 %")
    if level == UNDER_1:
        return _("under 1 %")
    return _("%(percent)s %%") % {"percent": level}


def endings(share: float) -> str:
    """An estimated share 0–1 as a natural frequency: 0.9 → ``"in 18 of 20 simulated
    endings"``; never 20 or 0 of 20 (those are for proofs)."""
    count = round(share * ENDINGS)
    if count >= ENDINGS:
        return _("in more than %(most)s of %(all)s simulated endings") % {
            "most": ENDINGS - 1,
            "all": ENDINGS,
        }
    if count <= 0:
        return _("in less than 1 in every %(all)s simulated endings") % {"all": ENDINGS}
    return _("in %(count)s of %(all)s simulated endings") % {"count": count, "all": ENDINGS}


def cut_label(kind: str, places: int, flight: int | None = None) -> str:
    """``"Top 8"``, ``"Top 4 of flight 2"`` (P-FL-5) or ``"Day 2"`` (P-D2-1)."""
    if kind == DAY2:
        return _("Day 2")
    if flight is not None:
        return _("Top %(places)s of flight %(flight)s") % {"places": places, "flight": flight}
    return _("Top %(places)s") % {"places": places}


@dataclass(frozen=True)
class ChanceView:
    """One player's outlook for one cut. text: ``"in"``, ``"out"`` or a percentage;
    sentence: the whole line for the player's page ("Top 8: 64 % — a win next round
    makes it 97 %."); verdict: ``in`` / ``out`` / ``open``, or ``dropped`` /
    ``disqualified`` (:func:`withdrawn_view`)."""

    kind: str
    label: str
    verdict: str
    text: str
    sentence: str


def chance_view(kind: str, chance: dict[str, Any]) -> ChanceView:
    """A stored chance (``outlook_json``: verdict, share, if_win, if_loss,
    if_win_verdict, places, flight) as words."""
    label = cut_label(kind, int(chance.get("places", 0)), chance.get("flight"))
    verdict = str(chance.get("verdict", "open"))
    if verdict == IN:
        text = pgettext("cut outlook", "in")
        sentence = _("%(cut)s: in, whatever the other results (proven on match points).") % {
            "cut": label
        }
    elif verdict == OUT:
        text = pgettext("cut outlook", "out")
        sentence = _("%(cut)s: out, even winning every round left (proven on match points).") % {
            "cut": label
        }
    else:
        text = percent(float(chance.get("share", 0)))
        sentence = _next_round(chance, label, text)
    return ChanceView(kind, label, verdict, text, sentence)


def _next_round(chance: dict[str, Any], label: str, text: str) -> str:
    """The sentence of an open chance, with what the next round changes: "certain" when a
    win proves it; else a win's figure only where it reads higher than the chance now,
    and a loss's only where it reads lower (as :func:`percent_level` shows them). The
    conditional figures come from fewer simulated endings and carry their noise: one that
    reads the same as the chance, or the wrong way, tells nothing, so its clause is left
    out rather than clamped (docs/decisions.md, cut-line outlook)."""
    values = {"cut": label, "chance": text}
    if chance.get("if_win_verdict") == IN:
        return _("%(cut)s: %(chance)s — a win next round makes it certain.") % values
    now = percent_level(float(chance.get("share", 0)))
    win, loss = chance.get("if_win"), chance.get("if_loss")
    if win is not None and percent_level(float(win)) > now:
        values["win"] = percent(float(win))
    if loss is not None and percent_level(float(loss)) < now:
        values["loss"] = percent(float(loss))
    helps, hurts = "win" in values, "loss" in values
    if helps and hurts:
        return (
            _("%(cut)s: %(chance)s — a win next round makes it %(win)s, a loss %(loss)s.") % values
        )
    if helps:
        return _("%(cut)s: %(chance)s — a win next round makes it %(win)s.") % values
    if hurts:
        return _("%(cut)s: %(chance)s — a loss next round makes it %(loss)s.") % values
    return _("%(cut)s: %(chance)s.") % values


def withdrawn_view(view: ChanceView, why: str) -> ChanceView:
    """``view`` for a player who is out of the running since the outlook was computed:
    ``why`` is :data:`DROPPED` (P-SW-6: never paired again) or :data:`DISQUALIFIED`; the
    cell reads "dropped" / "disqualified", the player's line "Top 4: out of the running —
    you dropped." Undoing the drop shows ``view`` again, as stored."""
    values = {"cut": view.label}
    if why == DISQUALIFIED:
        text = pgettext("cut outlook", "disqualified")
        sentence = _("%(cut)s: out of the running — you were disqualified.") % values
    else:
        text = pgettext("cut outlook", "dropped")
        sentence = _("%(cut)s: out of the running — you dropped.") % values
    return ChanceView(view.kind, view.label, why, text, sentence)


def withdrawn_why(reg: Registration) -> str:
    """:data:`DISQUALIFIED`, :data:`DROPPED` or "" (still in) for ``reg``, as it is now."""
    if reg.disqualified:
        return DISQUALIFIED
    return DROPPED if reg.dropped_after_round is not None else ""


def withdrawn_players(event_id: int) -> dict[str, str]:
    """The players of the event out of the running now, by their id in files
    (``external_id``): ``{id: DROPPED or DISQUALIFIED}``. 1 query."""
    rows = Registration.objects.filter(event_id=event_id).filter(
        Q(dropped_after_round__isnull=False) | Q(disqualified=True)
    )
    return {
        external_id: DISQUALIFIED if disqualified else DROPPED
        for external_id, disqualified in rows.values_list("external_id", "disqualified")
    }


@dataclass(frozen=True)
class RecordView:
    """A final record of one cut: ``"19 points (6-2-1)"``, its verdict and the words."""

    label: str
    verdict: str
    text: str


@dataclass(frozen=True)
class CutView:
    """One cut's records for the public standings: heading, a line on the method, and
    the records from the best down to the first that is out."""

    heading: str
    meta: str
    records: tuple[RecordView, ...]


@dataclass(frozen=True)
class OutlookView:
    """The outlook for the public standings: each player's cells by their id in files
    (``cells[id]["top-cut"]``), the cuts' records, and whether a Day 2 column is shown."""

    cells: dict[str, dict[str, ChanceView]]
    cuts: tuple[CutView, ...]
    day2: bool


def _record(r: dict[str, Any]) -> RecordView:
    label = _("%(points)s points (%(record)s)") % {"points": r["points"], "record": r["record"]}
    verdict = str(r.get("verdict", "depends"))
    if verdict == IN:
        text = _("in, however the rest ends (proven on match points)")
    elif verdict == OUT:
        text = _("out, however the rest ends (proven on match points)")
    elif r.get("share") is None:
        text = _("depends on other results and tiebreakers")
    else:
        text = _("depends on other results and tiebreakers: made the cut %(endings)s") % {
            "endings": endings(float(r["share"]))
        }
    return RecordView(label, verdict, text)


def _cut(cut: dict[str, Any]) -> CutView:
    names = dict(DivisionCode.choices)
    divisions = [cut["division"]] if cut.get("division") else cut.get("divisions", [])
    where = " + ".join(str(names.get(code, code)) for code in divisions)
    heading = f"{cut_label(cut['kind'], int(cut['places']), cut.get('flight'))} · {where}"
    rounds = int(cut.get("rounds_left", 0))
    meta = ngettext(
        "%(rounds)s Swiss round left; %(simulations)s simulated endings, results even, "
        "draws at the rate seen so far (%(draws)s %%).",
        "%(rounds)s Swiss rounds left; %(simulations)s simulated endings, results even, "
        "draws at the rate seen so far (%(draws)s %%).",
        rounds,
    ) % {
        "rounds": rounds,
        "simulations": number_format(int(cut.get("simulations", 0)), force_grouping=True),
        "draws": number_format(round(100 * float(cut.get("draw_rate", 0)), 1), 1),
    }
    shown: list[RecordView] = []
    for r in cut.get("records", []):
        shown.append(_record(r))
        if r.get("verdict") == OUT:
            break
    return CutView(heading, meta, tuple(shown))


def outlook_for_public(
    data: dict[str, Any] | None, withdrawn: dict[str, str] | None = None
) -> OutlookView | None:
    """A stored outlook (``CutOutlook.data``) for the public standings, or None.
    ``withdrawn``: the players out of the running now (:func:`withdrawn_players`), whose
    cells read "dropped" / "disqualified" whatever was simulated."""
    if not data:
        return None
    out = withdrawn or {}
    cells = {
        pid: {
            kind.replace("-", "_"): _as_now(chance_view(kind, c), out.get(pid, ""))
            for kind, c in chances.items()
        }
        for pid, chances in data.get("players", {}).items()
    }
    return OutlookView(
        cells=cells,
        cuts=tuple(_cut(c) for c in data.get("cuts", [])),
        day2=any(c["kind"] == DAY2 for c in data.get("cuts", [])),
    )


def _as_now(view: ChanceView, why: str) -> ChanceView:
    return withdrawn_view(view, why) if why else view


def outlook_for_player(reg: Registration) -> list[ChanceView]:
    """The player's outlook lines (top cut first, then Day 2) from the outlook of the
    event's latest standings snapshot; empty when there is none (not computed yet,
    nothing left to simulate, or the player is no longer in). A player who has dropped
    or was disqualified reads so on every line at once (:func:`withdrawn_view`, from
    ``reg`` as loaded), not after the next simulation. 1 query."""
    latest = reg.event.standings.order_by("-computed_at", "-id").values("pk")[:1]
    mine = (
        reg.event.outlooks.filter(snapshot=Subquery(latest))
        .annotate(mine=KeyTransform(reg.external_id, KeyTransform("players", "data")))
        .values_list("mine", flat=True)
        .first()
    )
    if not mine:
        return []
    order = {TOP_CUT: 0, DAY2: 1}
    why = withdrawn_why(reg)
    return [
        _as_now(chance_view(kind, c), why)
        for kind, c in sorted(mine.items(), key=lambda kv: order.get(kv[0], 2))
    ]
