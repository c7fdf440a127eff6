// feytable's service worker: shows the server's push notices and opens the
// table when one is clicked. Served at /sw.js so its scope is the whole site.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {body: event.data ? event.data.text() : ""}; }
  event.waitUntil(self.registration.showNotification(data.title || "feytable", {
    body: data.body || "",
    data: {url: data.url || "/"},
    tag: data.url || "feytable"
  }));
});

self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.matchAll({type: "window"}).then(function (list) {
    for (var i = 0; i < list.length; i++) {
      if (list[i].url === url && "focus" in list[i]) { return list[i].focus(); }
    }
    return self.clients.openWindow(url);
  }));
});
