// Planning ahead (conditional moves): while the opponent is to move, the player tries a
// line on a scratch board, their move then the reply, as deep as they like, and keeps it.
// The server checks every stored move; the lines are shown to their seat only.
import { t } from "./i18n.js";
import { BoardView, parseFen } from "./board.js";
import { el, get } from "./common.js";

const $ = (id) => document.getElementById(id);

/** An engine notation ("22x15x6") as the reader writes it. */
function written(notation, text) {
  const capture = text.includes("x");
  return notation.path(text.split(/[-x]/).map(Number), capture);
}

/** Every stored line, root to leaf, as pairs of engine notations. */
function paths(tree, prefix = []) {
  const out = [];
  for (const branch of tree) {
    const here = [...prefix, [branch.their_move, branch.reply]];
    if (branch.next.length) out.push(...paths(branch.next, here));
    else out.push(here);
  }
  return out;
}

/** The tree with `line` (pairs) added: a branch for the same move of theirs takes the
 * new reply, and what followed the old one goes with it. */
function merged(tree, line) {
  if (!line.length) return tree;
  const [[theirs, reply], ...rest] = line;
  const out = tree.map((b) => ({ ...b }));
  const same = out.find((b) => b.their_move === theirs);
  if (same && same.reply === reply) {
    same.next = merged(same.next, rest);
  } else if (same) {
    same.reply = reply;
    same.next = merged([], rest);
  } else {
    out.push({ their_move: theirs, reply, next: merged([], rest) });
  }
  return out;
}

export class Planner {
  /** `view()` gives the room's view; `save(lines)` stores them (resolving to whether it
   * worked); `ruleSet` is the rule set's key. */
  constructor({ notation, ruleSet, view, save, clear }) {
    this.notation = notation;
    this.ruleSet = ruleSet;
    this.view = view;
    this.save = save;
    this.clear = clear;
    this.board = new BoardView($("plan-board"), { onSquare: (s) => this.tap(s), notation });
    this.editing = false;
    $("plan-start").addEventListener("click", () => this.begin());
    $("plan-keep").addEventListener("click", () => this.keep());
    $("plan-undo").addEventListener("click", () => this.undo());
    $("plan-cancel").addEventListener("click", () => this.end());
    $("plan-clear").addEventListener("click", () => this.clear());
  }

  /** Whether this viewer may plan now: a seat, a game in progress, the opponent to move. */
  open() {
    const v = this.view();
    return Boolean(v.you && v.status === "playing" && v.game.status === "playing" && !v.you.to_move);
  }

  render() {
    const v = this.view();
    const mine = v.you?.conditional;
    $("plan-panel").hidden = !v.you || v.status !== "playing";
    if ($("plan-panel").hidden) return;
    if (!this.open() && this.editing) this.end();
    $("plan-start").hidden = this.editing || !this.open();
    $("plan-clear").hidden = !mine || (!mine.lines.length && !mine.note);
    const note = $("plan-note");
    note.textContent = mine?.note || "";
    note.hidden = !mine?.note;
    const lines = mine ? paths(mine.lines) : [];
    $("plan-lines").replaceChildren(...lines.map((line) => el("li", line.map(([their, reply]) =>
      t("if {their}, {reply}", { their: written(this.notation, their), reply: written(this.notation, reply) })).join(t("; then ")))));
    $("plan-empty").hidden = lines.length > 0;
    $("plan-editor").hidden = !this.editing;
    if (this.editing) this.draw();
  }

  async begin() {
    const v = this.view();
    this.line = []; // pairs of engine notations
    this.positions = [v.game.fen];
    this.selection = [];
    this.editing = true;
    await this.load();
    this.render();
  }

  end() {
    this.editing = false;
    this.render();
  }

  async load() {
    const fen = this.positions.at(-1);
    const url = `/api/rule-sets/${this.ruleSet}/moves?fen=${encodeURIComponent(fen)}`;
    this.moves = (await get(url)).moves;
  }

  /** Whose move the scratch board waits for: theirs, then yours, in turn. */
  theirTurn() {
    return (this.positions.length - 1) % 2 === 0;
  }

  draw() {
    const v = this.view();
    const pieces = parseFen(this.positions.at(-1)).pieces;
    this.board.orient(v.you.side);
    this.board.setPieces(pieces);
    const sel = this.selection;
    const cands = this.moves.filter((m) => sel.every((sq, i) => m.path[i] === sq));
    this.board.mark({
      selectable: sel.length ? [] : [...new Set(this.moves.map((m) => m.path[0]))],
      selected: sel.length ? sel.at(-1) : null,
      targets: sel.length ? [...new Set(cands.map((m) => m.path[sel.length]).filter(Boolean))] : [],
      taken: sel.length ? [...new Set(cands.flatMap((m) => m.captured))] : [],
      path: sel,
    });
    const done = this.line.map(([their, reply]) =>
      t("if {their}, {reply}", { their: written(this.notation, their), reply: written(this.notation, reply) }));
    const step = this.moves.length === 0 ? t("The game would be over here.")
      : this.theirTurn() ? t("Play your opponent's move on this board.") : t("Now play your reply.");
    $("plan-step").textContent = step;
    $("plan-draft").textContent = done.length ? t("This line: {line}", { line: done.join(t("; then ")) }) : "";
    $("plan-keep").disabled = this.line.length === 0 || !this.theirTurn();
    $("plan-undo").disabled = this.positions.length === 1;
  }

  async tap(square) {
    if (!this.editing) return;
    const sel = this.selection;
    if (!sel.length) {
      if (this.moves.some((m) => m.path[0] === square)) this.selection = [square];
      this.draw();
      return;
    }
    const cands = this.moves.filter((m) => sel.every((sq, i) => m.path[i] === sq));
    const next = new Set(cands.map((m) => m.path[sel.length]).filter(Boolean));
    if (!next.has(square)) {
      this.selection = this.moves.some((m) => m.path[0] === square) ? [square] : [];
      this.draw();
      return;
    }
    sel.push(square);
    const rest = this.moves.filter((m) => sel.every((sq, i) => m.path[i] === sq));
    const done = rest.find((m) => m.path.length === sel.length);
    if (done && rest.every((m) => m.path.length === sel.length)) await this.play(done);
    else this.draw();
  }

  async play(move) {
    this.selection = [];
    if (this.theirTurn()) this.pending = move.engine_notation;
    else this.line.push([this.pending, move.engine_notation]);
    this.positions.push(move.fen_after);
    await this.load();
    this.draw();
  }

  async undo() {
    if (this.positions.length === 1) return;
    if (!this.theirTurn()) this.pending = null;
    else this.pending = this.line.pop()?.[0] ?? null;
    this.positions.pop();
    this.selection = [];
    await this.load();
    this.draw();
  }

  async keep() {
    const tree = this.view().you.conditional?.lines ?? [];
    if (await this.save(merged(tree, this.line))) this.end();
  }
}
