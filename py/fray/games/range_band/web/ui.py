"""The range-band panel's part of the page's view state (``fray.web.uistate``), never saved."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class RangeBandUi:
    hold: str | None = None  # what holds Next back to ask first ("order", "open"; issue 32)
    folds: dict[str, bool] = field(default_factory=dict)  # the kept fold-outs (notes, turn order) as shown
    narrow: bool = False  # a tablet's width: the strip shows the turn order
    open: set[str] = field(default_factory=set)  # the lazy fold-outs open now
    drawn: set[str] = field(default_factory=set)  # those drawn with their body
    zone_open: bool = False  # the zone's settings shown open
    areas_open: bool = False  # the areas' list shown open
    weapons: dict[str, str] = field(default_factory=dict)  # each attacker's last Weapon in the attack form, by id
    targets: dict[str, str] = field(default_factory=dict)  # each attacker's Target chosen in the attack form, by id
