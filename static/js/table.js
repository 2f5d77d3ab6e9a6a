// Live table: the connection (a form sent as JSON, each element the server sends put in
// place of the one with its id), its status, resync after a gap or a sleep, no double
// taps, each form sent with the version the phone shows, and messages that stay.
(function () {
  "use strict";
  var raw = null; // the WebSocket
  var open = false;
  var holder = document.getElementById("table-socket");
  var before = []; // what runs before the server's elements are put in place, and after
  var after = [];
  var lastVersion = null;
  var status = document.getElementById("connection");

  // The connection's state in words and a shape (CSS), never colour alone: live (●),
  // reconnecting (◌, the page is trying again) or offline (✕: the phone has no network,
  // or the server refused the connection and the page will not try again).
  var STATES = ["live", "reconnecting", "offline"];
  function show(state) {
    if (!status) return;
    STATES.forEach(function (name) { status.toggleAttribute("data-" + name, name === state); });
    status.textContent = status.dataset[state + "Text"] || "";
    status.classList.toggle("offline", state !== "live");
  }

  function currentVersion() {
    var meta = document.getElementById("table-meta");
    return meta ? parseInt(meta.dataset.version, 10) : null;
  }

  // A region the server did not resend keeps its forms as they were drawn: each form is
  // sent with the version the phone shows now, and an action id of its own for that
  // version (sent twice, it is applied once).
  function actionId(form, version) {
    if (form.dataset.idVersion !== String(version)) {
      var bytes = new Uint8Array(16);
      window.crypto.getRandomValues(bytes);
      form.dataset.actionId = Array.prototype.map.call(bytes, function (b) {
        return (b < 16 ? "0" : "") + b.toString(16);
      }).join("");
      form.dataset.idVersion = String(version);
    }
    return form.dataset.actionId;
  }
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    var version = currentVersion();
    if (form.hasAttribute("ws-send") || version === null) return;
    if (form.elements.version) form.elements.version.value = String(version);
    if (form.elements.action_id) form.elements.action_id.value = actionId(form, version);
  }, true);

  // A form someone is filling in survives a redraw of its region by someone else's move:
  // what was chosen is put back into the new form (an option that no longer exists is
  // left as the new form has it). Sending the form forgets it.
  var touched = {};
  document.addEventListener("change", function (evt) {
    var form = evt.target.form;
    if (form && form.id) touched[form.id] = true;
  });
  var kept = {};
  before.push(function () {
    kept = {};
    Object.keys(touched).forEach(function (id) {
      var form = document.getElementById(id);
      if (!form) { delete touched[id]; return; }
      kept[id] = { form: form, values: Array.prototype.map.call(form.elements, function (el) {
        return [el.name, el.type, el.value, el.checked];
      }) };
    });
  });
  after.push(function () {
    Object.keys(kept).forEach(function (id) {
      var form = document.getElementById(id);
      if (!form) return; // gone (a part of it redrawn, or all of it: choices put back)
      var seen = {}; // boxes of the same name and value (cards of one value) in turn
      kept[id].values.forEach(function (saved) {
        var name = saved[0], type = saved[1], value = saved[2], checked = saved[3];
        if (!name || type === "hidden" || type === "submit") return;
        var same = Array.prototype.filter.call(form.elements, function (el) {
          return el.name === name && (el.type !== "checkbox" && el.type !== "radio" || el.value === value);
        });
        if (type === "checkbox" || type === "radio") {
          var key = name + "=" + value;
          var el = same[seen[key] = (seen[key] || 0)];
          seen[key] += 1;
          if (el) el.checked = checked;
        } else if (same[0] && same[0].tagName === "SELECT") {
          if (Array.prototype.some.call(same[0].options, function (o) { return o.value === value; })) {
            same[0].value = value;
          }
        } else if (same[0]) {
          same[0].value = value;
        }
      });
      form.dispatchEvent(new Event("change", { bubbles: true }));
    });
    kept = {};
  });

  // Moments that matter (your turn, a trick won, the hand's score, the winner, rows that
  // leave the game) are marked data-moment by the server: when one appears, it is shown
  // in a banner and brought into view; your turn also vibrates, where the phone can and
  // the player has not switched it off (the menu; kept on this phone).
  var present = {};
  // In the background, the tab's title and icon say it is your turn until the page is
  // seen, and a system notification too if the player allowed it (the menu).
  var title0 = document.title;
  var icon = document.querySelector("link[rel=icon]");
  var icon0 = icon ? icon.href : null;
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) return;
    document.title = title0;
    if (icon) icon.href = icon0;
  });
  function turnElsewhere(text) {
    document.title = "● " + title0;
    if (icon) icon.href = icon0.replace(/icon\.svg$/, "icon-turn.svg");
    if (!notifyOn() || !navigator.serviceWorker) return;
    navigator.serviceWorker.ready.then(function (registration) {
      registration.showNotification(title0, { body: text, tag: "turn", renotify: true,
        icon: icon0, data: { url: window.location.pathname } });
    });
  }
  function notifyOn() {
    try {
      return window.Notification && Notification.permission === "granted" &&
        window.localStorage.getItem("notify") === "on";
    } catch (e) { return false; }
  }
  var notifyToggle = document.getElementById("notify-toggle");
  if (notifyToggle && window.Notification && navigator.serviceWorker) {
    notifyToggle.closest("label").hidden = false;
    notifyToggle.checked = notifyOn();
    if (notifyToggle.checked) navigator.serviceWorker.register("/sw.js");
    notifyToggle.addEventListener("change", function () {
      if (!notifyToggle.checked) { window.localStorage.setItem("notify", "off"); return; }
      Notification.requestPermission().then(function (answer) {
        notifyToggle.checked = answer === "granted";
        try { window.localStorage.setItem("notify", notifyToggle.checked ? "on" : "off"); } catch (e) { /* private mode */ }
        if (notifyToggle.checked) navigator.serviceWorker.register("/sw.js");
      });
    });
  }
  function moments(announce) {
    var now = {};
    Array.prototype.forEach.call(document.querySelectorAll("[data-moment]"), function (el) {
      var key = el.dataset.moment;
      now[key] = true;
      if (!announce || present[key]) return;
      var text = headline(el);
      showBanner(text.length > 90 ? text.slice(0, 89) + "…" : text);
      if (key !== "turn" && el.scrollIntoView) el.scrollIntoView({ block: "nearest" });
      if (key === "turn" && vibrate() && navigator.vibrate) navigator.vibrate(150);
      if (key === "turn" && document.hidden) turnElsewhere(text);
    });
    present = now;
  }
  // A moment's words in the banner: its element marked data-headline, else its h3, else
  // the whole moment; the words of rule links inside are left out (they read as a link).
  function headline(el) {
    var title = el.matches("[data-headline]") ? el :
      el.querySelector("[data-headline]") || el.querySelector("h3") || el;
    var copy = title.cloneNode(true);
    Array.prototype.forEach.call(
      copy.querySelectorAll('.rule-link, a[href*="/rules/"]'),
      function (link) { link.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }
  var bannerTimer = null;
  function showBanner(text) {
    var banner = document.getElementById("moment");
    if (!banner || !text) return;
    banner.textContent = text;
    banner.hidden = false;
    window.clearTimeout(bannerTimer);
    bannerTimer = window.setTimeout(hideBanner, 2500);
  }
  function hideBanner() {
    window.clearTimeout(bannerTimer);
    var banner = document.getElementById("moment");
    if (banner) banner.hidden = true;
  }
  // A move sent: the banner ("your turn") has said what it had to, and goes at once.
  document.addEventListener("submit", hideBanner, true);
  function vibrate() {
    try { return window.localStorage.getItem("vibrate") !== "off"; } catch (e) { return true; }
  }
  var toggle = document.getElementById("vibrate-toggle");
  if (toggle) {
    if (!navigator.vibrate) toggle.closest("label").hidden = true;
    toggle.checked = vibrate();
    toggle.addEventListener("change", function () {
      try { window.localStorage.setItem("vibrate", toggle.checked ? "on" : "off"); } catch (e) { /* private mode */ }
    });
  }
  after.push(function () { moments(true); });
  moments(false);

  // A message stays until it is dismissed, replaced, or LINGER ms have passed; a refusal
  // also goes once the state it was about has passed: when the table shows a newer version
  // than the one shown when it came ("not your turn" after the turn came back), though not
  // before READ ms (computer players move faster than anyone reads), and when the phone
  // sends its next move.
  var LINGER = 8000;
  var READ = 2000;
  var flashTimer = null;
  var staleTimer = null;
  var flashVersion = null; // the version shown when the message came
  var flashAt = 0;
  function clearFlash() {
    window.clearTimeout(flashTimer);
    window.clearTimeout(staleTimer);
    flashVersion = null;
    var flash = document.getElementById("table-flash");
    if (flash) flash.replaceChildren();
  }
  function stale() {
    var version = currentVersion();
    if (flashVersion === null || version === null || version <= flashVersion) return;
    if (Date.now() - flashAt >= READ) clearFlash();
  }
  function watchFlash() {
    var flash = document.getElementById("table-flash");
    if (!flash || !flash.textContent.trim()) return;
    flashVersion = currentVersion();
    flashAt = Date.now();
    window.clearTimeout(staleTimer);
    staleTimer = window.setTimeout(stale, READ);
    window.clearTimeout(flashTimer);
    flashTimer = window.setTimeout(function () {
      var now = document.getElementById("table-flash");
      if (now) now.replaceChildren();
    }, LINGER);
  }
  document.addEventListener("click", function (evt) {
    if (evt.target.closest && evt.target.closest("[data-dismiss]")) {
      var flash = document.getElementById("table-flash");
      if (flash) flash.replaceChildren();
    }
  });
  after.push(function (message) {
    if (message.indexOf('id="table-flash"') >= 0) watchFlash();
    else stale();
  });
  // capture: before a game's own script, which may put a message of its own
  document.addEventListener("submit", function (evt) {
    if (evt.target.closest && evt.target.closest("#table-socket")) clearFlash();
  }, true);

  // A phrase said at the table shows for a few seconds.
  var saidTimer = null;
  after.push(function (message) {
    if (message.indexOf('id="table-said"') < 0) return;
    window.clearTimeout(saidTimer);
    saidTimer = window.setTimeout(function () {
      var said = document.getElementById("table-said");
      if (said) said.replaceChildren();
    }, 6000);
  });

  // The server answers only if the table has moved on from the version shown here.
  function resync() {
    send(JSON.stringify({ kind: "resync", version: currentVersion() }));
  }

  // The connection. After an abnormal close (the network, a server going away or
  // restarting) it connects again, waiting a random time up to 1 s, 2 s, … 64 s (full
  // jitter: a server's phones do not all come back at once); a refusal (4008, 4404, 4429)
  // stays closed. What is sent while it is away waits for it.
  var retries = 0;
  var waiting = [];
  function connect() {
    if (raw && raw.readyState <= raw.OPEN) raw.close(4000);
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + holder.dataset.socket);
    raw = socket;
    socket.onopen = function () {
      retries = 0;
      open = true;
      show("live");
      // Whatever happened while we were away, start from the table as it is now.
      resync();
      while (waiting.length) socket.send(waiting.shift());
      if (document.hidden) looking();
    };
    socket.onmessage = function (evt) { if (socket === raw) received(evt.data); };
    socket.onclose = function (evt) {
      if (socket !== raw) return;
      if ([1006, 1011, 1012, 1013].indexOf(evt.code) < 0) { lost("offline"); return; }
      lost(navigator.onLine === false ? "offline" : "reconnecting");
      var delay = 1000 * Math.pow(2, Math.min(retries, 6)) * Math.random();
      retries += 1;
      window.setTimeout(function () { if (socket === raw) connect(); }, delay);
    };
  }
  function send(text) {
    if (raw && raw.readyState === raw.OPEN) raw.send(text);
    else waiting.push(text);
  }
  function lost(state) { open = false; show(state || "reconnecting"); }

  // What the server sends: elements with an id, each put in place of the element with
  // that id (a region, a part of one, the version shown, a message).
  function received(message) {
    before.forEach(function (run) { run(message); });
    var parsed = document.createElement("template");
    parsed.innerHTML = message;
    Array.prototype.slice.call(parsed.content.children).forEach(function (element) {
      var old = element.id && document.getElementById(element.id);
      if (old) { seen(old, element); old.replaceWith(element); }
    });
    after.forEach(function (run) { run(message); });
  }

  // What moves in has a key (data-anim); drawn again the same it is data-seen: still.
  function keyed(el, fn) {
    if (el.dataset && el.dataset.anim) fn(el);
    el.querySelectorAll("[data-anim]").forEach(fn);
  }
  function seen(old, now) {
    var had = {};
    keyed(old, function (k) { had[k.dataset.anim] = 1; });
    keyed(now, function (k) { if (had[k.dataset.anim]) k.setAttribute("data-seen", ""); });
  }
  keyed(document, function (k) { k.setAttribute("data-seen", ""); });

  // A form marked ws-send goes over the connection, with the version the phone shows
  // and its action id; its button's own name and value too. The browser has checked
  // its required fields first.
  document.addEventListener("submit", function (evt) {
    var form = evt.target;
    if (evt.defaultPrevented || !form.hasAttribute("ws-send") || !raw) return;
    evt.preventDefault();
    var fields = {};
    new FormData(form, evt.submitter || null).forEach(function (value, name) {
      fields[name] = name in fields ? [].concat(fields[name], value) : value;
    });
    var version = currentVersion();
    if (version !== null) {
      fields.version = String(version);
      fields.action_id = actionId(form, version);
    }
    if (form.id) delete touched[form.id];
    form.classList.add("sending"); // until the server answers (below)
    send(JSON.stringify(fields));
  });

  after.push(function () {
    var version = currentVersion();
    if (lastVersion !== null && version !== null && version > lastVersion + 1) {
      resync(); // a version went missing on the way: ask for a fresh render
    }
    lastVersion = version;
  });

  // A submitted form is disabled until the server answers (a region it sends replaces
  // the form, or the answer leaves it: then it is enabled again).
  after.push(function () {
    Array.prototype.forEach.call(document.querySelectorAll("form.sending"), function (form) {
      form.classList.remove("sending");
    });
  });

  // Whether this page is looked at, for the others' list of who is at the table; said
  // again every few seconds (data-beat), so that the server knows the phone is there.
  function looking() {
    if (open) send(JSON.stringify({ kind: "presence", state: document.hidden ? "away" : "here" }));
  }
  var beat = holder ? parseFloat(holder.dataset.beat) : 0;
  if (beat > 0) window.setInterval(looking, beat * 1000);
  // A phone that says it lost its network closes its socket (the server may not hear of
  // it until the beats stop) and connects again once it is back.
  window.addEventListener("offline", function () {
    if (raw && raw.readyState === raw.OPEN) raw.close(4000);
    lost("offline");
  });
  window.addEventListener("online", function () {
    if (!open) connect();
  });
  document.addEventListener("visibilitychange", function () {
    if (open) looking();
    if (document.visibilityState !== "visible") return;
    if (open) resync();
    else connect(); // a phone that slept: connect again now
  });

  // What a game's own script (GameWeb.script: static/js/<game>.js, loaded after this one)
  // may use: a function to run after the server's elements are put in place, whether the
  // player has changed a form, and a message shown as the server's refusals are.
  window.liveTable = {
    after: function (fn) { after.push(fn); },
    touched: function (id) { return !!touched[id]; },
    flash: function (text) {
      var flash = document.getElementById("table-flash");
      if (!flash) return;
      var p = document.createElement("p");
      p.className = "error";
      p.textContent = text;
      flash.replaceChildren(p);
      watchFlash();
    }
  };

  // When the table was opened, in the phone's own time zone and language.
  var opened = document.getElementById("table-opened");
  if (opened && window.Intl) {
    var at = new Date(opened.dataset.at);
    var format = new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
    if (!isNaN(at)) opened.textContent = opened.dataset.local.replace("{when}", format.format(at));
  }

  // The turn clock counts down in the server's time: each render brings the server's
  // clock (data-now), so every phone shows the same seconds whatever its own clock says.
  var offset = 0;
  function serverTime() {
    var meta = document.getElementById("table-meta");
    if (meta && meta.dataset.now && meta.dataset.now !== meta.dataset.seen) {
      offset = +meta.dataset.now - Date.now();
      meta.dataset.seen = meta.dataset.now;
    }
    return Date.now() + offset;
  }
  function tick() {
    var now = serverTime();
    Array.prototype.forEach.call(document.querySelectorAll("[data-deadline]"), function (clock) {
      var left = Math.max(0, Math.ceil((+clock.dataset.deadline - now) / 1000));
      var shown = clock.querySelector(".clock-left");
      // under an hour minutes and seconds; above (a turn-based table) hours or days, in the
      // words the server gave (data-hm, data-dh)
      var minutes = Math.floor(left / 60), hours = Math.floor(left / 3600);
      var text = minutes + ":" + ("0" + left % 60).slice(-2);
      if (left >= 86400 && clock.dataset.dh) {
        text = clock.dataset.dh.replace("%(days)s", Math.floor(hours / 24)).replace("%(hours)s", hours % 24);
      } else if (left >= 3600 && clock.dataset.hm) {
        text = clock.dataset.hm.replace("%(hours)s", hours).replace("%(minutes)s", minutes % 60);
      }
      if (shown) shown.textContent = text;
      clock.classList.toggle("clock-low", left <= 10);
    });
  }
  window.setInterval(tick, 1000);
  after.push(tick);

  // A form whose button asks to be sure (leaving the table) is sent only once confirmed.
  document.addEventListener("submit", function (evt) {
    var button = evt.submitter || evt.target.querySelector("[data-confirm]");
    if (button && button.dataset.confirm && !window.confirm(button.dataset.confirm)) evt.preventDefault();
  }, true);

  lastVersion = currentVersion();
  watchFlash();
  tick();
  if (holder && holder.dataset.socket) { show("reconnecting"); connect(); }
})();
