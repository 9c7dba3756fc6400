// A saved deck's page (/d/<id>). The server renders the deck, its verdict and versions
// (the page reads whole without JavaScript); this adds card images, odds, sample hands,
// export, the diff, "Send to an event", the edit link when this browser keeps the deck's
// key, and every time in the reader's own time zone. It reads the deck from the API.
"use strict";

(function () {
  const root = document.getElementById("saved-deck");
  if (!root) return;
  const store = window.deckcheckDecks;
  const { el } = store;
  const $ = (id) => document.getElementById(id);
  const page = JSON.parse(root.dataset.page);
  const id = root.dataset.id;
  const base = `/api/v1/decks/${encodeURIComponent(id)}`;
  let deck = null;
  let seed = null;

  function game() {
    return (page.formats[deck.format] || {}).game || "dcg";
  }

  // The deck as the validate, odds and export API take it: every section's cards.
  function body(extra) {
    const sections = {};
    for (const [section, data] of Object.entries(deck.sections || {})) {
      sections[section] = data.cards.map((c) => ({ card: c.number, count: c.count }));
    }
    if (deck.partner) sections.partner = deck.partner;
    return Object.assign({ format: deck.format, deck: sections }, extra || {});
  }

  function imageUrl(number) {
    const template = page.images[game()];
    if (!template) return null;
    const quoted = (s) => encodeURIComponent(s);
    return template.replace("{number_base}", quoted(number.split("_")[0])).replace("{number}", quoted(number));
  }

  // As templates/_card_image.html draws one; page.js is done by now, so a failed image
  // is handled here the same way (the name in the box).
  function picture(number, name) {
    const url = imageUrl(number);
    if (!url) return null;
    const img = el("img", { className: "card-img", src: url, alt: name, loading: "lazy", decoding: "async", width: 43, height: 60 });
    const box = el("span", { className: "card-pic thumb", "data-name": name }, img);
    img.addEventListener("error", () => {
      box.classList.add("failed");
      img.replaceWith(el("span", { className: "pic-text", text: name }));
    });
    return box;
  }

  function cardLink(number) {
    return el("a", { href: `${root.dataset.cards}/${game()}/${encodeURIComponent(number)}`, text: number });
  }

  // The server's list gets each card's picture (the page shows no images without script).
  function addPictures() {
    for (const item of root.querySelectorAll("li.deck-card")) {
      const name = (item.querySelector(".name") || {}).textContent || item.dataset.number;
      const pic = picture(item.dataset.number, name.trim());
      if (pic) item.prepend(pic);
    }
  }

  function percent(p) {
    return p === null || p === undefined ? "–" : `${(p * 100).toFixed(1)}%`;
  }

  async function renderOdds() {
    try {
      const odds = await store.send("POST", "/api/v1/decks/odds", body({ turn: 3 }));
      const rows = odds.groups.map((g) =>
        el("tr", {},
          el("th", { scope: "row", text: g.label }),
          el("td", { className: "num", text: String(g.copies) }),
          el("td", { className: "num", text: percent(g.opening) }),
          el("td", { className: "num", text: g.by_turn ? percent(g.by_turn.first) : "–" }),
          el("td", { className: "num", text: g.by_turn ? percent(g.by_turn.second) : "–" }))
      );
      $("deck-odds").tBodies[0].replaceChildren(...rows);
      $("deck-odds").hidden = false;
      $("deck-odds-note").textContent = `A ${odds.hand_size}-card opening hand from ${odds.deck_size} cards (${odds.rule}). Mulligans not counted.`;
    } catch (error) {
      $("deck-odds-note").textContent = `No odds for this deck: ${error.message}`;
    }
  }

  async function draw(again) {
    // A new seed each time; the seed is shown, and the same seed draws the same hand.
    seed = Math.floor(Math.random() * 2 ** 31);
    const box = $("deck-hand");
    try {
      const drawn = await store.api(`${base}/sample?seed=${seed}`);
      const group = (title, cards, testid) =>
        el("div", { className: "drawn" },
          el("h3", { text: title }),
          el("ul", { className: "hand", "data-testid": testid }, ...cards.map((c) => el("li", { "data-number": c.number }, picture(c.number, c.name), el("span", { className: "cardno", text: c.number }), el("span", { text: ` ${c.name ?? ""}` })))));
      const parts = [group("Opening hand", drawn.hand, "sample-hand")];
      if (drawn.security && drawn.security.length) parts.push(group("Security cards", drawn.security, "sample-security"));
      parts.push(el("p", { className: "hint", text: `Seed ${drawn.seed}${drawn.rule ? ` · ${drawn.rule}` : ""}` }));
      box.replaceChildren(...parts);
      $("deck-redraw").hidden = false;
      if (again) $("deck-redraw").focus();
    } catch (error) {
      box.replaceChildren(el("p", { className: "error", text: `Could not draw a hand: ${error.message}` }));
    }
  }

  async function renderDiff() {
    if (deck.version < 2) return; // the server says "nothing to compare yet"
    try {
      showDiff(await store.api(`${base}/diff`));
    } catch (error) {
      $("deck-diff").replaceChildren(el("p", { className: "error", text: `Could not read the diff: ${error.message}` }));
    }
  }

  function showDiff(diff) {
    const line = (cls, text, c) => el("li", { className: cls, "data-number": c.number }, el("span", { className: "sign", text }), cardLink(c.number), el("span", { text: ` ${c.name ?? ""}` }));
    const items = [
      ...diff.added.map((c) => line("added", `+${c.count} `, c)),
      ...diff.removed.map((c) => line("removed", `−${c.count} `, c)),
      ...diff.changed.map((c) => line("changed", `${c.from} → ${c.to} `, c)),
    ];
    const from = diff.from !== undefined ? `Version ${diff.from} to ${diff.to}` : "The last two versions";
    $("deck-diff").replaceChildren(
      el("p", { className: "hint", text: items.length ? `${from}: ${items.length} card${items.length === 1 ? "" : "s"} changed.` : `${from}: the same cards.` }),
      el("ul", { className: "diff" }, ...items)
    );
  }

  async function renderMissing() {
    const owned = store.collection();
    if (!owned) return;
    $("deck-missing-box").hidden = false;
    try {
      const found = await store.api(`${base}/missing?collection=${encodeURIComponent(owned.id)}`);
      const rows = found.missing.map((m) => el("li", { "data-number": m.number }, cardLink(m.number), ` ${m.name}: you have ${m.have}, the deck needs ${m.need}`));
      $("deck-missing").replaceChildren(
        el("p", { "data-testid": "missing-total", text: found.cards_missing ? `Your collection lacks ${found.cards_missing} card${found.cards_missing === 1 ? "" : "s"} of this deck.` : "Your collection holds every card of this deck." }),
        el("ul", { className: "missing" }, ...rows)
      );
    } catch (error) {
      $("deck-missing").replaceChildren(el("p", { className: "error", text: `Could not compare with your collection: ${error.message}` }));
    }
  }

  async function exportDeck() {
    try {
      const made = await store.send("POST", "/api/v1/decks/export", body({ style: $("deck-style").value }));
      $("deck-export-out").value = made.content;
    } catch (error) {
      $("deck-export-out").value = error.message;
    }
  }

  // The event page reads a list from its address's `#list=` fragment (never sent to a
  // server): the player lands on the event's form with this deck as text.
  async function sendToEvent(event) {
    event.preventDefault();
    const out = $("deck-send-result");
    const target = store.eventTarget($("deck-event").value);
    if (!target) {
      out.textContent = "That is not an event's link or id. Ask the organizer for the players' link: it looks like https://…/e/abc123.";
      return;
    }
    try {
      if (target.origin === location.origin) await store.api(`/api/v1/events/${encodeURIComponent(target.id)}`);
      const made = await store.send("POST", "/api/v1/decks/export", body({ style: "text" }));
      out.textContent = "Opening the event…";
      location.assign(`${target.origin}/e/${encodeURIComponent(target.id)}#list=${encodeURIComponent(made.content)}`);
    } catch (error) {
      out.textContent = `Could not send the deck: ${error.message}`;
    }
  }

  async function load() {
    store.localTimes(root);
    for (const box of root.querySelectorAll(".needs-js")) box.hidden = false;
    try {
      const found = await store.api(base);
      deck = found.deck || found;
    } catch (error) {
      $("deck-status").textContent = `Could not read the deck for its odds, hands and export: ${error.message}`;
      return;
    }
    const secret = store.token(id);
    if (secret) {
      $("deck-edit").hidden = false;
      $("deck-edit").href = `/d/${encodeURIComponent(id)}/edit`;
    }
    $("deck-share").textContent = new URL($("deck-share").href, location.href).href;
    const code = [...$("deck-style").options].find((o) => o.value === "deck-code");
    code.disabled = !page.deckCodes.includes(game());
    addPictures();
    await Promise.all([renderOdds(), renderDiff(), renderMissing()]);
  }

  $("deck-send-form").addEventListener("submit", sendToEvent);
  $("deck-draw").addEventListener("click", () => draw(false));
  $("deck-redraw").addEventListener("click", () => draw(true));
  $("deck-export-go").addEventListener("click", exportDeck);
  load();
})();
