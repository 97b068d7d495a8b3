"""What a GM's strike-rank play-through left, in the page: the fallen make no DEX roll when a blow knocks
them back, and a limb mangled on the dead is not asked "is it severed?" (an open such question goes when
its combatant dies).

Every step waits on what the page shows (``expect``), never on time.
"""

from __future__ import annotations

from playwright.sync_api import expect
from test_sr_injuries import damage, load, warrior  # noqa: E402
from test_strike_rank import advance, attack, declare  # noqa: E402

GREAT = {"name": "Greatsword", "skill": 40, "damage": "2D8+2", "sr": 1, "hp": 12, "type": "slashing", "hand": "both"}


def test_a_blow_that_knocks_out_and_back_rolls_no_dex(page, open_app, tmp_path):
    """Knockback: "The target needs to make a DEX×5% roll or fall prone." Ana's greatsword maims Bor's head
    ("Head: Knocked unconscious until healed") and knocks him back 3 m (rolled 14 > SIZ 13): unconscious, he
    makes no DEX roll and falls prone."""
    open_app(page)
    load(page, tmp_path, [(warrior("Ana", weapons=[GREAT]), 0, 0), (warrior("Bor", "foes"), 2, 0)])
    declare(page, "c1", "greatsword", "c2", "SR 6")
    advance(page, "Resolve SR 6")
    # 5 + 5 + 2 + 1D4 2 = 14 rolled; head AP 3: 11 → 5 − 11 = −6, maimed; total 13 − 11 = 2
    attack(page, "none", {"attack": "10", "location": "19", "damage": "5 5 2"})
    log = page.locator("#log")
    expect(log).to_contain_text("Bor: maimed head, unconscious until healed")
    expect(log).to_contain_text("Bor is knocked back 3 m (rolled damage 14 > SIZ 13)")
    expect(log).to_contain_text("Bor is unconscious: no DEX roll to keep their feet; falls prone")
    expect(log).not_to_contain_text("DEX×5")


def test_the_dead_are_not_asked_whether_a_mangled_limb_is_severed(page, open_app, tmp_path):
    """Damage Equal to Triple Location HP: "Limb: Limb is mangled or severed; it is useless (as maimed) and
    bleeds 1 total HP per MR." Alike for the dead, who "cannot do anything": Broo, killed by the blow that
    mangles his arm, is not asked; Vasana, alive, is, and her question goes when she dies."""
    open_app(page)
    load(page, tmp_path, [(warrior("Vasana"), 0, 0), (warrior("Broo", "foes"), 12, 0)])
    asked = page.locator("form[data-form=sr-prompt]", has_text="is it severed?")
    # left arm HP 4, AP 3: 15 − 3 = 12 → −8, mangled; total 13 − 12 = 1
    damage(page, "Vasana", "left_arm", "15")
    expect(asked).to_have_count(1)
    expect(asked).to_contain_text("Vasana's Left arm is mangled: is it severed?")
    damage(page, "Vasana", "right_leg", "5")  # AP 2: 3, total −2: killed
    expect(page.locator("#log")).to_contain_text(
        "The question whether Vasana's Left arm is severed is set aside: Vasana is dead")
    expect(asked).to_have_count(0)
    damage(page, "Broo", "chest", "8")  # AP 3: 5, total 8
    damage(page, "Broo", "left_arm", "15")  # 12: mangled, total −4: killed
    expect(page.locator("#log")).to_contain_text("Broo is killed")
    expect(asked).to_have_count(0)


def test_a_declarations_movement_reads_in_words_on_screen_and_in_the_log(page, open_app, tmp_path):
    """Attacking: "if a human (Movement 3m) must move 6m to get within melee range of an opponent, the attack will
    be delayed by 2 SR". Bor 9 m off: the declaration shows "closes 6 m at 3 m a strike rank: +2 SR", the same
    words in the declarations and in the log."""
    open_app(page)
    load(page, tmp_path, [(warrior("Ana"), 0, 0), (warrior("Bor", "foes"), 9, 0)])
    shown = "SR 9 = DEX 3 + SIZ 2 + weapon 2 + move 2 (closes 6 m at 3 m a strike rank: +2 SR)"
    declare(page, "c1", "broadsword", "c2", shown)
    expect(page.locator("#log")).to_contain_text(f"Ana: melee attack with Broadsword at Bor: {shown}")
    expect(page.locator("#log")).not_to_contain_text("m/SR")
