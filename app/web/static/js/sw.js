// The service worker: shows the room's notifications and brings its page forward.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

// Marks the message for `make i18n` (it is in the page scripts' catalog); `name` says it.
const t = (message) => message;
const NAME = t("Checkers");

/** The service's name in `lang` (a tag of the service, else the device's language), from
 * the pages' catalog; English when it cannot be had (offline, a language not served). */
async function name(lang) {
  const tags = [lang, self.navigator.language, self.navigator.language?.split("-")[0]];
  for (const tag of tags.filter(Boolean)) {
    try {
      const response = await fetch(`/i18n/${tag}.json`);
      if (!response.ok) continue;
      const found = (await response.json()).messages?.[NAME];
      if (typeof found === "string" && found) return found;
    } catch {
      break; // offline
    }
  }
  return NAME;
}

self.addEventListener("push", (event) => {
  let data;
  try {
    data = event.data.json();
  } catch {
    data = { body: event.data ? event.data.text() : "" };
  }
  // The payload's title, else the service's name it carries (in the device's language).
  event.waitUntil((async () => {
    const title = data.title || data.app || (await name(data.lang));
    await self.registration.showNotification(title, {
      body: data.body || "",
      lang: data.lang || "", // the language the device was turned on in
      tag: data.tag, // one notification per room and game: a newer one replaces it
      renotify: Boolean(data.tag),
      icon: "/static/favicon.svg",
      data: { url: data.url || "/" },
    });
  })());
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
