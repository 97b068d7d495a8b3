"""What range-band actions share: readers of an action's fields and the state edits that several
handlers make (conditions and durations, stealth level, pending rolls and prompts, falling off a
mount, knockdown, spending turn actions). Handlers live in ``actions.py`` and the modules it names;
the end-of-turn upkeep in ``__init__.py`` uses the same edits.
"""

from __future__ import annotations

from typing import Any

from fray.errors import InvalidAction, RuleViolation
from fray.model import Combatant, Encounter, Position
from fray.games.base import Context, counted
from fray.games.range_band import rules
from fray.games.range_band.combatant import STEALTH
from fray.games.range_band.rolls import RollSpec

# -- small readers ------------------------------------------------------------------------------------

def tables_of(ctx: Context) -> rules.Tables:
    return ctx.ruleset.all_tables(ctx.enc)


def flag(action: dict[str, Any], key: str, default: bool = False) -> bool:
    v = action.get(key, default)
    if not isinstance(v, bool):
        raise InvalidAction(key, "must be true or false")
    return v


def pick(action: dict[str, Any], key: str, choices: tuple[str, ...], default: str | None = None) -> str:
    v = action.get(key, default)
    if v not in choices:
        raise InvalidAction(key, f"must be one of {', '.join(choices)}")
    return v


def other(ctx: Context, key: str, me: Combatant | None = None, read_only: bool = False) -> Combatant:
    """The combatant named by ``action[key]``, to edit; ``read_only``: the handler only reads it (an attack
    changes nothing on its target), so in a draft it is not copied (``Encounter.peek_at``)."""
    cid = ctx.action.get(key)
    found = ctx.enc.peek_at(cid) if isinstance(cid, str) else None
    if found is None:
        raise InvalidAction(key, "that combatant is no longer in this encounter")
    if me is not None and cid == me.id:
        raise InvalidAction(key, f"{me.name} cannot be their own target here")
    return found if read_only else ctx.enc.get(cid)


def ids_list(ctx: Context, key: str, me: Combatant | None = None) -> list[Combatant]:
    raw = ctx.action.get(key, [])
    if not isinstance(raw, list):
        raise InvalidAction(key, "must be a list of combatant ids")
    out = []
    for i, cid in enumerate(raw):
        if not isinstance(cid, str) or ctx.enc.get(cid) is None:
            raise InvalidAction(f"{key}.{i}", "that combatant is no longer in this encounter")
        if me is not None and cid == me.id:
            raise InvalidAction(f"{key}.{i}", f"{me.name} cannot be listed here")
        out.append(ctx.enc.get(cid))
    return out


def able(c: Combatant, rule: str, what: str) -> None:
    for cond in rules.OUT:
        if cond in c.conditions:
            raise RuleViolation(rule, f"{c.name} is {cond} and cannot {what}")


def coords(ctx: Context, c: Combatant) -> Position:
    from fray.reducer import _position
    old = c.position
    return _position({"x": ctx.action.get("x", old.x), "y": ctx.action.get("y", old.y),
                      "alt": ctx.action.get("alt", old.alt)}, "position")


# -- shared state edits ---------------------------------------------------------------------------------

def cond_on(c: Combatant, cond: str) -> bool:
    return c.add_condition(cond)


def cond_off(c: Combatant, cond: str) -> bool:
    """Off, with its range-band duration (``rb.status``) if it had one."""
    if not c.drop_condition(cond):
        return False
    c.data["durations"] = [d for d in c.data.get("durations", []) if d["condition"] != cond]
    return True


def add_duration(enc: Encounter, c: Combatant, cond: str, ends: str, rounds: int = 1) -> None:
    """A status with a duration. ``before_turn``: "a 1-round effect ends right before that character's
    next turn" (FACTS.md): it ends at the start of c's turn ``rounds`` rounds later. ``after_turn``:
    "until the end of your next turn"."""
    cond_on(c, cond)
    ds = [d for d in c.data.get("durations", []) if d["condition"] != cond]
    if ends == "before_turn":
        ds.append({"condition": cond, "ends": ends, "round": enc.round + rounds})
    else:
        this_turn_passed = c.data.get("turn_done_round") == enc.round or enc.phase == "setup"
        ds.append({"condition": cond, "ends": ends, "turns": rounds, "count_from": enc.round + (1 if this_turn_passed else 0)})
    c.data["durations"] = ds


def set_stealth(ctx: Context, c: Combatant, level: str, why: str, lock: bool = False) -> None:
    """Change a stealth level, for the mount and rider together ("Mounted characters and mounts always
    share a stealth level"). ``lock``: lost by one's own movement or action, so the lost levels cannot
    be re-entered this round."""
    enc = ctx.enc
    pair = rules.partner(enc, c)
    group = [c] + ([pair] if pair is not None else [])
    for x in group:
        old = x.data.get("stealth", "low")
        if old == level:
            continue
        x.data["stealth"] = level
        if lock:
            locks = dict(x.data.get("locks", {}))
            for lv in STEALTH[STEALTH.index(level) + 1:]:
                locks[lv] = enc.round
            x.data["locks"] = locks
        ctx.event("stealth", f"{x.name}: {old.capitalize()} → {level.capitalize()} Stealth ({why})", id=x.id,
                  stealth=level)


def new_ref(enc: Encounter, prefix: str = "R") -> str:
    """Pending rolls are R1, R2, ...; prompts P1, P2, ... (separate counts, so a prompt never shifts a roll's ref)."""
    key = "next_ref" if prefix == "R" else "next_prompt"
    n = int(enc.state.get(key, 1))
    enc.state[key] = n + 1
    return f"{prefix}{n}"


def pend(ctx: Context, kind: str, c: Combatant, spec: RollSpec, effect: dict[str, Any] | None = None,
         prompt: str = "") -> str:
    ref = new_ref(ctx.enc)
    entry = {"ref": ref, "kind": kind, "combatant": c.id, "spec": spec.to_json(), "effect": effect or {},
             "round": ctx.enc.round, "prompt": prompt or f"{c.name}: {spec.what}"}
    ctx.enc.state.setdefault("pending", []).append(entry)
    ctx.event("roll_needed", f"{c.name}: {spec.what} — {entry['spec']['text']}", ref=ref, id=c.id, spec=entry["spec"])
    return ref


def prompt(ctx: Context, kind: str, c: Combatant, text: str, **detail: Any) -> str:
    ref = new_ref(ctx.enc, "P")
    ctx.enc.state.setdefault("prompts", []).append({"ref": ref, "kind": kind, "combatant": c.id, "text": text,
                                                    "round": ctx.enc.round, **detail})
    ctx.event("prompt", text, ref=ref, id=c.id)
    return ref


def unmount(ctx: Context, rider: Combatant, why: str) -> None:
    m = rules.mount_of(ctx.enc, rider)
    rider.data["mount"] = None
    if m is not None:
        m.data["rider"] = None
        said = f" ({why})" if why else ""
        ctx.event("mount", f"{rider.name} is no longer mounted on {m.name}{said}; still grouped-up with it",
                  id=rider.id, mount=m.id)


def knock_down(ctx: Context, c: Combatant, t: rules.Tables, why: str, stop_flying: bool = False) -> None:
    """Anything that inflicts a knockdown, by the rules of Flight, Underwater Combat and Falling Off Mounts."""
    enc = ctx.enc
    because = f" ({why})" if why else ""
    if rules.underwater(enc, c):
        if rules.is_mounted(c):
            unmount(ctx, c, "a knockdown removes an underwater character from their mount")
        ctx.event("knockdown", f"{c.name} is underwater: immune to knockdowns{because}", id=c.id)
        return
    if rules.is_flying(enc, c) and not stop_flying:
        add_duration(enc, c, "minor-stunned", "after_turn", 1)
        ctx.event("knockdown", f"{c.name} is flying: minor stunned until the end of their next turn instead of "
                  f"knocked down{because}", id=c.id)
        return
    if rules.is_flying(enc, c) and stop_flying:
        if not rules.at_engagement_altitude(c, t):
            raise RuleViolation("Flight", "only at engagement altitude may a flyer stop flying and take the knockdown")
        c.data["flying"] = False
        ctx.event("flight", f"{c.name} stops flying and takes the knockdown instead", id=c.id)
    cond_on(c, "knocked-down")
    ctx.event("knockdown", f"{c.name} is knocked down{because}", id=c.id)
    m = rules.mount_of(enc, c)
    if m is not None:
        unmount(ctx, c, "")  # the line above says why: "knocked down" once (a GM read it twice for one knockdown)
        if int(m.stats.get("WGT", 0)) >= rules.const(t, "mount_fall_wgt") or rules.is_flying(enc, m):
            what = "the mount is flying" if rules.is_flying(enc, m) else f"{m.name} has WGT {m.stats.get('WGT')}"
            prompt(ctx, "fall", c, f"{c.name} falls off {m.name} ({what}): use the Falling rules for a "
                   f"{'short-range' if not rules.is_flying(enc, m) else rules.altitude_band(m, t) + '-range'} fall; "
                   "knocked down regardless of injury", from_alt=c.position.alt)
        if c.position.alt > 0:
            c.position = Position(c.position.x, c.position.y, 0.0)
    r = rules.rider_of(enc, c)
    if r is not None:
        knock_down(ctx, r, t, f"their mount {c.name} was knocked down")


def fall(ctx: Context, c: Combatant, t: rules.Tables, why: str) -> None:
    """Falling from flight: no longer flying, a Falling prompt by altitude."""
    c.data["flying"] = False
    p = rules.fall_prompt(c, t, why)
    prompt(ctx, "fall", c, p["text"], band=p["band"], from_alt=c.position.alt)
    if c.position.alt > 0:
        c.position = Position(c.position.x, c.position.y, 0.0)  # down on the ground; the prompt keeps the height


def _used(enc: Encounter, c: Combatant) -> dict[str, Any]:
    used = c.data.get("used") or {}
    return used if used.get("round") == enc.round else {"round": enc.round, "major": 0, "minor": 0, "what": []}


def action_block(enc: Encounter, c: Combatant, size: str, t: rules.Tables, count: int = 1) -> str | None:
    """Why ``c`` cannot spend ``count`` more actions of ``size`` this turn (table ``turn_actions``, assumed), or
    None: what ``use_action`` refuses, for the turn panel to say before a GM asks for it."""
    used = _used(enc, c)
    lim = {e["size"]: e.get("per_turn") for e in t["turn_actions"]["entries"]}.get(size)
    if size in ("major", "minor") and lim is not None and used[size] + count > int(lim):
        return (f"{c.name} has already used {counted(used[size], size + ' action')} this turn "
                f"(at most {lim}: Actions in one turn, in Tables)")
    return None


def use_action(ctx: Context, c: Combatant, size: str, what: str, t: rules.Tables, count: int = 1) -> None:
    """Spend an action of ``size`` in ``c``'s turn (table ``turn_actions``, assumed)."""
    used = _used(ctx.enc, c)
    if size in ("major", "minor"):
        why = action_block(ctx.enc, c, size, t, count)
        if why:
            raise RuleViolation("", why)
        used = {**used, size: used[size] + count}
    used = {**used, "what": used["what"] + [f"{size}: {what}"]}
    c.data["used"] = used


def take_fatigue(ctx: Context, c: Combatant, points: int, why: str) -> None:
    """Fatigue taken during the battle (Post-Combat Fatigue & Trauma: "Many Abilities used in combat have fatigue
    costs, and these always inflict their fatigue immediately upon use"; Flight: flight costs). Kept apart from the
    post-combat fatigue the end of the battle proposes."""
    c.data["fatigue"] = int(c.data.get("fatigue", 0)) + points
    ctx.event("fatigue", f"{c.name} takes {points} fatigue ({why}); {c.data['fatigue']} this battle", id=c.id,
              points=points)


def pay_flight_cost(ctx: Context, c: Combatant, why: str) -> None:
    """Flight: "All normal flight costs must be paid at the beginning of the movement phase." Once a round."""
    cost, parts = rules.flight_cost(c)
    if not cost or c.data.get("flight_paid") == ctx.enc.round:
        return
    c.data["flight_paid"] = ctx.enc.round
    take_fatigue(ctx, c, cost, f"flight cost {why}: " + ", ".join(f"{r} {n}" for r, n in parts))
