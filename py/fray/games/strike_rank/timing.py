"""Melee Rounds and Strike Ranks: declaration, SR of each action, resolution order, round's end.

``enc.phase``: ``setup`` → ``declare`` → ``resolve`` (SR by SR) → ``end`` (bleeding and other
upkeep) → ``declare`` of the next MR. ``enc.state``:

* ``sr``: the strike rank being resolved (0 while declaring).
* ``actions``: declared actions ``{ref, round, combatant, kind, sr, text, parts, status, ...}``;
  ``round`` is the MR in which it resolves (a spell that rolls over carries the next MR's number),
  ``status`` is declared | done | lost | changed | aborted | interrupted | skipped (the GM's choice).
* ``prompts``: questions for the GM (see ``wounds.prompt``), answered by ``sr.answer``.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

from fray import sharing
from fray.errors import InvalidAction, RuleViolation
from fray.geometry import distance
from fray.model import Combatant, Encounter
from fray.games.base import Context, Slot, gm_tie_break, id_order
from fray.games.strike_rank import body, rules, wounds

KINDS = ("melee", "missile", "spell", "move", "other", "reload", "defend")


def derived(ctx_or_rs, enc: Encounter, c: Combatant) -> dict[str, Any]:
    rs = ctx_or_rs.ruleset if isinstance(ctx_or_rs, Context) else ctx_or_rs
    return body.derived(rs, enc, c)


def dex_sr(ctx: Context, c: Combatant) -> int:
    return derived(ctx, ctx.enc, c)["dex_sr"]["value"]


def peek_actions(enc: Encounter) -> Iterator[dict[str, Any]]:
    """Every declared action as it stands, to read and never to edit (as ``Encounter.peek`` for the
    combatants): in a draft it copies none of them (``fray.sharing``), where iterating
    ``state["actions"]`` copies each one it passes, every MR's, all fight long."""
    return list.__iter__(dict.get(enc.state, "actions") or [])


def actions_where(enc: Encounter, keep: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """The declared actions ``keep`` picks, in order, each the handler's own copy to edit; the
    others are only read."""
    acts = enc.state.get("actions", [])
    return [acts[i] for i, a in enumerate(peek_actions(enc)) if keep(a)]


def actions_of(enc: Encounter, cid: str, round_: int | None = None, live: bool = True) -> list[dict[str, Any]]:
    r = enc.round if round_ is None else round_
    return actions_where(enc, lambda a: a["combatant"] == cid and a["round"] == r
                         and (not live or a["status"] in ("declared", "done")))


def not_loaded(w: dict[str, Any], rl: dict[str, Any]) -> str:
    """Why a 1/xMR weapon cannot shoot, in words: "1/xMR: One attack every x MR ... The intervening MR must be
    spent reloading"."""
    x, need, done = int(w["rate"][2:-2]), rl.get("need", 1), rl.get("mr", 0)
    between = "the Melee Round between" if need == 1 else f"the {need} between"
    so_far = f" ({done} of {need} done)" if done else ""
    return (f"{w['name']} is not loaded: it shoots once every {x} Melee Rounds and takes {between} to reload"
            f"{so_far}; declare Reload")


def _metres(ctx: Context, c: Combatant, field: str = "metres") -> float:
    """Metres to move: as given, or to within engagement range of the named target."""
    raw = ctx.action.get(field)
    if raw is not None:
        if isinstance(raw, bool) or not isinstance(raw, (int, float)) or not 0 <= raw <= 10000:
            raise InvalidAction(field, "must be metres from 0 to 10000")
        return float(raw)
    tid = ctx.action.get("target")
    if isinstance(tid, str) and ctx.enc.get(tid) is not None and ctx.action.get("kind") in ("melee", "move"):
        # "must move 6m to get within melee range": the distance less the engagement range (a
        # move toward a target stops there too); a foe 3.04 m off read "0 m to move" and still
        # cost the minimum 1 SR of a move, where one 3.0 m off cost none.
        return rules.to_engage(distance(c.position, ctx.enc.get(tid).position))
    return 0.0


def _rate(ctx: Context, c: Combatant) -> float:
    lim = body.movement_limits(c)
    rate = c.stats.get("move", 3)
    if lim["half_rate"]:
        rate = rate / 2
    if lim["max_rate"] is not None:
        rate = min(rate, lim["max_rate"])
    return rate


def ridden_by(enc: Encounter, c: Combatant) -> Combatant | None:
    """The mount ``c`` rides, while it is in the fight to carry him (read only)."""
    mount = enc.peek_at(c.data.get("mount") or "")
    return mount if mount is not None and body.can_act(mount) is None else None


def carry_mount(ctx: Context, c: Combatant) -> None:
    """The rider's mount goes where he went: both tokens together (Mounted Knockback: "both mount and rider
    suffer any knockback"; a GM's play: the rider's token closed 15 m, his horse's stayed put)."""
    steed = ridden_by(ctx.enc, c)
    if steed is not None and (steed.position.x, steed.position.y) != (c.position.x, c.position.y):
        m = ctx.enc.get(steed.id)
        m.position = c.position
        ctx.event("move", f"{m.name} carries {c.name} there", id=m.id, x=m.position.x, y=m.position.y,
                  alt=m.position.alt)


def _flag(ctx: Context, name: str) -> bool:
    v = ctx.action.get(name, False)
    if not isinstance(v, bool):
        raise InvalidAction(name, "must be true or false")
    return v


def casting_later(enc: Encounter, cid: str, replacing: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Spells of this combatant still being cast that finish in a later MR (they rolled over)."""
    return [x for x in peek_actions(enc) if x["combatant"] == cid and x["kind"] == "spell"
            and x["status"] == "declared" and x["round"] > enc.round
            and (replacing is None or x["ref"] != replacing["ref"])]


def plan(ctx: Context, c: Combatant, declared: list[dict[str, Any]],
         replacing: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Read a declaration and compute its SR(s) with breakdowns, checking the timing rules.
    Returns the new action records (not yet stored). ``replacing``: the action being changed or
    aborted, which no longer counts."""
    a = ctx.action
    kind = a.get("kind")
    if kind not in KINDS:
        raise InvalidAction("kind", f"must be one of {', '.join(KINDS)}")
    why = body.can_act(c)
    if why:
        # the dead, unconscious and incapacitated cannot even parry or dodge (issue 32: the fallen
        # got full declaration forms); a maimed chest still may (below: no attack)
        raise RuleViolation("Action Declaration & Resolution", why)
    if kind in ("melee", "missile") and body.chest_maimed(c):
        raise RuleViolation("Damage Equal to Double Location HP", body.can_fight(c))
    if "surprised" in c.conditions and ctx.enc.round == 1 and kind != "defend":
        raise RuleViolation("Aborting Actions", f"{c.name} is surprised: no actions in the first Melee Round, "
                            "only dodges and parries at half skill")
    if c.data["round"].get("fleeing") and kind in ("melee", "missile", "spell"):
        raise RuleViolation("Disengaging", f"{c.name} is fleeing: cannot attack or cast this MR")
    d = derived(ctx, ctx.enc, c)
    dsr, ssr = d["dex_sr"]["value"], d["siz_sr"]["value"]
    running = _flag(ctx, "running")
    charge = _flag(ctx, "charge")
    if charge:
        running = True  # "running at double Movement rate in a roughly straight line"
    lim = body.movement_limits(c)
    # Bracing for a Charge: the charged one "can brace the spear to receive the attack": the charger
    # comes to her; she does not move (a GM's play: a braced Spearmaiden walked 6.9 m to the wolf)
    metres = 0.0 if a.get("brace_against") is not None else _metres(ctx, c)
    if running and not lim["can_run"]:
        raise RuleViolation("Damage Equal to Location HP", f"{c.name} cannot run: {'; '.join(lim['why'])}")
    if running and any(x.get("running") for x in declared):
        raise RuleViolation("Movement", "Only one continuous running movement can be taken in a MR")
    target = None
    if a.get("target") is not None:
        target = ctx.combatant("target")
    partner = 0.0
    closing = None
    if (target is not None and metres and kind in ("melee", "move") and ctx.enc.phase == "declare"
            and metres + 0.01 >= rules.to_engage(distance(c.position, target.position))):
        # "If two combatants move to engage each other, add up their movement rates": the target
        # has already declared closing on this one (the earlier declaration is timed again as
        # this one is stored, ``retime_closing``)
        from fray.games.strike_rank.movement import _closes_on  # (movement imports this module)
        closing = next((x for x in peek_actions(ctx.enc) if _closes_on(ctx.enc, x, target.id, c.id)), None)
    if closing is not None and not (a.get("brace_against") is not None or _flag(ctx, "mounted_charge")):
        from fray.games.strike_rank.movement import _pace  # a rider closes at his mount's rate
        partner = _pace(ctx, closing, target) * (2 if closing["running"] else 1)
    elif _flag(ctx, "mutual") and target is not None:
        # the GM's word that the target comes too, whether or not it is declared yet
        from fray.games.strike_rank.movement import _pace
        partner = _pace(ctx, None, target) * (2 if running else 1)
    else:
        closing = None
    rate = _rate(ctx, c)
    steed = ridden_by(ctx.enc, c)
    if steed is not None and not _flag(ctx, "mounted_charge"):
        # a mounted rider goes where his mount carries him, at its rate (a GM's play: a rider's plain melee
        # "closes 15 m at 3 m a strike rank" on his own feet, his horse left behind); a mounted charge has
        # its own timing, the mount running
        rate, lim = _rate(ctx, steed), body.movement_limits(steed)
        if running and not lim["can_run"]:
            raise RuleViolation("Damage Equal to Location HP", f"{steed.name} cannot run: {'; '.join(lim['why'])}")
    if metres and rate <= 0:
        raise RuleViolation("Movement", f"{c.name} cannot move: {'; '.join(lim['why'])}")
    mv = rules.movement_sr(metres, rate, running, partner, "closes" if target is not None else "moves") if metres else None
    move_sr = mv.total if mv else 0
    rec = {"kind": kind, "target": target.id if target else "", "metres": metres, "running": running,
           "charge": charge, "weapon": "", "spell": "", "moving": bool(metres), "note": mv.note if mv else ""}
    if steed is not None and not _flag(ctx, "mounted_charge"):
        rec["ridden"] = steed.id  # timed again at the mount's rate (``movement._pace``)
    if closing is not None:
        rec["closing"] = True  # timed with the target's Movement added, while the target closes too
    elif partner:
        rec["mutual"] = True  # closing together on the GM's word: kept when timed again (``_partner``)
    out: list[dict[str, Any]] = []
    if kind == "melee":
        w = _weapon(ctx, c, "weapon")
        if w["missile"] and not w["thrown"]:
            raise InvalidAction("weapon", f"{w['name']} is a missile weapon: declare a Missile attack")
        rec["weapon"] = w["id"]
        earlier = [x for x in declared if x["attack"]]
        if earlier and not (w["natural"] and all(x["weapon"] != w["id"] for x in earlier)) and not (
                len(earlier) == 1 and earlier[0]["weapon"] != w["id"] and combat_holds_two(c)):
            raise RuleViolation("Attacks & Defenses", f"{c.name} already has an attack this MR; declare several "
                                "attacks at once: more attacks with a split skill, or a second weapon")
        if a.get("brace_against") is not None:
            # "They attack at the weapon's SR + the SR required for the charging movement (ignoring
            # DEX SR and SIZ SR), and the attack uses the charger's (or their mount's) damage bonus"
            charger = ctx.combatant("brace_against")
            if not w["spear"] and not w["lance"]:
                raise RuleViolation("Bracing for a Charge", "only a spear can be braced")
            ch = next((x for x in actions_of(ctx.enc, charger.id) if x.get("charge") and x["target"] == c.id), None)
            if ch is None:
                raise RuleViolation("Bracing for a Charge", f"{charger.name} has not declared a charge at {c.name}")
            csr = next((p[1] for p in ch["parts"] if p[0] == "move"), 0)
            mount = ctx.enc.get(charger.data.get("mount") or "")
            from fray.games.strike_rank.movement import charge_words  # (movement imports this module)
            rec.update(bracing=True, dm_from=(mount or charger).id, target=charger.id, note=charge_words(ctx.enc, ch))
            c.data["round"]["bracing"] = w["id"]
            srs = [rules.Breakdown("SR", (("weapon", w["sr"]), ("charge", csr)), "braced: no DEX or SIZ SR")]
        elif _flag(ctx, "mounted_charge"):
            # "the attack's SR is the weapon's SR + the SR required for the movement (ignoring DEX SR
            # and SIZ SR), and the attack uses the mount's damage bonus"
            mount = ctx.enc.get(c.data.get("mount") or "")
            if mount is None:
                raise RuleViolation("Mounted Charge & Lance", f"{c.name} has no mount")
            if not (w["lance"] or w["spear"]):
                raise RuleViolation("Mounted Charge & Lance", "only a lance or spear gains the charge benefits")
            if metres < 20:
                raise RuleViolation("Mounted Charge & Lance", "the charge must cover at least 20 m")
            mlim = body.movement_limits(mount)
            if not mlim["can_run"]:
                # Leg: "The combatant cannot run": nor can a lamed mount charge its rider in
                raise RuleViolation("Damage Equal to Location HP", f"{mount.name} cannot run: {'; '.join(mlim['why'])}")
            mmv = rules.movement_sr(metres, mount.stats.get("move", 3), True)
            parts = (("weapon", w["sr"]), ("move", mmv.total))
            rec.update(dm_from=mount.id, mounted_charge=True, note=mmv.note)
            srs = [rules.Breakdown("SR", parts, "mounted charge: no DEX or SIZ SR")]
        else:
            n = a.get("attacks", 1)
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 4:
                raise InvalidAction("attacks", "must be 1 to 4")
            extra = a.get("extra_weapon")
            base = rules.melee_sr(dsr, ssr, w["sr"], move_sr)
            srs = [base]
            if n > 1:
                split = _split_ratings(a.get("split"), n, "attacks with one weapon")
                bad = rules.check_split(w["skill"], split)
                if bad:
                    raise RuleViolation("Fighting", bad)
                rec["split"] = split
                for k in range(1, n):
                    # "Multiple attacks each take their full SR."
                    srs.append(rules.Breakdown("SR", srs[-1].parts + (("next attack", dsr + ssr + w["sr"]),)))
            if extra is not None:
                w2 = _weapon(ctx, c, "extra_weapon")
                if w2["id"] == w["id"]:
                    raise RuleViolation("Fighting with Two Weapons", "the extra attack needs a second weapon or shield")
                srs.append(rules.Breakdown("SR", srs[-1].parts + ((f"{w2['name']}", dsr + ssr + w2["sr"]),)))
                rec["extra_weapon"] = w2["id"]
        for i, b in enumerate(srs):
            if b.total > rules.LAST_SR and replacing is None:
                # a change or an abort past SR 12 is not refused: "If an attack is pushed past SR 12, it is
                # lost" (``store`` logs it lost, as the forced change's; a GM's play had it refused)
                raise RuleViolation("Attacking", f"Attacks cannot \"roll over\": {b.text()} is past SR 12")
        for i, b in enumerate(srs):
            r = dict(rec, sr=b.total, text=b.text(), parts=[list(p) for p in b.parts], attack=True, index=i)
            if i and rec.get("extra_weapon") and i == len(srs) - 1:
                r["weapon"] = rec["extra_weapon"]
            out.append(r)
    elif kind == "missile":
        w = _weapon(ctx, c, "weapon")
        if not w["missile"]:
            raise InvalidAction("weapon", f"{w['name']} is not a missile weapon")
        if any(x["attack"] for x in declared):
            raise RuleViolation("Attacks & Defenses", f"{c.name} already has an attack this MR; declare all shots at once "
                                "(the number of shots)")
        if running:
            raise RuleViolation("Moving & Shooting", "can shoot while moving at normal rate, not running")
        if w["rate"].startswith("1/") and w["rate"] != "1/MR" and not c.data["reload"].get(w["id"], {}).get("loaded", True):
            raise RuleViolation("Ranged Combat", not_loaded(w, c.data["reload"][w["id"]]), field="weapon")
        shots = a.get("shots", 1)
        if isinstance(shots, bool) or not isinstance(shots, int) or shots < 1:
            raise InvalidAction("shots", "must be a whole number, at least 1")
        if shots > 1 and not (w["rate"] == "S/MR" or w["thrown"]):
            raise RuleViolation("Ranged Combat", f"{w['name']} fires {w['rate']}: one attack")
        split = a.get("split")
        if w["thrown"] and shots > 1 and (split is not None or w["rate"] != "S/MR"):
            # "Thrown weapons ... allow for splitting the skill for multiple attacks 5 SR apart": an
            # extra option; a thrown S/MR weapon also shoots at its rate like any ranged weapon.
            split = _split_ratings(split, shots, "throws")
            bad = rules.check_split(w["skill"], split)
            if bad:
                raise RuleViolation("Ranged Combat", bad)
            rec["split"] = split
            first = rules.missile_srs(dsr, "1/MR", 1, move_sr)[0]
            srs = [first] + [rules.Breakdown("SR", first.parts + (("5 SR apart", 5 * k),)) for k in range(1, shots)]
        else:
            srs = rules.missile_srs(dsr, w["rate"], shots, move_sr)
        if srs[-1].total > rules.LAST_SR and replacing is None:  # a change past SR 12 is lost (``store``)
            raise RuleViolation("Attacking", f"Attacks cannot \"roll over\": {srs[-1].text()} is past SR 12")
        rec["weapon"] = w["id"]
        for i, b in enumerate(srs):
            out.append(dict(rec, sr=b.total, text=b.text(), parts=[list(p) for p in b.parts], attack=True, index=i))
    elif kind == "spell":
        sid = a.get("spell")
        sp = next((s for s in c.data["spells"] if s["id"] == sid), None)
        if sp is None:
            raise InvalidAction("spell", f"{c.name} has no spell {sid!r}")
        if running:
            raise RuleViolation("Casting Spells", "Characters cannot move while casting spells.")
        if casting_later(ctx.enc, c.id, replacing):
            # "multiple spells are only possible if all finish in the same MR"
            raise RuleViolation("Casting Spells", f"{c.name} is casting a spell that finishes in a later MR: "
                                "multiple spells are only possible if all finish in the same MR")
        spells = [x for x in declared if x["kind"] == "spell"]
        if any(x.get("rune") for x in spells) or (spells and sp["type"] == "rune"):
            raise RuleViolation("Casting Spells", "Characters who cast a rune spell cannot cast any other spells "
                                "(including rune magic) in that MR.")
        sdsr = dsr if c.stats.get("DEX", 0) > 0 or c.stats.get("dex_sr") is not None else 1
        if spells:
            last = max(spells, key=lambda x: x["sr"])
            b = rules.spell_sr(0, sp)
            parts = (("after first spell", last["sr"]), ("second spell", 5)) + tuple(p for p in b.parts if p[0] != "DEX")
            b = rules.Breakdown("SR", parts)
            if b.total > rules.LAST_SR:
                raise RuleViolation("Casting Spells", f"the second spell cannot roll over: {b.text()}")
        else:
            b = rules.spell_sr(sdsr, sp, move=move_sr)
        rec.update(spell=sp["id"], rune=sp["type"] == "rune")
        later, sr = rules.rolled_over(b.total)
        note = f"rolls over to SR {sr} of MR {ctx.enc.round + later}" if later else ""
        out.append(dict(rec, sr=sr, text=b.text() + (f" → {note}" if note else ""), parts=[list(p) for p in b.parts],
                        attack=False, round_offset=later))
    elif kind == "move":
        if any(x["kind"] == "spell" for x in declared) or casting_later(ctx.enc, c.id, replacing):
            raise RuleViolation("Casting Spells", "Characters cannot move while casting spells.")
        if not metres:
            raise InvalidAction("metres", "a move needs metres (or a target)")
        cont = _flag(ctx, "continuing")
        speed = rate * (2 if running else 1)
        cap = (12 if cont else 12 - dsr) * speed
        if metres > cap:
            raise RuleViolation("Movement", f"at most {cap:g} m this MR "
                                f"({'12' if cont else f'(12 − DEX SR {dsr})'} × {speed:g} m)")
        b = rules.Breakdown("SR", (("move", move_sr),), mv.note)
        out.append(dict(rec, sr=min(rules.LAST_SR, move_sr), text=b.text(), parts=[list(p) for p in b.parts], attack=False))
    elif kind in ("other", "reload"):
        cost = a.get("sr_cost", 0 if kind == "other" else rules.LAST_SR - dsr)
        if isinstance(cost, bool) or not isinstance(cost, int) or not 0 <= cost <= 36:
            raise InvalidAction("sr_cost", "must be 0 to 36 SR")
        if kind == "reload":
            w = _weapon(ctx, c, "weapon")
            if not w["rate"].startswith("1/") or w["rate"] == "1/MR":
                raise RuleViolation("Ranged Combat", f"{w['name']} ({w['rate'] or 'melee'}) needs no reloading MR")
            rec["weapon"] = w["id"]
            if running:
                raise RuleViolation("Ranged Combat", "while reloading, only moving at normal rate")
        label = a.get("label", "reload" if kind == "reload" else "other action")
        if not isinstance(label, str) or len(label) > 60:
            raise InvalidAction("label", "must be a short text")
        b = rules.Breakdown("SR", (("DEX", dsr),) + ((("move", move_sr),) if move_sr else ()) + ((label, cost),))
        later, sr = rules.rolled_over(b.total)
        out.append(dict(rec, sr=sr, text=b.text(), parts=[list(p) for p in b.parts], attack=False,
                        round_offset=later, label=label))
    else:  # defend: a stance, no SR of its own ("do not delay other actions")
        stance = a.get("stance", "parry")
        if stance not in ("parry", "dodge"):
            raise InvalidAction("stance", "must be parry or dodge")
        why = ""
        if stance == "parry":
            from fray.games.strike_rank.defence import can_parry_with  # defence imports this module

            w = _weapon(ctx, c, "weapon")
            if can_parry_with(w, ctx.table("attack_vs_parry")):
                rec["weapon"] = w["id"]
            else:
                # a bite or kick is no parry (Unarmed Parries: an arm or leg), nor by default a bow: the parry declared
                # with one is the dodge it will be when attacked (a GM's play: "Parry / dodge only with Kick")
                stance, why = "dodge", (f"{w['name']} is a natural weapon, which does not parry" if w["natural"]
                                        else f"{w['name']} does not parry")
        rec["stance"] = stance
        text = f"defence: a dodge, resolved on the attacker's SR ({why})" if why else "defence: resolved on the attacker's SR"
        out.append(dict(rec, sr=0, text=text, parts=[], attack=False))
    if kind == "melee" and a.get("charge_past"):
        for r in out:
            r["charge_past"] = True
    return out


def _split_ratings(split: Any, n: int, what: str) -> list[int]:
    """The split skill of ``n`` attacks: one whole-number rating each."""
    if not isinstance(split, list) or len(split) != n:
        raise InvalidAction("split", f"{n} {what} need {n} split ratings")
    if any(isinstance(p, bool) or not isinstance(p, int) for p in split):
        raise InvalidAction("split", "each split rating is a whole number of percent")
    return split


def combat_holds_two(c: Combatant) -> bool:
    from fray.games.strike_rank.combat import _holds_two
    return _holds_two(c)


def _weapon(ctx: Context, c: Combatant, field: str) -> dict[str, Any]:
    return body.usable_weapon(c, ctx.action.get(field), field)


def store(ctx: Context, c: Combatant, recs: list[dict[str, Any]],
          delay: Callable[[list[list[Any]]], list[list[Any]]] | None = None) -> list[dict[str, Any]]:
    """Keep the declared actions ``recs``, each logged; ``delay`` (a change, an abort) gives each its
    breakdown from its own: an attack it pushes past SR 12 is lost ("If an attack is pushed past SR 12, it
    is lost"), another action rolls over."""
    st = ctx.enc.state
    stored = []
    for r in recs:
        ref = f"a{st.get('next_ref', 1)}"
        st["next_ref"] = st.get("next_ref", 1) + 1
        off = r.pop("round_offset", 0)
        rec = {"ref": ref, "combatant": c.id, "round": ctx.enc.round + off, "status": "declared", **r}
        if delay:
            parts = delay(rec["parts"])
            total = sum(p[1] for p in parts)
            rec["parts"] = parts
            rec["text"] = rules.Breakdown("SR", tuple(tuple(p) for p in parts)).text()
            if rec["attack"] and total > rules.LAST_SR:
                rec["status"] = "lost"
                ctx.event("lost", f"{c.name}: {rec['text']} is past SR 12: the attack is lost", ref=ref)
            later, sr = rules.rolled_over(total)
            rec["sr"], rec["round"] = (sr, ctx.enc.round + later) if not rec["attack"] else (min(total, 99), ctx.enc.round)
        st.setdefault("actions", []).append(rec)
        if rec["running"]:
            c.data["round"]["running"] = True
        if rec["charge"]:
            c.data["round"]["charging"] = True
        stored.append(rec)
        if rec["status"] == "declared":
            tgt = ctx.enc.get(rec["target"]).name if rec["target"] else ""
            ctx.event("declare", f"{c.name}: {declared_words(c, rec)}{(' towards ' if rec['kind'] == 'move' else ' at ') + tgt if tgt else ''}: "
                      f"{shown_text(rec)}", ref=ref, sr=rec["sr"], id=c.id)
    return stored


def shown_text(rec: dict[str, Any]) -> str:
    """A declaration's breakdown with its movement in words, as the log and the page both show it:
    "SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2 (closes 6 m at 3 m a strike rank: +2 SR)". A move's
    breakdown carries the words already: said once."""
    note = rec.get("note") or ""
    return rec["text"] + (f" ({note})" if note and f"({note})" not in rec["text"] else "")


_KIND_WORDS = {"melee": "melee attack", "missile": "missile attack", "spell": "casts", "move": "moves",
               "reload": "reloads", "defend": "defends", "other": "other action"}


def declared_words(c: Combatant, rec: dict[str, Any]) -> str:
    """A declared action as the log says it: "melee attack with Broadsword", "casts Bladesharp",
    "moves" (the weapon and spell by their names, never their ids; the kind said once)."""
    kind = rec["kind"]
    if rec.get("label") and kind == "other":
        return str(rec["label"])
    words = _KIND_WORDS.get(kind, kind)
    if rec.get("weapon"):
        w = next((x for x in c.data.get("weapons", []) if x.get("id") == rec["weapon"]), None)
        name = w["name"] if w else str(rec["weapon"])
        return f"{words} {name}" if kind == "reload" else f"{words} with {name}"
    if rec.get("spell"):
        sp = next((x for x in c.data.get("spells", []) if x.get("id") == rec["spell"]), None)
        return f"{words} {sp['name'] if sp else rec['spell']}"
    return words


def declare(ctx: Context) -> None:
    if ctx.enc.phase != "declare":
        raise RuleViolation("Action Declaration & Resolution",
                            "actions are declared at the start of a MR; once resolution begins, use sr.change")
    c = ctx.combatant()
    recs = plan(ctx, c, actions_of(ctx.enc, c.id))
    store(ctx, c, recs)
    shot = next((r for r in recs if r["kind"] == "missile"), None)
    if shot is not None:
        # "Unengaged characters can use missile weapons": a shot is refused at its SR if the shooter is
        # still in a melee then (combat.plan_attack); she may be clear by then, so it stands, said now
        # while the GM can still change it
        from fray.games.strike_rank.defence import held_in_melee
        held = held_in_melee(ctx.enc, c)  # the very test and words of the refusal
        if held:
            ctx.event("declare", f"{held}: unengaged characters can use missile "
                      f"weapons, so the shot at SR {shot['sr']} is refused unless {c.name} is unengaged by then")
    target = ctx.enc.peek_at(recs[0]["target"]) if recs and recs[0]["target"] else None
    if target is not None:
        from fray.games.strike_rank.movement import retime_closing  # (movement imports this module)
        retime_closing(ctx, target, c)


def undeclare(ctx: Context) -> None:
    """"Declarations can be changed in reaction to others' declarations" before resolution, free."""
    if ctx.enc.phase != "declare":
        raise RuleViolation("Changing Actions", "after resolution begins, changing costs DEX SR: use sr.change")
    a = _action(ctx)
    ctx.enc.state["actions"].remove(a)
    who = ctx.enc.peek_at(a["combatant"])
    what = declared_words(who, a) if who is not None else _KIND_WORDS.get(a["kind"], a["kind"])
    ctx.event("declare", f"{_who(ctx.enc, a['combatant'])} withdraws their {what} at SR {a['sr']}")
    target = ctx.enc.peek_at(a["target"]) if a.get("target") else None
    if target is not None and who is not None:
        from fray.games.strike_rank.movement import retime_closing  # (movement imports this module)
        retime_closing(ctx, target, who)


def _who(enc: Encounter, cid: str) -> str:
    """A declared action's owner by name (a combatant removed since declaring: said so). Only
    read (``peek_at``): naming the whole order as resolution begins must not copy every combatant."""
    c = enc.peek_at(cid)
    return c.name if c is not None else "someone who has left the fight"


def _action(ctx: Context, field: str = "ref") -> dict[str, Any]:
    ref = ctx.action.get(field)
    for i, a in enumerate(peek_actions(ctx.enc)):  # only the one found is copied to edit
        if a["ref"] == ref:
            return ctx.enc.state["actions"][i]
    raise InvalidAction(field, "that action is no longer declared")


def _replan(ctx: Context, rule: str, status: str) -> tuple[Combatant, dict[str, Any], list[dict[str, Any]], int, int]:
    """Changing and Aborting Actions alike: the combatant's own pending action ``ref`` is set
    aside (``status``) and their declarations planned again with its replacement. Returns the
    combatant, the old action, the new plan, the current SR and the combatant's DEX SR."""
    c = ctx.combatant()
    old = _action(ctx)
    if old["combatant"] != c.id or old["status"] != "declared":
        raise RuleViolation(rule, f"that {old['kind']} is not one {c.name} has declared and still to come")
    recs = plan(ctx, c, [x for x in actions_of(ctx.enc, c.id) if x is not old], replacing=old)
    old["status"] = status
    return c, old, recs, ctx.enc.state.get("sr", 0), dex_sr(ctx, c)


def change(ctx: Context) -> None:
    """"Changing your declared action during a MR delays action by the combatant's DEX SR. If an
    attack is pushed past SR 12, it is lost.\""""
    if ctx.enc.phase != "resolve":
        raise RuleViolation("Changing Actions", "before resolution, simply declare again")
    c, old, recs, cur, dsr = _replan(ctx, "Changing Actions", "changed")
    first = [list(p) for p in recs[0]["parts"]] if recs else []
    store(ctx, c, recs, lambda own: rules.changed_parts(cur, dsr, own, first))


def abort(ctx: Context) -> None:
    """"the new action will be delayed by the combatant's DEX SR + the SR the action was aborted
    on": it starts from the abort SR, delayed by DEX SR; the text adds no DEX, SIZ or weapon SR of the
    new action (a GM's play read "SR 12 = SR 5 + DEX SR 3 + SIZ 2 + weapon 2"). What it still has to
    do is added: its movement to the target, an Other action's own SR cost."""
    if ctx.enc.phase != "resolve":
        raise RuleViolation("Aborting Actions", "only a started action can be aborted")
    c, old, recs, cur, dsr = _replan(ctx, "Aborting Actions", "aborted")
    for r in recs:
        r["parts"] = [p for p in r["parts"] if p[0] not in ("DEX", "SIZ", "weapon")]
    store(ctx, c, recs, lambda own: [[rules.ABORTED_AT, cur], [rules.ABORTING, dsr]] + [list(p) for p in own])
    ctx.event("abort", f"{c.name} aborts {old['kind']} at SR {cur}")


# -- order of play ---------------------------------------------------------------------------------

def order_of_play(enc: Encounter) -> list[Slot]:
    """Pending actions of this MR by SR, then higher DEX first, then the GM's order, then a stable id."""
    slots = []
    for a in peek_actions(enc):
        if a["round"] != enc.round or a["status"] != "declared" or a["kind"] == "defend":
            continue
        c = enc.peek_at(a["combatant"])  # read only: ordering copies no combatant (fray.sharing)
        if c is None:
            continue
        dex = c.stats.get("DEX", 0)
        slots.append(Slot(c.id, f"SR {a['sr']}", (a["sr"], -dex, gm_tie_break(enc, c.id), *id_order(c.id), int(a["ref"][1:])),
                          a["text"], a["ref"], tie=(a["sr"], -dex)))
    slots.sort(key=lambda s: s.key)
    return slots


def mark_done(ctx: Context, ref: str | None, cid: str, want_attack: bool) -> dict[str, Any] | None:
    """Find the declared action an exchange resolves and check it is its SR."""
    if not ref:
        return None
    a = next(iter(actions_where(ctx.enc, lambda x: x["ref"] == ref)), None)
    if a is None:
        raise InvalidAction("ref", "that action is no longer declared")
    if a["combatant"] != cid or a["status"] != "declared" or a["round"] != ctx.enc.round:
        raise RuleViolation("Action Declaration & Resolution", "that action is not one this combatant still has to take this Melee Round")
    if want_attack and not a["attack"]:
        raise RuleViolation("Action Declaration & Resolution", "that action is not an attack")
    if ctx.enc.phase == "resolve" and a["sr"] != ctx.enc.state.get("sr"):
        raise RuleViolation("Action Declaration & Resolution",
                            f"that action resolves at SR {a['sr']}, not SR {ctx.enc.state.get('sr')}")
    a["status"] = "done"
    return a


def resolve(ctx: Context) -> None:
    """Resolve a declared non-attack action at its SR (a spell completing, a move, an other action)."""
    a = _action(ctx)
    c = ctx.enc.get(a["combatant"])
    if c is None:
        raise RuleViolation("Action Declaration & Resolution",
                            f"that {a['kind']} was declared by a combatant who has left the fight")
    if a["attack"]:
        raise RuleViolation("Attacking", "an attack is resolved with sr.attack")
    mark_done(ctx, a["ref"], c.id, False)
    _finish(ctx, c, a)


def _finish(ctx: Context, c: Combatant, a: dict[str, Any]) -> None:
    if a["kind"] == "spell":
        sp = next(s for s in c.data["spells"] if s["id"] == a["spell"])
        if sp["type"] in ("spirit", "charm"):
            ctx.event("spell", f"{c.name}: {sp['name']} ({sp['type']}) manifests at SR {a['sr']}; "
                      "the spirit acts in the next MR" if sp["type"] == "charm" else
                      f"{c.name}: the spirit of {sp['name']} manifests on SR 12", ref=a["ref"])
        else:
            ctx.event("spell", f"{c.name} casts {sp['name']} at SR {a['sr']} ({a['text']}); the GM applies its effect",
                      ref=a["ref"])
    elif a["kind"] == "move":
        c.data["round"]["moved"] = True
        target = ctx.enc.peek_at(a["target"]) if a.get("target") else None
        if not moves_token(ctx):
            ctx.event("move", f"{c.name} finishes moving {rules.metres_text(a['metres'])} at SR {a['sr']}", ref=a["ref"])
        elif target is not None:
            from fray.games.strike_rank.movement import close_in  # (movement imports this module)
            steed = ridden_by(ctx.enc, c)
            went = close_in(c, target, a["metres"], [o for o in ctx.enc.peek() if steed is None or o.id != steed.id])
            ctx.event("move", f"{c.name} finishes moving {rules.metres_text(went)} toward {target.name} at SR {a['sr']}",
                      ref=a["ref"], id=c.id, x=c.position.x, y=c.position.y)
            carry_mount(ctx, c)
        else:
            ctx.event("move", f"{c.name} finishes moving {rules.metres_text(a['metres'])} at SR {a['sr']}", ref=a["ref"])
            # no target to walk toward: only the GM knows where the move ends
            wounds.prompt(ctx, "move_end", c.id, f"{c.name} has moved {rules.metres_text(a['metres'])}: drag the token to where "
                          "the move ends", [{"value": "placed", "label": "The token is where the move ends"}],
                          metres=a["metres"])
    elif a["kind"] == "reload":
        cut = c.data["round"].get("reload_interrupted")
        if isinstance(cut, dict):
            how = f"a {cut['by']}" + (f" with {cut['weapon']}" if cut.get("weapon") else "") + f" at SR {cut['sr']}"
            ctx.event("reload", f"{c.name}'s reloading was interrupted by {how}: it begins again", ref=a["ref"])
        else:
            ctx.event("reload", f"{c.name} spends the MR reloading", ref=a["ref"])
    else:
        ctx.event("action", f"{c.name}: {a.get('label', a['kind'])} done at SR {a['sr']}", ref=a["ref"])


def moves_token(ctx: Context) -> bool:
    """Whether this action puts the tokens where resolved movement ends (``move_token``: true, as
    the page sends it with Resolve, Next and an attack). Without it a move only logs its metres,
    as it always did, so a save made before replays to the very same fight."""
    v = ctx.action.get("move_token", False)
    if not isinstance(v, bool):
        raise InvalidAction("move_token", "must be true or false")
    return v


def advance(ctx: Context) -> None:
    enc = ctx.enc
    st = enc.state
    skip = ctx.action.get("skip_empty")
    if skip is not None and not isinstance(skip, bool):
        raise InvalidAction("skip_empty", "must be true or false")
    # ``ask_open`` (the page's Next, issue 32): no attack a combatant can still make is ended by Next,
    # and the fallen's actions are lost with why. Without it, an advance of a save made before does
    # what it did then (an open attack "was not resolved: lost"), so old fights load as they were.
    ask = ctx.action.get("ask_open", False)
    if not isinstance(ask, bool):
        raise InvalidAction("ask_open", "must be true or false")
    if enc.phase == "setup":
        enc.phase = "declare"
        st["sr"] = 0
        ctx.event("round", f"Melee Round {enc.round}: declare actions")
        return
    if enc.phase == "declare":
        if ask:
            _lose_the_fallens(ctx, lambda a: a["round"] == enc.round)
        enc.phase = "resolve"
        slots = order_of_play(enc)
        st["sr"] = min([int(s.label[3:]) for s in slots], default=1)
        order = "; ".join(f"{_who(enc, s.combatant_id)} {s.label}" for s in slots)
        ctx.event("round", f"Resolution begins at SR {st['sr']}: {order or 'no actions'}")
        return
    if enc.phase == "resolve":
        cur = st.get("sr", 1)
        due = lambda a: (a["round"] == enc.round and a["status"] == "declared" and a["sr"] <= cur  # noqa: E731
                         and a["kind"] != "defend")
        # Next never ends a standing combatant's attack by itself: it is resolved (sr.attack) or the
        # GM skips it (sr.skip, logged). Issue 32: "Broo 3's attack at SR 10 was not resolved: lost".
        still = still_open(enc) if ask else []
        if still:
            raise RuleViolation("Action Declaration & Resolution", "; ".join(
                f"{open_text(enc, a)} is not resolved" for a in still) + ": resolve it or skip it")
        if ask:
            _lose_the_fallens(ctx, due)
        for a in actions_where(enc, due):
            if a["attack"] and not ask:
                c = enc.peek_at(a["combatant"])  # only named
                a["status"] = "lost"
                ctx.event("lost", f"{c.name if c else a['combatant']}'s attack at SR {a['sr']} was not resolved: lost",
                          ref=a["ref"])
            elif a["attack"]:
                # a weapon that can no longer strike (a maimed arm, a broken blade): nothing to roll
                a["status"] = "lost"
                ctx.event("lost", f"{open_text(enc, a)} is lost: {unable(enc, a)}", ref=a["ref"])
            else:
                # readying a weapon, a move, a spell: no roll, it resolves in its SR by itself
                c = enc.get(a["combatant"])
                a["status"] = "done"
                if c is not None:
                    _finish(ctx, c, a)
        nxt = [a["sr"] for a in peek_actions(enc) if a["round"] == enc.round and a["status"] == "declared"
               and a["sr"] > cur and a["kind"] != "defend"]
        if nxt:
            st["sr"] = min(nxt)
            ctx.event("sr", f"SR {st['sr']}")
            return
        enc.phase = "end"
        st["sr"] = rules.LAST_SR
        asked = st.get("next_prompt", 1)
        end_of_round(ctx)
        if skip and st.get("next_prompt", 1) == asked:
            # the page's Next: nothing at the end of the MR waits for the GM, so the next MR's
            # declarations follow at once (issue 10: "end of round takes one Next, not two")
            _next_round(ctx)
        return
    _next_round(ctx)


def open_text(enc: Encounter, a: dict[str, Any]) -> str:
    """"Broo 3's attack at SR 10": a declared action in the GM's words."""
    what = "attack" if a["attack"] else {"spell": "spell", "move": "move", "reload": "reloading"}.get(
        a["kind"], a.get("label") or "action")
    return f"{_who(enc, a['combatant'])}'s {what} at SR {a['sr']}"


def unable(enc: Encounter, a: dict[str, Any]) -> str:
    """Why this declared action can no longer happen ("" when it still can): its combatant left the
    fight or is dead, unconscious or incapacitated, or the attack's weapon cannot be used now."""
    c = enc.peek_at(a["combatant"])
    if c is None:
        return "left the fight"
    why = body.can_fight(c) if a["attack"] else body.can_act(c)  # a maimed chest still casts and moves
    if why:
        return why
    if a["attack"] and a.get("weapon"):
        w = next((x for x in c.data["weapons"] if x["id"] == a["weapon"]), None)
        if w is None:
            return f"{c.name} no longer has that weapon"
        return body.weapon_usable(c, w) or ""
    return ""


def _lose_the_fallens(ctx: Context, which: Callable[[dict[str, Any]], bool]) -> None:
    """"Characters who become incapacitated generally lose actions that would have resolved after they
    are incapacitated": the pending actions ``which`` picks of anyone who has left the fight or fallen
    (a GM's "dead" on the card as much as a blow), each with its log line."""
    for a in actions_where(ctx.enc, lambda a: a["status"] == "declared" and which(a)):
        c = ctx.enc.peek_at(a["combatant"])
        why = "left the fight" if c is None else body.can_act(c)
        if why:
            a["status"] = "lost"
            ctx.event("lost", f"{open_text(ctx.enc, a)} is lost: {why}", ref=a["ref"])


def still_open(enc: Encounter) -> list[dict[str, Any]]:
    """The attacks Next would not end by itself: declared for the SR being resolved (or before it) by
    a combatant who can still make them. Resolve each (``sr.attack``) or skip it (``sr.skip``)."""
    if enc.phase != "resolve":
        return []
    cur = enc.state.get("sr", 1)
    return [a for a in peek_actions(enc) if a["round"] == enc.round and a["status"] == "declared"
            and a["sr"] <= cur and a["attack"] and not unable(enc, a)]


def skip(ctx: Context) -> None:
    """The GM's choice to leave a declared action unresolved (issue 32: Next asks "Resolve / Skip
    it"); logged, so no declared action ends without a word."""
    a = _action(ctx)
    if ctx.enc.phase != "resolve" or a["status"] != "declared" or a["round"] != ctx.enc.round:
        raise RuleViolation("Action Declaration & Resolution", f"{open_text(ctx.enc, a)} is not pending this MR")
    a["status"] = "skipped"
    ctx.event("skip", f"GM skips {open_text(ctx.enc, a)}: not resolved", ref=a["ref"])


def _next_round(ctx: Context) -> None:
    """End of a Melee Round → the next one's declarations."""
    enc = ctx.enc
    st = enc.state
    wounds.close_passed_questions(ctx, ending=enc.round)  # logged under the MR that ends (edition .14)
    enc.round += 1
    enc.phase = "declare"
    st["sr"] = 0
    fresh = sharing.fingerprint(new_tally())
    for seen in enc.peek():
        # one who did nothing this MR already has a fresh tally: left as it is, and not copied
        if (sharing.fingerprint(seen.data["round"]) == fresh and "fleeing" not in seen.conditions
                and not (enc.round > 1 and "surprised" in seen.conditions)):
            continue
        c = enc.get(seen.id)
        c.data["round"] = new_tally()
        if enc.round > 1 and "surprised" in c.conditions:
            wounds.drop_condition(c, "surprised")
        wounds.drop_condition(c, "fleeing")
    rolled = [a for a in peek_actions(enc) if a["round"] == enc.round and a["status"] == "declared"
              and enc.peek_at(a["combatant"]) is not None]
    ctx.event("round", f"Melee Round {enc.round}: declare actions"
              + (f"; rolled over: {', '.join(enc.peek_at(a['combatant']).name + ' ' + a['kind'] + ' SR ' + str(a['sr']) for a in rolled)}"
                 if rolled else ""))


def new_tally() -> dict[str, Any]:
    return body.new_round_tally()


def bleeds_by_test(l: dict[str, Any]) -> bool:
    """A bleeding location whose bleeding is a CON test at the end of the MR ("a CON test at the end
    of each MR"); a mangled limb instead "bleeds 1 total HP per MR", with no test."""
    if not l["bleeding"]:
        return False
    lv = body.loc_level(l)
    return not (rules.injury_rank(lv) >= rules.injury_rank("mangled") and l["type"] not in rules.VITAL_TYPES)


def bleed_tests(enc: Encounter, multiplier: int) -> list[dict[str, Any]]:
    """The CON tests the end of this MR will roll, one per bleeding location, each with its roll
    name (``bleed.<combatant>.<location>``, a d100 on the ``advance`` that ends the MR) so the GM
    can type it like any other roll."""
    return [{"combatant": c.id, "name": c.name, "location": l["id"], "location_name": l["name"],
             "roll": f"bleed.{c.id}.{l['id']}", "chance": c.stats.get("CON", 0) * multiplier}
            for c in enc.combatants if "dead" not in c.conditions
            for l in c.data["locations"] if bleeds_by_test(l)]


def end_of_round(ctx: Context) -> None:
    """Bleeding CON tests, mangled limbs, impaled weapons, stun timers, reloading, resuscitation."""
    enc = ctx.enc
    ctx.event("round", f"End of Melee Round {enc.round}")
    con = rules.test_multiplier(ctx.table("characteristic_tests"), "CON")
    for seen in enc.peek():
        if not _ends_with_the_round(seen):
            continue  # nothing of theirs runs out or bleeds with the MR: read, never copied
        c = enc.get(seen.id)
        if "dead" in c.conditions:
            rb = c.data.get("resuscitate_by")
            if rb and (enc.round > rb["round"] or (enc.round == rb["round"] and rb["sr"] <= rules.LAST_SR)):
                # a full MR has passed: the 12 SR of resuscitation are over
                c.data["resuscitate_by"] = None
                ctx.event("death", f"{c.name} was not resuscitated in time")
            continue
        for l in c.data["locations"]:
            if not l["bleeding"]:
                continue
            if not bleeds_by_test(l):
                # a mangled limb: "it is useless (as maimed) and bleeds 1 total HP per MR"
                c.data["hp"] -= 1
                ctx.event("bleeding", f"{c.name}'s mangled {l['name']} bleeds 1 HP; total HP {c.data['hp']}")
            else:
                roll = ctx.dice.d100(f"bleed.{c.id}.{l['id']}").total
                deg = rules.degree_of_success(c.stats.get("CON", 0) * con, roll)
                if deg in ("critical", "special"):
                    l["bleeding"] = False
                    ctx.event("bleeding", f"{c.name} {l['name']}: CON×{con} rolled {roll}, {deg}: bleeding stops")
                elif deg == "success":
                    ctx.event("bleeding", f"{c.name} {l['name']}: CON×{con} rolled {roll}, success: no HP lost")
                else:
                    c.data["hp"] -= 1
                    ctx.event("bleeding", f"{c.name} {l['name']}: CON×{con} rolled {roll}, {deg}: loses 1 HP; "
                              f"total HP {c.data['hp']}")
            if c.data["hp"] <= 0:
                wounds.kill(ctx, c, "bled out")
                break
        for imp in c.data["impaled"]:
            wounds.prompt(ctx, "impaled", c.id, f"{c.name} has {imp['name']} stuck in the {imp['location_name']}: "
                          "did they move or fight this MR? (half weapon damage, no modifier)",
                          [{"value": "yes", "label": "Moved or fought: take half weapon damage"},
                           {"value": "no", "label": "Stayed still"}], weapon=imp["weapon"], owner=imp["owner"])
        for l in c.data["locations"]:
            if l.get("disabled_mr", 0) > 0:
                l["disabled_mr"] -= 1
                if not l["disabled_mr"]:
                    ctx.event("stun", f"{c.name}'s {l['name']} recovers from the stun")
        for s in list(c.data["stun"]):
            s["mr"] -= 1
            if s["mr"] > 0:
                continue
            c.data["stun"].remove(s)
            if s["kind"] == "incapacitated":
                c.data.pop("stun_incapacitated", None)
                wounds.drop_condition(c, "incapacitated")
                ctx.event("stun", f"{c.name} is no longer stunned")
            elif s["kind"] == "unconscious":
                ok, _, text = wounds.char_test(ctx, c, "CON", con, f"wake.{c.id}")
                if ok:
                    wounds.drop_condition(c, "unconscious")
                    ctx.event("stun", f"{c.name} wakes up ({text})")
                else:
                    wounds.prompt(ctx, "unconscious", c.id, f"{c.name} stays unconscious ({text}): 1D6 minutes, then "
                                  "another CON test or 1D6 hours; 1 MR of attention wakes them",
                                  [{"value": "woken", "label": "Woken (1 MR of attention)"},
                                   {"value": "still", "label": "Still unconscious"}])
        for w in c.data["weapons"]:
            rl = c.data["reload"].get(w["id"])
            if rl is not None and not rl.get("loaded", True):
                did = [a for a in actions_of(enc, c.id) if a["kind"] == "reload" and a["weapon"] == w["id"]
                       and a["status"] == "done"]
                if did and not c.data["round"].get("reload_interrupted"):
                    rl["mr"] = rl.get("mr", 0) + 1
                    if rl["mr"] >= rl["need"]:
                        rl["loaded"] = True
                        ctx.event("reload", f"{c.name}'s {w['name']} is loaded")
                    else:
                        # said as the refusal to shoot says it ("1 of 2 done"): "1/2 MR" read like a rate
                        ctx.event("reload", f"{c.name} is reloading {w['name']}: {rl['mr']} of {rl['need']} Melee "
                                  "Rounds done")
                elif did:
                    rl["mr"] = 0
                    if c.data["round"].get("reload_interrupted") is True:
                        # a save of an earlier edition, whose defence said nothing yet
                        ctx.event("reload", f"{c.name}'s reloading was interrupted: it begins again")
    # (minutes of unconsciousness outlast the fight: nothing to do here, they are shown in the view)


def _ends_with_the_round(c: Combatant) -> bool:
    """Whether the end of the MR can change anything of ``c`` (``end_of_round``, step by step): the
    resuscitation window of the dead; bleeding, impaled weapons, stunned limbs, stun timers and
    reloading of the living. False only where every step of it would do nothing to them."""
    if "dead" in c.conditions:
        return bool(c.data.get("resuscitate_by"))
    d = c.data
    return bool(any(l["bleeding"] or l.get("disabled_mr", 0) > 0 for l in d["locations"]) or d["impaled"]
                or d["stun"] or any(not rl.get("loaded", True) for rl in d["reload"].values() if rl is not None))
