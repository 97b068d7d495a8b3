// The service worker lives at the site root (its scope is its folder) and precaches the app, so
// a second visit boots with the network off. A page served without it (a bare dev server) simply
// runs online. A file, not an inline script: the page's Content-Security-Policy runs no inline
// script at all.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("./sw.js").catch(() => {});
  });
}
