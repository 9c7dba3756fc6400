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
    var look = document.getElementById("only-look").checked;
    var absent = document.getElementById("only-absent").checked;
    document.querySelectorAll("#submissions tbody tr").forEach(function (row) {
      row.hidden = (illegal && row.getAttribute("data-legal") !== "no") ||
        (changed && row.getAttribute("data-changed") !== "yes") ||
        (look && !row.classList.contains("needs-look")) ||
        (absent && row.getAttribute("data-checked-in") === "yes");
    });
  }
  function fillTokens(scope) {
    scope.querySelectorAll("input[name=token]").forEach(function (el) { el.value = token; });
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
        var list = document.getElementById("submissions");
        cursor = list ? list.getAttribute("data-cursor") : cursor;
        settled(table);
        showLockState(table);
        table.setAttribute("data-loaded", String(Date.now()));
      });
    });
  }
  // After rows came in: times in the reader's zone, filters, the deck check's players,
  // the tokens of the rows' forms, the tally.
  function settled(scope) {
    localTimes(scope);
    fillTokens(scope);
    applyFilters();
    fillPlayers();
    countRows();
  }
  function countRows() {
    var tally = document.querySelectorAll("#tally strong");
    if (tally.length < 4) { return; }
    var rows = document.querySelectorAll("#submissions tbody tr");
    var legal = 0, changed = 0;
    rows.forEach(function (row) {
      if (row.getAttribute("data-legal") === "yes") { legal += 1; }
      if (row.getAttribute("data-changed") === "yes") { changed += 1; }
    });
    tally[0].textContent = rows.length;
    tally[1].textContent = legal;
    tally[2].textContent = rows.length - legal;
    tally[3].textContent = changed;
  }

  // The live table: ask for the changes since the cursor every few seconds (a short
  // request each time: no request waits for news), then fetch the changed rows as the
  // server renders them and put them in place. Drops and restores reload the table
  // (they move players between the table and the dropped list).
  var cursor = null;
  var polling = false;
  var EVERY = 4000;
  function poll() {
    if (polling || cursor === null || document.hidden) { return; }
    polling = true;
    fetch(api + "/changes?since=" + encodeURIComponent(cursor), { headers: headers({ "Accept": "application/json" }) })
      .then(function (response) {
        if (!response.ok) { return null; }
        return response.json();
      })
      .then(function (body) {
        if (!body || !body.data.length) { return null; }
        cursor = body.cursor;
        var whole = body.data.some(function (c) { return c.kind === "dropped" || c.kind === "restored"; });
        if (whole) { return load(); }
        var ids = [];
        body.data.forEach(function (c) {
          if (ids.indexOf(c.submission.id) < 0) { ids.push(c.submission.id); }
        });
        return refreshRows(ids).then(function () {
          document.getElementById("live-state").textContent =
            "Updated at " + new Date().toLocaleTimeString() + " (" + ids.length + " changed).";
        });
      })
      .catch(function () { return null; })
      .then(function () { polling = false; });
  }
  // Rows of these submissions as the server renders them; a row that does not come
  // back is no longer current (replaced, merged) and leaves the table.
  function refreshRows(ids) {
    var live = document.getElementById("tally");
    var body = document.querySelector("#submissions tbody");
    if (!live || !body || !ids.length) { return Promise.resolve(); }
    var address = live.getAttribute("data-live") + "?ids=" + ids.map(encodeURIComponent).join(",");
    return fetch(address, { headers: headers() }).then(function (response) {
      if (!response.ok) { return failed(response); }
      return response.text().then(function (html) {
        var holder = document.createElement("template");
        holder.innerHTML = html;
        var came = {};
        holder.content.querySelectorAll("tr[data-id]").forEach(function (row) {
          var id = row.getAttribute("data-id");
          came[id] = true;
          var old = body.querySelector('tr[data-id="' + id + '"]');
          if (old) { body.replaceChild(row, old); } else { body.appendChild(row); }
        });
        ids.forEach(function (id) {
          var gone = came[id] ? null : body.querySelector('tr[data-id="' + id + '"]');
          if (gone) { gone.parentNode.removeChild(gone); }
        });
        settled(body);
      });
    });
  }
  // A mark's form (check in, accept, publish) through the API, the row updated in place.
  function sendMark(form) {
    var row = form.closest("tr[data-id]");
    var id = row.getAttribute("data-id");
    var name = form.getAttribute("data-mark");
    var on = form.getAttribute("data-on") === "yes";
    var path = "/submissions/" + encodeURIComponent(id);
    var done = name === "checked_in"
      ? call(on ? "POST" : "DELETE", path + "/check-in")
      : call("PATCH", path, (function () { var b = {}; b[name] = on; return b; })());
    return done.then(function (ok) { if (ok) { return refreshRows([id]); } });
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

  ["only-illegal", "only-changed", "only-look", "only-absent"].forEach(function (id) {
    document.getElementById(id).addEventListener("change", applyFilters);
  });
  document.getElementById("table").addEventListener("submit", function (event) {
    var form = event.target.closest("form.mark");
    if (!form) { return; }
    event.preventDefault();
    sendMark(form);
  });
  document.getElementById("settings").addEventListener("submit", function (event) {
    event.preventDefault();
    call("PATCH", "", {
      publish: document.getElementById("publish").value,
      cutoff: document.getElementById("cutoff").value
    }).then(function (ok) { if (ok) { return load(); } });
  });
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
  window.deckcheckRemember({ id: root.getAttribute("data-event"), name: root.getAttribute("data-name"), admin: location.href });
  load();
  window.setInterval(poll, EVERY);
  document.addEventListener("visibilitychange", poll);
})();
