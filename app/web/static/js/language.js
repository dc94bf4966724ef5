// The language picker: choosing a language sends its form at once (its button is only
// drawn for a page without scripts). The seat stays: it lives in the room's own cookie.
const form = document.getElementById("language-form");
if (form) {
  const select = form.querySelector("select");
  select.addEventListener("change", () => form.submit());
}
