// A player's private notes on the game shown: one on the game as a whole and one after
// any move. The box speaks of the position on the board (replaying a move shows its
// note); only this seat reads them (its page endpoints, by the seat's cookie).
import { button, el, get, post } from "./common.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

export class NotesPanel {
  /** `base`: the room's page endpoints; `moveText(m)` a move as the reader writes it;
   * `jump(ply)` shows a position; `failed(error)` says what went wrong. */
  constructor({ base, moveText, jump, failed }) {
    this.base = base;
    this.moveText = moveText;
    this.jump = jump;
    this.failed = failed;
    this.number = null; // the game whose notes are loaded
    this.notes = [];
    this.ply = null;
    this.moves = [];
    this.dirty = false; // the box holds text not yet saved: it keeps its move meanwhile
    $("note-input").addEventListener("input", () => { this.dirty = true; });
    $("note-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.save();
    });
  }

  url() {
    return `${this.base}/games/${this.number}/notes`;
  }

  /** Show the notes of game `number` (null: not a player) at `ply` of its `moves`. */
  show(number, ply, moves) {
    $("notes-panel").hidden = number === null;
    if (number === null) return;
    this.moves = moves;
    if (number !== this.number) {
      this.number = number;
      this.notes = [];
      this.ply = null;
      this.dirty = false;
      this.load();
    }
    if (ply !== this.ply && !this.dirty) {
      this.ply = ply;
      $("note-input").value = this.noteAt(ply)?.text ?? "";
    }
    this.draw();
  }

  noteAt(ply) {
    return this.notes.find((n) => n.ply === ply);
  }

  label(ply) {
    const m = this.moves[ply - 1];
    return ply === 0 || !m ? t("Note on the game") : t("Note after {move}", { move: `${m.number}. ${this.moveText(m)}` });
  }

  async load() {
    const number = this.number;
    try {
      const body = await get(this.url());
      if (number !== this.number) return;
      this.notes = body.notes;
      if (!this.dirty) $("note-input").value = this.noteAt(this.ply)?.text ?? "";
    } catch (e) {
      this.failed(e);
    }
    this.draw();
  }

  async save() {
    try {
      const body = await post(this.url(), { ply: this.ply, text: $("note-input").value });
      this.notes = body.notes;
      this.dirty = false;
      $("note-saved").hidden = false;
      setTimeout(() => { $("note-saved").hidden = true; }, 2000);
    } catch (e) {
      this.failed(e);
    }
    this.draw();
  }

  draw() {
    $("note-label").textContent = this.label(this.ply ?? 0);
    $("notes-list").replaceChildren(...this.notes.map((n) => {
      const li = el("li");
      li.append(button(this.label(n.ply), () => this.jump(n.ply), "button subtle note-at"));
      const text = el("p", n.text, "note-text");
      text.dir = "auto";
      li.append(text);
      return li;
    }));
  }
}
