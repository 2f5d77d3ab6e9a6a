// A replay (templates/games/replay.html): the arrow keys and a sideways swipe follow the
// previous and next links, which work alone without this script.
(function () {
  "use strict";
  function go(id) {
    var link = document.getElementById(id);
    if (link) window.location.href = link.href;
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return;
    if (event.key === "ArrowLeft") go("replay-back");
    if (event.key === "ArrowRight") go("replay-next");
  });
  var seat = document.getElementById("replay-seat");
  if (seat) seat.addEventListener("change", function () { seat.form.submit(); });
  var startX = null, startY = null;
  document.addEventListener("touchstart", function (event) {
    startX = event.touches[0].clientX;
    startY = event.touches[0].clientY;
  }, { passive: true });
  document.addEventListener("touchend", function (event) {
    if (startX === null) return;
    var dx = event.changedTouches[0].clientX - startX, dy = event.changedTouches[0].clientY - startY;
    startX = null;
    if (Math.abs(dx) > 60 && Math.abs(dx) > 2 * Math.abs(dy)) go(dx < 0 ? "replay-next" : "replay-back");
  }, { passive: true });
})();
