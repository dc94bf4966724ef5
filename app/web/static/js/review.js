// The computer's review of a finished game on a page: asking for it, its progress, the
// evaluation graph (click a point to go to that position), the judgement of each move,
// and the Executive's move in the position shown, drawn as an arrow.
import { number, nt, t } from "./i18n.js";
import { el, get, post } from "./common.js";

const SVG = "http://www.w3.org/2000/svg";
const MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const JUDGEMENT = { inaccuracy: t("inaccuracy"), mistake: t("mistake"), blunder: t("blunder") };
const W = 300;
const H = 90;

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

export class ReviewPanel {
  /** `jump(ply)` shows the position after `ply` moves; `changed()` redraws what shows
   * the review (the moves, the arrow). */
  constructor({ notation, jump, changed }) {
    this.notation = notation;
    this.jump = jump;
    this.changed = changed;
    this.url = null;
    this.review = null;
    this.timer = null;
    document.getElementById("review-ask").addEventListener("click", () => this.ask());
  }

  /** Follow the review of the game at `url` (null: no finished game is shown). Until one
   * is `known` to have been asked for, nothing is fetched: the button asks. */
  async show(url, known = true) {
    if (url === this.url && (known === this.known || this.review)) return;
    this.url = url;
    this.known = known;
    this.review = null;
    clearTimeout(this.timer);
    document.getElementById("review-panel").hidden = !url;
    this.draw();
    if (!url || !known) return;
    try {
      this.review = await get(url);
    } catch {
      this.review = null; // not reviewed yet: the button asks
    }
    this.follow();
  }

  async ask() {
    const button = document.getElementById("review-ask");
    button.disabled = true;
    try {
      this.review = await post(this.url, {});
      this.follow();
    } catch (e) {
      document.getElementById("review-state").textContent = e.message;
    } finally {
      button.disabled = false;
    }
  }

  follow() {
    this.draw();
    this.changed();
    if (this.review && this.review.status !== "done") {
      const url = this.url;
      this.timer = setTimeout(async () => {
        if (url !== this.url) return;
        try {
          this.review = await get(url);
        } catch {
          /* try again next time */
        }
        this.follow();
      }, 1000);
    }
  }

  /** The judgement of the move that reached `ply`, if the review made one. */
  judgement(ply) {
    return this.review?.moves[ply - 1]?.judgement ?? null;
  }

  /** A mark for the move list: "??" for a blunder, and so on (null: none). */
  mark(ply) {
    const judgement = this.judgement(ply);
    if (!judgement) return null;
    const node = el("span", MARK[judgement], `judgement ${judgement}`);
    node.title = judgement;
    node.setAttribute("aria-label", judgement);
    return node;
  }

  /** The Executive's move in the position after `ply` moves (its squares), if known. */
  bestAfter(ply) {
    return this.review?.moves[ply]?.best_path ?? null;
  }

  draw() {
    const r = this.review;
    const state = document.getElementById("review-state");
    document.getElementById("review-ask").hidden = Boolean(r);
    const graph = document.getElementById("review-graph");
    if (!r) {
      state.textContent = t("Ask the Executive to look at every position of this game.");
      graph.replaceChildren();
      return;
    }
    state.textContent = r.status === "done"
      ? this.summary()
      : t("Reviewing: {done} of {positions} positions.", { done: r.done, positions: r.positions });
    graph.replaceChildren(this.chart());
  }

  summary() {
    const count = (kind) => this.review.moves.filter((m) => m.judgement === kind).length;
    const parts = [
      nt("{n} blunder", "{n} blunders", count("blunder")),
      nt("{n} mistake", "{n} mistakes", count("mistake")),
      nt("{n} inaccuracy", "{n} inaccuracies", count("inaccuracy")),
    ];
    return t("Reviewed: {counts}. Click the graph to go to a position.", { counts: parts.join(", ") });
  }

  chart() {
    const r = this.review;
    const n = Math.max(1, r.graph.length - 1);
    const x = (i) => (i / n) * W;
    const y = (score) => H / 2 - (score / 1000) * (H / 2 - 4);
    const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "eval-graph", role: "img" });
    chart.setAttribute("aria-label", t("Evaluation of every position, from the drums' side"));
    chart.append(svg("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "eval-zero" }));
    const known = r.graph.map((s, i) => [i, s]).filter(([, s]) => s !== null);
    chart.append(svg("polyline", {
      points: known.map(([i, s]) => `${x(i).toFixed(1)},${y(s).toFixed(1)}`).join(" "),
      class: "eval-line",
    }));
    for (const [i, s] of known) {
      const judgement = i > 0 ? this.judgement(i) : null;
      const dot = svg("circle", {
        cx: x(i).toFixed(1), cy: y(s).toFixed(1), r: judgement ? 4 : 2.6,
        class: `eval-point${judgement ? ` ${judgement}` : ""}`, "data-ply": i, tabindex: 0,
      });
      const title = svg("title", {});
      const score = number(s / 100, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      title.textContent = judgement
        ? t("After move {ply}: {score} ({judgement})", { ply: i, score, judgement: JUDGEMENT[judgement] })
        : t("After move {ply}: {score}", { ply: i, score });
      dot.append(title);
      dot.addEventListener("click", () => this.jump(i));
      dot.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") this.jump(i);
      });
      chart.append(dot);
    }
    return chart;
  }
}
