// A scratch board: moves for both sides played on a board of its own, tap by tap and hop
// by hop as on the main board, with the legal moves of each position from the rules
// (`/api/rule-sets/{key}/moves`, which gives moves and nothing of their worth).
import { BoardView, parseFen } from "./board.js";
import { get } from "./common.js";

export class ScratchBoard {
  /** `played(move)` hears of each move once it is on the board; `redraw()` asks the
   * owner to draw (it calls `draw`). */
  constructor(node, { notation, ruleSet, played, redraw }) {
    this.board = new BoardView(node, { onSquare: (s) => this.tap(s), notation });
    this.ruleSet = ruleSet;
    this.played = played;
    this.redraw = redraw;
    this.positions = [];
    this.line = []; // the moves played from the start, engine notations
    this.moves = []; // the legal moves of the position on the board
    this.selection = [];
    this.active = false;
  }

  /** Begin at `fen`, then play `line` (engine notations) on from it. */
  async start(fen, line = []) {
    this.positions = [fen];
    this.line = [];
    this.selection = [];
    this.active = true;
    await this.load();
    for (const text of line) {
      const move = this.moves.find((m) => m.engine_notation === text);
      if (!move) break;
      await this.push(move);
    }
  }

  stop() {
    this.active = false;
  }

  get fen() {
    return this.positions.at(-1);
  }

  get depth() {
    return this.positions.length - 1;
  }

  async load() {
    const url = `/api/rule-sets/${this.ruleSet}/moves?fen=${encodeURIComponent(this.fen)}`;
    this.moves = (await get(url)).moves;
  }

  /** Draw the position with `bottom` at the bottom, marking what may be tapped. */
  draw(bottom) {
    this.board.orient(bottom);
    this.board.setPieces(parseFen(this.fen).pieces);
    const sel = this.selection;
    const cands = this.moves.filter((m) => sel.every((sq, i) => m.path[i] === sq));
    this.board.mark({
      selectable: sel.length ? [] : [...new Set(this.moves.map((m) => m.path[0]))],
      selected: sel.length ? sel.at(-1) : null,
      targets: sel.length ? [...new Set(cands.map((m) => m.path[sel.length]).filter(Boolean))] : [],
      taken: sel.length ? [...new Set(cands.flatMap((m) => m.captured))] : [],
      path: sel,
    });
  }

  async tap(square) {
    if (!this.active) return;
    const sel = this.selection;
    if (!sel.length) {
      if (this.moves.some((m) => m.path[0] === square)) this.selection = [square];
      this.redraw();
      return;
    }
    const cands = this.moves.filter((m) => sel.every((sq, i) => m.path[i] === sq));
    const next = new Set(cands.map((m) => m.path[sel.length]).filter(Boolean));
    if (!next.has(square)) {
      this.selection = this.moves.some((m) => m.path[0] === square) ? [square] : [];
      this.redraw();
      return;
    }
    sel.push(square);
    const rest = this.moves.filter((m) => sel.every((sq, i) => m.path[i] === sq));
    const done = rest.find((m) => m.path.length === sel.length);
    if (done && rest.every((m) => m.path.length === sel.length)) {
      this.selection = [];
      await this.push(done);
      await this.played(done);
    }
    this.redraw();
  }

  async push(move) {
    this.positions.push(move.fen_after);
    this.line.push(move.engine_notation);
    await this.load();
  }

  /** Take the last move back. */
  async undo() {
    if (this.positions.length === 1) return;
    this.positions.pop();
    this.line.pop();
    this.selection = [];
    await this.load();
  }
}
