// An event's page (/e/<id>): the decks this browser keeps (saved decks, "My decks") of
// the event's format, each with "Send this deck": its list, exported as text, fills the
// form (the player still writes a name and sends). Asks the decks API only: one lookup
// for the list, the deck and its export when a deck is chosen.
"use strict";

(function () {
  const box = document.getElementById("my-saved-decks");
  const decklist = document.getElementById("decklist");
  if (!box || !decklist) return;
  const store = window.deckcheckDecks;
  const { el } = store;
  const ids = Object.keys(store.decks());
  if (!ids.length) return;

  async function send(id, name, button) {
    const out = document.getElementById("my-saved-result");
    button.disabled = true;
    try {
      const found = await store.api(`/api/v1/decks/${encodeURIComponent(id)}`);
      const deck = found.deck || found;
      const sections = {};
      for (const [section, data] of Object.entries(deck.sections || {})) {
        sections[section] = data.cards.map((c) => ({ card: c.number, count: c.count }));
      }
      if (deck.partner) sections.partner = deck.partner;
      const made = await store.send("POST", "/api/v1/decks/export", { format: deck.format, deck: sections, style: "text" });
      decklist.value = made.content;
      out.textContent = `"${name}" is in the form below: write your name, check the list, and send it.`;
      (document.getElementById("player").value ? decklist : document.getElementById("player")).focus();
    } catch (error) {
      out.textContent = `Could not fill in the deck: ${error.message}`;
    } finally {
      button.disabled = false;
    }
  }

  async function list() {
    let found;
    try {
      found = await store.send("POST", "/api/v1/decks/lookup", { ids: ids.slice(0, 500) });
    } catch (error) {
      return; // the form works without them
    }
    const fits = found.data.filter((d) => d.format === box.dataset.format);
    if (!fits.length) return;
    const rows = fits.map((d) => {
      const button = el("button", { type: "button", className: "small", text: "Send this deck", "data-testid": "send-saved-deck" });
      button.addEventListener("click", () => send(d.id, d.name, button));
      return el("li", { "data-id": d.id }, el("a", { href: `/d/${encodeURIComponent(d.id)}`, text: d.name }), ` · ${d.legal ? "legal" : "not legal"} `, button);
    });
    document.getElementById("my-saved-list").replaceChildren(...rows);
    box.hidden = false;
  }

  list();
})();
