"""The page's HTML builders escape every piece of user text (issue 2: names full of HTML show as
text, never as markup). ``fray.web.render`` is pure Python, so CPython checks it here.

Each check parses the HTML the way a browser tokenises it (``html.parser``) and asserts that
(a) no element or attribute came out of the user's text, and (b) the text reads back exactly as
typed, in the element content and in the attributes (aria-label, title, value, data-*).
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest

from fray.model import Combatant, Encounter, LogEntry, Position
from fray.games import get_ruleset
from fray.games.base import Slot, StatSpec
from fray.web import render as R

PAYLOADS = [
    "<img src=x onerror=alert(1)>",
    '"><script>alert(1)</script>',
    "' onmouseover='alert(1)' x='",
    '" autofocus onfocus="alert(1)',
    "</textarea><svg onload=alert(1)>",
    "&amp; &lt;b&gt; &#60;",
]

# Every element the builders write on their own; anything else came from user text.
OWN_TAGS = {"div", "span", "strong", "button", "p", "ol", "li", "h2", "h3", "article", "header", "ul",
            "form", "fieldset", "legend", "label", "input", "select", "option", "textarea", "small",
            "datalist", "em"}


class Parsed(HTMLParser):
    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []
        self.text: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_data(self, data):
        self.text.append(data)

    @property
    def all_text(self) -> str:
        return "".join(self.text)

    def attr_values(self) -> list[str]:
        return [v for _, v in self.attrs if v is not None]


def assert_inert(html: str) -> Parsed:
    p = Parsed(html)
    stray = set(p.tags) - OWN_TAGS
    assert not stray, f"user text became elements: {stray}"
    handlers = [k for k, _ in p.attrs if k.startswith("on") or k in ("autofocus", "src", "x")]
    assert not handlers, f"user text became attributes: {handlers}"
    return p


def nasty_encounter(s: str) -> tuple[Encounter, Combatant]:
    c = Combatant(id="c1", name=s, side="foes", stats={s: s, "initiative": 12}, notes=s, conditions=[s],
                  position=Position(1, 2, 3))
    other = Combatant(id="c2", name="Aria", side="party", stats={"initiative": 12})
    enc = Encounter(ruleset="freeform", name=s, combatants=[c, other], phase="turns", turn=0,
                    log=[LogEntry(1, 1, "note", s), LogEntry(2, 1, "combatant", f"{s} joins the fight")])
    return enc, c


@pytest.fixture(scope="module")
def freeform():
    return get_ruleset("freeform")


@pytest.mark.parametrize("s", PAYLOADS)
def test_combatant_card_escapes_name_notes_conditions_and_stats(freeform, s):
    enc, c = nasty_encounter(s)
    p = assert_inert(R.combatant_card(enc, c, freeform, current=True))
    text = p.all_text
    assert text.count(s) >= 5, text  # name, stat name, stat value, condition, notes
    values = p.attr_values()
    assert s in [v for k, v in p.attrs if k == "aria-label"]
    assert f"Remove {s} from {s}" in values  # the condition's remove button (title)
    assert s in [v for k, v in p.attrs if k == "data-condition"]
    assert f"Edit {s}" in values


@pytest.mark.parametrize("s", PAYLOADS)
def test_stat_line_escapes_stat_names_and_values(freeform, s):
    c = Combatant(id="c1", name="x", stats={s: s, "HP": 9})
    p = assert_inert(R.stat_line(c, freeform))
    assert p.all_text.count(s) == 2
    assert "HP" in p.all_text and "9" in p.all_text


@pytest.mark.parametrize("s", PAYLOADS)
def test_stat_line_of_a_fixed_ruleset_escapes_labels_and_values(s):
    class Fixed:
        free_stats = False
        stats = (StatSpec("weapon", s, kind="text"),)

    c = Combatant(id="c1", name="x", stats={"weapon": s})
    p = assert_inert(R.stat_line(c, Fixed()))
    assert p.all_text.count(s) == 2


@pytest.mark.parametrize("s", PAYLOADS)
def test_order_list_and_round_bar_escape_names_and_labels(freeform, s):
    enc, c = nasty_encounter(s)
    order = [Slot("c1", s, (0,), s), Slot("c2", "Init 12", (1,), "initiative 12")]
    p = assert_inert(R.order_list(enc, order))
    assert p.all_text.count(s) >= 3  # label, name, explanation
    assert f"Move {s} earlier among ties" in p.attr_values()
    p = assert_inert(R.round_bar(enc, order, freeform, {"phase_label": s, "current_label": s, "advance_label": s}))
    assert p.all_text.count(s) >= 4  # phase, current, who, slot label (+ the advance button)


@pytest.mark.parametrize("s", PAYLOADS)
def test_log_items_escape_the_text(s):
    enc, _ = nasty_encounter(s)
    p = assert_inert(R.log_items(enc.log))
    assert [t for t in p.text if s in t]
    assert p.all_text.count(s) == 2


@pytest.mark.parametrize("s", PAYLOADS)
def test_the_edit_form_escapes_every_prefilled_value(freeform, s):
    _, c = nasty_encounter(s)
    p = assert_inert(R.combatant_form(freeform, c, []))
    values = p.attr_values()
    assert s in values  # the name input's value
    assert f"Edit {s}" in p.all_text  # the title
    assert f"{s}: {s}" in p.all_text  # the free-form stats textarea
    assert s in p.all_text  # the notes textarea


@pytest.mark.parametrize("s", PAYLOADS)
def test_the_add_form_escapes_preset_names(s):
    rs = get_ruleset("freeform")
    p = assert_inert(R.combatant_form(rs, None, [{"name": s}]))
    assert s in p.all_text


@pytest.mark.parametrize("s", PAYLOADS)
def test_condition_form_escapes_the_name_and_known_conditions(s):
    _, c = nasty_encounter(s)
    p = assert_inert(R.condition_form(c, {s: s}))
    assert f"Condition on {s}" in p.all_text
    assert s in p.attr_values()  # the game's condition, as a radio button's value
    assert p.all_text.count(s) >= 3  # the heading, the condition's name and what it does


@pytest.mark.parametrize("s", PAYLOADS)
def test_field_html_escapes_value_label_hint_and_choices(s):
    for kind in ("text", "textarea", "choice", "int"):
        p = assert_inert(R.field_html("combatant.x", s, s, kind, help_text=s, choices=(s, "b")))
        assert s in p.all_text  # the label (and the hint)
        if kind == "textarea":
            assert p.all_text.count(s) == 3
        elif kind == "choice":
            assert s in p.attr_values()
        else:
            assert s in p.attr_values()


@pytest.mark.parametrize("s", PAYLOADS)
def test_button_escapes_label_title_and_data(s):
    p = assert_inert(R.button(s, "act", "small", title=s, id=s, condition=s))
    assert p.all_text == s
    assert [v for k, v in p.attrs if k in ("title", "data-id", "data-condition")] == [s, s, s]


def test_empty_state_and_new_encounter_form_are_inert(freeform):
    enc = Encounter(ruleset="freeform", name="<b>x</b>")
    assert_inert(R.empty_state(enc))
    from fray.games import all_rulesets

    assert_inert(R.new_encounter_form(all_rulesets()))


def test_the_builder_escapes_quotes_and_angle_brackets():
    from fray.web.html import escape

    assert escape('<a href="x">\'&') == "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;"
    assert escape(12) == "12"


def test_parse_free_stats_reads_lines_as_typed():
    assert R.parse_free_stats("initiative: 14\n\n HP : 9 \nnotes: a: b\nflag") == {
        "initiative": "14", "HP": "9", "notes": "a: b", "flag": ""}
