// Planning ahead (conditional moves): while the opponent is to move, the player tries a
// line on a scratch board, their move then the reply, as deep as they like, and keeps it.
// The server checks every stored move; the lines are shown to their seat only.
import { t } from "./i18n.js";
import { el } from "./common.js";
import { ScratchBoard } from "./scratch.js";

const $ = (id) => document.getElementById(id);

/** An engine notation ("22x15x6") as the reader writes it. */
export function written(notation, text) {
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
    this.scratch = new ScratchBoard($("plan-board"), {
      notation, ruleSet, played: (move) => this.play(move), redraw: () => this.draw(),
    });
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
    this.pending = null;
    this.editing = true;
    await this.scratch.start(v.game.fen);
    this.render();
  }

  end() {
    this.editing = false;
    this.scratch.stop();
    this.render();
  }

  /** Whose move the scratch board waits for: theirs, then yours, in turn. */
  theirTurn() {
    return this.scratch.depth % 2 === 0;
  }

  draw() {
    this.scratch.draw(this.view().you.side);
    const done = this.line.map(([their, reply]) =>
      t("if {their}, {reply}", { their: written(this.notation, their), reply: written(this.notation, reply) }));
    const step = this.scratch.moves.length === 0 ? t("The game would be over here.")
      : this.theirTurn() ? t("Play your opponent's move on this board.") : t("Now play your reply.");
    $("plan-step").textContent = step;
    $("plan-draft").textContent = done.length ? t("This line: {line}", { line: done.join(t("; then ")) }) : "";
    $("plan-keep").disabled = this.line.length === 0 || !this.theirTurn();
    $("plan-undo").disabled = this.scratch.depth === 0;
  }

  /** A move is on the scratch board (the turn has passed: the reply closes a pair). */
  play(move) {
    if (!this.theirTurn()) this.pending = move.engine_notation;
    else this.line.push([this.pending, move.engine_notation]);
  }

  async undo() {
    if (this.scratch.depth === 0) return;
    if (!this.theirTurn()) this.pending = null;
    else this.pending = this.line.pop()?.[0] ?? null;
    await this.scratch.undo();
    this.draw();
  }

  async keep() {
    const tree = this.view().you.conditional?.lines ?? [];
    if (await this.save(merged(tree, this.line))) this.end();
  }
}
