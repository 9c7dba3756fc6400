// Layout checks the page walk (test_every_page.py) runs in each page.
"use strict";

// Table cells whose text overflows the cell, and words drawn on two lines anywhere in
// the page (a column or a label squeezed below its longest word: "Move the deadline"
// one letter a line). A fingerprint is one 71-character word: it may break anywhere.
window.deckcheckLayout = function () {
  const found = [];
  for (const cell of [...document.querySelectorAll("td, th, caption")].slice(0, 400)) {
    if (!cell.offsetParent) continue;
    if (cell.scrollWidth > cell.clientWidth + 1) {
      const where = (cell.closest("table") || {}).id || "a table";
      found.push(`${where}: "${cell.textContent.trim().slice(0, 40)}" overflows its cell`);
    }
  }
  // A table wider than the box it stands in is cut off or spills past it.
  for (const table of document.querySelectorAll("main table")) {
    const box = table.parentElement;
    if (!table.offsetParent || !box) continue;
    if (table.getBoundingClientRect().right > box.getBoundingClientRect().right + 1) {
      found.push(`table#${table.id}.${table.className} is wider than its container`);
    }
  }
  // A table that scrolls inside the page hides its columns off-screen on a phone.
  for (const box of document.querySelectorAll("main *")) {
    const style = getComputedStyle(box);
    if (!["auto", "scroll"].includes(style.overflowX) || box.scrollWidth <= box.clientWidth + 1) continue;
    if (box.matches("textarea, select, input, pre, ul.results")) continue;
    found.push(`${box.tagName.toLowerCase()}#${box.id}.${box.className} scrolls sideways`);
  }
  const skip = ".fingerprint, script, style, svg, textarea, option";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let words = 0;
  for (let node = walker.nextNode(); node && words < 6000; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !parent.offsetParent || parent.closest(skip)) continue;
    const text = node.textContent;
    // A break after a hyphen or a slash is a fair one; an address or a token longer
    // than a phone's line (over 30 characters) has to break somewhere.
    const re = /[^\s\-–—/]{2,}/g;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const start = text.slice(0, m.index).search(/\S*$/);
      const end = m.index + m[0].length + text.slice(m.index + m[0].length).search(/\s|$/);
      if (end - start > 30) continue;
      words += 1;
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = [...range.getClientRects()].filter((r) => r.width > 0);
      const tops = new Set(lines.map((r) => Math.round(r.top)));
      if (tops.size > 1) {
        found.push(`"${m[0].slice(0, 30)}" is broken across lines (in ${parent.tagName.toLowerCase()})`);
      }
    }
  }
  return found;
};

// What sticks out past the window's right edge, innermost first (to say what to fix).
window.deckcheckWide = function () {
  const out = (e) => e.getBoundingClientRect().right > window.innerWidth + 0.5;
  return [...document.querySelectorAll("body *")]
    .filter((e) => out(e) && ![...e.children].some(out))
    .slice(0, 5)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className} (right edge ${Math.round(e.getBoundingClientRect().right)}): ${e.textContent.trim().slice(0, 30)}`);
};
