"""Every rule the range-band game names on screen or in the log (a refusal's "(see “…” in the rules)", a roll
specification's rule, a reminder) is a heading of the range-band rule text the GM owns
(shared/rules/000_da34f120076854a0.txt, with FACTS.md's "Holding Breath": "The paragraphs on holding breath ...
have no heading in the excerpt; call them "Holding Breath""), or it names nothing. A GM's play-through read
"(rule: The round)", a heading of FACTS.md, not of the rule text; "Movement", "Combat", "Statuses" and
"Range bands" are no heading of it either."""

from __future__ import annotations

import ast
import pathlib

import pytest

from fray.errors import RuleViolation
from fray.games.range_band.web.rolls import spec_html
from rb_helpers import act, fight, person, start, to_phase
from test_rb_docs import RULES, headings

PKG = pathlib.Path(__file__).resolve().parents[3] / "py" / "fray" / "games" / "range_band"


def _texts(node: ast.AST) -> list[str]:
    """The rule names a literal (or either branch of a conditional) gives."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _texts(node.body) + _texts(node.orelse)
    return []


def named_rules() -> list[tuple[str, str]]:
    """(where, rule) for every rule named in the package's code: ``RuleViolation(rule, ...)``,
    ``able(c, rule, what)``, ``RollSpec(what, die, stat, value, rule, ...)``, ``spec.rule = ...`` and a
    ``{"rule": ...}`` (a reminder)."""
    out = []
    for path in sorted(PKG.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            found: list[ast.AST] = []
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                at = {"RuleViolation": 0, "able": 1, "RollSpec": 4}.get(name)
                if at is not None and len(node.args) > at:
                    found.append(node.args[at])
                found += [k.value for k in node.keywords if k.arg == "rule" and name in ("RuleViolation", "RollSpec")]
            elif isinstance(node, ast.Assign):
                found += [node.value for t in node.targets if isinstance(t, ast.Attribute) and t.attr == "rule"]
            elif isinstance(node, ast.Dict):
                found += [v for k, v in zip(node.keys, node.values)
                          if isinstance(k, ast.Constant) and k.value == "rule"]
            for f in found:
                out += [(f"{path.relative_to(PKG)}:{node.lineno}", t) for t in _texts(f)]
    return out


@pytest.mark.skipif(not RULES.exists(), reason="the shared rule text is not beside the checkout")
def test_every_rule_named_is_a_heading_of_the_range_band_text_or_none():
    """Each rule name the code puts on screen or in the log is one of the text's headings, or empty."""
    allowed = set(headings(RULES.read_text(encoding="utf-8"))) | {""}
    named = named_rules()
    assert len(named) > 60  # the scan sees the refusals, rolls and reminders
    wrong = [(where, rule) for where, rule in named if rule not in allowed]
    assert not wrong, wrong


def test_a_refusal_with_no_heading_names_none():
    """A movement roll out of the movement phase rests on the round (FACTS.md), no heading of the rule
    text: the refusal says why and names no rule ("(rule: The round)" was on screen)."""
    enc = to_phase(start(fight(person("A"), person("B"))), "actions", "c1")
    with pytest.raises(RuleViolation) as e:
        act(enc, "move", id="c1", x=5)
    assert e.value.rule == "" and "(rule" not in str(e.value)
    assert str(e.value) == "movement rolls happen in the movement phase"


def test_a_roll_with_no_heading_shows_no_empty_brackets():
    """The ground movement roll rests on the core rules (no heading of the text): its specification shows
    no rule, not "()"."""
    enc = to_phase(start(fight(person("A"), person("B"))), "movement", "c1")
    enc = act(enc, "move", id="c1", x=5)
    spec = next(q for q in enc.state["pending"] if q["kind"] == "movement")["spec"]
    assert spec["rule"] == ""
    assert 'class="rule"' not in str(spec_html(spec))
