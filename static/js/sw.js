// The site's service worker: it shows "your turn" as a system notification when the
// table's page asks it to (static/js/table.js, with the player's permission), and what
// the server pushes (Web Push, notify.delivery: {"title", "body", "url", "tag"}, already
// in the player's language) while no page of the site is open; a tap on a notification
// brings its page back, or opens it.
self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {}; }
  if (!data.title) return;
  event.waitUntil(self.registration.showNotification(data.title, {
    body: data.body || "", tag: data.tag || undefined, renotify: !!data.tag,
    icon: "/static/icons/icon.svg", data: { url: data.url || "/" },
  }));
});
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
