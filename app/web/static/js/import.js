// The import page: a PDN text (pasted or from a file) sent to the import API, and what
// became of each game: imported with its notes, or the place and reason it failed.
import { el, plainError } from "./common.js";

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
  head.append(el("strong", `Game ${game.number}`), el("span", ` · ${players(game)} · ${game.result}`));
  if (game.imported) {
    head.append(el("span", ` · ${game.plies} moves`));
    const replay = el("a", "Replay", "import-link");
    replay.href = game.url;
    const pdn = el("a", "PDN", "import-link");
    pdn.href = game.pdn_url;
    pdn.setAttribute("download", "");
    head.append(" ", replay, " ", pdn);
  }
  li.append(head);
  if (game.from_position) li.append(el("p", "Starts from its FEN tag's position.", "muted small"));
  if (game.service_end) {
    const end = game.service_end;
    li.append(el("p", `This service's rules would have ended the game at ply ${end.ply} (${end.termination}); every recorded move was replayed.`, "service-end"));
  }
  const failure = game.failure;
  if (failure) {
    const why = el("p", null, "failure");
    why.append(
      el("strong", "Not imported: "),
      el("span", `game ${failure.game}, line ${failure.line}, column ${failure.column}, ply ${failure.ply}, move ${failure.move || "(none)"}: ${failure.reason}`),
    );
    li.append(why);
    if (failure.legal_moves.length && !failure.reason.includes("legal moves:")) {
      li.append(el("p", `Legal moves there: ${failure.legal_moves.join(", ")}`, "legal small"));
    }
  }
  if (game.notes.length) {
    const notes = el("ul", null, "notes small");
    for (const n of game.notes) notes.append(el("li", `Line ${n.line}, column ${n.column}: ${n.text}`));
    li.append(notes);
  }
  return li;
}

$("import-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = event.target.querySelector("button[type=submit]");
  const error = $("import-error");
  error.hidden = true;
  const text = $("pdn-text").value;
  if (!text.trim()) {
    error.textContent = "Paste a PDN text or choose a file first.";
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
    const failed = data.failed ? `, ${data.failed} not imported` : "";
    $("import-summary").textContent = `${data.imported} of ${data.games.length} game${data.games.length === 1 ? "" : "s"} imported${failed}.`;
    $("import-results").replaceChildren(...data.games.map(gameItem));
    $("import-results-panel").hidden = false;
  } catch (e) {
    error.textContent = e instanceof TypeError ? "The service could not be reached: try again." : e.message;
    error.hidden = false;
  } finally {
    button.disabled = false;
  }
});
