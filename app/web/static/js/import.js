// The import page: a PDN text (pasted or from a file) sent to the import API, and what
// became of each game: imported with its notes, or the place and reason it failed.
import { el, plainError } from "./common.js";
import { coded, nt, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

/** A file's text: UTF-8, else Windows-1252 (many old PDN archives). */
async function fileText(file) {
  const bytes = await file.arrayBuffer();
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

$("pdn-file").addEventListener("change", async () => {
  const file = $("pdn-file").files[0];
  if (file) $("pdn-text").value = await fileText(file);
});

function players(game) {
  const white = game.white || "?";
  const black = game.black || "?";
  return `${white} – ${black}`;
}

function gameItem(game) {
  const li = el("li", null, `import-game ${game.imported ? "ok" : "failed"}`);
  li.dataset.game = String(game.number);
  const head = el("p", null, "import-head");
  head.append(el("strong", t("Game {number}", { number: game.number })), el("span", ` · ${players(game)} · ${game.result}`));
  if (game.imported) {
    const moves = nt("{n} move", "{n} moves", game.plies);
    head.append(el("span", ` · ${moves}`));
    const replay = el("a", t("Replay"), "import-link");
    replay.href = game.url;
    const pdn = el("a", "PDN", "import-link");
    pdn.href = game.pdn_url;
    pdn.setAttribute("download", "");
    head.append(" ", replay, " ", pdn);
  }
  li.append(head);
  if (game.from_position) li.append(el("p", t("Starts from its FEN tag's position."), "muted small"));
  if (game.service_end) {
    const end = game.service_end;
    li.append(el("p", t("This service's rules would have ended the game at ply {ply} ({termination}); every recorded move was replayed.", { ply: end.ply, termination: end.termination }), "service-end"));
  }
  const failure = game.failure;
  if (failure) {
    const why = el("p", null, "failure");
    // Apart: Babel's extractor (`make i18n`) misses a message inside another call's arguments.
    const move = failure.move || t("(none)");
    why.append(
      el("strong", t("Not imported: ")),
      el("span", t("game {game}, line {line}, column {column}, ply {ply}, move {move}: {reason}", {
        ...failure, move, reason: coded(failure.code, failure.params, failure.reason),
      })),
    );
    li.append(why);
    if (failure.legal_moves.length && !failure.reason.includes("legal moves:")) {
      li.append(el("p", t("Legal moves there: {moves}", { moves: failure.legal_moves.join(", ") }), "legal small"));
    }
  }
  if (game.notes.length) {
    const notes = el("ul", null, "notes small");
    for (const n of game.notes) {
      const text = coded(n.code, n.params, n.text);
      notes.append(el("li", t("Line {line}, column {column}: {text}", { ...n, text })));
    }
    li.append(notes);
  }
  return li;
}

// Enabled once this script handles the form (see home.js).
$("import-form").querySelector(".form-body").disabled = false;
$("import-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = event.target.querySelector("button[type=submit]");
  const error = $("import-error");
  error.hidden = true;
  const text = $("pdn-text").value;
  if (!text.trim()) {
    error.textContent = t("Paste a PDN text or choose a file first.");
    error.hidden = false;
    return;
  }
  button.disabled = true;
  try {
    const rule = encodeURIComponent($("import-rule-set").value);
    const response = await fetch(`/api/imports?rule_set=${rule}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "text/plain; charset=utf-8", Accept: "application/json" },
      body: text,
    });
    const data = await response.json().catch(() => null);
    if (!response.ok) throw new Error(plainError({ ...(data || {}), status: response.status }));
    const counts = { imported: data.imported, failed: data.failed };
    $("import-summary").textContent = data.failed
      ? nt("{imported} of {n} game imported, {failed} not imported.", "{imported} of {n} games imported, {failed} not imported.", data.games.length, counts)
      : nt("{imported} of {n} game imported.", "{imported} of {n} games imported.", data.games.length, counts);
    $("import-results").replaceChildren(...data.games.map(gameItem));
    $("import-results-panel").hidden = false;
  } catch (e) {
    error.textContent = e instanceof TypeError ? t("The service could not be reached: try again.") : e.message;
    error.hidden = false;
  } finally {
    button.disabled = false;
  }
});
