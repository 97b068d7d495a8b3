"""The forms of the round's phases, above the cards: the declarations (Declaration phase), the
attack (the attack phases) with the range bands from the map, the results awaiting the GM's table,
and the box that says what is still open when Next stops (issue 32).

Built with ``fray.web.html``: every name, weapon and table text is escaped where it meets markup."""

from __future__ import annotations

from typing import Any

from fray.web import odds_view
from fray.web.html import Markup, block, fragment, h, html
from fray.web.widgets import as_int, names_in as _names
from fray.games.tactical_round.web.ui import TacticalRoundUi

from .common import (ATTACK_KINDS, BY_NEXT, DECLARE_ROWS, FLAGS, FOLD_DECLARATIONS_FROM, PENDING_SHOWN, _btn, _check,
                     _dead, _err, _field, _general_err, _input, _out_of_action, _select, fold_open, fold_summary)

# where a fold-out made by ``fold_open`` ends
_END_FOLD = html("</details>")


# -- what is still open when Next stops ---------------------------------------------------------------

def criticals_waiting(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The criticals still waiting for the GM's effects: the page's Next stops at them too
    (``actions.leave_pending``)."""
    return [p for p in view.get("pending", []) if p.get("stage") == "critical"]


def results_waiting(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The attacks rolled whose result from the attack table is not entered: the page's Next stops at
    them too (``actions.leave_pending``)."""
    return [p for p in view.get("pending", []) if p.get("stage") == "attack"]


def still_open(view: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """What the page's Next would stop at: the open declared actions of this phase of the living
    (combatant, index, declaration), and, in the Declaration phase, who standing has not declared."""
    phase = view["phase"]["id"]
    if phase == "declaration":
        return [], [c for c in view.get("combatants", []) if not _out_of_action(c) and not c.get("has_declared")]
    out = []
    for c in view.get("combatants", []):
        if _out_of_action(c):
            continue
        for i, d in enumerate(c.get("declared", [])):
            # a move, a disengage, a reload, readying a thrown weapon: the page's Next resolves them by
            # itself (actions.leave_phase), so they are never "not resolved" and get no Skip it
            if not d.get("done") and d.get("phase") == phase and d.get("action") not in BY_NEXT:
                out.append({"c": c, "i": i, "d": d})
    return out, []


def open_html(view: dict[str, Any], ui: dict[str, Any]) -> Markup:
    """After a Next that stopped (``ui.asked`` is this round and phase): what is still open,
    each with Resolve and Skip it, and one button to go on (issue 32: "say what is still open
    ("Mira's Ranged attack is not resolved: Resolve / Skip it"), and log the GM's choice")."""
    if ui.asked != [view.get("round"), view["phase"]["id"]]:
        return fragment()
    actions, undeclared = still_open(view)
    crits = criticals_waiting(view)
    results = results_waiting(view)
    if not actions and not undeclared and not crits and not results:
        return fragment()
    names = _names(view)
    if (crits or results) and not undeclared:
        # what waits for the GM's tables first: the GM enters it here, or leaves it with the go-on button,
        # and the log says which; no "Leave it" of its own beside "Leave it and go on" (a GM's play-through:
        # two ways to leave one critical, the first leaving it without going on)
        items = []
        for p in results:
            what = (f'{_said(p["ref"])}, {names.get(p["attacker"], "someone gone")}\'s attack on '
                    f'{names.get(p["target"], "someone gone")},')
            items.append(html("<li><span>{} has no result:</span> {}</li>", what,
                              _btn("Enter it", "tr-show-critical", "primary", aria=f"Enter the result of {_said(p['ref'])}",
                                   ref=p["ref"])))
        for p in crits:
            what = f'{_said(p["ref"])}\'s critical {p.get("critical", "")} on {names.get(p["target"], "someone gone")}'
            items.append(html("<li><span>{} is not applied:</span> {}</li>", what,
                              _btn("Apply it", "tr-show-critical", "primary", aria=f"Apply {what}", ref=p["ref"])))
        rows = fragment(h("ul", {"class": "tr-open-list"}, items), _open_actions(actions))
        go = _btn("Leave it and go on" if len(crits) + len(results) == 1 and not actions else
                  "Leave them and go on" if not actions else "Skip all and go on", "tr-go-on", "secondary")
    elif undeclared:
        who = ", ".join(c["name"] for c in undeclared)
        rows = html("<p>Not declared yet: <strong>{}</strong>.</p>", who)
        go = _btn("Go on without them" if len(undeclared) > 1 else f"Go on without {undeclared[0]['name']}",
                  "tr-go-on", "secondary")
    else:
        rows = _open_actions(actions)
        go = _btn("Skip all and go on" if len(actions) > 1 else "Skip it and go on", "tr-go-on", "secondary")
    return html('<section class="tr-box tr-open tr-scope" id="tr-open" role="alert" aria-label="Still open">'
                '{}{}<div class="tr-actions">{}</div></section>', _general_err(), rows, go)


def _open_actions(actions: list[dict[str, Any]]) -> Markup:
    """The declared actions still open, one line each with Resolve / Skip it."""
    if not actions:
        return fragment()
    items = []
    for x in actions:
        c, i, d = x["c"], x["i"], x["d"]
        what = f'{c["name"]}\'s {d.get("title", d["action"])}'
        if d["action"] in ATTACK_KINDS:
            res = _btn("Resolve", "tr-quick-attack", "primary", aria=f"Resolve: {what}", id=c["id"],
                       weapon="" if d.get("weapon") is None else d["weapon"], target=d.get("target") or "")
        else:
            res = _btn("Resolve", "tr-resolve", "primary", aria=f"Resolve: {what}", id=c["id"])
        items.append(html("<li><span>{} is not resolved:</span> {}{}</li>", what, res,
                          _btn("Skip it", "tr-skip", "secondary", aria=f"Skip {what}", id=c["id"], index=i)))
    return h("ul", {"class": "tr-open-list"}, items)


# -- the declarations ---------------------------------------------------------------------------------

def declare_html(view: dict[str, Any], kinds: list[dict[str, Any]], ui: dict[str, Any] | None = None,
                 last: dict[str, list[dict[str, Any]]] | None = None,
                 left_out: dict[str, str] | None = None, reach: dict[str, str] | None = None) -> Markup:
    """The declaration forms. ``ui.decl_open``: the ids whose fold-out the page shows open
    now; ``ui.decl_drawn``: those whose form has been drawn (opened once this phase: shut
    again, it keeps what the GM chose in it). ``last``: each one's last declaration as far as the
    rules take it now (``rules.last_declarations``), what a form starts on until this round's is
    made; ``left_out``: what of it was left and why, said in the form; ``reach``: a declared melee
    attack out of reach with no Move (``rules.reach_warnings``), said under what is declared."""
    ui = ui or TacticalRoundUi()
    names = _names(view)
    forms = []
    declarers = [c for c in view.get("combatants", []) if not _out_of_action(c)]
    dead = {c["id"] for c in view.get("combatants", []) if _dead(c)}
    folded = len(declarers) >= FOLD_DECLARATIONS_FROM
    is_open = ui.decl_open
    drawn = ui.decl_drawn
    for c in declarers:
        cid = c["id"]
        decl = c.get("declared", [])
        if folded and cid not in drawn:
            forms.append(_decl_fold(c, decl, False, names, lazy=True))
            continue
        rows = []
        others = [("", "(no target)")] + [(k, v) for k, v in names.items() if k != cid and k not in dead]
        actions = [("", "(none)")] + [(k["key"], k["title"]) for k in kinds]
        before = [] if c.get("has_declared") else (last or {}).get(cid, [])
        start = decl or before
        for i in range(DECLARE_ROWS):
            d = start[i] if i < len(start) else {}
            weapons, weapon = decl_weapons(c, d.get("action", ""), d.get("weapon"))
            base = f"tr-{cid}-decl-{i}"
            rows.append(h(
                "fieldset", {"class": "tr-decl-row"}, html("<legend>Action {}</legend>", i + 1),
                _field(base + "-action", f"actions.{i}.action", "Action",
                       _select(base + "-action", f"actions.{i}.action", actions, d.get("action", ""))),
                _field(base + "-weapon", f"actions.{i}.weapon", "Weapon",
                       _select(base + "-weapon", f"actions.{i}.weapon", weapons, weapon)),
                _field(base + "-target", f"actions.{i}.target", "Target",
                       _select(base + "-target", f"actions.{i}.target", others, d.get("target") or ""))))
        said = fragment()
        if decl:
            said = h("ul", {"class": "tr-declared"}, (
                html("<li>{} · {} · {}{}</li>", declared_what(d, c, names), d["phase_title"], d["cost"],
                     " ✓" if d.get("done") else "")
                for d in decl))
            if c.get("full_and_half"):
                said += html('<p class="hint">Full + Half: −20 to the attack rolls</p>')
            if (reach or {}).get(cid):
                said += html('<p class="tr-decl-reach" role="note">{}</p>', reach[cid])
        elif before or (left_out or {}).get(cid):
            why = (left_out or {}).get(cid)
            said = html('<p class="hint tr-decl-last">As last round, {}. Change it, or Declare.</p>', why) if why \
                else html('<p class="hint tr-decl-last">As last round: change it, or Declare.</p>')
        form = html('<form class="tr-form tr-declare" data-form="tr-declare" data-id="{cid}" novalidate '
                    'aria-label="Declare for {name}">{head}{said}{err}'
                    '<input type="hidden" name="id" value="{cid}">{err_id}{err_actions}'
                    '<div class="tr-decl-rows">{rows}</div>{preview}'
                    '<button type="submit" class="primary">Declare for {name}</button></form>',
                    cid=cid, name=c["name"], head="" if folded else h("h3", None, c["name"]), said=said,
                    err=_general_err(), err_id=_err("id"), err_actions=_err("actions"), rows=fragment(rows),
                    preview=_decl_preview())
        forms.append(_decl_fold(c, decl, cid in is_open, names, body=form) if folded else form)
    if not forms:
        return fragment()
    # one child per form: a declaration rewrites its declarer's form only
    return block("details", {"class": "tr-box tr-declarations", "open": True},
                 html("<summary>Declarations</summary>"),
                 html('<p class="hint">At most one Full and one Half action (or two Half). '
                      'Each action lands in its phase.</p>'),
                 block("div", {"class": "tr-decl-forms tr-decl-folded" if folded else "tr-decl-forms"}, forms))


def decl_weapons(c: dict[str, Any], kind: str, chosen: Any) -> tuple[list[tuple[str, str]], str]:
    """A declaration row's Weapon choices for its Action (``rules.weapon_choices``: a Melee attack only
    what a melee attack is made with) and the one it starts on: the chosen one if it is among them,
    else the one the action takes (``rules.pick_weapon``), else none."""
    from fray.games.tactical_round import rules

    ws = c.get("weapons", [])
    ok, none_too = rules.weapon_choices(kind, ws)
    options = ([("", "(no weapon)")] if none_too else []) + [(str(ws[i]["index"]), ws[i]["name"]) for i in ok]
    if chosen is not None and chosen in ok:
        return options, str(chosen)
    held = next((i for i, w in enumerate(ws) if w.get("wielded")), 0)
    pick = None if none_too else rules.pick_weapon(kind, ws, held)
    return options, "" if pick is None else str(pick)


def _decl_preview() -> Markup:
    """Where a declaration form says, as the GM fills it in, what its rows would leave to know (filled
    by ``odds_view.refresh`` from ``declare_preview``), as range-band's attack form previews its question."""
    return h("div", {"class": "tr-decl-preview", "data-odds": True, "aria-live": "polite"})


def declared_rows(values: dict[str, Any]) -> tuple[list[int], list[dict[str, Any]]]:
    """A declaration form's chosen rows: (their row numbers, each as ``tr.declare`` takes it)."""
    rows: list[int] = []
    acts = []
    for i in range(DECLARE_ROWS):
        kind = values.get(f"actions.{i}.action") or ""
        if not kind:
            continue
        d: dict[str, Any] = {"action": kind}
        w = values.get(f"actions.{i}.weapon") or ""
        if w != "":
            d["weapon"] = as_int(w)
        t = values.get(f"actions.{i}.target") or ""
        if t:
            d["target"] = t
        rows.append(i)
        acts.append(d)
    return rows, acts


def declare_preview(enc: Any, tables: dict[str, Any], cid: str, values: dict[str, Any]) -> Markup:
    """The form's preview (Melee Attacks: "Melee attacks are made against opponents who are adjacent to the
    attacker or within the reach of their weapon"): a melee attack chosen on a foe out of reach with no
    Move is said while the GM can still add the Move (a GM's play-through saw it only after Declare).
    Once declared, the same word stands under the declaration (``declare_html``'s ``reach``): not twice."""
    from fray.games.tactical_round import rules

    said = rules.reach_warning(enc, tables, cid, declared_rows(values)[1])
    if not said or said == rules.reach_warnings(enc, tables).get(cid):
        return fragment()
    return html('<p class="tr-decl-reach" role="note">{}</p>', said)


def declared_what(d: dict[str, Any], c: dict[str, Any], names: dict[str, str]) -> str:
    """A declared action as the GM declared it: the action, with its weapon and its target ("Ranged
    attack with Short bow → Orc 2"; a GM's play-through read "Ranged attack · Ranged A · full")."""
    bits = [d["title"]]
    w = d.get("weapon")
    if w is not None:
        bits.append("with " + next((x["name"] for x in c.get("weapons", []) if x["index"] == w), f"weapon {w + 1}"))
    if d.get("target"):
        bits.append("→ " + names.get(d["target"], "someone no longer here"))
    return " ".join(bits)


def _decl_fold(c: dict[str, Any], decl: list[dict[str, Any]], open_: bool, names: dict[str, str],
               lazy: bool = False, body: Markup | None = None) -> Markup:
    """One folded declaration: its summary is the name and what is declared, so the GM reads the
    round at a glance and opens only the one to change; ``body``, the form. ``lazy``: drawn
    without its form; the page's toggle listener (App.on_toggle) renders when it opens."""
    cid = c["id"]
    said = "; ".join(f'{declared_what(d, c, names)} ({d["cost"]}){" ✓" if d.get("done") else ""}'
                     for d in decl) or "nothing declared"
    return fragment(fold_open("tr-decl-fold tr-lazy", f"decl-{cid}", open_, lazy, {"data-id": cid}),
                    fold_summary(html('<strong>{}</strong> <span class="hint">{}</span>', c["name"], said),
                                 f"fold-decl-{cid}", f'Declarations of {c["name"]}'),
                    body, _END_FOLD)


# -- the attack --------------------------------------------------------------------------------------

def attack_html(view: dict[str, Any], pre: dict[str, Any], open_: bool = True,
                ranges: dict[str, Any] | None = None, note: Any = "") -> Markup:
    combatants = view.get("combatants", [])
    living = [c for c in combatants if not _out_of_action(c)]
    attacker = pre.get("id") or (living[0]["id"] if living else "")
    who = [(c["id"], c["name"]) for c in living]  # the fallen attack nobody (issue 32)
    own = next((c for c in living if c["id"] == attacker), {})
    # the target: the declared one, downed or not, while not dead (the rules let the incapacitated
    # be struck: a GM's play-through saw Aldric's blow declared on Orc 1 land on Orc 3, without a
    # word); with none, the nearest living enemy on the map (``pre["nearest"]``, from
    # ``rules.default_target``), never an ally (issues 10 and 32)
    side = next((c.get("side") for c in combatants if c["id"] == attacker), None)
    others = [c for c in combatants if c["id"] != attacker]
    standing = {c["id"] for c in others if not _out_of_action(c) and c.get("side") != side}
    targets = target_options(view, attacker)
    target = pre.get("target") if pre.get("target") in {i for i, _ in targets} else ""
    target = target or pre.get("nearest") or next((c["id"] for c in others if c["id"] in standing), "")
    flags = fragment((_check(f"tr-att-{k}", k, label, bool(pre.get(k))) for k, label in FLAGS),
                     # what the map says, beside the box (a GM's fights: the box came unticked and its
                     # reason sat in the closed "Range bands from the map" list)
                     h("span", {"class": "tr-los"},
                       _check("tr-att-los", "line_of_sight", "Line of sight (ranged)",
                              bool(pre.get("line_of_sight", False))),
                       h("span", {"id": "tr-att-los-why", "class": "tr-los-why", "aria-live": "polite"},
                         pre.get("sight_why") or "")))
    weapon = "" if pre.get("weapon") in (None, "") else f'{attacker}:{pre.get("weapon")}'
    body = html(
        '<form class="tr-form tr-attack" data-form="tr-attack" novalidate aria-label="Attack">{err}'
        '<div class="tr-grid">{attacker}{weapon}{target}</div>{order}'
        '<fieldset class="tr-flags"><legend>Circumstances</legend>{flags}{err_los}</fieldset>'
        # the dice where the eye goes after the circumstances, the distance beside them (issue 33: the
        # range-band list pushed the dice field down, and the form ended 9 px above a laptop's bottom)
        '<div class="tr-grid tr-roll-row">{roll}{distance}</div>'
        # one button (issue 33: "two buttons "Attack" and "Roll and attack""): blank dice, Fray rolls
        '<div class="tr-actions odds-beside"><button type="submit" class="primary">Attack</button>'
        '{odds}</div>{ranges}</form>',
        err=_general_err(),
        attacker=_field("tr-att-id", "id", "Attacker", _select("tr-att-id", "id", who, attacker)),
        weapon=_field("tr-att-weapon", "weapon", "Weapon",
                      _select("tr-att-weapon", "weapon", weapon_options(own), weapon)),
        target=_field("tr-att-target", "target", "Target", _select("tr-att-target", "target", targets, target),
                      pre.get("target_note") or ""),
        order=order_note(pre.get("order_note") or ""),
        flags=flags, err_los=_err("line_of_sight"),
        roll=_field("tr-att-roll", "rolls.attack", "Open-ended d100",
                    _input("tr-att-roll", "rolls.attack", "", "text", "e.g. 98 40"),
                    "Every d100 rolled (98 40); blank: Fray rolls", "tr-roll"),
        distance=_field("tr-att-distance", "distance", "Distance (m)",
                        _input("tr-att-distance", "distance", "", "decimal"), "blank: from the map", "tr-distance"),
        odds=odds_view.slot(),  # a Block: markup
        ranges=ranges_html(ranges))
    # folded, it is the attack no one declared (``panel.undeclared_attack_html``), said on its fold
    return h("details", {"class": "tr-box tr-attack-box" + ("" if open_ else " tr-undeclared"), "open": open_},
             html("<summary>Attack</summary>") if open_ else html("<summary>Attack no one declared</summary>"),
             note, body)


def order_note(said: str) -> Markup:
    """Beside the Attacker, who strikes before him in the Melee phase (``order.strikes_first``); kept,
    hidden, when no one does, so another Attacker chosen can fill it in place."""
    return h("p", {"id": "tr-att-order", "class": "tr-decl-reach", "role": "note", "hidden": not said}, said)


def target_options(view: dict[str, Any], attacker: str) -> list[tuple[str, str]]:
    """The attack form's Target choices for ``attacker``: everyone but him and the dead (Combat
    Actions: an opponent; the incapacitated can still be struck), drawn again in place when the GM
    picks another Attacker (``TacticalPanel.attack_changed``: a GM's play-through saw the new
    attacker offered himself, which the engine then refused)."""
    return [(c["id"], c["name"]) for c in view.get("combatants", []) if c["id"] != attacker and not _dead(c)]


def weapon_options(c: dict[str, Any]) -> list[tuple[str, str]]:
    """The attack form's Weapon choices: "(the wielded one)", then the attacker's own weapons only (a
    GM's fights: every combatant's were listed, "Broadsword, Broadsword, Claw, ..."), drawn again in
    place when the GM picks another Attacker (``TacticalPanel.attack_changed``). A value names its
    owner, so a choice left from another attacker is refused by ``attack_action``, never used."""
    return [("", "(the wielded one)")] + [(f'{c["id"]}:{w["index"]}', f'{w["name"]} (CMB {w["cmb_now"]}, {w["state"]})')
                                           for w in c.get("weapons", [])]


def ranges_html(ranges: dict[str, Any] | None) -> Markup:
    if not ranges:
        return fragment()
    items = []
    for r in ranges["rows"]:
        bands = "; ".join(
            f'{b["weapon"]}: {b["label"]} ({b["modifier"]:+d})' if b["label"] else f'{b["weapon"]}: beyond 4× Base Range'
            for b in r["bands"])
        # "must have a clear Line of Sight": bodies on the line are put to the GM, never decided
        los = html(" — {} in the way: line of sight?", ", ".join(r["in_the_way"])) if r.get("in_the_way") else ""
        items.append(html("<li><strong>{}</strong> {:g} m — {}{}</li>", r["target"], r["metres"], bands, los))
    # folded, after the Attack button (issue 33: the list of eleven pushed the dice field below the
    # fold); the chosen target's band is in the odds already
    return html('<details class="tr-ranges"><summary>Range bands from the map, from {} ({})</summary>'
                "<ul>{}</ul></details>", ranges["attacker"], len(items), fragment(items))


# -- the results awaiting the GM's table ---------------------------------------------------------------

def pending_html(view: dict[str, Any], ui: dict[str, Any] | None = None) -> Markup:
    """The attacks awaiting the GM's table result. The first ``PENDING_SHOWN`` are shown whole;
    each further one is a one-line fold-out (who, whom, the total) whose form is drawn when it
    opens (``ui.pending_open``, ``ui.pending_drawn``, as for the declarations)."""
    pend = view.get("pending", [])
    if not pend:
        return fragment()
    ui = ui or TacticalRoundUi()
    names = _names(view)
    sev = view.get("severities", [])
    out = []
    # the criticals first: each waits for its effects, and past the first three a box is one folded
    # line (a GM's play-through missed one among the results)
    pend = [p for p in pend if p["stage"] == "critical"] + [p for p in pend if p["stage"] != "critical"]
    for i, p in enumerate(pend):
        if i >= PENDING_SHOWN:
            out.append(_pending_fold(p, names, ui, lambda p=p: _pending_article(p, names, sev)))
            continue
        out.append(_pending_article(p, names, sev))
    n = len(pend)
    title = "Awaiting the attack table" + (f" ({n})" if n > PENDING_SHOWN else "")
    # one child per result waiting: applying one removes its article, not all of them
    return block("section", {"class": "tr-box tr-pending-list", "aria-label": "Awaiting the GM"},
                 h("h3", None, title), out)


def _said(ref: str) -> str:
    """An attack's label as the screen says it: "Attack A1" (``ref_words``), not a bare "A1"."""
    from fray.games.tactical_round import TacticalRound
    from fray.web.render import ref_text

    return ref_text(ref, TacticalRound.ref_words)


def _pending_fold(p: dict[str, Any], names: dict[str, str], ui: dict[str, Any], article: Any) -> Markup:
    ref = p["ref"]
    drawn = ref in ui.pending_drawn
    total = f'total {p["total"]}' if p["stage"] == "attack" else f'critical {p.get("critical", "")}'
    line = html('{}: {} → {} <span class="hint">{}</span>', _said(ref), names.get(p["attacker"], p["attacker"]),
                names.get(p["target"], p["target"]), total)
    return fragment(fold_open("tr-pending-fold tr-lazy", f"pending-{ref}", ref in ui.pending_open,
                              not drawn),
                    fold_summary(line, f"fold-pending-{ref}"), article() if drawn else None, _END_FOLD)


def _pending_article(p: dict[str, Any], names: dict[str, str], sev: list[Any]) -> Markup:
    """One attack awaiting the GM: its total and breakdown, and the form for the table's result
    (or, once a critical is named, for its effects)."""
    ref = p["ref"]
    head = html("{}: {} → {} with {}", _said(ref), names.get(p["attacker"], p["attacker"]),
                names.get(p["target"], p["target"]), p["weapon"])
    notes = h("ul", {"class": "tr-notes"}, [h("li", None, n) for n in p["notes"]]) if p.get("notes") else ""
    fid = f"tr-{ref}"
    dismiss = _btn("Dismiss", "tr-dismiss", "secondary", aria=f"Dismiss {ref}", ref=ref)
    if p["stage"] == "attack":
        crit_opts = [("", "none")] + [(s, s) for s in sev]
        form = html(
            '<form class="tr-form" data-form="tr-result" data-ref="{ref}" novalidate aria-label="Result of {ref}">'
            '{err}<input type="hidden" name="ref" value="{ref}">{err_ref}<div class="tr-grid">{hits}{crit}{croll}'
            '</div><div class="tr-actions"><button type="submit" class="primary">Apply result</button>{dismiss}'
            "</div></form>",
            ref=ref, err=_general_err(), err_ref=_err("ref"),
            hits=_field(fid + "-hits", "hits", "Hits", _input(fid + "-hits", "hits", "0")),
            crit=_field(fid + "-crit", "critical", "Critical", _select(fid + "-crit", "critical", crit_opts, "")),
            croll=_field(fid + "-croll", "rolls.critical", "Critical d100",
                         _input(fid + "-croll", "rolls.critical", "", "text"), "blank: Fray rolls"),
            dismiss=dismiss)
        return html(
            '<article class="tr-pending" data-ref="{ref}" aria-label="Attack {ref}"><h4>{head}</h4>'
            '<p class="tr-total">Total <strong class="tr-total-value">{total}</strong></p>'
            '<p class="tr-breakdown">{text}</p>{notes}{form}</article>',
            ref=ref, head=head, total=p["total"], text=p["text"], notes=notes, form=form)
    form = html(
        '<form class="tr-form" data-form="tr-critical" data-ref="{ref}" novalidate '
        'aria-label="Critical effects of {ref}">{err}<input type="hidden" name="ref" value="{ref}">{err_ref}'
        '<div class="tr-grid">{hits}{stun}{dies}</div>{prone}{kills}{text}'
        '<div class="tr-actions"><button type="submit" class="primary">Apply critical</button>{dismiss}</div></form>',
        ref=ref, err=_general_err(), err_ref=_err("ref"),
        hits=_field(fid + "-chits", "hits", "Extra hits", _input(fid + "-chits", "hits", "0")),
        stun=_field(fid + "-stun", "stunned_rounds", "Stunned rounds", _input(fid + "-stun", "stunned_rounds", "0")),
        dies=_field(fid + "-dies", "dies_in", "Dies in (rounds)", _input(fid + "-dies", "dies_in", "0"),
                    "1: at the end of this round; 0: not from this wound"),
        prone=_check(fid + "-prone", "prone", "Knocked prone"),
        kills=_check(fid + "-kills", "kills", "Kills outright"),
        text=_field(fid + "-text", "text", "Effect (text)", _input(fid + "-text", "text", "", "text")),
        dismiss=dismiss)
    return html(
        '<article class="tr-pending critical" data-ref="{ref}" aria-label="Critical {ref}">'
        "<h4>{head}: critical {critical}</h4>"
        '<p class="tr-total">Critical roll <strong class="tr-total-value">{roll}</strong></p>'
        '<p class="tr-breakdown">{text}</p>{form}</article>',
        ref=ref, head=head, critical=p.get("critical", ""), roll=p.get("critical_roll", ""),
        text=p.get("critical_text", ""), form=form)
