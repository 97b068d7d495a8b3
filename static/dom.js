// DOM work the page's Python asks for in one call, where doing it from Python would cross into
// JavaScript once for every element and property it touches. Each crossing makes a proxy and its
// strings, which WebKit keeps as garbage until its next full collection (issue 36,
// docs/performance.md): reading a GM form field by field was some 800 crossings a Melee Round.
(function () {
  "use strict";
  // web/forms.form_values: every named control of a form as {name: value}, as JSON text
  globalThis.frayFormValues = function (form) {
    const out = {};
    for (const el of form.elements) {
      const name = el.name;
      if (!name) continue;
      if (el.type === "checkbox") out[name] = el.checked;
      else if (el.type === "radio") { if (el.checked) out[name] = el.value; }
      else out[name] = el.value;
    }
    return JSON.stringify(out);
  };
  // web/messages.py: an error beside a field is stale once the GM changes that field (or one
  // inside it, or the one it is inside: "actions.0" and "actions.0.target"), and an error about
  // the form as a whole (data-error-about "*") once any of its controls changes; errors about the
  // form's other fields stay. Done here, on every keystroke, with no call into Python.
  function staleFor(about, name) {
    return about === "*" || about === name || about.startsWith(name + ".") || name.startsWith(about + ".");
  }
  function onEdit(event) {
    const t = event.target;
    const form = t && typeof t.closest === "function" ? t.closest("form") : null;
    const name = t && typeof t.name === "string" ? t.name : "";
    if (!form || !name) return;
    for (const slot of form.querySelectorAll("[data-error-for]:not(:empty)")) {
      const abouts = (slot.getAttribute("data-error-about") || "*").split(/\s+/).filter(Boolean);
      if (abouts.some((a) => staleFor(a, name))) {
        slot.textContent = "";
        slot.removeAttribute("data-error-about");
      }
    }
    if (t.getAttribute("aria-invalid")) t.removeAttribute("aria-invalid");
  }
  document.addEventListener("input", onEdit);
  document.addEventListener("change", onEdit);
  // web/messages.Messages.clear_errors: every message beside a field under scope (the page when
  // none) and every field marked wrong, in one call; a clear of the whole page leaves a form marked data-errors-kept (a refusal that stands
  // until the GM changes that form), a clear of the form itself takes its mark too
  globalThis.frayClearErrors = function (scope) {
    const root = scope || document;
    const kept = scope ? "" : ":not([data-errors-kept] *)";
    for (const el of root.querySelectorAll("[data-error-for]:not(:empty)" + kept)) el.textContent = "";
    for (const el of root.querySelectorAll("[aria-invalid]" + kept)) el.removeAttribute("aria-invalid");
    if (scope && scope.removeAttribute) scope.removeAttribute("data-errors-kept");
  };
  // web/writes.py: a render's writes, recorded in Python, done here in their order. Each operation
  // is [kind, handle, ...]: "root" names a region by id; "first" and "item" take an element under
  // one already named; "expect" checks a child count; "outer", "inner" and "adj" write markup;
  // "remove" and "trim" take elements away. A region whose element is missing or whose count is
  // not as expected gets no more writes, and its id is returned (one a line) to be written whole.
  globalThis.frayWrite = function (text) {
    const ops = JSON.parse(text);
    const els = [], regionOf = [], failed = new Set();
    for (const op of ops) {
      const kind = op[0], h = op[1];
      if (kind === "root") {
        els[h] = document.getElementById(op[2]);
        regionOf[h] = op[2];
        if (!els[h]) failed.add(op[2]);
        continue;
      }
      const taking = kind === "first" || kind === "item";
      const at = taking ? op[2] : h;
      const region = regionOf[at];
      if (taking) regionOf[h] = region;
      if (failed.has(region)) continue;
      try {
        const el = els[at];
        if (taking) {
          els[h] = kind === "first" ? el.firstElementChild : el.children.item(op[3]);
          if (!els[h]) failed.add(region);
        } else if (kind === "expect") {
          if (el.childElementCount !== op[2]) failed.add(region);
        } else if (kind === "outer") {
          el.outerHTML = op[2];
        } else if (kind === "inner") {
          el.innerHTML = op[2];
        } else if (kind === "adj") {
          el.insertAdjacentHTML(op[2], op[3]);
        } else if (kind === "remove") {
          el.remove();
        } else if (kind === "trim") {
          while (el.childElementCount > op[2]) el.lastElementChild.remove();
        } else {
          failed.add(region);
        }
      } catch (e) {  // a write the page refused: the region is written whole instead
        failed.add(region);
      }
    }
    return [...failed].join("\n");
  };
})();
