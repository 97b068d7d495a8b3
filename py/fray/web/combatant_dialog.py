"""The add and edit combatant dialog: its values as the engine's combatant (a ruleset's own fields
from its JSON box, a position on free ground), its errors at their fields, a ready-made combatant
put into it. ``App`` (web/app.py) inherits this.
"""

from __future__ import annotations

import json
from typing import Any

from .. import bestiary, placing
from ..errors import InvalidAction
from ..gate import parse_json
from . import render as R
from .dom import q
from .forms import nest
from .messages import css_string as _css


class CombatantDialog:
    def combatant_payload(self, values: dict[str, Any]) -> dict[str, Any]:
        body = nest(values, "combatant")
        if self.ruleset.free_stats:
            body["stats"] = R.parse_free_stats(values.get("combatant.stats", ""))
        if "combatant.count" in values:  # the add form (the edit form has no How many)
            body["position"] = self.new_position(values)
        return body

    def new_position(self, values: dict[str, Any]) -> dict[str, Any]:
        """The add form's position: as typed; East and North both left empty, on free ground beside
        the others for the whole group (fray.placing, issue 33), so a second Add ×6 does not stand on
        the first. One of them empty is 0, as the form's default was."""
        raw = {k: values.get(f"combatant.position.{k}", "") for k in ("x", "y", "alt")}
        blank = {k: v is None or (isinstance(v, str) and not v.strip()) for k, v in raw.items()}
        if blank["x"] and blank["y"]:
            try:  # a rider stands on its mount
                mount = placing.ridden(self.enc, json.loads(values.get("combatant.extra") or "{}"))
            except (ValueError, TypeError):
                mount = None  # the JSON box's own error is named at it
            if mount is not None:
                return {"x": mount.x, "y": mount.y, "alt": mount.alt if blank["alt"] else raw["alt"]}
            try:
                count = max(1, min(int(str(values.get("combatant.count") or "1").strip()), 200))
            except ValueError:
                count = 1  # the engine names the bad count at its field
            side = values.get("combatant.side", "foes")
            spot = placing.free_spot(self.enc, side if isinstance(side, str) else "foes", count)
            return {"x": spot.x, "y": spot.y, "alt": 0 if blank["alt"] else raw["alt"]}
        return {k: 0 if blank[k] else v for k, v in raw.items()}

    def submit_combatant(self, form: Any, values: dict[str, Any], cid: str | None) -> None:
        body = self.combatant_payload(values)
        extra_text = body.pop("extra", None)
        if cid is None and extra_text and extra_text.strip():
            # Weapons, armour, body plan, spells: the ruleset's own fields, as JSON the GM can edit
            # (a ready-made combatant fills it in).
            try:
                extra = parse_json(extra_text, "combatant.extra")
                if not isinstance(extra, dict):
                    raise ValueError("expected an object such as {\"weapons\": [...]}")
            except InvalidAction as e:
                self.clear_errors(form)
                if e.message.startswith("not JSON: "):  # the parser's words, not the GM's
                    e = InvalidAction(e.field, "cannot be read as a Fray file writes it: "
                                      + e.message.removeprefix("not JSON: "))
                self.show_error(form, e)
                return
            except ValueError as e:
                self.clear_errors(form)
                self.show_error(form, InvalidAction("combatant.extra", f"cannot be read as a Fray file writes it (between {{ and }}): {e}"))
                return
            body = {**extra, **body}
        known = ("combatant.name", "combatant.side", "combatant.stats", "combatant.notes", "combatant.position",
                 "combatant.count")

        def to_form_field(f: str) -> str:
            f = "combatant." + f.removeprefix("changes.").removeprefix("combatant.")
            if f.startswith(known) or f == "combatant":
                return f
            # A ruleset field with its own control in the dialog keeps its error there when the path
            # names one entry of it ("combatant.armour.legs": the strike-rank Armour points); any other
            # error inside the ruleset's fields lands at the JSON box, naming its whole path.
            # (or an item of it: "combatant.weapons.0.type" at the strike-rank Weapons box)
            parent = f.rpartition(".")[0]
            while parent.count("."):
                if q(form, f'[data-error-for="{_css(parent)}"]') is not None:
                    return f
                parent = parent.rpartition(".")[0]
            return "combatant.extra"

        if cid is None:
            # a walker typed in below the ground is refused at Altitude, as a move there is
            ok = self.dispatch({"type": "add_combatant", "combatant": body, "check_ground": True}, form, to_form_field)
        else:
            ok = self.dispatch({"type": "edit_combatant", "id": cid, "changes": body}, form, to_form_field)
        if ok:
            self.close_dialog()
            if cid is None and values.get("keep"):
                # the engine took it, so it is a template it will take again
                t = bestiary.template_of(self.ruleset.id, body)
                name = t["combatant"].get("name", "")
                self.in_background(self.keep_template(t, name))

    def use_preset(self, form: Any) -> None:
        idx = q(form, "[name=preset]").value
        if idx == "":
            return
        if idx.startswith("b"):  # one of the GM's own templates
            mine = self.my_templates()
            k = int(idx[1:])
            if not 0 <= k < len(mine):
                return
            preset = mine[k]["combatant"]
        else:
            preset = self.ruleset.presets()[int(idx)]
        values = {"combatant.name": preset.get("name", ""), "combatant.side": preset.get("side", "foes"),
                  "combatant.notes": preset.get("notes", "")}
        if self.ruleset.free_stats:  # one box of "name: value" lines
            values["combatant.stats"] = "\n".join(f"{k}: {v}" for k, v in preset.get("stats", {}).items())
        else:
            # every stat, not only the preset's: one picked before must leave nothing behind (a
            # Human scout after the Winged flyer has no Flying SPD)
            stats = preset.get("stats", {})
            values.update({f"combatant.stats.{s.key}": stats.get(s.key, s.default) for s in self.ruleset.stats})
        pos = preset.get("position") if isinstance(preset.get("position"), dict) else {}
        # no position in the preset: East and North stay empty, so it stands on free ground (fray.placing)
        values.update({f"combatant.position.{k}": pos.get(k, "" if k != "alt" else 0) for k in ("x", "y", "alt")})
        extra = {k: v for k, v in preset.items() if k not in ("name", "side", "stats", "notes", "position")}
        values["combatant.extra"] = json.dumps(extra, indent=1, ensure_ascii=False) if extra else ""
        for k, v in values.items():
            ctl = q(form, f'[name="{k}"]')
            if ctl is not None:
                ctl.value = "" if v is None else str(v)
