// The service worker: keeps the app shell so pages open without the network, shows the
// room's notifications and brings its page forward. The server writes VERSION (the static
// files' digest) and SHELL (what to keep) at its head.

const SHELL_CACHE = `shell-${VERSION}`;
const PAGES_CACHE = "pages"; // the last copy of each page opened, whatever the version

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL_CACHE);
    // One file missing must not keep the worker from installing: keep what can be had.
    await Promise.all(SHELL.map((url) => cache.add(url).catch(() => undefined)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("shell-") && name !== SHELL_CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

/** The shell's files are fixed for a version: the cache answers, else the network. */
async function fromShell(request) {
  const cache = await caches.open(SHELL_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

/** A page is the network's when it answers; its last copy when the network is gone. */
async function page(request) {
  const cache = await caches.open(PAGES_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic") cache.put(request, response.clone());
    return response;
  } catch (error) {
    const kept = (await cache.match(request)) || (await caches.match("/"));
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/") || url.pathname.startsWith("/i18n/")) {
    event.respondWith(fromShell(request));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  }
});

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
      icon: "/static/icons/icon-192.png",
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
