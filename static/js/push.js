// Browser push notifications on the settings page: register the service
// worker, subscribe with the server's VAPID key, store the subscription.
(function () {
  "use strict";
  var box = document.getElementById("push-controls");
  if (!box || !("serviceWorker" in navigator) || !("PushManager" in window)) { return; }
  var on = document.getElementById("push-on");
  var off = document.getElementById("push-off");
  var status = document.getElementById("push-status");

  function csrf() {
    var headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
    return headers["X-CSRF-Token"] || "";
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf()},
      body: JSON.stringify(body)
    }).then(function (r) { if (!r.ok) { throw new Error("HTTP " + r.status); } return r; });
  }

  function keyBytes(base64url) {
    var padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded);
    var out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { out[i] = raw.charCodeAt(i); }
    return out;
  }

  function show(subscribed, text) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    status.textContent = text || "";
    box.dataset.subscribed = subscribed ? "yes" : "no";
  }

  var ready = navigator.serviceWorker.register("/sw.js", {scope: "/"}).then(function () {
    return navigator.serviceWorker.ready;
  });

  ready.then(function (reg) {
    box.hidden = false;
    return reg.pushManager.getSubscription().then(function (sub) { show(!!sub); });
  }).catch(function (err) { status.textContent = String(err); box.hidden = false; });

  on.addEventListener("click", function () {
    status.textContent = on.dataset.working || "…";
    ready.then(function (reg) {
      return Notification.requestPermission().then(function (perm) {
        if (perm !== "granted") { throw new Error(perm); }
        return fetch("/push/key", {credentials: "same-origin"});
      }).then(function (r) { return r.json(); }).then(function (data) {
        return reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(data.key)});
      }).then(function (sub) {
        return post("/push/subscribe", sub.toJSON());
      });
    }).then(function () { show(true, box.dataset.onText); })
      .catch(function (err) { show(false, String(err)); });
  });

  off.addEventListener("click", function () {
    ready.then(function (reg) { return reg.pushManager.getSubscription(); }).then(function (sub) {
      if (!sub) { return null; }
      return post("/push/unsubscribe", {endpoint: sub.endpoint}).then(function () { return sub.unsubscribe(); });
    }).then(function () { show(false, box.dataset.offText); })
      .catch(function (err) { status.textContent = String(err); });
  });
})();
