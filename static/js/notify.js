// The notifications page: this browser's Web Push subscription, made with the site's
// VAPID key (data-key) once the player allows notifications, posted to the server; or
// ended. The state is said in words (#push-status).
(function () {
  "use strict";
  var box = document.getElementById("push");
  if (!box) return;
  var status = document.getElementById("push-status");
  var on = document.getElementById("push-on");
  var off = document.getElementById("push-off");
  var csrf = document.querySelector("[name=csrfmiddlewaretoken]");

  function say(name) { status.textContent = box.dataset[name + "Text"] || ""; }
  function shown(subscribed) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    say(subscribed ? "on" : "off");
  }
  function key(text) {
    var padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = window.atob(padded);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf ? csrf.value : "" },
      body: JSON.stringify(body),
    }).then(function (response) {
      if (!response.ok) throw new Error("refused");
      return response;
    });
  }
  if (!("serviceWorker" in navigator) || !window.PushManager || !window.Notification) {
    say("unsupported");
    return;
  }
  var ready = navigator.serviceWorker.register("/sw.js").then(function () {
    return navigator.serviceWorker.ready;
  });
  ready.then(function (registration) {
    return registration.pushManager.getSubscription();
  }).then(function (subscription) {
    shown(!!subscription && Notification.permission === "granted");
  }).catch(function () { say("unsupported"); });

  on.addEventListener("click", function () {
    Notification.requestPermission().then(function (answer) {
      if (answer !== "granted") { say("denied"); return null; }
      return ready.then(function (registration) {
        return registration.pushManager.subscribe({
          userVisibleOnly: true, applicationServerKey: key(box.dataset.key),
        });
      }).then(function (subscription) {
        return post(box.dataset.subscribe, subscription.toJSON());
      }).then(function () { shown(true); });
    }).catch(function () { say("failed"); });
  });
  off.addEventListener("click", function () {
    ready.then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      if (!subscription) return null;
      return post(box.dataset.unsubscribe, { endpoint: subscription.endpoint }).then(function () {
        return subscription.unsubscribe();
      });
    }).then(function () { shown(false); }).catch(function () { say("failed"); });
  });
})();
