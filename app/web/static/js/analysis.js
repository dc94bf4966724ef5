// The analysis board: from the position on the main board (the current one or any
// earlier), the player plays moves for both sides on a board of their own; each line is
// kept on the server for their seat as it grows, so it is there on another visit or
// device. A line from the current position that starts with the opponent's move can
// become conditional moves. The board shows moves only: no evaluation while the game is on.
import { button, el, get, post } from "./common.js";
import { t } from "./i18n.js";
import { written } from "./plan.js";
import { ScratchBoard } from "./scratch.js";

const $ = (id) => document.getElementById(id);

export class AnalysisBoard {
  /** `view()` the room's view; `shown()` the game on the main board and `ply()` the ply
   * shown; `planned(view)` takes the room view after a line became conditional moves. */
  constructor({ base, notation, ruleSet, view, shown, ply, planned, failed }) {
    this.base = base;
    this.notation = notation;
    this.ruleSet = ruleSet;
    this.view = view;
    this.shown = shown;
    this.ply = ply;
    this.planned = planned;
    this.failed = failed;
    this.number = null;
    this.lines = [];
    this.open = null; // the line on the board: { id, from_ply }, id null until kept
    this.reviews = new Map(); // line id -> its computer review (once the game is over)
    this.scratch = new ScratchBoard($("analysis-board"), {
      notation, ruleSet, played: () => this.keep(), redraw: () => this.draw(),
    });
    $("analysis-start").addEventListener("click", () => this.begin());
    $("analysis-undo").addEventListener("click", () => this.undo());
    $("analysis-close").addEventListener("click", () => this.close());
  }

  url(suffix = "") {
    return `${this.base}/games/${this.number}/analysis${suffix}`;
  }

  /** Show the panel for game `number` (null: not a player). */
  show(number) {
    $("analysis-panel").hidden = number === null;
    if (number === null) return;
    if (number !== this.number) {
      this.number = number;
      this.lines = [];
      this.close();
      this.load();
    }
    this.drawLines();
  }

  async load() {
    const number = this.number;
    try {
      const body = await get(this.url());
      if (number === this.number) this.lines = body.lines;
    } catch (e) {
      this.failed(e);
    }
    this.drawLines();
  }

  /** The engine FEN after `ply` plies of the game shown. */
  fenAt(ply) {
    const g = this.shown();
    if (ply > 0) return g.moves[ply - 1].fen_after;
    return g.start_fen || this.view().rule_set.start_fen;
  }

  async begin() {
    const ply = this.ply();
    this.open = { id: null, from_ply: ply };
    await this.scratch.start(this.fenAt(ply));
    this.draw();
  }

  async resume(line) {
    this.open = { id: line.id, from_ply: line.from_ply };
    await this.scratch.start(this.fenAt(line.from_ply), line.moves);
    this.draw();
  }

  close() {
    this.open = null;
    this.scratch.stop();
    this.draw();
  }

  /** Keep the line as it stands now, after any save still under way (the first save
   * makes the line; those after it change it). */
  keep() {
    this.saving = (this.saving ?? Promise.resolve()).then(() => this.save());
    return this.saving;
  }

  async save() {
    const line = this.open;
    if (!line) return;
    const moves = [...this.scratch.line];
    try {
      const body = line.id === null
        ? await post(this.url(), { from_ply: line.from_ply, moves })
        : await post(this.url(`/${line.id}`), { moves });
      this.lines = body.lines;
      if (line.id === null) line.id = Math.max(...body.lines.map((l) => l.id));
    } catch (e) {
      this.failed(e);
    }
    this.drawLines();
  }

  async undo() {
    if (!this.open || this.scratch.depth === 0) return;
    await this.scratch.undo();
    if (this.scratch.depth === 0 && this.open.id !== null) {
      await this.forget(this.open.id);
      this.open.id = null;
    } else if (this.open.id !== null) {
      await this.keep();
    }
    this.draw();
  }

  async forget(id) {
    try {
      this.lines = (await post(this.url(`/${id}/forget`), {})).lines;
    } catch (e) {
      this.failed(e);
    }
    if (this.open?.id === id) this.close();
    this.drawLines();
  }

  /** Whether a kept line can become conditional moves now. */
  plannable(line) {
    const v = this.view();
    return Boolean(v.you && v.status === "playing" && v.game.status === "playing" && !v.you.to_move
      && this.number === v.game.number && line.from_ply === v.game.ply && line.moves.length >= 2);
  }

  async plan(line) {
    try {
      this.planned(await post(this.url(`/${line.id}/conditional`), {}));
      $("analysis-said").textContent = t("Added to your conditional moves.");
    } catch (e) {
      this.failed(e);
    }
  }

  /** Once the game is over: ask the computer to review a line, and follow it. */
  async review(line) {
    const url = this.url(`/${line.id}/review`);
    try {
      let body = await post(url, {});
      this.reviews.set(line.id, body);
      this.drawLines();
      while (body.status !== "done") {
        await new Promise((r) => { setTimeout(r, 1000); });
        body = await get(url);
        this.reviews.set(line.id, body);
        this.drawLines();
      }
    } catch (e) {
      this.failed(e);
    }
  }

  /** A line's review in words: each move with the computer's mark, and its better move
   * where one gave something away. */
  reviewed(review) {
    if (review.status !== "done") return t("The computer is reviewing this line…");
    const marks = { inaccuracy: "?!", mistake: "?", blunder: "??" };
    return review.moves.map((m) => {
      const mark = m.judgement ? marks[m.judgement] : "";
      const better = m.judgement && m.best ? ` (${t("better: {move}", { move: m.best.text })})` : "";
      return `${m.move.text}${mark}${better}`;
    }).join(" ");
  }

  describe(line) {
    const g = this.shown();
    const from = line.from_ply === 0 ? t("From the start")
      : t("After {move}", { move: `${g.moves[line.from_ply - 1]?.number}. ${this.notation.move(g.moves[line.from_ply - 1])}` });
    const moves = line.moves.map((m) => written(this.notation, m)).join(" ");
    return `${from}: ${moves || "…"}`;
  }

  draw() {
    const editing = this.open !== null;
    $("analysis-editor").hidden = !editing;
    $("analysis-start").hidden = editing;
    if (!editing) return;
    this.scratch.draw(this.view().you?.side ?? "drums");
    $("analysis-step").textContent = this.scratch.moves.length === 0
      ? t("The game would be over here.") : t("Play moves for either side; the line is kept as you go.");
    const moves = this.scratch.line.map((m) => written(this.notation, m)).join(" ");
    $("analysis-line").textContent = moves ? t("This line: {line}", { line: moves }) : "";
    $("analysis-undo").disabled = this.scratch.depth === 0;
  }

  drawLines() {
    $("analysis-lines").replaceChildren(...this.lines.map((line) => {
      const li = el("li");
      li.append(el("p", this.describe(line), "analysis-moves"));
      const actions = el("div", null, "actions");
      actions.append(button(t("Continue this line"), () => this.resume(line), "button subtle"));
      if (this.plannable(line)) {
        actions.append(button(t("Make these conditional moves"), () => this.plan(line), "button"));
      }
      if (this.shown().result && line.moves.length) {
        actions.append(button(t("Review with the computer"), () => this.review(line), "button subtle"));
      }
      actions.append(button(t("Forget"), () => this.forget(line.id), "button subtle"));
      li.append(actions);
      const review = this.reviews.get(line.id);
      if (review) li.append(el("p", this.reviewed(review), "muted small analysis-review"));
      return li;
    }));
  }
}
