// The chat between the two players of a room, below the board: the latest messages, a
// box to write one, and the switch that turns it off for this player. Messages are text
// (`el` never reads markup); new ones arrive on the seat's own live stream.
import { el, get, nameEl, post, when } from "./common.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

export class ChatPanel {
  /** `base` is the room's page endpoints; `nameOf(seat)` a player's shown name;
   * `failed(error)` says what went wrong. */
  constructor({ base, nameOf, failed }) {
    this.base = base;
    this.nameOf = nameOf;
    this.failed = failed;
    this.state = null; // the player's chat state from the room view (null: no chat)
    this.chat = null; // the chat as last read
    this.loading = null;
    $("chat-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    $("chat-switch").addEventListener("click", () => this.switch());
  }

  /** Show the panel for `chatState` (`you.chat`; null: a spectator or the computer). */
  show(chatState) {
    this.state = chatState;
    $("chat-panel").hidden = !chatState;
    if (!chatState) return;
    const stale = !this.chat || this.chat.off !== chatState.off
      || this.chat.opponent_off !== chatState.opponent_off;
    if (stale && !this.loading) this.loading = this.load().finally(() => { this.loading = null; });
    this.draw();
  }

  async load() {
    try {
      this.chat = await get(`${this.base}/chat`);
    } catch (e) {
      this.failed(e);
    }
    this.draw();
  }

  /** A `chat` or `chat_switched` event from the seat's stream. */
  heard(event) {
    if (!this.state) return;
    if (event.kind === "chat" && this.chat && !this.chat.off) {
      if (this.chat.messages.some((m) => m.id === event.data.id)) return;
      this.chat.messages.push({
        id: event.data.id, seat: event.data.seat, text: event.data.text, created_at: event.created_at,
      });
      this.draw();
    } else {
      this.load();
    }
  }

  draw() {
    const chat = this.chat;
    const state = this.state;
    if (!state) return;
    const off = state.off;
    const shut = off || state.opponent_off;
    const items = chat && !off ? chat.messages.map((m) => {
      const li = el("li", null, m.seat === chat.seat ? "chat-line mine" : "chat-line");
      const who = el("span", null, "chat-who");
      who.append(nameEl(this.nameOf(m.seat)));
      const at = el("time", when(m.created_at), "chat-when");
      at.dateTime = m.created_at;
      const text = el("p", m.text, "chat-text");
      text.dir = "auto";
      li.append(who, at, text);
      return li;
    }) : [];
    $("chat-list").replaceChildren(...items);
    $("chat-list").hidden = items.length === 0;
    let note = null;
    if (off) note = t("You switched the chat off: nothing is shown or sent to you.");
    else if (state.opponent_off) note = t("Your opponent switched the chat off.");
    else if (chat && chat.messages.length === 0) note = t("Only your opponent and you see this chat.");
    $("chat-note").textContent = note || "";
    $("chat-note").hidden = !note;
    $("chat-form").hidden = shut;
    $("chat-switch").textContent = off ? t("Switch the chat on") : t("Switch the chat off");
    const list = $("chat-list");
    list.scrollTop = list.scrollHeight;
  }

  async send() {
    const input = $("chat-input");
    const text = input.value.trim();
    if (!text) return;
    try {
      this.chat = await post(`${this.base}/chat`, { text });
      input.value = "";
    } catch (e) {
      this.failed(e);
    }
    this.draw();
  }

  async switch() {
    if (!this.state) return;
    try {
      this.chat = await post(`${this.base}/chat/switch`, { on: this.state.off });
      this.state = { off: this.chat.off, opponent_off: this.chat.opponent_off };
    } catch (e) {
      this.failed(e);
    }
    this.draw();
  }
}
