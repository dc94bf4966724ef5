// Starts Swagger UI on /docs (a file, not an inline script: the page's CSP allows none).
const root = document.getElementById("swagger-ui");
window.SwaggerUIBundle({
  url: root.dataset.openapi,
  dom_id: "#swagger-ui",
  deepLinking: true,
  displayOperationId: true,
  tryItOutEnabled: false,
});
