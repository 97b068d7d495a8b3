// The WebKit lane's watch (tests/webkit/conftest.py serves it in front of static/sw-register.js,
// the page's first script, so it runs before any other): WebKitGTK's WebDriver has no console
// log to read, so the page records its own console errors, uncaught errors and rejections,
// failed loads and requests to another origin, in sessionStorage (it survives a reload).
(() => {
  const KEY = "fray-test-watch";
  const keep = (line) => {
    try {
      const all = JSON.parse(sessionStorage.getItem(KEY) || "[]");
      all.push(line);
      sessionStorage.setItem(KEY, JSON.stringify(all));
    } catch (e) { /* storage full or refused: nothing to record with */ }
  };
  const say = (x) => (x instanceof Error ? `${x}${x.stack ? " at " + x.stack.split("\n")[0] : ""}` : String(x));
  const error = console.error;
  console.error = function (...args) { keep("console.error: " + args.map(say).join(" ")); return error.apply(this, args); };
  addEventListener("error", (e) => {
    if (e.target && e.target !== window && (e.target.src || e.target.href)) keep("failed to load: " + (e.target.src || e.target.href));
    else keep(`pageerror: ${e.message} (${e.filename}:${e.lineno})`);
  }, true);
  addEventListener("unhandledrejection", (e) => keep("pageerror: unhandled rejection: " + say(e.reason)));
  // the page's Content-Security-Policy refused something (a request to another origin, an inline script)
  addEventListener("securitypolicyviolation", (e) => keep(`refused by the page's policy: ${e.violatedDirective} ${e.blockedURI}`));
  const foreign = (entries) => {
    for (const en of entries) {
      const u = new URL(en.name, location.href);
      if (!["data:", "blob:", "about:"].includes(u.protocol) && u.origin !== location.origin) keep("request to another origin: " + en.name);
    }
  };
  try {
    new PerformanceObserver((list) => foreign(list.getEntries())).observe({ type: "resource", buffered: true });
  } catch (e) { keep("pageerror: the watch could not observe requests: " + say(e)); }
})();
