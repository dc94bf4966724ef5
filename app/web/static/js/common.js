// Shared helpers of the pages: same-origin requests, durations, this browser's rooms.
import { coded, lang, nt, t } from "./i18n.js";

/** POST JSON to a same-origin page endpoint; resolves to the JSON answer or throws an
 * Error whose message is a plain sentence for the reader (`plainError`). */
export async function post(url, body) {
  return send(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body ?? {}),
  });
}

export async function get(url) {
  return send(url, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    cache: "no-store",
  });
}

export const OFFLINE = t("You seem to be offline: the page will catch up when the connection is back.");

/** Whether the page shows its offline banner (`#offline`, in the base template): on while
 * the service cannot be reached, off as soon as it answers. */
export function offline(on) {
  const banner = document.getElementById("offline");
  if (banner) banner.hidden = !on;
}

async function send(url, options) {
  let response;
  try {
    response = await fetch(url, options);
  } catch {
    offline(true);
    const error = new Error(OFFLINE);
    error.offline = true;
    throw error;
  }
  offline(false);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = new Error(plainError({ ...(data || {}), status: response.status }));
    error.status = response.status;
    error.data = data;
    throw error;
  }
  return data;
}

const DETAILED = new Set(["illegal_move", "ambiguous_move", "invalid_fen", "position_decided"]);

/** A refusal as a sentence for a player, not for a developer, in the page's language:
 * the API's `detail` is English, so the page goes by the stable `code`. */
export function plainError(data) {
  // In English, the precise `detail` of a refusal that names moves or squares.
  if (lang === "en" && data?.detail && (DETAILED.has(data.code) || !data.code)) return data.detail;
  switch (data?.code) {
    case "stale_ply":
      return t("The game moved on while you chose. The board is up to date: choose again.");
    case "not_your_turn":
      return t("It is not your turn yet.");
    case "claim_not_open":
      return t("You may claim the win from {time}.", { time: when(data.opens_at) });
    case "game_over":
      return t("This game is over.");
    case "room_expired":
      return t("This room has closed: nothing more can be played here.");
    case "room_full":
      return t("Someone else took this seat first: you can still watch.");
    case "wrong_token":
    case "token_required":
      return t("This browser no longer holds a seat in this room.");
    case "too_large":
    case "too_many_games":
    case "too_many_plies_in_all":
      return t("That is more than the service takes at once; send it in parts.");
    case "rate_limited":
    case "import_quota":
      return t("That was a lot at once: wait a moment and try again.");
    case "database_unavailable":
    case "import_busy":
      return t("The service is busy for a moment: try again shortly.");
    case "confirmation_pending":
      return t("A link went to that address a moment ago: follow it, or ask again in {time}.", {
        time: span(data.retry_after * 1000),
      });
    case "mail_limit":
      return t("No more confirmation mails today for that address or this seat: try again in {time}.", {
        time: span(data.retry_after * 1000),
      });
    case "illegal_move":
      return data.legal_moves?.length
        ? t("That move is not legal here. Legal moves: {moves}.", { moves: data.legal_moves.join(", ") })
        : t("That move is not legal here.");
    case "ambiguous_move":
      return t("That move could mean several moves: {moves}. Type it in full.", {
        moves: (data.candidates || []).join(", "),
      });
    case "invalid_fen":
      return t("That start position cannot be read as a FEN of this rule set: {detail}", {
        detail: coded(data.reason?.code, data.reason?.params, data.detail),
      });
    case "position_decided":
      return t("Nothing is left to play from that position.");
    case "draw_offer_limit":
      return t("You have no draw offers left in this game.");
    case "game_limit":
      return t("This room has played as many games as it may hold.");
    case "computer_busy":
      return t("The computer is busy: try again in a moment.");
    case "push_service_refused":
      return t("Notifications cannot reach this browser: its push service is not one this site sends to.");
    case "validation_error": {
      const problem = data.errors?.[0];
      const field = problem?.loc?.at(-1);
      if (field === "name") {
        if (lang === "en") return `Name: ${problem.msg}`;
        if (problem.type === "name_reserved") {
          return t("That name is a computer opponent's: choose another.");
        }
        return t("That name cannot be used: at most 24 characters, none of them invisible.");
      }
      if (field === "address") return t("That does not look like an email address.");
      if (field === "fen") return t("That start position is too long to be a FEN.");
      return t("That request could not be read.");
    }
    default:
      if (lang === "en" && data?.detail) return data.detail;
      return data?.status
        ? t("The request failed ({status}).", { status: data.status })
        : t("The request failed (no answer).");
  }
}

// The server's clock: deadlines are counted from it, whatever this device's clock says.
let clockOffset = 0;

/** Remember the server's `now` (an ISO instant) as of this moment. */
export function syncClock(iso) {
  if (iso) clockOffset = Date.parse(iso) - Date.now();
}

/** Milliseconds since the epoch by the server's clock. */
export function serverNow() {
  return Date.now() + clockOffset;
}

/** A configured duration in words, as the server says it: "7 days", "36 hours". */
export function lengthOf(seconds) {
  if (seconds >= 86400 && seconds % 86400 === 0) return nt("{n} day", "{n} days", seconds / 86400);
  if (seconds >= 3600 && seconds % 3600 === 0) return nt("{n} hour", "{n} hours", seconds / 3600);
  if (seconds >= 60 && seconds % 60 === 0) return nt("{n} minute", "{n} minutes", seconds / 60);
  return nt("{n} second", "{n} seconds", seconds);
}

/** A time left, as people say it: "1 day 23 h", "5 h 12 min", "7 min", "4 s" (the days
 * in words, with the language's plural forms; the rest abbreviated). */
export function span(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const hours = () => t("{n} h", { n: h });
  const minutes = () => t("{n} min", { n: m });
  if (d) return t("{days} {hours}", { days: nt("{n} day", "{n} days", d), hours: hours() });
  if (h) return t("{hours} {minutes}", { hours: hours(), minutes: minutes() });
  if (m) return minutes();
  return t("{n} s", { n: total });
}

export function ago(iso, now = serverNow()) {
  const ms = now - Date.parse(iso);
  if (ms < 60_000) return t("just now");
  return t("{time} ago", { time: span(ms) });
}

/** An instant in the viewer's time zone, as the page's language writes it:
 * "Thu 3 Dec, 07:31", "чт, 3 дек., 07:31". */
export function when(iso) {
  return new Date(iso).toLocaleString(lang, {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
  });
}

/** A button that runs `onClick`; its label is text. */
export function button(label, onClick, cls = "button") {
  const b = el("button", label, cls);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

/** A text node-safe element: `text` is never read as markup. */
export function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

/** A player's name, isolated so that a right-to-left name keeps its neighbours in place. */
export function nameEl(name) {
  const node = el("bdi", name, "name");
  node.dir = "auto";
  return node;
}

// The ids of the rooms this browser holds a seat in. Ids are not secrets (they are the
// share links); the seat tokens stay in HttpOnly cookies.
const ROOMS_KEY = "checkers.rooms";

export function myRooms() {
  try {
    const ids = JSON.parse(localStorage.getItem(ROOMS_KEY) || "[]");
    return Array.isArray(ids) ? ids.filter((id) => typeof id === "string") : [];
  } catch {
    return [];
  }
}

export function rememberRoom(id) {
  const ids = myRooms().filter((x) => x !== id);
  ids.unshift(id);
  try {
    localStorage.setItem(ROOMS_KEY, JSON.stringify(ids.slice(0, 50)));
  } catch {
    /* private mode: the list is a convenience only */
  }
}

export function forgetRoom(id) {
  try {
    localStorage.setItem(ROOMS_KEY, JSON.stringify(myRooms().filter((x) => x !== id)));
  } catch {
    /* ignore */
  }
}

// The version of each room's record this browser's player last saw: what happened after it
// is news ("while you were away", and the mark on "Your games").
const SEEN_KEY = "checkers.seen";

function seenMap() {
  try {
    const map = JSON.parse(localStorage.getItem(SEEN_KEY) || "{}");
    return map && typeof map === "object" && !Array.isArray(map) ? map : {};
  } catch {
    return {};
  }
}

/** The version last seen in room `id`, or null when this browser never saw it. */
export function seenVersion(id) {
  const version = seenMap()[id];
  return Number.isInteger(version) ? version : null;
}

export function markSeen(id, version) {
  const map = seenMap();
  if (map[id] === version) return;
  map[id] = version;
  const kept = Object.fromEntries(Object.entries(map).filter(([room]) => room === id || myRooms().includes(room)));
  try {
    localStorage.setItem(SEEN_KEY, JSON.stringify(kept));
  } catch {
    /* private mode: news is a convenience only */
  }
}

export function copyFrom(input, button) {
  const done = () => {
    const label = button.textContent;
    button.textContent = t("Copied");
    setTimeout(() => { button.textContent = label; }, 1500);
  };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(input.value).then(done, () => selectCopy(input, done));
  } else {
    selectCopy(input, done);
  }
}

function selectCopy(input, done) {
  input.select();
  try {
    if (document.execCommand("copy")) done();
  } catch {
    /* the text stays selected for a manual copy */
  }
}

export const SIDE_NAME = { drums: t("Drums"), tires: t("Tires") };

/** The text for `side`: sentences that name a side are whole messages per side, so
 * that each language can inflect them. */
export const bySide = (side, drums, tires) => (side === "drums" ? drums : tires);

/** A seat's default name, as the server gives it when the player chose none. */
export const defaultName = (side) => bySide(side, t("Drums player"), t("Tires player"));

// The last view of each room this browser saw, kept in the same Cache Storage as the
// pages the service worker keeps, at the address of the room's state: offline, "Your games"
// and the room's page show it instead of nothing.
const KEPT = "pages";
const keptAt = (id) => `/r/${encodeURIComponent(id)}/state`;

/** Keep `view` as its room's last known state, unless a newer one is kept already. */
export async function keepView(view) {
  if (!("caches" in window) || !view?.id) return;
  try {
    const cache = await caches.open(KEPT);
    const kept = await cache.match(keptAt(view.id));
    if (kept && (await kept.json()).version > view.version) return;
    await cache.put(keptAt(view.id), new Response(JSON.stringify(view), {
      headers: { "Content-Type": "application/json" },
    }));
  } catch {
    /* storage refused (private mode, quota): the offline copy is a convenience */
  }
}

/** The room's last known state, or null. Its clock reading is dropped: it is not now. */
export async function keptView(id) {
  if (!("caches" in window)) return null;
  try {
    const kept = await (await caches.open(KEPT)).match(keptAt(id));
    return kept ? { ...(await kept.json()), now: null } : null;
  } catch {
    return null;
  }
}

// A move played while the service could not be reached: kept on this device, one per
// room, and sent with the ply it was chosen at once the connection is back.
const PENDING_KEY = "checkers.pending";

function pendingMap() {
  try {
    const map = JSON.parse(localStorage.getItem(PENDING_KEY) || "{}");
    return map && typeof map === "object" && !Array.isArray(map) ? map : {};
  } catch {
    return {};
  }
}

/** The move waiting to be sent in room `id` ({game, ply, move, path, captured}), or null. */
export function pendingMove(id) {
  return pendingMap()[id] ?? null;
}

/** Keep `move` as room `id`'s move to send, or forget it (null); false when the browser
 * refuses to keep it (private mode). */
export function setPendingMove(id, move) {
  const map = pendingMap();
  if (move) map[id] = move;
  else delete map[id];
  try {
    localStorage.setItem(PENDING_KEY, JSON.stringify(map));
    return true;
  } catch {
    return false;
  }
}
