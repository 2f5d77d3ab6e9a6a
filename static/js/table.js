// Live table: connection status, resync after a gap or a sleep, no double taps.
// htmx's WebSocket extension connects, reconnects with backoff and swaps the
// partials; this only watches over it.
(function () {
  "use strict";
  var socket = null;
  var open = false;
  var lastVersion = null;
  var status = document.getElementById("connection");

  function show(online) {
    if (!status) return;
    status.textContent = online ? status.dataset.online : status.dataset.offline;
    status.classList.toggle("offline", !online);
  }

  function currentVersion() {
    var live = document.getElementById("table-live");
    return live ? parseInt(live.dataset.version, 10) : null;
  }

  function resync() {
    if (socket) socket.send(JSON.stringify({ kind: "resync" }));
  }

  document.body.addEventListener("htmx:wsOpen", function (evt) {
    socket = evt.detail.socketWrapper;
    open = true;
    show(true);
    // Whatever happened while we were away, start from the table as it is now.
    resync();
  });
  function lost() { open = false; show(false); }
  document.body.addEventListener("htmx:wsClose", lost);
  document.body.addEventListener("htmx:wsError", lost);

  document.body.addEventListener("htmx:wsAfterMessage", function () {
    var version = currentVersion();
    if (lastVersion !== null && version !== null && version > lastVersion + 1) {
      resync(); // a version went missing on the way: ask for a fresh render
    }
    lastVersion = version;
  });

  // A submitted form is disabled until the next render replaces it.
  document.body.addEventListener("htmx:wsBeforeSend", function (evt) {
    var form = evt.target.closest ? evt.target.closest("form") : null;
    if (form) form.classList.add("sending");
  });

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible") return;
    if (open) resync();
    else if (socket) socket.reconnect(); // a phone that slept: connect again now
    else window.location.reload();
  });

  lastVersion = currentVersion();
})();
