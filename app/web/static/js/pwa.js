// Every page: the service worker that keeps the app shell (and shows notifications) is
// registered once the page has loaded, so it never competes with the page's own files.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => undefined);
  });
}
