// The room page: waiting room, play, spectating, replay, live updates, notifications.
// Moves, coordinates and the move input speak the rule set's notation (notation.js).
import { BoardView, parseFen, sideIcon, startPieces } from "./board.js";
import { AnalysisBoard } from "./analysis.js";
import { ChatPanel } from "./chat.js";
import { NotesPanel } from "./notes.js";
import {
  OFFLINE, SIDE_NAME, button, bySide, copyFrom, defaultName, el, get, keepView, keptView,
  lengthOf, markSeen, nameEl, pendingMove, post, rememberRoom, seenVersion, serverNow,
  setPendingMove, span, syncClock, when,
} from "./common.js";
import { nt, number, t } from "./i18n.js";
import { Notation, bindBoardTools } from "./notation.js";
import { Planner } from "./plan.js";
import { ReviewPanel } from "./review.js";

const $ = (id) => document.getElementById(id);
const STATUS = { waiting: t("waiting"), playing: t("in progress"), finished: t("finished") };
/** The viewer's time zone, for the instants in their notifications. */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const roomId = $("room").dataset.room;
const base = `/r/${encodeURIComponent(roomId)}`;

const state = {
  view: null,
  selection: [], // squares entered so far: the start, then each landing
  replay: null, // null: live; else the number of plies shown
  earlier: null, // an earlier game of the room being replayed (its full record)
  busy: false,
  claimOpen: false, // whether the forfeit claim had opened at the last drawing
  flipped: false, // the viewer turned the board round
  animating: Promise.resolve(),
  pending: pendingMove(roomId), // a move made offline, not yet sent
  sending: false,
};

const initial = JSON.parse($("room-data").textContent);
const notation = new Notation(initial.rule_set); // a room's rule set never changes
const board = new BoardView($("board"), { onSquare: tap, onDragStart: dragStart, notation });

/** Take a new view of the room; a new game (a rematch) ends any replay at once. */
function setView(view) {
  const before = state.view;
  syncClock(view.now);
  state.view = view;
  keepView(view);
  if (before && before.game.number !== view.game.number) {
    state.replay = null;
    state.earlier = null;
    state.selection = [];
  }
  if (state.replay !== null && !state.earlier) {
    state.replay = Math.min(state.replay, view.game.moves.length);
  }
}

// --- derived facts ----------------------------------------------------------------

const game = () => state.view.game;
const you = () => state.view.you;
const shown = () => state.earlier || game(); // the game on the board
const live = () => state.replay === null;
const playing = () => state.view.status === "playing" && game().status === "playing";
const canPlay = () => live() && playing() && you()?.to_move && !state.busy && !state.pending;
const other = (side) => (side === "drums" ? "tires" : "drums");
const seatOf = (side) => state.view.seats.find((s) => s.side === side);
const nameOf = (side) => seatOf(side)?.name ?? defaultName(side);

function bottomSide() {
  let side;
  if (you()) side = you().side;
  // Someone invited to a waiting room sees the side they would take.
  else side = state.view.status === "waiting" ? "tires" : "drums";
  return state.flipped ? other(side) : side;
}

function candidates() {
  const sel = state.selection;
  return game().legal_moves.filter((m) => sel.every((sq, i) => m.path[i] === sq));
}

/** The live position, with the move made offline on it while that move waits. */
function livePieces() {
  const pieces = parseFen(game().fen).pieces;
  return pendingHere() ? afterMove(pieces, state.pending) : pieces;
}

/** `pieces` once `move` ({path, captured, crowns}) is played. */
function afterMove(pieces, move) {
  const after = new Map(pieces);
  const piece = after.get(move.path[0]);
  if (!piece) return after;
  after.delete(move.path[0]);
  for (const sq of move.captured) after.delete(sq);
  after.set(move.path.at(-1), { ...piece, king: piece.king || Boolean(move.crowns) });
  return after;
}

/** Whether the waiting offline move was chosen in the position the view shows. */
function pendingHere() {
  const p = state.pending;
  return Boolean(p && p.game === game().number && p.ply === game().ply);
}

/** The position of the shown game after `ply` plies. */
function piecesAt(ply) {
  const g = shown();
  if (ply > 0) return parseFen(g.moves[ply - 1].fen_after).pieces;
  return g.start_fen ? parseFen(g.start_fen).pieces : startPieces(state.view.rule_set.men_per_side);
}

/** When the forfeit claim opens, by the server's clock (null: no claim can open). */
function claimOpensAt() {
  return state.view.claim_opens_at && playing() ? Date.parse(state.view.claim_opens_at) : null;
}

// --- drawing ------------------------------------------------------------------------

function drawMarks() {
  const moves = canPlay() ? game().legal_moves : [];
  const sel = state.selection;
  const cands = sel.length ? candidates() : moves;
  const ply = live() ? game().moves.length : state.replay;
  const lastMove = ply > 0 ? shown().moves[ply - 1] : null;
  board.mark({
    selectable: sel.length ? [] : [...new Set(moves.map((m) => m.path[0]))],
    selected: sel.length ? sel.at(-1) : null,
    targets: sel.length ? [...new Set(cands.map((m) => m.path[sel.length]).filter(Boolean))] : [],
    taken: [...new Set(cands.flatMap((m) => m.captured))],
    last: sel.length ? [] : lastMove ? lastMove.path : [],
    path: sel,
  });
}

function seatLine(node, side) {
  const seat = seatOf(side);
  const mine = you()?.side === side;
  const parts = [sideIcon(side)];
  let who;
  if (!seat?.taken) who = t("open seat");
  else if (seat.computer_level) who = t("{name} (computer)", { name: seat.name });
  else if (mine) who = t("you");
  else who = you() ? t("opponent") : t("player");
  parts.push(el("span", `${SIDE_NAME[side]} · ${who}`, "seat-role"));
  const chosen = mine ? you().name : seat?.taken && !seat.computer_level ? seat.name : null;
  if (chosen && !(seat && !mine && chosen === defaultName(side))) {
    parts.push(el("span", "·", "sep"), nameEl(chosen));
  }
  if (playing() && game().turn === side) parts.push(el("span", t("to move"), "to-move"));
  node.replaceChildren(...parts);
}


function statusText() {
  const view = state.view;
  const g = game();
  if (state.earlier) {
    const r = state.earlier.result;
    return r
      ? t("Game {number}: {result}", { number: state.earlier.number, result: r.text })
      : t("Game {number}", { number: state.earlier.number });
  }
  if (g.result) return g.result.text;
  if (view.status === "expired") return t("This room has expired.");
  if (view.status === "waiting") {
    if (you()) return t("Waiting for an opponent: send them the link below.");
    const invited = t("You are invited to play {rule_set} checkers with the tires.", { rule_set: view.rule_set.name });
    const start = g.start_fen
      ? bySide(g.turn,
        t("The game starts from the position on the board: the drums move first (the creator plays the drums)."),
        t("The game starts from the position on the board: the tires move first (the creator plays the drums)."))
      : t("The creator plays the drums and moves first.");
    return `${invited} ${start}`;
  }
  if (!you()) return bySide(g.turn, t("Drums to move · you are watching"), t("Tires to move · you are watching"));
  if (you().to_move) return bySide(you().side, t("Your move (you play the drums)"), t("Your move (you play the tires)"));
  return bySide(g.turn, t("Waiting for the drums to move"), t("Waiting for the tires to move"));
}

function hintText() {
  if (!live()) return t("Replaying move {ply} of {plies}.", { ply: state.replay, plies: shown().moves.length });
  if (state.view.status === "waiting" && !you()) return state.view.rule_set.description;
  if (!canPlay()) return "";
  const capture = game().legal_moves.some((m) => m.captured.length);
  if (state.selection.length > 1) return t("Keep going: tap the next landing square.");
  if (capture) return t("You must capture: pick a highlighted piece; red rings mark the pieces it takes. Tap each landing square in order.");
  return t("Pick a piece, then where it goes (or drag it).");
}

function offerText() {
  const view = state.view;
  const me = you();
  const pending = view.offers.find((o) => (o.kind === "draw" ? playing() : view.status === "finished"));
  if (!pending) return view.declined ? declinedText(view.declined) : null;
  const draw = pending.kind === "draw";
  if (me && pending.by_seat === me.seat) return draw ? t("You offered a draw.") : t("You offered a rematch.");
  if (me) return draw ? t("Your opponent offers a draw.") : t("Your opponent offers a rematch.");
  const name = nameOf(pending.by_side);
  return draw ? t("{name} offers a draw.", { name }) : t("{name} offers a rematch.", { name });
}

/** An offer declined lately (the view keeps it while it is news), said to each viewer. */
function declinedText(declined) {
  const draw = declined.kind === "draw";
  const name = nameOf(other(declined.by_side)); // the one who declined
  const me = you();
  if (me && declined.by_seat !== me.seat) return draw ? t("You declined the draw offer.") : t("You declined the rematch offer.");
  if (!me) return draw ? t("{name} declined the draw offer.", { name }) : t("{name} declined the rematch offer.", { name });
  if (!draw) return t("{name} declined your rematch offer.", { name });
  return declined.reason === "computer_ahead"
    ? t("{name} declined your draw offer: it finds itself clearly ahead.", { name })
    : t("{name} declined your draw offer.", { name });
}

/** The deadline of the viewer's own seat, said to that player. */
function deadlineText() {
  const opens = claimOpensAt();
  const me = you();
  if (!me || opens === null) return null;
  const left = opens - serverNow();
  const at = when(state.view.claim_opens_at);
  if (me.to_move) {
    return left > 0
      ? t("Move by {time} (in {left}) or your opponent may claim the win.", { time: at, left: span(left) })
      : t("Your opponent may now claim the win: move now.");
  }
  return left > 0 ? t("You may claim the win from {time}.", { time: at }) : t("You may claim the win now.");
}

// The invitation shows who invites: their record, when their profile makes it public.
let creatorRecordAsked = false;
async function showCreatorRecord() {
  if (creatorRecordAsked) return;
  creatorRecordAsked = true;
  let record;
  try {
    record = await get(`${base}/creator-record`);
  } catch {
    return; // none shown: no profile, or a private record
  }
  const { played, won, drawn, lost, in_time: inTime } = record.total;
  const box = $("creator-record");
  const link = el("a", t("{name}'s record", { name: record.name }));
  link.href = record.url;
  box.replaceChildren(link, ": ", nt(
    "{n} game finished ({won} won, {drawn} drawn, {lost} lost)",
    "{n} games finished ({won} won, {drawn} drawn, {lost} lost)",
    played, { won, drawn, lost },
  ));
  if (inTime !== null) {
    box.append(" · ", t("moved in time in {share} of them", { share: `${Math.round(inTime * 100)}%` }));
  }
  box.hidden = false;
}

function drawActions() {
  const view = state.view;
  const g = game();
  const me = you();
  const items = [];
  const offer = (kind) => view.offers.find((o) => o.kind === kind);
  $("join").hidden = !(view.status === "waiting" && !me);
  if (!$("join").hidden) showCreatorRecord();
  if (view.status === "waiting" && !me) {
    items.push(button(t("Accept and play the tires"), accept, "button primary"));
  }
  if (view.status === "waiting" && me) {
    // The creator's one decision while waiting: send the link, next to the board.
    const share = button(t("Share"), () => shareRoom(share), "button primary");
    share.id = "share-action";
    items.push(share);
  }
  if (me && playing()) {
    const draw = offer("draw");
    if (draw && draw.by_seat !== me.seat) {
      items.push(button(t("Accept draw"), () => act("draw", { action: "accept" }), "button primary"));
      items.push(button(t("Decline draw"), () => act("draw", { action: "decline" })));
    } else if (!draw) {
      const left = g.draw_offers_left[me.side];
      const b = button(t("Offer draw ({left} left)", { left }), () => act("draw", { action: "offer" }));
      b.disabled = left <= 0;
      items.push(b);
    }
    items.push(button(t("Resign"), confirmResign));
    if (!me.to_move && state.claimOpen) {
      items.push(button(t("Claim the win"), () => act("claim-forfeit", {}), "button primary"));
    }
    if (me.can_give_time) {
      const more = button(t("Give one more day"), () => act("more-time", {}), "button subtle");
      more.id = "more-time";
      items.push(more);
    }
  }
  if (me && view.status === "finished") {
    const rematch = offer("rematch");
    if (rematch && rematch.by_seat !== me.seat) {
      items.push(button(t("Accept rematch"), () => act("rematch", { action: "accept" }), "button primary"));
      items.push(button(t("Decline rematch"), () => act("rematch", { action: "decline" })));
    } else if (!rematch) {
      items.push(button(t("Offer a rematch"), () => act("rematch", { action: "offer" }), "button primary"));
    }
  }
  if (state.pending && !state.sending) items.push(button(t("Take back this move"), takeBack));
  if (!live()) items.push(button(t("Back to the game"), () => goLive()));
  $("actions").replaceChildren(...items);
  $("actions").hidden = items.length === 0;
}

/** What the shown position's last move was, in the reader's notation. */
function lastMoveText() {
  const ply = live() ? shown().moves.length : state.replay;
  const m = ply > 0 ? shown().moves[ply - 1] : null;
  if (!m) return null;
  // The viewer's stored reply, played for them the moment the opponent's move came.
  if (live() && m.conditional && m.side === you()?.side) {
    return t("Your planned reply {move} was played.", { move: notation.move(m) });
  }
  return t("Last move: {side} {move}", { side: SIDE_NAME[m.side], move: notation.move(m) });
}

function drawMoves() {
  const list = $("moves");
  const items = [];
  const g = shown();
  const moves = g.moves;
  const ply = live() ? moves.length : state.replay;
  for (const m of moves) {
    if (m.side === "drums" || items.length === 0) {
      items.push(el("li", `${m.number}.`, "num"));
      if (m.side === "tires") items.push(el("li"));
    }
    const li = el("li");
    const text = notation.move(m);
    const b = button(text, () => replayMove(m.ply), "");
    b.title = `${SIDE_NAME[m.side]} (${notation.colour(m.side)}): ${notation.otherForm(m)}`;
    b.setAttribute("aria-label", t("Replay move {ply}: {side} {move}", { ply: m.ply, side: SIDE_NAME[m.side], move: text }));
    if (m.ply === ply) b.setAttribute("aria-current", "true");
    li.append(b);
    const mark = review.mark(m.ply);
    if (mark) li.append(mark);
    items.push(li);
  }
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren(...items);
  if (live() && atEnd) list.scrollTop = list.scrollHeight;
  const view = state.view;
  const score = view.score;
  const counted = view.games.some((x) => x.result && x.result.termination !== "expired");
  $("score").textContent = counted
    ? you()
      ? t("you {mine} – {theirs}", { mine: number(mine(score)), theirs: number(theirs(score)) })
      : `${number(score.creator)} – ${number(score.joiner)}`
    : "";
  // A seat nobody has taken yet is said to be open, not given its default name.
  const player = (side) => (seatOf(side)?.taken ? nameEl(nameOf(side)) : el("span", t("open seat")));
  $("players").replaceChildren(
    el("span", `${SIDE_NAME.drums}: `), player("drums"), el("span", ` · ${SIDE_NAME.tires}: `), player("tires"),
  );
  $("replay-pos").textContent = live()
    ? (moves.length ? t("move {ply}", { ply: moves.length }) : t("start"))
    : `${number(state.replay)} / ${number(moves.length)}`;
  setText("last-move", lastMoveText());
  setText("start-position", g.start_position ? t("Set-up start: {fen}", { fen: g.start_position }) : null);
  const back = state.replay ?? moves.length;
  for (const b of $("replay").querySelectorAll("button")) {
    const kind = b.dataset.replay;
    b.disabled = (kind === "start" || kind === "back") ? back === 0 : live();
  }
  const current = view.games.find((x) => x.number === game().number);
  $("pdn").hidden = !(current && game().result && !state.earlier);
  if (current) $("pdn-link").href = current.pdn_url;
  // A player's own copy: the same game with their notes and analysis lines.
  $("own-pdn").hidden = $("pdn").hidden || !you();
  if (current) $("own-pdn-link").href = `${base}/games/${current.number}/own.pdn`;
}
const mine = (score) => score[you().seat];
const theirs = (score) => score[you().seat === "creator" ? "joiner" : "creator"];

function drawHistory() {
  const earlier = state.view.games.filter((g) => g.number !== game().number);
  $("history-panel").hidden = earlier.length === 0;
  $("history").replaceChildren(...earlier.map((g) => {
    const li = el("li");
    li.append(el("span", t("Game {number}", { number: g.number }), "history-game"));
    li.append(el("span", g.result ? g.result.text : STATUS[g.status] ?? g.status, "history-result"));
    li.append(button(t("Replay"), () => replayEarlier(g.number), "button subtle"));
    const link = el("a", "PDN", "history-pdn");
    link.href = g.pdn_url;
    link.setAttribute("download", "");
    li.append(link);
    return li;
  }));
}

function drawDeadlines() {
  const view = state.view;
  const rows = [];
  const add = (label, iso) => {
    const dd = el("dd");
    dd.dataset.until = iso;
    dd.title = when(iso);
    rows.push(el("dt", label), dd);
  };
  if (view.claim_opens_at && playing() && !you()) add(t("Forfeit claim opens"), view.claim_opens_at);
  if (view.expires_at) {
    const length = lengthOf(view.status === "finished"
      ? view.terms.rematch_window_seconds : view.terms.expire_after_seconds);
    add(view.status === "finished" ? t("Rematch closes ({length} after the end)", { length })
      : t("Room closes ({length} without a move)", { length }), view.expires_at);
  }
  const extra = game().extra_time;
  if (extra.given_days > 0) {
    const dd = el("dd", t("{days} of {max} days given", { days: number(extra.given_days), max: number(extra.max_days) }));
    dd.id = "extra-time";
    rows.push(el("dt", t("More time")), dd);
  }
  $("deadlines").replaceChildren(...rows);
  $("deadlines").hidden = rows.length === 0;
  tick();
}

function setText(id, text) {
  const node = $(id);
  node.hidden = !text;
  node.textContent = text || "";
}

/** Once a second: the countdowns, and the claim once it opens. */
function tick() {
  const now = serverNow();
  for (const dd of $("deadlines").querySelectorAll("dd[data-until]")) {
    const left = Date.parse(dd.dataset.until) - now;
    dd.textContent = left > 0 ? t("in {left}", { left: span(left) }) : t("now");
  }
  const opens = claimOpensAt();
  const open = opens !== null && now >= opens;
  if (open !== state.claimOpen) {
    state.claimOpen = open;
    drawActions();
  }
  setText("deadline", live() ? deadlineText() : null);
}

function render({ pieces = true } = {}) {
  const view = state.view;
  board.orient(bottomSide());
  if (pieces) board.setPieces(live() ? livePieces() : piecesAt(state.replay));
  if (state.selection.length > 1) board.preview(state.selection[0], state.selection.at(-1));
  drawMarks();
  seatLine($("player-top"), other(bottomSide()));
  seatLine($("player-bottom"), bottomSide());
  $("status").textContent = statusText();
  setText("pending", state.pending && live()
    ? t("Your move {move} is kept on this device and will be sent when the connection is back.", { move: state.pending.text })
    : null);
  setText("offer", live() ? offerText() : null);
  const hint = hintText();
  $("hint").textContent = hint;
  // A player's hint comes and goes with the turn: its line stays while the game is on, so
  // the buttons below keep their place; anyone else's empty hint takes no room.
  $("hint").hidden = !hint && !(you() && playing());
  drawMoveInput();
  drawActions();
  drawMoves();
  drawHistory();
  drawDeadlines();
  drawYou();
  planner.render();
  chat.show(you()?.chat ?? null);
  analysis.show(you() ? shown().number : null);
  notes.show(you() ? shown().number : null, live() ? shown().moves.length : state.replay, shown().moves);
  if (source && source.seated !== Boolean(you())) listen(); // took (or lost) a seat
  drawReview();
  $("device").hidden = !you() || view.status === "expired";
  $("ruleset").textContent = t("{rule_set} rules", { rule_set: view.rule_set.name });
  $("notation-note").textContent = notationNote();
  $("share-note").textContent = view.status === "waiting"
    ? t("Anyone with this link can watch, or accept and play.")
    : t("Anyone with this link can watch.");
  document.title = you()?.to_move && playing()
    ? t("Your move · {rule_set} checkers", { rule_set: view.rule_set.name })
    : t("{rule_set} checkers · room", { rule_set: view.rule_set.name });
}

function showError(message) {
  setText("error", message);
}

const chat = new ChatPanel({
  base,
  nameOf: (seat) => state.view.seats.find((s) => s.seat === seat)?.name ?? seat,
  failed: (e) => failed(e),
});

const notes = new NotesPanel({
  base,
  moveText: (m) => notation.move(m),
  jump: (ply) => showPly(ply, false),
  failed: (e) => failed(e),
});

const analysis = new AnalysisBoard({
  base,
  notation,
  ruleSet: initial.rule_set.key,
  view: () => state.view,
  shown: () => shown(),
  ply: () => (live() ? shown().moves.length : state.replay),
  planned: (view) => {
    setView(view);
    render();
  },
  failed: (e) => failed(e),
});

const review = new ReviewPanel({
  notation,
  jump: (ply) => showPly(ply, false),
  changed: () => render({ pieces: false }),
});

/** The review of the finished game on the board (an earlier one, or this one once over),
 * and the Executive's move in the position shown. */
function drawReview() {
  const number = state.earlier ? state.earlier.number : game().result ? game().number : null;
  const reviewed = Boolean(state.view.games.find((g) => g.number === number)?.review_url);
  review.show(number ? `/api/rooms/${encodeURIComponent(roomId)}/games/${number}/review` : null, reviewed);
  const ply = live() ? shown().moves.length : state.replay;
  board.arrow(number ? review.bestAfter(ply) : null);
}

const planner = new Planner({
  notation,
  ruleSet: initial.rule_set.key,
  view: () => state.view,
  save: (lines) => act("conditional", { lines }),
  clear: () => act("conditional/clear", {}),
});

/** Why a request failed, as the page says it; a failure to reach the server is said once
 * and goes when the live connection is back. */
function failed(e) {
  showError(e.offline ? OFFLINE : e.message);
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

/** The typed move: shown while it is your move, read by the server in the rule set's
 * notation (numeric or algebraic, whichever is typed). */
function drawMoveInput() {
  const form = $("move-form");
  const show = canPlay();
  form.hidden = !show;
  if (!show) return;
  const example = game().legal_moves[0];
  $("move-input").placeholder = example ? t("e.g. {move}", { move: notation.move(example) }) : "";
}

async function submitTyped(text) {
  if (!text.trim() || !canPlay()) return;
  showError("");
  state.busy = true;
  state.selection = [];
  const before = game();
  try {
    const view = await post(`${base}/moves`, { move: text, expected_ply: before.ply, notation: "tradition" });
    const played = view.game.moves[before.ply];
    if (played && view.game.number === before.number) {
      await board.animate(played.path, played.captured, parseFen(played.fen_after).pieces);
    }
    $("move-input").value = "";
    setView(view);
  } catch (e) {
    // Offline, a typed move that names one legal move is kept like a tapped one.
    const typed = e.offline && game().legal_moves.filter((m) => notation.move(m) === text.trim() || m.engine_notation === text.trim());
    if (typed?.length === 1 && keepPending(typed[0])) $("move-input").value = "";
    else {
      failed(e);
      if (!e.data || e.data.code !== "illegal_move") await refresh();
    }
  } finally {
    state.busy = false;
  }
  render();
}

$("move-form").addEventListener("submit", (event) => {
  event.preventDefault();
  submitTyped($("move-input").value);
});

async function submit(move) {
  state.busy = true;
  state.selection = [];
  const before = game();
  const after = afterMove(livePieces(), move);
  board.setPieces(livePieces());
  render({ pieces: false });
  const moving = board.animate(move.path, move.captured, after);
  try {
    const view = await post(`${base}/moves`, { move: move.engine_notation, expected_ply: before.ply });
    await moving;
    setView(view);
    announce(t("You played {move}", { move: notation.move(move) }));
  } catch (e) {
    await moving;
    if (!(e.offline && keepPending(move))) {
      failed(e);
      await refresh();
    }
  } finally {
    state.busy = false;
  }
  render();
}

async function act(path, body) {
  showError("");
  try {
    setView(await post(`${base}/${path}`, body));
    state.selection = [];
    render();
    return true;
  } catch (e) {
    failed(e);
    await refresh();
    return false;
  }
}

async function accept() {
  showError("");
  try {
    setView(await post(`${base}/join`, { name: $("join-name").value }));
    rememberRoom(roomId);
    render();
  } catch (e) {
    failed(e);
    if (!e.data || e.data.code !== "validation_error") await refresh();
  }
}

function confirmResign() {
  const dialog = $("confirm");
  $("confirm-text").textContent = t("Resign this game? Your opponent wins.");
  dialog.returnValue = "";
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "ok") act("resign", {});
  }, { once: true });
  dialog.showModal();
}

async function refresh() {
  try {
    setView(await get(`${base}/state`));
    if ($("error").textContent === OFFLINE) showError("");
    noteSeen();
  } catch (e) {
    failed(e);
  }
  render();
}

// --- replay ---------------------------------------------------------------------------

async function showPly(ply, animate) {
  const moves = shown().moves;
  state.selection = [];
  if (ply >= moves.length && !animate && !state.earlier) {
    goLive();
    return;
  }
  state.replay = Math.max(0, Math.min(ply, moves.length));
  if (animate && state.replay > 0) {
    const m = moves[state.replay - 1];
    board.setPieces(piecesAt(state.replay - 1));
    render({ pieces: false });
    await board.animate(m.path, m.captured, piecesAt(state.replay));
    if (state.replay >= moves.length && !state.earlier) state.replay = null;
    render({ pieces: false });
    return;
  }
  render();
}

function replayMove(ply) {
  showPly(ply, true);
}

async function replayEarlier(number) {
  try {
    state.earlier = await get(`/api/rooms/${encodeURIComponent(roomId)}/games/${number}`);
    state.replay = state.earlier.moves.length;
    state.selection = [];
    render();
  } catch (e) {
    failed(e);
  }
}

function goLive() {
  state.replay = null;
  state.earlier = null;
  render();
}

$("replay").addEventListener("click", (event) => {
  const kind = event.target.closest("button")?.dataset.replay;
  if (!kind) return;
  const at = state.replay ?? shown().moves.length;
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
  if (event.kind === "chat" || event.kind === "chat_switched") chat.heard(event);
  if (event.kind === "chat") return; // nothing else of the room changed
  if (event.version <= state.view.version) return;
  const g = game();
  const d = event.data;
  if (event.kind === "move" && live() && d.game === g.number && d.ply === g.ply + 1) {
    state.selection = [];
    await board.animate(d.path, d.captured, parseFen(d.fen).pieces);
    const move = notation.path(d.path, d.captured.length > 0);
    announce(d.conditional && d.side === you()?.side
      ? t("Your planned reply {move} was played.", { move })
      : t("{side} played {move}", { side: SIDE_NAME[d.side], move }));
  }
  scheduleRefresh();
}

let refreshTimer = null;
function scheduleRefresh() {
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(refresh, 30);
}

/** Said to a screen reader as it happens (`#said`, a live region): each move played. */
function announce(text) {
  $("said").textContent = text;
}

// --- a move made offline -----------------------------------------------------------------

/** Keep `move` (a legal move of the view) to send once the service answers again. */
function keepPending(move) {
  const pending = {
    game: game().number, ply: game().ply, move: move.engine_notation, path: move.path,
    captured: move.captured, crowns: Boolean(move.crowns), text: notation.move(move),
  };
  if (!setPendingMove(roomId, pending)) return false;
  state.pending = pending;
  showError("");
  announce(t("Your move {move} is kept on this device and will be sent when the connection is back.", { move: pending.text }));
  return true;
}

function dropPending() {
  setPendingMove(roomId, null);
  state.pending = null;
}

function takeBack() {
  dropPending();
  render();
}

const samePath = (a, b) => a.length === b.length && a.every((sq, i) => sq === b[i]);

/** Why the kept move was not played, said plainly: the game changed while it waited. */
function refusedText(pending) {
  const move = pending.text;
  if (state.view.status === "expired") {
    return t("Your move {move}, made offline, was not played: the room closed meanwhile.", { move });
  }
  const result = state.view.games.find((g) => g.number === pending.game)?.result;
  if (result) {
    return t("Your move {move}, made offline, was not played: the game ended meanwhile ({result}).", { move, result: result.text });
  }
  return t("Your move {move}, made offline, was not played: the game changed meanwhile. The board is up to date.", { move });
}

/** Send the kept move, with the ply it was chosen at, once the service answers: played if
 * the game still stands where it was chosen; otherwise nothing is played and the player
 * is told why. */
async function sendPending() {
  const pending = state.pending;
  if (!pending || state.sending) return;
  state.sending = true;
  try {
    setView(await get(`${base}/state`));
    const g = game();
    const same = g.number === pending.game;
    const mine = g.moves[pending.ply];
    if (same && g.ply === pending.ply + 1 && mine?.side === you()?.side && samePath(mine.path, pending.path)) {
      dropPending(); // it reached the server before the connection went
      announce(t("Your move {move}, made offline, has been played.", { move: pending.text }));
    } else if (same && g.ply === pending.ply && playing() && you()?.to_move) {
      setView(await post(`${base}/moves`, { move: pending.move, expected_ply: pending.ply }));
      dropPending();
      announce(t("Your move {move}, made offline, has been played.", { move: pending.text }));
    } else {
      dropPending();
      showError(refusedText(pending));
    }
  } catch (e) {
    // Unreachable, or busy for a moment: the move waits for the next chance. Refused (the
    // game moved on between the two requests): nothing was played, and the player is told.
    if (e.offline) failed(e);
    else if (e.status >= 500 || e.status === 429) {
      failed(e);
      setTimeout(sendPending, 5000);
    } else {
      dropPending();
      await refresh();
      showError(refusedText(pending));
    }
  } finally {
    state.sending = false;
  }
  render();
}

let source = null;

/** Follow the room's events live. Whenever the connection is lost (the browser went
 * offline, the server restarted), the page says it is reconnecting until it is back, then
 * reads the room again so nothing missed stays unseen. */
function listen() {
  source?.close();
  // A player's stream comes through the seat's cookie: it carries the chat too.
  const from = you() ? `${base}/events` : `/api/rooms/${encodeURIComponent(roomId)}/events`;
  source = new EventSource(`${from}?after=${state.view.version}`);
  source.seated = Boolean(you());
  let lost = null;
  source.onopen = () => {
    sendPending();
    clearTimeout(lost);
    lost = null;
    if (!$("live").hidden) {
      setText("live", null);
      scheduleRefresh();
    }
  };
  source.onerror = () => {
    // A brief blip (a stream ending and resuming) is not worth a word.
    if (lost === null) lost = setTimeout(() => setText("live", t("Reconnecting…")), 1500);
  };
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

window.addEventListener("offline", () => {
  source?.close();
  setText("live", t("Reconnecting…"));
});
window.addEventListener("online", () => {
  listen();
  sendPending();
});

// --- you: name and notifications --------------------------------------------------------

const pushable = "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

async function deviceSubscription() {
  if (!pushable) return null;
  const registration = await navigator.serviceWorker.getRegistration("/");
  return registration ? registration.pushManager.getSubscription() : null;
}

function keyBytes(b64url) {
  const b64 = b64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (b64url.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

let pushOn = false;
let nameShown = undefined;

async function drawPush() {
  const toggle = $("push-toggle");
  if (!pushable) {
    toggle.hidden = true;
    $("push-state").textContent = t("This browser cannot show notifications.");
    return;
  }
  const here = await deviceSubscription();
  pushOn = Boolean(here && you()?.notifications.push);
  toggle.hidden = false;
  toggle.textContent = pushOn ? t("Turn notifications off") : t("Notify me on this device");
  $("push-state").textContent = pushOn
    ? t("Notifications are on for this device.")
    : Notification.permission === "denied"
      ? t("Notifications are blocked for this site in the browser's settings.")
      : t("Notifications are off.");
}

async function togglePush() {
  showError("");
  const toggle = $("push-toggle");
  toggle.disabled = true;
  try {
    if (pushOn) {
      const here = await deviceSubscription();
      if (here) {
        await act("push/off", { endpoint: here.endpoint });
        await here.unsubscribe();
      }
    } else {
      const registration = await navigator.serviceWorker.register("/sw.js");
      if (await Notification.requestPermission() !== "granted") {
        $("push-state").textContent = t("Notifications are blocked for this site in the browser's settings.");
        return;
      }
      const { public_key: key } = await get("/api/push-key");
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(key),
      });
      await act("push", { ...subscription.toJSON(), time_zone: timeZone() });
    }
  } catch (e) {
    // The service's failures are said by `failed`. The browser's own (no push service, a
    // worker it refused) come in its words and language: the page says what they mean
    // instead. Turning off, the seat stops at the server first, so the state line says it.
    if (e.offline || e.status) failed(e);
    else if (!pushOn) showError(t("This browser cannot show notifications."));
  } finally {
    toggle.disabled = false;
    await drawPush();
  }
}

function drawYou() {
  const me = you();
  $("you-panel").hidden = !me || state.view.status === "expired";
  if (!me) return;
  if (nameShown !== me.name) {
    nameShown = me.name;
    $("rename-input").value = me.name ?? "";
    $("rename-input").placeholder = defaultName(me.side);
  }
  drawPush();
  const email = state.view.terms.email;
  $("email-form").hidden = !email;
  if (email) {
    $("email-off").hidden = !me.notifications.email;
    $("email-on").hidden = me.notifications.email;
    $("email-input").hidden = me.notifications.email;
    if (me.notifications.email) $("email-state").textContent = t("Mails are on for your turns.");
  }
}

$("rename-form").addEventListener("submit", (event) => {
  event.preventDefault();
  act("name", { name: $("rename-input").value });
});
$("push-toggle").addEventListener("click", togglePush);
$("email-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const address = $("email-input").value;
  if (await act("email", { address, time_zone: timeZone() })) {
    $("email-state").textContent = t("A link was sent to {address}: follow it to turn mails on.", { address });
  }
});
$("email-off").addEventListener("click", async () => {
  if (await act("email/off", {})) $("email-state").textContent = t("Mails are off.");
});

// --- share, other device, start -------------------------------------------------------

for (const b of document.querySelectorAll("[data-copy]")) {
  b.addEventListener("click", () => copyFrom($(b.dataset.copy), b));
}

// Phones share as phones do: the system's share sheet with the invitation in the player's
// language; where there is none, the link is copied instead.
async function shareRoom(shareButton) {
  const url = $("share-url").value;
  const text = t("Let's play checkers ({rule_set}), each at our own pace.", { rule_set: state.view.rule_set.name });
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title: document.title, text, url });
      return;
    } catch (e) {
      if (e?.name === "AbortError") return; // the player closed the sheet
    }
  }
  copyFrom($("share-url"), shareButton);
}
const shareButton = $("share-native");
shareButton.hidden = false;
shareButton.addEventListener("click", () => shareRoom(shareButton));

$("device-link").addEventListener("click", async () => {
  try {
    const link = await post(`${base}/device-link`, {});
    $("device-url").value = link.url;
    $("device-row").hidden = false;
    setText("device-note", t("Open this private link on your other device before {time}. It works once, then this browser gives up the seat. Do not share it.", { time: when(link.expires_at) }));
  } catch (e) {
    failed(e);
  }
});

async function continueFromLink() {
  const match = window.location.hash.match(/^#continue=([A-Za-z0-9_-]+)$/);
  if (!match) return;
  history.replaceState(null, "", window.location.pathname);
  try {
    setView(await post(`${base}/continue`, { secret: match[1] }));
    rememberRoom(roomId);
    announce(t("This browser now holds your seat."));
  } catch (e) {
    failed(e);
  }
}

/** How this rule set writes its games, said once under the moves. */
function notationNote() {
  const n = notation;
  const params = { rule_set: state.view.rule_set.name, drums: n.colour("drums"), tires: n.colour("tires") };
  return n.customary === "numeric"
    ? t("{rule_set} notation: the drums are {drums}, the tires {tires}; moves are written with numbers 1-32.", params)
    : t("{rule_set} notation: the drums are {drums}, the tires {tires}; moves are written with squares a1-h8.", params);
}

bindBoardTools(notation, {
  changed: () => render({ pieces: false }),
  flip: () => {
    state.flipped = !state.flipped;
    render();
  },
});

// --- while you were away ---------------------------------------------------------------

// What the opponent did, by the event's kind, said with their name.
const RIVAL_DID = {
  joined: (name) => t("{name} accepted your invitation.", { name }),
  draw_offered: (name) => t("{name} offered a draw.", { name }),
  draw_accepted: (name) => t("{name} accepted your draw offer.", { name }),
  draw_declined: (name) => t("{name} declined your draw offer.", { name }),
  rematch_offered: (name) => t("{name} offered a rematch.", { name }),
  rematch_accepted: (name) => t("{name} accepted the rematch: a new game began.", { name }),
  rematch_declined: (name) => t("{name} declined the rematch.", { name }),
  resigned: (name) => t("{name} resigned.", { name }),
  forfeit_claimed: (name) => t("{name} claimed the win on time.", { name }),
  time_given: (name) => t("{name} gave you one more day.", { name }),
  chat: (name) => t("{name} wrote to you in the chat.", { name }),
};

/** What the record says happened since `events` began, told to the player `me`: the
 * opponent's moves, the replies their plan played, offers and answers, a resignation, a
 * claim that opened, a new game. */
function awayLines(events, me) {
  const lines = [];
  const rival = nameOf(other(me.side));
  let moves = [];
  const flushMoves = () => {
    if (!moves.length) return;
    const shownMoves = moves.length > 6 ? ["…", ...moves.slice(-6)] : moves;
    lines.push(nt("{name} played {n} move: {moves}", "{name} played {n} moves: {moves}", moves.length, { name: rival, moves: shownMoves.join(", ") }));
    moves = [];
  };
  for (const event of events) {
    const d = event.data || {};
    const mine = d.seat === me.seat;
    if (event.kind === "move") {
      const move = notation.path(d.path, (d.captured || []).length > 0);
      if (d.side !== me.side) {
        moves.push(move);
        continue;
      }
      flushMoves();
      if (d.conditional) lines.push(t("Your planned reply {move} was played.", { move }));
      continue;
    }
    flushMoves();
    const said = event.kind === "claim_open"
      ? (d.seat === undefined || mine ? t("You may claim the win now.") : null)
      : !mine && RIVAL_DID[event.kind] ? RIVAL_DID[event.kind](rival) : null;
    if (said) lines.push(said);
  }
  flushMoves();
  return lines;
}

/** On opening the room, what happened since this player last looked, above the fold. */
async function tellWhatHappened() {
  const me = you();
  const seen = seenVersion(roomId);
  if (!me || seen === null || seen >= state.view.version) return;
  let events = [];
  try {
    // The seat's own record (through its cookie): the chat is in it.
    const page = await get(`${base}/events?after=${seen}&limit=500`);
    events = page.events;
  } catch {
    return; // a convenience: the board itself is up to date
  }
  const lines = awayLines(events, me);
  if (!lines.length) return;
  $("away-list").replaceChildren(...lines.map((line) => el("li", line)));
  // What the box says is not said twice below it: the last move, an offer made meanwhile.
  const rival = (event) => event.data?.seat !== undefined && event.data.seat !== me.seat;
  $("away").classList.toggle("says-move", events.some((e) => e.kind === "move" && e.data?.side !== me.side));
  $("away").classList.toggle("says-offer", events.some((e) => e.kind.endsWith("_offered") && rival(e)));
  $("away").hidden = false;
}

/** The player has seen the room as it stands whenever its page is in front of them. */
function noteSeen() {
  if (you() && document.visibilityState === "visible") markSeen(roomId, state.view.version);
}

$("away-close").addEventListener("click", () => {
  $("away").hidden = true;
});
document.addEventListener("visibilitychange", noteSeen);

async function start() {
  // A page opened offline is the copy kept when it was last loaded: its clock reading is
  // old, and the view kept since may be newer.
  setView(navigator.onLine ? initial : { ...initial, now: null });
  render();
  performance.mark("board-shown");
  if (you()) await drawPush().catch(() => undefined);
  // The panels, drawn whole, are shown at once (see #room.drawn in the stylesheet).
  $("room").classList.add("drawn");
  const kept = await keptView(roomId);
  if (kept && kept.version > state.view.version) setView(kept);
  await continueFromLink();
  if (you()) rememberRoom(roomId);
  render();
  await tellWhatHappened();
  noteSeen();
  listen();
  setInterval(tick, 1000);
}

start();
