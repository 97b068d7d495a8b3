// Fray's service worker: the whole app offline after one visit.
//
// The build (scripts/build.py) copies this file to the root of dist/ (a worker's scope is its
// own folder, and GitHub Pages cannot send Service-Worker-Allowed) and replaces the two
// placeholders below with the list of every file in dist/ and a hash of their contents.
// Each build therefore gets a new cache; activate (once no tab uses the old worker) deletes
// the old ones.
//
// Every URL is relative to this file, so the app works under any sub-path (/<repo>/).
// Nothing here ever asks another origin for anything: requests to other origins are not
// answered from the cache and not fetched by the worker; the page makes none.

const PRECACHE = /*PRECACHE*/["./"]/*END*/;
const VERSION = /*VERSION*/"dev"/*END*/;
const CACHE = "fray-" + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // cache: "reload" skips the HTTP cache so a new version never precaches stale bytes.
    await cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" })));
    // No skipWaiting: a new version waits until no tab runs the old one, so a page never boots
    // half from the old cache and half from the new. The first visit has no old worker, so it
    // activates at once all the same.
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("fray-") && key !== CACHE) await caches.delete(key);
    }
    // Take over the page that installed us, so the first visit already works offline.
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // A navigation may carry a query (?reset, ?debug): the page is the same file.
    const hit = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
    if (hit) return hit;
    const response = await fetch(request);
    if (response.ok && response.type === "basic") cache.put(request, response.clone());
    return response;
  })());
});
