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
})();
