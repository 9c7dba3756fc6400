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
  // The same for QR codes: the image is asked for with the origin to put in front.
  for (const img of document.querySelectorAll("img[data-qr-src]")) {
    const src = new URL(img.getAttribute("data-qr-src"), location.href);
    src.searchParams.set("origin", location.origin);
    img.src = src.pathname + src.search;
  }
  for (const span of document.querySelectorAll("[data-origin]")) span.textContent = location.origin;
  // Copy buttons: the whole address of the link they name.
  for (const button of document.querySelectorAll("button[data-copy]")) {
    button.addEventListener("click", () => {
      const link = document.querySelector(button.getAttribute("data-copy"));
      if (!link) return;
      const text = new URL(link.getAttribute("href"), location.href).href;
      const done = () => { button.textContent = "Copied"; };
      if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, () => {});
    });
  }
})();
