// The table's service worker: it shows "your turn" as a system notification when the
// table's page asks it to (static/js/table.js, with the player's permission), and a tap
// on the notification brings that page back. No push service: nothing is sent from
// outside the page.
self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (all) {
    for (var i = 0; i < all.length; i++) {
      if (all[i].url.indexOf(url) >= 0 && all[i].focus) return all[i].focus();
    }
    return self.clients.openWindow ? self.clients.openWindow(url) : null;
  }));
});
