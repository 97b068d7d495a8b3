"""The players' window's markup, and the GM's dialog that sets it up (issue 12).

Pure functions over ``fray.players.project``'s result: the players' window gets nothing else, so
what the projection leaves out (notes, pending dice, hidden combatants) cannot reach its DOM.
The players' markup has no controls at all: it is read across a table, in large type.
"""

from __future__ import annotations

import math
from typing import Any

from types import SimpleNamespace

from .. import players
from .maplabels import label_svg, place_labels, wrap_three, wrap_words
from .mapview import area_names, lift_offsets, name_svg, token_initials
from .html import Markup, h, html
from .render import button

W, H = 1000, 720  # the map's drawing units (the SVG scales to its box)
PAD = 70
R_TOKEN = 26
LABEL_PX = 28  # .pv-label's font size in players.css: the boxes place_labels keeps apart
AREA_PX = 22  # .pv-area-name's


_button = button  # render.button: Markup, its label and every attribute escaped


def players_html(p: dict[str, Any]) -> Markup:
    """The whole players' window: the round, whose turn it is, the order of play, the map."""
    by_id = {c["id"]: c for c in p["combatants"]}
    now = by_id.get(p.get("current") or "")
    label = p.get("phase_label") or ("Setting up" if p["phase"] == "setup" else p["phase"].capitalize())
    head = html('<header class="pv-head"><h1 class="pv-title">{}</h1><p class="pv-round">Round {} · {}</p></header>',
                p["name"], str(p["round"]), label)
    acting = (html('<p class="pv-now" id="pv-now">Now: <strong>{}</strong></p>', now["name"]) if now
              else html('<p class="pv-now" id="pv-now">&nbsp;</p>'))
    rows = []
    for o in p["order"]:
        c = by_id.get(o["id"], {})
        wound = h("span", {"class": "pv-wound"}, c.get("wounds", "")) if c.get("wounds") else None
        cls = f'pv-slot side-{c.get("side", "foes")}' + (" current" if o["current"] else "")
        rows.append(h("li", {"class": cls, "aria-current": "true" if o["current"] else None, "data-id": o["id"]},
                      h("span", {"class": "pv-name"}, o["name"]), wound))
    order = html('<section class="pv-order" aria-label="Order of play"><h2>Order of play</h2>'
                 '<ol id="pv-order">{}</ol></section>', Markup("").join(rows) or _NO_ONE)
    dense = order_density(len(rows))
    return html('{}<div class="pv-body{}">{}<section class="pv-map" aria-label="Map">{}{}</section></div>',
                head, " " + dense if dense else "", order, acting, map_svg(p))


_NO_ONE = html("<li class=pv-empty>No one yet</li>")


# How many rows of the order of play fit one column of a 1920x1080 screen at each density of
# players.css, and the class that sets it: a screen across the table cannot be scrolled, so a
# longer order goes into more, narrower columns in smaller type rather than off the bottom.
DENSITIES = ((10, ""), (22, "dense-2"), (45, "dense-3"), (80, "dense-4"))


def order_density(rows: int) -> str:
    for most, cls in DENSITIES:
        if rows <= most:
            return cls
    return "dense-5"


def _radius(points: list[tuple[float, float]]) -> float:
    """R_TOKEN, or, where two tokens stand closer than two of it, half the gap to the nearest one
    (at least half size), as ``mapview.token_radius`` does on the GM's map; tokens on one spot (a
    gap of a quarter radius or less) stay stacked."""
    least = 2 * R_TOKEN
    for i, (ax, ay) in enumerate(points):
        for bx, by in points[i + 1:]:
            g = math.hypot(ax - bx, ay - by)
            if R_TOKEN / 4 < g < least:
                least = g
    return max(R_TOKEN / 2, min(R_TOKEN, least / 2))


def initials_size(text: str, r: float) -> float:
    """The font size of a token's initials: as large as reads across a table (30 px on a full token),
    and no wider than three quarters of the disc (a GM's fights: "MW1", "WM" spilled over tokens shrunk
    in a crowd). The widths are generous ems of the window's bold sans-serif: M and W widest, digits
    narrowest."""
    ems = sum(1.05 if ch in "MW" else .7 if ch.isdigit() else .82 for ch in text) or 1.0
    return min(30 * r / R_TOKEN, 1.5 * r / ems)


def areas_svg(areas: list[dict[str, Any]], at: Any, scale: float, names: dict[str, dict[str, Any]]) -> Markup:
    """The marked areas under the tokens: translucent circles, an obstacle hatched, each named on
    its edge where ``mapview.area_names`` found room clear of every token and name."""
    if not areas:
        return Markup("")
    out = []
    if any(a["style"] == "solid" for a in areas):
        out.append(html('<defs><pattern id="pv-area-hatch" patternUnits="userSpaceOnUse" width="22" height="22" '
                   'patternTransform="rotate(45)"><rect class="pv-hatch-bg" width="22" height="22"></rect>'
                   '<line class="pv-hatch-line" x1="0" y1="0" x2="0" y2="22"></line></pattern></defs>'))
    out.append(html('<g class="pv-areas">'))
    for a in areas:
        x, y = at(a)
        fill = html(' fill="url(#pv-area-hatch)"') if a["style"] == "solid" else ""
        name = name_svg(names[a["ref"]], "pv-area-name") if a["ref"] in names else ""
        out.append(html('<g class="pv-area area-{}" data-area="{}"><title>{}</title>'
                        '<circle cx="{:.1f}" cy="{:.1f}" r="{:.1f}"{}></circle>{}</g>',
                        a["style"], a["ref"], a["label"], x, y, a["radius"] * scale, fill, name))
    out.append(html("</g>"))
    return Markup("").join(out)


def _tier(text: str, shortest: tuple[str, ...], name: str, down: bool) -> int:
    """How much a form of a token's label says, for ``place_labels``' ``tiers``, as ``mapview.says`` on the GM's
    map: 0 the name and the rest, 1 the name alone (what ``place_labels`` gives every token before any label is
    made fuller), 2 the initials. A fallen's forms in their order (its name and "down" the last). A label that
    is the name alone is tier 1, not 0: "Bandit Captain Morrow the Twice-Hanged", with nothing more to say, was
    never given his name first in a crowd and the players' window read "BC" where the GM's map named him."""
    if down:
        return shortest.index(text)
    return 1 if text == name else 0 if text in shortest[:1] else 2


def map_svg(p: dict[str, Any]) -> Markup:
    """The tokens on a plain field, fitted to the combatants the players may see (so the frame
    itself says nothing of where a hidden one stands) and the areas marked on it."""
    cs = p["combatants"]
    areas = p.get("areas") or []
    if not cs and not areas:
        return html('<svg class="pv-svg" viewBox="0 0 {} {}" role="img" aria-label="Map: no one to show"></svg>', W, H)
    xs, ys = [c["x"] for c in cs], [c["y"] for c in cs]
    if not cs:
        xs, ys = [a["x"] for a in areas], [a["y"] for a in areas]
    # An area is framed whole where it is no larger than the fight; a cloud over everyone would
    # shrink the fight to a dot, so of that one only the centre is framed (its edge runs off).
    span0 = max(max(xs) - min(xs), max(ys) - min(ys), 10.0)
    for a in areas:
        r = a["radius"] if a["radius"] <= span0 else 0.0
        xs += [a["x"] - r, a["x"] + r]
        ys += [a["y"] - r, a["y"] + r]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    span = max(x1 - x0, y1 - y0, 10.0)
    scale = min((W - 2 * PAD) / span, (H - 2 * PAD) / span)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2

    def at(c: dict[str, Any]) -> tuple[float, float]:
        return W / 2 + (c["x"] - cx) * scale, H / 2 - (c["y"] - cy) * scale  # north is up

    # Every token where the GM's map has it (issue 33, "The players' map tells the truth"): the same
    # geometry in this window's own zoom, never nudged apart. As on the GM's map (mapview.token_radius),
    # tokens closer than two radii shrink to touch, at least half size, and tokens on one spot (a rider
    # on the mount) stay stacked; an airborne token is drawn up a stalk from its shadow (lift_offsets).
    ground = {c["id"]: at(c) for c in cs}
    r = _radius(list(ground.values()))
    lifted = lift_offsets(SimpleNamespace(combatants=[
        SimpleNamespace(id=c["id"], position=SimpleNamespace(x=ground[c["id"]][0], y=-ground[c["id"]][1], alt=c["alt"]))
        for c in cs]), r)
    tokens, wanted, discs = [], [], []
    initials = token_initials(SimpleNamespace(combatants=[SimpleNamespace(id=c["id"], name=c["name"]) for c in cs]))
    # the fallen under the standing, airborne tokens above the ones on the ground, as on the GM's map
    for c in sorted(cs, key=lambda c: ("down" not in (c.get("states") or []), c["alt"] > 0, c["alt"])):
        gx, gy = ground[c["id"]]
        dx, dy = lifted[c["id"]]
        x, y = gx + dx, gy + dy
        states = c.get("states") or []
        # on the ground (prone, range-band's knocked down: players.lying); an older drawing has only "prone"
        lying = c.get("lying", "prone" in states)
        cur = " current" if c["id"] == p.get("current") else ""
        cls = cur + (" down" if "down" in states else "") + (" prone" if lying else "") + (
            " airborne" if dx or dy else "")
        alt = f' · {c["alt"]:g} m up' if c.get("alt") else ""
        said = "".join(f" · {s}" for s in states)
        parts = [html('<g class="pv-token side-{}{}" data-id="{}" transform="translate({:.2f} {:.2f})"><title>{}</title>',
                      c["side"], cls, c["id"], gx, gy, c["name"] + alt + said)]
        if dx or dy:
            parts.append(html('<ellipse class="pv-shadow" cx="0" cy="0" rx="{:.1f}" ry="{:.1f}"></ellipse>'
                              '<line class="pv-stalk" x1="0" y1="0" x2="{:.1f}" y2="{:.1f}"></line>',
                              r * .8, r * .35, dx, dy))
        if lying:
            parts.append(html('<ellipse class="pv-disc" cx="{:.1f}" cy="{:.1f}" rx="{:.1f}" ry="{:.1f}"></ellipse>',
                              dx, dy, r, r * .55))
        else:
            parts.append(html('<circle class="pv-disc" cx="{:.1f}" cy="{:.1f}" r="{:.1f}"></circle>', dx, dy, r))
        if "down" in states:
            d = r * .6
            parts.append(html('<path class="pv-cross" d="M{x0:.1f} {y0:.1f}L{x1:.1f} {y1:.1f}M{x1:.1f} {y0:.1f}'
                              'L{x0:.1f} {y1:.1f}"></path>', x0=dx - d, y0=dy - d, x1=dx + d, y1=dy + d))
        size = initials_size(initials[c["id"]], r)
        parts.append(html('<text class="pv-initial" x="{:.1f}" y="{:.1f}" font-size="{:.1f}" text-anchor="middle">'
                          '{}</text></g>', dx, dy + size / 3, size, initials[c["id"]]))
        tokens.append(Markup("").join(parts))
        disc = (x - r, y - r, x + r, y + r)
        discs.append(disc)
        label = c["name"] + (f' · {c["alt"]:g} m up' if c.get("alt") else "") + (
            f' · {", ".join(states)}' if states else "")
        # the fallen's initials are under the cross: their label names them to the last, and says
        # "down" to the last (a GM's play-through: the dead "Broo 2", crowded to his name alone, or
        # on a leader, read as standing while other dead said "· down")
        shortest = (label, f'{c["name"]} · down') if "down" in states else (label, c["name"], initials[c["id"]])
        # each form on one line, then over two (a long name finds room for half its width in a crowd: the
        # dead "Broo 2 the Unwashed Goat-headed" had no label at all, only the "B2" under his cross), a long
        # name alone over three as well, as on the GM's map (mapview.label_lines)
        forms = dict.fromkeys(tuple(lines) for text in shortest for lines in (
            [text], wrap_words(text), *([wrap_three(text)] if text == c["name"] and "down" not in states else [])))
        wanted.append({"id": c["id"], "cx": x, "cy": y, "r": r, "own": disc, "must": True,
                       "variants": [[("pv-label", [("", text)], LABEL_PX) for text in lines] for lines in forms],
                       # the label, then the name, then the initials: each beside or out on a leader before the next
                       "tiers": [_tier(" ".join(lines), shortest, c["name"], "down" in states) for lines in forms],
                       "named": "down" in states})
    # the labels as the GM's map places them (maplabels.place_labels): the one acting first, then in
    # the order they joined; beside each token where they overlap no other label or token and stay
    # inside the map, shorter (the name, then the initials on the token) where the full one has no
    # room, further out on a leader where none has: never left out
    wanted.sort(key=lambda w: w["id"] != p.get("current"))
    if wanted and wanted[0]["id"] == p.get("current"):
        wanted[0]["first"] = True  # the one acting: their label whole, before anyone's short one
    placed = place_labels(wanted, discs, [0.0, 0.0, float(W), float(H)])
    names = area_names([SimpleNamespace(**a) for a in areas], AREA_PX, discs + [q["box"] for q in placed.values()],
                       [0.0, 0.0, float(W), float(H)], -1.0, scale, W / 2 - cx * scale, H / 2 + cy * scale)
    labels = Markup("").join(html('<g class="pv-label-at" data-label-for="{}">{}</g>', i, label_svg(placed[i], 0.0, 0.0))
                             for i in (w["id"] for w in wanted) if i in placed)
    # the transform from metres to this drawing, for anyone comparing it with the GM's map
    return html('<svg class="pv-svg" viewBox="0 0 {W} {H}" role="img" aria-label="Map" data-scale="{scale:.6f}" '
                'data-cx="{cx:.4f}" data-cy="{cy:.4f}">'
                '<rect class="pv-field" x="0" y="0" width="{W}" height="{H}"></rect>{areas}{tokens}'
                '<g class="pv-labels">{labels}</g></svg>', W=W, H=H, scale=scale, cx=cx, cy=cy,
                areas=areas_svg(areas, at, scale, names), tokens=Markup("").join(tokens), labels=labels)


HIDE_LABEL = {True: "hidden", False: "shown", None: "automatic"}


def _choice(label: str, act: str, on: bool, **data: Any) -> Markup:
    """One choice of a group, a toggle button that says whether it is the chosen one (``aria-pressed``; the
    page draws it filled, with a tick): a GM could not tell which Wounds choice was on when only the colour
    of a border told them apart."""
    return h("button", {"type": "button", "data-act": act, "class": "small", "aria-pressed": "true" if on else "false",
                        **{"data-" + k: str(v) for k, v in data.items()}}, label)


def settings_dialog(enc: Any, view: dict[str, Any]) -> Markup:
    """The GM's players' view dialog: open the window, choose how wounds show, hide or show each
    combatant (the automatic rule, where the ruleset judges sight, says who no party member sees)."""
    s = players.settings(enc)
    auto = players.auto_hidden(enc, view)
    hidden = players.hidden_ids(enc, view)
    modes = Markup("").join(
        _choice(lbl, "players-wounds", s["wounds"] == m, mode=m)
        for m, lbl in (("exact", "Exact HP"), ("described", "Described (\u201cbadly hurt\u201d)"), ("none", "Nothing")))
    rows = []
    for c in enc.combatants:
        choice = s["hide"].get(c.id)
        why = " (no one of the party sees them)" if c.id in auto else ""
        state = ("Hidden" if c.id in hidden else "Shown") + (f": {HIDE_LABEL[choice]}{why}" if choice is None else ", by the GM")
        acts = h("span", {"class": "choices", "role": "group", "aria-label": f"Players\u2019 view of {c.name}"},
                 *(_choice(lbl, "players-hide", choice is val, id=c.id, hidden=HIDE_LABEL[val])
                   for val, lbl in ((True, "Hide"), (False, "Show"), (None, "Automatic"))))
        rows.append(html('<li class="pv-gm-row" data-id="{}"><span class="pv-gm-name">{}</span>'
                         ' <span class="pv-gm-state">{}</span> {}</li>', c.id, c.name, state, acts))
    open_button = _button("Open players\u2019 view", "players-open", "primary")
    return html('<div class="players-settings"><h2 id="dlg-title">Players\u2019 view</h2>'
                '<p class="hint">A second window for a screen the players see: order of play, names, the map and '
                'wounds as chosen here. Never notes, dice not yet applied, or hidden combatants.</p>'
                '<p>{}</p>'
                '<h3>Wounds</h3><p class="pv-gm-modes choices" role="group" aria-label="Wounds">{}</p>'
                '<h3>Who the players see</h3><ul class="pv-gm-list">{}</ul>'
                '<p class="field-error" data-error-for="players"></p>'
                '<div class="dlg-actions">{}</div></div>', open_button, modes,
                Markup("").join(rows) or html("<li>No combatants yet</li>"), _button("Close", "close-dialog", "secondary"))
