// TriumfDrez at a live table (static/js/table.js): the bid form and the cards that may not
// be played.
(function () {
  "use strict";
  var table = window.liveTable;
  if (!table) return;

  // A bid is offered only if it beats the current one. The server sends, for each shape
  // of bid (open or not, with or without trump, with or without super-trump), the fewest
  // tricks that beat it (the engine's order of bids: D-AUCTION ruling).
  function updateBid() {
    var form = document.getElementById("bid-form");
    var source = document.getElementById("lowest-beating");
    if (!form || !source) return; // the companion tracker refuses on entry
    var lowest = source.dataset.lowestBeating.split(",").map(Number);
    var shape = (form.open.checked ? 4 : 0) + (form.trump.value === "" ? 2 : 0) +
      (form.supertrump.value === "" ? 1 : 0);
    if (!table.touched(form.id) && +form.tricks.value < lowest[shape] &&
        Array.prototype.some.call(form.tricks.options, function (o) { return +o.value === lowest[shape]; })) {
      form.tricks.value = String(lowest[shape]); // offer the lowest bid that beats the current one
    }
    var ok = +form.tricks.value >= lowest[shape];
    form.querySelector("button[value=bid]").disabled = !ok;
    form.querySelector(".bid-hint").textContent = ok ? "" : form.dataset.tooLow;
  }
  document.addEventListener("change", function (evt) {
    if (evt.target.closest && evt.target.closest("#bid-form")) updateBid();
  });
  table.after(updateBid);
  updateBid();

  // A card that may not be played says why when tapped (D-FOLLOW, D-NEUTRAL): its reason
  // is a code, the hand's form holds each code's sentence once.
  document.addEventListener("click", function (evt) {
    var card = evt.target.closest && evt.target.closest("[data-reason]");
    var form = card && card.closest("[data-reasons]");
    if (form) table.flash(JSON.parse(form.dataset.reasons)[card.dataset.reason] || "");
  });
})();
