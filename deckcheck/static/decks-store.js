// The decks and the collection this browser holds tokens for (contract "Saved decks",
// Pages): kept in localStorage only, and sent nowhere but to their own deck's API as
// `Authorization: Bearer`. Every page of saved decks reads them through this file.
"use strict";

window.deckcheckDecks = (function () {
  const DECKS = "deckcheck.my-decks"; // {"<id>": {"token", "name", "saved_at"}}
  const COLLECTION = "deckcheck.my-collection"; // the chosen binder: {"id", "token", "name"}
  const COLLECTIONS = "deckcheck.my-collections"; // every binder: {"<id>": {"token", "name"}}
  // The builder's older "My decks" kept builder addresses under this key: still shown.
  const LINKS = "deckcheck.decks";
  const ID = /^[A-Za-z0-9_-]{1,64}$/;
  const TOKEN = /^[A-Za-z0-9_.~-]{8,200}$/;
  const FILE_KIND = "deckcheck-my-decks";
  const MAX_FILE_DECKS = 2000;

  function read(key, otherwise) {
    try {
      const value = JSON.parse(localStorage.getItem(key) || "null");
      return value && typeof value === "object" ? value : otherwise;
    } catch (error) {
      return otherwise;
    }
  }

  function write(key, value) {
    localStorage.setItem(key, JSON.stringify(value));
  }

  function decks() {
    const all = read(DECKS, {});
    const kept = {};
    for (const [id, entry] of Object.entries(all)) {
      if (ID.test(id) && entry && typeof entry.token === "string") kept[id] = entry;
    }
    return kept;
  }

  function keep(id, token, name) {
    const all = decks();
    all[id] = { token, name: name || (all[id] && all[id].name) || id, saved_at: new Date().toISOString() };
    write(DECKS, all);
  }

  function forget(id) {
    const all = decks();
    delete all[id];
    write(DECKS, all);
  }

  function token(id) {
    const entry = decks()[id];
    return entry ? entry.token : null;
  }

  // Binders: every collection this browser keeps a token for, and the one chosen (the
  // builder's "owned only" and "My decks" use the chosen one). The chosen one stays under
  // its older key, so a browser that kept one collection keeps it.
  function valid(id, entry) {
    return ID.test(id || "") && entry && typeof entry.token === "string";
  }

  function collections() {
    const all = read(COLLECTIONS, {});
    const kept = {};
    for (const [id, entry] of Object.entries(all)) if (valid(id, entry)) kept[id] = { token: entry.token, name: entry.name || id };
    const chosen = read(COLLECTION, null);
    if (chosen && valid(chosen.id, chosen) && !kept[chosen.id]) kept[chosen.id] = { token: chosen.token, name: chosen.name || chosen.id };
    return kept;
  }

  function collection() {
    const found = read(COLLECTION, null);
    return found && valid(found.id, found) ? found : null;
  }

  // Keeps a binder and makes it the chosen one; null: none chosen (all kept).
  function keepCollection(value) {
    if (!value) {
      localStorage.removeItem(COLLECTION);
      return;
    }
    const all = collections();
    all[value.id] = { token: value.token, name: value.name || value.id };
    write(COLLECTIONS, all);
    write(COLLECTION, { id: value.id, token: value.token, name: value.name || value.id });
  }

  function chooseCollection(id) {
    const entry = collections()[id];
    if (entry) keepCollection({ id, token: entry.token, name: entry.name });
  }

  function forgetCollection(id) {
    const all = collections();
    delete all[id];
    write(COLLECTIONS, all);
    const chosen = collection();
    if (chosen && chosen.id === id) {
      localStorage.removeItem(COLLECTION);
      const next = Object.keys(all)[0];
      if (next) chooseCollection(next);
    }
  }

  function links() {
    const found = read(LINKS, {});
    return Object.entries(found).filter(([name, href]) => typeof href === "string" && href.startsWith("/build?"));
  }

  // The file "Export my decks" writes: ids and tokens, nothing else of the decks.
  function exportFile() {
    const body = { kind: FILE_KIND, version: 1, exported_at: new Date().toISOString(), decks: [] };
    for (const [id, entry] of Object.entries(decks())) body.decks.push({ id, token: entry.token, name: entry.name });
    const owned = collection();
    if (owned) body.collection = owned;
    body.collections = Object.entries(collections()).map(([id, entry]) => ({ id, token: entry.token, name: entry.name }));
    return JSON.stringify(body, null, 2);
  }

  // Reads an exported file: {added, kept, problems}. Nothing is stored unless the file
  // is ours; each entry it cannot read is named, and a deck already here keeps its token.
  function importFile(text) {
    let body;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return { added: 0, kept: 0, problems: ["This file is not a deckcheck export: it is not JSON."] };
    }
    if (!body || body.kind !== FILE_KIND || !Array.isArray(body.decks)) {
      return { added: 0, kept: 0, problems: ["This file is not a deckcheck export of decks (it has no \"kind\": \"deckcheck-my-decks\" and \"decks\" list)."] };
    }
    const problems = [];
    if (body.decks.length > MAX_FILE_DECKS) problems.push(`The file lists ${body.decks.length} decks; only the first ${MAX_FILE_DECKS} were read.`);
    const all = decks();
    let added = 0;
    let kept = 0;
    body.decks.slice(0, MAX_FILE_DECKS).forEach((entry, index) => {
      const where = `Deck ${index + 1}`;
      if (!entry || typeof entry !== "object") return problems.push(`${where}: not a deck entry.`);
      if (typeof entry.id !== "string" || !ID.test(entry.id)) return problems.push(`${where}: its id is missing or not a deck id.`);
      if (typeof entry.token !== "string" || !TOKEN.test(entry.token)) return problems.push(`${where} (${entry.id}): its token is missing or not a token.`);
      if (all[entry.id]) {
        kept += 1;
        if (all[entry.id].token !== entry.token) problems.push(`${where} (${entry.id}): this browser already holds another token for it; kept the one it had.`);
        return;
      }
      const name = typeof entry.name === "string" ? entry.name.slice(0, 200) : entry.id;
      all[entry.id] = { token: entry.token, name, saved_at: new Date().toISOString() };
      added += 1;
    });
    write(DECKS, all);
    const binders = Array.isArray(body.collections) ? body.collections.slice(0, MAX_FILE_DECKS) : [];
    if (body.collection !== undefined) binders.unshift(body.collection);
    binders.forEach((c, index) => {
      if (!c || typeof c.id !== "string" || !ID.test(c.id) || typeof c.token !== "string" || !TOKEN.test(c.token)) {
        problems.push(`Collection ${index + 1} in the file has no readable id and token: not imported.`);
        return;
      }
      const here = collections()[c.id];
      if (here && here.token !== c.token) {
        problems.push(`Collection ${c.id}: this browser already holds another token for it; kept the one it had.`);
        return;
      }
      const chosen = collection();
      keepCollection({ id: c.id, token: c.token, name: typeof c.name === "string" ? c.name.slice(0, 200) : "" });
      if (chosen) chooseCollection(chosen.id); // importing never changes the binder chosen
    });
    return { added, kept, problems };
  }

  async function api(path, options) {
    const response = await fetch(path, options || {});
    const data = response.status === 204 ? {} : await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error((data.error && data.error.message) || `The server answered ${response.status}.`);
      error.status = response.status;
      error.code = data.error && data.error.code;
      throw error;
    }
    return data;
  }

  function send(method, path, body, secret) {
    const headers = { "Content-Type": "application/json" };
    if (secret) headers.Authorization = `Bearer ${secret}`;
    return api(path, { method, headers, body: JSON.stringify(body) });
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value;
      else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role") node.setAttribute(key, value);
      else node[key] = value;
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  // An event's players' link (`https://host/e/<id>`, its admin or receipt links too) or
  // its bare id, as the organizer hands it out; null when it is neither.
  function eventTarget(typed) {
    const text = typed.trim();
    if (/^[A-Za-z0-9_-]{1,32}$/.test(text)) return { origin: location.origin, id: text };
    let url;
    try {
      url = new URL(text, location.href);
    } catch (error) {
      return null;
    }
    const match = url.pathname.match(/\/e\/([A-Za-z0-9_-]{1,32})(?:\/|$)/);
    if (!match || !/^https?:$/.test(url.protocol)) return null;
    return { origin: url.origin, id: match[1] };
  }

  // A time as the server wrote it (`<time datetime="...Z" data-local>2026-12-04 20:32
  // UTC</time>`), shown in the reader's own time zone, named ("4 Dec 2026, 12:32 PST").
  // (dateStyle / timeStyle cannot be combined with timeZoneName: the fields one by one.)
  const LOCAL = { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };

  function localTime(iso) {
    const at = new Date(iso);
    return Number.isNaN(at.getTime()) ? iso : new Intl.DateTimeFormat(undefined, LOCAL).format(at);
  }

  function localTimes(where) {
    for (const node of where.querySelectorAll("time[data-local]")) {
      if (!node.title) node.title = node.textContent;
      node.textContent = localTime(node.getAttribute("datetime"));
    }
  }

  return { eventTarget, localTime, localTimes, decks, keep, forget, token, collection, collections, keepCollection, chooseCollection, forgetCollection, links, exportFile, importFile, api, send, el };
})();
