"""Short (source, summary) pairs written for the real-model suite (compat/real_model.py).

Three sources, four summaries each: a good one, one with a changed number or name, one that omits
the main point, and a one-line summary. Short, so that a 0.5B-1.5B model on two CPU cores answers
each judge call in seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PAIRS", "Pair", "select"]


@dataclass(frozen=True)
class Pair:
    id: str
    source: str
    summary: str
    kind: str  # good | changed | omits | one-line

    @property
    def flawed(self) -> bool:
        return self.kind in ("changed", "omits")


_BRIDGE = (
    "The city of Dunmore will close the Old Mill Bridge for repairs from 3 June to 30 August. "
    "Engineers found cracks in two of its steel beams during an inspection in April. The repairs "
    "will cost 4.2 million euros, paid by the regional government. Buses will use a detour "
    "through Station Road while the bridge is closed."
)
_VACCINE = (
    "Health officials in Norland approved a new flu vaccine for adults over 65 on Monday. In a "
    "trial with 9,000 people, the vaccine prevented 71 percent of severe cases. Pharmacies will "
    "start offering it in October, and it will be free for pensioners."
)
_ROBOT = (
    "Students at Karsten Technical College built a robot that sorts plastic waste by colour. It "
    "sorts 40 items a minute, twice as fast as the college's old machine. The team, led by "
    "professor Anna Ruiz, won first prize at the national engineering fair in Lyon."
)

PAIRS: tuple[Pair, ...] = (
    Pair(
        "bridge-good",
        _BRIDGE,
        "Dunmore closes the Old Mill Bridge from 3 June to 30 August to repair cracked steel "
        "beams; the 4.2 million euro repair is paid by the regional government and buses detour "
        "through Station Road.",
        "good",
    ),
    Pair(
        "bridge-changed",
        _BRIDGE,
        "Dunmore closes the Old Mill Bridge from 3 June to 30 August to repair cracked steel "
        "beams; the 9.5 million euro repair is paid by the city and buses detour through "
        "Station Road.",
        "changed",
    ),
    Pair("bridge-omits", _BRIDGE, "Buses in Dunmore will use Station Road this summer.", "omits"),
    Pair("bridge-one-line", _BRIDGE, "Old Mill Bridge shut for summer repairs.", "one-line"),
    Pair(
        "vaccine-good",
        _VACCINE,
        "Norland approved a flu vaccine for people over 65 that prevented 71 percent of severe "
        "cases in a 9,000-person trial; it will be free for pensioners in pharmacies from October.",
        "good",
    ),
    Pair(
        "vaccine-changed",
        _VACCINE,
        "Norland approved a flu vaccine for people over 65 that prevented 17 percent of severe "
        "cases in a 900-person trial; it will be free for pensioners in pharmacies from October.",
        "changed",
    ),
    Pair("vaccine-omits", _VACCINE, "Pharmacies in Norland will be busy in October.", "omits"),
    Pair(
        "vaccine-one-line", _VACCINE, "Norland approves free flu vaccine for over-65s.", "one-line"
    ),
    Pair(
        "robot-good",
        _ROBOT,
        "A Karsten Technical College team led by professor Anna Ruiz built a robot that sorts "
        "plastic waste by colour at 40 items a minute and won first prize at the national "
        "engineering fair in Lyon.",
        "good",
    ),
    Pair(
        "robot-changed",
        _ROBOT,
        "A Karsten Technical College team led by professor Maria Lopez built a robot that sorts "
        "plastic waste by colour at 40 items a minute and won first prize at the national "
        "engineering fair in Paris.",
        "changed",
    ),
    Pair(
        "robot-omits", _ROBOT, "Professor Anna Ruiz teaches at Karsten Technical College.", "omits"
    ),
    Pair("robot-one-line", _ROBOT, "Students' sorting robot wins national prize.", "one-line"),
)


def select(n: int) -> tuple[Pair, ...]:
    """``n`` pairs spread over the sources: every source's good summary first, then the changed,
    omitting and one-line ones, so that a small run still compares flawed with good."""
    order = ("good", "changed", "omits", "one-line")
    ranked = sorted(PAIRS, key=lambda p: (order.index(p.kind), PAIRS.index(p)))
    chosen = set(ranked[: max(n, 0)])
    return tuple(p for p in PAIRS if p in chosen)
