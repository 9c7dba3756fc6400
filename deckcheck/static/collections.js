// "My collections" (/collections): the binders this browser keeps tokens for (decks-store.js),
// each edited through the collections API: + / − per card, "Add these" / "Remove these",
// "Replace all" only after a confirmation that lists what would be lost, products, undo,
// per-set completion, the share link and what the player's saved decks still need.
"use strict";

(function () {
  const root = document.getElementById("my-collections");
  if (!root) return;
  const store = window.deckcheckDecks;
  const { el } = store;
  const $ = (id) => document.getElementById(id);
  const SHOWN = 200; // cards listed at once; the filter finds the others
  let current = null; // {id, token, name}; token null: the signed-in account's binder
  // The signed-in account's binders (on every device: contract "Accounts"), changed by its
  // session; this browser's own binders (tokens in localStorage) come first when both.
  let accountBinders = {};
  let pickedAccount = null; // the account binder chosen here (not kept in localStorage)
  let cards = []; // [{number, name, count}] of the binder shown

  const path = (suffix) => `/api/v1/collections/${encodeURIComponent(current.id)}${suffix || ""}`;
  const plural = (n, word) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;

  function say(text, isError) {
    $("binder-result").replaceChildren(el("p", { className: isError ? "error" : "", text }));
  }

  function unreadList(unread) {
    if (!unread || !unread.length) return [];
    return [
      el("p", { text: `${plural(unread.length, "line")} named no card:` }),
      el("ul", { className: "problems" }, ...unread.slice(0, 100).map((u) => el("li", { text: `Line ${u.line}: ${u.text} (${u.reason || u.why})` }))),
    ];
  }

  function columnsNote(about) {
    if (!about || !about.columns_read || !about.columns_read.length) return [];
    const unread = about.columns_not_read.length ? ` Columns not read: ${about.columns_not_read.join(", ")}.` : "";
    return [el("p", { className: "hint", text: `Read as ${about.style}: columns ${about.columns_read.join(", ")}.${unread}` })];
  }

  function showOutcome(done, answer) {
    $("binder-result").replaceChildren(el("p", { text: done }), ...columnsNote(answer.import), ...unreadList(answer.unread));
  }

  function showError(error) {
    const details = error.details || {};
    say(error.message, true);
    $("binder-result").append(...unreadList(details.unread || []));
  }

  async function call(method, suffix, body) {
    const response = await fetch(path(suffix), {
      method,
      // An account's binder is changed by its session (the cookie), a kept one by its token.
      headers: current.token ? { "Content-Type": "application/json", Authorization: `Bearer ${current.token}` } : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error((data.error && data.error.message) || `The server answered ${response.status}.`);
      error.details = data.error && data.error.details;
      throw error;
    }
    return data;
  }

  // ------------------------------------------------------------------ binders
  async function loadAccountBinders() {
    try {
      const response = await fetch("/api/v1/account/collections");
      if (!response.ok) return; // not signed in: this browser's binders only
      const found = await response.json();
      for (const c of found.data || []) accountBinders[c.id] = { token: null, name: c.name || c.id };
    } catch (error) {
      // Offline or refused: this browser's binders still work.
    }
  }

  function renderChooser() {
    const all = { ...accountBinders, ...store.collections() };
    const ids = Object.keys(all);
    $("binder-choose-box").hidden = !ids.length;
    $("binder-choose").replaceChildren(...ids.map((id) => el("option", { value: id, text: all[id].name || id })));
    const chosen = store.collection();
    const accountId = pickedAccount && all[pickedAccount] ? pickedAccount : Object.keys(accountBinders)[0];
    if (chosen && all[chosen.id]) current = chosen;
    else current = accountId ? { id: accountId, token: all[accountId].token, name: all[accountId].name } : null;
    if (current) $("binder-choose").value = current.id;
    const yours = Object.keys(accountBinders).length;
    $("binders-status").textContent = ids.length
      ? `${plural(ids.length, "binder")}${yours ? ` (${yours} your account's)` : " in this browser"}.`
      : "No binder in this browser yet: make one below.";
    $("binder-new-box").open = !ids.length;
  }

  async function makeBinder() {
    const body = { name: $("binder-new-name").value.trim() || "My collection", game: $("binder-new-game").value, cards: "" };
    try {
      const made = await store.send("POST", "/api/v1/collections", body);
      store.keepCollection({ id: made.collection.id, token: made.edit_token, name: made.collection.name });
      $("binder-new-name").value = "";
      renderChooser();
      await load();
    } catch (error) {
      $("binders-status").textContent = `Could not make the binder: ${error.message}`;
    }
  }

  // ------------------------------------------------------------------ one binder
  async function load() {
    $("binder").hidden = !current;
    if (!current) return;
    try {
      const c = await store.api(path("?names=true"));
      cards = c.cards;
      $("binder-name").textContent = c.name;
      const copies = cards.reduce((sum, card) => sum + card.count, 0);
      $("binder-summary").textContent = `${plural(cards.length, "different card")}, ${copies.toLocaleString("en")} in all.`;
      const share = new URL(c.url, location.href).href;
      $("binder-share").href = share;
      $("binder-export-csv").href = path("/export?style=csv");
      $("binder-export-text").href = path("/export?style=text");
      renderCards();
      await Promise.all([renderHistory(), renderSets(), renderDecks()]);
      root.dataset.ready = "true";
    } catch (error) {
      $("binder-summary").textContent = `Could not read this binder: ${error.message}`;
    }
  }

  function cardRow(card) {
    const minus = el("button", { type: "button", className: "small", text: "−", "aria-label": `One ${card.name || card.number} fewer` });
    const plus = el("button", { type: "button", className: "small", text: "+", "aria-label": `One more ${card.name || card.number}` });
    minus.addEventListener("click", () => setCount(card.number, card.count - 1));
    plus.addEventListener("click", () => setCount(card.number, card.count + 1));
    return el("li", { "data-number": card.number },
      el("span", { className: "count", text: String(card.count) }),
      el("span", { text: card.name || "" }),
      el("span", { className: "hint", text: card.number }),
      minus, plus);
  }

  function renderCards() {
    const wanted = $("binder-filter").value.trim().toLowerCase();
    const found = wanted ? cards.filter((c) => c.number.toLowerCase().includes(wanted) || (c.name || "").toLowerCase().includes(wanted)) : cards;
    $("binder-cards").replaceChildren(...found.slice(0, SHOWN).map(cardRow));
    $("binder-cards-status").textContent = found.length > SHOWN ? `The first ${SHOWN} of ${found.length.toLocaleString("en")}: find a card to see others.` : "";
  }

  async function setCount(number, count) {
    try {
      const answer = await call("PATCH", "", { set: [{ number, count: Math.max(0, count) }] });
      showOutcome(count > 0 ? `${number}: ${count} now.` : `${number} removed.`, answer);
      await load();
    } catch (error) {
      showError(error);
    }
  }

  async function edit(kind) {
    const text = $("binder-text").value;
    if (!text.trim()) return say("Paste or type the cards first.", true);
    try {
      const answer = await call("PATCH", "", { [kind]: text });
      const copies = answer.collection.changed.length;
      showOutcome(`${kind === "add" ? "Added" : "Removed"}: ${plural(answer.read, "line")} read, ${plural(copies, "card")} changed.`, answer);
      $("binder-text").value = "";
      await load();
    } catch (error) {
      showError(error);
    }
  }

  // "Replace all": first what it would take away (a dry run), then only on "Replace all".
  async function askReplace() {
    const text = $("binder-text").value;
    try {
      const preview = await call("PUT", "?dry_run=true", { cards: text });
      const lost = preview.would_remove;
      const copies = lost.reduce((sum, card) => sum + card.count, 0);
      $("binder-confirm-text").textContent = lost.length
        ? `Replacing takes away ${copies.toLocaleString("en")} ${copies === 1 ? "copy" : "copies"} of ${plural(lost.length, "card")} that the text does not list (you can undo it under Changes):`
        : "Replacing takes nothing away: every card you have is in the text.";
      $("binder-confirm-lost").replaceChildren(...lost.slice(0, 50).map((c) => el("li", { text: `${c.count} ${c.number}` })));
      if (lost.length > 50) $("binder-confirm-lost").append(el("li", { text: `and ${lost.length - 50} more` }));
      $("binder-confirm").hidden = false;
      $("binder-confirm-no").focus();
    } catch (error) {
      showError(error);
    }
  }

  async function replaceAll() {
    $("binder-confirm").hidden = true;
    try {
      const answer = await call("PUT", "", { cards: $("binder-text").value });
      showOutcome(`Replaced: ${plural(answer.cards.length, "different card")} now.`, { unread: answer.unread });
      $("binder-text").value = "";
      await load();
    } catch (error) {
      showError(error);
    }
  }

  async function addProduct(body) {
    try {
      const answer = await call("POST", "/products", body);
      showOutcome(`Added ${body.product || body.playset}: ${plural(answer.collection.changed.length, "card")} changed.`, answer);
      await load();
    } catch (error) {
      showError(error);
    }
  }

  async function renderHistory() {
    const history = await store.api(path("/history"));
    $("binder-history").replaceChildren(...history.data.map((h) =>
      el("li", { text: `${h.at.slice(0, 16).replace("T", " ")}: ${h.change}, +${h.added} −${h.removed}` })));
    $("binder-undo").disabled = !history.data.length;
  }

  async function undo() {
    try {
      await call("POST", "/undo");
      say("The last change was undone.");
      await load();
    } catch (error) {
      showError(error);
    }
  }

  async function renderSets() {
    const sets = (await store.api(path("/sets"))).data.filter((s) => s.owned);
    $("binder-sets").replaceChildren(...sets.map((s) => el("tr", {},
      el("th", { scope: "row", text: s.set }),
      el("td", { text: `${s.owned} / ${s.cards}` }),
      el("td", { text: `${s.playset_owned} / ${s.cards}` }))));
  }

  // ------------------------------------------------------------------ what I can build
  async function renderDecks() {
    const kept = store.decks();
    const ids = Object.keys(kept);
    if (!ids.length) {
      $("binder-decks").replaceChildren(el("li", { text: "No saved deck in this browser yet." }));
      return;
    }
    const found = await store.send("POST", "/api/v1/decks/lookup", { ids: ids.slice(0, 500) });
    // Every saved deck: one of another game is answered apart by the server.
    $("binder-decks").replaceChildren(...found.data.map((d) => el("li", {},
      el("label", { className: "check" }, el("input", { type: "checkbox", value: d.id, checked: true }), d.name))));
  }

  async function buildable() {
    const ids = [...$("binder-decks").querySelectorAll("input:checked")].map((box) => box.value);
    try {
      const answer = await store.send("POST", path("/buildable"), { decks: ids });
      $("binder-buildable-result").replaceChildren(...answer.data.map((d) =>
        el("li", { className: d.complete ? "legal" : "illegal", text: d.complete ? `${d.name}: you can build it` : `${d.name}: ${plural(d.cards_missing, "card")} missing` })));
      $("binder-shopping-box").hidden = !answer.shopping_list.length;
      $("binder-shopping").value = answer.shopping_text;
      $("binder-shopping-csv").href = URL.createObjectURL(new Blob([answer.shopping_csv], { type: "text/csv" }));
    } catch (error) {
      $("binder-buildable-result").replaceChildren(el("li", { className: "error", text: error.message }));
    }
  }

  async function copy(text, button) {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch (error) {
      button.textContent = "Select the text and copy it";
    }
  }

  async function readFile() {
    const file = $("binder-file").files[0];
    if (!file) return;
    if (file.size > 1024 * 1024) return say("This file is larger than 1 MB, more than a collection holds.", true);
    $("binder-text").value = await file.text();
  }

  $("binder-new").addEventListener("click", makeBinder);
  $("binder-choose").addEventListener("change", () => {
    const id = $("binder-choose").value;
    if (store.collections()[id]) {
      store.chooseCollection(id);
      pickedAccount = null;
    } else {
      store.keepCollection(null); // none of this browser's chosen: the account's is shown
      pickedAccount = id;
    }
    renderChooser();
    load();
  });
  $("binder-forget").addEventListener("click", () => {
    store.forgetCollection(current.id);
    renderChooser();
    load();
  });
  $("binder-add").addEventListener("click", () => edit("add"));
  $("binder-remove").addEventListener("click", () => edit("remove"));
  $("binder-replace").addEventListener("click", askReplace);
  $("binder-confirm-yes").addEventListener("click", replaceAll);
  $("binder-confirm-no").addEventListener("click", () => { $("binder-confirm").hidden = true; });
  $("binder-add-starter").addEventListener("click", () => addProduct({ product: $("binder-starter").value }));
  $("binder-add-playset").addEventListener("click", () => addProduct({ playset: $("binder-playset").value.trim() }));
  $("binder-undo").addEventListener("click", undo);
  $("binder-filter").addEventListener("input", renderCards);
  $("binder-file").addEventListener("change", readFile);
  $("binder-buildable").addEventListener("click", buildable);
  $("binder-shopping-copy").addEventListener("click", () => copy($("binder-shopping").value, $("binder-shopping-copy")));
  $("binder-share-copy").addEventListener("click", () => copy($("binder-share").href, $("binder-share-copy")));
  loadAccountBinders().then(() => {
    renderChooser();
    load();
  });
})();
