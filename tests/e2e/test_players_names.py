"""The players' window's order of play, what a GM's play-through found (strike-rank, Melee Round 4): a long
name broken in the middle of a word ("Spearmaide" / "n").

Every step waits on what the page shows, never on time."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from gestures import photograph
from test_players_view import open_players

NAMES = ["Spearmaiden Vasana", "Broo 1", "Spearmaiden", "Broo 2", "Far Broo 1", "Far Broo 2", "Harmast Barefoot",
         "Broo 3", "Yelmalio Sunspear", "Far Broo 3", "Windlord Orlanthsson", "Broo 4", "Storm Bull Berserker",
         "Far Broo 4"]

# each word of each name in the order: over how many lines it is drawn (a word broken mid-word: two)
SPLIT_WORDS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#pv-order .pv-name')) {
    const text = el.firstChild;
    if (!text) continue;
    const s = text.textContent;
    for (const m of s.matchAll(/\\S+/g)) {
      const r = document.createRange();
      r.setStart(text, m.index);
      r.setEnd(text, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].map(b => Math.round(b.top)));
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out;
}"""


def fight_file(folder):
    from fray import savefile
    from fray.history import History
    from fray.reducer import new_encounter

    h = History(new_encounter("freeform", "Melee Round 4"))
    for i, name in enumerate(NAMES):
        h.do({"type": "add_combatant", "combatant": {
            "name": name, "side": "foes" if "Broo" in name else "party",
            "stats": {"initiative": 300 - i, "HP": 3, "max HP": 12},
            "position": {"x": (i % 5) * 2.0, "y": (i // 5) * 2.0, "alt": 0.0}}})
    for cid in ("c4", "c6"):  # Broo 2 and Far Broo 2
        h.do({"type": "set_condition", "id": cid, "condition": "dead", "on": True})
    h.do({"type": "advance"})
    path = folder / "round-4.fray.json"
    path.write_text(json.dumps(savefile.dump_history(h)), encoding="utf-8")
    return path


def test_a_long_name_in_the_order_breaks_between_words_only(page, open_app, wait_ready, tmp_path):
    """"Large type and high contrast, readable across a table": a name the players read across the table
    is broken, where it must be, between its words, never inside one ("Spearmaide" / "n")."""
    open_app(page)
    page.set_input_files("#file-import", str(fight_file(tmp_path)))
    expect(page.locator("#combatants .card")).to_have_count(len(NAMES))
    pv = open_players(page, wait_ready)
    expect(pv.locator("#pv-order li")).to_have_count(len(NAMES))
    for size in ({"width": 768, "height": 1024}, {"width": 1366, "height": 900}, {"width": 1024, "height": 768},
                 {"width": 1920, "height": 1080}):
        pv.set_viewport_size(size)
        pv.wait_for_function("""() => [...document.querySelectorAll("#pv-order li")].every(
          li => li.getBoundingClientRect().bottom <= innerHeight && li.getBoundingClientRect().right <= innerWidth)""")
        assert pv.evaluate(SPLIT_WORDS) == [], size
    # the dead on the map, in a crowd of labels: "· down" as every other dead's (they lost it on a leader)
    for cid in ("c4", "c6"):
        expect(pv.locator(f'.pv-token.down[data-id="{cid}"]')).to_have_count(1)
        expect(pv.locator(f'[data-label-for="{cid}"]')).to_contain_text("· down")
    photograph(pv, "players-names")
