// Shared helpers of the pages: same-origin requests, durations, this browser's rooms.

/** POST JSON to a same-origin page endpoint; resolves to the JSON answer or throws an
 * Error whose message is the server's reason. */
export async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  return answer(response);
}

export async function get(url) {
  const response = await fetch(url, {
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    cache: "no-store",
  });
  return answer(response);
}

async function answer(response) {
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = new Error((data && data.detail) || `request failed (${response.status})`);
    error.status = response.status;
    error.data = data;
    throw error;
  }
  return data;
}

/** "2d 03:04:05" style countdown (or "1h 05m" when `short`). */
export function duration(ms, short = false) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n) => String(n).padStart(2, "0");
  if (short) {
    if (d) return `${d}d ${h}h`;
    if (h) return `${h}h ${pad(m)}m`;
    return `${m}m`;
  }
  return `${d ? `${d}d ` : ""}${pad(h)}:${pad(m)}:${pad(s)}`;
}

export function ago(iso, now = Date.now()) {
  const ms = now - Date.parse(iso);
  if (ms < 60_000) return "just now";
  return `${duration(ms, true)} ago`;
}

export function when(iso) {
  return new Date(iso).toLocaleString(undefined, {
    weekday: "short", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit",
  });
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
