"""The tactical-round panel's part of the page's view state (``fray.web.uistate``), never saved."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class TacticalRoundUi:
    attack: dict[str, Any] | None = None  # the attack form as a quick attack set it (id, weapon, target)
    asked: list[Any] | None = None  # [round, phase] whose Next stopped on what is still open
    los: dict[str, bool] = field(default_factory=dict)  # the line of sight the GM last said, "attacker>target"
    card_open: set[str] = field(default_factory=set)  # the cards' lazy fold-outs open now
    card_drawn: set[str] = field(default_factory=set)  # those drawn with their body
    pending_open: set[str] = field(default_factory=set)  # the pending results' fold-outs open now
    pending_drawn: set[str] = field(default_factory=set)
    decl_open: set[str] = field(default_factory=set)  # the declarations' fold-outs open now
    decl_drawn: set[str] = field(default_factory=set)
