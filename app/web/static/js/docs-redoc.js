// Starts ReDoc on /redoc (a file, not an inline script: the page's CSP allows none).
const root = document.getElementById("redoc");
window.Redoc.init(root.dataset.openapi, { hideDownloadButton: false }, root);
