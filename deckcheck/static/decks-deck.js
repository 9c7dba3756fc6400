// A saved deck's page (/d/<id>): the deck, its verdict as of today, odds, sample
// hands, export, versions and the diff, each read from the decks API.
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

  function problem(v, level) {
    return el("li", { className: `violation ${level}` }, el("p", { className: "message", text: v.message }), v.rule ? el("p", { className: "rule", text: `Rule: ${v.rule}` }) : null);
  }

  function renderVerdict() {
    const box = $("deck-verdict");
    box.className = `verdict ${deck.legal ? "legal" : "illegal"} ${deck.verdict || ""}`;
    const count = deck.violations.length;
    const format = (page.formats[deck.format] || {}).name || deck.format;
    const parts = [
      el("p", { className: "verdict-line", text: deck.legal ? "✔ Legal" : deck.verdict === "unconfirmed" ? `? Can't confirm: ${count} card${count === 1 ? "" : "s"} this card list does not hold yet. Check them against the official card list; nothing else is wrong.` : `✘ Not legal: ${count} problem${count === 1 ? "" : "s"}` }),
      el("p", { text: `${format}, judged for ${deck.checked_on} with today's card lists. Version ${deck.version}, saved ${deck.updated_at.slice(0, 10)}.` }),
    ];
    if (deck.changed && deck.was) {
      parts.push(el("p", { className: "changed", "data-testid": "deck-changed", text: `Changed: when this deck was last opened it was ${deck.was.legal ? "legal" : "not legal"}. The card lists or rules have changed since (the feed lists every change).` }));
    }
    if (deck.error) parts.push(el("p", { className: "error", text: deck.error }));
    const list = el("ol", { className: "violations" });
    for (const v of deck.violations) list.append(problem(v, "error"));
    for (const v of deck.warnings) list.append(problem(v, "warning"));
    if (list.children.length) parts.push(list);
    box.replaceChildren(...parts);
  }

  function renderCards() {
    const box = $("deck-cards");
    box.replaceChildren();
    if (deck.partner) box.append(el("p", {}, "Partner: ", cardLink(deck.partner)));
    for (const [section, data] of Object.entries(deck.sections || {})) {
      const rows = data.cards.map((c) =>
        el("li", { className: "deck-card", "data-number": c.number, "data-count": String(c.count) },
          picture(c.number, c.name),
          el("span", { className: "count", text: `${c.count}×` }),
          cardLink(c.number),
          // A card the list lacks yet ("confirmed": false) has no name: say so.
          el("span", { className: "name", text: c.confirmed === false ? " (not in the card list yet: can't confirm)" : ` ${c.name}` }))
      );
      box.append(el("h3", { text: `${page.sections[section] || section} · ${data.count} cards` }), el("ul", { className: "deck-cards" }, ...rows));
    }
    if (deck.unresolved && deck.unresolved.length) {
      box.append(
        el("h3", { text: "Lines deckcheck could not read (not counted)" }),
        el("ul", {}, ...deck.unresolved.map((u) => el("li", { text: `${u.line ? `Line ${u.line}: ` : ""}${u.text}` })))
      );
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

  async function renderVersions() {
    const list = $("deck-versions");
    try {
      const versions = (await store.api(`${base}/versions`)).data;
      list.replaceChildren(
        ...versions
          .slice()
          .sort((a, b) => b.version - a.version)
          .map((v) => el("li", { "data-version": String(v.version) }, `Version ${v.version}, saved ${v.saved_at.slice(0, 16).replace("T", " ")}: ${v.legal ? "legal" : "not legal"} then`))
      );
      if (versions.length < 2) {
        $("deck-diff").replaceChildren(el("p", { className: "hint", text: "This is the first version: nothing to compare yet." }));
        return;
      }
      renderDiff(await store.api(`${base}/diff`));
    } catch (error) {
      list.replaceChildren(el("li", { className: "error", text: `Could not read the versions: ${error.message}` }));
    }
  }

  function renderDiff(diff) {
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

  async function load() {
    try {
      const found = await store.api(base);
      deck = found.deck || found;
    } catch (error) {
      $("deck-name").textContent = error.status === 404 ? "No such deck" : "Could not read the deck";
      $("deck-status").textContent = error.status === 404 ? "No saved deck has this address: it may have been deleted." : error.message;
      return;
    }
    document.title = `${deck.name} · deckcheck`;
    $("deck-name").textContent = deck.name;
    $("deck-body").hidden = false;
    const secret = store.token(id);
    if (secret) {
      $("deck-edit").hidden = false;
      $("deck-edit").href = `/d/${encodeURIComponent(id)}/edit#${secret}`;
    }
    $("deck-share").href = `/d/${encodeURIComponent(id)}`;
    $("deck-share").textContent = new URL($("deck-share").href, location.href).href;
    $("deck-feed").href = `/d/${encodeURIComponent(id)}/changes.atom`;
    const code = [...$("deck-style").options].find((o) => o.value === "deck-code");
    code.disabled = !page.deckCodes.includes(game());
    renderVerdict();
    renderCards();
    await Promise.all([renderOdds(), renderVersions(), renderMissing()]);
  }

  $("deck-draw").addEventListener("click", () => draw(false));
  $("deck-redraw").addEventListener("click", () => draw(true));
  $("deck-export-go").addEventListener("click", exportDeck);
  load();
})();
