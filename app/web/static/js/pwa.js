// Every page: the service worker that keeps the app shell (and shows notifications) is
// registered once the page has loaded, so it never competes with the page's own files.
if ("serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch(() => undefined);
  });
}

// The offline banner follows the device's connection; a page whose requests fail while the
// device thinks it is online shows it too (common.js).
const banner = document.getElementById("offline");
if (banner) {
  const follow = () => { banner.hidden = navigator.onLine; };
  follow();
  window.addEventListener("online", follow);
  window.addEventListener("offline", follow);
}
