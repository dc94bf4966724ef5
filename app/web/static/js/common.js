// Shared helpers of the pages: same-origin requests, durations, this browser's rooms.

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

export const OFFLINE = "You seem to be offline: the page will catch up when the connection is back.";

async function send(url, options) {
  let response;
  try {
    response = await fetch(url, options);
  } catch {
    const error = new Error(OFFLINE);
    error.offline = true;
    throw error;
  }
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

/** A refusal as a sentence for a player, not for a developer. */
export function plainError(data) {
  switch (data?.code) {
    case "stale_ply":
      return "The game moved on while you chose. The board is up to date: choose again.";
    case "not_your_turn":
      return "It is not your turn yet.";
    case "claim_not_open":
      return `You may claim the win from ${when(data.opens_at)}.`;
    case "game_over":
      return "This game is over.";
    case "room_expired":
      return "This room has closed: nothing more can be played here.";
    case "room_full":
      return "Someone else took this seat first: you can still watch.";
    case "wrong_token":
    case "token_required":
      return "This browser no longer holds a seat in this room.";
    case "too_large":
      return `${data.detail}: that is more than the service takes at once; send it in parts.`;
    case "rate_limited":
      return "That was a lot at once: wait a moment and try again.";
    case "database_unavailable":
    case "mail_unavailable":
      return "The service is busy for a moment: try again shortly.";
    case "validation_error": {
      const problem = data.errors?.[0];
      const field = problem?.loc?.at(-1);
      if (field === "name") return String(problem.msg).replace(/^Value error, /, "Name: ");
      if (field === "address") return "That does not look like an email address.";
      if (field === "fen") return "That start position is too long to be a FEN.";
      return "That request could not be read.";
    }
    default:
      return data?.detail || `The request failed (${data?.status ?? "no answer"}).`;
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
  for (const [unit, size] of [["day", 86400], ["hour", 3600], ["minute", 60]]) {
    if (seconds >= size && seconds % size === 0) {
      const n = seconds / size;
      return `${n} ${unit}${n === 1 ? "" : "s"}`;
    }
  }
  return `${seconds} second${seconds === 1 ? "" : "s"}`;
}

/** A time left, as people say it: "1 day 23 h", "5 h 12 min", "7 min", "4 s". */
export function span(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  if (d) return `${d} day${d === 1 ? "" : "s"} ${h} h`;
  if (h) return `${h} h ${m} min`;
  if (m) return `${m} min`;
  return `${total} s`;
}

export function ago(iso, now = serverNow()) {
  const ms = now - Date.parse(iso);
  if (ms < 60_000) return "just now";
  return `${span(ms)} ago`;
}

/** An instant in the viewer's time zone: "Thu 3 Dec, 07:31". */
export function when(iso) {
  return new Date(iso).toLocaleString(undefined, {
    weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
  });
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

export function copyFrom(input, button) {
  const done = () => {
    const label = button.textContent;
    button.textContent = "Copied";
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

export const SIDE_NAME = { drums: "Drums", tires: "Tires" };
