"""Issue 34, "The proof: a fourth game installed with micropip": "Add a game…" takes a wheel file
the GM picks, installs it with micropip from the browser's own storage (no network), keeps it in
IndexedDB so the game is there at every later boot, offline, and lists it beside the built-in
games; a wheel that is not a Fray game, or is broken, is refused with a clear message and
changes nothing."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from gestures import card, open_add_dialog
from playwright.sync_api import expect
from test_offline import _refused

ROOT = Path(__file__).resolve().parents[2]
D20 = ROOT / "examples" / "fray-d20"
WHEEL = D20 / "dist" / "fray_d20-0.1.0-py3-none-any.whl"
sys.path.insert(0, str(ROOT / "scripts"))
import build_wheel  # noqa: E402

pytestmark = pytest.mark.skipif(not (ROOT / "dist" / "static" / "vendor" / "micropip").is_dir(),
                                reason="make vendor could not fetch micropip")


def _micropip_loaded(page) -> bool:
    return page.evaluate("performance.getEntriesByName('fray:micropip').length > 0")


def _add_game(page, path: Path):
    page.locator("#btn-new").click()
    dlg = page.locator("#dlg")
    expect(dlg).to_be_visible()
    form = dlg.locator("form[data-form=add-game]")
    form.locator("#f-wheel").set_input_files(str(path))
    form.get_by_role("button", name="Add this game").click()
    return dlg, form


def _no_entry_point_wheel(tmp_path: Path) -> Path:
    """The example game as a valid wheel that declares no game (no entry point)."""
    src = tmp_path / "plain"
    shutil.copytree(D20, src, ignore=shutil.ignore_patterns("dist", "tests", "__pycache__"))
    text = (src / "pyproject.toml").read_text(encoding="utf-8")
    text = text.replace('[project.entry-points."fray.games"]\nd20-skirmish = "fray_d20:RULESET"\n', "")
    text = text.replace('name = "fray-d20"', 'name = "fray-plain"')
    (src / "pyproject.toml").write_text(text, encoding="utf-8")
    return build_wheel.build(src, tmp_path / "out")


def _broken_game_wheel(tmp_path: Path) -> Path:
    """The example game with a bug that stops it loading: a valid wheel, installed, then refused."""
    src = tmp_path / "broken"
    shutil.copytree(D20, src, ignore=shutil.ignore_patterns("dist", "tests", "__pycache__"))
    init = src / "fray_d20" / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8") + "\nraise ImportError('a piece of this game is missing')\n",
                    encoding="utf-8")
    return build_wheel.build(src, tmp_path / "out-broken")


def test_a_game_added_from_a_wheel_is_played_and_is_there_offline(first_visit, outage_server, wait_ready, tmp_path):
    assert WHEEL.is_file(), "make build writes the example game's wheel"
    _, page = first_visit(outage_server)
    assert not _micropip_loaded(page), "a page with no added game loads no installer"
    rules = page.locator("#f-ruleset option")

    # random bytes: refused next to the picker, nothing listed
    junk = tmp_path / "dragon.whl"
    junk.write_bytes(os.urandom(4000))
    dlg, form = _add_game(page, junk)
    expect(form.locator("[data-error-for=wheel]")).to_contain_text("not a game package")
    n_rules = rules.count()
    assert not _micropip_loaded(page), "a file refused before installing loads no installer"

    # a valid wheel that declares no game: refused, nothing listed
    form.locator("#f-wheel").set_input_files(str(_no_entry_point_wheel(tmp_path)))
    form.get_by_role("button", name="Add this game").click()
    expect(form.locator("[data-error-for=wheel]")).to_contain_text("not a Fray game")
    expect(rules).to_have_count(n_rules)

    # a wheel that installs but whose game does not load: uninstalled again, refused, nothing listed
    form.locator("#f-wheel").set_input_files(str(_broken_game_wheel(tmp_path)))
    form.get_by_role("button", name="Add this game").click()
    # the first install loads micropip: give it the boot's time, not an assertion's
    expect(form.locator("[data-error-for=wheel]")).to_contain_text("could not be loaded", timeout=60_000)
    expect(form.locator("[data-error-for=wheel]")).to_contain_text("a piece of this game is missing")
    expect(rules).to_have_count(n_rules)

    # the example game: installed, listed beside the built-in games and chosen
    form.locator("#f-wheel").set_input_files(str(WHEEL))
    form.get_by_role("button", name="Add this game").click()
    expect(dlg.locator(".add-game-said")).to_have_text("d20 Skirmish is added.")
    expect(rules).to_have_count(n_rules + 1)
    expect(dlg.get_by_label("Rules")).to_have_value("d20-skirmish")
    assert _micropip_loaded(page)
    page.screenshot(path="/tmp/plugin34-added.png")
    # how the game's panel looks the moment it is first drawn (its stylesheet comes in its wheel)
    page.evaluate("""() => { window.__d20 = null; new MutationObserver((_, obs) => {
        const el = document.querySelector("main.panes:not(.first-paint) .d20-panel");
        if (el) { window.__d20 = getComputedStyle(el).borderLeftWidth; obs.disconnect(); }
      }).observe(document.getElementById("ruleset-panel"), {childList: true, subtree: true}); }""")
    dlg.get_by_label("Name").fill("Goblin ambush")
    dlg.get_by_role("button", name="Create").click()
    expect(dlg).to_be_hidden()
    expect(page.locator("#ruleset-badge")).to_have_text("d20 Skirmish")
    # issue 34: the game's own stylesheet (fray_d20/style.css, named by its ruleset) applies, from
    # the panel's first frame, with nothing linked by the page and no console error (the fixture)
    d20_panel = page.locator(".d20-panel")
    expect(d20_panel).to_be_visible()
    assert page.evaluate("window.__d20") == "4px"
    assert d20_panel.evaluate("e => getComputedStyle(e).display") == "grid"
    assert page.evaluate("document.adoptedStyleSheets.length") == 1

    for name, hp, defence in (("Bryn", "30", "14"), ("Goblin", "30", "11")):
        add = open_add_dialog(page)
        add.locator('[name="combatant.name"]').fill(name)
        add.locator('[name="combatant.stats.hp"]').fill(hp)
        add.locator('[name="combatant.stats.defence"]').fill(defence)
        add.get_by_role("button", name="Add", exact=True).click()
        expect(add).to_be_hidden()
    expect(page.locator("#combatants .card")).to_have_count(2)

    # one round: initiative, then each attacks on its turn (a natural 20 from the first, a miss
    # typed as a natural 1 from the second), then the next round begins
    page.locator("#round-bar").get_by_role("button", name="Start the fight").click()
    panel = page.locator("#ruleset-panel")
    expect(panel).to_contain_text("Round 1")
    attack = panel.locator("form[data-form=d20-attack]")
    attack.locator('[name="rolls.attack"]').fill("x")
    attack.get_by_role("button", name="Attack with").click()
    expect(attack.locator("[data-error-for='rolls.attack']")).to_contain_text("whole number")
    attack.locator('[name="rolls.attack"]').fill("20")
    attack.locator('[name="rolls.damage"]').fill("3")
    attack.get_by_role("button", name="Attack with").click()
    expect(page.locator("#log")).to_contain_text("a natural 20: a critical hit")
    page.screenshot(path="/tmp/plugin34-round.png")
    page.locator("#round-bar").get_by_role("button", name="Next").click()
    attack = panel.locator("form[data-form=d20-attack]")
    attack.locator('[name="rolls.attack"]').fill("1")
    attack.get_by_role("button", name="Attack with").click()
    expect(page.locator("#log")).to_contain_text("a natural 1 always misses")
    page.locator("#round-bar").get_by_role("button", name="Next").click()
    expect(panel).to_contain_text("Round 2")
    log_text = page.locator("#log").inner_text()

    # the server stops: the reload boots offline with the game and its encounter
    outage_server.stop()
    assert _refused(outage_server.origin)
    page.reload()
    wait_ready(page)
    expect(page.locator("#encounter-select option:checked")).to_have_text("Goblin ambush")
    expect(page.locator("#ruleset-badge")).to_have_text("d20 Skirmish")
    expect(panel).to_contain_text("Round 2")
    expect(card(page, "Bryn", open_=False)).to_be_visible()
    assert d20_panel.evaluate("e => getComputedStyle(e).borderLeftWidth") == "4px"  # offline too
    assert page.locator("#log").inner_text() == log_text
    page.locator("#btn-new").click()
    expect(page.locator("#f-ruleset option[value=d20-skirmish]")).to_have_count(1)
    # the players' window, opened by hand, is drawn by the GM's window on the channel: the added
    # game's projection and markup come from the GM's Python (the players' window has none)
    pv = page.context.new_page()
    pv.goto(page.url.split("?")[0] + "players.html")
    wait_ready(pv)
    expect(pv.locator("#pv-order")).to_contain_text("Bryn")
    assert page.watch.foreign() == []


def _bumped_wheel(tmp_path: Path, version: str) -> Path:
    """The example game as another version of the same package (its pyproject's version bumped)."""
    src = tmp_path / f"d20-{version}"
    shutil.copytree(D20, src, ignore=shutil.ignore_patterns("dist", "tests", "__pycache__"))
    text = (src / "pyproject.toml").read_text(encoding="utf-8")
    assert 'version = "0.1.0"' in text
    (src / "pyproject.toml").write_text(text.replace('version = "0.1.0"', f'version = "{version}"'), encoding="utf-8")
    return build_wheel.build(src, tmp_path / f"out-{version}")


def _answer(page, accept: bool, click) -> str:
    """``click()``, then answer the confirmation the page asks (after it reads its library): its
    question, waited for as the page's own event, never by sleeping."""
    page.once("dialog", lambda d: d.accept() if accept else d.dismiss())
    with page.expect_event("dialog") as asked:
        click()
    return asked.value.message


def test_an_added_game_is_removed_kept_encounters_say_so_and_it_is_upgraded(page, open_app, wait_ready, tmp_path):
    """What a GM expects of a game added from a wheel: the dialog lists it with its version; Remove
    asks first, naming its saved encounters, which stay listed and say their game is not
    installed; added again, they open again; a newer wheel of the same package upgrades it
    ("d20 Skirmish 0.1.0 → 0.2.0"), the same version is said to be there already, an older one
    is asked about, and a refusal changes nothing."""
    assert WHEEL.is_file(), "make build writes the example game's wheel"
    open_app(page)
    dlg, form = _add_game(page, WHEEL)
    said = dlg.locator(".add-game-said")
    expect(said).to_have_text("d20 Skirmish is added.", timeout=60_000)
    row = dlg.locator(".added-game")
    expect(row).to_have_count(1)
    expect(row.locator(".added-game-name")).to_have_text("d20 Skirmish")
    expect(row.locator(".added-game-version")).to_have_text("0.1.0")

    # the same version again: said next to the field, nothing changes
    form = dlg.locator("form[data-form=add-game]")
    form.locator("#f-wheel").set_input_files(str(WHEEL))
    form.get_by_role("button", name="Add this game").click()
    expect(form.locator("[data-error-for=wheel]")).to_have_text("d20 Skirmish 0.1.0 is already added.")
    expect(dlg.locator(".added-game")).to_have_count(1)

    dlg.get_by_label("Name").fill("Goblin ambush")
    dlg.get_by_role("button", name="Create").click()
    expect(page.locator("#ruleset-badge")).to_have_text("d20 Skirmish")

    # Remove, not confirmed: nothing changes
    page.locator("#btn-new").click()
    asked = _answer(page, False, dlg.locator(".added-game").get_by_role("button", name="Remove").click)
    assert asked == ("Remove d20 Skirmish 0.1.0 from this browser? Its 1 saved encounter is kept, but cannot "
                     "be opened until the game is added again.")
    expect(dlg.locator(".added-game")).to_have_count(1)

    # Remove, confirmed: the open encounter is of the game, so the page reloads and opens another
    with page.expect_navigation():
        asked = _answer(page, True, dlg.locator(".added-game").get_by_role("button", name="Remove").click)
    wait_ready(page)
    assert asked.startswith("Remove d20 Skirmish 0.1.0 from this browser?")  # asked once, then removed
    expect(page.locator("#ruleset-badge")).not_to_have_text("d20 Skirmish")
    banner = page.locator("#banner")
    expect(banner).to_contain_text("Goblin ambush is an encounter of d20 Skirmish, a game that is not installed in this browser")
    page.locator("#banner").get_by_role("button", name="Dismiss").click()
    gone = page.locator("#encounter-select option", has_text="Goblin ambush")
    expect(gone).to_have_text("Goblin ambush (game not installed)")
    # picking it says why it does not open, and the open encounter stays
    page.locator("#encounter-select").select_option(label="Goblin ambush (game not installed)")
    expect(banner).to_contain_text("Goblin ambush is an encounter of d20 Skirmish, a game that is not installed in this browser")
    expect(banner).to_contain_text("add its game again")
    expect(page.locator("#ruleset-badge")).not_to_have_text("d20 Skirmish")
    page.locator("#btn-new").click()
    expect(page.locator("#f-ruleset option[value=d20-skirmish]")).to_have_count(0)
    expect(dlg.locator(".added-game")).to_have_count(0)

    # added again: its encounter opens again
    form = dlg.locator("form[data-form=add-game]")
    form.locator("#f-wheel").set_input_files(str(WHEEL))
    form.get_by_role("button", name="Add this game").click()
    expect(said).to_have_text("d20 Skirmish is added.", timeout=60_000)
    expect(gone).to_have_text("Goblin ambush")
    page.keyboard.press("Escape")
    expect(dlg).to_be_hidden()
    page.locator("#encounter-select").select_option(label="Goblin ambush")
    expect(page.locator("#ruleset-badge")).to_have_text("d20 Skirmish")

    # a newer wheel of the same package upgrades it
    page.locator("#btn-new").click()
    form.locator("#f-wheel").set_input_files(str(_bumped_wheel(tmp_path, "0.2.0")))
    form.get_by_role("button", name="Add this game").click()
    expect(said).to_have_text("d20 Skirmish 0.1.0 \u2192 0.2.0.", timeout=60_000)
    expect(dlg.locator(".added-game")).to_have_count(1)
    expect(dlg.locator(".added-game-version")).to_have_text("0.2.0")
    expect(page.locator("#f-ruleset option[value=d20-skirmish]")).to_have_count(1)
    # its open encounter goes on with the new version's page
    page.keyboard.press("Escape")
    expect(dlg).to_be_hidden()
    add = open_add_dialog(page)
    add.locator('[name="combatant.name"]').fill("Bryn")
    add.locator('[name="combatant.stats.hp"]').fill("30")
    add.locator('[name="combatant.stats.defence"]').fill("14")
    add.get_by_role("button", name="Add", exact=True).click()
    expect(add).to_be_hidden()
    expect(card(page, "Bryn", open_=False)).to_be_visible()
    expect(page.locator(".d20-panel")).to_be_visible()
    page.locator("#btn-new").click()

    # an older one is asked about: refused, nothing changes
    form.locator("#f-wheel").set_input_files(str(WHEEL))
    asked = _answer(page, False, form.get_by_role("button", name="Add this game").click)
    expect(form.locator("[data-error-for=wheel]")).to_have_text(
        "d20 Skirmish stays at 0.2.0: the older file was not added.")
    assert asked == "d20 Skirmish 0.2.0 is added; this file is the older version 0.1.0. Go back to 0.1.0?"
    expect(dlg.locator(".added-game-version")).to_have_text("0.2.0")

    # the upgrade is kept: after a reload the game is 0.2.0, and its encounter opens
    page.reload()
    wait_ready(page)
    expect(page.locator("#ruleset-badge")).to_have_text("d20 Skirmish")
    expect(card(page, "Bryn", open_=False)).to_be_visible()
    page.locator("#btn-new").click()
    expect(dlg.locator(".added-game-version")).to_have_text("0.2.0")
    page.screenshot(path="/tmp/games-manage-list.png")

    # going back to the older version, confirmed
    form.locator("#f-wheel").set_input_files(str(WHEEL))
    asked = _answer(page, True, form.get_by_role("button", name="Add this game").click)
    assert asked.startswith("d20 Skirmish 0.2.0 is added; this file is the older version 0.1.0.")
    expect(said).to_have_text("d20 Skirmish 0.2.0 \u2192 0.1.0.", timeout=60_000)
    expect(dlg.locator(".added-game-version")).to_have_text("0.1.0")
