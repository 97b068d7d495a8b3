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
})();
