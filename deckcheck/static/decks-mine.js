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
    // "Can't confirm", never "Not legal", for cards of a product newer than the card list.
    const words = summary.legal ? "✔ Legal" : summary.verdict === "unconfirmed" ? "? Can't confirm" : "✘ Not legal";
    const verdict = el("span", { className: "verdict-cell" }, words);
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

  // The account's decks the server listed above this list: their tokens, kept here
  // too, would list them twice.
  function accountIds() {
    const listed = document.querySelectorAll("[data-testid=account-decks] li[data-id]");
    return new Set(Array.from(listed, (li) => li.dataset.id));
  }

  async function render() {
    const kept = store.decks();
    const shown = accountIds();
    const ids = Object.keys(kept).filter((id) => !shown.has(id));
    const list = $("mine-list");
    if (!ids.length) {
      list.hidden = true;
      $("mine-status").textContent = Object.keys(kept).length
        ? "Every deck this browser keeps is your account's, listed above."
        : "This browser keeps no saved decks yet. Save one in the builder, or import a file of your decks.";
      root.dataset.ready = "true";
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
    const illegal = found.data.filter((d) => !d.legal && d.verdict !== "unconfirmed").length;
    const unconfirmed = found.data.filter((d) => d.verdict === "unconfirmed").length;
    $("mine-status").textContent =
      `${ids.length} deck${ids.length === 1 ? "" : "s"}: ${illegal} not legal today` +
      (unconfirmed ? `, ${unconfirmed} that can't be confirmed yet` : "") +
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
    const problems = result.problems.length
      ? [el("p", { text: "Not imported:" }), el("ul", { className: "problems" }, ...result.problems.map((p) => el("li", { text: p })))]
      : [];
    out.replaceChildren(
      el("p", { text: `Imported ${result.added} deck${result.added === 1 ? "" : "s"}${result.kept ? `; ${result.kept} already here` : ""}.` }),
      ...problems
    );
    $("mine-import").value = "";
    render();
    renderCollection();
  }

  async function renderCollection() {
    const owned = store.collection();
    $("collection-forget").hidden = !owned;
    $("collection-game").disabled = Boolean(owned);
    $("collection-save").textContent = owned ? "Add to my collection" : "Save my collection";
    if (!owned) {
      $("collection-status").textContent = "No collection yet. Choose its game and list the cards you own to see what each deck still needs and to search only cards you own in the builder.";
      return;
    }
    try {
      const c = await store.api(`/api/v1/collections/${encodeURIComponent(owned.id)}`);
      const game = $("collection-game").querySelector(`option[value="${CSS.escape(c.game)}"]`);
      if (game) $("collection-game").value = c.game;
      // A collection is one game's cards; another game's is another binder.
      $("collection-status").replaceChildren(
        `Your collection "${c.name}": ${c.cards.length} different ${game ? game.textContent : c.game} cards. Saving adds the cards listed here to it. To remove cards, replace it, undo a change or keep several binders, open `,
        el("a", { href: "/collections", text: "My collections" }), ".");
      $("collection-name").value = c.name;
    } catch (error) {
      $("collection-status").textContent = `Could not read your collection: ${error.message}`;
    }
  }

  // The answer's lines that named no card, as a list (nothing when there are none).
  function unreadList(unread) {
    if (!unread.length) return [];
    return [
      el("p", { text: `${unread.length} line${unread.length === 1 ? "" : "s"} named no card:` }),
      el("ul", {}, ...unread.map((u) => el("li", { text: `Line ${u.line}: ${u.text} (${u.reason || u.why})` }))),
    ];
  }

  async function saveCollection() {
    const owned = store.collection();
    const text = $("collection-cards").value;
    const out = $("collection-result");
    if (!text.trim()) {
      out.replaceChildren(el("p", { className: "error", text: "List the cards you own first." }));
      return;
    }
    try {
      let saved;
      if (owned) {
        // Adding, never replacing: a later visit's paste adds to what is kept.
        saved = await store.send("PATCH", `/api/v1/collections/${encodeURIComponent(owned.id)}`, { add: text }, owned.token);
      } else {
        const body = { name: $("collection-name").value.trim() || "My collection", cards: text, game: $("collection-game").value };
        saved = await store.send("POST", "/api/v1/collections", body);
        store.keepCollection({ id: saved.collection.id, token: saved.edit_token, name: saved.collection.name });
      }
      const entries = owned ? saved.collection.entries : saved.collection.cards.length;
      out.replaceChildren(el("p", { text: owned ? `Added: ${saved.read} lines read; ${entries} different cards now.` : `Saved: ${entries} different cards.` }), ...unreadList(saved.unread || []));
      $("collection-cards").value = "";
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
    const owned = store.collection();
    if (owned) store.forgetCollection(owned.id);
    renderCollection();
  });
  render();
  renderCollection();
  renderLinks();
})();
