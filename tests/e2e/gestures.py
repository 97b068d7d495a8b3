"""What a GM does in the page, as functions the end-to-end tests share.

A plain module (not conftest): ``from conftest import ...`` would resolve to whichever conftest
pytest imported first, while ``import gestures`` always finds this file (pytest puts the test
folder on sys.path).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from playwright.sync_api import expect

_PY = str(Path(__file__).resolve().parents[2] / "py")
if _PY not in sys.path:
    sys.path.insert(0, _PY)
from fray import savefile  # noqa: E402
from fray.errors import SaveFileError  # noqa: E402
from fray.web.store import Library, MemoryBackend  # noqa: E402

READY_SELECTOR = 'html[data-engine="ready"]'
READY_TIMEOUT_MS = int(os.environ.get("FRAY_READY_TIMEOUT_MS", "90000"))


def wait_ready(page) -> None:
    page.wait_for_selector(READY_SELECTOR, state="attached", timeout=READY_TIMEOUT_MS)


def reload(page) -> None:
    page.reload()
    wait_ready(page)


def new_freeform(page, name: str) -> None:
    """Create a Free-form encounter through the New dialog and wait until it is shown."""
    new_encounter(page, name, "freeform", "Free-form")
    expect(page.locator("#encounter-select option:checked")).to_have_text(name)
    expect(page.locator("#combatants .card")).to_have_count(0)


def open_add_dialog(page):
    page.locator("#round-bar").get_by_role("button", name="Add combatant").click()
    dlg = page.locator("#dlg")
    expect(dlg).to_be_visible()
    expect(dlg.locator("form[data-form=add-combatant]")).to_be_visible()
    return dlg


def add_combatant(page, name: str, stats: str = "initiative: 10", side: str | None = None) -> None:
    """Add a free-form combatant through the dialog and wait for its card."""
    before = page.locator("#combatants .card").count()
    dlg = open_add_dialog(page)
    dlg.locator('[name="combatant.name"]').fill(name)
    if side:
        dlg.locator('[name="combatant.side"]').select_option(side)
    dlg.locator('[name="combatant.stats"]').fill(stats)
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    expect(page.locator("#combatants .card")).to_have_count(before + 1)


def card(page, name: str, open_: bool = True):
    """The combatant's card, opened first if it is folded (a GM taps its name), so its controls
    can be used; ``open_=False`` leaves it as it is."""
    loc = page.locator("#combatants article.card",
                       has=page.locator("h3.name", has_text=re.compile("^" + re.escape(name) + "$")))
    if open_ and loc.count() == 1 and loc.get_attribute("data-open") == "false":
        loc.locator(".card-toggle").click()
        expect(loc).to_have_attribute("data-open", "true")
    return loc


def first_card(page):
    """The first combatant card, opened if it is folded (only the acting one is open)."""
    loc = page.locator("#combatants article.card").first
    if loc.get_attribute("data-open") == "false":
        loc.locator(".card-toggle").click()
        expect(loc).to_have_attribute("data-open", "true")
    return loc


# The cards' markup without which of them are folded: that is the page's view state (the acting
# card open, the GM opens others; a reload starts afresh), not the encounter.
CARDS_UNFOLDED = """(() => {
    const copy = document.getElementById('combatants').cloneNode(true);
    for (const el of copy.querySelectorAll('article.card')) { el.classList.remove('folded'); el.removeAttribute('data-open'); }
    for (const el of copy.querySelectorAll('.card-body')) el.removeAttribute('hidden');
    for (const el of copy.querySelectorAll('[aria-expanded]')) el.removeAttribute('aria-expanded');
    return copy.innerHTML;
})()"""


def open_all_cards(page) -> None:
    """A folded card's body is not in the page (render.combatant_card): "Open all cards" (page view
    state) puts every body there, so two snapshots compare whole cards whichever the GM had open.
    Behind an open dialog the cards stay as they are (a dialog's error must not touch them)."""
    tool = page.locator("#cards-tools [data-act=cards-open-all]")
    if tool.count() and not page.locator("dialog[open]").count():
        tool.click()
        expect(page.locator("#combatants article.card[data-open=false]")).to_have_count(0)


def snapshot(page) -> dict:
    """Everything the page shows of the encounter, plus the undo/redo buttons and the list."""
    open_all_cards(page)
    return page.evaluate("""() => ({
        round: document.getElementById('round-bar').innerHTML,
        panel: document.getElementById('ruleset-panel').innerHTML,
        cards: """ + CARDS_UNFOLDED + """,
        log: document.getElementById('log').innerHTML,
        badge: document.getElementById('ruleset-badge').textContent,
        select: [...document.querySelectorAll('#encounter-select option')].map(o => [o.value, o.text, o.selected]),
        canUndo: !document.getElementById('btn-undo').disabled,
        canRedo: !document.getElementById('btn-redo').disabled,
    })""")


# The page's IndexedDB (static/store.js): read or written from the test, as another program
# on the machine would. Only once the page has booted (opening it first would create an empty
# database without the page's stores).
_IDB = """async ([op, store, key, value]) => {
    const db = await new Promise((ok, ko) => {
        const r = indexedDB.open('fray'); r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
    try {
        const t = db.transaction([store], op === 'read' ? 'readonly' : 'readwrite');
        const s = t.objectStore(store);
        const done = new Promise((ok, ko) => { t.oncomplete = ok; t.onerror = () => ko(t.error); });
        let out = null;
        if (op === 'read') {
            const keys = await new Promise(ok => { const r = s.getAllKeys(); r.onsuccess = () => ok(r.result); });
            const values = await new Promise(ok => { const r = s.getAll(); r.onsuccess = () => ok(r.result); });
            out = keys.map((k, i) => [k, values[i]]);
        } else if (op === 'put') {
            if (s.keyPath === null) s.put(value, key); else s.put(value);
        } else if (op === 'delete') {
            s.delete(key);
        } else if (op === 'clear') {
            s.clear();
        }
        await done;
        return out;
    } finally { db.close(); }
}"""


def store_read(page, store: str) -> dict:
    """Every record of one object store of the page's database, by key (a ``journal`` row's
    key [key, rev] as a tuple)."""
    return {tuple(k) if isinstance(k, list) else k: v for k, v in page.evaluate(_IDB, ["read", store, None, None])}


def _finish(coro):
    """Run a coroutine that never waits (``Library`` over ``MemoryBackend``) to its end: Playwright's
    sync API holds an event loop of its own, so ``asyncio.run`` is not allowed here."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError("the library waited on something: not a MemoryBackend")


def journal_rows(page, key: str) -> list[dict]:
    """The journal rows stored after ``key``'s save, in order (static/store.js)."""
    return [row for (k, _), row in sorted(store_read(page, "journal").items()) if k == key]


# a save and its journal rows read in one transaction: read in two, a fold committed between them
# (the save rewritten whole, its rows deleted) left the old save and no rows (a whole fight under
# load: "the autosave holds 53 of the 87 lines of the log")
_SAVE_AND_JOURNAL = """async (key) => {
    const db = await new Promise((ok, ko) => {
        const r = indexedDB.open('fray'); r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
    try {
        const t = db.transaction(['saves', 'journal'], 'readonly');
        const get = (req) => new Promise((ok) => { req.onsuccess = () => ok(req.result); });
        const save = await get(t.objectStore('saves').get(key));
        const keys = await get(t.objectStore('journal').getAllKeys());
        const rows = await get(t.objectStore('journal').getAll());
        return [save || null, keys.map((k, i) => [k, rows[i]]).filter(([k]) => k[0] === key)];
    } finally { db.close(); }
}"""


def stored(page, key: str) -> dict | None:
    """What a load of ``key`` builds from the database (its save, then its journal rows),
    written out whole, and the revision: ``{"text", "rev"}``. A save that does not load is
    given as it is stored. None when there is no save."""
    row, rows = page.evaluate(_SAVE_AND_JOURNAL, key)
    if row is None:
        return None
    backend = MemoryBackend()
    backend.saves[key] = dict(row)
    for _, r in sorted(((tuple(k), r) for k, r in rows), key=lambda kr: kr[0]):
        backend.journal[(key, r["rev"])] = r
    try:
        h, rev = _finish(Library(backend).load(key))
    except SaveFileError:
        return {"text": row["text"], "rev": backend._head(key)}
    return {"text": savefile.dumps(h), "rev": rev}


def import_history(page, tmp_path, h, tokens: int, file: str = "fight") -> None:
    """Open ``h`` (a ``History`` built with the engine) in the page as a GM imports a save file
    (``{file}.fray.json``), and wait for its ``tokens`` tokens on the map."""
    path = tmp_path / f"{file}.fray.json"
    path.write_text(json.dumps(savefile.dump_history(h)), encoding="utf-8")
    page.set_input_files("#file-import", str(path))
    expect(page.locator("#map [data-token]")).to_have_count(tokens)


def wait_folded(page) -> None:
    """Wait until every journal is folded into its save (the page does it when idle, and when it
    leaves an encounter): a test that edits a stored save must not race the page rewriting it."""
    wait_saved(page)
    folded = page.evaluate("""async () => {
        const count = async () => {
            const db = await new Promise((ok, ko) => {
                const r = indexedDB.open('fray'); r.onsuccess = () => ok(r.result); r.onerror = () => ko(r.error); });
            try {
                const t = db.transaction(['journal'], 'readonly');
                return await new Promise((ok) => { const r = t.objectStore('journal').count(); r.onsuccess = () => ok(r.result); });
            } finally { db.close(); }
        };
        for (let i = 0; i < 300; i++) {  // the page folds within seconds of its last write
            if (await count() === 0 && document.getElementById('save-state').dataset.state === 'saved') return true;
            await new Promise((ok) => setTimeout(ok, 100));
        }
        return false;
    }""")
    assert folded, "the page never folded its journal into the save"


def store_write(page, store: str, op: str, key=None, value=None) -> None:
    """``op`` is "put" (``value``; ``key`` for the out-of-line ``meta`` store), "delete" or "clear"."""
    page.evaluate(_IDB, [op, store, key, value])


# Another connection to the page's database holds a write transaction on the saves open until
# ``window.__release`` is set in the page that opened it: the page's own writes (same stores)
# queue behind it, as they do behind a slow disk.
_HOLD_THE_SAVES = """() => new Promise((ready) => {
    const r = indexedDB.open('fray');
    r.onsuccess = () => {
        const t = r.result.transaction(['saves', 'entries'], 'readwrite');
        const s = t.objectStore('saves');
        const spin = () => { if (window.__release) { r.result.close(); return; } s.get('none').onsuccess = spin; };
        spin();
        ready();
    };
})"""


def hold_the_saves(page) -> None:
    """Hold the database's saves from ``page`` until ``page.evaluate("window.__release = true")``:
    every write of the app, in any tab, waits till then."""
    page.evaluate(_HOLD_THE_SAVES)


def wait_saved(page) -> None:
    """Wait until the page says its autosave is committed (the header's save state)."""
    expect(page.locator("#save-state")).to_have_attribute("data-state", "saved")


def current_key(page) -> str:
    wait_saved(page)
    key = store_read(page, "meta").get("current")
    assert key, "no current encounter in the database"
    return key


def saved_text(page, key: str | None = None) -> str | None:
    """The stored encounter ``key`` (default: the current one) as one save file: its save with
    its journal applied (``stored``), once the page says it is saved."""
    wait_saved(page)
    got = stored(page, key or current_key(page))
    return got["text"] if got else None


def saved(page) -> dict:
    """The autosave of the current encounter, parsed (once the page says it is saved)."""
    raw = saved_text(page)
    assert raw, "nothing autosaved"
    return json.loads(raw)


def new_encounter(page, name: str, ruleset: str, badge: str) -> None:
    """Create an encounter of ``ruleset`` through the New dialog and wait for its badge."""
    page.locator("#btn-new").click()
    dlg = page.locator("#dlg")
    expect(dlg).to_be_visible()
    dlg.get_by_label("Name").fill(name)
    dlg.get_by_label("Rules").select_option(ruleset)
    dlg.get_by_role("button", name="Create").click()
    expect(dlg).to_be_hidden()
    expect(page.locator("#ruleset-badge")).to_have_text(badge)


def add_preset(page, preset: str, side: str | None = None, at: tuple[float, float] | None = None) -> None:
    """Add a ready-made combatant through the dialog (Ready-made, Use, Add). ``at``: East and North
    typed in (else the page stands it on free ground, beyond the game's melee contact from the
    other sides: a fight that needs two foes engaged from the start places them)."""
    before = page.locator("#combatants .card").count()
    dlg = open_add_dialog(page)
    dlg.get_by_label("Ready-made").select_option(label=preset)
    dlg.get_by_role("button", name="Use", exact=True).click()
    expect(dlg.locator('[name="combatant.name"]')).to_have_value(preset)
    if side:
        dlg.locator('[name="combatant.side"]').select_option(side)
    if at is not None:
        dlg.locator('[name="combatant.position.x"]').fill(f"{at[0]:g}")
        dlg.locator('[name="combatant.position.y"]').fill(f"{at[1]:g}")
    dlg.get_by_role("button", name="Add", exact=True).click()
    expect(dlg).to_be_hidden()
    expect(page.locator("#combatants .card")).to_have_count(before + 1)


SHOT_SIZES = ((768, 1024), (1366, 900))  # a tablet's screen and a laptop's


def photograph(page, name: str, scroll_to: str | None = None, map_tab: bool = False, full_page: bool = False) -> None:
    """With FRAY_SHOTS set (a folder), the page photographed at a tablet's and a laptop's size, as
    ``{name}-{width}.png``, to look at; then the viewport is put back. ``scroll_to``: a selector
    brought into view first; ``map_tab``: on a narrow screen the map is a tab, tapped first."""
    folder = os.environ.get("FRAY_SHOTS")
    if not folder:
        return
    was = page.viewport_size
    for w, h in SHOT_SIZES:
        page.set_viewport_size({"width": w, "height": h})
        if map_tab and page.locator("#tab-map").is_visible():
            page.locator("#tab-map").click()
        if scroll_to:
            page.locator(scroll_to).first.scroll_into_view_if_needed()
        page.screenshot(path=os.path.join(folder, f"{name}-{w}.png"), full_page=full_page)
    if was:  # a window the page opened has no viewport of its own to put back
        page.set_viewport_size(was)


class Taps:
    """Taps counted as a GM makes them (issue 33 §5, "Fewer taps"): a tap is a click, a choice in a
    list, or putting the finger in a field that does not already have the focus; typing into the
    focused field is no tap. ``n``: the taps so far."""

    def __init__(self, page) -> None:
        self.page = page
        self.n = 0

    def tap(self, loc) -> None:
        loc.click()
        self.n += 1

    def choose(self, select, value: str) -> None:
        """Choose the option of that value (a tap, even if it was the choice already)."""
        select.select_option(value)
        self.n += 1

    def choose_words(self, select, text: str) -> None:
        """Choose the option whose words contain ``text``, unless it is already the choice (no tap)."""
        if text in select.locator("option:checked").inner_text():
            return
        select.select_option(select.locator("option", has_text=text).get_attribute("value"))
        self.n += 1

    def type(self, loc, text: str) -> None:
        if not loc.evaluate("e => e === document.activeElement"):
            loc.click()
            self.n += 1
        self.page.keyboard.type(text)


def mouse_drag(page, a: tuple[float, float], b: tuple[float, float], release: bool = True) -> None:
    """The mouse pressed at the screen point ``a`` and moved in ten steps to ``b`` (a drag the page's
    pointer handlers follow), then let go; ``release=False`` keeps it held there."""
    (sx, sy), (tx, ty) = a, b
    page.mouse.move(sx, sy)
    page.mouse.down()
    for i in range(1, 11):
        page.mouse.move(sx + (tx - sx) * i / 10, sy + (ty - sy) * i / 10)
    if release:
        page.mouse.up()


def touch_and_name_problems(page, prefix: str) -> list[str]:
    """Every visible control of a ruleset's panel and cards (``.{prefix}-panel``,
    ``.{prefix}-card``) that has no accessible name or is under 44 px tall (a checkbox or radio
    counts its label)."""
    sel = ", ".join(f".{prefix}-{part} {ctl}" for part in ("panel", "card")
                    for ctl in ("button", "select", "input:not([type=hidden])", "summary"))
    return page.evaluate("""(sel) => {
        const out = [];
        for (const el of document.querySelectorAll(sel)) {
            const r = el.getBoundingClientRect();
            if (r.width === 0 && r.height === 0) continue;  // inside a closed <details>
            let name = el.getAttribute('aria-label') || (el.labels && el.labels.length ? el.labels[0].textContent : '') || el.textContent;
            if (!name || !name.trim()) out.push('no name: ' + el.outerHTML.slice(0, 80));
            const box = (el.type === 'checkbox' || el.type === 'radio') ? el.closest('label').getBoundingClientRect() : r;
            if (box.height < 43.5) out.push('small: ' + el.outerHTML.slice(0, 80) + ' ' + box.height);
        }
        return out;
    }""", sel)


def set_controls(form, values: dict[str, str]) -> None:
    """Set each named control of ``form`` in the order given (a choice can show the next control):
    a drop-down picks the option with that value, any other box is typed into."""
    for name, value in values.items():
        ctl = form.locator(f'[name="{name}"]')
        if ctl.evaluate("e => e.tagName") == "SELECT":
            ctl.select_option(value)
        else:
            ctl.fill(value)


def click_and_log(page, button) -> None:
    """Click a control whose action writes the log, and wait for the log to change."""
    n = page.locator("#log li").count()
    button.click()
    expect(page.locator("#log li")).not_to_have_count(n)


# Strike-rank: the declaration form of one combatant and what it has declared (Statement of Intent).

def sr_declare_form(page, cid: str):
    return page.locator(f'form[data-form=sr-declare][data-id="{cid}"]')


def sr_declared(page, cid: str):
    return page.locator(f'.sr-who[data-id="{cid}"] .sr-decl')


def sr_fill_declaration(page, cid: str, values: dict[str, str], ticks: tuple[str, ...] = (),
                        more: bool = False):
    """Fill ``cid``'s declaration form: ``values`` by control name (``set_controls``), then tick
    the boxes labelled ``ticks``; ``more`` opens the "More" fold-out first. Returns the form."""
    form = sr_declare_form(page, cid)
    if more:
        form.locator(".sr-decl-more > summary").click()
        expect(form.locator('[name="shots"]')).to_be_visible()
    set_controls(form, values)
    for label in ticks:
        form.get_by_label(label).check()
    return form


def sr_declare(page, cid: str, values: dict[str, str], shows: str, ticks: tuple[str, ...] = (),
               more: bool = False) -> None:
    """Declare ``cid``'s action and wait until its declaration shows ``shows``."""
    form = sr_fill_declaration(page, cid, values, ticks, more)
    form.get_by_role("button", name="Declare").click()
    expect(sr_declared(page, cid).last).to_contain_text(shows)


def rb_mark_area(page, what: str, x: str, y: str, out_to: str, name: str | None = None):
    """Fill range-band's "mark an obscuring area" form (the Obscuring areas section, already open)
    and return it, for the caller to press "Mark the area" when it is ready to."""
    mark = page.locator("details.rb-areas form[data-form=rb-area]")
    mark.get_by_label("What").select_option(what)
    mark.get_by_label("Centre east (x, m)").fill(x)
    mark.get_by_label("Centre north (y, m)").fill(y)
    mark.get_by_label("Out to").select_option(out_to)
    if name is not None:
        mark.get_by_label("Name (optional)").fill(name)
    return mark


def tr_next(page) -> None:
    """The tactical-round Next. Where it stops to say who has not declared or what is still open
    (issue 32), the GM goes on without them (their choice, in the log)."""
    current = page.locator(".tr-stepper li.current")
    before = current.inner_text() if current.count() else ""
    page.locator("#round-bar [data-act=advance]").click()
    box = page.locator(".tr-open")
    expect(box.or_(page.locator(".tr-stepper li.current").filter(has_not_text=before) if before
                   else page.locator(".tr-stepper li.current"))).to_have_count(1)
    if box.count():
        box.get_by_role("button", name=re.compile("^(Go on|Skip)")).last.click()
        expect(box).to_have_count(0)


def rb_start(page, answer: str = "Roll turn order for all and start") -> None:
    """Range-band's "Start the fight" (or a Next). Where it stops to say who has no turn order yet
    (issue 32), the GM answers the way most would: Fray rolls them all and the fight starts (or, with
    answer="Start anyway", they act last in the order they were added); where rolls are still open, the
    GM skips them."""
    bar = page.locator("#round-bar")
    phase = bar.locator(".phase")
    before = phase.inner_text() if phase.count() else ""
    bar.locator("[data-act=advance]").click()
    hold = page.locator("#rb-hold")
    moved = phase.filter(has_not_text=before) if before else phase
    expect(hold.or_(moved)).to_have_count(1)
    if not hold.count():
        return
    if hold.get_by_role("button", name=answer).count():
        hold.get_by_role("button", name=answer).click()
        expect(hold).to_have_count(0)
    else:
        hold.get_by_role("button", name="Skip them and go on").click()
    expect(hold).to_have_count(0)
    expect(moved).to_have_count(1)
