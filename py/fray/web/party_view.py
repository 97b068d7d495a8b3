"""The party in the page (issue 35): the "Party" dialog over ``fray.party``.

Its characters of this game with what each carries; Keep (a combatant of this fight becomes a
character, as the fight left it); Add the party (``join_party``: one action of the encounter, one
undo); End the fight (the carry-over shown, changed by the GM, written back as one step); Time
passes (a period, and per character rested or not and the healer's Treatment result); Undo of the
last party step; Export and Import of the campaign file. Each party step is kept in the browser
as one write (``Library.save_campaign``), refused when another tab kept the party since.

The HTML and the reading of its forms are pure (tested in CPython); ``on_act`` is the only part
that calls the page."""

from __future__ import annotations

from typing import Any

from ..errors import FrayError, InvalidAction
from ..party import campaign, carry, character, healing
from ..party.games import game, page_part
from ..party.steps import Steps, settle
from .html import Markup, fragment, h, html
from .render import button

TREATMENT_WORDS = {"none": "No healer", "failure": "Treatment failed", "success": "Treatment: success",
                   "special": "Treatment: special success", "critical": "Treatment: critical success"}


_button = button  # render.button: Markup, its label and every attribute escaped


# -- what a character carries, in words ---------------------------------------------------------

def summary(ch: dict[str, Any]) -> str:
    if ch.get("dead"):
        return "dead"
    g = game(ch["ruleset"])
    return g.summary(ch) if g is not None else ""


# -- the dialog ---------------------------------------------------------------------------------

def make_html(presets: list[dict[str, Any]], templates: list[dict[str, Any]], game_name: str) -> Markup:
    """A character from a ready-made combatant of this game or one of the GM's bestiary templates of
    it: the add form's Ready-made list, and one tap."""
    if not presets and not templates:
        return Markup("")
    opts = Markup("").join(h("option", {"value": i}, p.get("name", "?")) for i, p in enumerate(presets))
    if presets and templates:
        opts = h("optgroup", {"label": game_name}, opts)
    if templates:
        opts += h("optgroup", {"label": "My bestiary"},
                  (h("option", {"value": f"b{i}"}, t["combatant"].get("name", "?")) for i, t in enumerate(templates)))
    return html('<div class="party-make" data-field="template"><label>New character from '
                '<select name="template">{}</select></label> {}'
                '<p class="field-error" data-error-for="template"></p></div>', opts,
                _button("Make the character", "party-make", "small secondary"))


def template_for(value: str, presets: list[dict[str, Any]], templates: list[dict[str, Any]], ruleset: str) -> dict[str, Any]:
    """The template the Make list's ``value`` names (``3``: a ready-made one, ``b3``: the GM's)."""
    try:
        mine, k = value.startswith("b"), int(value.removeprefix("b"))
    except (AttributeError, ValueError):
        raise InvalidAction("template", "choose a ready-made combatant or a template of your bestiary") from None
    pool = templates if mine else [{"ruleset": ruleset, "combatant": p} for p in presets]
    if not 0 <= k < len(pool):
        raise InvalidAction("template", "that template is no longer in the list: choose another")
    return pool[k]


def _party_row(ch: dict[str, Any], joins: bool, fighting: bool) -> Markup:
    name = character.name_of(ch)
    who = (html('<label class="party-pick"><input type="checkbox" name="join.{id}" checked '
                'aria-label="{name} joins this fight"> <span class="who">{name}</span></label> ', id=ch["id"], name=name)
           if joins else html('<span class="who">{}</span> ', name))
    return html('<li data-character="{}">{}<span class="hint">{}</span>{} {}{}</li>', ch["id"], who, summary(ch),
                html(" <em>in this fight</em>") if fighting else "",
                _button("Change…", "party-change", "small secondary", title="Change what " + name + " carries",
                        character=ch["id"]),
                _button("Remove", "party-remove", "small danger", title="Remove " + name + " from the party",
                        character=ch["id"]))


def party_html(camp: dict[str, Any], enc: Any, note: str = "", undo: str = "", key: str = "", make: Markup | str = ""
               ) -> Markup:
    """The party dialog; ``make``: ``make_html``'s list (a plain string is text, escaped)."""
    mine = campaign.of_ruleset(camp, enc.ruleset)
    ended = any(e["id"] == key for e in camp["encounters"])
    in_fight = set() if ended else {c.data["party"]["character"] for c in carry.linked(enc)}
    linked = {c.data["party"]["character"] for c in carry.linked(enc)}
    joinable = [ch for ch in mine if not ch.get("dead") and ch["id"] not in linked]
    can_join = {ch["id"] for ch in joinable}
    listed = (h("ul", {"class": "party-list"}, (_party_row(ch, ch["id"] in can_join, ch["id"] in in_fight) for ch in mine))
              if mine else html("<p>No characters for this game yet. Keep a combatant of this fight as a character below.</p>"))
    # a combatant kept once is not offered again; another of the same name (two wolves "Wolf") still is.
    # A character made from a template (or kept before characters remembered whence) names no
    # combatant: a combatant of its name is taken to be it, as before
    kept = character.kept_here(camp["characters"], key) if key else set()
    names = {character.name_of(ch) for ch in mine if not isinstance(ch.get("kept_from"), dict)}
    keep = [c for c in enc.peek() if not isinstance(c.data.get("party"), dict) and c.id not in kept
            and c.name not in names]
    keeps = [_button(f"Keep {c.name}", "party-keep", "small secondary", id=c.id) for c in keep]
    actions = [_button("Add the party to this fight", "party-join") if joinable else None,
               _button("End the fight…", "party-end", "secondary") if in_fight else None,
               _button("Time passes…", "party-time", "secondary") if mine else None,
               _button(f"Undo: {undo}", "party-undo", "secondary") if undo else None,
               _button("Export the party", "party-export", "secondary") if camp["characters"] else None]
    return html('<div class="party"><h2 id="dlg-title">The party</h2>'
                '<p class="hint">Characters are kept in this browser, beside the encounters. Each fight they join '
                'writes back what it left on them when you end it.</p>'
                '<p class="status-note" role="status">{note}</p>{ticked}{listed}{ended}'
                '<p class="field-error" data-error-for="characters"></p>{keeps}{make}'
                '<div class="dlg-actions">{actions}<label class="button secondary" id="party-import-label">Import a party'
                '<input type="file" id="party-import" accept=".json,application/json" class="visually-hidden"></label>'
                '{close}</div><p id="party-error" class="field-error" role="alert" data-error-for="party"></p></div>',
                note=note,
                ticked=html('<p class="hint">The ticked characters join this fight, in formation on free ground.</p>')
                if joinable else "", listed=listed,
                ended=html('<p class="hint">This fight\'s end is written to the party.</p>') if ended else "",
                keeps=h("p", {"class": "party-keep"}, keeps) if keeps else "", make=make,
                actions=Markup("").join(actions), close=_button("Close", "close-dialog", "secondary"))


def fields_html(k: str, ruleset: str, got: dict[str, Any], c: Any, name: str) -> Markup:
    """The fields of what character ``k`` carries (``got``), over ``c``, the combatant it is or would
    be: the game's own (``fray.party.games``)."""
    part = page_part(ruleset)
    # the game's page part returns Markup built with fray.web.html (each game's web/party.py); a plain
    # str from it would be text, escaped
    return fragment(part.fields_html(k, got, c, name)) if part is not None else Markup("")


def _fieldset(k: str, name: str, fields: Markup, dead: bool, notes: list[str], err: str) -> Markup:
    return html('<fieldset data-field="{err}" data-character="{k}"><legend>{name}</legend>'
                '{fields}<label><input type="checkbox" name="{k}.dead"{checked}> Dead</label>{notes}'
                '<p class="field-error" data-error-for="{err}"></p></fieldset>', err=err, k=k, name=name, fields=fields,
                checked=html(" checked") if dead else "", notes=Markup("").join(h("p", {"class": "hint"}, n) for n in notes))


def end_html(enc: Any) -> Markup:
    """"End the fight": per linked combatant, what will carry, in fields the GM can change."""
    parts = [_fieldset(p["character"], p["name"],
                       fields_html(p["character"], enc.ruleset, p["carried"], enc.peek_at(p["combatant"]), p["name"]),
                       p["dead"], p["notes"], f"carry.{p['character']}")
             for p in carry.proposals(enc)]
    return html('<form class="party-end"><h2 id="dlg-title">End the fight</h2>'
                '<p class="hint">What each character carries out of this fight. Change anything before writing it back.</p>'
                '{}<div class="dlg-actions">{}{}</div></form>', Markup("").join(parts),
                _button("Write back to the party", "party-end-save"), _button("Back", "party", "secondary"))


def change_html(ch: dict[str, Any]) -> Markup:
    """The GM's own values for what one character carries (where the rules give no recovery, or to
    correct anything)."""
    _, c = character.standing(ch)
    name = character.name_of(ch)
    note = getattr(game(ch["ruleset"]), "NO_RECOVERY", "")
    return html('<form class="party-change" data-character="{}"><h2 id="dlg-title">What {} carries</h2>'
                '{}<div class="dlg-actions">{}{}</div></form>', ch["id"], name,
                _fieldset(ch["id"], name, fields_html(ch["id"], ch["ruleset"], ch.get("carried", {}), c, name),
                          bool(ch.get("dead")), [note] if note else [], "character"),
                _button("Keep these values", "party-change-save", character=ch["id"]), _button("Back", "party", "secondary"))


def _whole(raw: Any, field: str, what: str) -> int:
    try:
        return int(str(raw).strip().replace("−", "-"))
    except ValueError:
        raise InvalidAction(field, f"{what} must be a whole number") from None


def read_fields(values: dict[str, Any], k: str, ruleset: str, got: dict[str, Any], c: Any, f: str) -> dict[str, Any]:
    """What character ``k`` carries, read from ``fields_html``'s fields over ``got`` (what the form
    does not show, as weapon HP and stuck weapons, stays as it was)."""
    part = page_part(ruleset)
    return part.read_fields(values, k, got, c, f) if part is not None else dict(got)


def read_end(values: dict[str, Any], enc: Any, key: str) -> dict[str, Any]:
    """The ``end_fight`` step from the form: each proposal with what the GM typed over it."""
    changes = {p["character"]: {"carried": read_fields(values, p["character"], enc.ruleset, p["carried"],
                                                       enc.peek_at(p["combatant"]), f"carry.{p['character']}"),
                                "dead": bool(values.get(f"{p['character']}.dead"))}
               for p in carry.proposals(enc)}
    return settle(enc, key, changes)


def read_change(values: dict[str, Any], ch: dict[str, Any]) -> dict[str, Any]:
    """The ``set_carried`` step from the change form."""
    _, c = character.standing(ch)
    return {"type": "set_carried", "id": ch["id"],
            "carried": read_fields(values, ch["id"], ch["ruleset"], ch.get("carried", {}), c, "character"),
            "dead": bool(values.get(f"{ch['id']}.dead"))}


def time_html(camp: dict[str, Any], ruleset: str) -> Markup:
    living = [ch for ch in campaign.of_ruleset(camp, ruleset) if not ch.get("dead")]
    treatments = Markup("").join(h("option", {"value": v}, w) for v, w in TREATMENT_WORDS.items())
    rows = [html('<tr data-character="{id}"><th scope="row">{name}</th>'
                 '<td><label><input type="checkbox" name="rest.{id}" checked> rested</label></td>'
                 '<td><select name="treat.{id}" aria-label="{name}: Treatment">{opts}</select></td></tr>',
                 id=ch["id"], name=character.name_of(ch), opts=treatments) for ch in living]
    periods = Markup("").join(h("option", {"value": p}, healing.PERIOD_WORDS[p]) for p in healing.PERIODS)
    return html('<form class="party-time"><h2 id="dlg-title">Time passes</h2>'
                '<div data-field="period"><label>How long <select name="period">{}</select></label>'
                '<p class="field-error" data-error-for="period"></p></div>'
                '<p class="hint">A character who did not rest (travel on foot, heavy labour, any fighting) does not heal.</p>'
                '<table class="party-rest"><tbody>{}</tbody></table>'
                '<p class="field-error" data-error-for="who"></p>'
                '<div class="dlg-actions">{}{}</div></form>', periods, Markup("").join(rows),
                _button("Let the time pass", "party-time-save"), _button("Back", "party", "secondary"))


def read_time(values: dict[str, Any], camp: dict[str, Any], ruleset: str) -> dict[str, Any]:
    who = {ch["id"]: {"rested": bool(values.get(f"rest.{ch['id']}")), "treatment": values.get(f"treat.{ch['id']}", "none")}
           for ch in campaign.of_ruleset(camp, ruleset) if not ch.get("dead")}
    return {"type": "time_passes", "period": values.get("period"), "who": who}


def read_party_file(text: str) -> dict[str, Any]:
    """``campaign.loads`` for the page: what is wrong said in the GM's words, naming the character
    (never the file's inner path)."""
    import re

    try:
        return campaign.loads(text)
    except InvalidAction as e:
        m = re.match(r"^characters\.\d+ \((.*)\)", e.field)
        who = m.group(1) if m else ("the file" if e.field in ("file", "format", "version") else "")
        raise FrayError(f"{who}: {e.message}" if who and who != "the file" else e.message) from None


def join_chosen(camp: dict[str, Any], enc: Any, ticks: dict[str, bool]) -> dict[str, Any]:
    """The ``join_party`` action for the characters ticked in the dialog (``{"join.<id>": ticked}``),
    placed as one formation on free ground (``fray.placing``: away from everyone on the map, the
    party to the west of the others), not on the foes."""
    from .. import placing

    ids = [name.removeprefix("join.") for name, on in ticks.items() if on and name.startswith("join.")]
    if not ids:
        raise InvalidAction("characters", "tick at least one character to add to this fight")
    chosen = [campaign.character(camp, i) for i in ids]
    side = chosen[0]["sheet"].get("side", "party")
    spot = placing.free_spot(enc, side if isinstance(side, str) else "party", len(ids))
    return campaign.join_action(camp, enc.ruleset, ids, {"x": spot.x, "y": spot.y, "alt": spot.alt})


# -- the page -----------------------------------------------------------------------------------

STEP_WORDS = {"add_character": "keep a character", "remove_character": "remove a character",
              "set_carried": "set what a character carries", "end_fight": "end the fight",
              "time_passes": "time passes", "import": "import a party"}


async def load(app: Any) -> None:
    app.party = Steps()
    app.party_rev = 0
    try:
        app.party.present, app.party_rev = await app.lib.campaign()
    except Exception as e:  # kept untouched: only a party step writes over it
        app.party_rev = -1
        app.banner(f"The party could not be read ({e}); it is kept as it was until you change the party.")


def _undo_word(app: Any) -> str:
    return STEP_WORDS.get(app.party.done[-1][1].get("type"), "") if app.party.done else ""


def open_party(app: Any, note: str = "") -> None:
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

    from .dom import by_id

    app.open_dialog(party_html(app.party.present, app.enc, note, _undo_word(app), app.key,
                               make_html(app.ruleset.presets(), app.my_templates(), app.ruleset.name)))
    inp = by_id("party-import")
    if inp is not None:
        if getattr(app, "_party_proxy", None) is None:
            app._party_proxy = create_proxy(lambda ev: app.in_background(_import(app, ev)))
        inp.addEventListener("change", app._party_proxy)


async def _keep(app: Any, before: dict[str, Any], note: str) -> None:
    """One write of the party as it is now; if another tab kept one since, this tab takes the kept
    one instead and says so (nothing is overwritten)."""
    rev = app.party_rev
    new_rev = await app.lib.save_campaign(app.party.present, rev)
    if new_rev is None:
        await load(app)
        open_party(app, "Another tab changed the party since: this change was not kept. Here is the party as kept now.")
        return
    app.party_rev = new_rev
    open_party(app, note)


def at_character(field: str, kid: str = "") -> str:
    """Where a value a character carries is said wrong, in the engine's own words ("Shield HP must
    be from 0 to 12, not 20"): a weapon's HP at its own field (``<character>.weapon.<id>``, as the
    form names it), anything else at its character's part of the form. ``kid``: the character
    a Change form is about (its paths begin "character")."""
    import re

    m = re.match(r"^(character|carry\.([^.]+))\.carried\.weapons\.([^.]+)$", field)
    if m and (m.group(2) or kid):
        return f"{m.group(2) or kid}.weapon.{m.group(3)}"
    m = re.match(r"^(character|carry\.[^.]+)\.", field)
    return m.group(1) if m else field


def _save(app: Any, el: Any, read: Any) -> None:
    """A dialog's save button: its form read into a party step (``read``), refused at the form in the
    GM's words with nothing changed, else applied and kept (``step``)."""
    from .dom import nil
    from .forms import form_values

    form = nil(el.closest("form"))
    try:
        s = read(form_values(form))
    except FrayError as e:
        app.clear_errors(form)
        app.show_error(form, e)
        return
    step(app, s, form)


def step(app: Any, s: dict[str, Any], scope: Any, note: str | None = None) -> bool:
    before = app.party.present
    app.clear_errors(scope)
    try:
        said = app.party.apply(s)
    except FrayError as e:
        if isinstance(e, InvalidAction) and not getattr(e, "errors", None):
            e = InvalidAction(at_character(e.field, str(s.get("id", ""))), e.message)
        app.show_error(scope, e)
        return False
    lines = [x for x in said if not x.endswith("has no healing rules: nothing changes")]
    app.in_background(_keep(app, before, note if note is not None else ". ".join(lines)))
    return True


async def _import(app: Any, event: Any) -> None:
    from .dom import by_id
    from .library_dialogs import read_picked

    incoming = await read_picked(event.target, by_id("party-error"), read_party_file, "The party is unchanged.")
    if incoming is None:
        return
    name = event.target.files.item(0).name
    before = app.party.present
    app.party.done.append((before, {"type": "import"}))
    app.party.present = incoming
    app.party.undone = []
    await _keep(app, before, f"Imported {name}: {len(incoming['characters'])} character"
                             f"{'s' if len(incoming['characters']) != 1 else ''}.")


ACTS = ("party", "party-keep", "party-make", "party-remove", "party-join", "party-end", "party-end-save",
        "party-change", "party-change-save", "party-time", "party-time-save", "party-undo",
        "party-export")  # routed here (web/routes.py)


def on_act(app: Any, act: str, el: Any) -> bool:
    if not act.startswith("party"):
        return False
    if getattr(app, "party", None) is None:  # the boot did not get as far as reading the party
        app.party, app.party_rev = Steps(), 0
    from .dom import by_id, data, download, nil
    from .forms import form_values

    camp = app.party.present
    if act == "party":
        open_party(app)
    elif act == "party-keep":
        c = app.enc.get(data(el, "id"))
        if c is not None:
            try:
                ch = character.from_combatant(app.enc, c, campaign.next_id(camp), app.key)
            except FrayError as e:
                why = e.message if isinstance(e, InvalidAction) else str(e)
                app.show_error(by_id("dlg-body"), InvalidAction("characters", f"{c.name} cannot be kept: {why}"))
                return True
            step(app, {"type": "add_character", "character": ch}, by_id("dlg-body"), f"{c.name} is kept in the party.")
    elif act == "party-make":
        body = by_id("dlg-body")
        sel = body.querySelector('select[name="template"]')
        app.clear_errors(body)
        try:
            t = template_for(str(sel.value) if sel is not None else "", app.ruleset.presets(), app.my_templates(),
                             app.enc.ruleset)
            ch = character.from_template(t, campaign.next_id(camp))
        except FrayError as e:
            app.show_error(body, InvalidAction("template", e.message if isinstance(e, InvalidAction) else str(e)))
            return True
        step(app, {"type": "add_character", "character": ch}, body, f"{character.name_of(ch)} is kept in the party.")
    elif act == "party-remove":
        step(app, {"type": "remove_character", "id": data(el, "character")}, by_id("dlg-body"))
    elif act == "party-join":
        ticks = {b.name: bool(b.checked) for b in by_id("dlg-body").querySelectorAll('input[name^="join."]')}
        try:
            action = join_chosen(camp, app.enc, ticks)
        except FrayError as e:
            app.show_error(by_id("dlg-body"), e)
            return True
        if app.dispatch(action, by_id("dlg-body"), lambda f: "characters"):
            app.close_dialog()
    elif act == "party-end":
        app.open_dialog(end_html(app.enc))
    elif act == "party-end-save":
        _save(app, el, lambda values: read_end(values, app.enc, app.key))
    elif act == "party-change":
        try:
            ch = campaign.character(camp, data(el, "character"))
        except FrayError as e:
            app.show_error(by_id("dlg-body"), e)
            return True
        app.open_dialog(change_html(ch))
    elif act == "party-change-save":
        _save(app, el, lambda values: read_change(values, campaign.character(camp, data(el, "character"))))
    elif act == "party-time":
        app.open_dialog(time_html(camp, app.enc.ruleset))
    elif act == "party-time-save":
        _save(app, el, lambda values: read_time(values, camp, app.enc.ruleset))
    elif act == "party-undo":
        before = app.party.present
        word = _undo_word(app)
        if app.party.undo():
            app.party.undone = []  # a redo of a party step is done again by hand
            app.in_background(_keep(app, before, f"Undid: {word}."))
    elif act == "party-export":
        download("fray-party.json", campaign.dumps(camp))
    else:
        return False
    return True
