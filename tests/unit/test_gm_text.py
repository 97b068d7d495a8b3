"""What the GM reads holds no developer words (issue 33, §4): the text of every event of the
replayed scenarios (tests/games/*/scenarios/, which is the log the GM reads) and every sentence in each
game's view of where the scenario ends names combatants and actions by their names, never by the
ids the engine keys them by (c12, a5, p4), and never cites our notes ("FACTS.md", "the excerpt")
or an engine field path ("weapons.0.type").

A game's label for what the GM settles later ("A3" an attack awaiting the table, "R4" a roll, "P1"
a prompt, "A1" an area) is shown on that thing in the panel, and the log marks it (``render.log_text``)
on the lines whose ``ref`` it is. So a line may say a label only when it is that line's own ``ref``:
a label in any other line would be a code the GM has no way to look up (issue 34)."""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import pytest

from fray.games import get_ruleset
from fray.scenario import run_scenario

TESTS = pathlib.Path(__file__).resolve().parents[1]
SCENARIOS = sorted((TESTS / "games").glob("*/scenarios/*.json")) + sorted((TESTS / "golden").glob("*.scenario.json"))
FORBIDDEN = (
    re.compile(r"(?<![\w#./:-])[acp]\d{1,4}(?![\w.%:-])"),  # c12, a5, p4
    re.compile(r"FACTS\.md|\bexcerpt\b", re.I),
    re.compile(r"\b[a-z_]+\.\d+\.[a-z_]+\b"),                 # weapons.0.type
    re.compile(r"\(rule:"),                                   # the engine's tag on a refusal, not the GM's words
)


# a game's label ("A3", "R4", "P1"); not dice ("D100") nor a strike rank ("SR 7")
LABEL = re.compile(r"(?<![\w#./:-])(?!D\d)[A-Z]\d{1,4}(?![\w.%:-])")


def stray_labels(texts: list[tuple[str, str, Any]]) -> list[str]:
    """Each label a text says that is not the ``ref`` of the line saying it (the third item)."""
    return sorted({f"{where}: …{m.group(0)}… in {text[:160]!r}" for where, text, ref in texts
                   for m in LABEL.finditer(text) if m.group(0) != ref})


def sentences(v: Any, path: str = "") -> list[tuple[str, str]]:
    """Every text in ``v`` with a space in it (what is read, not a key or an id), with its path."""
    if isinstance(v, dict):
        return [s for k, x in v.items() for s in sentences(x, f"{path}.{k}")]
    if isinstance(v, list):
        return [s for i, x in enumerate(v) for s in sentences(x, f"{path}.{i}")]
    if isinstance(v, str) and " " in v.strip():
        return [(path, v)]
    return []


def developer_words(texts: list[tuple[str, str]]) -> list[str]:
    return sorted({f"{where.split(' before ')[0]}: …{m.group(0)}… in {text[:160]!r}" for where, text in texts
                   for pat in FORBIDDEN for m in pat.finditer(text)})


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.parent.name if p.parent.name == 'scenarios' else p.parent.name}/{p.stem}")
def test_events_log_and_view_of_each_scenario_name_things_by_name(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    h, events = run_scenario(data)
    texts = [(f"event {i}", e.get("text", "")) for i, e in enumerate(events)]
    texts += [(f"log {i}", e.text) for i, e in enumerate(h.present.log)]
    assert stray_labels([(f"log {i}", e.text, e.detail.get("ref")) for i, e in enumerate(h.present.log)]) == []
    rs = get_ruleset(h.present.ruleset)
    texts += sentences(rs.view(h.present), "view")
    if len(events) < 120:
        # every state's view on the way (a question open mid-fight is gone by the end)
        while h.undo():
            texts += sentences(rs.view(h.present), f"view before action {h.cursor}")
    assert developer_words(texts) == []


def test_every_ruleset_describes_itself_in_the_gms_words():
    """The tie rule and the other words each ruleset shows (Help, the order strip's hint)."""
    from fray.games import all_rulesets

    texts = [(f"{rs.id}.tie_rule", rs.tie_rule) for rs in all_rulesets()]
    texts += [s for rs in all_rulesets() for s in sentences(rs.describe(), rs.id)
              if not s[0].endswith((".source", ".notes"))]
    assert developer_words(texts) == []


def test_the_scan_finds_what_it_is_for():
    for bad in ("Change a5 of Broo 1", "then the order they joined (c7 before c10)", "GM answers p4 (fumble): keep",
                "criteria are not in the excerpt (FACTS.md)", "weapons.0.type: must be one of",
                "Declare, or go on without them (rule: Tactical Round Sequence)"):
        assert developer_words([("x", bad)]), bad
    for good in ("A2 critical on Grak", "R1 Movement roll", "SR 7 = DEX 3 + SIZ 2", "1D8+1", "HP 11/13"):
        assert developer_words([("x", good)]) == [], good
    # a label is the line's own, which the page marks and the panel shows; any other is a stray code
    assert stray_labels([("x", "A2 critical on Grak", "A2"), ("y", "Smoke (A1) is cleared", "A1"),
                         ("z", "a D100 roll at SR 7", None)]) == []
    assert stray_labels([("x", "A2 critical on Grak", None)]) and stray_labels([("x", "R1 Movement roll", "R2")])


def test_the_log_marks_a_label_on_every_line_about_it():
    """Issue 34: "A3 (GM): Bran takes 3 hits" named an attack by a code the GM never learned: the
    line that began it ("Orc attacks Bran ...") did not carry it. The log now marks the label on
    every line whose ``ref`` it is, the first one too, with a title saying what it is."""
    from fray.model import LogEntry
    from fray.web.render import log_entries

    attack = LogEntry(1, 2, "attack", "Orc attacks Bran with Axe: total 87", {"ref": "A3"})
    result = LogEntry(2, 2, "result", "A3 (GM): Bran takes 3 hits (HP 9)", {"ref": "A3"})
    area = LogEntry(3, 2, "area", "Smoke (A1) is cleared", {"ref": "A1"})
    lost = LogEntry(4, 2, "lost", "Grak loses attack at SR 5: prone", {"ref": "a5"})  # strike-rank's own key
    html = "".join(log_entries([attack, result, area, lost]))
    marked = re.findall(r'<span class="ref" title="([^"]+)">([A-Z]\d+)</span>', html)
    assert [m[1] for m in marked] == ["A1", "A3", "A3"]  # latest first; each once, where its line says it
    assert all("the panel shows" in title for title, _ in marked)
    assert "A3</span> Orc attacks Bran" in html and "Smoke (<span" in html and "A1A1" not in html
    assert "a5" not in html
    # the round in words, never a label-like "R2" in front of a label ("R1 R8 Movement roll": a GM's play-through)
    assert '<span class="r">Round 2</span> <span class="ref"' in html and ">R2<" not in html
    roll = LogEntry(5, 1, "roll", "R8 Movement roll: success by 3", {"ref": "R8"})
    line = re.sub(r"<[^>]+>", "", "".join(log_entries([roll])))
    assert line == "Round 1 R8 Movement roll: success by 3" and not LABEL.match(line)
    # a line that names its own round says it once (range-band's log read "Round 1 Round 1 begins")
    begins = LogEntry(6, 1, "round", "Round 1 begins", {})
    assert re.sub(r"<[^>]+>", "", "".join(log_entries([begins]))) == "Round 1 begins"
    # the history list names an action by its first log line: the label marked there the same way
    from fray.web.render import marked_labels

    hist = marked_labels("A3 (GM): Bran <b> takes 3 hits; a D100 at SR 7")
    assert hist.startswith('<span class="ref" title="A3 labels') and "&lt;b&gt;" in hist
    assert hist.count('class="ref"') == 1  # not the dice, not the strike rank


def test_a_refusal_by_the_rules_points_into_the_rules_in_the_gms_words():
    """Issue 33: "(rule: Tactical Round Sequence)" read as developer text. The page says a rule's
    refusal with the heading of the rule text it rests on, as a pointer into the rules."""
    from fray.errors import RuleViolation
    from fray.web.words import rule_message

    e = RuleViolation("Combat Actions", "at most one Full and one Half action (or two Half actions) a round")
    said = rule_message(str(e), e.rule)
    assert said == ("at most one Full and one Half action (or two Half actions) a round "
                    "(see “Combat Actions” in the rules)")
    assert developer_words([("x", said)]) == [] and developer_words([("x", str(e))]) != []


def test_a_label_on_screen_says_what_it_names_in_the_games_words():
    """A GM's whole fight: "A1" on a tactical-round attack waiting for its result, "R1" on a range-band roll
    and in the log, and the GM did not know what either was. Each game names what its labels stand for
    (``Ruleset.ref_words``) and the screen says it before the label: "Attack A3" (an attack waiting for the
    Attack table's result), "Roll R1", "Note P1", "Area A1"; the log, the history list and the panels alike."""
    from fray.model import LogEntry
    from fray.web.history_view import history_html
    from fray.web.render import log_entries, marked_labels
    from fray.games.range_band.web.rolls import pending_html
    from fray.games.tactical_round.web.forms import _pending_article

    tr, rb = get_ruleset("tactical-round").ref_words, get_ruleset("range-band").ref_words
    result = LogEntry(2, 2, "result", "A3 (GM): Bran takes 3 hits (HP 9)", {"ref": "A3"})
    text = re.sub(r"<[^>]+>", "", "".join(log_entries([result], words=tr)))
    assert text == "Round 2 Attack A3 (GM): Bran takes 3 hits (HP 9)"
    roll = LogEntry(5, 1, "roll_needed", "Brakka: Movement roll — d12 on SPD", {"ref": "R1"})
    assert re.sub(r"<[^>]+>", "", "".join(log_entries([roll], words=rb))).startswith("Round 1 Roll R1 Brakka")
    area = LogEntry(3, 2, "area", "Smoke (A1) is cleared", {"ref": "A1"})
    assert "Smoke (Area A1) is cleared" in re.sub(r"<[^>]+>", "", "".join(log_entries([area], words=rb)))
    assert re.sub(r"<[^>]+>", "", marked_labels("P2 Grak may warn Bran", rb)) == "Note P2 Grak may warn Bran"

    data = json.loads((TESTS / "games/range_band/scenarios/underwater_breath.json").read_text(encoding="utf-8"))
    data["actions"] = data["actions"][:5]  # the swimmer's move leaves R1, a Movement roll, to settle
    h, _ = run_scenario(data)
    box = pending_html(get_ruleset("range-band").view(h.present))
    assert re.search(r'<h4><span class="rb-ref">Roll R1</span> Amphibious swimmer', box), box[:400]
    pending = {"ref": "A1", "stage": "attack", "attacker": "c1", "target": "c2", "weapon": "Broadsword", "total": 87,
               "text": "d100 60 + CMB 55 − DEF 28", "notes": []}
    art = _pending_article(pending, {"c1": "Hero 3", "c2": "Foe 1"}, ["A", "B"])
    assert "<h4>Attack A1: Hero 3 → Foe 1 with Broadsword</h4>" in art
