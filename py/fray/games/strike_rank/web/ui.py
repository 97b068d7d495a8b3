"""The strike-rank panel's part of the page's view state (``fray.web.uistate``), never saved."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class StrikeRankUi:
    open: dict[str, bool] = field(default_factory=dict)  # each fold-out as the page showed it before the render
    opened: set[str] = field(default_factory=set)  # fold-outs drawn with their body while on the page
    change: str | None = None  # the attack whose declaration the GM is changing (its ref)
    undeclared: int | None = None  # the round whose Next stopped on combatants who declared nothing
    still_open: list[Any] | None = None  # [round, SR] whose Next stopped on attacks still open
    free: dict[str, str] | None = None  # the free attack the GM chose to make (attacker, target, prompt)
    target: dict[str, str] = field(default_factory=dict)  # each attack form's chosen defender (ref or "free")
    retarget: dict[str, str] = field(default_factory=dict)  # what a forced change or another target costs, by ref
    change_to: dict[str, dict[str, str]] = field(default_factory=dict)  # a forced change's Action, Weapon, Target picked, by ref
    more: dict[str, Any] = field(default_factory=dict)  # the extra dice an attack form asks for
    aid: dict[str, tuple] = field(default_factory=dict)  # each card's last First Aid: its log's span
    aid_said: dict[str, tuple] = field(default_factory=dict)  # what that First Aid did, as drawn
