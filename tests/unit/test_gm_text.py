"""What the GM reads holds no developer words (issue 33, §4): the text of every event of the
replayed scenarios (tests/scenarios/, which is the log the GM reads) and every sentence in each
game's view of where the scenario ends names combatants and actions by their names, never by the
ids the engine keys them by (c12, a5, p4), and never cites our notes ("FACTS.md", "the excerpt")
or an engine field path ("weapons.0.type")."""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import pytest

from fray.rulesets import get_ruleset
from fray.scenario import run_scenario

TESTS = pathlib.Path(__file__).resolve().parents[1]
SCENARIOS = sorted((TESTS / "scenarios").glob("*/*.json")) + sorted((TESTS / "golden").glob("*.scenario.json"))
FORBIDDEN = (
    re.compile(r"(?<![\w#./:-])[acp]\d{1,4}(?![\w.%:-])"),  # c12, a5, p4 (not A1, R2: refs the GM is shown)
    re.compile(r"FACTS\.md|\bexcerpt\b", re.I),
    re.compile(r"\b[a-z_]+\.\d+\.[a-z_]+\b"),                 # weapons.0.type
    re.compile(r"\(rule:"),                                   # the engine's tag on a refusal, not the GM's words
)


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


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_events_log_and_view_of_each_scenario_name_things_by_name(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    h, events = run_scenario(data)
    texts = [(f"event {i}", e.get("text", "")) for i, e in enumerate(events)]
    texts += [(f"log {i}", e.text) for i, e in enumerate(h.present.log)]
    rs = get_ruleset(h.present.ruleset)
    texts += sentences(rs.view(h.present), "view")
    if len(events) < 120:
        # every state's view on the way (a question open mid-fight is gone by the end)
        while h.undo():
            texts += sentences(rs.view(h.present), f"view before action {h.cursor}")
    assert developer_words(texts) == []


def test_every_ruleset_describes_itself_in_the_gms_words():
    """The tie rule and the other words each ruleset shows (Help, the order strip's hint)."""
    from fray.rulesets import all_rulesets

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
