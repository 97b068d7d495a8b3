"""The tactical-round panel's part of the page's view state (``fray.web.uistate``), never saved."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class TacticalRoundUi:
    # the attack form as a quick attack or the GM's choices in it set it (id, weapon, target, and
    # line_of_sight once the GM ticks or unticks it), kept through redraws while ``attack_at`` (round,
    # phase, who acts now) still holds: never into another phase or past the one who acted
    attack: dict[str, Any] | None = None
    attack_at: list[Any] | None = None
    attack_weapons: dict[str, int | None] = field(default_factory=dict)  # the weapon the GM chose, by attacker
    attack_targets: dict[str, str] = field(default_factory=dict)  # the target the GM chose, by attacker
    asked: list[Any] | None = None  # [round, phase] whose Next stopped on what is still open
    los: dict[str, bool] = field(default_factory=dict)  # the line of sight the GM last said, "attacker>target"
    card_open: set[str] = field(default_factory=set)  # the cards' lazy fold-outs open now
    card_drawn: set[str] = field(default_factory=set)  # those drawn with their body
    pending_open: set[str] = field(default_factory=set)  # the pending results' fold-outs open now
    pending_drawn: set[str] = field(default_factory=set)
    decl_open: set[str] = field(default_factory=set)  # the declarations' fold-outs open now
    decl_drawn: set[str] = field(default_factory=set)
