// The WebKit lane's watch (tests/webkit/conftest.py serves it in front of static/sw-register.js,
// the page's first script, so it runs before any other): WebKitGTK's WebDriver has no console
// log to read, so the page records its own console errors, uncaught errors and rejections,
// failed loads, and every resource it asked for, in sessionStorage (it survives a reload).
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
  // every resource the page asked for; which left the origin is decided in Python, by the same
  // function as Chromium's (fraypage.other_origin)
  const asked = (entries) => {
    try {
      const all = JSON.parse(sessionStorage.getItem(KEY + "-requests") || "[]");
      for (const en of entries) all.push(new URL(en.name, location.href).href);
      sessionStorage.setItem(KEY + "-requests", JSON.stringify(all));
    } catch (e) { keep("pageerror: the watch could not record requests: " + say(e)); }
  };
  try {
    new PerformanceObserver((list) => asked(list.getEntries())).observe({ type: "resource", buffered: true });
  } catch (e) { keep("pageerror: the watch could not observe requests: " + say(e)); }
})();
