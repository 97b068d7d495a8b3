"""After the blow: healing, GM-applied damage, prompts answered, disengaging, grappling options,
and freeing stuck weapons. Each function is one action handler."""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.model import Combatant, Encounter, Position
from fray.games.base import Context, ceil_div
from fray.games.strike_rank import body, combat, healing, movement, rules, timing, wounds


def _loc(ctx: Context, c: Combatant, field: str = "location") -> dict[str, Any]:
    l = body.location(c, ctx.action.get(field))
    if l is None:
        raise InvalidAction(field, f"{c.name} has no hit location {ctx.action.get(field)!r}")
    return l


def _impaled_at(c: Combatant, lid: str) -> bool:
    return any(i["location"] == lid for i in c.data["impaled"])


def first_aid(ctx: Context) -> None:
    """"Administering First Aid takes 1 full MR and requires a skill test. An injured hit location
    can be treated with First Aid once, until it is injured again." Only a test that succeeds treats
    the location: the text gives each injury's result for a Success, Special or Critical and none for a
    failure, and Natural Healing's "will not begin healing naturally until treated with First Aid" uses
    the same word. A failed or fumbled test does nothing: the wound is not treated (a serious wound
    does not begin healing), its one treatment is not used, and First Aid may be tried again."""
    healer = ctx.combatant("healer")
    c = ctx.combatant("target")
    l = _loc(ctx, c)
    level = body.loc_level(l)
    if level in ("none", "severed"):
        raise RuleViolation("First Aid", f"{c.name}'s {l['name']} has no injury First Aid can treat")
    if l["first_aid"]:
        raise RuleViolation("First Aid", f"{c.name}'s {l['name']} has had First Aid; only again once injured again")
    if _impaled_at(c, l["id"]):
        raise RuleViolation("Impale", "The injured location cannot be healed while the weapon is stuck in.")
    why = body.can_act(healer)  # a maimed chest "can use magic or First Aid"
    if why:
        raise RuleViolation("First Aid", why)
    skill = healer.stats.get("first_aid", 0)
    roll = ctx.dice.d100("first_aid").total
    deg = rules.degree_of_success(skill, roll)
    text = f"{healer.name} gives First Aid to {c.name}'s {l['name']} ({level}): {skill}% rolled {roll}, {deg}"
    if deg not in ("success", "special", "critical"):
        ctx.event("first_aid", text + f": no effect; the {l['name'].lower()} is not treated and First Aid "
                  "may be tried again", id=c.id, location=l["id"], degree=deg, treated=False)
        return
    l["first_aid"] = True
    l["treated"] = True
    ctx.event("first_aid", text + ": treated", id=c.id, location=l["id"], degree=deg, treated=True)
    row = next((e for e in ctx.table("first_aid")["entries"] if e["injury"] == level and e["degree"] == deg), None)
    if row is None:  # a GM's table without this result: treated, nothing more
        return
    if row["stops_bleeding"] and l["bleeding"]:
        l["bleeding"] = False
        ctx.event("first_aid", f"{c.name}'s {l['name']} stops bleeding", id=c.id)
    if row["heal"]:
        r = ctx.dice.roll("heal", row["heal"])
        wounds.heal_location(ctx, c, l["id"], r.total, f"First Aid {r.breakdown()}")


def magic_heal(ctx: Context) -> None:
    """Heal battle magic (minor/serious wounds only; 2 points stop bleeding, 6 for a mangled limb),
    healing rune magic (heals and stops bleeding), re-attaching a severed limb."""
    c = ctx.combatant("target")
    kind = ctx.action.get("kind", "heal")
    if kind not in ("heal", "rune"):
        raise InvalidAction("kind", "must be heal (battle magic) or rune (healing rune magic)")
    pts = ctx.action.get("points")
    if isinstance(pts, bool) or not isinstance(pts, int) or not 0 <= pts <= 100:
        raise InvalidAction("points", "must be 0 to 100")
    if ctx.action.get("location") == "total":
        before = c.data["hp"]
        c.data["hp"] = min(c.data["hp_max"], c.data["hp"] + pts)
        ctx.event("heal", f"{c.name} heals {c.data['hp'] - before} total HP ({kind} {pts})")
        if c.data["hp"] > 0 and "dead" in c.conditions:
            wounds.after_heal(ctx, c, c.data["locations"][0], "none", body.loc_level(c.data["locations"][0]))
        return
    l = _loc(ctx, c)
    if _impaled_at(c, l["id"]):
        raise RuleViolation("Impale", "The injured location cannot be healed while the weapon is stuck in.")
    level = body.loc_level(l)
    if ctx.action.get("reattach"):
        if not l["severed"]:
            raise RuleViolation("Magical Healing", f"{l['name']} is not severed")
        if kind != "rune" and pts < 6:
            raise RuleViolation("Magical Healing", "re-attaching needs Heal Body, or Heal Wound for 6+ points")
        l["severed"] = False
        ctx.event("heal", f"{c.name}'s {l['name']} is re-attached")
        level = body.loc_level(l)
    need = 6 if level in ("mangled", "severed") else 2
    if l["bleeding"] and (kind == "rune" or pts >= need):
        l["bleeding"] = False
        ctx.event("heal", f"{c.name}'s {l['name']} stops bleeding ({kind} {pts})")
    if kind == "heal" and rules.injury_rank(level) >= rules.injury_rank("maimed"):
        ctx.event("heal", f"Heal only heals minor or serious wounds: {l['name']} is {level}")
        return
    if level == "severed":
        ctx.event("heal", f"{l['name']} is severed: re-attach it or use Regenerate/Regrow Limb")
        return
    l["treated"] = True
    if kind == "rune":
        l["useless"] = False  # "Mangled limbs never fully heal naturally": magic can still restore them
    wounds.heal_location(ctx, c, l["id"], pts, f"{'Heal ' + str(pts) if kind == 'heal' else 'rune magic'}")


def natural_healing(ctx: Context) -> None:
    """"Natural healing depends on a character's Healing Rate. [...] Natural healing requires rest": a
    day, a week or a season of rest heals by ``healing.rest_days`` (the same rule time passing between
    fights uses), day by day, so a week also heals seven days of minor and serious wounds; a period
    not rested (``rested`` false: "strenuous activity") heals nothing and starts every count again.
    A healer's Treatment roll adds HR: "a Success grants +1 HR, a Special Success grants +2 HR, and a
    Critical Success grants +3 HR"."""
    c = ctx.combatant()
    period = ctx.action.get("period")
    tbl = ctx.table("natural_healing")
    if not isinstance(period, str) or period not in {e["period"] for e in tbl["entries"]}:
        raise InvalidAction("period", "must be day, week or season")
    rested = ctx.action.get("rested", True)
    if not isinstance(rested, bool):
        raise InvalidAction("rested", "must be yes or no")
    if "dead" in c.conditions:
        raise RuleViolation("Natural Healing", f"{c.name} is dead: time heals nothing")
    days = healing.DAYS.get(period, 1)
    said = f"{c.name} {'rests' if rested else 'does not rest'} for a {period}"
    if period == "season":
        said += f" ({days} days, assumed)"
    if not rested:
        c.data.pop("healing_days", None)
        ctx.event("heal", said + ": natural healing requires rest; nothing heals, and the count of rested days "
                  "starts again", id=c.id)
        return
    hr = body.derived(ctx.ruleset, ctx.enc, c)["healing_rate"]["value"]
    bonus = 0
    if ctx.action.get("healer"):
        healer = ctx.combatant("healer")
        roll = ctx.dice.d100("treatment").total
        deg = rules.degree_of_success(healer.stats.get("first_aid", 0), roll)
        bonus = tbl.get("treatment", {}).get(deg, 0)
        ctx.event("heal", f"{healer.name} treats {c.name}: First Aid rolled {roll}, {deg}: +{bonus} HR")
    ctx.event("heal", f"{said}: Healing Rate {hr}" + (f" + {bonus} treatment" if bonus else ""), id=c.id)
    counts = dict(c.data.get("healing_days") or {})
    stuck = {i["location"] for i in c.data["impaled"]}
    done = healing.rest_days(c, days, hr + bonus, healing.every(tbl), counts, stuck)
    for l in c.data["locations"]:
        if l["id"] in done.healed:
            after = body.loc_level(l)
            ctx.event("heal", f"{c.name}: {l['name']} heals {done.healed[l['id']]} (natural healing); "
                      f"{l['hp']}/{l['hp_max']} {rules.injury_word(after)}"
                      + (", and stays useless" if l.get("useless") else "")
                      + f"; total HP {c.data['hp']}/{c.data['hp_max']}",
                      id=c.id, location=l["id"], healed=done.healed[l["id"]])
            wounds.after_heal(ctx, c, l, done.level_before[l["id"]], after)
    if done.total_healed:
        # "treat total HP as its own minor wound"
        ctx.event("heal", f"{c.name} recovers {done.total_healed} total HP as its own minor wound (no injured hit "
                  f"location); total HP {c.data['hp']}/{c.data['hp_max']}", id=c.id)
    for w in sorted(done.waiting):
        ctx.event("heal", f"{c.name}'s {w}", id=c.id)
    if counts:
        c.data["healing_days"] = {k: v for k, v in sorted(counts.items()) if v}
    else:
        c.data.pop("healing_days", None)


def gm_damage(ctx: Context) -> None:
    """Damage the GM applies directly (falls, collisions, a fumble's hit, a spell)."""
    c = ctx.combatant("target")
    l = _loc(ctx, c)
    amt = ctx.action.get("amount")
    if isinstance(amt, bool) or not isinstance(amt, int) or not 0 <= amt <= 500:
        raise InvalidAction("amount", "must be 0 to 500")
    armour = ctx.action.get("armour", True)
    ap = body.armour_points(c, l) if armour else 0
    taken = max(0, amt - ap)
    reason = ctx.action.get("reason", "GM")
    if not isinstance(reason, str) or len(reason) > 80:
        raise InvalidAction("reason", "must be a short text")
    wounds.apply_damage(ctx, c, l["id"], taken, source=f"{reason}: {amt}{' − AP ' + str(ap) if ap else ''}",
                        tag="gm")


def protection(ctx: Context) -> None:
    """Magical protection a spell gives (``sr.protection``): points at every location that stop damage like
    armour, kept apart from it because "Critical Hit: Special damage, ignores armor (but not magical
    protection)". The text names no spell or amount: the GM types what the spell gives; 0 ends it."""
    c = ctx.combatant("target")
    pts = ctx.action.get("points")
    if isinstance(pts, bool) or not isinstance(pts, int) or not 0 <= pts <= 30:
        raise InvalidAction("points", "must be a whole number from 0 to 30 (0 ends it)")
    reason = ctx.action.get("reason", "")
    if not isinstance(reason, str) or len(reason) > 60:
        raise InvalidAction("reason", "must be a short text (at most 60 characters)")
    reason = reason.strip()
    old = body.protection(c)
    if pts == 0:
        if not old:
            raise InvalidAction("points", f"{c.name} has no magical protection to end")
        c.data.pop("protection", None)
        ctx.event("protection", f"{c.name}'s magical protection ({old}) ends")
        return
    c.data["protection"] = {"points": pts, "reason": reason}
    ctx.event("protection", f"{c.name} has magical protection {pts}{' (' + reason + ')' if reason else ''} at every "
              "location: it stops damage like armour, and a critical does not ignore it")


BODY_M = 1.0  # where one knocked into another stops: about a body's width short of them (assumed)


def in_the_way(enc, p: dict[str, Any]) -> str:
    """The living combatant a knockback (question ``p``) runs into first on its way, or "": ahead of
    the one knocked back, within the metres it flies and a body's width of its line. Only the GM's
    suggestion ("collide with another combatant" is the GM's to say); the dead are passed over
    ("Dead characters cannot do anything": they make no DEX test)."""
    d = p.get("data") or {}
    c = enc.peek_at(p.get("combatant", ""))
    if c is None or not d.get("away"):
        return ""
    ux, uy = d["away"]
    skip = set(d.get("movers") or [c.id]) | {c.id, d.get("attacker")}
    best, near = "", None
    for o in enc.peek():
        if o.id in skip or "dead" in o.conditions:
            continue
        dx, dy = o.position.x - c.position.x, o.position.y - c.position.y
        ahead, aside = dx * ux + dy * uy, abs(dx * uy - dy * ux)
        if 0 < ahead <= float(d.get("metres", 0)) + BODY_M and aside <= BODY_M and (near is None or ahead < near):
            best, near = o.id, ahead
    return best


def _knocked_back(ctx: Context, c: Combatant, d: dict[str, Any], choice: str, other: Combatant | None) -> None:
    """Knockback: "the target is knocked back 1 meter for every 5 points of damage": the token (and a
    mount that shared the knockback) moves that far straight away from the attacker; into another
    combatant, it stops a body's width short of them; against a solid object the GM puts it where it
    struck. A question saved before the map moved anyone (no ``away``) moves no one, as then."""
    if "away" not in d:
        return
    if d["away"] is None:
        ctx.event("knockback", f"{c.name} stood on the attacker's spot: move the token on the map where it lands")
        return
    if choice == "solid":
        ctx.event("knockback", f"{c.name} stops where it struck: move the token on the map there")
        return
    ux, uy = d["away"]
    metres = float(d["metres"])
    if other is not None:  # up to the one struck, along the way it was pushed
        ahead = (other.position.x - c.position.x) * ux + (other.position.y - c.position.y) * uy
        metres = min(metres, max(0.0, ahead - BODY_M))
        if metres <= 0:
            ctx.event("knockback", f"{c.name} is knocked straight into {other.name} and stays where it stood")
            return
    for cid in d.get("movers") or [c.id]:
        m = ctx.enc.get(cid)
        if m is None:
            continue
        p = m.position
        m.position = Position(round(p.x + ux * metres, 2), round(p.y + uy * metres, 2), p.alt)
        # to the decimetre, as every distance the GM reads (a GM's play: "knocked back 2.53554 m")
        ctx.event("move", f"{m.name} is knocked back {rules.metres_text(metres)} to ({m.position.x:g}, {m.position.y:g}) m",
                  id=m.id, x=m.position.x, y=m.position.y, alt=m.position.alt)
    movement.rework_movement(ctx, d.get("movers") or [c.id], f"{c.name} was knocked back")


# What the GM decided, one sentence per question kind and answer ({who}: the one the question is about;
# {where}: the hit location; {other}: the fleeing one, or the combatant struck; {label}: the option's own
# words). The question's kind ("severed", "hard_cover") is the engine's name for it, never the GM's.
ANSWER_WORDS: dict[str, dict[str, str]] = {
    "severed": {"severed": "The GM rules {who}'s {where} severed",
                "mangled": "The GM rules {who}'s {where} mangled but still attached"},
    "impaled": {"yes": "The GM rules that {who} moved or fought with the weapon still stuck: half its damage",
                "no": "The GM rules that {who} stayed still with the weapon stuck"},
    "unstick": {"pull": "The GM rules that {who} tries to pull the weapon free now", "hold": "The GM rules that {who} "
                "holds on to the weapon", "let_go": "The GM rules that {who} lets go of the weapon"},
    "collision": {"none": "The GM rules that {who}, knocked back, collides with nothing",
                  "combatant": "The GM rules that {who}, knocked back, collides with {other}",
                  "solid": "The GM rules that {who}, knocked back, strikes a solid object"},
    "hard_cover": {"stopped": "The GM rules the hard cover stops the blow to {who}",
                   "through": "The GM rules the blow to {who} gets through the hard cover"},
    "apply_damage": {"*": "The GM rules the blow strikes {who}'s {label}"},
    "fumble": {"keep": "The GM applies {who}'s fumble", "reroll": "The GM rules {who}'s fumble does not apply: "
               "roll again"},
    "stray": {"none": "The GM rules the stray shot hits no friend", "*": "The GM rules the stray shot hits {label}"},
    "unconscious": {"woken": "The GM rules {who} woken", "still": "The GM rules {who} still unconscious"},
    "grapple_weapon": {"pull": "The GM rules that {who} tries to pull the weapon away",
                       "release": "The GM rules that {who} lets go of the weapon"},
    "move_end": {"placed": "The GM has put {who}'s token where the move ends"},
    # combat.py: the one charged past may strike the charger; care.py (fleeing): an enemy strikes the fleeing one
    "free_attack": {"attack": "The GM rules that {who} makes the free attack on {other}",
                    "decline": "The GM rules that {who} lets {other} go by", "*": "The GM rules that {label} makes "
                    "the free attack on {who}"},
}

# what a question is about, for one set aside unanswered
QUESTION_WORDS = {"severed": "a mangled limb", "impaled": "a stuck weapon", "unstick": "a stuck weapon",
                  "collision": "a knockback", "hard_cover": "hard cover", "apply_damage": "a blow on a mount",
                  "fumble": "a fumble", "stray": "a stray shot", "unconscious": "waking up",
                  "grapple_weapon": "a weapon held in a grapple", "move_end": "where a move ends",
                  "free_attack": "a free attack"}


def answer_text(enc: Encounter, p: dict[str, Any], choice: str, c: Combatant | None, with_id: Any = None) -> str:
    """The log's line for the GM's answer to question ``p``: what the GM decided, in words."""
    kind, d = p["kind"], p.get("data") or {}
    who = c.name if c is not None else "no one still here"
    if choice == "dismiss":
        return f"The GM sets aside the question on {QUESTION_WORDS.get(kind, 'this')} ({who})"
    label = next((o.get("label") or o["value"] for o in p["options"] if o["value"] == choice), choice)
    words = ANSWER_WORDS.get(kind, {})
    text = words.get(choice) or words.get("*")
    if text is None:
        return f"The GM answers the question on {QUESTION_WORDS.get(kind, 'this')} ({who}): {label}"
    loc = next((l for l in (c.data.get("locations") or []) if l.get("id") == d.get("location")), None) if c else None
    other_id = with_id if kind == "collision" else d.get("fleeing")
    other = enc.get(other_id) if isinstance(other_id, str) else None
    return text.format(who=who, where=(loc["name"].lower() if loc else "limb"), label=label,
                       other=other.name if other is not None else "another combatant")


def answer(ctx: Context) -> None:
    pid = ctx.action.get("prompt")
    prompts = ctx.enc.state.get("prompts", [])
    p = next((x for x in prompts if x["id"] == pid), None)
    if p is None:
        raise InvalidAction("prompt", "that question is no longer open")
    choice = ctx.action.get("choice")
    if choice != "dismiss" and choice not in [o["value"] for o in p["options"]]:
        raise InvalidAction("choice", f"must be one of {', '.join(o['value'] for o in p['options'])} or dismiss")
    c = ctx.enc.get(p["combatant"])
    d = p["data"]
    # ``apply`` (the page's answers, issue 32): a fumble's result is applied as the table gives it,
    # "Roll twice and apply both" rolled twice. An answer saved before does what it did then.
    applies = ctx.action.get("apply", False)
    if not isinstance(applies, bool):
        raise InvalidAction("apply", "must be true or false")
    prompts.remove(p)
    # what the GM decided, in words ("The GM rules Grak's right arm severed"), not the question's kind
    ctx.event("answer", answer_text(ctx.enc, p, choice, c, ctx.action.get("with")))
    if choice == "dismiss" or c is None:
        return
    k = p["kind"]
    if k == "severed" and choice == "severed":
        body.location(c, d["location"])["severed"] = True
        ctx.event("injury", f"{c.name}'s {body.location(c, d['location'])['name']} is severed")
    elif k == "impaled" and choice == "yes":
        dmg = ctx.dice.roll("impale_damage", d.get("dice") or _imp(c, d)["damage"]).total
        half = rules.round_half_up(dmg / 2)  # "roll, halve, and round; no damage modifier"
        imp = _imp(c, d)
        wounds.apply_damage(ctx, c, imp["location"], half, source=f"impaled {imp['name']}: half of {dmg}", tag="impale")
    elif k == "unstick":
        owner = ctx.enc.get(d["owner"])
        w = body.weapon(owner, d["weapon"])
        holder = ctx.enc.get(d["holder"])
        if choice == "pull":
            ok, deg, text = combat._skill_test(ctx, rules.round_half_up(w["skill"] / 2), "pull")
            ctx.event("unstick", f"{owner.name} tries to free {w['name']} at half skill: {text}")
            if ok:
                _free(ctx, holder, owner, w, by_owner=True)
        elif choice == "hold":
            w["held"] = True
            ctx.event("unstick", f"{owner.name} holds on to {w['name']}: neither can move or disengage")
        else:
            w["held"] = False
            ctx.event("unstick", f"{owner.name} lets go of {w['name']}")
    elif k == "collision":
        other = ctx.combatant("with") if choice == "combatant" and ctx.action.get("with") else None
        if other is not None and other.id == c.id:
            # "collide with another combatant": the one knocked back is not struck by himself
            raise InvalidAction("with", f"{c.name} is the one knocked back: pick the combatant he collides with")
        _knocked_back(ctx, c, d, choice, other)
        if choice == "combatant":
            down = body.no_footing_roll(other) if other is not None else None
            if down == "prone":
                ctx.event("knockback", f"{other.name} is already prone: no DEX roll")
            elif down:
                # the same roll to keep one's feet as the one knocked back makes (``landing._knockback``); one
                # lying already falls no more (a GM's play: "is unconscious: no DEX roll; falls prone" of one prone)
                lying = down == "dead" or "prone" in other.conditions
                if not lying:
                    wounds.add_condition(other, "prone")
                ctx.event("knockback", f"{other.name} is {down}: no DEX roll" + (
                    "" if down == "dead" else "; already prone" if lying else "; falls prone"))
            elif other is not None:
                ok, _, text = combat._skill_test(ctx, other.stats.get("DEX", 0) * 5, "collision_dex")
                if not ok:
                    wounds.add_condition(other, "prone")
                ctx.event("knockback", f"{other.name} is struck: DEX×5 {text}" + ("" if ok else ": falls prone"))
        elif choice == "solid" and d["metres"] >= 3:
            dice = f"{ceil_div(d['metres'], 5)}D6"
            dmg = ctx.dice.roll("collision", dice).total
            roll = ctx.dice.roll("collision_location", "1D20").total
            loc = next(l for l in c.data["locations"] if l["melee"][0] <= roll <= l["melee"][1])
            wounds.apply_damage(ctx, c, loc["id"], max(0, dmg - body.armour_points(c, loc)), source=f"collision {dice} = {dmg}", tag="collision")
    elif k == "hard_cover" and choice == "through":
        amt = ctx.action.get("amount")
        if isinstance(amt, bool) or not isinstance(amt, int) or amt < 0:
            raise InvalidAction("amount", "enter the damage that gets through the cover")
        l = body.location(c, d["location"])
        wounds.apply_damage(ctx, c, l["id"], max(0, amt - body.armour_points(c, l)), source="through hard cover", tag="cover")
    elif k == "apply_damage":
        l = body.location(c, choice)
        # a critical ignores the armour, "but not magical protection"
        taken = max(0, d["damage"] - (body.protection(c) if d.get("ignores_armour") else body.armour_points(c, l)))
        wounds.apply_damage(ctx, c, l["id"], taken, source="redirected blow", tag="redirect")
    elif k == "fumble" and choice == "keep" and applies and combat.fumble_entry(ctx, d.get("result", "")).get(
            "effect") == "roll_twice":
        combat.fumble_twice(ctx, c)
    elif k == "fumble" and choice == "reroll":
        res = rules.fumble_result(ctx.table("fumbles"), ctx.dice.d100("fumble").total)
        ctx.event("fumble", f"{c.name} rolls again on the fumble table: {res['result']}")
        if applies and res.get("effect") == "roll_twice":
            combat.fumble_twice(ctx, c)
        elif applies:
            combat.fumble_effect(c, res)
    elif k == "stray":
        victim = ctx.enc.get(choice)
        shooter = ctx.enc.get(d["attacker"])
        w = body.weapon(shooter, d["weapon"])
        dmg, text, _ = combat.roll_damage(ctx, shooter, w, "normal", "damage")
        roll = ctx.dice.roll("location", "1D20").total
        loc = next(l for l in victim.data["locations"] if l["missile"][0] <= roll <= l["missile"][1])
        ap = body.armour_points(victim, loc)
        wounds.apply_damage(ctx, victim, loc["id"], max(0, dmg - ap),
                            source=f"stray {w['name']}: {text}, location {roll}, AP {ap}", tag="stray")
    elif k == "unconscious" and choice == "woken":
        wounds.drop_condition(c, "unconscious")
        ctx.event("stun", f"{c.name} is woken")
    elif k == "grapple_weapon" and choice == "pull":
        t = ctx.enc.get(d["target"])
        chance = rules.resistance_chance(c.stats.get("STR", 0), t.stats.get("STR", 0), ctx.table("characteristic_tests"))
        ok, _, text = combat._skill_test(ctx, chance, "resistance")
        w = body.weapon(t, d["weapon"])
        if ok:
            w["dropped"] = True
        ctx.event("grapple", f"{c.name} pulls at {t.name}'s {w['name']}: STR vs STR {text}" + (": wrenched away" if ok else ""))


def _imp(c: Combatant, d: dict[str, Any]) -> dict[str, Any]:
    imp = next((i for i in c.data["impaled"] if i["weapon"] == d["weapon"] and i["owner"] == d["owner"]), None)
    if imp is None:
        raise RuleViolation("Impale", "that weapon is no longer stuck")
    return imp


def _free(ctx: Context, holder: Combatant, owner: Combatant, w: dict[str, Any], by_owner: bool) -> None:
    mine = [e for e in holder.data["impaled"] + [s for sw in holder.data["weapons"] for s in sw["stuck"]]
            if e["weapon"] == w["id"] and e["owner"] == owner.id]
    # a shot's missile is what comes out ("missile from Bow"), the bow never left its owner's hands
    name = mine[0]["name"] if mine else w["name"]
    holder.data["impaled"] = [i for i in holder.data["impaled"] if not (i["weapon"] == w["id"] and i["owner"] == owner.id)]
    for sw in holder.data["weapons"]:
        sw["stuck"] = [s for s in sw["stuck"] if not (s["weapon"] == w["id"] and s["owner"] == owner.id)]
    was_stuck = w.pop("stuck_in", None)
    w.pop("held", None)
    if not by_owner and was_stuck:
        w["dropped"] = True  # pulled out by someone else: it is no longer in the owner's hands
    ctx.event("unstick", f"{name} is freed" + ("" if by_owner or not was_stuck else f" (out of {owner.name}'s hands)"))


def unstick(ctx: Context) -> None:
    """Later attempts to free a stuck weapon, 1 MR each: STR×3% out of a shield, First Aid or CON×3%
    out of a body, STR vs STR to wrench it, or break it; automatic after 5 failed attempts."""
    who = ctx.combatant()
    holder = ctx.combatant("holder")
    owner = ctx.combatant("owner")
    w = body.weapon(owner, ctx.action.get("weapon"))
    in_body = w is not None and any(i["weapon"] == w["id"] and i["owner"] == owner.id for i in holder.data["impaled"])
    in_shield = w is not None and any(s["weapon"] == w["id"] and s["owner"] == owner.id
                                      for sw in holder.data["weapons"] for s in sw["stuck"])
    if not (in_body or in_shield):
        raise InvalidAction("weapon", "that weapon is not stuck in the holder")
    method = ctx.action.get("method")
    allowed = ("str", "wrench", "break") if in_shield else ("first_aid", "con", "wrench")
    if not in_shield and method == "break":
        raise RuleViolation("Impale", "Breaking an impaled weapon does nothing, since part of it is stuck inside.")
    if method not in allowed:
        raise InvalidAction("method", f"must be one of {', '.join(allowed)}")
    if method == "break":
        return _free(ctx, holder, owner, w, by_owner=False)
    entry = (next(s for sw in holder.data["weapons"] for s in sw["stuck"] if s["weapon"] == w["id"] and s["owner"] == owner.id)
             if in_shield else next(i for i in holder.data["impaled"] if i["weapon"] == w["id"] and i["owner"] == owner.id))
    tests = ctx.table("characteristic_tests")
    if method == "str":
        chance, label = who.stats.get("STR", 0) * rules.test_multiplier(tests, "STR_pull"), "STR×3"
    elif method == "con":
        if who.id != holder.id:
            raise RuleViolation("Impale", "the impaled character makes the CON×3% test")
        chance, label = who.stats.get("CON", 0) * rules.test_multiplier(tests, "CON_impale"), "CON×3"
    elif method == "first_aid":
        chance, label = who.stats.get("first_aid", 0), "First Aid"
    else:
        other = owner if who.id == holder.id else holder
        chance = rules.resistance_chance(who.stats.get("STR", 0), other.stats.get("STR", 0), tests)
        label = "STR vs STR"
    ok, deg, text = combat._skill_test(ctx, chance, "test")
    entry["attempts"] = entry.get("attempts", 0) + 1
    ctx.event("unstick", f"{who.name} tries to free {w['name']} ({label}): {text} (attempt {entry['attempts']})")
    if method == "wrench" and not in_shield and who.id == holder.id:
        # "will suffer half weapon damage (as above) regardless of success"
        dmg = ctx.dice.roll("impale_damage", w["damage"]).total
        wounds.apply_damage(ctx, holder, entry["location"], rules.round_half_up(dmg / 2),
                            source=f"wrenching out {w['name']}: half of {dmg}", tag="wrench")
    if ok or entry["attempts"] >= 5:
        if not ok:
            ctx.event("unstick", "after 5 failed attempts the weapon comes out")
        _free(ctx, holder, owner, w, by_owner=who.id == owner.id)


def disengage(ctx: Context) -> None:
    c = ctx.combatant()
    how = ctx.action.get("how")
    if how not in ("outnumbered", "retreat", "flee"):
        raise InvalidAction("how", "must be outnumbered, retreat or flee")
    if "grappled" in c.conditions or any(i.get("held", True) and ctx.enc.get(i["owner"]) and
                                         body.weapon(ctx.enc.get(i["owner"]), i["weapon"]).get("held")
                                         for i in c.data["impaled"]):
        raise RuleViolation("Grappling", f"{c.name} is held and cannot disengage")
    enemies = combat.engaged_with(ctx.enc, c)
    if how == "outnumbered":
        allies = {o.id: o for e in enemies for o in combat.engaged_with(ctx.enc, e)}
        biggest = max((e.stats.get("SIZ", 0) for e in enemies), default=0)
        # "Creatures cannot be outnumbered by enemies half their SIZ or less."
        counting = [o for o in allies.values() if o.stats.get("SIZ", 0) * 2 > biggest]
        if len(counting) <= len(enemies):
            raise RuleViolation("Disengaging", f"{c.name}'s side ({len(counting)} counting) does not outnumber "
                                f"the {len(enemies)} engaged enemies")
        ctx.event("disengage", f"{c.name} disengages freely: {len(counting)} against {len(enemies)}")
    elif how == "retreat":
        wounds.add_condition(c, "retreating")
        ctx.event("disengage", f"{c.name} makes a fighting retreat at normal Movement, parrying or dodging as normal; "
                  "opponents may pursue")
    else:
        c.data["round"]["fleeing"] = True
        c.data["round"]["running"] = True
        wounds.add_condition(c, "fleeing")
        for a in timing.actions_of(ctx.enc, c.id):
            if a["status"] == "declared" and (a["attack"] or a["kind"] == "spell"):
                a["status"] = "lost"
                ctx.event("lost", f"{timing.open_text(ctx.enc, a)} is lost: {c.name} flees", ref=a["ref"])
        ctx.event("disengage", f"{c.name} flees at double Movement")
        if enemies:
            wounds.prompt(ctx, "free_attack", c.id, f"{c.name} flees: enemies who cannot be paired off with engaged "
                          "opponents get an immediate melee attack (no parry, dodge at ½; counts as their attack)",
                          [{"value": e.id, "label": e.name} for e in enemies], fleeing=c.id)


GRAPPLE_OPTIONS = ("immobilize", "choke", "damage", "drag", "throw", "break", "release")


def grapple(ctx: Context) -> None:
    """The options once a location is held, each an opposed test on the resistance roll."""
    c = ctx.combatant()
    t = ctx.combatant("target")
    opt = ctx.action.get("option")
    if opt not in GRAPPLE_OPTIONS:
        raise InvalidAction("option", f"must be one of {', '.join(GRAPPLE_OPTIONS)}")
    tests = ctx.table("characteristic_tests")
    if opt == "break":
        grip = next((g for g in t.data["grips"] if g["target"] == c.id), None)
        if grip is None:
            raise RuleViolation("Grappling", f"{t.name} holds nothing of {c.name}")
        chance = rules.resistance_chance(c.stats.get("STR", 0), t.stats.get("STR", 0), tests)
        ok, _, text = combat._skill_test(ctx, _sub(ctx, chance), "resistance")
        ctx.event("grapple", f"{c.name} tries to break {t.name}'s hold: STR vs STR {text}")
        if ok:
            _release(t, c, grip)
            ctx.event("grapple", f"{c.name} breaks free")
        return
    grip = next((g for g in c.data["grips"] if g["target"] == t.id), None)
    if grip is None:
        raise RuleViolation("Grappling", f"{c.name} has no hold on {t.name}: a Grapple attack must succeed first")
    loc = body.location(t, grip["location"])
    if opt == "release":
        _release(c, t, grip)
        ctx.event("grapple", f"{c.name} releases {t.name}")
        return
    if opt in ("immobilize", "damage") and loc["type"] not in ("arm", "leg", "head", "wing", "tail"):
        raise RuleViolation("Grappling", f"{opt} needs a grappled limb (or the head to immobilize)")
    if opt == "choke" and not (loc["type"] == "head" and loc.get("immobilized_by") == c.id):
        raise RuleViolation("Grappling", "Choke: Immobilized head only.")
    if opt == "damage" and loc.get("immobilized_by") != c.id:
        raise RuleViolation("Grappling", "Damage: Immobilized limbs only.")
    passive = {"immobilize": "STR", "choke": "CON", "damage": "STR", "drag": "SIZ", "throw": "SIZ"}[opt]
    chance = rules.resistance_chance(c.stats.get("STR", 0), t.stats.get(passive, 0), tests)
    ok, deg, text = combat._skill_test(ctx, _sub(ctx, chance), "resistance")
    ctx.event("grapple", f"{c.name} {opt}: STR vs {passive} {text}")
    if deg == "fumble":
        _release(c, t, grip)
        ctx.event("grapple", f"{c.name} fumbles and loses the grip")
        return
    if not ok:
        return  # "On a Failure, the attacker retains their grip on the target."
    if opt == "immobilize":
        loc["immobilized_by"] = c.id
        ctx.event("grapple", f"{t.name}'s {loc['name']} is immobilized")
    elif opt == "choke":
        wounds.add_condition(t, "choking")
        ctx.event("grapple", f"{t.name} begins to asphyxiate until the hold is released or broken")
    elif opt == "damage":
        dm = body.derived(ctx.ruleset, ctx.enc, c)["damage_modifier"]["value"]
        r = ctx.dice.roll("damage", "1D3" + rules.signed(dm))
        wounds.apply_damage(ctx, t, loc["id"], max(0, r.total), source=f"grapple {r.breakdown()}, bypassing armour", tag="grapple")
    elif opt == "drag":
        ctx.event("grapple", f"{c.name} drags {t.name}; movement starts on the next SR")
    else:
        metres = 1 + max(0, c.stats.get("STR", 0) - t.stats.get("SIZ", 0)) // 3
        ok2, _, text2 = combat._skill_test(ctx, t.stats.get("DEX", 0) * rules.test_multiplier(tests, "DEX"), "throw_dex")
        ctx.event("grapple", f"{c.name} throws {t.name} {metres} m; DEX test {text2}")
        _release(c, t, grip)
        if not ok2:
            dmg = ctx.dice.roll("throw_damage", "1D6").total
            roll = ctx.dice.roll("throw_location", "1D20").total
            l = next(x for x in t.data["locations"] if x["melee"][0] <= roll <= x["melee"][1])
            wounds.apply_damage(ctx, t, l["id"], max(0, dmg - body.armour_points(t, l)), source=f"thrown: 1D6 = {dmg}", tag="throw")


def _sub(ctx: Context, chance: int) -> int:
    """"an Unarmed or Martial Arts test can be substituted for a characteristic test\""""
    s = ctx.action.get("substitute")
    if s is None:
        return chance
    if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s <= 300:
        raise InvalidAction("substitute", "must be the Unarmed or Martial Arts skill %")
    return s


def _release(holder: Combatant, target: Combatant, grip: dict[str, Any]) -> None:
    holder.data["grips"].remove(grip)
    l = body.location(target, grip["location"])
    if l and l.get("immobilized_by") == holder.id:
        l["immobilized_by"] = ""
    if "choking" in target.conditions and l and l["type"] == "head":
        target.conditions.remove("choking")
    if not any(g for o in [holder] for g in o.data["grips"] if g["target"] == target.id):
        if "grappled" in target.conditions:
            target.conditions.remove("grappled")


def set_condition(ctx: Context) -> None:
    """The core's ``set_condition``, but "prone" stays on whoever cannot stand ("If half or more of a
    combatant's legs are maimed, they cannot stand"; "Abdomen: Cannot stand or walk."): the GM taking
    it off by hand is refused with the injury, and nothing changes (issue 33)."""
    from fray.reducer import CORE_ACTIONS

    cond = ctx.action.get("condition")
    if ctx.action.get("on", True) is False and isinstance(cond, str) and cond.strip().lower() == "prone":
        c = ctx.combatant()
        why = body.cannot_stand(c)
        if why:
            raise RuleViolation("Damage Equal to Double Location HP",
                                f"{c.name} cannot stand ({why}): prone stays until the injury is healed")
    was_down = body.can_act(ctx.combatant())
    CORE_ACTIONS["set_condition"](ctx)
    down = body.can_act(ctx.combatant())
    if down and not was_down:
        # "Characters who become incapacitated generally lose actions that would have resolved after they
        # are incapacitated": by the GM's hand as by a blow, at once (a GM's play: Broo 2, marked dead at
        # SR 3, kept his attack, was timed again and came up to act at SR 11)
        wounds.lose_later_actions(ctx, ctx.combatant(), down)
