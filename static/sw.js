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
    // The memory snapshot is shipped gzipped (7 MB instead of 31), but inflating it costs a boot
    // some 300 ms of the page's main thread. Inflate it once, here, off the page's thread, and
    // keep the raw bytes, marked so that the page's interpreter module (static/fray-pyodide.mjs)
    // uses them as they are. A file that does not inflate (corrupt, cut short) stays cached as
    // it came: the page then fails to inflate it too and boots the plain way.
    for (const url of PRECACHE.filter((u) => u.endsWith(".snapshot.gz"))) {
      try {
        const gz = await cache.match(url);
        const raw = await new Response(gz.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
        await cache.put(url, new Response(raw, { headers: {
          "Content-Type": "application/octet-stream", "X-Fray-Snapshot": "raw" } }));
      } catch (e) {
        // no DecompressionStream in this worker, or a bad file: the gzipped copy stays
      }
    }
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
