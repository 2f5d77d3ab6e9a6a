// Triggs at a live table (static/js/table.js): the digital hand's buttons.
(function () {
  "use strict";
  var table = window.liveTable;
  if (!table) return;

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
  table.after(updateHand);
  updateHand();
})();
