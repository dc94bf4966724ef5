// The room page: waiting room, play, spectating, replay and live updates.
import { BoardView, parseFen, sideIcon, squareName, startPieces } from "./board.js";
import { SIDE_NAME, copyFrom, duration, get, post, rememberRoom, when } from "./common.js";

const $ = (id) => document.getElementById(id);
const roomId = $("room").dataset.room;
const base = `/r/${encodeURIComponent(roomId)}`;

const state = {
  view: JSON.parse($("room-data").textContent),
  selection: [], // squares entered so far: the start, then each landing
  replay: null, // null: live; else the number of plies shown
  busy: false,
  animating: Promise.resolve(),
};

const board = new BoardView($("board"), { onSquare: tap, onDragStart: dragStart });

// --- derived facts ----------------------------------------------------------------

const game = () => state.view.game;
const you = () => state.view.you;
const live = () => state.replay === null;
const playing = () => state.view.status === "playing" && game().status === "playing";
const canPlay = () => live() && playing() && you()?.to_move && !state.busy;
const other = (side) => (side === "drums" ? "tires" : "drums");

function bottomSide() {
  if (you()) return you().side;
  // Someone invited to a waiting room sees the side they would take.
  return state.view.status === "waiting" ? "tires" : "drums";
}

function candidates() {
  const sel = state.selection;
  return game().legal_moves.filter((m) => sel.every((sq, i) => m.path[i] === sq));
}

function livePieces() {
  return parseFen(game().fen).pieces;
}

/** The position after `ply` plies (0: the rule set's starting position). */
function piecesAt(ply) {
  if (ply === 0) return startPieces(state.view.rule_set.men_per_side);
  return parseFen(game().moves[ply - 1].fen_after).pieces;
}

// --- drawing ------------------------------------------------------------------------

function drawMarks() {
  const moves = canPlay() ? game().legal_moves : [];
  const sel = state.selection;
  const cands = sel.length ? candidates() : moves;
  const shownPly = live() ? game().moves.length : state.replay;
  const lastMove = shownPly > 0 ? game().moves[shownPly - 1] : null;
  board.mark({
    selectable: sel.length ? [] : [...new Set(moves.map((m) => m.path[0]))],
    selected: sel.length ? sel.at(-1) : null,
    targets: sel.length ? [...new Set(cands.map((m) => m.path[sel.length]).filter(Boolean))] : [],
    taken: [...new Set(cands.flatMap((m) => m.captured))],
    last: sel.length ? [] : lastMove ? lastMove.path : [],
    path: sel,
  });
}

function seatLine(el, side) {
  const view = state.view;
  const seat = view.seats.find((s) => s.side === side);
  const mine = you()?.side === side;
  let who = "open seat";
  if (seat?.computer_level) who = `computer (${seat.computer_level})`;
  else if (mine) who = "you";
  else if (seat?.taken) who = you() ? "opponent" : "player";
  const name = document.createElement("span");
  name.textContent = `${SIDE_NAME[side]} · ${who}`;
  const parts = [sideIcon(side), name];
  if (playing() && game().turn === side) {
    const pill = document.createElement("span");
    pill.className = "to-move";
    pill.textContent = "to move";
    parts.push(pill);
  }
  el.replaceChildren(...parts);
}

function button(label, onClick, cls = "button") {
  const b = document.createElement("button");
  b.type = "button";
  b.className = cls;
  b.textContent = label;
  b.addEventListener("click", onClick);
  return b;
}

function statusText() {
  const view = state.view;
  const g = game();
  if (g.result) return g.result.text;
  if (view.status === "expired") return "This room has expired.";
  if (view.status === "waiting") {
    return you()
      ? "Waiting for an opponent: send them the link below."
      : `You are invited to play ${view.rule_set.name} checkers with the tires. The creator plays the drums and moves first.`;
  }
  if (!you()) return `${SIDE_NAME[g.turn]} to move · you are watching`;
  return you().to_move ? `Your move (you play the ${you().side})` : `Waiting for the ${g.turn} to move`;
}

function hintText() {
  if (!live()) return `Replaying move ${state.replay} of ${game().moves.length}.`;
  if (state.view.status === "waiting" && !you()) return state.view.rule_set.description;
  if (!canPlay()) return "";
  const capture = game().legal_moves.some((m) => m.captured.length);
  if (state.selection.length > 1) return "Keep going: tap the next landing square.";
  if (capture) return "You must capture: pick a highlighted piece; red rings mark the pieces it takes. Tap each landing square in order.";
  return "Pick a piece, then where it goes (or drag it).";
}

function drawActions() {
  const view = state.view;
  const g = game();
  const me = you();
  const items = [];
  const offer = (kind) => view.offers.find((o) => o.kind === kind);
  if (view.status === "waiting" && !me) {
    items.push(button("Accept and play the tires", accept, "button primary"));
  }
  if (me && playing()) {
    const draw = offer("draw");
    if (draw && draw.by_seat !== me.seat) {
      items.push(button("Accept draw", () => act("draw", { action: "accept" }), "button primary"));
      items.push(button("Decline draw", () => act("draw", { action: "decline" })));
    } else if (draw) {
      const b = button("Draw offered", () => {});
      b.disabled = true;
      items.push(b);
    } else {
      const left = g.draw_offers_left[me.side];
      const b = button(`Offer draw (${left} left)`, () => act("draw", { action: "offer" }));
      b.disabled = left <= 0;
      items.push(b);
    }
    items.push(button("Resign", confirmResign));
    if (view.claim_opens_at && !me.to_move) {
      const b = button("Claim the win", () => act("claim-forfeit", {}));
      b.dataset.claim = view.claim_opens_at;
      items.push(b);
    }
  }
  if (me && view.status === "finished") {
    const rematch = offer("rematch");
    if (rematch && rematch.by_seat !== me.seat) {
      items.push(button("Accept rematch", () => act("rematch", { action: "accept" }), "button primary"));
      items.push(button("Decline rematch", () => act("rematch", { action: "decline" })));
    } else if (rematch) {
      const b = button("Rematch offered", () => {});
      b.disabled = true;
      items.push(b);
    } else {
      items.push(button("Offer a rematch", () => act("rematch", { action: "offer" }), "button primary"));
    }
  }
  if (!live()) items.push(button("Back to the game", () => goLive()));
  $("actions").replaceChildren(...items);
}

function drawMoves() {
  const list = $("moves");
  const items = [];
  const moves = game().moves;
  const shown = live() ? moves.length : state.replay;
  for (const m of moves) {
    if (m.side === "drums" || items.length === 0) {
      const num = document.createElement("li");
      num.className = "num";
      num.textContent = `${Math.ceil(m.ply / 2)}.`;
      items.push(num);
      if (m.side === "tires") items.push(document.createElement("li"));
    }
    const li = document.createElement("li");
    const b = button(m.notation, () => replayMove(m.ply), "");
    b.title = `${SIDE_NAME[m.side]}: ${m.algebraic}`;
    b.setAttribute("aria-label", `Replay move ${m.ply}: ${SIDE_NAME[m.side]} ${m.notation}`);
    if (m.ply === shown) b.setAttribute("aria-current", "true");
    li.append(b);
    items.push(li);
  }
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren(...items);
  if (live() && atEnd) list.scrollTop = list.scrollHeight;
  const view = state.view;
  const score = view.score;
  $("score").textContent = view.games.length > 1 || game().result
    ? me() ? `you ${mine(score)} – ${theirs(score)}` : `${score.creator} – ${score.joiner}`
    : "";
  $("replay-pos").textContent = live() ? (moves.length ? `move ${moves.length}` : "start") : `${state.replay} / ${moves.length}`;
  const back = state.replay ?? moves.length;
  for (const b of $("replay").querySelectorAll("button")) {
    const kind = b.dataset.replay;
    b.disabled = (kind === "start" || kind === "back") ? back === 0 : live();
  }
}
const me = () => you();
const mine = (score) => score[you().seat];
const theirs = (score) => score[you().seat === "creator" ? "joiner" : "creator"];

function drawDeadlines() {
  const view = state.view;
  const rows = [];
  const add = (label, iso) => {
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.dataset.until = iso;
    dd.title = when(iso);
    rows.push(dt, dd);
  };
  if (view.claim_opens_at && playing()) add("Forfeit claim opens", view.claim_opens_at);
  if (view.expires_at) {
    add(view.status === "finished" ? "Rematch closes" : "Room expires", view.expires_at);
  }
  $("deadlines").replaceChildren(...rows);
  tick();
}

/** Live countdowns: deadlines, and the claim button until the claim opens. */
function tick() {
  const now = Date.now();
  for (const dd of $("deadlines").querySelectorAll("dd")) {
    const left = Date.parse(dd.dataset.until) - now;
    dd.textContent = left > 0 ? `in ${duration(left)}` : "now";
  }
  const claim = $("actions").querySelector("[data-claim]");
  if (claim) {
    const left = Date.parse(claim.dataset.claim) - now;
    claim.disabled = left > 0;
    claim.textContent = left > 0 ? `Claim the win in ${duration(left)}` : "Claim the win";
  }
}

function render({ pieces = true } = {}) {
  const view = state.view;
  board.orient(bottomSide());
  if (pieces) board.setPieces(live() ? livePieces() : piecesAt(state.replay));
  if (state.selection.length > 1) board.preview(state.selection[0], state.selection.at(-1));
  drawMarks();
  const top = other(bottomSide());
  seatLine($("player-top"), top);
  seatLine($("player-bottom"), bottomSide());
  $("status").textContent = statusText();
  $("hint").textContent = hintText();
  drawActions();
  drawMoves();
  drawDeadlines();
  $("device").hidden = !you() || view.status === "expired";
  $("ruleset").textContent = `${view.rule_set.name} rules`;
}

function showError(message) {
  const el = $("error");
  el.textContent = message || "";
  el.hidden = !message;
}

// --- input ----------------------------------------------------------------------------

function tap(square) {
  if (!canPlay()) return;
  showError("");
  const sel = state.selection;
  const legal = game().legal_moves;
  if (sel.length === 0) {
    if (legal.some((m) => m.path[0] === square)) state.selection = [square];
    render({ pieces: false });
    return;
  }
  const cands = candidates();
  const next = new Set(cands.map((m) => m.path[sel.length]).filter(Boolean));
  if (next.has(square)) {
    sel.push(square);
    const rest = candidates();
    const done = rest.find((m) => m.path.length === sel.length);
    if (done && rest.every((m) => m.path.length === sel.length)) {
      submit(done);
      return;
    }
    board.preview(sel[0], square);
    render({ pieces: false });
    return;
  }
  // Anything else starts over: another piece of yours, or nothing.
  const restart = sel.length === 1 && square !== sel[0] && legal.some((m) => m.path[0] === square);
  state.selection = restart ? [square] : [];
  render({ pieces: true });
}

function dragStart(square) {
  if (!canPlay()) return;
  const sel = state.selection;
  if (sel.length === 0 || (sel.length === 1 && sel[0] !== square)) {
    if (game().legal_moves.some((m) => m.path[0] === square)) state.selection = [square];
    render({ pieces: false });
  }
}

async function submit(move) {
  state.busy = true;
  state.selection = [];
  const before = game();
  const after = new Map(livePieces());
  const piece = after.get(move.path[0]);
  after.delete(move.path[0]);
  for (const sq of move.captured) after.delete(sq);
  after.set(move.path.at(-1), { ...piece, king: piece.king || move.crowns });
  board.setPieces(livePieces());
  render({ pieces: false });
  const shown = board.animate(move.path, move.captured, after);
  try {
    const view = await post(`${base}/moves`, { move: move.notation, expected_ply: before.ply });
    await shown;
    state.view = view;
  } catch (e) {
    await shown;
    showError(e.message);
    await refresh();
  } finally {
    state.busy = false;
  }
  render();
}

async function act(path, body) {
  showError("");
  try {
    state.view = await post(`${base}/${path}`, body);
    state.selection = [];
    render();
  } catch (e) {
    showError(e.message);
    await refresh();
  }
}

async function accept() {
  showError("");
  try {
    state.view = await post(`${base}/join`, {});
    rememberRoom(roomId);
    render();
  } catch (e) {
    showError(e.message);
    await refresh();
  }
}

function confirmResign() {
  const dialog = $("confirm");
  $("confirm-text").textContent = "Resign this game? Your opponent wins.";
  dialog.returnValue = "";
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "ok") act("resign", {});
  }, { once: true });
  dialog.showModal();
}

async function refresh() {
  try {
    state.view = await get(`${base}/state`);
  } catch (e) {
    showError(e.message);
  }
  render();
}

// --- replay ---------------------------------------------------------------------------

async function showPly(ply, animate) {
  const moves = game().moves;
  state.selection = [];
  if (ply >= moves.length && !animate) {
    goLive();
    return;
  }
  state.replay = Math.max(0, Math.min(ply, moves.length));
  if (animate && state.replay > 0) {
    const m = moves[state.replay - 1];
    board.setPieces(piecesAt(state.replay - 1));
    render({ pieces: false });
    await board.animate(m.path, m.captured, piecesAt(state.replay));
    if (state.replay >= moves.length) state.replay = null;
    render({ pieces: false });
    return;
  }
  render();
}

function replayMove(ply) {
  showPly(ply, true);
}

function goLive() {
  state.replay = null;
  render();
}

$("replay").addEventListener("click", (event) => {
  const kind = event.target.closest("button")?.dataset.replay;
  if (!kind) return;
  const at = state.replay ?? game().moves.length;
  if (kind === "start") showPly(0, false);
  if (kind === "back") showPly(at - 1, false);
  if (kind === "forward") showPly(at + 1, true);
  if (kind === "live") goLive();
});

// --- live updates ---------------------------------------------------------------------

/** Events newer than the view: an opponent's move is played hop by hop, then the view is
 * read again (it carries what this viewer may do next). */
async function onEvent(event) {
  while (state.busy) await new Promise((r) => { setTimeout(r, 50); });
  if (event.version <= state.view.version) return;
  const g = game();
  const d = event.data;
  if (event.kind === "move" && live() && d.game === g.number && d.ply === g.ply + 1) {
    state.selection = [];
    await board.animate(d.path, d.captured, parseFen(d.fen).pieces);
    announce(`${SIDE_NAME[d.side]} played ${d.path.map(squareName).join(d.captured.length ? ":" : "-")}`);
  }
  scheduleRefresh();
}

let refreshTimer = null;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, 30);
}

function announce(text) {
  $("status").textContent = text;
}

function listen() {
  const source = new EventSource(`/api/rooms/${encodeURIComponent(roomId)}/events?after=${state.view.version}`);
  source.onmessage = (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    // One event at a time, in order; a failure must not stop the ones after it.
    state.animating = state.animating.then(() => onEvent(event)).catch(() => scheduleRefresh());
  };
}

// --- share, other device, start -------------------------------------------------------

for (const b of document.querySelectorAll("[data-copy]")) {
  b.addEventListener("click", () => copyFrom($(b.dataset.copy), b));
}

$("device-link").addEventListener("click", async () => {
  try {
    const link = await post(`${base}/device-link`, {});
    $("device-url").value = link.url;
    $("device-row").hidden = false;
    const note = $("device-note");
    note.textContent = `Open this private link on your other device before ${when(link.expires_at)}. It works once, then this browser gives up the seat. Do not share it.`;
    note.hidden = false;
  } catch (e) {
    showError(e.message);
  }
});

async function continueFromLink() {
  const match = window.location.hash.match(/^#continue=([A-Za-z0-9_-]+)$/);
  if (!match) return;
  history.replaceState(null, "", window.location.pathname);
  try {
    state.view = await post(`${base}/continue`, { secret: match[1] });
    rememberRoom(roomId);
    announce("This browser now holds your seat.");
  } catch (e) {
    showError(e.message);
  }
}

async function start() {
  render();
  performance.mark("board-shown");
  await continueFromLink();
  if (you()) rememberRoom(roomId);
  render();
  listen();
  setInterval(tick, 1000);
}

start();
