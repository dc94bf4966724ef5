// The board: square geometry, FEN reading, drawing, hop-by-hop animation, input.
// Squares are the engine's numbers 1-32 (English PDN numbering, drums on 1-12); what the
// board shows of them (coordinates, square numbers, accessible names) is the rule set's
// tradition, from a `Notation` (notation.js). Italian and Spanish boards are drawn
// mirrored, as those traditions lay the board.
import { t } from "./i18n.js";

// A piece in words: a man ("drum") or a king ("drum king") of each side.
const PIECE = { drums: [t("drum"), t("drum king")], tires: [t("tire"), t("tire king")] };

const FILES = "abcdefgh";
const HOP_MS = 190;

/** File (0 = a) and rank (0 = rank 1) of square 1..32. */
export function coords(square) {
  const row = Math.floor((square - 1) / 4);
  const i = (square - 1) % 4;
  return { file: row % 2 === 0 ? 6 - 2 * i : 7 - 2 * i, rank: row };
}

/** The square number at a file and rank, or null for a light square. */
export function squareAt(file, rank) {
  if ((file + rank) % 2 !== 0) return null;
  const i = rank % 2 === 0 ? (6 - file) / 2 : (7 - file) / 2;
  return rank * 4 + i + 1;
}

export function squareName(square) {
  const { file, rank } = coords(square);
  return `${FILES[file]}${rank + 1}`;
}

/** Pieces of a PDN FEN (`B:W21,22,K30:B1,2,3`; B = drums, W = tires). */
export function parseFen(fen) {
  const pieces = new Map();
  const [turn, ...fields] = fen.trim().split(":");
  for (const field of fields) {
    const side = field[0] === "B" ? "drums" : "tires";
    for (const item of field.slice(1).split(",")) {
      if (!item) continue;
      const king = item.startsWith("K");
      const body = king ? item.slice(1) : item;
      const [from, to] = body.split("-").map(Number);
      for (let s = from; s <= (to || from); s += 1) pieces.set(s, { side, king });
    }
  }
  return { turn: turn === "B" ? "drums" : "tires", pieces };
}

/** The starting position of a rule set (12 men a side, or 8 in Thai). */
export function startPieces(menPerSide) {
  const pieces = new Map();
  for (let s = 1; s <= menPerSide; s += 1) pieces.set(s, { side: "drums", king: false });
  for (let s = 33 - menPerSide; s <= 32; s += 1) pieces.set(s, { side: "tires", king: false });
  return pieces;
}

const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });
const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
const SVG = "http://www.w3.org/2000/svg";

function use(id, cls) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", id === "crown" ? "0 0 100 60" : "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  if (cls) svg.setAttribute("class", cls);
  const u = document.createElementNS(SVG, "use");
  u.setAttribute("href", `#${id}`);
  svg.append(u);
  return svg;
}

/** An icon of a side's man (for labels outside the board). */
export function sideIcon(side) {
  return use(side === "drums" ? "drum" : "tire");
}

export class BoardView {
  /** `onSquare(square)` is called when a dark square is tapped, clicked, activated
   * with the keyboard, or a dragged piece is dropped on it (`onDragStart` first). */
  constructor(root, { onSquare = () => {}, onDragStart = () => {}, notation = null }) {
    this.root = root;
    this.onSquare = onSquare;
    this.onDragStart = onDragStart;
    this.notation = notation;
    this.bottom = null;
    this.drawn = null; // what the squares were drawn for: side, style, numbers
    this.cells = new Map(); // square -> button
    this.elements = new Map(); // square -> piece element
    this.pieces = new Map();
    this.focusSquare = null;
    this.squares = document.createElement("div");
    this.squares.className = "squares";
    this.layer = document.createElement("div");
    this.layer.className = "pieces";
    this.layer.setAttribute("aria-hidden", "true");
    // Coordinates and square numbers are drawn over the squares, not inside them: each
    // square's accessible name says its name and what stands on it, and nothing else.
    this.overlay = document.createElement("div");
    this.overlay.className = "coords";
    this.overlay.setAttribute("aria-hidden", "true");
    root.append(this.squares, this.overlay, this.layer);
    this.squares.addEventListener("click", (e) => this.click(e));
    this.squares.addEventListener("keydown", (e) => this.key(e));
    root.addEventListener("pointerdown", (e) => this.pointerDown(e));
  }

  /** Draw the 64 squares with `side` at the bottom: the tradition's coordinates on the
   * edges and, when asked for, its number on each dark square. */
  orient(side) {
    const n = this.notation;
    const drawn = `${side} ${n ? `${n.mirrored} ${n.showNumbers}` : ""}`;
    if (drawn === this.drawn) return;
    this.drawn = drawn;
    this.bottom = side;
    this.squares.replaceChildren();
    this.overlay.replaceChildren();
    this.cells.clear();
    this.root.classList.toggle("mirrored", Boolean(n?.mirrored));
    this.root.classList.toggle("numbered", Boolean(n?.showNumbers));
    for (let row = 0; row < 8; row += 1) {
      for (let col = 0; col < 8; col += 1) {
        const { file, rank } = this.fileRank(col, row);
        const square = squareAt(file, rank);
        const cell = document.createElement(square ? "button" : "div");
        cell.className = `sq ${square ? "dark" : "light"}`;
        if (square) {
          cell.type = "button";
          cell.dataset.square = String(square);
          cell.tabIndex = -1;
          this.cells.set(square, cell);
        }
        const labels = [];
        if (square && n?.showNumbers) labels.push(this.label("num", String(n.numbers.get(square))));
        if (col === 0) labels.push(this.label("rank", String(rank + 1)));
        if (row === 7) labels.push(this.label("file", n ? n.file(file) : FILES[file]));
        if (labels.length) {
          const spot = document.createElement("div");
          spot.className = `coord-cell ${square ? "dark" : "light"}`;
          spot.dataset.cell = String(row * 8 + col); // screen order, as the squares
          spot.style.transform = `translate(${col * 100}%, ${row * 100}%)`;
          spot.append(...labels);
          this.overlay.append(spot);
        }
        this.squares.append(cell);
      }
    }
    const first = this.focusSquare && this.cells.get(this.focusSquare);
    (first || this.cells.get(side === "tires" ? 29 : 4)).tabIndex = 0;
    for (const [square, el] of this.elements) this.place(el, square);
    this.describe();
    this.arrow(this.arrowPath ?? null);
  }

  /** An arrow along `path` (engine squares: a move, every landing), or none. */
  arrow(path) {
    this.arrowPath = path;
    this.arrowLayer?.remove();
    this.arrowLayer = null;
    if (!path || path.length < 2) return;
    const layer = document.createElementNS(SVG, "svg");
    layer.setAttribute("viewBox", "0 0 8 8");
    layer.setAttribute("class", "arrow-layer");
    layer.setAttribute("aria-hidden", "true");
    const defs = document.createElementNS(SVG, "defs");
    const marker = document.createElementNS(SVG, "marker");
    for (const [k, v] of Object.entries({ id: "arrow-head", viewBox: "0 0 4 4", refX: "2",
      refY: "2", markerWidth: "3", markerHeight: "3", orient: "auto" })) marker.setAttribute(k, v);
    const head = document.createElementNS(SVG, "path");
    head.setAttribute("d", "M0,0 L4,2 L0,4 z");
    marker.append(head);
    defs.append(marker);
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", path.map((square) => {
      const { col, row } = this.colRow(square);
      return `${col + 0.5},${row + 0.5}`;
    }).join(" "));
    line.setAttribute("marker-end", "url(#arrow-head)");
    layer.append(defs, line);
    this.root.append(layer);
    this.arrowLayer = layer;
  }

  label(kind, text) {
    const span = document.createElement("span");
    span.className = `coord ${kind}`;
    span.textContent = text;
    return span;
  }

  /** Whether files run right to left on the screen: a board seen from the tires' side,
   * or a mirrored tradition's board seen from the drums' (not both). */
  get flipFiles() {
    return (this.bottom === "tires") !== Boolean(this.notation?.mirrored);
  }

  fileRank(col, row) {
    const file = this.flipFiles ? 7 - col : col;
    return { file, rank: this.bottom === "tires" ? row : 7 - row };
  }

  colRow(square) {
    const { file, rank } = coords(square);
    return { col: this.flipFiles ? 7 - file : file, row: this.bottom === "tires" ? rank : 7 - rank };
  }

  place(el, square) {
    const { col, row } = this.colRow(square);
    el.style.transform = `translate(${col * 100}%, ${row * 100}%)`;
    el.dataset.at = String(square);
  }

  makePiece(piece) {
    const el = document.createElement("div");
    el.className = `piece ${piece.side}${piece.king ? " king" : ""}`;
    // The figure is what is drawn (the man, a king's crown, the rings that mark it); the
    // element around it takes the square, so that the figure can leave room for its number.
    const figure = document.createElement("div");
    figure.className = "figure";
    const stack = document.createElement("div");
    stack.className = "stack";
    stack.append(use(piece.side === "drums" ? "drum" : "tire"));
    figure.append(stack);
    if (piece.king) figure.append(use("crown", "crown"));
    el.append(figure);
    el.dataset.side = piece.side;
    el.dataset.king = piece.king ? "1" : "0";
    return el;
  }

  /** Show exactly `pieces` (Map square -> {side, king}), reusing what already stands. */
  setPieces(pieces) {
    this.pieces = new Map(pieces);
    this.previewed = null;
    for (const [square, el] of this.elements) {
      const want = pieces.get(square);
      if (!want || el.dataset.side !== want.side || (el.dataset.king === "1") !== want.king) {
        el.remove();
        this.elements.delete(square);
      } else {
        el.classList.remove("taken", "marked", "can-move");
        this.place(el, square);
      }
    }
    for (const [square, piece] of pieces) {
      if (this.elements.has(square)) continue;
      const el = this.makePiece(piece);
      this.place(el, square);
      this.layer.append(el);
      this.elements.set(square, el);
    }
    this.describe();
  }

  /** Play `path` hop by hop (captured pieces fade at the end), then show `after`. */
  async animate(path, captured, after) {
    const el = this.elements.get(path[0]);
    if (el && !reduced()) {
      el.style.zIndex = "4";
      for (const square of path.slice(1)) {
        this.place(el, square);
        await wait(HOP_MS);
      }
      for (const square of captured) this.elements.get(square)?.classList.add("taken");
      await wait(HOP_MS);
      el.style.zIndex = "";
      this.elements.delete(path[0]);
      this.elements.set(path.at(-1), el);
    }
    this.setPieces(after);
  }

  /** Move the piece standing on `from` to `to` for display only (a multi-capture being
   * entered); `setPieces` puts it back. */
  preview(from, to) {
    const el = this.elements.get(from);
    if (el) this.place(el, to);
    this.previewed = { from, to };
  }

  /** Marks: selectable starts, the selected square, targets, pieces to be taken, the
   * last move's squares, the path entered so far. */
  mark({ selectable = [], selected = null, targets = [], taken = [], last = [], path = [] }) {
    const sets = {
      selectable: new Set(selectable), target: new Set(targets), last: new Set(last),
      path: new Set(path.slice(1)),
    };
    for (const [square, cell] of this.cells) {
      cell.classList.toggle("selectable", sets.selectable.has(square));
      cell.classList.toggle("target", sets.target.has(square));
      cell.classList.toggle("last", sets.last.has(square));
      cell.classList.toggle("path", sets.path.has(square) && !sets.target.has(square));
      cell.classList.toggle("selected", square === selected);
    }
    const takenSet = new Set(taken);
    for (const [square, el] of this.elements) {
      el.classList.toggle("marked", takenSet.has(square));
      el.classList.toggle("can-move", sets.selectable.has(square) && square !== selected);
    }
    this.marks = { ...sets, taken: takenSet, selected };
    this.describe();
  }

  /** Accessible names of the squares: name, piece, what can be done there. */
  describe() {
    const marks = this.marks || {};
    for (const [square, cell] of this.cells) {
      const piece = this.pieces.get(square);
      const parts = [this.notation ? this.notation.squareLabel(square) : squareName(square)];
      parts.push(piece ? PIECE[piece.side][piece.king ? 1 : 0] : t("empty"));
      if (marks.selected === square) parts.push(t("selected"));
      else if (marks.selectable?.has(square)) parts.push(t("can move"));
      if (marks.target?.has(square)) parts.push(t("move here"));
      if (marks.taken?.has(square)) parts.push(t("to be taken"));
      cell.setAttribute("aria-label", parts.join(", "));
    }
  }

  squareFromPoint(x, y) {
    const rect = this.root.getBoundingClientRect();
    const col = Math.floor(((x - rect.left) / rect.width) * 8);
    const row = Math.floor(((y - rect.top) / rect.height) * 8);
    if (col < 0 || col > 7 || row < 0 || row > 7) return null;
    const { file, rank } = this.fileRank(col, row);
    return squareAt(file, rank);
  }

  click(event) {
    const cell = event.target.closest("button.sq");
    if (!cell || this.suppressClick) return;
    this.focus(Number(cell.dataset.square), false);
    this.onSquare(Number(cell.dataset.square));
  }

  focus(square, move = true) {
    for (const cell of this.cells.values()) cell.tabIndex = -1;
    const cell = this.cells.get(square);
    if (!cell) return;
    cell.tabIndex = 0;
    this.focusSquare = square;
    if (move) cell.focus();
  }

  /** Arrow keys move between dark squares (Enter or Space activates one). */
  key(event) {
    const cell = event.target.closest("button.sq");
    if (!cell) return;
    const { col, row } = this.colRow(Number(cell.dataset.square));
    const steps = {
      ArrowLeft: [[-2, 0]], ArrowRight: [[2, 0]],
      ArrowUp: [[-1, -1], [1, -1]], ArrowDown: [[1, 1], [-1, 1]],
    }[event.key];
    if (!steps) return;
    event.preventDefault();
    for (const [dc, dr] of steps) {
      const c = col + dc;
      const r = row + dr;
      if (c < 0 || c > 7 || r < 0 || r > 7) continue;
      const { file, rank } = this.fileRank(c, r);
      const square = squareAt(file, rank);
      if (square) {
        this.focus(square);
        return;
      }
    }
  }

  pointerDown(event) {
    if (event.button !== 0) return;
    const from = this.squareFromPoint(event.clientX, event.clientY);
    const real = this.previewed && this.previewed.to === from ? this.previewed.from : from;
    const el = from && this.elements.get(real);
    if (!el || (!this.marks?.selectable?.has(from) && this.marks?.selected !== from)) return;
    const startX = event.clientX;
    const startY = event.clientY;
    const rect = this.root.getBoundingClientRect();
    const size = rect.width / 8;
    let dragging = false;
    const move = (e) => {
      if (!dragging && Math.hypot(e.clientX - startX, e.clientY - startY) < 6) return;
      if (!dragging) {
        dragging = true;
        this.onDragStart(from);
        el.classList.add("dragging");
      }
      const x = e.clientX - rect.left - size / 2;
      const y = e.clientY - rect.top - size / 2;
      el.style.transform = `translate(${x}px, ${y}px)`;
    };
    const up = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      window.removeEventListener("pointercancel", up);
      if (!dragging) return;
      el.classList.remove("dragging");
      this.place(el, from);
      this.suppressClick = true;
      setTimeout(() => { this.suppressClick = false; }, 0);
      const to = this.squareFromPoint(e.clientX, e.clientY);
      if (to && to !== from) this.onSquare(to);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
    window.addEventListener("pointercancel", up);
  }
}

/** A small drawing of a position (for lists of games): `bottom` is at the bottom; a
 * `mirrored` tradition's board is drawn as its players see it. */
export function miniBoard(fen, bottom, mirrored = false) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 8 8");
  svg.setAttribute("class", "mini-board");
  svg.setAttribute("aria-hidden", "true");
  const { pieces } = parseFen(fen);
  for (let s = 1; s <= 32; s += 1) {
    const { file, rank } = coords(s);
    const x = (bottom === "tires") !== mirrored ? 7 - file : file;
    const y = bottom === "tires" ? rank : 7 - rank;
    const cell = document.createElementNS(SVG, "rect");
    cell.setAttribute("x", String(x));
    cell.setAttribute("y", String(y));
    cell.setAttribute("width", "1");
    cell.setAttribute("height", "1");
    cell.setAttribute("class", "mini-dark");
    svg.append(cell);
    const piece = pieces.get(s);
    if (!piece) continue;
    const dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", String(x + 0.5));
    dot.setAttribute("cy", String(y + 0.5));
    dot.setAttribute("r", piece.king ? "0.42" : "0.34");
    dot.setAttribute("class", `mini-${piece.side}${piece.king ? " mini-king" : ""}`);
    svg.append(dot);
  }
  return svg;
}
