// The players' window is players.html (no Python there): a window still on the page's old address
// for it, "?view=players" (a bookmark, a window left open across an update), goes there at once.
// This script comes first in index.html: the page stops being parsed here, so nothing of the
// interpreter is asked for (stop() first: called after, it would cancel the navigation too).
if (new URLSearchParams(location.search).get("view") === "players" && !/players\.html$/.test(location.pathname)) {
  window.stop();
  location.replace("players.html");
}
// The service worker lives at the site root (its scope is its folder) and precaches the app, so
// a second visit boots with the network off. A page served without it (a bare dev server) simply
// runs online. A file, not an inline script: the page's Content-Security-Policy runs no inline
// script at all.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("./sw.js").catch(() => {});
  });
}
