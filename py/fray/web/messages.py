"""What the page says: an engine error beside the control that caused it (``data-error-for``, the
error's field path, in the form's words), the banner, and the one dialog. ``App`` (web/app.py)
inherits this.
"""

from __future__ import annotations

from typing import Any, Callable

import js  # type: ignore[import-not-found]

from ..errors import InvalidAction, RuleViolation
from . import render as R
from .blocks import ascii_html
from .html import fragment, h
from .dom import below_the_head, by_id, nil, page_function, q
from .words import field_message, rule_message

document = js.document


def css_string(s: str) -> str:
    """``s`` inside a quoted CSS attribute selector."""
    return s.replace("\\", "\\\\").replace('"', '\\"')


class Messages:
    # -- errors ---------------------------------------------------------------------------------
    def clear_errors(self, scope: Any = None) -> None:
        """Every message beside a field under ``scope`` (the page when None), and every field marked
        wrong: in one call into the page (static/dom.js), twice an action. (A message goes by
        itself when the GM changes the field it is about: dom.js too, on every keystroke.)"""
        clear = page_function("frayClearErrors")
        if clear is not None:
            clear(scope)
            return
        root = scope or document
        kept = "" if scope else ":not([data-errors-kept] *)"  # ``keep_errors``
        for el in root.querySelectorAll("[data-error-for]:not(:empty)" + kept):
            el.textContent = ""
        for el in root.querySelectorAll("[aria-invalid]" + kept):
            el.removeAttribute("aria-invalid")
        if scope is not None:
            scope.removeAttribute("data-errors-kept")

    @staticmethod
    def keep_errors(form: Any) -> None:
        """``form``'s messages stay through the page's clears after other forms' changes, until the GM
        changes ``form`` (dom.js) or it is submitted again: a refusal that still stands (a tactical-round
        declaration refused went when the GM declared for the next one, the form looking declared)."""
        form.setAttribute("data-errors-kept", "")

    def show_error(self, scope: Any, err: Exception, field_map: Callable[[str], str] | None = None,
                   focus: bool = True) -> None:
        many = getattr(err, "errors", None)
        if many:
            # every field's error at once, each beside its field; the first bad field has the focus
            for i, each in enumerate(many):
                self.show_error(scope, each, field_map, focus=i == 0)
            return
        root = scope or document
        # a refusal by the rules lands beside the field whose choice the rules forbid, when it names
        # one (the target out of reach), else at the top of the form
        key = getattr(err, "field", None) or ""
        original = key
        if field_map and key:
            key = field_map(key)
        msg = err.message if isinstance(err, InvalidAction) else str(err)
        if isinstance(err, RuleViolation):
            msg = rule_message(msg, err.rule)
        slot = None
        probe = key
        while probe:
            slot = q(root, f'[data-error-for="{css_string(probe)}"]')
            if slot is not None:
                break
            probe = probe.rpartition(".")[0]
        about = key if probe else ""  # "": the form as a whole (no slot of its own), which any change may mend
        if slot is None and scope is not None:
            # an error naming no field goes to the form's own slot (widgets.general_err, outside every
            # field: where the form put it, beside its button), else the first: a range-band movement
            # roll refused by the rules was said under East, marking East invalid
            slot = q(root, "[data-error-for]:not([data-field] *)") or q(root, "[data-error-for]")
        if slot is None:
            self.banner(msg if isinstance(err, RuleViolation) else str(err))
            return
        slot.setAttribute("role", "alert")  # announced to screen readers as it appears
        abouts = str(slot.getAttribute("data-error-about") or "").split() if str(slot.textContent or "") else []
        slot.setAttribute("data-error-about", " ".join({*abouts, about or "*"}))
        field = nil(slot.closest("[data-field]"))
        label = q(field, "label") if field is not None else None
        # in the form's words: its label as the subject, or which part of a box of many fields
        # ("Weapon 1: type must be one of …"), never the engine's dotted path
        # a field the form only names otherwise ("position.alt" is the map form's "alt") is that field
        # itself, not a box of many: the map's Altitude said "Position altitude: …" before its message
        itself = probe == original or (probe == key and key.rpartition(".")[2] == original.rpartition(".")[2])
        said = field_message(original, msg, str(label.textContent) if label is not None else "",
                             original if itself else (key if key != original else probe or "form"))
        old = str(slot.textContent or "")
        slot.textContent = f"{old} {said}" if old and said not in old else said
        if field is not None:
            ctl = q(field, "input, select, textarea")
            if ctl is not None:
                ctl.setAttribute("aria-invalid", "true")
                if focus:
                    ctl.focus()
        if focus:
            self.reveal(slot)

    @staticmethod
    def reveal(el: Any) -> None:
        """``el`` (an error just written, a question just asked) on screen below what sticks to the
        top of the page above it, when it is not already (``dom.below_the_head``). A form's own
        error sits at the form's top, which can lie under the head while the GM taps its button
        at the bottom (a tactical-round declaration refused: the GM saw no word)."""
        below_the_head(el, always=False)

    def banner(self, text: str, actions: list[tuple[str, str]] | None = None) -> None:
        b = by_id("banner")
        b.innerHTML = ascii_html(h("p", None, text) + fragment([R.button(lbl, act, "small") for lbl, act in (actions or [])],
                                                              R.button("Dismiss", "dismiss-banner", "small secondary")))
        b.hidden = False

    # -- dialogs --------------------------------------------------------------------------------
    def open_dialog(self, html: str) -> None:
        by_id("dlg-body").innerHTML = ascii_html(html)
        dlg = by_id("dlg")
        if not dlg.open:
            dlg.showModal()
        first = q(dlg, "input, select, textarea")
        if first is not None:
            first.focus()

    def close_dialog(self) -> None:
        dlg = by_id("dlg")
        if dlg.open:
            dlg.close()
        by_id("dlg-body").innerHTML = ""
