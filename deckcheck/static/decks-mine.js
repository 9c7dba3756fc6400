// "My decks" (/decks): every deck this browser keeps a token for, with today's verdict
// from ONE POST /api/v1/decks/lookup (in pieces of 500, the API's limit), never one
// request per deck; export and import of the ids and tokens; the player's collection.
"use strict";

(function () {
  const root = document.getElementById("my-decks");
  if (!root) return;
  const store = window.deckcheckDecks;
  const { el } = store;
  const $ = (id) => document.getElementById(id);
  const page = JSON.parse(root.dataset.page);
  const LOOKUP_MAX = 500;

  async function lookup(ids) {
    const found = { data: [], not_found: [] };
    for (let at = 0; at < ids.length; at += LOOKUP_MAX) {
      const part = await store.send("POST", "/api/v1/decks/lookup", { ids: ids.slice(at, at + LOOKUP_MAX) });
      found.data.push(...part.data);
      found.not_found.push(...part.not_found);
    }
    return found;
  }

  function row(id, kept, summary) {
    const link = el("a", { href: `/d/${encodeURIComponent(id)}`, text: summary ? summary.name : kept.name });
    const edit = el("a", { href: `/d/${encodeURIComponent(id)}/edit#${kept.token}`, text: "Edit", "aria-label": `Edit ${summary ? summary.name : kept.name}` });
    const forget = el("button", { type: "button", className: "small", text: "Forget", "aria-label": `Forget ${kept.name} in this browser` });
    forget.addEventListener("click", () => {
      store.forget(id);
      render();
    });
    const name = summary ? summary.name : kept.name;
    if (!summary) {
      return el("li", { className: "gone", "data-id": id },
        el("span", { className: "deck-name", text: name }),
        el("span", { className: "verdict-cell", text: "Not on the server any more" }),
        el("span", { className: "actions" }, forget));
    }
    const verdict = el("span", { className: "verdict-cell" }, summary.legal ? "✔ Legal" : "✘ Not legal");
    if (summary.changed) verdict.append(" ", el("strong", { className: "changed", "data-testid": "deck-changed", text: "changed" }));
    if (summary.current === false) verdict.append(" ", el("span", { className: "hint", text: "(as last judged)" }));
    return el("li", { className: summary.legal ? "legal" : "illegal", "data-id": id },
      el("span", { className: "deck-name" }, link),
      el("span", { className: "format", text: (page.formats[summary.format] || {}).name || summary.format }),
      verdict,
      // In the reader's own time zone, named (the server keeps UTC).
      el("span", { className: "saved" }, "saved ", el("time", { dateTime: summary.updated_at || "", text: store.localTime(summary.updated_at || "") })),
      el("span", { className: "actions" }, edit, " ", forget));
  }

  async function render() {
    const kept = store.decks();
    const ids = Object.keys(kept);
    const list = $("mine-list");
    if (!ids.length) {
      list.hidden = true;
      $("mine-status").textContent = "This browser keeps no saved decks yet. Save one in the builder, or import a file of your decks.";
      return;
    }
    $("mine-status").textContent = `Checking ${ids.length} deck${ids.length === 1 ? "" : "s"}…`;
    let found;
    try {
      found = await lookup(ids);
    } catch (error) {
      $("mine-status").textContent = `Could not check your decks: ${error.message}`;
      return;
    }
    const byId = new Map(found.data.map((d) => [d.id, d]));
    const rows = ids
      .map((id) => [id, kept[id], byId.get(id)])
      .sort((a, b) => ((b[2] || {}).updated_at || "").localeCompare((a[2] || {}).updated_at || ""));
    list.replaceChildren(...rows.map(([id, entry, summary]) => row(id, entry, summary)));
    list.hidden = false;
    const changed = found.data.filter((d) => d.changed).length;
    const illegal = found.data.filter((d) => !d.legal).length;
    $("mine-status").textContent =
      `${ids.length} deck${ids.length === 1 ? "" : "s"}: ${illegal} not legal today` +
      (changed ? `, ${changed} changed since last opened` : "") +
      (found.not_found.length ? `, ${found.not_found.length} no longer on the server` : "") + ".";
    root.dataset.ready = "true";
  }

  function exportDecks() {
    const blob = new Blob([store.exportFile()], { type: "application/json" });
    const link = el("a", { href: URL.createObjectURL(blob), download: `deckcheck-my-decks-${new Date().toISOString().slice(0, 10)}.json` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  async function importDecks() {
    const file = $("mine-import").files[0];
    if (!file) return;
    const out = $("mine-import-result");
    if (file.size > 2 * 1024 * 1024) {
      out.replaceChildren(el("p", { className: "error", text: "This file is larger than 2 MB: it is not an export of decks." }));
      return;
    }
    const result = store.importFile(await file.text());
    const parts = [el("p", { text: `Imported ${result.added} deck${result.added === 1 ? "" : "s"}${result.kept ? `; ${result.kept} already here` : ""}.` })];
    if (result.problems.length) parts.push(el("p", { text: "Not imported:" }), el("ul", { className: "problems" }, ...result.problems.map((p) => el("li", { text: p }))));
    out.replaceChildren(...parts);
    $("mine-import").value = "";
    render();
    renderCollection();
  }

  async function renderCollection() {
    const owned = store.collection();
    $("collection-forget").hidden = !owned;
    $("collection-game").disabled = Boolean(owned);
    if (!owned) {
      $("collection-status").textContent = "No collection yet. Choose its game and list the cards you own to see what each deck still needs and to search only cards you own in the builder.";
      return;
    }
    try {
      const found = await store.api(`/api/v1/collections/${encodeURIComponent(owned.id)}`);
      const c = found.collection || found;
      const game = $("collection-game").querySelector(`option[value="${CSS.escape(c.game)}"]`);
      if (game) $("collection-game").value = c.game;
      // A collection is one game's cards; another game's is a new collection.
      $("collection-status").textContent = `Your collection "${c.name}": ${c.cards.length} different ${game ? game.textContent : c.game} cards. Saving replaces it. A collection holds one game's cards: to list another game's, forget this one here (export your decks first to keep its key).`;
      $("collection-name").value = c.name;
    } catch (error) {
      $("collection-status").textContent = `Could not read your collection: ${error.message}`;
    }
  }

  async function saveCollection() {
    const owned = store.collection();
    const body = { name: $("collection-name").value.trim() || "My collection", cards: $("collection-cards").value };
    if (!owned) body.game = $("collection-game").value; // a replaced collection keeps its game
    const out = $("collection-result");
    if (!body.cards.trim()) {
      out.replaceChildren(el("p", { className: "error", text: "List the cards you own first." }));
      return;
    }
    try {
      const path = owned ? `/api/v1/collections/${encodeURIComponent(owned.id)}` : "/api/v1/collections";
      const saved = await store.send(owned ? "PUT" : "POST", path, body, owned ? owned.token : null);
      const c = saved.collection || saved;
      if (!owned) store.keepCollection({ id: c.id, token: saved.edit_token, name: c.name });
      const unread = c.unread || [];
      // (replaceChildren writes a null as the text "null": only what there is.)
      const parts = [el("p", { text: `Saved: ${c.cards.length} different cards.` })];
      if (unread.length) {
        parts.push(
          el("p", { text: `${unread.length} line${unread.length === 1 ? "" : "s"} named no card:` }),
          el("ul", {}, ...unread.map((u) => el("li", { text: u.line ? `Line ${u.line}: ${u.text}` : String(u.text || u) })))
        );
      }
      out.replaceChildren(...parts);
      renderCollection();
    } catch (error) {
      out.replaceChildren(el("p", { className: "error", text: `Could not save your collection: ${error.message}` }));
    }
  }

  function renderLinks() {
    const links = store.links();
    $("mine-links-box").hidden = !links.length;
    $("mine-links").replaceChildren(...links.map(([name, href]) => el("li", {}, el("a", { href, text: name }))));
  }

  $("mine-export").addEventListener("click", exportDecks);
  $("mine-import").addEventListener("change", importDecks);
  $("collection-save").addEventListener("click", saveCollection);
  $("collection-forget").addEventListener("click", () => {
    store.keepCollection(null);
    renderCollection();
  });
  render();
  renderCollection();
  renderLinks();
})();
