// Events pages: show times in the reader's own time zone (the server writes UTC),
// and give a new event's deadline the browser's UTC offset.
(function () {
  "use strict";
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function offset(date) {
    var minutes = -date.getTimezoneOffset();
    var sign = minutes >= 0 ? "+" : "-";
    minutes = Math.abs(minutes);
    return sign + pad(Math.floor(minutes / 60)) + ":" + pad(minutes % 60);
  }
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
  document.querySelectorAll("time[data-local]").forEach(function (el) {
    var when = new Date(el.getAttribute("datetime"));
    if (isNaN(when.getTime())) { return; }
    el.textContent = when.toLocaleString(undefined, {
      dateStyle: "full", timeStyle: "short"
    }) + (zone ? " (" + zone + ")" : "");
  });
  document.querySelectorAll("[data-zone]").forEach(function (el) {
    el.textContent = (zone || "UTC") + ", UTC" + offset(new Date());
  });
  // A new event's time zone: this device's, unless the organizer writes another.
  var zoneField = document.getElementById("time_zone");
  if (zoneField && !zoneField.value && zone) { zoneField.value = zone; }
  var deadline = document.getElementById("deadline");
  var hidden = document.getElementById("offset");
  if (deadline && hidden) {
    var sync = function () {
      var local = deadline.value ? new Date(deadline.value) : new Date();
      hidden.value = offset(isNaN(local.getTime()) ? new Date() : local);
    };
    deadline.addEventListener("change", sync);
    sync();
  }
  // A player's private link (/e/<id>#edit=<token>): the token goes into the form, never
  // into an address the server sees (and logs), and fetches the player's list to edit.
  var edit = /^#edit=([A-Za-z0-9_-]+)$/.exec(location.hash);
  var editField = document.getElementById("edit_token");
  var eventId = /^\/e\/([A-Za-z0-9_-]+)/.exec(location.pathname);
  if (edit && editField) {
    editField.value = edit[1];
    fillOwnList(eventId && eventId[1], edit[1]);
  }
  // "Send to an event" from the builder (/e/<id>#list=<text>): the list fills the form.
  var sent = /^#list=(.*)$/.exec(location.hash);
  var decklist = document.getElementById("decklist");
  if (sent && decklist && !decklist.value) {
    try { decklist.value = decodeURIComponent(sent[1]); } catch (e) { decklist.value = ""; }
    var from = document.getElementById("from-builder");
    if (from) { from.hidden = false; }
  }

  function fillOwnList(id, token) {
    var note = document.getElementById("editing");
    if (!id || !note) { return; }
    note.hidden = false;
    note.textContent = "Opening your list…";
    fetch("/api/v1/events/" + id + "/submissions/mine", {
      headers: { "Authorization": "Bearer " + token, "Accept": "application/json" }
    }).then(function (response) {
      return response.json().then(function (body) { return [response.ok, body]; });
    }).then(function (answer) {
      if (!answer[0]) {
        note.textContent = (answer[1].error && answer[1].error.message) ||
          "This private link no longer opens a list.";
        note.className = "doubt";
        return;
      }
      var mine = answer[1];
      document.getElementById("player").value = mine.submission.player;
      document.getElementById("player_id").value = mine.submission.player_id;
      document.getElementById("decklist").value = mine.decklist;
      note.textContent = "This is your list as you sent it. Change it and send it: it " +
        "replaces your earlier list (the organizer still sees one row for you).";
    }).catch(function () {
      note.textContent = "Your list could not be opened; check your connection and reload.";
      note.className = "doubt";
    });
  }
  window.deckcheckOffset = offset;

  // "Your events": the organizer's links this browser has seen (created here, or opened
  // from the organizer's link), kept in this browser only and listed on /e/new.
  var MINE = "deckcheck.events.mine";
  var MOST = 50;
  function mine() {
    try { return JSON.parse(window.localStorage.getItem(MINE) || "[]"); } catch (e) { return []; }
  }
  function keep(list) {
    try { window.localStorage.setItem(MINE, JSON.stringify(list.slice(0, MOST))); } catch (e) { return; }
  }
  function remember(item) {
    if (!item.id || !/#./.test(item.admin)) { return; }
    keep([{ id: item.id, name: item.name || item.id, admin: item.admin }].concat(
      mine().filter(function (e) { return e.id !== item.id; })));
  }
  window.deckcheckRemember = remember;
  document.querySelectorAll("a[data-my-event]").forEach(function (link) {
    remember({ id: link.getAttribute("data-my-event"), name: link.getAttribute("data-name"), admin: link.href });
  });
  var shelf = document.getElementById("my-events");
  if (shelf) { showMine(shelf); }
  function showMine(box) {
    var list = box.querySelector("ul");
    list.textContent = "";
    mine().forEach(function (item) {
      var li = document.createElement("li");
      var link = document.createElement("a");
      link.href = item.admin;
      link.textContent = item.name;
      var forget = document.createElement("button");
      forget.type = "button";
      forget.className = "quiet";
      forget.textContent = "Forget";
      forget.addEventListener("click", function () {
        keep(mine().filter(function (e) { return e.id !== item.id; }));
        showMine(box);
      });
      li.appendChild(link);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(forget);
      list.appendChild(li);
    });
    box.hidden = !list.children.length;
  }
})();
