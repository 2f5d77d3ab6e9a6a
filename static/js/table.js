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

  // The server answers only if the table has moved on from the version shown here.
  function resync() {
    if (socket) socket.send(JSON.stringify({ kind: "resync", version: currentVersion() }));
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

  // Digital Triggs: the ticked cards offer only what they can do. The server lists, for
  // each choice of cards from the hand, whether they can be discarded (T-B) and the rows
  // they can cross with their sets (T-C, T-C-CAP): no rule is worked out here.
  function updateHand() {
    var form = document.getElementById("hand-form");
    if (!form) return;
    var cards = Array.prototype.map.call(
      form.querySelectorAll("input[name=card]:checked"), function (box) { return +box.value; });
    cards.sort(function (a, b) { return a - b; });
    var can = (cards.length && JSON.parse(form.dataset.ways)[cards.join(",")]) || {};
    var discard = document.getElementById("discard-button");
    var cross = document.getElementById("cross-button");
    var select = document.getElementById("cross-value");
    discard.disabled = !can.discard;
    discard.querySelector(".detail").textContent = can.discard ? cards[0] + " ×" + cards.length : "";
    var sets = {};
    (can.cross || []).forEach(function (way) { sets[way[0]] = way[1]; });
    Array.prototype.forEach.call(select.options, function (option) {
      option.disabled = cards.length > 0 && !(option.value in sets);
    });
    if (can.cross && !(select.value in sets)) select.value = String(can.cross[0][0]);
    var chosen = sets[select.value];
    cross.disabled = !chosen;
    form.elements.sets.value = chosen || "";
    cross.querySelector(".detail").textContent =
      chosen ? select.value + " ×" + chosen.split("|").length : "";
  }
  document.addEventListener("change", function (evt) {
    if (evt.target.closest && evt.target.closest("#hand-form")) updateHand();
  });
  document.body.addEventListener("htmx:wsAfterMessage", updateHand);
  updateHand();

  // A bid is offered only if it beats the current one. The server sends, for each shape
  // of bid (open or not, with or without trump, with or without super-trump), the fewest
  // tricks that beat it (the engine's order of bids: D-AUCTION ruling).
  function updateBid() {
    var form = document.getElementById("bid-form");
    if (!form || !form.dataset.lowestBeating) return; // the companion tracker refuses on entry
    var lowest = form.dataset.lowestBeating.split(",").map(Number);
    var shape = (form.open.checked ? 4 : 0) + (form.trump.value === "" ? 2 : 0) +
      (form.supertrump.value === "" ? 1 : 0);
    var ok = +form.tricks.value >= lowest[shape];
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
