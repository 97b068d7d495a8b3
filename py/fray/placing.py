"""Where a combatant the GM adds without a position stands: on free ground beside the others.

The engine puts a combatant with no position at (0, 0), and Add ×N lays copies out from there in
a formation (``reducer.FORMATION_STEP`` apart, rows of about √N). The page asks this module for the
spot first, so a second group does not stand on the first one (issue 33, "The map at table
density": heroes ×6 and foes ×6 were two piles on one spot until the GM dragged them apart); the
add action then carries the spot, and an action without one still means (0, 0).

Every token of the new formation keeps ``FORMATION_STEP`` metres from every token already on the
map (the formation's own spacing: a token's width of ground between neighbours at the default
zoom), and from every token of another side beyond the game's melee contact (``MapRule.contact``:
where the step does not clear it, as strike-rank's 3 m engagement range, a step beyond it), so a side the GM adds does
not start the fight engaged (a GM's finding: wolves added 3 m from the party were engaged at
once). The group stands as near the others as that allows, so the fitted view still shows
everyone at a size that can be tapped: a new side opposite the sides already there (the party to
the west, anyone else to the east), a side already there beside its own (south of them, else east
of them), and if all of that is taken, south of everyone.
"""

from __future__ import annotations

import math

from .maprules import rule_for
from .model import Encounter, Position
from .reducer import FORMATION_STEP, MAX_COORD


def formation(count: int) -> list[tuple[float, float]]:
    """The offsets (east, north) of Add ×N's copies from the first one: the reducer's layout."""
    per_row = math.ceil(math.sqrt(max(count, 1)))
    return [(col * FORMATION_STEP, -row * FORMATION_STEP)
            for row, col in (divmod(i, per_row) for i in range(max(count, 1)))]


def free_spot(enc: Encounter, side: str, count: int = 1) -> Position:
    """Where the first of ``count`` new combatants of ``side`` stands (the rest follow in the
    formation), on the ground, every one of them ``FORMATION_STEP`` from everyone on the map."""
    taken = [(c.position.x, c.position.y) for c in enc.combatants]
    if not taken:
        return Position()
    step = FORMATION_STEP
    # how far each token already there must stay: its own side a step, another side a step too
    # where that is beyond the game's melee contact, else a step beyond contact
    contact = rule_for(enc.ruleset).contact(enc)
    foe = step if step > contact + 1e-9 else contact + step
    keep = [step if c.side == side else foe for c in enc.combatants]
    slots = formation(count)
    width = max(dx for dx, _ in slots)
    xs, ys = [x for x, _ in taken], [y for _, y in taken]
    mine = [(c.position.x, c.position.y) for c in enc.combatants if c.side == side]
    wanted: list[tuple[float, float]] = []
    if mine:
        mx, my = [x for x, _ in mine], [y for _, y in mine]
        wanted += [(min(mx), min(my) - step), (max(mx) + step, max(my))]
    if side == "party" and not mine:
        wanted.append((min(xs) - foe - width, max(ys)))
    else:
        wanted.append((max(xs) + (step if mine else foe), max(ys)))
    wanted.append((min(xs), min(ys) - foe))  # south of everyone: always free

    def clear(ax: float, ay: float) -> bool:
        return all(math.hypot(ax + dx - x, ay + dy - y) >= k - 1e-6
                   for dx, dy in slots for (x, y), k in zip(taken, keep))

    for ax, ay in wanted:
        ax, ay = _kept(ax), _kept(ay)
        if clear(ax, ay):
            return Position(ax, ay, 0.0)
    return Position(_kept(min(xs)), _kept(min(ys) - foe), 0.0)


def _kept(v: float) -> float:
    """To the decimetre, as the map keeps positions, and on the map."""
    r = round(max(-MAX_COORD, min(MAX_COORD, v)), 1)
    return 0.0 if r == 0 else r


# the field of a new combatant's ruleset fields that names the mount it rides, in each game's words
# (strike-rank ``mount``, range-band ``riding``): a rider stands where its mount stands
RIDES = ("mount", "riding")


def ridden(enc: Encounter, extra: object) -> Position | None:
    """Where the mount a new combatant rides stands (its ruleset fields name it), else None."""
    if not isinstance(extra, dict):
        return None
    for key in RIDES:
        m = enc.get(extra[key]) if isinstance(extra.get(key), str) else None
        if m is not None:
            return Position(m.position.x, m.position.y, m.position.alt)
    return None


def beside(enc: Encounter, cid: str) -> Position:
    """Where a copy of ``cid`` (Duplicate) stands: the nearest spot around it, ``FORMATION_STEP`` from
    everyone (east first, then round it, then a ring further out), at its altitude."""
    c = enc.get(cid)
    if c is None:
        return Position()
    taken = [(o.position.x, o.position.y) for o in enc.combatants]
    step = FORMATION_STEP
    for ring in range(1, 6):
        around = [(dx, dy) for dx in range(-ring, ring + 1) for dy in range(-ring, ring + 1)
                  if max(abs(dx), abs(dy)) == ring]
        # the nearest first, and among those east first, then round through north, west and south
        around.sort(key=lambda d: (math.hypot(*d), (math.atan2(d[1], d[0]) + 2 * math.pi) % (2 * math.pi)))
        for dx, dy in around:
            x, y = _kept(c.position.x + dx * step), _kept(c.position.y + dy * step)
            if all(math.hypot(x - ox, y - oy) >= step - 1e-6 for ox, oy in taken):
                return Position(x, y, c.position.alt)
    return Position(_kept(c.position.x + step), c.position.y, c.position.alt)
