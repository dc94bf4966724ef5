// The language picker: choosing a language sends its form at once (the button is there
// for a page without scripts). The seat stays: it lives in the room's own cookie.
const form = document.getElementById("language-form");
if (form) {
  const select = form.querySelector("select");
  form.querySelector("button").hidden = true;
  select.addEventListener("change", () => form.submit());
}
