"""Issue 10, "Many of one kind": "a bestiary of the GM's own templates kept in the browser, with
export and import". Contracts of ``fray.bestiary``: a template is what the add form sends,
without a position, checked by the engine as an addition is; a file round-trips; reading a
file is all or nothing and names the template and field that is wrong; a template of the same
name and ruleset replaces the old one."""

from __future__ import annotations

import json
import re

import pytest

from fray import bestiary as B, savewords
from fray.errors import InvalidAction
from fray.games import get_ruleset


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
    assert e.value.field == "template.combatant.stats.STR"
    assert savewords.describe_bestiary(e.value).startswith("The template, its stats STR: ")


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
    ("not json", "not a Fray bestiary file"),
    (json.dumps({"format": "fray-encounter", "version": 1, "templates": []}), "not a Fray bestiary file"),
    (json.dumps({"format": "fray-bestiary", "version": "1", "templates": []}), "whole number 1"),
    (json.dumps({"format": "fray-bestiary", "version": 9, "templates": []}), "newer than this Fray"),
    (json.dumps({"format": "fray-bestiary", "version": 1, "templates": {}}), "must be a list"),
    (json.dumps({"format": "fray-bestiary", "version": 1, "templates": [
        {"ruleset": "freeform", "combatant": {"name": "Wolf"}},
        {"ruleset": "chess", "combatant": {"name": "Rook"}}]}), "templates.1.ruleset"),
    (json.dumps({"format": "fray-bestiary", "version": 1, "templates": [
        {"ruleset": "freeform", "combatant": {"name": "Wolf", "side": "monsters"}}]}), "templates.0.combatant.side"),
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


@pytest.mark.parametrize("template, said", [
    ({"ruleset": "freeform", "combatant": {"name": "Rat", "side": "vermin"}}, "Template 2 (Rat), its side: "),
    ({"ruleset": "chess", "combatant": {"name": "Rook"}}, "Template 2 (Rook), its game: this Fray has no game “chess”"),
    ({"ruleset": "freeform", "combatant": {"name": "Rat"}, "extra": 1},
     "Template 2 (Rat): must be a game and a combatant, as Fray exports a template"),
    ({"ruleset": "strike-rank", "combatant": {"name": "Rat", "stats": {"STR": "big"}}}, "Template 2 (Rat), its stats STR: "),
])
def test_a_refused_template_is_named_in_the_gms_words(template, said):
    """Review: the import's error showed "templates.0 (Rat): combatant.side" on screen. The place is said as the
    GM knows it (``fray.savewords``, as for a save file): the template's number from 1 and its name, then its
    field; no dotted path, no "ruleset" or "combatant" (the GM's words are the game and the template)."""
    text = json.dumps({"format": "fray-bestiary", "version": 1, "templates": [
        {"ruleset": "freeform", "combatant": {"name": "Wolf"}}, template]})
    with pytest.raises(InvalidAction) as e:
        B.loads(text)
    words = savewords.describe_bestiary(e.value, text)
    assert words.startswith(said), words
    assert not re.search(r"templates\.|combatant\.|\.\d|ruleset", words), words


@pytest.mark.parametrize("text, said", [
    ("not json", "it is not a Fray bestiary file (the kind Export writes in My bestiary); its text goes wrong "
                 "at line 1, column 1"),
    ("", "it is not a Fray bestiary file (the kind Export writes in My bestiary); the file is empty"),
    (json.dumps({"format": "fray-encounter", "version": 1, "templates": []}),
     "it is a Fray encounter file, not a Fray bestiary file: import it with the toolbar's Import"),
    (json.dumps({"format": "fray-bestiary", "version": 1, "templates": {}}), "The file's templates: must be a list"),
])
def test_a_refused_file_is_named_in_the_gms_words(text, said):
    with pytest.raises(InvalidAction) as e:
        B.loads(text)
    assert savewords.describe_bestiary(e.value, text).startswith(said)
