"""The projection the page renders for a tactical-round encounter.

``view(enc)`` returns (JSON-able)::

    {
      "round": 2,
      "phase": {"id": "melee", "title": "Melee", "note": "Longest weapon first; ...", "index": 5},
      "phase_label": "Melee: longest weapon first, then higher CMB",   # the round bar's name for the phase
      "current": None,                               # only in Assessment and Declaration: nobody acts
      "phases": [{"id": "assessment", "title": "Assessment", "current": false}, ...],   # the sequence
      "acting": [                                    # who acts in this phase, in order
        {"combatant": "c1", "name": "Bran", "label": "Melee", "explanation": "Melee attack → Grak with
         Broadsword: length 2, CMB 40", "action": "c1:0", "done": false, "simultaneous_with": []}
      ],
      "combatants": [
        {"id": "c1", "name": "Bran", "side": "party",
         "hp": {"current": 30, "max": 40, "hits_taken": 10},
         "def": {"total": 75, "parts": [{"label": "DEF", "value": 40}, {"label": "shield", "value": 15},
                 {"label": "parry", "value": 20}], "text": "DEF 75 = DEF 40 + shield 15 + parry 20"},
         "parry": {"amount": 20, "against": ["c2"], "limit": 60, "why": "up to CMB 60"},   # or amount 0
         "cover": [{"against": "all", "type": "partial", "bonus": 20}],
         "weapons": [{"index": 0, "name": "Broadsword", "kind": "melee", "cmb": 60, "cmb_now": 40,
                      "base_range": null, "length": 2, "two_handed": false, "shield": 15,
                      "quick_load": false, "reload_rounds": 0, "loaded": true, "loaded_this_round": false,
                      "reload_progress": 0, "state": "ready", "wielded": true}],
         "conditions": [{"name": "bruised", "text": "..."}, {"name": "engaged", "text": "Engaged with Grak"}],
         "engaged_with": ["c2"], "disengaging": false, "stunned_rounds": 0,
         "declared": [{"action": "melee_attack", "title": "Melee attack", "phase": "melee",
                       "phase_title": "Melee", "cost": "full", "weapon": 0, "target": "c2", "done": false}],
         "full_and_half": false, "has_declared": true, "can_parry": true, "can_move": false,
         "run_away": null}                           # or {"round", "vs": {id: win|lose|tie}, "struck"}
      ],
      "pending": [                                  # GM entries awaited
        {"ref": "A1", "stage": "attack" | "critical", "attacker": "c1", "target": "c2", "weapon": "Broadsword",
         "kind": "melee", "total": 112, "text": "112 = roll 67 + CMB 60 ...", "round": 1, "phase": "melee",
         "notes": [...], "critical"?: "B", "critical_roll"?: 83, "critical_text"?: "..."}
      ],
      "severities": ["A", "B", "C", "D", "E"]       # keys for tr.apply_result.critical
    }
"""

from __future__ import annotations

from typing import Any

from fray.model import Encounter
from fray.games.tactical_round import rules
from fray.games.tactical_round.combatant import hp_current, hp_max
from fray.games.tactical_round.order import order_of_play, simultaneous

CONDITION_TEXT = {
    "bruised": "Below half HP: −20 to rolls",
    "incapacitated": "0 HP or below: cannot act or Parry",
    "dying": "−50 HP or below",
    "stunned": "Parry with up to half CMB; attacks against +20; ends at the end of Other Actions",
    "prone": "−20 CMB; +20 DEF against ranged attacks",
    "held": "−30 CMB and DEF; melee attacks against +30; cannot Parry",
    "surprised": "Attacks against +20; cannot Parry",
    "dead": "Killed: cannot act",
}


def phase_label(phase_entry: dict[str, Any] | None) -> str:
    """"Ranged A: weapons loaded before the round, ...": ``advance`` moves a whole phase at a time, so
    the round bar names the phase and what happens in it (not one combatant). The text after the
    title is the phase's ``label`` in the table, else its note."""
    if phase_entry is None:
        return "Setup: add combatants, then start the round"
    what = phase_entry.get("label") or ""
    if not what and phase_entry.get("note"):
        note = phase_entry["note"].strip().rstrip(".")
        what = note[:1].lower() + note[1:] if note[1:2].islower() else note
    return f"{phase_entry['title']}: {what}" if what else phase_entry["title"]


def view(enc: Encounter, tables: dict[str, dict[str, Any]], kept: dict[str, Any] | None = None) -> dict[str, Any]:
    """What the page shows of the round, the phase and each combatant. With ``kept``
    (``Ruleset.view_kept``), a combatant's view made for an earlier state is used again when it is
    made of the very same things (``combatant_views``)."""
    ids = rules.phase_ids(tables)
    phase_entry = next((e for e in tables["phases"]["entries"] if e["id"] == enc.phase), None)
    slots = order_of_play(enc, tables)
    sim = simultaneous(slots) if enc.phase == "melee" else {}
    declared = enc.state.get("declared", {})
    kinds = rules.keyed(tables["declared_actions"])

    def done(ref: str) -> bool:
        if ":" not in ref or ref.startswith("strike:"):
            return False
        cid, i = ref.split(":")
        ds = declared.get(cid, [])
        return int(i) < len(ds) and ds[int(i)]["done"]

    acting = [{**s.to_json(), "name": enc.get(s.combatant_id).name, "done": done(s.action_ref),
               "simultaneous_with": sim.get(s.action_ref, [])} for s in slots]
    return {
        "round": enc.round,
        "phase": {"id": enc.phase, "title": phase_entry["title"] if phase_entry else "Setup",
                  "note": phase_entry.get("note", "") if phase_entry else "Add combatants, then start the round.",
                  "index": ids.index(enc.phase) if enc.phase in ids else -1},
        "phase_label": phase_label(phase_entry),
        # nobody acts while the round is declared: the players' window names no one "Now" then (a
        # GM's play-through read "Now: Bran" during Declaration), and shows the phase
        **({"current": None} if enc.phase in ("assessment", "declaration") else {}),
        "phases": [{"id": e["id"], "title": e["title"], "current": e["id"] == enc.phase}
                   for e in tables["phases"]["entries"]],
        "acting": acting,
        "combatants": combatant_views(enc, tables, kinds, declared, kept),
        "pending": [dict(p) for p in enc.state.get("pending", [])],
        "severities": [e["key"] for e in tables["critical_severity"]["entries"]],
    }


def combatant_views(enc: Encounter, tables: dict[str, dict[str, Any]], kinds: dict[str, Any],
                    declared: dict[str, list], kept: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every combatant's view, in order. With ``kept``, the one made before is used again when it
    was made of the same combatant object, the same table objects, the same declared actions (the
    list object: a state is never edited once made, so the same list holds the same actions), the
    same round (what was loaded this round, a flight this round) and the same opponents engaged,
    by id and name (the view names them). An action makes a new object of whatever it changes
    (``fray.sharing``), so a Next that changes nobody's view rebuilds none: at 200 combatants a
    view of them all took 4.5 ms of CPython per render, and 0.8 so."""
    made_of_tables = tuple(tables.values())
    out = []
    for c in enc.combatants:
        decls = declared.get(c.id, _NONE_DECLARED)
        engaged = tuple((x, enc.get(x).name) for x in rules.engaged_ids(enc, c))
        made_of = (c, made_of_tables, decls, enc.round, engaged)
        held = kept.get(c.id) if kept is not None else None
        if held is not None and _same(held[0], made_of):
            out.append(held[1])
            continue
        cv = combatant_view(enc, c, tables, kinds, decls)
        if kept is not None:
            kept[c.id] = (made_of, cv)
        out.append(cv)
    if kept is not None and len(kept) > len(out):  # gone, or another encounter's: never kept for nothing
        for cid in set(kept) - {c.id for c in enc.combatants}:
            del kept[cid]
    return out


_NONE_DECLARED: list = []  # one object for "declared nothing", so that it is the same from view to view


def _same(a: tuple, b: tuple) -> bool:
    """Made of the same things: the combatant, each table and the declared actions by identity,
    the round and the engaged opponents by value."""
    return (a[0] is b[0] and len(a[1]) == len(b[1]) and all(x is y for x, y in zip(a[1], b[1]))
            and a[2] is b[2] and a[3] == b[3] and a[4] == b[4])


def combatant_view(enc, c, tables, kinds, decls) -> dict[str, Any]:
    parts = rules.general_defense(c, tables)
    total = sum(v for _, v in parts)
    p = c.data.get("parry") or {}
    limit, why = rules.parry_limit(c, tables)
    weapons = []
    for i, w in enumerate(c.data.get("weapons", [])):
        if w["kind"] == "missile":
            state = "loaded" if w["loaded"] else (f"reloading {w['reload_progress']}/{1 if w['quick_load'] else w['reload']}"
                                                  if w["reload_progress"] else "empty")
        elif w["kind"] == "thrown":
            state = "readied" if w["loaded"] else "not readied"
        else:
            state = "ready"
        weapons.append({
            "index": i, "name": w["name"], "kind": w["kind"], "cmb": w["cmb"], "cmb_now": rules.current_cmb(c, w),
            "base_range": w["base_range"], "length": w["length"], "two_handed": w["two_handed"],
            "shield": w["shield"], "quick_load": w["quick_load"], "reload_rounds": w["reload"],
            "loaded": w["loaded"], "loaded_this_round": w["loaded"] and w["loaded_round"] == enc.round,
            "reload_progress": w["reload_progress"], "state": state, "wielded": i == c.data.get("wielding", 0)})
    conds = [{"name": x, "text": CONDITION_TEXT.get(x, "")} for x in rules.shown_conditions(c, tables)]
    engaged = rules.engaged_ids(enc, c)
    if engaged:
        conds.append({"name": "engaged", "text": "Engaged with " + ", ".join(enc.get(x).name for x in engaged)})
    if c.data.get("dies_at_round") is not None and "dead" not in c.conditions:
        conds.append({"name": "mortally wounded", "text": f"A critical: dies at the end of round {c.data['dies_at_round']}"})
    if c.data.get("disengaging"):
        conds.append({"name": "disengaging", "text": "May Parry, cannot attack; free at the end of Other Actions"})
    flight = c.data.get("run_away")
    return {
        "id": c.id, "name": c.name, "side": c.side,
        "hp": {"current": hp_current(c), "max": hp_max(c), "hits_taken": c.data.get("hits_taken", 0)},
        "def": {"total": total, "parts": [{"label": k, "value": v} for k, v in parts],
                "text": f"DEF {total} = " + " + ".join(f"{k} {v}" for k, v in parts)},
        "parry": {"amount": int(p.get("amount", 0)), "against": list(p.get("against", [])), "limit": limit,
                  "why": why},
        "cover": [{"against": k, "type": v, "bonus": rules.cover_bonus(tables, v)}
                  for k, v in sorted(c.data.get("cover", {}).items())],
        "weapons": weapons,
        "conditions": conds,
        "engaged_with": engaged,
        "disengaging": bool(c.data.get("disengaging")),
        "stunned_rounds": int(c.data.get("stunned_rounds", 0)),
        "declared": [{**d, "title": kinds.get(d["action"], {}).get("title", d["action"]),
                      "phase_title": rules.phase_title(tables, d["phase"])} for d in decls],
        "full_and_half": rules.full_and_half(decls),
        "has_declared": decls is not _NONE_DECLARED,  # declared this round (perhaps nothing)
        "can_parry": limit > 0,
        "can_move": not any(x in c.conditions for x in rules.OUT_OF_ACTION) and (
            not engaged or bool(flight and flight.get("round") == enc.round)),
        "run_away": flight if flight and flight.get("round") == enc.round else None,
    }
