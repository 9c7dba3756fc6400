// Every page: card images that fail, and links shown whole.
//
// Card images come from the card list's own host (never through deckcheck): when one
// fails, its box keeps its size and shows the card's name instead.
"use strict";

(function () {
  function fallback(img) {
    const box = img.closest(".card-pic");
    if (!box) return;
    const text = document.createElement("span");
    text.className = "pic-text";
    text.textContent = box.dataset.name || img.alt;
    box.classList.add("failed");
    img.replaceWith(text);
  }
  for (const img of document.querySelectorAll(".card-pic img")) {
    if (img.complete && img.naturalWidth === 0 && img.getAttribute("src")) fallback(img);
    else img.addEventListener("error", () => fallback(img));
  }

  // A link to give someone is shown whole. Without DECKCHECK_BASE_URL the server only
  // knows the path (it never trusts the request's Host): the browser knows the address
  // it is at, so it writes the rest.
  for (const link of document.querySelectorAll("a[data-whole]")) {
    link.textContent = new URL(link.getAttribute("href"), location.href).href;
  }
})();
