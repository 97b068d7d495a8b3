"""Movement once declared, in Melee Rounds and Strike Ranks: two combatants closing on each other, a
declared attack's movement timed again when someone no longer stands where it was declared (a
knockback, a drag on the map, a changed Movement rate), a charge's and a braced spear's own timing,
and where a closing move puts the token.

Built on ``timing`` (the declarations and their records), which imports this module where it uses it.
"""

from __future__ import annotations

import math
from typing import Any, Iterable, Iterator

from fray.geometry import distance
from fray.model import Combatant, Encounter, Position
from fray.games.base import Context
from fray.games.strike_rank import body, rules
from fray.games.strike_rank.timing import _rate, actions_where, declared_words, moves_token, peek_actions, ridden_by


def _closes_on(enc: Encounter, a: dict[str, Any], cid: str, target: str) -> bool:
    """Whether ``a`` is ``cid`` moving this MR to engage ``target``: a melee attack or a move toward
    them whose metres reach engagement range of them (a shorter move closes, but does not engage);
    a braced spear or a mounted charge keeps its own timing."""
    if not (a["combatant"] == cid and a["target"] == target and a["round"] == enc.round
            and a["status"] == "declared" and a["kind"] in ("melee", "move") and a.get("moving")
            and not a.get("bracing") and not a.get("mounted_charge")):
        return False
    me, them = enc.peek_at(cid), enc.peek_at(target)
    return (me is not None and them is not None
            and a["metres"] + 0.01 >= rules.to_engage(distance(me.position, them.position)))


def retime_closing(ctx: Context, c: Combatant, other: Combatant) -> None:
    """Movement: "If two combatants move to engage each other, add up their movement rates to
    figure out how many SR it takes for them to connect." ``c``'s declarations closing on
    ``other`` are timed again as ``other``'s declarations change: with both rates while
    ``other`` closes on ``c`` too, with ``c``'s own once ``other`` no longer does. Before
    resolution only ("Declarations can be changed in reaction to others' declarations")."""
    if ctx.enc.phase != "declare":
        return
    theirs = next((x for x in peek_actions(ctx.enc) if _closes_on(ctx.enc, x, other.id, c.id)), None)
    partner = _pace(ctx, theirs, other) * (2 if theirs["running"] else 1) if theirs else 0.0
    for rec in actions_where(ctx.enc, lambda x: _closes_on(ctx.enc, x, c.id, other.id)):
        if theirs is None and not rec.get("closing"):
            continue  # timed alone already (or closing by the GM's own word: kept)
        at = next((i for i, p in enumerate(rec["parts"]) if p[0] == "move"), None)
        mv = rules.movement_sr(rec["metres"], _pace(ctx, rec, c), rec["running"], partner)
        if at is None or mv is None or (rec["parts"][at][1] == mv.total and rec.get("note") == mv.note):
            continue
        was = rec["sr"]
        rec["parts"][at] = ["move", mv.total]
        rec["note"] = mv.note
        if theirs is None:
            rec.pop("closing", None)
        else:
            rec["closing"] = True
        b = rules.Breakdown("SR", tuple(tuple(p) for p in rec["parts"]), mv.note if rec["kind"] == "move" else "")
        rec["sr"], rec["text"] = min(rules.LAST_SR, b.total) if rec["kind"] == "move" else b.total, b.text()
        how = (f"{c.name} and {other.name} close on each other (Movement rates added)" if theirs else
               f"{other.name} no longer closes on {c.name}")
        note = "" if f"({mv.note})" in rec["text"] else f" ({mv.note})"
        what = "move" if rec["kind"] == "move" else declared_words(c, rec)  # "Vasana's move", not "moves"
        if rec["attack"] and b.total > rules.LAST_SR:
            rec["status"] = "lost"
            ctx.event("lost", f"{how}: {c.name}'s {what}: {rec['text']}{note} is past SR 12: "
                      "the attack is lost", ref=rec["ref"])
            continue
        ctx.event("declare", f"{how}: {c.name}'s {what} "
                  f"{'stays' if rec['sr'] == was else 'now'} at SR {rec['sr']}: {rec['text']}{note}",
                  ref=rec["ref"], sr=rec["sr"], id=c.id)


def _reworkable(enc: Encounter, a: dict[str, Any]) -> bool:
    """A melee attack still to come this MR whose movement is timed from where its attacker and its
    target stand (closing together on the GM's word too: ``_partner``): not a braced spear or a
    mounted charge, which have their own timing (``_rework_charges``)."""
    return (a["kind"] == "melee" and a["status"] == "declared" and a["round"] == enc.round and bool(a["target"])
            and not a.get("bracing") and not a.get("mounted_charge"))


def _mutual(rec: dict[str, Any]) -> bool:
    """Timed as closing together on the GM's word (``mutual``), not on the target's declaration; a
    record stored before the flag says so in its note alone."""
    return bool(rec.get("mutual")) or (not rec.get("closing") and "closing together" in (rec.get("note") or ""))


def _partner(ctx: Context, rec: dict[str, Any], c: Combatant, t: Combatant, as_declared: bool = False
             ) -> tuple[bool, float]:
    """Whether ``t`` still closes on ``c`` as ``rec`` was timed ("If two combatants move to engage each
    other, add up their movement rates"), and the metres per SR ``t`` adds. On the GM's word
    (``mutual``) ``t`` comes as the declaration said, wherever it now stands. One whose own closing
    on ``c`` is done (it came and struck) comes no more: a GM's play had Broo 2, knocked back by
    Harrek's blow, timed "closing together" with Harrek, who had struck already. ``as_declared``: as
    when the declaration was timed, the one done still counted (whether a rate has changed since)."""
    live = ("declared", "done") if as_declared else ("declared",)
    theirs = next((x for x in peek_actions(ctx.enc) if x["combatant"] == t.id and x["target"] == c.id
                   and x["round"] == ctx.enc.round and x["status"] in ("declared", "done")
                   and x["kind"] in ("melee", "move") and x.get("moving")), None)
    if theirs is not None and theirs["status"] not in live:
        return False, 0.0
    if _mutual(rec):
        return True, _pace(ctx, theirs, t) * (2 if rec["running"] else 1)
    if not rec.get("closing"):
        return False, 0.0
    return (True, _pace(ctx, theirs, t) * (2 if theirs["running"] else 1)) if theirs else (False, 0.0)


def _move_sr(rec: dict[str, Any]) -> int:
    return next((p[1] for p in rec["parts"] if p[0] == "move"), 0)


MOVED_FROM = "movement from SR"  # a breakdown's part: the SR a movement begun during resolution starts at


def rework_movement(ctx: Context, cids: Iterable[str], why: str, moved: bool = True) -> None:
    """Attacking: "This may be delayed by movement: if a human (Movement 3m) must move 6m to get within
    melee range of an opponent, the attack will be delayed by 2 SR"; Changing Actions: "If an attack
    is pushed past SR 12, it is lost." The declared melee attacks of ``cids`` and on them are timed
    again from where everyone stands now and at today's Movement rate (a knockback, a token the GM
    moved, a maimed leg: a GM's fight had a fighter knocked 5 m back strike at her old SR, and one
    dragged 13 m away jump to her target at it). Each change is said in the log with ``why``; an
    attack pushed past SR 12 is lost; once resolution has begun, none comes earlier than declared.

    ``moved``: ``cids`` were put elsewhere during resolution (a knockback, a drag): their own movement
    from there begins at the SR being resolved (Grappling, Drag: "Movement starts on the SR following
    the grapple resolution"), so it cannot end before that SR + its move SRs (a GM's play: one knocked
    back at SR 8 was put at SR 11, covering 10.67 m before the blow). An attacker coming at one of
    them keeps its own start: its token stands where it declared until it strikes, and where it is
    by then on its way the engine does not know. A leg that can no longer run
    ends a run or a charge: the attacker walks (``_no_longer_running``)."""
    enc = ctx.enc
    ids = set(cids)
    start = enc.state.get("sr", 0) if moved and enc.phase == "resolve" else 0
    for rec in actions_where(enc, lambda a: _reworkable(enc, a) and (a["combatant"] in ids or a["target"] in ids)):
        c, t = enc.peek_at(rec["combatant"]), enc.peek_at(rec["target"])
        if c is None or t is None or body.can_act(t):
            # an attack on one fallen must change ("A combatant may be forced to change actions, e.g. if
            # the target of their attack dies"), at its own SR: where the body was sent times it no more
            # (a GM's play: Broo 4, killed and knocked back at SR 6, took Harrek's attack on him to SR 10,
            # and the forced change never came at SR 7)
            continue
        met = _met_here(rec, c)
        if not met:
            _no_longer_running(ctx, rec, c)
        metres = 0.0 if met else rules.to_engage(distance(c.position, t.position))
        rate = _pace(ctx, rec, c)
        together, partner = _partner(ctx, rec, c, t)
        speed = rate * (2 if rec["running"] else 1) + partner
        mv = rules.movement_sr(metres, rate, rec["running"], partner) if metres and speed > 0 else None
        new_move = mv.total if mv else 0
        what = declared_words(c, rec)
        if metres and speed <= 0:
            rec["status"] = "lost"
            ctx.event("lost", f"{why}: {c.name}'s {what} at SR {rec['sr']} is lost: {c.name} cannot move "
                      f"({'; '.join(body.movement_limits(c)['why'])}) and is {rules.metres_text(metres)} "
                      f"short of {t.name}", ref=rec["ref"])
            continue
        # the DEX, SIZ and weapon SRs (kept aside while a movement begun during resolution stands in for them)
        base = [list(p) for p in (rec.get("before_moving") or rec["parts"]) if p[0] not in ("move", MOVED_FROM)]
        parts = [list(p) for p in base]
        if new_move:
            at = next((i + 1 for i, p in enumerate(parts) if p[0] == "weapon"), len(parts))
            parts.insert(at, ["move", new_move])
        total = sum(p[1] for p in parts)
        if start and new_move and rec["combatant"] in ids and start + new_move > total:
            parts, total = [[MOVED_FROM, start], ["move", new_move]], start + new_move
        changed = parts != [list(p) for p in rec["parts"]]
        if changed and enc.phase == "resolve" and total < rec["sr"]:
            # nearer than declared once resolution has begun (the GM dragged the token to where its
            # movement ends, at its SR): the attack keeps its SR; "once resolution begins, changes
            # come at a cost", and only a Change… brings it another SR
            continue
        if not together:
            rec.pop("closing", None)
            rec.pop("mutual", None)
        rec["metres"], rec["moving"], rec["note"] = metres, bool(metres), mv.note if mv else ""
        if not changed:
            continue
        if parts[0][0] == MOVED_FROM:
            rec["before_moving"] = base
        else:
            rec.pop("before_moving", None)
        _retimed(ctx, rec, c, parts, why, note=mv.note if mv else "")
    _rework_charges(ctx, ids, why)


def _met_here(rec: dict[str, Any], c: Combatant) -> bool:
    """A charge a braced spear has met (``meet_charge``), its charger still where it was met: its run
    is over and it has no metres left, whether or not the token was put at the spear."""
    met = rec.get("met")
    return bool(met) and (c.position.x, c.position.y) == (met["x"], met["y"])


def meet_charge(ctx: Context, bracer: Combatant, charger: Combatant) -> None:
    """Bracing for a Charge: "They attack at the weapon's SR + the SR required for the charging movement":
    the braced spear strikes as the charger arrives. The charge ends there, before the blow lands: the
    charger's token at the spear (when the page moves tokens), no metres left to his declared attack,
    and his breakdown says so. A GM's play: the spear disabled the charger's leg and his charge was
    walked again over the whole 13 m from where he set off, at half rate (SR 16: lost)."""
    enc = ctx.enc
    sr = enc.state.get("sr", 0)
    recs = actions_where(enc, lambda a: a["combatant"] == charger.id and a["target"] == bracer.id
                         and a.get("charge") and a["status"] == "declared" and a["round"] == enc.round)
    if not recs:
        return
    went = close_in(charger, bracer, None, enc.peek()) if moves_token(ctx) else max(r["metres"] for r in recs)
    said = f"met by {bracer.name}'s braced spear at SR {sr}"
    for rec in recs:
        rec["met"] = {"sr": sr, "by": bracer.id, "x": charger.position.x, "y": charger.position.y}
        rec["metres"], rec["moving"] = 0.0, False
        rec["note"] = f"{rec['note']}; {said}" if rec.get("note") else said
    closes = f": {charger.name} closes {rules.metres_text(went)} to {bracer.name}" if went else ""
    ctx.event("move", f"{charger.name}'s charge meets {bracer.name}'s braced spear at SR {sr}{closes}",
              id=charger.id, x=charger.position.x, y=charger.position.y)


def _pace(ctx: Context, rec: dict[str, Any] | None, c: Combatant) -> float:
    """The Movement rate ``rec``'s attacker closes at: its own, or its mount's when he rides (``ridden``:
    a rider's melee, a mounted charge walked, ``_mount_cannot_run``). With no record (a partner closing
    on the GM's word, not declared yet): the mount he rides, if any, carries him. The partner of a
    closing pair is read the same way (a GM's play: a rider and a Broo closing on each other, the
    rider's line "11 m a strike rank", the Broo's "6 m": the rider's own feet, not his horse's)."""
    if rec is None:
        mount = ridden_by(ctx.enc, c)
    else:
        mount = ctx.enc.peek_at(rec.get("ridden") or "")
    return _rate(ctx, mount if mount is not None else c)


def _mount_cannot_run(ctx: Context, rec: dict[str, Any], c: Combatant, mount: Combatant) -> bool:
    """Damage Equal to Location HP, Leg: "The combatant cannot run"; Mounted Charge & Lance: "Mounted
    combatants who charge at least 20m ... the attack's SR is the weapon's SR + the SR required for the
    movement (ignoring DEX SR and SIZ SR), and the attack uses the mount's damage bonus". A mount that
    can no longer run (a leg disabled since) charges no more: the charge and its benefits are lost, said
    in the log, and the rider's attack is timed as any melee attack, the mount walking him at its rate
    (a GM's play: a lamed horse still carried its rider's charge)."""
    lim = body.movement_limits(mount)
    if lim["can_run"]:
        return False
    from fray.games.strike_rank.timing import derived  # (timing imports this module lazily; kept alike)
    d = derived(ctx, ctx.enc, c)
    rec.pop("mounted_charge", None)
    rec.pop("dm_from", None)  # the rider's own damage bonus again
    rec["running"], rec["ridden"] = False, mount.id
    rate = _rate(ctx, mount)
    ctx.event("declare", f"{mount.name} cannot run ({'; '.join(lim['why'])}): {c.name}'s mounted charge is lost; "
              f"{mount.name} walks at {rate:g} m a strike rank", ref=rec["ref"], id=c.id)
    t = ctx.enc.peek_at(rec["target"])
    metres = rules.to_engage(distance(c.position, t.position)) if t is not None else rec["metres"]
    mv = rules.movement_sr(metres, rate, False) if metres and rate > 0 else None
    weapon = next((p[1] for p in rec["parts"] if p[0] == "weapon"), 0)
    parts = [["DEX", d["dex_sr"]["value"]], ["SIZ", d["siz_sr"]["value"]], ["weapon", weapon]]
    if mv:
        parts.append(["move", mv.total])
    rec["metres"], rec["moving"], rec["note"] = metres, bool(metres), mv.note if mv else ""
    _retimed(ctx, rec, c, parts, f"{mount.name} cannot run", note=rec["note"])
    return True


def _no_longer_running(ctx: Context, rec: dict[str, Any], c: Combatant) -> None:
    """Damage Equal to Location HP, Leg: "The combatant cannot run"; Charging: "running at double
    Movement rate". A declared run or charge whose runner can no longer run (a leg disabled or maimed
    since) is over, said in the log: the attacker walks at its rate (a GM's play: a wolf with a
    disabled leg still charged 23 m at its charge's SR)."""
    lim = body.movement_limits(c)
    if not rec["running"] or lim["can_run"]:
        return
    what = "charge" if rec.get("charge") else "run"
    rec["running"] = rec["charge"] = False
    rec.pop("charge_past", None)  # "charge past": a charge no more
    ctx.event("declare", f"{c.name} cannot run ({'; '.join(lim['why'])}): the {what} is lost; {c.name} "
              f"walks at {_rate(ctx, c):g} m a strike rank", ref=rec["ref"], id=c.id)


def _retimed(ctx: Context, rec: dict[str, Any], c: Combatant, parts: list[list[Any]], why: str,
             label: str = "", note: str = "") -> None:
    """``rec`` timed anew as ``parts`` (its breakdown's own bracketed ``label``, if any), said in the log with ``why``
    and the movement's ``note``;
    past SR 12 an attack is lost ("If an attack is pushed past SR 12, it is lost")."""
    total = sum(p[1] for p in parts)
    rec["parts"] = parts
    rec["text"] = rules.Breakdown("SR", tuple(tuple(p) for p in parts), label).text()
    note = f" ({note})" if note and f"({note})" not in rec["text"] else ""
    what = declared_words(c, rec)
    if total > rules.LAST_SR:
        rec["status"] = "lost"
        ctx.event("lost", f"{why}: {c.name}'s {what}: {rec['text']}{note} is past SR 12: the attack is lost",
                  ref=rec["ref"])
        return
    rec["sr"] = total
    ctx.event("declare", f"{why}: {c.name}'s {what} now at SR {total}: {rec['text']}{note}",
              ref=rec["ref"], sr=total, id=c.id)


def _rework_charges(ctx: Context, ids: set[str], why: str) -> None:
    """The charges' own timing, from where everyone stands now. Mounted Charge & Lance: "the attack's SR
    is the weapon's SR + the SR required for the movement (ignoring DEX SR and SIZ SR)": the mount's
    run, at double its rate, over the metres to engage now. Whether it is a charge of "at least 20m"
    was judged when it set off and stands (the run is begun). Bracing for a Charge: "They attack at
    the weapon's SR + the SR required for the charging movement": a braced spear waits for the charge
    as it is now timed (``rework_movement``); with that charge lost or struck, it keeps its SR.
    Once resolution has begun, neither comes earlier than declared, as for any attack."""
    enc = ctx.enc
    for rec in actions_where(enc, lambda a: a.get("mounted_charge") and a["status"] == "declared"
                             and a["round"] == enc.round and (a["combatant"] in ids or a["target"] in ids)):
        c, t = enc.peek_at(rec["combatant"]), enc.peek_at(rec["target"])
        mount = enc.peek_at(c.data.get("mount") or "") if c is not None else None
        # a fallen target first (as ``rework_movement``'s): its attack must change, not be timed again
        if c is None or t is None or mount is None or body.can_act(t) or _mount_cannot_run(ctx, rec, c, mount):
            continue
        metres = rules.to_engage(distance(c.position, t.position))
        mv = rules.movement_sr(metres, mount.stats.get("move", 3), True)
        parts = [p for p in rec["parts"] if p[0] != "move"] + ([["move", mv.total]] if mv else [])
        if (mv.total if mv else 0) == _move_sr(rec) or (enc.phase == "resolve" and sum(p[1] for p in parts) < rec["sr"]):
            continue
        rec["metres"], rec["note"] = metres, mv.note if mv else ""
        _retimed(ctx, rec, c, parts, why, "mounted charge: no DEX or SIZ SR", rec["note"])
    for rec in actions_where(enc, lambda a: a.get("bracing") and a["status"] == "declared"
                             and a["round"] == enc.round and (a["combatant"] in ids or a["target"] in ids)):
        ch = next((x for x in peek_actions(enc) if x["combatant"] == rec["target"] and x.get("charge")
                   and x["target"] == rec["combatant"] and x["status"] == "declared" and x["round"] == enc.round),
                  None)
        c = enc.peek_at(rec["combatant"])
        if ch is None or c is None:
            continue
        parts = [["charge", _move_sr(ch)] if p[0] == "charge" else list(p) for p in rec["parts"]]
        if parts == [list(p) for p in rec["parts"]] or (enc.phase == "resolve" and sum(p[1] for p in parts) < rec["sr"]):
            continue
        rec["note"] = charge_words(enc, ch)
        _retimed(ctx, rec, c, parts, why, "braced: no DEX or SIZ SR")


def charge_words(enc: Encounter, ch: dict[str, Any]) -> str:
    """A braced spear's movement in words: the charger's run, not the wielder's ("Bracing for a Charge":
    the charged one receives the attack where she stands): "Wolf 2's charge: closes 6.93 m running at
    6 m a strike rank: +2 SR"."""
    who = enc.peek_at(ch["combatant"])
    return f"{who.name}'s charge: {ch['note']}" if who is not None and ch.get("note") else ""


def movement_allows(ctx: Context, rec: dict[str, Any], c: Combatant, t: Combatant) -> float | None:
    """The metres a declared melee attack's move SRs cover ("Movement costs 1 SR per (Movement rate)
    metres", the other's rate added while closing together): as far as its attacker may close when
    it strikes. A mutual closing on the GM's word and a charge's own timing: all the way, as before."""
    if not _reworkable(ctx.enc, dict(rec, status="declared")):
        return None
    _, partner = _partner(ctx, rec, c, t)
    return _move_sr(rec) * (_pace(ctx, rec, c) * (2 if rec["running"] else 1) + partner)


def rework_for_rates(ctx: Context) -> None:
    """After any action: a combatant whose Movement rate no longer gives their declared attack's
    movement the SRs it was timed with (a leg maimed, immobilized or freed) has it timed again
    (``rework_movement``). Only read until one has changed."""
    enc = ctx.enc
    if enc.phase not in ("declare", "resolve"):
        return
    for rec in actions_where(enc, lambda a: a.get("mounted_charge") and a["status"] == "declared"
                             and a["round"] == enc.round):
        c = enc.peek_at(rec["combatant"])
        mount = enc.peek_at(c.data.get("mount") or "") if c is not None else None
        if mount is not None:
            _mount_cannot_run(ctx, rec, c, mount)
    slower: dict[str, str] = {}
    for a in peek_actions(enc):
        if a["round"] != enc.round or a["combatant"] in slower or not a.get("moving") or not _reworkable(enc, a):
            continue
        c, t = enc.peek_at(a["combatant"]), enc.peek_at(a["target"])
        if c is None or t is None:
            continue
        rate = _pace(ctx, a, c)
        _, partner = _partner(ctx, a, c, t, as_declared=True)
        mv = rules.movement_sr(a["metres"], rate, a["running"], partner) if rate * (2 if a["running"] else 1) + partner > 0 else None
        if mv is None or mv.total != _move_sr(a) or (a["running"] and not body.movement_limits(c)["can_run"]):
            lim = body.movement_limits(c)
            slower[c.id] = f"{c.name} now moves {rate:g} m a strike rank" + (f" ({'; '.join(lim['why'])})" if lim["why"] else "")
    for cid, why in slower.items():
        rework_movement(ctx, [cid], why, moved=False)


def map_move(ctx: Context) -> None:
    """The core ``move`` (the GM drags a token), and the declared attacks of and on the one moved timed
    again from where the GM put it (``rework_movement``)."""
    from fray.reducer import CORE_ACTIONS  # the reducer loads the games: imported when used
    CORE_ACTIONS["move"](ctx)
    c = ctx.enc.peek_at(ctx.action.get("id"))
    rework_movement(ctx, [c.id], f"{c.name} was moved on the map")


def close_in(c: Combatant, target: Combatant, metres: float | None = None,
             others: Iterable[Combatant] = ()) -> float:
    """Put ``c``'s token on the straight line toward ``target``, ``metres`` along it (all the way
    when None) but no nearer than engagement range ("For human-sized combatants, engagement range
    is about 3 meters or less"): where a resolved move or a melee attack's movement ends. Returns
    the metres closed on the target.

    Two figures do not stand on one spot (a GM's play-through: three who closed on one foe from
    one side ended on one point, each token hiding the others): where that point is within
    ``TOKEN_SPACE_M`` of anyone in ``others``, the move ends beside it on the same circle round
    the target (still at engagement range, the least turn either way), or, for a move cut short
    by its metres, a step back along its line; where no spot is free, on the point as before. The metres
    returned are those closed on the target (a step aside round it adds none)."""
    here, there = c.position, target.position
    gap = distance(here, there, "horizontal")
    go = max(0.0, gap - rules.ENGAGEMENT_RANGE_M)
    if metres is not None:
        go = min(go, max(0.0, float(metres)))
    # Less than the decimetre the map and the log draw is no move (a GM read "closes 0 m" of a
    # wolf 3.04 m off): the token stays put and nothing is said to have moved.
    if go < MOVE_SHOWN_M or gap <= 0:
        return 0.0
    taken = [(o.position.x, o.position.y) for o in others if o.id not in (c.id, target.id)]

    def free(x: float, y: float) -> bool:
        return all(math.hypot(x - ox, y - oy) >= TOKEN_SPACE_M for ox, oy in taken)

    f = go / gap
    x, y = here.x + (there.x - here.x) * f, here.y + (there.y - here.y) * f
    if not free(x, y):
        for spot in _beside(here, there, go, gap, metres):
            if free(*spot):
                x, y = spot
                break
    c.position = Position(round(x, 2), round(y, 2), here.alt)
    # the metres closed on the target, as declared: a step aside round it to a free spot is part of the
    # same closing (Engagement: "small movements and changes of position are assumed to happen as
    # necessary"), not more metres (a GM's play: "closes 6.2 m" declared, "closes 6.8 m" logged)
    return round(min(go, gap - math.hypot(x - there.x, y - there.y)), 2)


MOVE_SHOWN_M = rules.MOVE_SHOWN_M
# Closer than this a spot is taken, as Add ×N judges it (``reducer._formation``: within half its step).
# A metre let a closing attacker stop a metre from another foe on its line, inside his reach as if on
# top of him (a GM's fight); two tokens a metre apart are drawn one over the other at a fight's zoom.
TOKEN_SPACE_M = 1.5  # half of reducer.FORMATION_STEP (imported there lazily: the reducer loads the games)


def _beside(here: Position, there: Position, go: float, gap: float, metres: float | None
            ) -> Iterator[tuple[float, float]]:
    """Where a move toward ``there`` may end instead of its own point, nearest first (``close_in``)."""
    radius = gap - go
    if radius <= rules.ENGAGEMENT_RANGE_M + 1e-9:
        # at engagement range: round the target on that circle, a token's width a step, either way
        radius -= 0.01  # inside it still once the spot is rounded to the centimetre
        start = math.atan2(here.y - there.y, here.x - there.x)
        step = 2 * math.asin(min(1.0, TOKEN_SPACE_M / (2 * radius)))
        for k in range(1, int(math.pi / step) + 1):
            for side in (1, -1):
                a = start + side * k * step
                x, y = there.x + radius * math.cos(a), there.y + radius * math.sin(a)
                # the declared metres reach the circle on the straight line; a step aside along
                # it, up to two spots' width further, is part of the same closing (Engagement:
                # "small movements and changes of position are assumed to happen as necessary")
                if metres is None or math.hypot(x - here.x, y - here.y) <= float(metres) + 2 * TOKEN_SPACE_M:
                    yield x, y
    # short of it (or no room on it): back along the line, half a token's width a step
    ux, uy = (there.x - here.x) / gap, (there.y - here.y) / gap
    back = go - TOKEN_SPACE_M / 2
    while back > 0:
        yield here.x + ux * back, here.y + uy * back
        back -= TOKEN_SPACE_M / 2
