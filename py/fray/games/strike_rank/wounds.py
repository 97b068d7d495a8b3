"""Wounds: damage to a hit location and total HP, and what each injury level does.

"The highest degree of injury applies; they do not stack." Effects are derived from each
location's HP whenever they are read (``body.limb_disabled``, ``body.movement_limits``), so healing
back above a threshold ends them at once; only the effects that need a roll (a CON test for a
head wound or shock) or a choice (a mangled limb severed or not) are applied here, once, when the
threshold is first crossed.
"""

from __future__ import annotations

from typing import Any

from fray.model import Combatant, Encounter
from fray.games.base import Context, counted
from fray.games.strike_rank import body, rules


def prompt(ctx: Context, kind: str, combatant: str, text: str, options: list[dict[str, Any]], **data: Any) -> str:
    """Put a question to the GM; it stays in ``enc.state["prompts"]`` until ``sr.answer``."""
    st = ctx.enc.state
    pid = f"p{st.get('next_prompt', 1)}"
    st["next_prompt"] = st.get("next_prompt", 1) + 1
    st.setdefault("prompts", []).append({"id": pid, "kind": kind, "combatant": combatant, "text": text,
                                         "options": options, "data": data, "round": ctx.enc.round})
    ctx.event("prompt", f"GM: {text}", prompt=pid, prompt_kind=kind)
    return pid


def char_test(ctx: Context, c: Combatant, char: str, mult: int, name: str) -> tuple[bool, str, str]:
    """A characteristic test (CON×5%, INT×3%, ...) rolled through the tray: (passed, degree, text)."""
    chance = c.stats.get(char, 0) * mult
    roll = ctx.dice.d100(name).total
    deg = rules.degree_of_success(chance, roll)
    return rules.is_success(deg), deg, f"{char}×{mult} {chance}%: rolled {roll}, {deg}"


def tests_table(ctx: Context) -> dict[str, Any]:
    return ctx.table("characteristic_tests")


def lose_later_actions(ctx: Context, c: Combatant, why: str) -> None:
    """"Characters who become incapacitated generally lose actions that would have resolved after
    they are incapacitated." While resolving, an action of the current SR still declared has not
    resolved yet: it would resolve after, so it is lost at once too, as an injury's is
    (``lose_impossible_actions``), in the same words: "Broo 2's attack at SR 7 is lost: Broo 2 is
    dead" (issue 33)."""
    from fray.games.strike_rank.timing import actions_where, open_text  # (timing imports this module)

    cur = ctx.enc.state.get("sr", 0)
    now = ctx.enc.phase == "resolve"
    reason = body.can_act(c) or why
    # only the actions lost are copied to edit: every MR's are in state["actions"] (fray.sharing)
    for a in actions_where(ctx.enc, lambda a: a["combatant"] == c.id and a["status"] == "declared" and (
            a["round"] > ctx.enc.round or a["sr"] > cur or (now and a["sr"] == cur and a["round"] == ctx.enc.round))):
        a["status"] = "lost"
        ctx.event("lost", f"{open_text(ctx.enc, a)} is lost: {reason}", ref=a["ref"])
    set_aside_fumble(ctx, c, reason)
    close_passed_questions(ctx, fallen=c)


def _take_questions(ctx: Context, c: Combatant, kind: str) -> list[dict[str, Any]]:
    """The open questions of ``kind`` about ``c``, taken from the GM's list. Read first without copying
    (``fray.sharing``): most falls leave no such question, and then the state is not touched."""
    if not any(p["combatant"] == c.id and p["kind"] == kind
               for p in list.__iter__(dict.get(ctx.enc.state, "prompts") or [])):
        return []
    prompts = ctx.enc.state["prompts"]
    taken = [p for p in prompts if p["combatant"] == c.id and p["kind"] == kind]
    for p in taken:
        prompts.remove(p)
    return taken


def _stuck_text(enc: Encounter, d: dict[str, Any]) -> str:
    """Where a weapon the question was about is stuck, as the GM reads it ("Spear stays stuck in Wolf 1's
    Chest until freed"), or "" once it is out."""
    holder = enc.peek_at(d.get("holder") or "")
    if holder is None:
        return ""
    stuck = [e for e in holder.data.get("impaled", []) + [s for w in holder.data.get("weapons", []) for s in w.get("stuck", [])]
             if e["weapon"] == d.get("weapon") and e["owner"] == d.get("owner")]
    if not stuck:
        return ""
    where = stuck[0].get("location_name") or next((w["name"] for w in holder.data.get("weapons", [])
                                                   if w["id"] == d.get("shield")), "shield")
    return (f"{stuck[0]['name']} stays stuck in {holder.name}'s {where} until freed "
            "(Stuck weapons on the card: 1 MR an attempt)")


def close_passed_questions(ctx: Context, fallen: Combatant | None = None, ending: int | None = None) -> None:
    """Impale: "A melee attacker can make a weapon skill test at half rating to immediately free the
    weapon. If this fails, further attempts take 1 MR each"; "An impaled character suffers half the
    weapon's damage ... each MR they move or fight"; Knockback, Colliding: "If knockback causes
    a combatant to collide with another combatant ...". These questions are of their moment: the one
    whether the attacker frees (holds, lets go of) his weapon at once, the one whether a knockback
    struck anyone on its way, and the end of a MR's whether the impaled moved or fought in it (open
    through the next MR). They close by themselves, said in the log, once that moment is past (the
    Melee Round they were asked in is over: ``ending``, the MR ending now) or the one they are about
    has fallen since (``fallen``: the attacker who would pull, now dead, unconscious or incapacitated; the body the
    weapon is in, the impaled or the one knocked back, now dead: "Dead characters cannot do anything"). A GM's play:
    "may free Spear now ... hold on, or let go" of a wolf killed since, and a collision question of one
    dead, were open two MRs later, the forced-change box below them off the tablet's screen. What the
    rules still demand stands: the weapon stays stuck until freed (``care.unstick``); the token of one
    knocked back stays where it is (the GM moves it on the map if it lies elsewhere)."""
    enc = ctx.enc
    open_ = list.__iter__(dict.get(enc.state, "prompts") or [])  # read first: most actions close none

    def why(p: dict[str, Any]) -> str:
        d = p.get("data") or {}
        asked = p.get("round")
        if fallen is None:
            if ending is None or asked is None:
                return ""
            if p["kind"] == "impaled":  # asked as its MR ends, of that MR: it stays through the next one
                return f"Melee Round {ending} is over too" if asked < ending else ""
            return f"Melee Round {asked} is over" if asked <= ending else ""
        if p["kind"] == "unstick" and d.get("owner") == fallen.id:
            return body.can_act(fallen) or ""
        if "dead" in fallen.conditions and (d.get("holder") == fallen.id if p["kind"] == "unstick"
                                            else p["combatant"] == fallen.id):  # the stuck or knocked back
            return f"{fallen.name} is dead"
        return ""

    done = [p for p in open_ if p["kind"] in ("unstick", "collision", "impaled") and why(p)]
    if not done:
        return
    prompts = enc.state["prompts"]
    for seen in done:
        p = next(x for x in prompts if x["id"] == seen["id"])
        reason = why(p)
        prompts.remove(p)
        d = p.get("data") or {}
        if p["kind"] == "unstick":
            owner = enc.peek_at(d.get("owner") or "")
            w = next((x for x in (owner.data.get("weapons", []) if owner else []) if x["id"] == d.get("weapon")), None)
            stays = _stuck_text(enc, d)
            ctx.event("answer", f"The question whether {owner.name if owner else 'its owner'} frees "
                      f"{w['name'] if w else 'the weapon'} at once is closed: {reason}" + (f"; {stays}" if stays else ""),
                      prompt=p["id"])
        elif p["kind"] == "impaled":
            c = enc.peek_at(p["combatant"])
            ctx.event("answer", f"The question whether {c.name if c else 'the impaled one'} moved or fought in Melee "
                      f"Round {p.get('round')} with a weapon stuck is closed: {reason}; no damage from it is counted",
                      prompt=p["id"])
        else:
            c = enc.peek_at(p["combatant"])
            who = c.name if c is not None else "the one knocked back"
            ctx.event("answer", f"The question whether {who}, knocked back {d.get('metres', 0):g} m, collided with "
                      f"anyone is closed: {reason}; no collision is counted, the token stays where it is "
                      "(move it on the map if it lies elsewhere)", prompt=p["id"])


def set_aside_fumble(ctx: Context, c: Combatant, reason: str) -> None:
    """The fallen are asked nothing ("Dead characters cannot do anything"; the unconscious and the
    incapacitated are "unable to take any action"): a question still open on their fumble goes, said
    in the log."""
    for p in _take_questions(ctx, c, "fumble"):
        ctx.event("answer", f"The question on {c.name}'s fumble is set aside: {reason}", prompt=p["id"])


def add_condition(c: Combatant, cond: str) -> bool:
    return c.add_condition(cond)  # the core's (model.Combatant), kept under this name for the callers here


def drop_condition(c: Combatant, cond: str) -> None:
    c.drop_condition(cond)


def interrupt_casting(ctx: Context, c: Combatant, why: str, roll_name: str) -> None:
    """"A character who takes damage, parries, or dodges while casting a spell must make an INT×3%
    test or be interrupted and lose the spell; they can start anew 5 SR later.\""""
    from fray.games.strike_rank.timing import actions_where  # (timing imports this module)

    # only this combatant's spells are copied to edit, not every MR's actions (fray.sharing)
    casting = actions_where(ctx.enc, lambda a: a["combatant"] == c.id and a["kind"] == "spell"
                            and a["status"] == "declared")
    if not casting:
        return
    ok, _, text = char_test(ctx, c, "INT", rules.test_multiplier(tests_table(ctx), "INT_interrupt"), roll_name)
    if ok:
        ctx.event("concentration", f"{c.name} {why} while casting; {text}: keeps casting")
        return
    cur = ctx.enc.state.get("sr", 0)
    for a in casting:
        a["status"] = "interrupted"
    ctx.event("concentration", f"{c.name} {why} while casting; {text}: the spell is lost; "
              f"can start anew at SR {cur + 5}", restart_sr=cur + 5)


def kill(ctx: Context, c: Combatant, why: str, resuscitable: bool = True) -> None:
    if add_condition(c, "dead"):
        for cond in ("unconscious", "incapacitated"):
            drop_condition(c, cond)
        if resuscitable:
            # "can be resuscitated and saved from death within 12 SR (1 full MR)"
            cur = max(ctx.enc.state.get("sr", 0), 1)
            c.data["resuscitate_by"] = {"round": ctx.enc.round + 1, "sr": cur}
            ctx.event("death", f"{c.name} is killed ({why}); resuscitation possible until SR {cur} of MR "
                      f"{ctx.enc.round + 1}", id=c.id)
        else:
            c.data["resuscitate_by"] = None
            ctx.event("death", f"{c.name} is killed ({why})", id=c.id)
        lose_later_actions(ctx, c, "killed")
        set_aside_severed(ctx, c, body.can_act(c) or "killed")


def apply_damage(ctx: Context, c: Combatant, lid: str, amount: int, *, source: str, tag: str,
                 bypass_total: bool = False) -> dict[str, Any]:
    """Take ``amount`` (after armour) off a location and off total HP; apply the injury it causes.
    ``tag`` makes this call's roll names unique within the action."""
    loc = body.location(c, lid)
    before = body.loc_level(loc)
    loc["hp"] -= amount
    if not bypass_total:
        c.data["hp"] -= amount
    if amount > 0:
        # "once, until it is injured again": the new wound is not treated either, so a serious one
        # "will not begin healing naturally until treated with First Aid or healed at least partially"
        loc["first_aid"] = False
        loc.pop("treated", None)
        days = c.data.get("healing_days")
        if days and days.pop(lid, None) is not None and not days:
            del c.data["healing_days"]  # a fresh wound starts its count of rested days again
        c.data["round"]["hurt"] = True
    after = body.loc_level(loc)
    out = {"location": lid, "amount": amount, "level_before": before, "level": after,
           "hp": loc["hp"], "hp_max": loc["hp_max"], "total_hp": c.data["hp"]}
    ctx.event("damage", f"{c.name}: {amount} to {loc['name']} ({source}); {loc['name']} {loc['hp']}/{loc['hp_max']}"
              f" {rules.injury_word(after)}; total HP {c.data['hp']}/{c.data['hp_max']}", id=c.id, **out)
    living = not killed_by(c, loc, after)
    if amount > 0 and living:
        interrupt_casting(ctx, c, "takes damage", f"{tag}.concentration")
    _injury_effects(ctx, c, loc, before, after, amount, tag, living)
    if c.data["hp"] <= 0 and "dead" not in c.conditions:
        kill(ctx, c, f"total HP {c.data['hp']}")
    if after != before and "dead" not in c.conditions:
        fall_if_cannot_stand(ctx, c)
        lose_impossible_actions(ctx, c)
    return out


def killed_by(c: Combatant, loc: dict[str, Any], level: str) -> bool:
    """Whether ``c`` is dead, or the blow that left ``loc`` at ``level`` kills them: "A character reduced to 0
    total HP or below is killed"; "Vitals: Instant death". The one test every roll and question after a blow
    asks first (a concentration, a CON test for the head or for shock, bleeding, a severed limb): "Dead
    characters cannot do anything", so the blow that kills asks them nothing (a GM's play: a shock test
    rolled for a man the same blow killed)."""
    return ("dead" in c.conditions or c.data["hp"] <= 0
            or (loc["type"] in rules.VITAL_TYPES and rules.injury_rank(level) >= rules.injury_rank("mangled")))


def fall_if_cannot_stand(ctx: Context, c: Combatant) -> None:
    """"If half or more of a combatant's legs are maimed, they cannot stand"; "Abdomen: Cannot stand
    or walk.": the combatant is down, prone, without the GM setting it."""
    why = body.cannot_stand(c)
    if why and add_condition(c, "prone"):
        ctx.event("injury", f"{c.name} falls prone: {why}", id=c.id, condition="prone")


def lose_impossible_actions(ctx: Context, c: Combatant) -> None:
    """The declared attacks an injury has made impossible are lost at once, each with the injury
    that stops it (a maimed arm cannot attack with the sword it held; "Chest: Cannot fight"), so
    the strike rank order holds only what the combatant can still do."""
    from fray.games.strike_rank.timing import actions_where, open_text  # (timing imports this module)

    # read through, and only the combatant's pending attacks copied to be edited (fray.sharing)
    for a in actions_where(ctx.enc, lambda x: x["combatant"] == c.id and x["status"] == "declared"
                           and bool(x.get("attack"))):
        why = body.can_fight(c)
        if why is None:
            w = body.weapon(c, a.get("weapon"))
            why = body.weapon_usable(c, w) if w is not None else None
        if why:
            a["status"] = "lost"
            ctx.event("lost", f"{open_text(ctx.enc, a)} is lost: {why}", ref=a["ref"])


# a limb's injury as the rule text's headings say its effect: "Limbs are disabled" (serious), maimed, mangled
LIMB_WORD = {"serious": "disabled", "maimed": "maimed", "mangled": "mangled"}


def _injury_effects(ctx: Context, c: Combatant, loc: dict[str, Any], before: str, after: str, amount: int,
                    tag: str, living: bool) -> None:
    """What the injury does (``living``: not dead, nor killed by this blow, ``killed_by``): only the living
    test CON or are told they bleed; the wound itself is kept on the dead (resuscitated, it still bleeds)."""
    rb, ra = rules.injury_rank(before), rules.injury_rank(after)
    vital = loc["type"] in rules.VITAL_TYPES
    con5 = rules.test_multiplier(tests_table(ctx), "CON")
    if ra >= rules.injury_rank("serious") and amount > 0:
        if loc["type"] in ("arm", "leg", "wing", "tail") and ra > rb:
            # the limb as the blow left it (then what it bleeds), in the text's words: disabled (serious), maimed, mangled
            ctx.event("injury", f"{c.name}'s {loc['name']} is {LIMB_WORD.get(after, after)}")
        if loc["type"] in ("chest", "abdomen") or ra >= rules.injury_rank("maimed"):
            # a limb newly mangled "bleeds 1 total HP per MR", no test (timing.end_of_round): said anew
            # even when it bled as maimed, "CON test ... or lose 1 total HP", before
            mangled = not vital and ra >= rules.injury_rank("mangled") > rb
            if not loc["bleeding"] or mangled:
                loc["bleeding"] = True
                if living:
                    ctx.event("injury", f"{c.name}'s {loc['name']} " + (
                        "bleeds 1 total HP at the end of each MR, with no CON test" if mangled else
                        "bleeds: CON test at the end of each MR or lose 1 total HP"))
        if loc["type"] == "head" and ra == rules.injury_rank("serious") and living:
            # "test again for new injuries in this range"
            ok, _, text = char_test(ctx, c, "CON", con5, f"{tag}.con_head")
            if ok:
                ctx.event("injury", f"{c.name}: serious head wound, {text}: stays conscious")
            else:
                c.data["unconscious_minutes"] = max(c.data.get("unconscious_minutes", 0), amount)
                add_condition(c, "unconscious")
                ctx.event("injury", f"{c.name}: serious head wound, {text}: unconscious for {counted(amount, 'minute')}")
                lose_later_actions(ctx, c, "unconscious")
    if (ra >= rules.injury_rank("maimed") and rb < rules.injury_rank("maimed") and vital
            and ra < rules.injury_rank("mangled") and living):
        if loc["type"] == "head":
            add_condition(c, "unconscious")
            ctx.event("injury", f"{c.name}: maimed head, unconscious until healed")
            lose_later_actions(ctx, c, "unconscious")
        else:
            ok, _, text = char_test(ctx, c, "CON", con5, f"{tag}.con_shock")
            if ok:
                ctx.event("injury", f"{c.name}: maimed {loc['name']}, {text}: not in shock")
            else:
                add_condition(c, "incapacitated")
                ctx.event("injury", f"{c.name}: maimed {loc['name']}, {text}: incapacitated by shock until healed")
                lose_later_actions(ctx, c, "incapacitated")
    if ra >= rules.injury_rank("mangled") and rb < rules.injury_rank("mangled"):
        if vital:
            kill(ctx, c, f"mangled {loc['name']}")
        else:
            loc["useless"] = True  # "it is useless (as maimed)", even if later healed
            if not living:  # dead, or killed by this blow (``killed_by``)
                loc["severed_open"] = True  # asked if resuscitated (``ask_severed``)
            else:
                ask_severed(ctx, c, loc)


def ask_severed(ctx: Context, c: Combatant, loc: dict[str, Any]) -> None:
    """"Limb: Limb is mangled or severed; it is useless (as maimed) and bleeds 1 total HP per MR": the GM
    says which. Useless and bleeding alike, the two differ only in healing ("Severed limbs can be
    re-attached"), which the dead do not need until resuscitated: they are not asked till then."""
    loc.pop("severed_open", None)
    prompt(ctx, "severed", c.id, f"{c.name}'s {loc['name']} is mangled: is it severed?",
           [{"value": "mangled", "label": "Mangled, still attached"}, {"value": "severed", "label": "Severed"}],
           location=loc["id"])


def set_aside_severed(ctx: Context, c: Combatant, reason: str) -> None:
    """The questions whether ``c``'s mangled limbs are severed go when ``c`` dies (``ask_severed``): said in
    the log, each limb marked to be asked again if ``c`` is resuscitated."""
    for p in _take_questions(ctx, c, "severed"):
        loc = body.location(c, p["data"]["location"])
        loc["severed_open"] = True
        ctx.event("answer", f"The question whether {c.name}'s {loc['name']} is severed is set aside: {reason}; "
                  f"it is asked again if {c.name} is resuscitated", prompt=p["id"])


def heal_location(ctx: Context, c: Combatant, lid: str, points: int, how: str) -> int:
    """"When a location's HP are healed, a corresponding amount of total HP are healed. Neither
    healing amount can exceed the amount of HP the location was missing.\""""
    loc = body.location(c, lid)
    before = body.loc_level(loc)
    missing = loc["hp_max"] - loc["hp"]
    healed = max(0, min(points, missing))
    loc["hp"] += healed
    c.data["hp"] = min(c.data["hp_max"], c.data["hp"] + healed)
    after = body.loc_level(loc)
    ctx.event("heal", f"{c.name}: {loc['name']} heals {healed} ({how}); {loc['hp']}/{loc['hp_max']} {rules.injury_word(after)}; "
              f"total HP {c.data['hp']}/{c.data['hp_max']}", id=c.id, location=lid, healed=healed)
    after_heal(ctx, c, loc, before, after)
    return healed


def after_heal(ctx: Context, c: Combatant, loc: dict[str, Any], before: str, after: str) -> None:
    """"If a location is healed back above an injury threshold, the injury effects end immediately.\""""
    ra = rules.injury_rank(after)
    if ra < rules.injury_rank("serious"):
        loc["bleeding"] = False
    if loc["type"] == "head" and ra < rules.injury_rank("maimed") and rules.injury_rank(before) >= rules.injury_rank("maimed"):
        drop_condition(c, "unconscious")
    if loc["type"] in rules.VITAL_TYPES and ra < rules.injury_rank("maimed") and not any(
            l["type"] in rules.VITAL_TYPES and rules.injury_rank(body.loc_level(l)) >= rules.injury_rank("maimed")
            for l in c.data["locations"]):
        if "incapacitated" in c.conditions and not c.data.get("stun_incapacitated"):
            drop_condition(c, "incapacitated")
            ctx.event("heal", f"{c.name} is no longer in shock")
    if "dead" in c.conditions and c.data["hp"] > 0 and c.data.get("resuscitate_by") and not any(
            l["type"] in rules.VITAL_TYPES and rules.injury_rank(body.loc_level(l)) >= rules.injury_rank("mangled")
            for l in c.data["locations"]):
        drop_condition(c, "dead")
        c.data["resuscitate_by"] = None
        ctx.event("heal", f"{c.name} is resuscitated")
        for l in c.data["locations"]:
            if l.get("severed_open"):
                ask_severed(ctx, c, l)
