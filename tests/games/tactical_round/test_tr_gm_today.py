"""What a GM's play-through of the tactical round found on today's build, in the engine: one 30-hit blow
logged both "Gorbag is now bruised (HP -5)" and "Gorbag is now incapacitated (HP -5)"."""

from __future__ import annotations

from tr_helpers import SWORD, do, fight, fighter


def hp_lines(events) -> list[str]:
    return [e["text"] for e in events if e["kind"] == "condition"]


def test_one_blow_says_the_state_it_ends_in():
    """FACTS.md (tactical-round): "Hit points: 0 or below → incapacitated; −50 or below → dying; below half
    → Bruised (−20)." A blow that takes a fighter from whole to 0 or below ends in incapacitated: the log
    says that, not "bruised" first, as if the blow had left him on his feet; bruised alone is said when
    the blow ends there, and the worst state is said when a blow goes past two thresholds."""
    enc = fight(fighter("Gorbag", SWORD, HP=25), fighter("Mira", SWORD, side="party", x=1))
    down, ev = do(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 30})
    assert hp_lines(ev) == ["Gorbag is now incapacitated (HP -5)"]
    assert {"bruised", "incapacitated"} <= set(down.get("c1").conditions)  # the state itself is as before
    _, ev = do(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 20})
    assert hp_lines(ev) == ["Gorbag is now bruised (HP 5)"]
    _, ev = do(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": 80})
    assert hp_lines(ev) == ["Gorbag is now dying (HP -55)"]
    _, ev = do(down, {"type": "tr.adjust_hp", "id": "c1", "hits": 50})
    assert hp_lines(ev) == ["Gorbag is now dying (HP -55)"]


# -- a GM's play-through, the next day: "Orc 2 is now dying (HP -55)", then "Orc 2 is incapacitated: ..." on the
# next two log lines, and the strip read "dying bruised incapacitated"




def _dying_orc():
    """Mira's blow of 100 hits takes Orc 2 (HP 45), engaged with her and with a Melee attack declared, to HP -55."""
    from tr_helpers import declare, to_phase
    enc = fight(fighter("Orc 2", SWORD, HP=45), fighter("Mira", SWORD, side="party", x=1))
    enc = declare(enc, "c1", {"action": "melee_attack", "weapon": 0, "target": "c2"})
    enc = declare(enc, "c2", {"action": "melee_attack", "weapon": 0, "target": "c1"})
    enc = to_phase(enc, "melee")
    enc, ev = do(enc, {"type": "tr.attack", "id": "c2", "target": "c1"}, attack=[60])
    enc, ev2 = do(enc, {"type": "tr.apply_result", "ref": enc.state["pending"][0]["ref"], "hits": 100})
    return enc, ev + ev2


def test_the_log_names_only_the_state_the_blow_leaves():
    """FACTS.md (tactical-round): "Hit points: 0 or below → incapacitated; −50 or below → dying; below half →
    Bruised (−20)." HP −50 or below is also 0 or below and below half: dying includes the other two, so the
    lines after "Orc 2 is now dying" (his engagement ending, his declared attack lapsing) say "dying" too,
    never "incapacitated", as if he were better off than the line before said."""
    enc, ev = _dying_orc()
    lines = [e["text"] for e in ev if "Orc 2 is" in e["text"]]
    assert lines == ["Orc 2 is now dying (HP -55)", "Orc 2 is dying: no longer Engaged with Mira"]
    _, ev = do(enc, {"type": "advance", "mode": "go_on"})
    assert [e["text"] for e in ev if "Orc 2" in e["text"]] == ["Orc 2 is dying: the declared Melee attack lapses"]


def test_the_strip_and_the_card_show_no_state_a_worse_one_includes():
    """FACTS.md (tactical-round): "Hit points: 0 or below → incapacitated; −50 or below → dying; below half →
    Bruised (−20)." Every HP at −50 or below is at 0 or below and below half, and every HP at 0 or below is
    below half: dying includes incapacitated and bruised, incapacitated includes bruised, and the dead are
    none of them any more. The strip and the card say the one state (they read "dying bruised
    incapacitated")."""
    from tr_helpers import RS
    enc, _ = _dying_orc()
    assert {"bruised", "incapacitated", "dying"} <= set(enc.get("c1").conditions)  # the rules still see all three
    s = RS.status(enc, RS.view(enc), "c1")
    assert (s["word"], s["chips"]) == ("dying", [])
    card = next(c for c in RS.view(enc)["combatants"] if c["id"] == "c1")
    assert [x["name"] for x in card["conditions"]] == ["dying"]
    down, _ = do(enc, {"type": "tr.adjust_hp", "id": "c1", "hits": -50})  # back to HP -5
    s = RS.status(down, RS.view(down), "c1")
    assert (s["word"], s["chips"]) == ("incapacitated", [])
    dead, _ = do(enc, {"type": "set_condition", "id": "c1", "condition": "dead", "on": True})
    s = RS.status(dead, RS.view(dead), "c1")
    assert (s["word"], s["chips"]) == ("dead", [])
    assert [x["name"] for x in next(c for c in RS.view(dead)["combatants"] if c["id"] == "c1")["conditions"]] == ["dead"]


# -- Next and an attack rolled but not yet read on the attack table

def _attack_waiting():
    """Mira's blow on Grak rolled (A1), its result not entered; Grak and Uzg skip theirs."""
    from test_tr_play_left import NEXT, melee
    enc = melee()
    enc, _ = do(enc, {"type": "tr.attack", "id": "c1", "target": "c2", "rolls": {"attack": [60]}})
    assert [p["stage"] for p in enc.state["pending"]] == ["attack"]
    for cid in ("c2", "c3"):
        enc, _ = do(enc, {"type": "tr.skip", "id": cid})
    return enc, NEXT


def test_next_stops_at_an_attack_waiting_for_its_table_result():
    """FACTS.md, the attack: "The total is looked up on attack tables by weapon type and armour type ...
    the engine computes and shows the total, and the GM enters the result (hits and critical severity)".
    The page's Next stops at an attack whose result is not entered, as it does at a critical (it went on,
    and the blow was never read); the GM enters it, or leaves it in words."""
    from tr_helpers import next_stops_at_a1

    next_stops_at_a1(_attack_waiting()[0], r"A1, Mira's attack on Grak, has no result: enter it from the attack "
                                           r"table or leave it",
                     "The GM goes on: A1, Mira's attack on Grak, is left without a result",
                     {"type": "tr.apply_result", "ref": "A1", "hits": 4})


def test_the_box_of_a_next_that_stopped_offers_to_enter_the_result_or_leave_it():
    """The same stop on the page: the box names the attack waiting for its result, with Enter it and one way
    to leave it that says Next goes on."""
    import re

    from fray.games.tactical_round.web.panel import open_html
    from fray.games.tactical_round.web.ui import TacticalRoundUi
    from tr_helpers import RS

    enc, _ = _attack_waiting()
    box = str(open_html(RS.view(enc), TacticalRoundUi(asked=[enc.round, enc.phase])))
    assert "Attack A1, Mira&#x27;s attack on Grak, has no result" in box or \
        "Attack A1, Mira's attack on Grak, has no result" in box
    buttons = re.findall(r"<button[^>]*>([^<]*)</button>", box)
    assert "Enter it" in buttons and [b for b in buttons if "Leave" in b] == ["Leave it and go on"]


def test_once_all_who_declared_have_attacked_the_attack_form_stays_folded_with_why():
    """The rule text, Running Away: "If the attackers win, they may strike at the fleeing character (gaining
    the On Rear bonus) before they can get away": an attack no one declared, which the GM may need to make
    (the Tactical Round Sequence takes the declared ones in their phase). A GM's play-through: once all who
    declared had acted in Melee the Attack form was gone, with no word why. It stays, folded, and says why."""
    from fray.games.tactical_round.web.panel import panel_html
    from test_tr_play_left import melee

    enc = melee()
    enc, _ = do(enc, {"type": "tr.attack", "id": "c1", "target": "c2", "rolls": {"attack": [60]}})
    enc, _ = do(enc, {"type": "tr.apply_result", "ref": "A1", "hits": 4})
    for cid in ("c2", "c3"):
        enc, _ = do(enc, {"type": "tr.skip", "id": cid})
    from tr_helpers import RS
    panel = str(panel_html(RS.view(enc)))
    assert 'data-form="tr-attack"' in panel
    assert '<details class="tr-box tr-attack-box tr-undeclared">' in panel  # folded: nobody has one to make
    assert "Everyone who declared an attack in Melee has made it" in panel
