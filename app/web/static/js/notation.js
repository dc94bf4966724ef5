// The rule set's own notation on a page: each engine square's number and name in the
// tradition (the table the server sends with the rule set), the reader's choice between
// numeric and algebraic (remembered per rule set in this browser), and the board's
// square numbers (remembered for every board).
import { t } from "./i18n.js";

const FILES = "abcdefgh";
const STYLE_KEY = (ruleSet) => `checkers.notation.${ruleSet}`;
const NUMBERS_KEY = "checkers.square-numbers";

function read(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // private mode: the defaults hold
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
}

/** The style this browser reads a rule set in: the reader's choice, else its custom. */
export function styleFor(ruleSet) {
  const chosen = read(STYLE_KEY(ruleSet.key));
  return chosen === "numeric" || chosen === "algebraic" ? chosen : ruleSet.notation.style;
}

/** A move of the API (it carries both forms) in the style this browser reads. */
export function moveText(ruleSet, move) {
  return styleFor(ruleSet) === "numeric" ? move.numeric : move.algebraic;
}

export class Notation {
  constructor(ruleSet) {
    const n = ruleSet.notation;
    this.ruleSet = ruleSet;
    this.customary = n.style;
    this.mirrored = n.mirrored;
    this.colours = n.colours;
    this.numbers = new Map(n.squares.map((s) => [s.square, s.number]));
    this.names = new Map(n.squares.map((s) => [s.square, s.name]));
    this.style = styleFor(ruleSet);
    this.showNumbers = read(NUMBERS_KEY) === "1";
  }

  setStyle(style) {
    this.style = style;
    write(STYLE_KEY(this.ruleSet.key), style);
  }

  setShowNumbers(on) {
    this.showNumbers = on;
    write(NUMBERS_KEY, on ? "1" : "0");
  }

  /** Engine square 1-32 as the tradition writes it in `style` (the reader's by default). */
  square(square, style = this.style) {
    return style === "numeric" ? String(this.numbers.get(square)) : this.names.get(square);
  }

  /** A square for an accessible name: "square 22" or "c3". */
  squareLabel(square) {
    return this.style === "numeric" ? t("square {number}", { number: this.numbers.get(square) }) : this.names.get(square);
  }

  /** A path of engine squares as a move: `-` for a step, `x` between numbers and `:`
   * between names for a capture. */
  path(path, capture, style = this.style) {
    const sep = !capture ? "-" : style === "numeric" ? "x" : ":";
    return path.map((s) => this.square(s, style)).join(sep);
  }

  /** A move of the API in the reader's style. */
  move(move) {
    return this.style === "numeric" ? move.numeric : move.algebraic;
  }

  /** The other style's form of a move. */
  otherForm(move) {
    return this.style === "numeric" ? move.algebraic : move.numeric;
  }

  /** The tradition's file letter of an engine file (0 = a): mirrored boards read it
   * from the other edge. */
  file(file) {
    return FILES[this.mirrored ? 7 - file : file];
  }

  /** A side's colour in the tradition ("White" or "Black", in the page's language). */
  colour(side) {
    return this.colours[side] === "White" ? t("White") : t("Black");
  }
}

/** Wire the board's tools: the notation choice, square numbers and flipping.
 * `changed()` is called after each change. Missing controls are skipped. */
export function bindBoardTools(notation, { changed, flip }) {
  for (const radio of document.querySelectorAll('input[name="notation-style"]')) {
    radio.checked = radio.value === notation.style;
    radio.addEventListener("change", () => {
      if (!radio.checked) return;
      notation.setStyle(radio.value);
      changed();
    });
  }
  const numbers = document.getElementById("numbers-toggle");
  if (numbers) {
    numbers.checked = notation.showNumbers;
    numbers.addEventListener("change", () => {
      notation.setShowNumbers(numbers.checked);
      changed();
    });
  }
  const flipButton = document.getElementById("flip");
  if (flipButton && flip) flipButton.addEventListener("click", flip);
}
