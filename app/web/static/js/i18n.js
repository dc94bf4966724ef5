// The page's language: its messages come from the server's gettext catalog for
// `<html lang>` (`/i18n/{lang}.json`, the same catalog the pages are rendered from), and
// its numbers, dates and times from `Intl`, in the viewer's own time zone.

export const lang = document.documentElement.lang || "en";

const EMPTY = { plural: { one: 0, other: 1 }, messages: {} };

async function load() {
  const url = document.querySelector('meta[name="messages"]')?.content;
  if (!url) return EMPTY;
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    return response.ok ? await response.json() : EMPTY;
  } catch {
    return EMPTY; // offline at the first visit: the English source texts
  }
}

const catalog = await load();
const plurals = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);

/** `{name}` placeholders filled from `params` (numbers in the language's digits). */
function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, key) => {
    if (!(key in params)) return whole;
    const value = params[key];
    return typeof value === "number" ? numbers.format(value) : String(value);
  });
}

let codedTexts;

/** A report the server sent by code with its params (a PDN reader's note or failure),
 * in the page's language from the table the page carries (`#pdn-texts`, from the same
 * catalog); its English when the page has no message for the code. */
export function coded(code, params, english) {
  codedTexts ??= JSON.parse(document.getElementById("pdn-texts")?.textContent || "{}");
  const found = code ? codedTexts[code] : undefined;
  if (typeof found !== "string" || !found) return english;
  const said = { ...params };
  // A `reason` naming a code (a FEN tag's own error) is said too, as the `detail`.
  if (said.reason && codedTexts[said.reason]) {
    const { reason, detail, ...own } = said;
    said.detail = coded(reason, own, detail);
  }
  // Rule-set names, alone or in a list ("21 (English), 25 (Russian)"), in the language.
  const word = (name) => codedTexts[`word:${name}`] || name;
  if (typeof said.rule_set === "string") said.rule_set = word(said.rule_set);
  if (typeof said.known === "string") said.known = said.known.replace(/\(([^)]+)\)/g, (_, name) => `(${word(name)})`);
  return fill(found, said);
}

/** The message in the page's language. */
export function t(message, params) {
  const found = catalog.messages[message];
  return fill(typeof found === "string" && found ? found : message, params);
}

/** The plural form for `n` (`{n}` is filled with it): Russian has three, Thai one. */
export function nt(singular, plural, n, params) {
  const forms = catalog.messages[singular];
  const all = { n, ...params };
  if (Array.isArray(forms) && forms.length) {
    const index = catalog.plural[plurals.select(n)] ?? forms.length - 1;
    return fill(forms[Math.min(index, forms.length - 1)], all);
  }
  return fill(n === 1 ? singular : plural, all);
}

/** A number as the page's language writes it. */
export function number(value, options) {
  return options ? new Intl.NumberFormat(lang, options).format(value) : numbers.format(value);
}
