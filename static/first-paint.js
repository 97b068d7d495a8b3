// First paint of the last state (issue 11): before Python is ready, show the encounter as the
// page last drew it, read-only and marked "Starting the rules engine", then step aside when the
// live page is ready, in the same place, so nothing moves.
//
// The page keeps what it drew in localStorage "fray.paint" (App.keep_paint calls frayKeepPaint below):
// {v: 1, key, badge, select: the encounter menu's <option>s, main: main.panes as far as the first screens
// show it (frayKeptMarkup), height: main.panes' own height, style: the game's stylesheet, {key, text}
// (frayGameStyle) or null}.
// It is our own render output; it is still checked and cleaned here before it is shown (one with
// an event-handler or style attribute is dropped; no script, frame or javascript: URL is
// kept) and made inert with every control disabled. It keeps its ids (the page's CSS places some
// regions by id) and comes after the live main, so getElementById still finds the live element.
// A classic script at the end of <body>: it runs while the page is parsed, long before the
// PyScript module, and reads localStorage synchronously, so the copy is on screen at
// the first paint. Nothing here is inline (CSP: script-src 'self').
(function () {
  "use strict";
  const KEY = "fray.paint";
  performance.mark("fray:first-paint");
  const root = document.documentElement;
  const status = { shown: false, reason: "" };
  globalThis.frayFirstPaint = status;

  // Not the first paint's, but read by every render: whether each fold-out matching `selector`
  // is open ({its data-fold: open}) in one call. Asked from Python it took two calls into the
  // page per fold-out, 4 ms of a strike-rank render at 30 combatants (StrikeRankPanel.panel).
  globalThis.frayFolds = function (selector) {
    const out = {};
    for (const d of document.querySelectorAll(selector)) out[d.getAttribute("data-fold")] = d.open;
    return JSON.stringify(out);
  };

  // A game's own stylesheet (issue 34): the page links none; Python reads the open encounter's game's
  // from the game's package and hands its text here (web/game_style.py) before it draws the game.
  // It is applied as a constructed stylesheet (CSSOM: the page's CSP, style-src 'self', refuses a
  // <style> element but not this; Safari 16.4+), and only the one game's: switching to another
  // game swaps it, a game with none (text "") takes it away. The text is kept with the drawing
  // (frayKeepPaint), so the next boot's copy is styled before Python is ready. False where the
  // browser cannot construct a stylesheet.
  const gameSheets = new Map();  // game id -> its CSSStyleSheet, made once
  let gameStyle = null;  // {key, text}: the stylesheet applied now
  globalThis.frayGameStyle = function (key, text) {
    key = String(key);
    text = String(text || "");
    const ours = new Set(gameSheets.values());
    let sheet = null;
    if (text) {
      sheet = gameSheets.get(key) || null;
      try {
        if (!sheet) sheet = new CSSStyleSheet();
        if (sheet.frayText !== text) sheet.replaceSync(text);  // @import is ignored there: nothing loads
      } catch (e) {  // no constructable stylesheets (Safari before 16.4)
        return false;
      }
      sheet.frayText = text;
      gameSheets.set(key, sheet);
    }
    document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => !ours.has(s)).concat(sheet ? [sheet] : []);
    gameStyle = sheet ? { key: key, text: text } : null;
    return true;
  };

  // Keep what the page drew. Here, in JavaScript, so a large drawing never crosses into Python
  // and back. Only what the next boot's first screens show is kept, so the copy is quick to parse
  // and lay out while the interpreter starts beside it (the copy's parsing and first frame run
  // before any module script: at 12 strike-rank combatants they held the interpreter's start back
  // by some 150 ms):
  // - what is not shown is kept empty: a folded card's body (hidden), what a closed fold-out
  //   (<details>) holds beside its summary, a tab that is not showing;
  // - what lies wholly below KEEP_SCREENS screen heights under the top of the window is left
  //   out (the copy keeps the page's height, so a reload that restores the scroll position finds
  //   everything where it was).
  // It is written out here, element by element where a part is left out (the page's own DOM is
  // never touched, so a field the GM is typing in keeps its focus and its text).
  const KEEP_SCREENS = 2;
  const UNSHOWN = ".card-body[hidden], details:not([open]) > :not(summary)";
  function shell(el) {  // the element's own tags, without its content
    const tags = el.cloneNode(false).outerHTML;
    const close = "</" + el.localName + ">";
    return tags.endsWith(close) ? [tags.slice(0, -close.length), close] : [tags, ""];
  }
  function escapeText(t) {
    return t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\u00a0/g, "&nbsp;");
  }
  globalThis.frayKeptMarkup = function (main, screens) {
    const empty = new Set(main.querySelectorAll(UNSHOWN));
    const inside = new Set();  // the ancestors of what is kept empty: written part by part
    for (const el of empty) {
      // up to main itself: a page that fits in the kept screens is otherwise written whole, with
      // every closed fold-out's content
      for (let p = el.parentElement; p && !inside.has(p); p = p.parentElement) {
        inside.add(p);
        if (p === main) break;
      }
    }
    const top = main.getBoundingClientRect().top + scrollY;
    const limit = scrollY + screens * innerHeight - top;  // from the top of main
    function write(el, out) {
      if (empty.has(el)) { out.push(...shell(el)); return; }
      const r = el.getBoundingClientRect();
      // no box: display none (kept empty), or display contents (its children have the boxes)
      const boxed = r.width > 0 || r.height > 0 || el.getClientRects().length > 0;
      const contents = !boxed && getComputedStyle(el).display === "contents";
      if (!boxed && !contents && el.localName !== "option") { out.push(...shell(el)); return; }
      if (boxed && r.top + scrollY - top > limit) return;  // wholly below the kept screens
      if (!contents && !inside.has(el) && (r.bottom + scrollY - top <= limit || el instanceof SVGElement)) {
        out.push(el.outerHTML);
        return;
      }
      const [open, close] = shell(el);
      out.push(open);
      for (const n of el.childNodes) {
        if (n.nodeType === 1) write(n, out);
        else if (n.nodeType === 3) out.push(escapeText(n.nodeValue));
      }
      out.push(close);
    }
    const out = [];
    write(main, out);
    return out.join("");
  };
  globalThis.frayKeepPaint = function (key) {
    const main = document.querySelector("main.panes:not(.first-paint)");
    if (!main) return false;
    const select = document.getElementById("encounter-select");
    const badge = document.getElementById("ruleset-badge");
    const markup = globalThis.frayKeptMarkup(main, KEEP_SCREENS);
    try {
      localStorage.setItem(KEY, JSON.stringify({ v: 1, key: String(key), badge: badge ? badge.textContent : "",
        select: select ? select.innerHTML : "", main: markup, height: main.getBoundingClientRect().height,
        style: gameStyle }));
      return true;
    } catch (e) {  // full or refused: an old picture is worse than none
      try { localStorage.removeItem(KEY); } catch (_) { /* localStorage refused altogether */ }
      return false;
    }
  };

  // Called by the page (App.keep_paint) after every render: keep the drawing PAINT_DELAY_MS after
  // the last one (a burst of clicks writes it once), when the browser is idle, so the copy is never
  // made inside a click's frame; a page hidden or closed before that keeps it as it goes.
  const PAINT_DELAY_MS = 400;
  let pending = null, timer = null, idle = null;
  function keepNow() {
    clearTimeout(timer);
    if (idle !== null && typeof cancelIdleCallback === "function") cancelIdleCallback(idle);
    timer = idle = null;
    const key = pending;
    pending = null;
    if (key !== null) globalThis.frayKeepPaint(key);
  }
  globalThis.frayKeepPaintSoon = function (key) {
    pending = String(key);
    clearTimeout(timer);
    if (idle !== null && typeof cancelIdleCallback === "function") cancelIdleCallback(idle);
    idle = null;
    timer = setTimeout(() => {
      timer = null;
      idle = typeof requestIdleCallback === "function" ? requestIdleCallback(keepNow, { timeout: 2000 }) : null;
      if (idle === null) keepNow();
    }, PAINT_DELAY_MS);
  };
  addEventListener("pagehide", () => { if (pending !== null) keepNow(); });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden" && pending !== null) keepNow();
  });
  if (new URLSearchParams(location.search).get("view") === "players") {
    status.reason = "players' view";  // the players' window never shows the GM's page
    return;
  }
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(KEY) || "null");
  } catch (e) {
    status.reason = "unreadable: " + e;
    return;
  }
  const live = document.querySelector("main.panes");
  if (!saved || saved.v !== 1 || typeof saved.main !== "string" || !live || root.dataset.engine !== "loading") {
    status.reason = saved ? "not usable" : "nothing kept";
    return;
  }
  // our render never writes an event-handler or style attribute (CSP refuses both): a copy that
  // has one was not made by Fray, and is not shown (parsing it would already make the browser
  // report the policy it breaks)
  if (/<[^>]*\s(on[a-z]+|style)\s*=/i.test(saved.main + (saved.select || ""))) {
    status.reason = "not our own markup";
    localStorage.removeItem(KEY);
    return;
  }
  // parsed in a document of its own (no script runs there, and the page's CSP does not report
  // the handlers and styles a tampered copy might hold), cleaned, then adopted
  const parsed = new DOMParser().parseFromString("<!doctype html><body>" + saved.main, "text/html");
  clean(parsed.body);
  const found = parsed.body.firstElementChild;
  if (!found || found.tagName !== "MAIN") {
    status.reason = "not a page";
    return;
  }
  // the game's stylesheet first, so its markup is never on screen unstyled (frayGameStyle)
  if (saved.style && typeof saved.style.key === "string" && typeof saved.style.text === "string") {
    globalThis.frayGameStyle(saved.style.key, saved.style.text);
  }
  const copy = document.adoptNode(found);
  for (const c of copy.querySelectorAll("button, input, select, textarea, fieldset")) c.disabled = true;
  copy.removeAttribute("hidden");
  // as tall as the page it was kept from, whose lower part it leaves out (frayKeptMarkup)
  if (typeof saved.height === "number" && saved.height > 0) copy.style.minHeight = saved.height + "px";
  copy.classList.add("first-paint");
  copy.inert = true;
  copy.setAttribute("aria-busy", "true");
  copy.setAttribute("aria-label", "The encounter as it was last shown, read-only while the rules engine starts");

  const note = document.createElement("p");
  note.className = "first-paint-note";
  note.setAttribute("role", "status");
  note.textContent = "Starting the rules engine\u2026 read-only until it is ready";

  const loading = document.getElementById("loading");
  if (loading) loading.hidden = true;  // the live page hides it too: hiding it now keeps main where it will be
  const select = document.getElementById("encounter-select");
  if (select && typeof saved.select === "string") {
    const o = new DOMParser().parseFromString("<!doctype html><body><select>" + saved.select + "</select>", "text/html");
    clean(o.body);
    select.replaceChildren(...Array.from(o.body.querySelectorAll("option"), x => document.adoptNode(x)));
  }
  const badge = document.getElementById("ruleset-badge");
  if (badge && typeof saved.badge === "string") badge.textContent = saved.badge;

  live.classList.add("behind-first-paint");
  place();
  // after the live main in the document, so that where both hold an id (the page's CSS places
  // some regions by id) getElementById still finds the live one, which Python draws into
  live.after(copy);
  document.body.append(note);
  status.shown = true;
  status.shownAt = performance.now();
  // the start of the frame that draws it (the copy is in the document at shownAt; the browser
  // paints it in its next frame, which a busy main thread can delay): for make bench
  requestAnimationFrame(() => { status.frameAt = performance.now(); });
  status.key = typeof saved.key === "string" ? saved.key : "";
  addEventListener("resize", place);

  // the live page says it is ready (or that it failed): it takes the copy's place. Its map may
  // come a moment later (data-map="later": App.start draws it in the next task): until then the
  // copy's map stays over the live one, the rest of the copy hidden (the copy is inert: clicks
  // reach the live page beneath)
  new MutationObserver((_, obs) => {
    if (root.dataset.engine === "loading") return;
    obs.disconnect();
    const a = firstCard(copy), b = firstCard(live);
    const before = copy.getBoundingClientRect().top;
    live.classList.remove("behind-first-paint");
    status.jump = Math.abs(live.getBoundingClientRect().top - before);
    status.cardJump = a && b ? Math.abs(a.getBoundingClientRect().top - b.getBoundingClientRect().top) : null;
    note.remove();
    status.replacedAt = performance.now();
    if (root.dataset.map !== "later") {
      done();
      return;
    }
    copy.classList.add("map-only");
    new MutationObserver((_, mapObs) => {
      if (root.dataset.map === "later") return;
      mapObs.disconnect();
      done();
    }).observe(root, { attributes: true, attributeFilter: ["data-map"] });
  }).observe(root, { attributes: true, attributeFilter: ["data-engine"] });

  function done() {
    removeEventListener("resize", place);
    copy.remove();
    status.mapAt = performance.now();
  }

  // the copy lies over the live main, which keeps its place in the layout (hidden, not removed,
  // so the live page draws and measures its map in the real size)
  function place() {
    const r = live.getBoundingClientRect();
    copy.style.top = (r.top + scrollY) + "px";
    copy.style.left = (r.left + scrollX) + "px";
    copy.style.width = r.width + "px";
  }

  function firstCard(m) {
    return m.querySelector(".combatants > *") || m.querySelector("section");
  }

  function clean(fragment) {
    for (const bad of fragment.querySelectorAll("script, style, link, meta, base, iframe, frame, object, embed, template")) {
      bad.remove();
    }
    for (const el of fragment.querySelectorAll("*")) {
      for (const attr of Array.from(el.attributes)) {
        const n = attr.name.toLowerCase();
        if (n.startsWith("on") || n === "style" || n === "autofocus" || n === "srcdoc"
            || /^\s*javascript:/i.test(attr.value)) {
          el.removeAttribute(attr.name);
        }
      }
    }
  }
})();
