// The organizer's page. The admin token is in the address's fragment (#...), which
// the browser never sends; this script passes it as an Authorization header (table,
// actions) or as a hidden form field (CSV, sheets, deck check).
(function () {
  "use strict";
  var root = document.getElementById("admin");
  if (!root) { return; }
  var token = decodeURIComponent(location.hash.slice(1));
  var api = root.getAttribute("data-api");
  var errorBox = document.getElementById("admin-error");
  if (!token) { document.getElementById("no-token").hidden = false; return; }
  document.querySelectorAll("input[name=token]").forEach(function (el) { el.value = token; });

  function headers(extra) {
    var h = { "Authorization": "Bearer " + token };
    for (var k in extra || {}) { h[k] = extra[k]; }
    return h;
  }
  function showError(message) { errorBox.textContent = message; errorBox.hidden = !message; }
  function failed(response) {
    return response.json().then(function (body) {
      showError((body.error && body.error.message) || ("Error " + response.status));
    }, function () { showError("Error " + response.status); });
  }
  function localTimes(scope) {
    scope.querySelectorAll("time[data-local]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when.getTime())) {
        el.textContent = when.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
      }
    });
  }
  function applyFilters() {
    var illegal = document.getElementById("only-illegal").checked;
    var changed = document.getElementById("only-changed").checked;
    document.querySelectorAll("#submissions tbody tr").forEach(function (row) {
      row.hidden = (illegal && row.getAttribute("data-legal") !== "no") ||
        (changed && row.getAttribute("data-changed") !== "yes");
    });
  }
  // One of Lock / Unlock: the one that changes something now (the table says which).
  function showLockState(scope) {
    var state = scope.querySelector("#event-state");
    if (!state) { return; }
    var locked = state.getAttribute("data-locked") === "yes";
    document.getElementById("lock").hidden = locked;
    document.getElementById("unlock").hidden = !locked;
  }
  // A player's list, fetched when the organizer asks for it (the table itself stays
  // small); shown as text, never as HTML.
  function toggleList(button) {
    var box = document.getElementById("list-" + button.getAttribute("data-list"));
    if (!box) { return; }
    if (button.getAttribute("aria-expanded") === "true") {
      box.hidden = true;
      button.setAttribute("aria-expanded", "false");
      button.textContent = "Show list";
      return;
    }
    var id = encodeURIComponent(button.getAttribute("data-list"));
    fetch(api + "/submissions/" + id, { headers: headers({ "Accept": "application/json" }) })
      .then(function (response) {
        if (!response.ok) { return failed(response); }
        return response.json().then(function (body) {
          box.textContent = body.decklist;
          box.hidden = false;
          button.setAttribute("aria-expanded", "true");
          button.textContent = "Hide list";
        });
      });
  }
  function fillPlayers() {
    var select = document.getElementById("check-player");
    select.textContent = "";
    document.querySelectorAll("#submissions tbody tr").forEach(function (row) {
      var option = document.createElement("option");
      option.value = row.getAttribute("data-id");
      option.textContent = row.getAttribute("data-player");
      select.appendChild(option);
    });
  }
  function load() {
    return fetch(root.getAttribute("data-table"), { headers: headers() }).then(function (response) {
      if (!response.ok) { return failed(response); }
      return response.text().then(function (html) {
        var table = document.getElementById("table");
        table.innerHTML = html;
        localTimes(table);
        showLockState(table);
        applyFilters();
        fillPlayers();
        table.setAttribute("data-loaded", String(Date.now()));
      });
    });
  }
  function call(method, path, body) {
    showError("");
    var options = { method: method, headers: headers(body ? { "Content-Type": "application/json" } : {}) };
    if (body) { options.body = JSON.stringify(body); }
    return fetch(api + path, options).then(function (response) {
      if (!response.ok) { return failed(response).then(function () { return false; }); }
      return true;
    });
  }

  document.getElementById("only-illegal").addEventListener("change", applyFilters);
  document.getElementById("only-changed").addEventListener("change", applyFilters);
  document.getElementById("lock").addEventListener("click", function () {
    call("POST", "/lock").then(load);
  });
  document.getElementById("unlock").addEventListener("click", function () {
    call("POST", "/unlock").then(load);
  });
  document.getElementById("deadline-form").addEventListener("submit", function (event) {
    event.preventDefault();
    var value = document.getElementById("new-deadline").value;
    var local = new Date(value);
    var text = value.length === 16 ? value + ":00" : value;
    call("PATCH", "", { deadline: text + window.deckcheckOffset(local) }).then(load);
  });
  document.getElementById("table").addEventListener("click", function (event) {
    var restore = event.target.closest("button[data-restore]");
    if (restore) {
      call("POST", "/submissions/" + encodeURIComponent(restore.getAttribute("data-restore")) + "/restore").then(load);
      return;
    }
    var list = event.target.closest("button[data-list]");
    if (list) { toggleList(list); return; }
    var merge = event.target.closest("button[data-merge]");
    if (merge) {
      if (!window.confirm("Merge " + merge.getAttribute("data-other") + " into " +
          merge.getAttribute("data-player") + "? " + merge.getAttribute("data-player") +
          "'s list stays; the other row's lists are kept in its history.")) { return; }
      call("POST", "/submissions/" + encodeURIComponent(merge.getAttribute("data-merge")) +
        "/merge", { from: merge.getAttribute("data-from") }).then(load);
      return;
    }
    var button = event.target.closest("button[data-drop]");
    if (!button) { return; }
    if (!window.confirm("Drop " + button.getAttribute("data-player") + " from the event? " +
        "Their list no longer counts (it is kept: you can restore them).")) { return; }
    call("DELETE", "/submissions/" + encodeURIComponent(button.getAttribute("data-drop"))).then(load);
  });
  document.getElementById("delete-event").addEventListener("click", function () {
    if (!window.confirm("Delete this event and every list in it? This cannot be undone.")) { return; }
    call("DELETE", "").then(function (ok) {
      if (ok) { location.replace(location.pathname.replace(/\/admin$/, "")); }
    });
  });
  load();
})();
