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

  // A form held back by a missing choice says so (e.g. no first pile to draw from).
  document.body.addEventListener("htmx:validation:halted", function (evt) {
    var form = evt.target.closest ? evt.target.closest("form") : null;
    if (form) form.reportValidity();
  });

  // Digital Triggs: the hand's ticked cards offer only what they can do — one value to
  // discard (T-B), or sets for an open row within its open boxes (T-C, T-C-CAP).
  function setsFor(cards, value) {
    var rest = cards.filter(function (c) { return c !== value; }).sort(function (a, b) { return a - b; });
    var sets = cards.length - rest.length;
    while (rest.length) {
      var a = rest.shift();
      var i = rest.indexOf(value - a);
      if (i < 0) return 0;
      rest.splice(i, 1);
      sets += 1;
    }
    return sets;
  }

  function updateHand() {
    var form = document.getElementById("hand-form");
    if (!form) return;
    var cards = Array.prototype.map.call(
      form.querySelectorAll("input[name=card]:checked"), function (box) { return +box.value; });
    var rooms = form.dataset.rooms.split(",").map(Number);
    var discard = document.getElementById("discard-button");
    var cross = document.getElementById("cross-button");
    var select = document.getElementById("cross-value");
    var same = cards.length > 0 && cards.every(function (c) { return c === cards[0]; });
    discard.disabled = !same;
    discard.querySelector(".detail").textContent = same ? cards[0] + " ×" + cards.length : "";
    var chosen = null;
    Array.prototype.forEach.call(select.options, function (option) {
      var value = +option.value;
      var sets = cards.length ? setsFor(cards, value) : 0;
      option.disabled = cards.length > 0 && !(sets && sets <= rooms[value - 1]);
      if (!option.disabled && sets && chosen === null) chosen = option;
    });
    if (chosen && (select.selectedOptions[0] || {}).disabled !== false) chosen.selected = true;
    var selected = select.selectedOptions[0];
    var sets = selected && !selected.disabled ? setsFor(cards, +selected.value) : 0;
    cross.disabled = !sets;
    cross.querySelector(".detail").textContent = sets ? selected.value + " ×" + sets : "";
  }
  document.addEventListener("change", function (evt) {
    if (evt.target.closest && evt.target.closest("#hand-form")) updateHand();
  });
  document.body.addEventListener("htmx:wsAfterMessage", updateHand);
  updateHand();

  // TriumfDrez: a bid is offered only if it beats the current one (D-AUCTION ruling):
  // more tricks, then open, then dropping more of trump and super-trump.
  function updateBid() {
    var form = document.getElementById("bid-form");
    if (!form || form.dataset.minLevel === undefined) return; // the companion tracker refuses on entry
    var level = (+form.tricks.value - 1) * 6 + (form.open.checked ? 3 : 0) +
      (form.trump.value === "" ? 1 : 0) + (form.supertrump.value === "" ? 1 : 0);
    var ok = level >= +form.dataset.minLevel;
    form.querySelector("button[value=bid]").disabled = !ok;
    form.querySelector(".bid-hint").textContent = ok ? "" : form.dataset.tooLow;
  }
  document.addEventListener("change", function (evt) {
    if (evt.target.closest && evt.target.closest("#bid-form")) updateBid();
  });
  document.body.addEventListener("htmx:wsAfterMessage", updateBid);
  updateBid();

  // A card that may not be played says why when tapped (D-FOLLOW, D-NEUTRAL).
  document.addEventListener("click", function (evt) {
    var card = evt.target.closest && evt.target.closest("[data-reason]");
    var flash = document.getElementById("table-flash");
    if (!card || !flash) return;
    var p = document.createElement("p");
    p.className = "error";
    p.textContent = card.dataset.reason;
    flash.replaceChildren(p);
  });

  lastVersion = currentVersion();
})();
