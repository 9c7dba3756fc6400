// The deck builder (/build). Every verdict, export and odds figure comes from the
// service's API, so the builder judges exactly as the report does. The deck lives
// in the address (?format=&date=&main=BT1-010*4,...), so reload and share keep it.
"use strict";

(function () {
  const root = document.getElementById("builder");
  if (!root) return;
  root.hidden = false;
  const games = JSON.parse(root.dataset.games);
  const $ = (id) => document.getElementById(id);
  // Every section of every game (the registry, rules/games.py): the address and the deck keep them all.
  const SECTIONS = [...new Set(Object.values(games).flatMap((g) => g.sections.map((s) => s.id)))];
  const VIEW = "deckcheck.builder-view";

  const state = { format: root.dataset.format, date: "", deck: Object.fromEntries(SECTIONS.map((s) => [s, new Map()])), partner: "" };
  const info = new Map(); // number -> card object (name, kind, level, colors, cost)
  let results = [];
  let verdictTicket = 0;
  let lastReport = null;
  let lastOdds = null;
  let limited = {}; // number -> "banned" | "restricted" on the chosen date
  // Count inputs done with: confirmed, or replaced by a redraw. Chromium fires `change` on
  // a focused input as it is removed; a settled input confirms nothing more.
  const settled = new WeakSet();

  function game() {
    const option = $("b-format").selectedOptions[0];
    return games[option ? option.dataset.game : "dcg"];
  }
  function gameId() {
    const option = $("b-format").selectedOptions[0];
    return option ? option.dataset.game : "dcg";
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === "text") node.textContent = value;
      else if (key.startsWith("data-") || key.startsWith("aria-") || key === "role") node.setAttribute(key, value);
      else node[key] = value;
    }
    for (const child of children) if (child) node.append(child);
    return node;
  }

  async function api(path, body) {
    const options = body ? { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) } : {};
    const response = await fetch(path, options);
    const data = await response.json();
    if (!response.ok) throw new Error((data.error && data.error.message) || response.statusText);
    return data;
  }

  // ------------------------------------------------------------ the address

  function readAddress() {
    const params = new URLSearchParams(location.search);
    // The server read ?date= (BT13 becomes its day, which the date field can hold).
    state.date = root.dataset.date || "";
    state.partner = params.get("partner") || "";
    for (const section of SECTIONS) {
      state.deck[section] = new Map();
      for (const item of (params.get(section) || "").split(",")) {
        const [number, count] = item.split("*");
        const n = Math.min(parseInt(count || "1", 10) || 0, 1000);
        if (number && n > 0) state.deck[section].set(number, n);
      }
    }
    $("b-date").value = state.date;
    if (params.get("q")) $("b-q").value = params.get("q");
  }

  function address() {
    const params = new URLSearchParams();
    params.set("format", state.format);
    if (state.date) params.set("date", state.date);
    for (const section of SECTIONS) {
      const items = [...state.deck[section]].map(([number, count]) => `${number}*${count}`);
      if (items.length) params.set(section, items.join(","));
    }
    if (state.partner) params.set("partner", state.partner);
    return `${location.pathname}?${params.toString().replace(/%2C/g, ",").replace(/%2A/g, "*")}`;
  }

  // A deck of ~1,000 different cards makes an address longer than servers read (414):
  // then the address keeps only the format, and the deck lives in the page (a saved
  // deck's editor reads it from the API again on a reload).
  const ADDRESS_MAX = 4000;

  function saveAddress() {
    let url = address();
    if (url.length > ADDRESS_MAX) url = `${location.pathname}?format=${encodeURIComponent(state.format)}`;
    history.replaceState(null, "", url);
    // A saved deck is shared by its page (decks.js sets root.shareUrl), not by the editor.
    $("b-share").href = root.shareUrl || url;
  }

  // For static/decks.js: the deck as the API takes it, and a saved deck loaded into the
  // builder (read from the decks API, not from the address).
  root.currentDeck = () => ({ format: state.format, deck: deckBody() });
  root.loadDeck = (format, sections, partner) => {
    if (format !== state.format && [...$("b-format").options].some((o) => o.value === format)) {
      $("b-format").value = format;
      $("b-format").dispatchEvent(new Event("change"));
    }
    for (const section of SECTIONS) state.deck[section] = new Map();
    addSections(sections);
    state.partner = game().partner ? partner || "" : "";
    changed();
    learnMissing();
  };

  // ------------------------------------------------------------ the deck

  function sectionFor(card) {
    for (const auto of game().autoSections) {
      if (auto.kinds.includes(card.kind) || auto.levels.includes((card.level || "").toUpperCase())) {
        if (game().sections.some((s) => s.id === auto.section)) return auto.section;
      }
    }
    return "main";
  }

  function add(card, section, delta) {
    info.set(card.number, Object.assign(info.get(card.number) || {}, card));
    const where = state.deck[section];
    const count = (where.get(card.number) || 0) + delta;
    if (count > 0) where.set(card.number, Math.min(count, 1000));
    else where.delete(card.number);
    changed();
  }

  function deckBody() {
    const deck = {};
    for (const section of game().sections.map((s) => s.id)) {
      deck[section] = [...state.deck[section]].map(([card, count]) => ({ card, count }));
    }
    if (game().partner && state.partner) deck.partner = state.partner;
    return deck;
  }

  function request(extra) {
    const body = Object.assign({ format: state.format, deck: deckBody() }, extra || {});
    if (state.date) body.date = state.date;
    return body;
  }

  function total(section) {
    let sum = 0;
    for (const count of state.deck[section].values()) sum += count;
    return sum;
  }

  // A count changed: the deck, the bar and the results' badges follow at once; the
  // result tiles themselves stay (redrawing them made images flash and names jump).
  function changed() {
    saveAddress();
    renderDeck();
    renderCounts();
    syncResults();
    renderCharts();
    refreshVerdict();
  }

  // The sticky bar's count: each section's total, at once (the verdict follows the API).
  function renderCounts() {
    const parts = game().sections.map(({ id, title }) => `${title} ${total(id)}`);
    $("b-counts").textContent = parts.join(" · ");
  }

  // The deck is read by kind and level (Level 3, Level 4, ..., Tamers, Options), as
  // players lay it out; cards not yet looked up come last until they are.
  function groupOf(number) {
    const card = info.get(number) || {};
    const kinds = game().kinds;
    const levels = game().levels;
    if (!card.kind) return { key: "~", order: [kinds.length + 1, 0], title: "Cards" };
    const kind = kinds.indexOf(card.kind);
    const level = card.level ? levels.findIndex((l) => l.toUpperCase() === String(card.level).toUpperCase()) : -1;
    if (card.level && card.kind !== "tamer" && card.kind !== "option") {
      return { key: `${card.kind}|${card.level}`, order: [kind, level], title: `${kindWords(card.kind)}, level ${card.level}` };
    }
    return { key: card.kind, order: [kind, -1], title: kindWords(card.kind) };
  }

  function kindWords(kind) {
    const words = kind.replace(/-/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  function groupedRows(section) {
    const groups = new Map();
    for (const [number, count] of state.deck[section]) {
      const group = groupOf(number);
      if (!groups.has(group.key)) groups.set(group.key, Object.assign(group, { rows: [] }));
      groups.get(group.key).rows.push([number, count]);
    }
    const sorted = [...groups.values()].sort((a, b) => a.order[0] - b.order[0] || a.order[1] - b.order[1]);
    for (const group of sorted) group.rows.sort((a, b) => a[0].localeCompare(b[0], undefined, { numeric: true }));
    return sorted;
  }

  function renderDeck() {
    const box = $("b-deck");
    // Re-rendering replaces the buttons: keep the keyboard where it was.
    const focused = document.activeElement;
    const focusRow = focused && focused.closest ? focused.closest(".deck-row") : null;
    const refocus = focusRow ? [focusRow.dataset.number, focusRow.dataset.section, focused.dataset.testid] : null;
    // A count being typed and not yet confirmed is drawn again as typed, still unconfirmed
    // (a verdict arriving must neither lose it nor confirm half of it).
    const counting = focusRow && focused.dataset.testid === "builder-count";
    const typed = counting && !settled.has(focused) ? focused.value : null;
    if (counting) settled.add(focused);
    box.replaceChildren();
    const hints = cardHints();
    for (const { id, title } of game().sections) {
      box.append(el("h3", { text: `${title} · ${total(id)} cards` }));
      const groups = groupedRows(id);
      if (!groups.length) box.append(el("p", { className: "hint deck-empty", text: "Empty: search and add cards." }));
      for (const group of groups) {
        const copies = group.rows.reduce((sum, [, count]) => sum + count, 0);
        box.append(el("h4", { className: "deck-group", text: `${group.title} · ${copies}` }));
        const list = el("ul", { className: "deck-rows", "aria-label": `${title}: ${group.title}` });
        for (const [number, count] of group.rows) list.append(deckRow(number, count, id, hints.get(number)));
        box.append(list);
      }
    }
    renderPartner();
    if (refocus) {
      const row = box.querySelector(`.deck-row[data-number="${CSS.escape(refocus[0])}"][data-section="${refocus[1]}"]`);
      const target = row && (row.querySelector(`[data-testid="${refocus[2]}"]`) || row.querySelector("button"));
      const kept = target && counting && target.dataset.testid === "builder-count" && (typed !== null || target.value === focused.value);
      if (kept) {
        // The box being typed in goes back whole: its text, caret and selection stay (a
        // verdict landing between "select all" and a digit once turned 3 into 32).
        target.replaceWith(focused);
        settled.delete(focused);
        focused.focus();
      } else if (target) target.focus();
    }
  }

  function deckRow(number, count, section, hint) {
    const card = info.get(number) || { number, name: "" };
    return el(
      "li",
      { className: `deck-row${hint && hint.bad ? " bad" : ""}`, "data-number": number, "data-count": String(count), "data-section": section },
      el("a", { className: "cardno", href: `${root.dataset.cards}/${gameId()}/${encodeURIComponent(number)}`, text: number }),
      el("span", { className: "name", text: ` ${card.name || ""}` }),
      hint ? el("span", { className: `card-hint${hint.bad ? " bad" : ""}`, text: hint.text }) : null,
      el("span", { className: "row-buttons" },
        button("−", `One fewer ${number}`, "builder-dec", () => add(card, section, -1)),
        countInput(card, section, count),
        button("+", `One more ${number}`, "builder-inc", () => add(card, section, 1)))
    );
  }

  // A count typed into a deck row replaces the count (0 removes the card) when confirmed:
  // Enter, or leaving the box (`blur` too: a redrawn box holding typed text sends no `change`).
  function countInput(card, section, count) {
    const input = el("input", { type: "number", className: "count", min: "0", max: "1000", value: String(count), inputMode: "numeric", "aria-label": `Copies of ${card.number}` });
    input.setAttribute("data-testid", "builder-count");
    const confirmCount = () => {
      const wanted = parseInt(input.value, 10);
      if (settled.has(input) || wanted === (state.deck[section].get(card.number) || 0)) return;
      settled.add(input);
      // The card's facts as known now: a box kept through redraws may predate them.
      setCount(info.get(card.number) || card, section, wanted);
    };
    input.addEventListener("change", confirmCount);
    input.addEventListener("blur", confirmCount);
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        confirmCount();
      }
    });
    return input;
  }

  function setCount(card, section, wanted) {
    const count = Math.max(0, Math.min(Number.isFinite(wanted) ? wanted : 0, 1000));
    add(card, section, count - (state.deck[section].get(card.number) || 0));
  }

  function button(label, name, testid, action) {
    const node = el("button", { type: "button", className: "small", text: label, "aria-label": name });
    if (testid) node.setAttribute("data-testid", testid);
    node.addEventListener("click", action);
    return node;
  }

  function renderPartner() {
    const row = $("b-partner-row");
    row.hidden = !game().partner;
    if (row.hidden) return;
    const select = $("b-partner");
    const options = [el("option", { value: "", text: "No partner" })];
    for (const number of state.deck.main.keys()) {
      const card = info.get(number) || {};
      if (card.kind === "digimon" && (card.level || "").toUpperCase() === "R") {
        options.push(el("option", { value: number, text: `${number} ${card.name || ""}` }));
      }
    }
    if (state.partner && !options.some((o) => o.value === state.partner)) {
      options.push(el("option", { value: state.partner, text: state.partner }));
    }
    select.replaceChildren(...options);
    select.value = state.partner;
  }

  // Per-card hints: the verdict's problems, the copy limit, and the lists of the date.
  function cardHints() {
    const hints = new Map();
    const limits = (lastOdds && lastOdds.limits) || {};
    for (const section of SECTIONS) {
      for (const [number, count] of state.deck[section]) {
        const limit = limits[number];
        if (limited[number] === "banned") hints.set(number, { text: "banned on this date", bad: true });
        else if (limited[number] === "restricted") hints.set(number, { text: "restricted: 1 copy", bad: count > 1 });
        else if (limit && count > limit) hints.set(number, { text: `over the limit of ${limit}`, bad: true });
        else if (limit && count === limit) hints.set(number, { text: "at the limit", bad: false });
      }
    }
    for (const problem of (lastReport && lastReport.violations) || []) {
      for (const number of problem.cards || []) {
        if (!hints.has(number) || !hints.get(number).bad) hints.set(number, { text: problem.code.replace(/-/g, " "), bad: true });
      }
    }
    return hints;
  }

  // ------------------------------------------------------------ verdict, odds, lists

  let timer = null;
  function refreshVerdict() {
    clearTimeout(timer);
    timer = setTimeout(judge, 120);
  }

  async function judge() {
    const ticket = ++verdictTicket;
    try {
      // A game registered without draw rules (rules/games.py: no hand) has no odds to ask for.
      const asked = game().hand ? api("/api/v1/decks/odds", request({ turn: Number($("b-turn").value) })) : null;
      const [report, odds] = await Promise.all([api("/api/v1/decks/validate", request()), asked]);
      if (ticket !== verdictTicket) return;
      lastReport = report;
      lastOdds = odds;
      learn(report);
      learnOnce();
      renderVerdict(report);
      renderOdds(odds);
      renderDeck();
    } catch (error) {
      if (ticket === verdictTicket) $("b-verdict").replaceChildren(el("p", { className: "error", text: `Could not check the deck: ${error.message}` }));
      learnOnce();
    }
  }

  // The deck's cards are looked up after the first verdict, which names the cards the
  // card list lacks yet ("confirmed": false): those have no card to look up.
  let learnedOnce = false;
  function learnOnce() {
    if (learnedOnce) return;
    learnedOnce = true;
    learnMissing();
  }

  function learn(report) {
    for (const body of Object.values(report.deck.sections)) {
      for (const card of body.cards) info.set(card.number, Object.assign({}, info.get(card.number) || {}, card));
    }
  }

  function renderVerdict(report) {
    const box = $("b-verdict");
    box.className = `verdict ${report.legal ? "legal" : "illegal"} ${report.verdict || ""}`;
    const problems = el("ol", { className: "violations", "aria-label": "Problems and warnings" });
    for (const v of report.violations) problems.append(problem(v, "error"));
    for (const v of report.warnings) problems.append(problem(v, "warning"));
    // The list scrolls inside the sticky bar: a keyboard must be able to scroll it too.
    if (problems.children.length) problems.tabIndex = 0;
    const count = report.violations.length;
    // replaceChildren writes a null as the text "null": only the lines there are.
    const lines = [el("p", { className: "verdict-line", text: verdictLine(report, count) })];
    if (report.verdict === "unconfirmed") lines.push(el("p", { className: "cant-confirm", text: CANT_CONFIRM }));
    box.replaceChildren(...lines, el("p", { className: "hint", text: `${report.format.name} on ${dayWords(report.format.date)}` }), problems);
  }

  // Contract, "Verdicts deckcheck cannot confirm": cards the list lacks yet are not a
  // broken rule, so the verdict says "Can't confirm" and what to do.
  const CANT_CONFIRM = "Nothing else is wrong, but this card list does not hold those cards yet: check them against the official card list, or ask the service's administrator to add the product.";

  function verdictLine(report, count) {
    if (report.legal) return "✔ Legal";
    if (report.verdict === "unconfirmed") return `? Can't confirm: ${count} card${count === 1 ? "" : "s"} of a product newer than this card list`;
    return `✘ Not legal: ${count} problem${count === 1 ? "" : "s"}`;
  }

  // `2026-12-05` -> `5 December 2026`, as the server's pages write a day.
  function dayWords(iso) {
    const [year, month, day] = String(iso).split("-").map(Number);
    const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
    return year && months[month - 1] && day ? `${day} ${months[month - 1]} ${year}` : String(iso);
  }

  function problem(v, level) {
    return el("li", { className: `violation ${level}` }, el("p", { className: "message", text: v.message }), el("p", { className: "rule", text: `Rule: ${v.rule}` }));
  }

  function percent(p) {
    return p === null || p === undefined ? "–" : `${(p * 100).toFixed(1)}%`;
  }

  function renderOdds(odds) {
    const body = $("b-odds").tBodies[0];
    body.replaceChildren();
    if (!odds) {
      $("b-odds-note").textContent = "deckcheck does not know how this game's opening hand is drawn, so it shows no odds.";
      return;
    }
    for (const g of odds.groups) {
      body.append(
        el("tr", { className: `odds-${g.kind}` },
          el("th", { scope: "row", text: g.label }),
          el("td", { className: "num", text: String(g.copies) }),
          el("td", { className: "num", text: percent(g.opening) }),
          el("td", { className: "num", text: g.by_turn ? percent(g.by_turn.first) : "–" }),
          el("td", { className: "num", text: g.by_turn ? percent(g.by_turn.second) : "–" }))
      );
    }
    $("b-odds-first").textContent = `By turn ${odds.turn}, going first`;
    $("b-odds-second").textContent = `By turn ${odds.turn}, going second`;
    const seen = odds.seen || {};
    $("b-odds-note").textContent =
      `A ${odds.hand_size}-card opening hand from ${odds.deck_size} cards (${odds.rule}). ` +
      (seen.first === null ? "The hand refills each turn, so only the opening hand has odds." : `By turn ${odds.turn}: ${seen.first} cards seen going first, ${seen.second} going second. Mulligans not counted.`);
  }

  function sampleHand() {
    const cards = [];
    for (const [number, count] of state.deck.main) for (let i = 0; i < count; i++) cards.push(number);
    for (let i = cards.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [cards[i], cards[j]] = [cards[j], cards[i]];
    }
    const hand = cards.slice(0, game().hand || 5);
    $("b-hand").replaceChildren(...hand.map((n) => el("li", {}, el("span", { className: "cardno", text: n }), el("span", { text: ` ${(info.get(n) || {}).name || ""}` }))));
  }

  async function loadLimited() {
    limited = {};
    const date = state.date ? `&date=${state.date}` : "";
    for (const status of ["banned", "restricted"]) {
      try {
        const found = await api(`/api/v1/cards?game=${gameId()}&q=is:${status}&per_page=200${date}`);
        for (const card of found.data) limited[card.number] = status;
      } catch (error) {
        // The lists only sharpen the hints; the verdict still names every problem.
      }
    }
    renderDeck();
  }

  // The deck's cards the builder has no facts for yet (cost, colours: the tiles and the
  // charts), learned in one card search per LEARN_AT_ONCE numbers (`number=`, repeated),
  // not one request per card: a 50-card deck opened on a phone was 50 requests.
  const LEARN_AT_ONCE = 200;
  const LONGEST_NUMBER = 40; // the API's limit on one number: a longer one is no card
  const ADDRESS_ROOM = 4000; // characters of numbers in one search, well inside a request line
  const ONE_BY_ONE = 100; // numbers asked for singly, at most, per look
  // Numbers asked for and not answered yet: a deck opened from the server is learned as
  // it loads and again after its first verdict, and the second look must not ask twice.
  const learning = new Set();

  async function learnMissing() {
    const missing = SECTIONS.flatMap((s) => [...state.deck[s].keys()]).filter((n) => (!info.has(n) || info.get(n).cost === undefined) && info.get(n)?.confirmed !== false && !learning.has(n) && n.length <= LONGEST_NUMBER);
    for (const number of missing) learning.add(number);
    try {
      const unanswered = (await Promise.all(batchesOf(missing).map(learnCards))).flat();
      // A number in another spelling (an alternate art's `ST1-07_P1`, `st1-03`) finds its
      // card under the printed number, and a search the server refused answers none:
      // those are asked for one by one, under the deck's spelling.
      await Promise.all(unanswered.slice(0, ONE_BY_ONE).map(learnOne));
    } finally {
      for (const number of missing) learning.delete(number);
    }
    renderDeck();
    renderCharts();
  }

  function batchesOf(numbers) {
    const batches = [];
    let batch = [];
    let room = 0;
    for (const number of numbers) {
      const size = "&number=".length + encodeURIComponent(number).length;
      if (batch.length === LEARN_AT_ONCE || room + size > ADDRESS_ROOM) {
        batches.push(batch);
        batch = [];
        room = 0;
      }
      batch.push(number);
      room += size;
    }
    if (batch.length) batches.push(batch);
    return batches;
  }

  // Learns the cards of `numbers`; gives back those not answered under their spelling.
  async function learnCards(numbers) {
    const params = new URLSearchParams({ game: gameId(), per_page: String(LEARN_AT_ONCE) });
    for (const number of numbers) params.append("number", number);
    let found;
    try {
      found = (await api(`/api/v1/cards?${params}`)).data;
    } catch (error) {
      return numbers;
    }
    for (const card of found) remember(card.number, card);
    const printed = new Set(found.map((card) => card.number));
    return numbers.filter((n) => !printed.has(n));
  }

  async function learnOne(number) {
    try {
      remember(number, await api(`/api/v1/cards/${gameId()}/${encodeURIComponent(number)}`));
    } catch (error) {
      // An unknown number stays in the deck; the verdict names it.
    }
  }

  function remember(number, card) {
    info.set(number, Object.assign({}, info.get(number) || {}, card));
  }

  // ------------------------------------------------------------ charts

  function renderCharts() {
    const box = $("b-charts");
    const counts = { level: new Map(), colour: new Map(), kind: new Map(), cost: new Map() };
    for (const section of ["main", "destiny"]) {
      for (const [number, count] of state.deck[section]) {
        const card = info.get(number) || {};
        const bump = (map, key) => map.set(key, (map.get(key) || 0) + count);
        if (card.kind) bump(counts.kind, card.kind);
        if (card.kind === "digimon" && card.level) bump(counts.level, card.level);
        const colours = (card.colors && card.colors.length ? card.colors : card.types) || [];
        for (const c of colours.slice(0, 2)) bump(counts.colour, c);
        if (card.cost !== null && card.cost !== undefined) bump(counts.cost, String(card.cost));
      }
    }
    const levels = game().levels;
    const order = {
      level: (a, b) => levels.indexOf(a) - levels.indexOf(b),
      cost: (a, b) => Number(a) - Number(b),
    };
    const charts = [["Digimon by level", "level"], ["Cards by colour / type", "colour"], ["Cards by kind", "kind"], ["Cards by play cost", "cost"]];
    box.replaceChildren(...charts.filter(([, key]) => counts[key].size).map(([title, key]) => chart(title, key, [...counts[key]].sort((a, b) => (order[key] ? order[key](a[0], b[0]) : b[1] - a[1])))));
  }

  function chart(title, key, bars) {
    const ns = "http://www.w3.org/2000/svg";
    const width = Math.max(bars.length * 56, 120);
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${width} 140`);
    svg.setAttribute("width", String(width));
    svg.setAttribute("height", "140");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", `${title}: ${bars.map(([label, n]) => `${label} ${n}`).join(", ")}`);
    const top = Math.max(...bars.map(([, n]) => n), 1);
    bars.forEach(([label, n], i) => {
      const h = Math.round((n / top) * 80);
      const rect = document.createElementNS(ns, "rect");
      for (const [k, v] of Object.entries({ x: i * 56 + 10, y: 100 - h, width: 36, height: h })) rect.setAttribute(k, String(v));
      rect.setAttribute("class", `bar ${key === "level" ? "level-" : "colour-"}${String(label).toLowerCase()}`);
      const value = document.createElementNS(ns, "text");
      value.setAttribute("x", String(i * 56 + 28));
      value.setAttribute("y", String(96 - h));
      value.setAttribute("text-anchor", "middle");
      value.textContent = String(n);
      const name = document.createElementNS(ns, "text");
      name.setAttribute("x", String(i * 56 + 28));
      name.setAttribute("y", "118");
      name.setAttribute("text-anchor", "middle");
      name.setAttribute("class", "label");
      name.textContent = String(label).length > 8 ? `${String(label).slice(0, 7)}…` : String(label);
      svg.append(rect, value, name);
    });
    return el("figure", {}, el("figcaption", { text: title }), svg);
  }

  // ------------------------------------------------------------ search

  let searchTimer = null;
  let searchTicket = 0;
  async function search() {
    const q = [$("b-q").value.trim(), $("b-set").value.trim() ? `set:${$("b-set").value.trim().split(/\s+/)[0]}` : ""].filter(Boolean).join(" ");
    const filters = ["color", "kind", "level"].map((f) => [f, $(`b-${f}`).value]).filter(([, v]) => v);
    const ticket = ++searchTicket;
    // root.searchCollection (decks.js, "owned only"): the collection's id; the server
    // keeps only the cards it holds, so the count and the results are the owned ones.
    const owned = root.searchCollection;
    if (!q && !filters.length && !owned) {
      results = [];
      $("b-search-status").textContent = "";
      renderResults();
      return;
    }
    try {
      const params = new URLSearchParams([["game", gameId()], ["order", "relevance"], ["per_page", "30"], ["q", q], ...filters]);
      if (owned) params.append("collection", owned);
      const found = await api(`/api/v1/cards?${params}`);
      if (ticket !== searchTicket) return;
      results = found.data;
      highlight = 0;
      for (const card of results) info.set(card.number, Object.assign({}, info.get(card.number) || {}, card));
      let status = `${found.total} card${found.total === 1 ? "" : "s"}${found.total > results.length ? `, the first ${results.length} shown` : ""}`;
      if (found.did_you_mean) status += `. Did you mean ${found.did_you_mean}?`;
      if (found.note) status += `. ${found.note}`;
      $("b-search-status").textContent = status;
    } catch (error) {
      if (ticket !== searchTicket) return;
      results = [];
      $("b-search-status").textContent = error.message;
    }
    renderResults();
  }

  let highlight = 0;
  let view = "grid";

  function inDeck(number) {
    return SECTIONS.reduce((sum, s) => sum + (state.deck[s].get(number) || 0), 0);
  }

  // A result is one button that adds a copy (its image, or its text when images are
  // off or the image fails), with its own small buttons beside it. The tiles are drawn
  // once per search; a count change only updates the badges beside them (syncResults).
  function renderResults() {
    const list = $("b-results");
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest("#b-results .result");
    const refocus = focused ? focused.dataset.number : null;
    list.replaceChildren(...results.map(resultItem));
    list.className = `results ${view}`;
    syncResults();
    $("b-q").setAttribute("aria-activedescendant", results.length ? `b-result-${highlight}` : "");
    if (refocus) {
      const again = list.querySelector(`.result[data-number="${CSS.escape(refocus)}"] .tile`);
      if (again) again.focus();
    }
  }

  function resultItem(card, index) {
    const section = sectionFor(card);
    const dbe = game().partner;
    const status = (card.limits || []).filter((l) => l.format === state.format).map((l) => l.status);
    const face = el("span", { className: "face" }, el("span", { className: "sr-only", text: "Add " }), cardText(card, cardDetails(card)));
    if (view === "grid" && card.image_url) face.prepend(cardImage(card));
    const adder = el("button", { type: "button", className: "tile" }, face);
    adder.setAttribute("data-testid", "builder-add");
    adder.addEventListener("click", () => {
      highlight = index;
      add(card, section, 1);
    });
    adder.addEventListener("focus", () => markHighlight(index));
    const where = () => firstSectionOf(card.number, section);
    const sets = playset();
    return el(
      "li",
      { className: `result${index === highlight ? " highlighted" : ""}`, "data-testid": "builder-result", "data-number": card.number, id: `b-result-${index}` },
      adder,
      el("span", { className: "extras" },
        el("span", { className: "have" }),
        status.length ? el("span", { className: "status " + status[0], text: status.join(", ") }) : null,
        sets > 1 ? button(`×${sets}`, `${sets} copies of ${card.number}`, "builder-playset", () => setCount(card, where(), sets)) : null,
        button("−", `Remove a copy of ${card.number}`, "builder-remove", () => add(card, where(), -1)),
        button("−all", `Remove every copy of ${card.number}`, "builder-remove-all", () => removeAll(card)),
        dbe && section === "main" ? button("To Destiny Zone", `Add ${card.number} to the Destiny Zone`, "builder-add-destiny", () => add(card, "destiny", 1)) : null,
        dbe && card.kind === "digimon" && (card.level || "").toUpperCase() === "R"
          ? button("Partner", `Make ${card.number} the partner`, "builder-partner", () => {
              if (!state.deck.main.has(card.number)) add(card, "main", 1);
              state.partner = card.number;
              changed();
            })
          : null)
    );
  }

  // What a tile says under the name: kind, level, colour, and for DCG the play cost and
  // DP, so thirteen printings of Agumon can be told apart.
  function cardDetails(card) {
    const parts = [card.kind];
    if (card.level) parts.push(`Lv ${card.level}`);
    if (card.colors && card.colors.length) parts.push(card.colors.join("/"));
    if (card.cost !== null && card.cost !== undefined) parts.push(`cost ${card.cost}`);
    if (card.dp !== null && card.dp !== undefined) parts.push(`${card.dp} DP`);
    return parts.join(" · ");
  }

  // The badges of each result: how many the deck holds, and the buttons that only make
  // sense then. The tile (and its image) is left alone.
  function syncResults() {
    for (const item of $("b-results").children) {
      const have = inDeck(item.dataset.number);
      item.querySelector(".have").textContent = have ? `${have} in deck` : "";
      for (const testid of ["builder-remove", "builder-remove-all"]) {
        const control = item.querySelector(`[data-testid=${testid}]`);
        if (!have && control === document.activeElement) item.querySelector(".tile").focus();
        control.hidden = !have;
      }
    }
  }

  function removeAll(card) {
    for (const section of SECTIONS) state.deck[section].delete(card.number);
    if (state.partner === card.number) state.partner = "";
    changed();
  }

  function playset() {
    const option = $("b-format").selectedOptions[0];
    return Number(option && option.dataset.playset) || 4;
  }

  function cardText(card, details) {
    return el("span", { className: "text-form" },
      el("span", { className: "cardno", text: card.number }),
      el("span", { className: "name", text: card.name }),
      el("span", { className: "details", text: details }));
  }

  // Lazily loaded, in a box of fixed size; a failed image leaves the text form alone.
  function cardImage(card) {
    const img = el("img", { className: "card-img", src: card.image_url, alt: card.name, loading: "lazy", decoding: "async", width: 143, height: 200 });
    img.setAttribute("data-testid", "builder-image");
    img.addEventListener("error", () => {
      img.closest(".face").classList.add("no-image");
      img.remove();
    });
    return img;
  }

  function markHighlight(index) {
    highlight = index;
    for (const item of $("b-results").children) item.classList.toggle("highlighted", item.id === `b-result-${index}`);
    $("b-q").setAttribute("aria-activedescendant", `b-result-${index}`);
  }

  function firstSectionOf(number, otherwise) {
    return SECTIONS.find((s) => state.deck[s].has(number)) || otherwise || "main";
  }

  // Arrows move through the results (left and right too, for the grid); a digit on a
  // result sets how many copies of it the deck holds.
  function moveFocus(event) {
    const tiles = [...document.querySelectorAll("#b-results .tile")];
    const at = tiles.indexOf(document.activeElement);
    if (at >= 0 && /^[0-9]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      const card = results[at];
      const section = firstSectionOf(card.number, sectionFor(card));
      setCount(card, section, Number(event.key));
      return;
    }
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    if (!step || !tiles.length) return;
    if (at < 0 && step < 0) return;
    if (at < 0 && event.key !== "ArrowDown") return;
    event.preventDefault();
    let columns = 1;
    if (view === "grid" && (event.key === "ArrowDown" || event.key === "ArrowUp") && at >= 0) {
      const top = tiles[0].getBoundingClientRect().top;
      columns = Math.max(1, tiles.filter((t) => Math.abs(t.getBoundingClientRect().top - top) < 2).length);
    }
    const next = at < 0 ? 0 : at + step * columns;
    if (next < 0) $("b-q").focus();
    else tiles[Math.min(next, tiles.length - 1)].focus();
  }

  // ------------------------------------------------------------ import / export

  async function importList() {
    const text = $("b-import").value;
    const out = $("b-import-result");
    if (!text.trim()) return;
    try {
      const body = { format: state.format, decklist: text };
      if (state.date) body.date = state.date;
      const report = await api("/api/v1/decks/validate", body);
      for (const section of SECTIONS) state.deck[section] = new Map();
      addSections(report.deck.sections);
      state.partner = report.deck.partner || "";
      const unread = report.violations.filter((v) => UNREAD.includes(v.code));
      out.replaceChildren(
        el("p", { text: unread.length ? `Imported; ${unread.length} line${unread.length === 1 ? "" : "s"} not read:` : "Imported: every line was read." }),
        el("ul", { className: "unread" }, ...unread.map((v) => el("li", { text: v.line ? `Line ${v.line}: ${v.message}` : v.message })))
      );
      changed();
      learnMissing();
    } catch (error) {
      out.replaceChildren(el("p", { className: "error", text: error.message }));
    }
  }

  // ------------------------------------------------------------ quick add

  const UNREAD = ["unparsed-line", "unknown-card", "ambiguous-card"];

  // A line typed in the quick-add box is read by the service's one decklist reader
  // (POST /decks/validate, as the paste box and the import are), so `4 bt1-010`,
  // `bt1-010 x2` and every other line shape mean here what they mean there; the cards
  // it names are added to the deck, in the sections the reader puts them in.
  async function quickAdd() {
    const text = $("b-quick").value.trim();
    const out = $("b-quick-result");
    if (!text) return;
    try {
      const body = { format: state.format, decklist: text };
      if (state.date) body.date = state.date;
      const report = await api("/api/v1/decks/validate", body);
      const added = addSections(report.deck.sections);
      const unread = report.violations.filter((v) => UNREAD.includes(v.code));
      const lines = unread.map((v) => el("li", { text: v.message }));
      const ambiguous = unread.find((v) => v.code === "ambiguous-card" && (v.candidates || []).length);
      if (ambiguous) {
        // The reader names the candidates: show them as results, one tap away.
        $("b-q").value = `"${ambiguous.candidates[0].slice(ambiguous.cards[0].length).trim()}"`;
        lines.push(el("li", { text: "They are in the results below: tap the one you mean." }));
        search();
      }
      out.replaceChildren(el("p", { text: added.length ? `Added ${added.join(", ")}.` : "Nothing added." }));
      if (lines.length) out.append(el("ul", { className: "unread" }, ...lines));
      if (added.length) {
        $("b-quick").value = "";
        changed();
        learnMissing();
      }
    } catch (error) {
      out.replaceChildren(el("p", { className: "error", text: error.message }));
    }
  }

  // The cards of a validate answer's sections, added to the deck; their words.
  function addSections(sections) {
    const added = [];
    for (const [section, data] of Object.entries(sections)) {
      if (!state.deck[section]) continue;
      for (const card of data.cards) {
        info.set(card.number, Object.assign({}, info.get(card.number) || {}, card));
        const count = Math.min((state.deck[section].get(card.number) || 0) + card.count, 1000);
        state.deck[section].set(card.number, count);
        added.push(`${card.count} ${card.number} ${card.name}`);
      }
    }
    return added;
  }

  // ------------------------------------------------------------ send to an event

  // The event page reads a list from its address's `#list=` fragment (a fragment never
  // reaches a server): the player lands on the event's form with this deck as text.
  async function sendToEvent() {
    const out = $("b-event-result");
    // The link or id as the organizer hands it out (decks-store.js, loaded before this).
    const target = window.deckcheckDecks.eventTarget($("b-event").value);
    if (!target) {
      out.textContent = "That is not an event's link or id. Ask the organizer for the players' link: it looks like https://…/e/abc123.";
      return;
    }
    if (!SECTIONS.some((section) => state.deck[section].size)) {
      out.textContent = "The deck is empty: add cards before sending it.";
      return;
    }
    try {
      // An event of this server is looked up first, so a mistyped id is said here.
      if (target.origin === location.origin) await api(`/api/v1/events/${encodeURIComponent(target.id)}`);
      const text = await exportDeck("text");
      out.textContent = "Opening the event…";
      location.assign(`${target.origin}/e/${encodeURIComponent(target.id)}#list=${encodeURIComponent(text)}`);
    } catch (error) {
      out.textContent = `Could not send the deck: ${error.message}`;
    }
  }

  async function exportDeck(style) {
    const result = await api("/api/v1/decks/export", request({ style }));
    return result.content;
  }

  // ------------------------------------------------------------ wiring

  function wire() {
    $("b-format").addEventListener("change", () => {
      state.format = $("b-format").value;
      if (!game().partner) state.partner = "";
      changed();
      loadLimited();
      search();
    });
    $("b-date").addEventListener("change", () => {
      state.date = $("b-date").value;
      changed();
      loadLimited();
    });
    $("b-q").addEventListener("input", () => {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(search, 150);
    });
    $("b-q").addEventListener("keydown", async (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        clearTimeout(searchTimer);
        await search();
        const chosen = results[Math.min(highlight, results.length - 1)];
        if (chosen) add(chosen, sectionFor(chosen), 1);
      }
    });
    $("b-results").addEventListener("keydown", moveFocus);
    $("b-q").addEventListener("keydown", (event) => event.key === "ArrowDown" && moveFocus(event));
    $("b-partner").addEventListener("change", () => {
      state.partner = $("b-partner").value;
      changed();
    });
    $("b-turn").addEventListener("change", refreshVerdict);
    for (const id of ["b-color", "b-kind", "b-level"]) $(id).addEventListener("change", search);
    $("b-set").addEventListener("input", () => {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(search, 200);
    });
    for (const [id, which] of [["b-view-grid", "grid"], ["b-view-list", "list"]]) {
      $(id).addEventListener("click", () => {
        view = which;
        try {
          localStorage.setItem(VIEW, which);
        } catch (error) {
          // A private window keeps no settings: the choice lasts this visit.
        }
        syncView();
        renderResults();
      });
    }
    $("b-sample").addEventListener("click", sampleHand);
    $("b-import-go").addEventListener("click", importList);
    $("b-quick-form").addEventListener("submit", (event) => {
      event.preventDefault();
      quickAdd();
    });
    $("b-event-form").addEventListener("submit", (event) => {
      event.preventDefault();
      sendToEvent();
    });
    $("b-export-go").addEventListener("click", async () => {
      try {
        $("b-export-out").value = await exportDeck($("b-style").value);
      } catch (error) {
        $("b-export-out").value = error.message;
      }
    });
    $("b-report-form").addEventListener("submit", async (event) => {
      if ($("b-report-decklist").value) return;
      event.preventDefault();
      $("b-report-format").value = state.format;
      $("b-report-date").value = state.date;
      $("b-report-decklist").value = await exportDeck("text");
      $("b-report-form").submit();
      $("b-report-decklist").value = "";
    });
    document.addEventListener("keydown", (event) => {
      const row = event.target.closest && event.target.closest(".deck-row");
      if (!row || !["+", "-"].includes(event.key) || event.target.tagName === "INPUT") return;
      const card = info.get(row.dataset.number) || { number: row.dataset.number };
      event.preventDefault();
      add(card, row.dataset.section, event.key === "+" ? 1 : -1);
    });
  }

  function syncView() {
    $("b-view-grid").setAttribute("aria-pressed", String(view === "grid"));
    $("b-view-list").setAttribute("aria-pressed", String(view === "list"));
  }

  // The filters list the chosen game's own kinds, levels and colours.
  function syncFilters() {
    const g = game();
    const fill = (id, values, word) => {
      const select = $(id);
      const keep = select.value;
      select.replaceChildren(el("option", { value: "", text: "Any" }), ...values.map((v) => el("option", { value: v, text: word(v) })));
      select.value = values.includes(keep) ? keep : "";
    };
    fill("b-color", g.colors, (v) => v);
    fill("b-kind", g.kinds, (v) => v.replace(/-/g, " "));
    fill("b-level", g.levels, (v) => v);
    $("b-color").closest(".field").hidden = !g.colors.length;
  }

  // A game with no card list loaded here says so where its format is chosen.
  function syncEmptyNote() {
    const box = $("empty-pools");
    if (!box) return;
    for (const note of box.children) note.hidden = note.dataset.game !== gameId();
    box.hidden = ![...box.children].some((note) => !note.hidden);
  }

  function syncStyleOptions() {
    const code = [...$("b-style").options].find((o) => o.value === "deck-code");
    code.disabled = !game().deckCode;
    if (code.disabled && $("b-style").value === "deck-code") $("b-style").value = "text";
  }

  try {
    view = localStorage.getItem(VIEW) === "list" ? "list" : "grid";
  } catch (error) {
    view = "grid";
  }
  readAddress();
  $("b-format").value = state.format;
  syncView();
  syncFilters();
  $("b-format").addEventListener("change", syncFilters);
  wire();
  syncStyleOptions();
  $("b-format").addEventListener("change", syncStyleOptions);
  syncEmptyNote();
  $("b-format").addEventListener("change", syncEmptyNote);
  changed();
  loadLimited();
  if ($("b-q").value) search();
})();
