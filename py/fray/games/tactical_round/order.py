"""Who acts in the current phase, as ``Slot`` values sorted by a stated key.

Key in every phase: ``(phase rank a, phase rank b, GM tie-break, id number, id, declaration index)``: the
GM's order settles equals, whatever place the action had in each declaration.
* Melee: ``a = −weapon length`` (longest first), ``b = −CMB`` (after parry; higher first). Slots
  with equal ``a`` and ``b`` strike simultaneously; the explanation says so.
* Other phases: ``a = b = 0`` (everyone in the phase acts at once; the GM's order breaks ties).
* Move: Running-Away strikes come first (``a = −1``), then movers.
* Declaration: every combatant still able to act, to declare.
"""

from __future__ import annotations

from typing import Any

from fray.model import Encounter
from fray.games.base import Slot
from fray.games.tactical_round import rules
from fray.games.tactical_round.combatant import RANGED_KINDS


def order_of_play(enc: Encounter, tables: dict[str, dict[str, Any]]) -> list[Slot]:
    # only read (``Encounter.peek``): a Next asks for the order of every phase it passes over,
    # and through a draft's own list each ask copied every combatant (issue 11)
    phase = enc.phase
    title = rules.phase_title(tables, phase)
    slots: list[Slot] = []
    if phase == "declaration":
        for c in enc.peek():
            if not rules.fallen(c):
                slots.append(Slot(c.id, title, (0, 0) + rules.sorted_slots_key(enc, c), "declares this round's actions",
                                  tie=(0, 0)))
    declared = enc.state.get("declared", {})
    kinds = rules.keyed(tables["declared_actions"])
    for c in enc.peek():
        if rules.fallen(c):
            continue  # the fallen are offered nothing (issue 32); their actions lapse as the phase ends
        for i, d in enumerate(declared.get(c.id, [])):
            if d["phase"] != phase:
                continue
            ref = f"{c.id}:{i}"
            what = kinds.get(d["action"], {}).get("title", d["action"])
            w = c.data["weapons"][d["weapon"]] if d.get("weapon") is not None and d["weapon"] < len(
                c.data["weapons"]) else None
            tgt = enc.peek_at(d["target"]) if d.get("target") else None
            hit = enc.peek_at(d["attacked"]) if d.get("attacked") else None
            if hit is not None:  # made on another than the declared target: whom it went to
                what += f" → {hit.name}" + (f" (declared: {tgt.name})" if tgt is not None else "")
            elif tgt is not None:
                what += f" → {tgt.name}"
            if phase == "melee" and d["action"] == "melee_attack" and w is not None:
                a, b = rules.melee_key(c, w)
                expl = f"{what} with {w['name']}: length {w['length']:g}, CMB {-b}"
                slots.append(Slot(c.id, title, (a, b) + rules.sorted_slots_key(enc, c) + (i,), expl, ref, tie=(a, b)))
            else:
                if w is not None and w["kind"] in RANGED_KINDS:
                    what += f" with {w['name']}"
                slots.append(Slot(c.id, title, (0, 0) + rules.sorted_slots_key(enc, c) + (i,), what, ref, tie=(0, 0)))
    if phase == "move":
        for c in enc.peek():
            flight = c.data.get("run_away") or {}
            if flight.get("round") != enc.round or flight.get("away"):
                continue
            for oid, res in flight.get("vs", {}).items():
                o = enc.peek_at(oid)
                if o is None or res == "win" or oid in flight.get("struck", []) or rules.fallen(o):
                    continue
                how = "with On Rear" if res == "lose" else "at half CMB"
                slots.append(Slot(oid, title, (-1, 0) + rules.sorted_slots_key(enc, o) + (0,),
                                  f"strikes at the fleeing {c.name} {how}", f"strike:{c.id}", tie=(-1, 0)))
    slots.sort(key=lambda s: s.key)
    return slots


def simultaneous(slots: list[Slot]) -> dict[str, list[str]]:
    """Melee slots that share length and CMB: action ref -> the other refs it strikes with."""
    out: dict[str, list[str]] = {}
    for s in slots:
        same = [x.action_ref for x in slots if x is not s and x.key[:2] == s.key[:2]]
        if same:
            out[s.action_ref] = same
    return out


def strikes_first(enc: Encounter, tables: dict[str, dict[str, Any]], attacker_id: str) -> str:
    """In the Melee phase, who strikes before ``attacker_id``'s declared melee attack, and why, in the GM's
    words ("" if no one): the sequence's "Melee (longest weapon first; tie: higher CMB; equal:
    simultaneous)" (FACTS.md). A GM's play-through: Lia's Staff (length 3) was listed first, yet the page
    let Orc 4 (Scimitar, length 2) attack first with no remark. Said beside the attack form, not refused:
    the GM runs the table (a blow may come late for a reason the page cannot know)."""
    if enc.phase != "melee":
        return ""
    open_melee = [s for s in order_of_play(enc, tables) if _open_melee(enc, s)]
    mine = [s for s in open_melee if s.combatant_id == attacker_id]
    if not mine:
        return ""
    first = min(open_melee, key=lambda s: s.key)
    if first.tie >= mine[0].tie:
        return ""
    who = enc.peek_at(first.combatant_id)
    a, b = _weapon(enc, mine[0]), _weapon(enc, first)
    if first.tie[0] < mine[0].tie[0]:
        return (f"{who.name} strikes first: {b['name']}, length {b['length']:g}, is longer than {a['name']}, "
                f"length {a['length']:g} (Melee: longest weapon first)")
    return (f"{who.name} strikes first: both weapons are length {a['length']:g}, and {who.name}'s CMB "
            f"{-first.tie[1]} is higher than {-mine[0].tie[1]} (Melee: tie, higher CMB)")


def _open_melee(enc: Encounter, s: Slot) -> bool:
    """A declared melee attack with its weapon, not yet made (order_of_play lists the done too)."""
    _, _, i = s.action_ref.partition(":")
    ds = enc.state.get("declared", {}).get(s.combatant_id, [])
    if not i.isdigit() or int(i) >= len(ds):
        return False
    d = ds[int(i)]
    return d["action"] == "melee_attack" and d.get("weapon") is not None and not d["done"]


def _weapon(enc: Encounter, s: Slot) -> dict[str, Any]:
    d = enc.state["declared"][s.combatant_id][int(s.action_ref.partition(":")[2])]
    return enc.peek_at(s.combatant_id).data["weapons"][d["weapon"]]
