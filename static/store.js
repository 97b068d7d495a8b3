// Fray's autosave in IndexedDB: the few operations py/fray/web/store.py needs, each one
// transaction, each promise settled only when its transaction has committed.
//
// Python (in Pyodide) cannot keep an IndexedDB transaction open across its own awaits, so the
// check-then-write of a save (is the stored revision still the one this tab loaded?) happens
// here, inside one transaction: two tabs can never both pass the check for the same revision.
// Durability. Every write is committed before its promise settles, so a page or browser killed
// right after "Saved" keeps the change (the browser holds it, or the operating system does).
// A journal row, the write of one change, is "relaxed": committed once the operating system has
// it, as IndexedDB's default is in Chrome (since 121), Firefox and Safari. Waiting for the disk's
// flush ("strict") was the largest part of a click at 30 combatants left to take out (an A/B on
// one page: p95 58.4 against 47.6 ms). Every other write is "strict": the whole save (the first
// write, and the fold that follows 2 s after the last change, or sooner), the migration, repairs,
// deletions. A strict commit flushes everything written before it, so the rows of a change are on
// disk once the fold after it has committed; only a power cut or a crash of the operating system
// in those seconds could take the changes made since (docs/ARCHITECTURE.md, Storage).
//
// Database "fray", version 2:
//   entries  {key, name, ruleset, rev}   the library list (small, read at every boot); its rev
//                                        is the encounter's revision (the latest write's)
//   saves    {key, text, rev, by}        each encounter's save file (docs/file-format.md), as of
//                                        revision rev
//   journal  {key, rev, moves, by}       (version 2) the history's moves since its save was
//                                        written, one row per committed write (fray/journal.py),
//                                        keyed [key, rev]; a full save deletes its key's rows
//   broken   {key, text}                 a save that failed to load, kept for download
//   meta     "current" -> key of the open encounter; "migrated" -> true once localStorage's
//            library has been copied in; "bestiary" -> the GM's templates, as bestiary file text
// `by` names the write (this tab's id and its count of writes), so a tab that closed during a
// write can tell at its next boot whether that write made it (py/fray/web/store.py, pending).
//
// Loaded by PyScript before Python starts (pyscript.toml [js_modules.main]).

const NAME = "fray";
const VERSION = 2;
const STORES = ["entries", "saves", "journal", "broken", "meta"];
let db = null;
let replaced = null; // Python's callback for a newer Fray taking the database (onVersionChange)

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function committed(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error || new Error("the transaction was aborted"));
    tx.onerror = () => reject(tx.error);
  });
}

function tx(names, mode, durability = "strict") {
  if (db === null) throw new Error("the save store is not open");
  return mode === "readwrite"
    ? db.transaction(names, mode, { durability })
    : db.transaction(names, "readonly");
}

// One connection, however many ask at once (the boot's prefetch and Python's open).
let opening = null;
export function open() {
  hear();
  if (db !== null) return Promise.resolve(true);
  if (opening === null) {
    opening = openDb().finally(() => { opening = null; });
  }
  return opening;
}

async function openDb() {
  const request = indexedDB.open(NAME, VERSION);
  request.onupgradeneeded = (event) => {
    // Each version adds to what the one before made: a version 1 database keeps every store
    // and row it has and gains the journal (the upgrade is one transaction: all or nothing).
    const d = request.result;
    if (event.oldVersion < 1) {
      d.createObjectStore("entries", { keyPath: "key" });
      d.createObjectStore("saves", { keyPath: "key" });
      d.createObjectStore("broken", { keyPath: "key" });
      d.createObjectStore("meta");
    }
    if (event.oldVersion < 2) d.createObjectStore("journal", { keyPath: ["key", "rev"] });
  };
  // A tab with an older Fray open holds the database at its version: the open waits until that
  // tab lets go (Fray's closes at once on "versionchange", as this one does below).
  request.onblocked = () => {};
  db = await done(request);
  // A newer Fray in another tab wants to upgrade the database: let it, and tell Python, which
  // says so and stops saving here (a write would fail anyway: the database is closed).
  db.onversionchange = () => {
    db.close();
    db = null;
    forgetEarly();
    if (replaced !== null) replaced();
  };
  return true;
}

// The boot's reads, begun by the interpreter module (static/fray-pyodide.mjs) as the page starts,
// while the interpreter loads: the library list, the current encounter's key and its stored row.
// Python's boot asks for exactly these (web/booting.py) and finds them read. Each is handed out
// once, and only while this tab has written nothing since (any write forgets them): what another
// tab writes meanwhile is then as a write just after the load, which the revision check of this
// tab's next write finds (store.py). globalThis.frayEarly says what was used, for make bench.
let early = null;        // promise of {list, current, row} (row: null when there is no save), or null
const unused = new Set();
export function prefetch() {
  if (early !== null) return;
  globalThis.frayEarly = { started: performance.now(), used: [] };
  unused.clear();
  for (const part of ["list", "current", "row"]) unused.add(part);
  early = (async () => {
    await open();
    const t = tx(["entries", "saves", "journal", "meta"], "readonly");
    const [list, current] = await Promise.all([listIn(t), done(t.objectStore("meta").get("current"))]);
    const row = typeof current === "string" ? await getIn(t, current) : null;
    globalThis.frayEarly.read = performance.now();
    return { list, current: current === undefined ? null : current, row, key: current };
  })().catch((e) => {  // nothing lost: Python reads each of them itself
    globalThis.frayEarly.failed = String(e && e.message || e);
    return null;
  });
}

function forgetEarly() {
  early = null;
  unused.clear();
}

// {value} of one of the boot's reads if it may still be used (and is, from now on), else null.
async function fromEarly(part, key) {
  if (early === null || !unused.has(part)) return null;
  const got = await early;
  if (got === null || !unused.has(part) || (part === "row" && got.key !== key)) return null;
  unused.delete(part);
  globalThis.frayEarly.used.push(part);
  return { value: got[part] };
}

export function onVersionChange(callback) { replaced = callback; }

// Every journal row of one encounter: [key] sorts before [key, rev] and [key, []] after it.
function rowsOf(key) { return IDBKeyRange.bound([key], [key, []]); }

// The latest revision of one encounter: its last journal row's, else its save's.
async function headIn(t, key) {
  const cursor = await done(t.objectStore("journal").openKeyCursor(rowsOf(key), "prev"));
  const last = cursor ? cursor.key[1] : 0;
  const row = await done(t.objectStore("saves").get(key));
  const saved = row === undefined ? 0 : (Number.isInteger(row.rev) ? row.rev : 0);
  return Math.max(last, saved);
}

// The library list as stored, and every key that has a save: Python reconciles the two.
export async function list() {
  const e = await fromEarly("list");
  return e !== null ? e.value : listIn(tx(["entries", "saves"], "readonly"));
}

async function listIn(t) {
  const [entries, keys] = await Promise.all([
    done(t.objectStore("entries").getAll()), done(t.objectStore("saves").getAllKeys())]);
  return { entries, keys };
}

// One encounter as stored: its save's text and revision (`base`), its journal rows after it
// (in order), and its latest revision (`rev`), all read in one transaction.
export async function get(key) {
  const e = await fromEarly("row", key);
  return e !== null ? e.value : getIn(tx(["saves", "journal"], "readonly"), key);
}

async function getIn(t, key) {
  const [row, rows] = await Promise.all([
    done(t.objectStore("saves").get(key)), done(t.objectStore("journal").getAll(rowsOf(key)))]);
  if (row === undefined) return null;
  const base = Number.isInteger(row.rev) ? row.rev : 0;
  const journal = rows.filter((r) => r.rev > base)
    .map((r) => ({ rev: r.rev, moves: r.moves, by: r.by === undefined ? null : r.by }));
  const rev = journal.length ? Math.max(base, journal[journal.length - 1].rev) : base;
  const head = journal.length ? journal[journal.length - 1].by : row.by;
  return { text: row.text, rev, base, journal, by: head === undefined ? null : head };
}

// `get`, with the save's text cut where its checkpoints begin (py/fray/savefile.py loads_split):
// `text` up to and with `,"checkpoints":`, `rest()` the text after it, `size` the whole length.
// Python reads the head at once and asks for the rest only when it first needs a checkpoint (undo,
// or the check of the present once the page is ready): two thirds of a long fight's save then
// never cross into Python at boot (converting the whole 844 KB of a 30-combatant fight took
// 13-31 ms). A cut in the wrong place (the pattern inside the encounter) Python finds and reads
// the whole text instead; a text that does not end as the autosave ends is not cut.
const SPLIT_AT = /,"cursor":\d+,"checkpoints":/;
export async function getSplit(key) {
  const row = await get(key);
  if (row === null || typeof row.text !== "string" || !row.text.endsWith("]}}")) return row;
  const text = row.text;
  const m = SPLIT_AT.exec(text);
  if (m === null) return row;
  const cut = m.index + m[0].length;
  return { ...row, text: text.slice(0, cut), rest: () => text.slice(cut), size: text.length };
}

// The latest revision of one encounter (0: none), without reading its save's text.
export async function revision(key) {
  return revisionIn(tx(["entries", "saves", "journal"], "readonly"), key);
}

// The stored revision of one encounter: its entry's (written in the same transaction as every
// save and journal row), else the latest of its save and journal (an entry lost or unreadable).
async function revisionIn(t, key) {
  const entry = await done(t.objectStore("entries").get(key));
  if (entry && Number.isInteger(entry.rev)) return entry.rev;
  return headIn(t, key);
}

// Write one save if its stored revision is still `expected` (0: not saved yet), and make it
// current; the encounter's journal rows are folded into it, so they go in the same transaction.
// Resolves {ok: true, rev} once committed, or {ok: false, rev} (the newer revision another tab
// wrote) having written nothing.
export async function save(key, text, name, ruleset, expected, by) {
  forgetEarly();
  const t = tx(["entries", "saves", "journal", "meta"], "readwrite");
  const end = committed(t);
  const stored = await revisionIn(t, key);
  if (stored !== expected) {
    t.abort();
    await end.catch(() => {});
    return { ok: false, rev: stored };
  }
  const rev = stored + 1;
  t.objectStore("saves").put({ key, text, rev, by: by || null });
  t.objectStore("journal").delete(rowsOf(key));
  t.objectStore("entries").put({ key, name, ruleset, rev });
  t.objectStore("meta").put(key, "current");
  await end;
  return { ok: true, rev };
}

// Append one journal row (`moves`: the JSON text of fray/journal.py's moves) under the same
// revision check and bump as `save`, and make the encounter current. Only for an encounter that
// has a save (Python writes the first one whole).
export async function append(key, moves, name, ruleset, expected, by) {
  forgetEarly();
  // relaxed: the one write of a click (see Durability at the top); the fold writes it through
  const t = tx(["entries", "saves", "journal", "meta"], "readwrite", "relaxed");
  const end = committed(t);
  const stored = await revisionIn(t, key);
  if (stored !== expected || expected < 1) {
    t.abort();
    await end.catch(() => {});
    return { ok: false, rev: stored };
  }
  const rev = stored + 1;
  t.objectStore("journal").put({ key, rev, moves, by: by || null });
  t.objectStore("entries").put({ key, name, ruleset, rev });
  t.objectStore("meta").put(key, "current");
  await end;
  return { ok: true, rev };
}

// Repair library entries (a missing or unreadable one, rebuilt from its save) and drop the
// entries of saves that no longer exist. `fix` is a JSON list of {key, name, ruleset, rev};
// `drop` a JSON list of keys.
// Each is checked again inside the transaction: another tab may have saved meanwhile, and its
// entry (with the newer revision) must win.
export async function repair(fix, drop) {
  forgetEarly();
  const t = tx(["entries", "saves"], "readwrite");
  const end = committed(t);
  const entries = t.objectStore("entries");
  for (const entry of JSON.parse(fix)) {
    const now = await done(entries.get(entry.key));
    const sound = now && Number.isInteger(now.rev) && now.rev >= 1 && typeof now.name === "string"
      && typeof now.ruleset === "string";
    if (!sound) entries.put(entry);
  }
  for (const key of JSON.parse(drop)) {
    if (await done(t.objectStore("saves").getKey(key)) === undefined) entries.delete(key);
  }
  await end;
}

export async function setCurrent(key) {
  forgetEarly();
  const t = tx(["meta"], "readwrite");
  const end = committed(t);
  t.objectStore("meta").put(key, "current");
  await end;
}

// A setting of this browser beside the saves: "bestiary" -> the GM's templates (fray/bestiary.py).
export async function putMeta(name, value) {
  forgetEarly();
  const t = tx(["meta"], "readwrite");
  const end = committed(t);
  t.objectStore("meta").put(value, name);
  await end;
}

// The party's campaign (py/fray/web/store.py, save_campaign): write `text` if the kept campaign is
// still revision `expected`, the check and the write in one transaction (as `save` does), so two
// tabs writing at the same instant cannot both pass it. A kept text is {"rev": n, ...}: none is
// revision 0, one whose rev is not a whole number from 1 (unreadable) is -1. Resolves {ok, rev}
// (rev: the one now kept; when not ok, the one another tab kept, nothing written).
export async function putCampaign(text, expected) {
  forgetEarly();
  const t = tx(["meta"], "readwrite");
  const end = committed(t);
  const stored = campaignRev(await done(t.objectStore("meta").get("campaign")));
  if (stored !== expected) {
    t.abort();
    await end.catch(() => {});
    return { ok: false, rev: stored };
  }
  t.objectStore("meta").put(text, "campaign");
  await end;
  return { ok: true, rev: Math.max(stored, 0) + 1 };
}

function campaignRev(kept) {
  if (kept === undefined || kept === null || kept === "") return 0;
  let got = null;
  try { got = typeof kept === "string" ? JSON.parse(kept) : null; } catch (e) { got = null; }
  const rev = got !== null && typeof got === "object" ? got.rev : null;
  return Number.isInteger(rev) && rev >= 1 ? rev : -1;
}

export async function meta(name) {
  if (name === "current") {
    const e = await fromEarly("current");
    if (e !== null) return e.value;
  }
  const v = await done(tx(["meta"], "readonly").objectStore("meta").get(name));
  return v === undefined ? null : v;
}

export async function getBroken(key) {
  const row = await done(tx(["broken"], "readonly").objectStore("broken").get(key));
  return row === undefined ? null : row.text;
}

export async function putBroken(key, text) {
  forgetEarly();
  const t = tx(["broken"], "readwrite");
  const end = committed(t);
  t.objectStore("broken").put({ key, text });
  await end;
}

// Forget an encounter: its save, its journal, its entry and its unreadable copy.
export async function forget(key) {
  forgetEarly();
  const t = tx(["entries", "saves", "journal", "broken"], "readwrite");
  const end = committed(t);
  for (const name of ["entries", "saves", "broken"]) t.objectStore(name).delete(key);
  t.objectStore("journal").delete(rowsOf(key));
  await end;
}

// Copy localStorage's library in, all in one transaction, once: `plan` is JSON
// {saves: [{key, text, name, ruleset}], broken: [{key, text}], current}. Resolves true if this
// call copied it, false if it had been done before (by this tab or another).
export async function migrate(plan) {
  forgetEarly();
  const t = tx(STORES, "readwrite");
  const end = committed(t);
  if (await done(t.objectStore("meta").get("migrated")) === true) {
    t.abort();
    await end.catch(() => {});
    return false;
  }
  const p = JSON.parse(plan);
  // Saves already here were made by this Fray after an earlier migration failed: both are
  // kept, the older one under a new key.
  const taken = new Set(await done(t.objectStore("saves").getAllKeys()));
  const moved = new Map();
  for (const s of p.saves) {
    let key = s.key;
    while (taken.has(key)) key += "-old";
    taken.add(key);
    moved.set(s.key, key);
    t.objectStore("saves").put({ key, text: s.text, rev: 1 });
    t.objectStore("journal").delete(rowsOf(key)); // a key free of saves has no journal, but be sure
    t.objectStore("entries").put({ key, name: s.name, ruleset: s.ruleset, rev: 1 });
  }
  for (const b of p.broken) t.objectStore("broken").put({ key: moved.get(b.key) || b.key, text: b.text });
  const current = await done(t.objectStore("meta").get("current"));
  if (typeof p.current === "string" && current === undefined) {
    t.objectStore("meta").put(moved.get(p.current) || p.current, "current");
  }
  t.objectStore("meta").put(true, "migrated");
  await end;
  return true;
}

// Another tab saved, folded or deleted an encounter: {kind, key, rev, tab}.
// The channel is opened before this tab first reads the database (open), and what it hears is
// held until Python listens: a write another tab commits after this tab's read (a fold of the
// journal the boot's early read holds, say) is announced after that read began, so it reaches
// this tab however long the interpreter takes to start. Python drops what it already holds
// (app.py on_broadcast): a message is about a revision, never an instruction to write.
let channel = null;
let heard = [];           // messages heard before Python listens
let hearer = null;
const HELD_MAX = 500;     // a tab whose Python never listens (the players' view) holds no more
function hear() {
  if (channel !== null || typeof BroadcastChannel === "undefined") return;
  channel = new BroadcastChannel(NAME);
  channel.onmessage = (event) => {
    const text = JSON.stringify(event.data);
    if (hearer !== null) hearer(text);
    else if (heard.length < HELD_MAX) heard.push(text);
  };
}

export function listen(callback) {
  if (typeof BroadcastChannel === "undefined") return false;
  hear();
  // What was held is handed over in a task of its own, once Python's start has returned, in the
  // order it was heard; what arrives meanwhile is held behind it.
  setTimeout(() => {
    const held = heard;
    heard = [];
    hearer = callback;
    for (const text of held) callback(text);
  }, 0);
  return true;
}

export function announce(message) {
  if (typeof BroadcastChannel === "undefined") return;
  hear();
  channel.postMessage(JSON.parse(message));
}
