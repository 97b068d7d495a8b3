"""The map's event handling: select, drag (mouse and touch), pan, zoom, and the position form.

Pointer Events cover mouse, pen and touch alike. Listeners sit on the map's containers, which
stay in the page while their content is re-rendered, and the pointer is captured on the
container, so a drag survives the re-render that follows its commit.

* A drag only rewrites the token's ``transform`` on each move (and its marker in the side view):
  nothing reaches the engine until the pointer is released, which dispatches ONE core ``move``
  action, so one Undo puts the token back.
* Dragging empty ground pans, the wheel and a two-finger pinch zoom; the view box lives in
  ``app.ui.map_view`` (view state, never saved) and "Fit all" forgets it.
* The view only changes when the GM changes it: until they pan or zoom, the map keeps the view
  that fitted everyone when it was first drawn (``app.ui.map_fit``), so a drag does not re-zoom
  it (a grid of 10 m turning 5 m under the GM's finger). It fits again only when a token would
  be out of sight (someone added or moved off the edge), or on "Fit all".
* A tap or click on a token (or Enter / Space on the focused token) selects it; the selection is
  ``app.ui.selected``. Arrow keys on a focused token move it 1 m (Shift: 5 m), one undoable
  move each, and leave the selection as it was.
* The form ``data-form="map-move"`` is the keyboard route to everything a drag does, a game's own
  drop (``map_drop``) included.
* Several tokens move together (issue 33): shift-click (or Ctrl / Cmd-click) a token, or turn on
  "Select several" and tap tokens, to put them in ``app.ui.group``; dragging any of them moves
  them all by the same offset, ONE core ``move_group`` action (each token's move the game's own
  ``move``, as a single drag). A game that takes a drop as its own (range-band: the mover's
  movement roll, ``map_drop``) takes its mover's part of the group first; that is then a second
  undoable step.
* A tap on empty ground moves the selected token (or the group, the selected one to the spot)
  there, as a drag would; with nothing selected, the game's current mover (``map_mover``: the
  range-band movement form's combatant). A tap on the selected token, or Escape, lets it go.
"""

from __future__ import annotations

import math
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from ..maprules import measure, rule_for
from . import mapview
from .svgnum import fmt
from .blocks import ascii_html
from .dom import by_id as _by_id, nil as _nil
from .pointer import PointerCtl, capture

DRAG_SLOP_PX = 4  # a press that moves less than this is a tap (select), not a drag
MIN_VIEW_M, MAX_VIEW_M = 4.0, 50000.0

CTL: "MapCtl | None" = None


def _attr(el: Any, name: str) -> str | None:
    if el is None or not hasattr(el, "getAttribute"):
        return None
    v = el.getAttribute(name)
    return v if isinstance(v, str) else None


def _closest(el: Any, selector: str) -> Any:
    if el is None or not hasattr(el, "closest"):
        return None
    return _nil(el.closest(selector))


def _round(v: float) -> float:
    """Positions are kept to the decimetre: a drag gives 12.3 m, not 12.3417 m."""
    r = round(v, 1)
    return 0.0 if r == 0 else r


def _inverse_ctm(svg: Any) -> tuple[float, ...]:
    m = svg.getScreenCTM().inverse()
    return (m.a, m.b, m.c, m.d, m.e, m.f)


def _apply(m: tuple[float, ...], x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


class MapCtl(PointerCtl):
    where = "on the map"

    def __init__(self, app: Any) -> None:
        super().__init__(app)
        self.pointers: dict[int, tuple[float, float]] = {}
        self.mode: str | None = None  # press | drag | elev | pan | pinch
        self.g: dict[str, Any] = {}  # what the current gesture needs
        self._timer = None
        self._later = create_proxy(self._rerender)

    # -- wiring -------------------------------------------------------------------------------
    def install(self) -> None:
        stage, elev, pane = _by_id("map"), _by_id("map-elev"), _by_id("map-pane")
        for target in (stage, elev):
            self.follow_gestures(target)
        self.listen(stage, "wheel", self.on_wheel, passive=False)
        self.listen(pane, "keydown", self.on_key)
        # a token held with the mouse leaves the focus where it was (often outside the map): Escape is
        # heard wherever it is pressed while a gesture is under way
        self.listen(js.document, "keydown", self.on_escape)
        self.listen(pane, "click", self.on_click)
        self.listen(pane, "submit", self.on_submit)
        for i in ("map-fit", "map-zoom-in", "map-zoom-out", "map-several"):
            b = _by_id(i)
            if b is not None:
                b.disabled = False

    # -- rendering ------------------------------------------------------------------------------
    def view(self) -> list[float] | None:
        v = self.app.ui.map_view
        return list(v) if v else None

    def render(self) -> None:
        render(self.app, force=True)

    def render_keep_focus(self) -> None:
        active = _nil(js.document.activeElement)
        fid = active.id if active is not None else ""
        self.render()
        if fid:
            el = _by_id(fid)
            if el is not None:
                el.focus()

    def _rerender(self, *_: Any) -> None:
        self._timer = None
        if self.mode is None:
            self.render_keep_focus()

    def rerender_soon(self) -> None:
        """After a pan or zoom: redraw grid, token sizes, scale and side view once it settles."""
        if self._timer is not None:
            js.clearTimeout(self._timer)
        self._timer = js.setTimeout(self._later, 180)

    def set_view(self, v: list[float]) -> None:
        w = min(max(v[2], MIN_VIEW_M), MAX_VIEW_M)
        if w != v[2]:  # keep the centre when the zoom hits its limit
            cx, cy = v[0] + v[2] / 2, v[1] + v[3] / 2
            v = [cx - w / 2, cy - w / 2, w, w]
        self.app.ui.map_view = v
        svg = _by_id("map-plan")
        if svg is not None:
            svg.setAttribute("viewBox", " ".join(fmt(round(x, 3)) for x in v))

    def current_view(self) -> list[float]:
        return view_for(self.app)

    def select(self, cid: str | None) -> None:
        self.app.ui.selected = cid
        self.app.ui.group = None  # a token picked alone: the group is over
        self.render_keep_focus()
        if cid:
            el = _by_id(f"tok-{cid}")
            if el is not None and _nil(js.document.activeElement) is not el:
                el.focus()

    # -- pointer gestures -----------------------------------------------------------------------
    def reset(self) -> None:
        self.pointers.clear()
        self.mode = None
        self.g = {}

    def on_down(self, e: Any) -> None:
        if e.pointerType == "mouse" and e.button != 0:
            return
        if _closest(e.target, "form, button, input, a"):
            return
        self.pointers[e.pointerId] = (e.clientX, e.clientY)
        container = e.currentTarget
        capture(container, e.pointerId)
        if len(self.pointers) == 2 and _by_id("map-plan") is not None and container.id == "map":
            self.start_pinch()
            return
        if len(self.pointers) > 1:
            return
        bench = getattr(js.window, "__mapStepMs", None)
        self.g = {"x0": e.clientX, "y0": e.clientY, "bench": _nil(bench),
                  "add": bool(e.shiftKey or e.ctrlKey or e.metaKey) or self.app.ui.several}
        token = _closest(e.target, "[data-token]")
        etok = _closest(e.target, "[data-elev-token]")
        if token is not None:
            self.start_drag(token, _attr(token, "data-token"), "drag")
        elif etok is not None:
            self.start_drag(etok, _attr(etok, "data-elev-token"), "elev")
        elif container.id == "map" and _by_id("map-plan") is not None:
            m = _inverse_ctm(_by_id("map-plan"))
            self.g.update(kind="pan", view=self.current_view(), k=m[0], m=m)
        else:
            self.g.update(kind="none")
        self.mode = "press"
        if e.pointerType != "mouse" or token is not None:
            e.preventDefault()

    def start_drag(self, el: Any, cid: str | None, kind: str) -> None:
        c = self.app.enc.get(cid or "")
        if c is None:
            self.g.update(kind="none")
            return
        plan, elev = _by_id("map-plan"), _by_id("map-elev-svg")
        self.g.update(kind=kind, id=c.id, px=c.position.x, py=c.position.y, alt=c.position.alt, nx=c.position.x,
                      ny=c.position.y, nalt=c.position.alt, el=_by_id(f"tok-{c.id}"), lel=_by_id(f"lab-{c.id}"),
                      eel=_nil(js.document.querySelector(f'[data-elev-token="{_css(c.id)}"]')))
        if plan is not None:
            self.g["m"] = _inverse_ctm(plan)
            self.g["s0"] = _apply(self.g["m"], self.g["x0"], self.g["y0"])
        if elev is not None:
            self.g["em"] = _inverse_ctm(elev)
            self.g["ex0"] = float(_attr(elev, "data-x0") or 0)
            self.g["ekx"] = float(_attr(elev, "data-kx") or 1)
            self.g["eky"] = float(_attr(elev, "data-ky") or 1)
            self.g["eground"] = float(_attr(elev, "data-ground") or mapview.ELEV_GROUND)  # moves up over swimmers
        sel = self.app.ui.selected
        self.g["from"] = self.app.enc.get(sel) if sel and sel != c.id else None
        self.g["combine"] = rule_for(self.app.enc.ruleset).combine
        group = group_of(self.app)
        if kind == "drag" and c.id in group:  # the others of the group go with it
            self.g["others"] = [{"id": o.id, "px": o.position.x, "py": o.position.y, "alt": o.position.alt,
                                 "els": [x for x in (_by_id(f"tok-{o.id}"), _by_id(f"lab-{o.id}")) if x is not None]}
                                for o in (self.app.enc.get(i) for i in group if i != c.id) if o is not None]

    def start_pinch(self) -> None:
        (ax, ay), (bx, by) = list(self.pointers.values())[:2]
        if self.mode == "drag":
            self.restore_token()
        svg = _by_id("map-plan")
        m = _inverse_ctm(svg)
        mid = ((ax + bx) / 2, (ay + by) / 2)
        rect = svg.getBoundingClientRect()
        self.mode = "pinch"
        self.g = {"kind": "pinch", "d0": max(math.hypot(ax - bx, ay - by), 1.0), "p0": _apply(m, *mid),
                  "k0": m[0], "w0": self.current_view()[2], "left": rect.left, "top": rect.top}

    def on_move(self, e: Any) -> None:
        if e.pointerId not in self.pointers or self.mode is None:
            return
        self.pointers[e.pointerId] = (e.clientX, e.clientY)
        if self.mode == "pinch":
            self.pinch()
            return
        if self.mode == "press":
            if math.hypot(e.clientX - self.g["x0"], e.clientY - self.g["y0"]) < DRAG_SLOP_PX:
                return
            self.mode = self.g.get("kind")
            if self.mode == "drag" or self.mode == "elev":
                for key in ("el", "lel"):
                    if self.g.get(key) is not None:
                        self.g[key].classList.add("dragging")
                for o in self.g.get("others", ()):
                    for el in o["els"]:
                        el.classList.add("dragging")
        t0 = js.performance.now() if self.g.get("bench") is not None else None
        if self.mode == "drag":
            self.drag_to(e.clientX, e.clientY)
        elif self.mode == "elev":
            self.lift_to(e.clientX, e.clientY)
        elif self.mode == "pan":
            v, k = self.g["view"], self.g["k"]
            self.set_view([v[0] - (e.clientX - self.g["x0"]) * k, v[1] - (e.clientY - self.g["y0"]) * k, v[2], v[3]])
        if t0 is not None:
            self.g["bench"].push(js.performance.now() - t0)
        e.preventDefault()

    def drag_to(self, cx: float, cy: float) -> None:
        g = self.g
        if "m" not in g:
            return
        sx, sy = _apply(g["m"], cx, cy)
        x = _round(g["px"] + (sx - g["s0"][0]))
        y = _round(g["py"] - (sy - g["s0"][1]))
        g["nx"], g["ny"] = x, y
        for key in ("el", "lel"):  # the token and its label move together
            if g.get(key) is not None:
                g[key].setAttribute("transform", f"translate({fmt(x)} {fmt(-y)})")
        dx, dy = x - g["px"], y - g["py"]
        for o in g.get("others", ()):  # the group: every one by the same offset
            ox, oy = _round(o["px"] + dx), _round(o["py"] + dy)
            for el in o["els"]:
                el.setAttribute("transform", f"translate({fmt(ox)} {fmt(-oy)})")
        self.place_elev(x, g["nalt"])
        self.readout()

    def lift_to(self, cx: float, cy: float) -> None:
        g = self.g
        if "em" not in g:
            return
        _, ey = _apply(g["em"], cx, cy)
        alt = max(0.0, _round((g.get("eground", mapview.ELEV_GROUND) - ey) / g["eky"]))
        g["nalt"] = alt
        self.place_elev(g["nx"], alt)
        self.readout()

    def place_elev(self, x: float, alt: float) -> None:
        g = self.g
        eel = g.get("eel")
        if eel is None or "ekx" not in g:
            return
        ex = (x - g["ex0"]) / g["ekx"]
        ey = g.get("eground", mapview.ELEV_GROUND) - max(alt, 0) * g["eky"]
        eel.setAttribute("transform", f"translate({fmt(round(ex, 2))} {fmt(round(ey, 2))})")

    def readout(self) -> None:
        """The drag's live figures: where the token would land, and how far from the selected one."""
        g = self.g
        c = self.app.enc.get(g["id"])
        text = f"{c.name if c else ''}: {g['nx']:g}, {g['ny']:g} m, altitude {g['nalt']:g} m"
        if g.get("others"):
            text = f"{c.name if c else ''} and {len(g['others'])} more: {g['nx']:g}, {g['ny']:g} m"
        frm = g.get("from")
        if frm is not None:
            from ..model import Position
            metres, _ = measure(frm.position, Position(g["nx"], g["ny"], g["nalt"]), g["combine"])
            text += f"; {metres:.1f} m from {frm.name}"
        live = _by_id("map-live")
        if live is not None:
            live.textContent = text
            self.app._map_live_said = True  # cleared by the next render (``render``), and only then

    def pinch(self) -> None:
        g = self.g
        (ax, ay), (bx, by) = list(self.pointers.values())[:2]
        ratio = g["d0"] / max(math.hypot(ax - bx, ay - by), 1.0)
        w = min(max(g["w0"] * ratio, MIN_VIEW_M), MAX_VIEW_M)
        k = g["k0"] * w / g["w0"]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        self.set_view([g["p0"][0] - (mx - g["left"]) * k, g["p0"][1] - (my - g["top"]) * k, w, w])

    def on_up(self, e: Any) -> None:
        if e.pointerId not in self.pointers:
            return
        del self.pointers[e.pointerId]
        mode, g = self.mode, self.g
        if mode == "pinch":
            if not self.pointers:
                self.reset()
                self.rerender_soon()
            return
        self.reset()
        if mode == "press":
            if g.get("kind") in ("drag", "elev"):
                self.tap_token(g["id"], g.get("add", False))
            elif g.get("kind") == "pan" and "m" in g:
                sx, sy = _apply(g["m"], g["x0"], g["y0"])
                self.tap_ground(_round(sx), _round(-sy))
        elif mode in ("drag", "elev"):
            self.commit(g)
        elif mode == "pan":
            self.rerender_soon()

    def on_cancel(self, e: Any) -> None:
        if self.mode in ("drag", "elev"):
            self.restore_token()
        self.reset()
        self.render_keep_focus()

    def restore_token(self) -> None:
        g = self.g
        for key in ("el", "lel"):
            if g.get(key) is not None:
                g[key].setAttribute("transform", f"translate({fmt(g['px'])} {fmt(-g['py'])})")
                g[key].classList.remove("dragging")
        for o in g.get("others", ()):
            for el in o["els"]:
                el.setAttribute("transform", f"translate({fmt(o['px'])} {fmt(-o['py'])})")
                el.classList.remove("dragging")

    # -- taps: pick one or several, move to a spot ----------------------------------------------
    def tap_token(self, cid: str, add: bool) -> None:
        """A tap on a token: alone, select it (or let it go, if it was the one selected); with Shift,
        Ctrl or Cmd, or in "Select several", put it in the group (or take it out)."""
        ui = self.app.ui
        if not add:
            if ui.selected == cid and not group_of(self.app):
                self.select(None)
            else:
                self.select(cid)
            return
        group = group_of(self.app) or ([ui.selected] if ui.selected else [])
        if cid in group:
            group.remove(cid)
            if ui.selected == cid:
                ui.selected = group[-1] if group else None
        else:
            group.append(cid)
            ui.selected = cid  # the distances are from the last one picked
        if len(group) > 1:
            ui.group = group
        else:
            ui.group = None
        self.render_keep_focus()
        el = _by_id(f"tok-{cid}")
        if el is not None:
            el.focus()

    def tap_ground(self, x: float, y: float) -> None:
        """A tap on empty ground: the group, the selected token or the game's mover goes there, as a drag."""
        enc, ui = self.app.enc, self.app.ui
        group = group_of(self.app)
        sel = enc.get(ui.selected or "")
        if sel is None and not group:
            from .panels import hook, panel_for
            mover = hook(panel_for(enc.ruleset), "map_mover")
            sel = enc.get(mover(self.app) or "") if mover is not None else None
            if sel is None:
                return
        if sel is None:
            sel = enc.get(group[-1])
        p = sel.position
        if group and sel.id in group:
            dx, dy = x - p.x, y - p.y
            self.commit_group([(o.id, _round(o.position.x + dx), _round(o.position.y + dy), o.position.alt)
                               for o in (enc.get(i) for i in group) if o is not None])
            return
        self.commit({"id": sel.id, "px": p.x, "py": p.y, "alt": p.alt, "nx": x, "ny": y, "nalt": p.alt})

    def commit_group(self, moves: list[tuple[str, float, float, float]]) -> None:
        """The group's drop: a game's own drop first (range-band's mover: the movement roll), for one
        token, then ONE ``move_group`` for the rest (or a plain ``move`` for one)."""
        enc = self.app.enc

        def spot(cid: str) -> tuple[float, float, float] | None:
            c = enc.get(cid)
            return (c.position.x, c.position.y, c.position.alt) if c is not None else None

        rest = [m for m in moves if spot(m[0]) not in (None, (m[1], m[2], m[3]))]
        if not rest:
            self.render_keep_focus()
            return
        from .panels import hook, panel_for
        drop = hook(panel_for(enc.ruleset), "map_drop")
        for cid, x, y, alt in rest if drop is not None else ():
            start = spot(cid)
            if drop(self.app, cid, x, y, alt):
                # the game moves its mover (and a mount and its rider stand in one place: both)
                rest = [m for m in rest if m[0] != cid and spot(m[0]) != start]
                break
        if not rest:
            self.render_keep_focus()
            return
        if len(rest) == 1:
            cid, x, y, alt = rest[0]
            action: dict[str, Any] = {"type": "move", "id": cid, "x": x, "y": y, "alt": alt}
        else:
            action = {"type": "move_group", "moves": [{"id": cid, "x": x, "y": y, "alt": alt}
                                                      for cid, x, y, alt in rest]}
        if not self.app.dispatch(action, _by_id("map-info"), _position_field):
            self.render_keep_focus()

    def commit(self, g: dict[str, Any]) -> None:
        """ONE undoable core ``move`` for the whole drag."""
        if g.get("others"):
            dx, dy = g["nx"] - g["px"], g["ny"] - g["py"]
            self.commit_group([(g["id"], g["nx"], g["ny"], g["nalt"])] + [
                (o["id"], _round(o["px"] + dx), _round(o["py"] + dy), o["alt"]) for o in g["others"]])
            return
        if (g["nx"], g["ny"], g["nalt"]) == (g["px"], g["py"], g["alt"]):
            self.render_keep_focus()
            return
        t0 = js.performance.now()
        self.app.ui.selected = self.app.ui.selected or g["id"]
        # a game may take the drop as something else than the GM's placing (range-band: the mover's
        # movement roll to there, issue 33); the token goes back until the roll settles
        from .panels import hook, panel_for
        drop = hook(panel_for(self.app.enc.ruleset), "map_drop")
        if drop is not None and drop(self.app, g["id"], g["nx"], g["ny"], g["nalt"]):
            self.render_keep_focus()
            return
        ok = self.app.dispatch({"type": "move", "id": g["id"], "x": g["nx"], "y": g["ny"], "alt": g["nalt"]},
                               _by_id("map-info"), _position_field)
        if not ok:
            self.render_keep_focus()
        bench = getattr(js.window, "__mapCommitMs", None)
        if _nil(bench) is not None:
            bench.push(js.performance.now() - t0)

    def on_wheel(self, e: Any) -> None:
        svg = _by_id("map-plan")
        if svg is None:
            return
        e.preventDefault()
        dy = e.deltaY * (16 if e.deltaMode == 1 else 1)
        self.zoom(math.pow(1.0015, max(-400, min(400, dy))), e.clientX, e.clientY)
        self.rerender_soon()

    def zoom(self, factor: float, cx: float | None = None, cy: float | None = None) -> None:
        svg = _by_id("map-plan")
        v = self.current_view()
        rect = svg.getBoundingClientRect()
        if cx is None:
            cx, cy = rect.left + rect.width / 2, rect.top + rect.height / 2
        m = _inverse_ctm(svg)
        px, py = _apply(m, cx, cy)
        w = min(max(v[2] * factor, MIN_VIEW_M), MAX_VIEW_M)
        f = w / v[2]
        self.set_view([px - (px - v[0]) * f, py - (py - v[1]) * f, w, w])

    def zoom_on_the_fight(self, factor: float) -> None:
        """The + and − buttons: the view centred on ``mapview.zoom_centre`` (the selected token, the
        standing combatants, or the middle of the GM's own view), ``factor`` times as wide."""
        v = self.current_view()
        px, py = mapview.zoom_centre(self.app.enc, self.app.ui.selected, bool(self.app.ui.map_view), v)
        w = min(max(v[2] * factor, MIN_VIEW_M), MAX_VIEW_M)
        self.set_view([px - w / 2, py - w / 2, w, w])

    # -- keyboard, buttons, form ----------------------------------------------------------------
    def on_escape(self, e: Any) -> bool:
        """Escape while a token is held (pressed or dragged, in any game): the token goes back where it
        stood and the gesture is over, so lifting the button after moves nothing (a GM's report: in
        tactical-round Escape did not let a dragged token go). True: it was a gesture's Escape."""
        if e.key != "Escape" or self.mode is None:
            return False
        e.preventDefault()
        self.on_cancel(e)
        return True

    def on_key(self, e: Any) -> None:
        if self.on_escape(e):
            return  # the gesture is let go; the selection stays
        if e.key == "Escape" and (self.app.ui.selected or self.app.ui.group) and not _closest(
                e.target, "form"):
            e.preventDefault()
            self.select(None)  # let go of the selection and the group
            return
        token = _closest(e.target, "[data-token]")
        if token is None:
            return
        cid = _attr(token, "data-token")
        key = e.key
        if key in ("Enter", " "):
            e.preventDefault()
            if e.shiftKey or self.app.ui.several:
                self.tap_token(cid or "", True)
            else:
                self.select(cid)
        elif key in ("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight") and not (e.ctrlKey or e.metaKey or e.altKey):
            c = self.app.enc.get(cid or "")
            if c is None:
                return
            e.preventDefault()
            step = 5.0 if e.shiftKey else 1.0
            dx = {"ArrowLeft": -step, "ArrowRight": step}.get(key, 0.0)
            dy = {"ArrowDown": -step, "ArrowUp": step}.get(key, 0.0)
            self.app.dispatch({"type": "move", "id": cid, "x": _round(c.position.x + dx),
                               "y": _round(c.position.y + dy), "alt": c.position.alt}, _by_id("map-info"),
                              _position_field)
            el = _by_id(f"tok-{cid}")
            if el is not None:
                el.focus()

    def on_click(self, e: Any) -> None:
        # a map button: the page's root also carries data-map (first-paint.js waits on it), and it is no button
        b = _closest(e.target, "button[data-map]")
        if b is None or b.disabled:
            return
        act = _attr(b, "data-map")
        if act == "fit":
            self.app.ui.map_view = None
            self.app.ui.map_fit = None
            self.render_keep_focus()
        elif act == "several":
            on = not self.app.ui.several
            self.app.ui.several = on
            b.setAttribute("aria-pressed", "true" if on else "false")
        elif act in ("zoom-in", "zoom-out") and _by_id("map-plan") is not None:
            self.zoom_on_the_fight(1 / 1.5 if act == "zoom-in" else 1.5)
            self.render_keep_focus()

    def on_submit(self, e: Any) -> None:
        form = e.target
        if _attr(form, "data-form") != "map-move":
            return
        e.preventDefault()
        cid = _attr(form, "data-id")
        values = {}
        for name in ("x", "y", "alt"):
            el = _nil(form.querySelector(f'[name="{name}"]'))
            raw = el.value.strip() if el is not None else ""
            values[name] = _number(raw)
        self.app.ui.selected = cid
        # the keyboard route to what a drag does, a game's own drop too: range-band's mover, in its movement,
        # moves by a movement roll to there, as its card's Movement roll does (a GM's play-through: this form
        # moved the mover with no roll, while a drag rolled)
        from .panels import hook, panel_for
        drop = hook(panel_for(self.app.enc.ruleset), "map_drop")
        c = self.app.enc.get(cid or "")
        typed = [values[k] for k in ("x", "y", "alt")]
        if (drop is not None and c is not None and all(isinstance(v, (int, float)) for v in typed)
                and tuple(typed) != (c.position.x, c.position.y, c.position.alt) and drop(self.app, cid, *typed)):
            self.render_keep_focus()
            return
        self.app.dispatch({"type": "move", "id": cid, **values}, form, _position_field)


def _number(raw: str) -> Any:
    """A typed number as a number; anything else is passed on for the engine to refuse by name."""
    try:
        v = float(raw)
    except ValueError:
        return raw
    return int(v) if v.is_integer() else v


def _position_field(field: str) -> str:
    """The engine names ``position.x``; the map's form calls the field ``x``."""
    return field.removeprefix("position.")


def _css(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"')


def install(app: Any) -> MapCtl:
    global CTL
    CTL = MapCtl(app)
    CTL.install()
    return CTL


def view_for(app: Any) -> list[float]:
    return mapview.view_for(app.enc, app.ui)


def render(app: Any, force: bool = False) -> None:
    """``App.render``'s map line: write every region of the map pane from the encounter.

    The map is drawn again only when what it is drawn from changed: the combatants (the engine
    shares each one an action left alone, so ``is`` tells), the tables, the part of ``state`` the
    game's map rule reads (``MapRule.state_keys``), the selection and the view box. A note, a
    roll or a turn that moved nobody costs the map nothing. ``force`` (the map's own gestures,
    which move tokens in the page as the pointer goes) writes it whatever the inputs."""
    enc = app.enc
    sel = app.ui.selected
    if sel and enc.get(sel) is None:
        app.ui.selected = sel = None
    v = view_for(app)
    plain, shared = mapview.map_inputs(enc, sel, v)
    live = _by_id("map-live")
    if live is not None and getattr(app, "_map_live_said", False):
        live.textContent = ""  # the live figure of a drag: over with any render
        app._map_live_said = False
    held = getattr(app, "_map_memo", None)
    if (not force and held is not None and held[0] == plain and len(held[1]) == len(shared)
            and all(a is b for a, b in zip(held[1], shared))):
        mark_group(app)
        return
    parts = mapview.map_parts(enc, sel, v)
    written = held[2] if held is not None and not force else {}
    for region, key in (("map", "plan"), ("map-elev", "elev"), ("map-scale", "scale"), ("map-info", "info")):
        el = _by_id(region)
        if el is not None and written.get(region) != parts[key]:
            el.innerHTML = ascii_html(parts[key])
    app._map_memo = (plain, shared, {r: parts[k] for r, k in (("map", "plan"), ("map-elev", "elev"),
                                                             ("map-scale", "scale"), ("map-info", "info"))})
    mark_group(app)


def group_of(app: Any) -> list[str]:
    """The tokens picked to move together (``app.ui.group``), those still in the fight; [] for none."""
    got = [i for i in app.ui.group or () if app.enc.get(i) is not None]
    return got if len(got) > 1 else []


def mark_group(app: Any) -> None:
    """Draw the group on the plan: each of its tokens ringed and pressed (mapview draws the selection)."""
    group = set(group_of(app))
    if not group:
        app.ui.group = None
    for el in js.document.querySelectorAll("#map-plan .token.grouped"):
        if _attr(el, "data-token") not in group:
            el.classList.remove("grouped")
            if _attr(el, "data-token") != app.ui.selected:
                el.setAttribute("aria-pressed", "false")
    for cid in group:
        el = _by_id(f"tok-{cid}")
        if el is not None:
            el.classList.add("grouped")
            el.setAttribute("aria-pressed", "true")
