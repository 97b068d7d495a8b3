"""Issue 10, "Many of one kind": "a bestiary of the GM's own templates kept in the browser, with
export and import". Contracts of ``fray.bestiary``: a template is what the add form sends,
without a position, checked by the engine as an addition is; a file round-trips; reading a
file is all or nothing and names the template and field that is wrong; a template of the same
name and ruleset replaces the old one."""

from __future__ import annotations

import json

import pytest

from fray import bestiary as B
from fray.errors import InvalidAction
from fray.rulesets import get_ruleset


def sr(name="Goblin", **over):
    p = dict(get_ruleset("strike-rank").presets()[0])
    return {**p, "name": name, "position": {"x": 3, "y": 4, "alt": 0}, **over}


def test_a_template_is_the_add_form_s_combatant_without_its_place():
    t = B.template_of("strike-rank", sr())
    assert t["ruleset"] == "strike-rank" and "position" not in t["combatant"]
    assert t["combatant"]["name"] == "Goblin"


def test_a_template_the_engine_refuses_is_refused_naming_the_field():
    with pytest.raises(InvalidAction) as e:
        B.template_of("strike-rank", sr(stats={**sr()["stats"], "STR": "strong"}))
    assert "template (Goblin): combatant.stats.STR" in str(e.value)


def test_a_file_round_trips():
    ts = [B.template_of("strike-rank", sr("Goblin")), B.template_of("freeform", {"name": "Wolf", "stats": {"HP": 9}})]
    assert B.loads(B.dumps(ts)) == ts


def test_the_same_name_and_ruleset_replaces_and_merge_counts():
    a = B.template_of("freeform", {"name": "Wolf", "stats": {"HP": 9}})
    b = B.template_of("freeform", {"name": "Wolf", "stats": {"HP": 12}})
    c = B.template_of("freeform", {"name": "Bear", "stats": {"HP": 20}})
    assert B.add([a], b) == [b]
    merged, new, replaced = B.merge([a], [b, c])
    assert merged == [b, c] and (new, replaced) == (1, 1)
    assert [t["combatant"]["name"] for t in B.of_ruleset(merged, "freeform")] == ["Bear", "Wolf"]
    assert B.remove(merged, "freeform", "Wolf") == [c]


@pytest.mark.parametrize("text, words", [
    ("not json", "not JSON"),
    (json.dumps({"format": "fray-encounter", "version": 1, "templates": []}), "not a Fray bestiary"),
    (json.dumps({"format": "fray-bestiary", "version": "1", "templates": []}), "whole number 1"),
    (json.dumps({"format": "fray-bestiary", "version": 9, "templates": []}), "newer than this Fray"),
    (json.dumps({"format": "fray-bestiary", "version": 1, "templates": {}}), "must be a list"),
    (json.dumps({"format": "fray-bestiary", "version": 1, "templates": [
        {"ruleset": "freeform", "combatant": {"name": "Wolf"}},
        {"ruleset": "chess", "combatant": {"name": "Rook"}}]}), "templates.1.ruleset"),
    (json.dumps({"format": "fray-bestiary", "version": 1, "templates": [
        {"ruleset": "freeform", "combatant": {"name": "Wolf", "side": "monsters"}}]}), "templates.0 (Wolf): combatant.side"),
    (json.dumps({"format": "fray-bestiary", "version": 1, "templates": [
        {"ruleset": "freeform", "combatant": {"name": "Wolf"}, "extra": 1}]}), "templates.0"),
    (json.dumps({"format": "fray-bestiary", "version": 1, "templates": [
        {"ruleset": "freeform", "combatant": {"name": "x" * 61}}]}), "longer than 60"),
    ('{"format": "fray-bestiary", "version": 1, "templates": ' + "[" * 200 + "]" * 200 + "}", "deep"),
])
def test_a_bad_file_is_refused_whole_with_what_is_wrong(text, words):
    with pytest.raises(InvalidAction) as e:
        B.loads(text)
    assert words in str(e.value)


def test_a_bestiary_is_capped():
    many = [{"ruleset": "freeform", "combatant": {"name": f"Rat {i}"}} for i in range(B.MAX_TEMPLATES + 1)]
    with pytest.raises(InvalidAction) as e:
        B.loads(json.dumps({"format": "fray-bestiary", "version": 1, "templates": many}))
    assert "at most 500" in str(e.value)


def test_the_library_keeps_the_bestiary_and_reads_it_strictly():
    import asyncio

    from fray.web.store import Library, MemoryBackend

    lib = Library(MemoryBackend())
    t = B.template_of("freeform", {"name": "Wolf", "stats": {"HP": 9}})
    assert asyncio.run(lib.bestiary()) == []
    asyncio.run(lib.save_bestiary([t]))
    assert asyncio.run(lib.bestiary()) == [t]
    lib.backend.metas["bestiary"] = '{"format": "fray-bestiary", "version": 1, "templates": [{"ruleset": "x"}]}'
    with pytest.raises(InvalidAction):
        asyncio.run(lib.bestiary())
    assert "ruleset" in lib.backend.metas["bestiary"]  # read, never rewritten by the failed read


def test_the_dialog_escapes_names_and_lists_this_rulesets_templates_only():
    from fray.web import bestiary_view

    evil = "<img src=x onerror=alert(1)>"
    ts = [B.template_of("freeform", {"name": evil, "stats": {"HP": 9}}), B.template_of("strike-rank", sr())]
    html = bestiary_view.bestiary_html(ts, get_ruleset("freeform"))
    assert "<img" not in html and "&lt;img" in html
    assert "Goblin" not in html and "1 more for other rules" in html
    assert 'id="bestiary-import"' in html and 'data-act="bestiary-export"' in html


def test_the_add_form_offers_the_templates_under_my_bestiary():
    from fray.web import render as R

    rs = get_ruleset("strike-rank")
    ts = B.of_ruleset([B.template_of("strike-rank", sr("Cave goblin"))], "strike-rank")
    html = R.combatant_form(rs, None, rs.presets(), ts)
    assert '<optgroup label="My bestiary"><option value="b0">Cave goblin</option></optgroup>' in html
    assert 'name="keep"' in html
