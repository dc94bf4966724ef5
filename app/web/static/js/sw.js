// The service worker: shows the room's notifications and brings its page forward.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data;
  try {
    data = event.data.json();
  } catch {
    data = { title: "Checkers", body: event.data ? event.data.text() : "" };
  }
  event.waitUntil(self.registration.showNotification(data.title || "Checkers", {
    body: data.body || "",
    lang: data.lang || "", // the language the device was turned on in
    tag: data.tag, // one notification per room and game: a newer one replaces it
    renotify: Boolean(data.tag),
    icon: "/static/favicon.svg",
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const page = open.find((client) => client.url === url);
    if (page) return page.focus();
    return self.clients.openWindow(url);
  })());
});
