// PyScript's core (vendor/pyscript/core.js) watches every change of the whole document with a
// MutationObserver, for <script type="py"> elements and py-* event attributes added after it has
// started. Fray adds neither: its one script is in index.html, which PyScript finds when it starts,
// and its controls are wired by one delegated listener per event (py/fray/web/app.py). Yet every
// render replaces markup, and each such change gave the observer a record holding the elements it
// removed, and its callback wrapped every element added and ran an XPath over all its attributes.
// In WebKit, whose collector runs lazily, each replaced card, strip or log thereby stayed in memory
// until the next full collection (issue 36: a rewrite of the log's 300 elements kept 1.2 MB; none
// once the observer was off). Its py-editor plugin, which PyScript loads whatever the config says
// (pyscript.toml's `plugins = ["!py-editor"]` is undone by the second interpreter it knows of,
// MicroPython, which has no config and loads every plugin), watches the whole document as well,
// for editors to build. So every observer put on the whole document is disconnected once
// PyScript's scripts have run (its "py:all-done"). This module runs before PyScript's core
// (index.html: module scripts run in document order), so it sees those observers start; Fray's
// own (static/first-paint.js) watch the root element's attributes only.
const native = globalThis.MutationObserver;
if (typeof native === "function") {
  const observe = native.prototype.observe;
  const watching = [];
  native.prototype.observe = function (target, options) {
    if (target === globalThis.document && options && options.subtree) watching.push(this);
    return observe.call(this, target, options);
  };
  addEventListener("py:all-done", () => {
    native.prototype.observe = observe;
    for (const o of watching) o.disconnect();
    globalThis.frayQuieted = watching.length;  // how many were let go (the e2e tests read it)
  }, { once: true });
}
