// The read-only replay of an imported game: the board, the moves in the rule set's
// notation and the reader's notes (the record's tags are drawn by the template, in the
// record's order).
import { BoardView, parseFen, sideIcon } from "./board.js";
import { SIDE_NAME, el } from "./common.js";
import { coded, number, t } from "./i18n.js";
import { Notation, bindBoardTools } from "./notation.js";
import { ReviewPanel } from "./review.js";

const $ = (id) => document.getElementById(id);
const game = JSON.parse($("game-data").textContent);
const notation = new Notation(game.rule_set);
const board = new BoardView($("board"), { notation });
const state = { ply: game.moves.length, flipped: false };

const other = (side) => (side === "drums" ? "tires" : "drums");
const bottomSide = () => (state.flipped ? "tires" : "drums");

function piecesAt(ply) {
  return parseFen(ply > 0 ? game.moves[ply - 1].fen_after : game.start_fen).pieces;
}

/** A side as the record names it: its colour and the player the tags give. */
function playerLine(node, side) {
  const colour = notation.colour(side);
  const who = game.tags[notation.colours[side]]; // the tag is named in English: White, Black
  const parts = [sideIcon(side), el("span", `${SIDE_NAME[side]} (${colour})`, "seat-role")];
  if (who) parts.push(el("span", "·", "sep"), el("bdi", who, "name"));
  node.replaceChildren(...parts);
}

function drawMoves() {
  const items = [];
  for (const m of game.moves) {
    if (m.side === "drums" || items.length === 0) {
      items.push(el("li", `${m.number}.`, "num"));
      if (m.side === "tires") items.push(el("li"));
    }
    const li = el("li");
    const b = el("button", notation.move(m));
    b.type = "button";
    b.title = `${SIDE_NAME[m.side]} (${notation.colour(m.side)}): ${notation.otherForm(m)}`;
    b.setAttribute("aria-label", t("Replay move {ply}: {side} {move}", { ply: m.ply, side: SIDE_NAME[m.side], move: notation.move(m) }));
    if (m.ply === state.ply) b.setAttribute("aria-current", "true");
    b.addEventListener("click", () => show(m.ply, true));
    li.append(b);
    const mark = review.mark(m.ply);
    if (mark) li.append(mark);
    items.push(li);
  }
  $("moves").replaceChildren(...items);
}

function setText(id, text) {
  const node = $(id);
  node.hidden = !text;
  node.textContent = text || "";
}

function render({ pieces = true } = {}) {
  board.orient(bottomSide());
  if (pieces) board.setPieces(piecesAt(state.ply));
  const last = state.ply > 0 ? game.moves[state.ply - 1] : null;
  board.mark({ last: last ? last.path : [] });
  playerLine($("player-top"), other(bottomSide()));
  playerLine($("player-bottom"), bottomSide());
  drawMoves();
  board.arrow(review.bestAfter(state.ply));
  const total = game.moves.length;
  $("replay-pos").textContent = state.ply === total
    ? t("move {ply} (end)", { ply: total })
    : `${number(state.ply)} / ${number(total)}`;
  setText("last-move", last ? t("Last move: {side} {move}", { side: SIDE_NAME[last.side], move: notation.move(last) }) : null);
  for (const b of $("replay").querySelectorAll("button")) {
    const kind = b.dataset.replay;
    b.disabled = kind === "start" || kind === "back" ? state.ply === 0 : state.ply === total;
  }
  $("notation-note").textContent = t("{rule_set} notation: the drums are {drums}, the tires {tires}.", {
    rule_set: game.rule_set.name, drums: notation.colour("drums"), tires: notation.colour("tires"),
  });
}

async function show(ply, animate) {
  const target = Math.max(0, Math.min(ply, game.moves.length));
  if (animate && target === state.ply + 1) {
    const m = game.moves[target - 1];
    state.ply = target;
    render({ pieces: false });
    await board.animate(m.path, m.captured, piecesAt(target));
    return;
  }
  state.ply = target;
  render();
}

$("replay").addEventListener("click", (event) => {
  const kind = event.target.closest("button")?.dataset.replay;
  if (kind === "start") show(0, false);
  if (kind === "back") show(state.ply - 1, false);
  if (kind === "forward") show(state.ply + 1, true);
  if (kind === "live") show(game.moves.length, false);
});

function drawRecord() {
  setText("start-position", game.start_position ? t("Set-up start: {fen}", { fen: game.start_position }) : null);
  const end = game.service_end;
  setText("service-end", end
    ? t("This service's rules would have ended the game at ply {ply} ({termination}); every recorded move is replayed.", { ply: end.ply, termination: end.termination })
    : null);
  $("notes-panel").hidden = game.notes.length === 0;
  $("notes").replaceChildren(
    ...game.notes.map((n) => el("li", t("Line {line}, column {column}: {text}", { ...n, text: coded(n.code, n.params, n.text) }))),
  );
}

bindBoardTools(notation, {
  changed: () => render({ pieces: false }),
  flip: () => {
    state.flipped = !state.flipped;
    render();
  },
});

const review = new ReviewPanel({
  notation,
  jump: (ply) => show(ply, false),
  changed: () => render({ pieces: false }),
});

drawRecord();
render();
review.show(`/api/imported-games/${encodeURIComponent(game.id)}/review`);
