// Saved decks in the builder (/build and /d/<id>/edit): "Save" (a new deck, then a new
// version of it), the saved deck's name and edit key when editing, and the player's
// collection: "owned only" search and what the saved deck still needs. A saved deck
// (/d/<id>/edit, and /build?copy=<id> from a deck's "Copy to my builder") is read from
// the decks API and handed to build.js (`root.loadDeck`), never put in the address: a
// deck of 1,000 different cards makes an address no server reads. An address that holds
// a list (the builder's own, on a reload) wins: it is the player's unsaved edit. Save
// sends build.js's deck (`root.currentDeck`). Search sends `root.searchCollection` (the
// collection's id, "owned only") when it is set: the server keeps the owned cards. Runs
// before build.js (script order), so its format listener runs before build.js searches.
"use strict";

(function () {
  const root = document.getElementById("builder");
  if (!root) return;
  const store = window.deckcheckDecks;
  const { el } = store;
  const $ = (id) => document.getElementById(id);
  const games = JSON.parse(root.dataset.games);
  const editing = location.pathname.match(/^\/d\/([A-Za-z0-9_-]{1,64})\/edit$/);
  let deckId = editing ? editing[1] : null;
  // The fragment is read before build.js rewrites the address (it keeps no fragment).
  // A key from a link is kept only once the server says it is this deck's, and never
  // replaces one that works (deck ids are public: anyone can make a link with a wrong key).
  const fragment = location.hash.slice(1);
  let token = deckId ? store.token(deckId) : null;
  let yours = false; // the deck is the signed-in account's: its session may save it
  const params = new URLSearchParams(location.search);
  const copying = !deckId && /^[A-Za-z0-9_-]{1,64}$/.test(params.get("copy") || "") ? params.get("copy") : null;
  let owned = null; // the collection as read: {id, name, game, cards (how many numbers)}

  function status(text, cls) {
    $("b-save-status").replaceChildren(typeof text === "string" ? el("p", { className: cls || "", text }) : text);
  }

  // The saved deck is shared by its page, /d/<id> (whole address), never by its editor.
  function shareSaved() {
    const url = new URL(`/d/${deckId}`, location.href).href;
    root.shareUrl = url;
    $("b-share").href = url;
    $("b-share-line").replaceChildren("Share this deck: ", el("a", { id: "b-share", href: url, "data-testid": "builder-share", text: url }), " (its page: the saved version, readable by anyone with the link).");
  }

  // What Save did, told in the sticky bar too (a phone's thumb is there, not below).
  function barStatus(text, link) {
    $("b-bar-saved").replaceChildren(text, link ? el("a", { href: link, text: "the deck's page" }) : "");
  }

  // ------------------------------------------------------------ the deck from the address

  // Does the address hold a list (the builder's own address, ?format=&main=...)?
  function listInAddress() {
    return Object.values(games).some((g) => g.sections.some((section) => params.get(section.id)));
  }

  async function keyFromLink() {
    if (!fragment || fragment === token) return "";
    try {
      await store.api(`/api/v1/decks/${deckId}/edit-token`, { headers: { Authorization: `Bearer ${fragment}` } });
    } catch (error) {
      return error.status === 403 ? "The edit key in this link is not this deck's: it was not kept. " : "";
    }
    token = fragment;
    store.keep(deckId, token, (store.decks()[deckId] || {}).name);
    return "";
  }

  // A saved deck's list into the builder (an edited or a copied deck).
  function loadSaved(saved) {
    if (!listInAddress() || copying) root.loadDeck(saved.format, saved.sections || {}, saved.partner);
  }

  async function showCopy() {
    try {
      const found = await store.api(`/api/v1/decks/${copying}`);
      const saved = found.deck || found;
      root.loadDeck(saved.format, saved.sections || {}, saved.partner);
      if (!$("b-name").value) $("b-name").value = `${saved.name} (copy)`;
      status(el("p", { "data-testid": "copied" }, `Copied "${saved.name}" into the builder: Save makes a new deck of your own. `, el("a", { href: `/d/${copying}`, text: "The deck's page" })));
    } catch (error) {
      status(`Could not copy the deck: ${error.message}`, "error");
    }
  }

  async function showEditing() {
    const refused = await keyFromLink();
    try {
      const found = await store.api(`/api/v1/decks/${deckId}`);
      const saved = found.deck || found;
      yours = Boolean(saved.yours);
      loadSaved(saved);
      shareSaved();
      if (!$("b-name").value) $("b-name").value = saved.name;
      status(
        el("p", {}, refused ? el("strong", { className: "error", "data-testid": "key-refused", text: refused }) : "",
          `Editing "${saved.name}", version ${saved.version}. `,
          // This read shows the deck's verdict: a change since it was last opened is told
          // here, as the deck's page would (the next read is measured against this one).
          saved.changed && saved.was ? el("strong", { className: "changed", "data-testid": "deck-changed", text: `Changed since it was last opened: it was ${saved.was.legal ? "legal" : "not legal"}, it is ${saved.legal ? "legal" : "not legal"} now. ` }) : "",
          token || yours ? "Save makes a new version. " : "This browser holds no edit key for this deck: Save makes a new deck. ",
          el("a", { href: `/d/${deckId}`, text: "The deck's page" }))
      );
    } catch (error) {
      status(`Could not read the deck: ${error.message}`, "error");
    }
    showMissing();
  }

  // ------------------------------------------------------------ save

  async function save() {
    $("b-save").disabled = true;
    $("b-bar-save").disabled = true;
    try {
      // Inside the try: whatever goes wrong, the player is told and Save comes back.
      const { format, deck } = root.currentDeck();
      const name = $("b-name").value.trim();
      const body = { format, deck };
      if (name) body.name = name;
      if (deckId && (token || yours)) {
        const found = await store.send("PUT", `/api/v1/decks/${deckId}`, body, token);
        const saved = found.deck || found;
        if (token) store.keep(deckId, token, saved.name);
        status(el("p", { "data-testid": "saved" }, `Saved as version ${saved.version}. `, el("a", { href: `/d/${deckId}`, text: "See the deck and what changed" })));
        barStatus(`Saved as version ${saved.version}: `, `/d/${deckId}`);
      } else {
        const made = await store.send("POST", "/api/v1/decks", body);
        deckId = made.deck.id;
        token = made.edit_token;
        store.keep(deckId, token, made.deck.name);
        $("b-name").value = made.deck.name;
        // From now on this page edits the saved deck: the next Save is version 2.
        history.replaceState(null, "", `/d/${deckId}/edit${location.search}`);
        status(el("p", { "data-testid": "saved" }, "Saved. ", el("a", { href: `/d/${deckId}`, text: "The deck's page" }), ". Your edit key is kept in this browser (see ", el("a", { href: "/decks", text: "My decks" }), ")."));
        barStatus("Saved: ", `/d/${deckId}`);
      }
      shareSaved();
      showMissing();
    } catch (error) {
      const words = error.status === 403 ? "This browser's edit key for the deck is wrong: the deck was not saved." : `Could not save: ${error.message}`;
      status(words, "error");
      barStatus(words);
    } finally {
      $("b-save").disabled = false;
      $("b-bar-save").disabled = false;
    }
  }

  // ------------------------------------------------------------ the collection

  async function loadCollection() {
    const kept = store.collection();
    $("b-owned").disabled = !kept;
    if (!kept) {
      $("b-collection-status").replaceChildren("No collection in this browser yet: ", el("a", { href: "/decks", text: "add the cards you own on My decks" }), ".");
      return;
    }
    try {
      const found = await store.api(`/api/v1/collections/${encodeURIComponent(kept.id)}`);
      const c = found.collection || found;
      owned = { id: c.id, name: c.name, game: c.game, cards: c.cards.length };
      syncOwned();
    } catch (error) {
      $("b-owned").disabled = true;
      $("b-collection-status").textContent = `Could not read your collection: ${error.message}`;
    }
  }

  function gameNow() {
    const option = $("b-format").selectedOptions[0];
    return option ? option.dataset.game : "dcg";
  }

  // A collection holds one game's cards: "owned only" is offered in a builder of that game.
  function syncOwned() {
    if (!owned) return;
    const fits = owned.game === gameNow();
    $("b-owned").disabled = !fits;
    root.searchCollection = fits && $("b-owned").checked ? owned.id : null;
    const its = (games[owned.game] || {}).name || owned.game;
    $("b-collection-status").textContent = fits
      ? `Your collection "${owned.name}": ${owned.cards} different cards.`
      : `Your collection "${owned.name}" holds ${its} cards: choose a ${its} format to search only cards you own.`;
  }

  function ownedOnly() {
    syncOwned();
    $("b-q").dispatchEvent(new Event("input"));
  }

  async function showMissing() {
    const kept = store.collection();
    const box = $("b-missing");
    if (!kept) return;
    if (!deckId) {
      box.replaceChildren(el("p", { className: "hint", text: "Save the deck to see what your collection lacks." }));
      return;
    }
    try {
      const found = await store.api(`/api/v1/decks/${deckId}/missing?collection=${encodeURIComponent(kept.id)}`);
      box.replaceChildren(
        el("p", { "data-testid": "missing-total", text: found.cards_missing ? `The saved deck needs ${found.cards_missing} card${found.cards_missing === 1 ? "" : "s"} your collection lacks:` : "Your collection holds every card of the saved deck." }),
        el("ul", { className: "missing" }, ...found.missing.map((m) => el("li", { "data-number": m.number, text: `${m.number} ${m.name}: need ${m.need}, have ${m.have}` })))
      );
    } catch (error) {
      box.replaceChildren(el("p", { className: "error", text: `Could not compare with your collection: ${error.message}` }));
    }
  }

  // ------------------------------------------------------------ start

  // At once (not on DOMContentLoaded): this listener runs before build.js's, which searches.
  $("b-format").addEventListener("change", syncOwned);

  document.addEventListener("DOMContentLoaded", () => {
    $("b-save").addEventListener("click", save);
    $("b-bar-save").addEventListener("click", save);
    $("b-owned").addEventListener("change", ownedOnly);
    if (deckId) showEditing();
    else if (copying) showCopy();
    loadCollection().then(showMissing);
  });
})();
