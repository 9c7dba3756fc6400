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
  // into an address the server sees (and logs).
  var edit = /^#edit=([A-Za-z0-9_-]+)$/.exec(location.hash);
  var editField = document.getElementById("edit_token");
  if (edit && editField) {
    editField.value = edit[1];
    document.getElementById("editing").hidden = false;
  }
  window.deckcheckOffset = offset;
})();
