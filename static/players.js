// The players' window (players.html): it draws what the GM's window sends it, and nothing else.
//
// It runs no Python. The GM's window makes the players' projection and its markup
// (py/fray/web/players_view.py, players_render.py) and delivers it two ways
// (py/fray/web/players_follow.py says why, and how the two are kept in order):
// - straight into this window (frayPlayersDraw, below), in the same task as the GM's own change,
//   when the GM's window holds this window's handle (it opened it, or this window told it where it is);
// - on the BroadcastChannel "fray.players", for a window it has no handle on (opened by hand, in
//   another tab).
// Each drawing carries a stamp (data-seq, "<the GM page's time origin>:<its count>"); one is
// written only when it is newer than what the root holds. The GM's window keeps the last drawing
// it sent in localStorage "fray.players" (as that page is hidden or goes), which this window shows at once when it is opened or
// reloaded, then asks the GM's window for the latest.
//
// Until issue 36 this window booted its own interpreter to draw the same markup: a second
// Pyodide of some 300 MiB in the same WebKit process, which doubled the page's memory.
(function () {
  "use strict";
  const CHANNEL = "fray.players";
  const KEPT = "fray.players";
  const HERE = "players-here";
  const SEQ = "data-seq";
  const root = document.getElementById("players-view");

  function parse(s) {  // players_follow.parse
    if (typeof s !== "string") return null;
    const i = s.lastIndexOf(":");
    if (i < 0) return null;
    const n = Number(s.slice(i + 1).trim());
    return Number.isInteger(n) ? [s.slice(0, i), n] : null;
  }
  function newer(stamp, painted) {  // players_follow.newer
    const a = parse(stamp), b = parse(painted);
    if (a === null) return false;
    if (b === null) return true;
    return a[0] !== b[0] || a[1] > b[1];
  }
  // Only Fray's own markup is drawn: it never has an event-handler or style attribute (the CSP
  // refuses both, and would report them).
  const FOREIGN = /<[^>]*\s(on[a-z]+|style)\s*=/i;
  // Every drawing is written here, whoever sends it, and fitted to the screen at once (see fit).
  function write(html, stamp) {
    if (typeof html !== "string" || FOREIGN.test(html) || !newer(stamp, root.getAttribute(SEQ))) return false;
    root.innerHTML = html;
    root.setAttribute(SEQ, stamp);
    fit();
    return true;
  }

  let channel = null;
  try {
    channel = new BroadcastChannel(CHANNEL);
  } catch (e) {  // no channel: the GM's window still writes into a window it opened
    channel = null;
  }
  // The GM's window that opened this one writes into it straight (it is told where this window is);
  // any other (this one opened by hand, or its opener gone) is asked on the channel, and then sends
  // every drawing there too. Asked both ways, it delivered each drawing twice.
  function callTheGm() {
    let opener = null;
    try {
      if (window.opener && !window.opener.closed && window.opener.location.origin === location.origin) opener = window.opener;
    } catch (e) {  // an opener of another origin: not the GM's window
      opener = null;
    }
    if (opener) opener.postMessage(HERE, location.origin);
    else if (channel) channel.postMessage(JSON.stringify({ kind: "hello" }));
  }
  if (channel) {
    channel.onmessage = (event) => {
      let msg = null;
      try {
        msg = JSON.parse(String(event.data));
      } catch (e) {
        return;
      }
      if (!msg || typeof msg !== "object") return;
      if (msg.kind === "view") write(msg.html, msg.seq);
      else if (msg.kind === "gm") callTheGm();
    };
  }
  // Nobody scrolls the screen across the table: when the order of play runs off the bottom or the
  // side of this screen (a laptop's, a television's, however tall its names wrap), its type is made
  // smaller (--fit in players.css), a tenth at a time, until it fits, down to a third of its size;
  // and larger again, a step a drawing, when it fits with room. Done as each drawing is written,
  // before the frame is painted, and as the window is resized. (Not by a mutation observer: each
  // record it is handed holds the whole drawing it replaced, which WebKit keeps until a full
  // collection: some 25 MiB a round of a big fight, issue 36.)
  const LEAST_FIT = 1 / 3;
  let fitted = 1;
  function overflows() {
    const pad = parseFloat(getComputedStyle(root).paddingBottom) || 0;  // the page's own margin under it
    let bottom = pad, right = 0;
    for (const li of root.querySelectorAll("#pv-order li")) {
      const b = li.getBoundingClientRect();
      bottom = Math.max(bottom, b.bottom + pad);
      right = Math.max(right, b.right);
      // a name is broken between its words only (players.css): a word wider than its row runs past it
      const name = li.querySelector(".pv-name");
      if (name && name.getBoundingClientRect().right > b.right + 1) return true;
    }
    return bottom > innerHeight || right > innerWidth;
  }
  function setFit(f) {
    fitted = f;
    // the CSSOM, which the CSP allows (a style attribute it refuses)
    if (f >= 1) root.style.removeProperty("--fit");
    else root.style.setProperty("--fit", f.toFixed(3));
  }
  function fit() {
    if (!root.querySelector("#pv-order")) return;
    if (fitted < 1) {  // room again (fewer in the order, a larger window)? one step back up
      const was = fitted;
      setFit(Math.min(1, fitted / 0.9));
      if (overflows()) setFit(was);
    }
    while (fitted > LEAST_FIT && overflows()) setFit(Math.max(LEAST_FIT, fitted * 0.9));
  }

  // The GM's window that holds this window's handle draws through this, in the task of the GM's
  // own change, so both windows paint it in the next frame (py/fray/web/players_view.py): one
  // call from its Python, where reading and writing this document from there took ten.
  window.frayPlayersDraw = (html, stamp) => write(html, stamp);
  window.frayPlayersPainted = () => root.getAttribute(SEQ);

  let kept = null;
  try {
    kept = JSON.parse(localStorage.getItem(KEPT) || "null");
  } catch (e) {  // unreadable or refused: wait for the GM's window
    kept = null;
  }
  if (kept && typeof kept === "object") write(kept.html, kept.seq);
  let resizing = 0;
  addEventListener("resize", () => {
    if (!resizing) resizing = requestAnimationFrame(() => { resizing = 0; setFit(1); fit(); });
  });
  fit();

  callTheGm();
  document.documentElement.dataset.engine = "ready";
})();
