// The home page: create a room, play the computer, list this browser's games.
import { miniBoard } from "./board.js";
import {
  SIDE_NAME, ago, bySide, el, forgetRoom, get, keepView, keptView, myRooms, nameEl, pendingMove,
  post, rememberRoom, seenVersion, serverNow, span, syncClock, when,
} from "./common.js";
import { t } from "./i18n.js";
import { moveText } from "./notation.js";

function bindForm(form, url, body) {
  if (!form) return;
  const error = form.querySelector(".form-error");
  // The form is enabled only once its script (which waits for the page's language)
  // handles the form: a click before that would send the form to nowhere.
  form.querySelector(".form-body").disabled = false;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    error.hidden = true;
    try {
      const created = await post(url, body(new FormData(form)));
      rememberRoom(created.room_id);
      window.location.assign(created.url);
    } catch (e) {
      error.textContent = e.message;
      error.hidden = false;
      button.disabled = false;
    }
  });
}

bindForm(document.getElementById("create-form"), "/r", (data) => ({
  rule_set: data.get("rule_set"),
  name: data.get("name"),
  fen: data.get("fen") || null,
}));
bindForm(document.getElementById("computer-form"), "/computer", (data) => ({
  level: data.get("level"),
  rule_set: data.get("rule_set"),
  name: data.get("name"),
  fen: data.get("fen") || null,
}));

const other = (side) => (side === "drums" ? "tires" : "drums");

function opponent(view) {
  const seat = view.seats.find((s) => s.side === other(view.you.side));
  if (!seat?.taken) return null;
  return seat.computer_level ? t("{name} (computer)", { name: seat.name }) : seat.name;
}

/** What the entry says: the last move and when, and the deadline that concerns you. */
function facts(view) {
  const { you, game } = view;
  const parts = [];
  if (view.status === "waiting") return [t("Waiting for an opponent to accept")];
  if (game.result) parts.push(game.result.text);
  const last = game.moves.at(-1);
  if (last) {
    const move = moveText(view.rule_set, last);
    const time = ago(last.played_at);
    parts.push(last.side === you.side
      ? t("you played {move} {time}", { move, time })
      : t("{name} played {move} {time}", { name: opponent(view) || SIDE_NAME[last.side], move, time }));
  } else if (!game.result) {
    parts.push(t("no move yet"));
  }
  const kept = pendingMove(view.id);
  if (kept && kept.game === game.number && kept.ply === game.ply) {
    parts.push(t("your move {move} waits to be sent", { move: kept.text }));
  }
  const opens = view.claim_opens_at && !game.result ? Date.parse(view.claim_opens_at) : null;
  if (opens !== null) {
    const left = opens - serverNow();
    if (you.to_move) {
      parts.push(left > 0
        ? t("Move by {time} (in {left})", { time: when(view.claim_opens_at), left: span(left) })
        : t("your opponent may claim the win"));
    } else {
      parts.push(left > 0
        ? t("you may claim the win from {time}", { time: when(view.claim_opens_at) })
        : t("you may claim the win now"));
    }
  } else if (view.expires_at && view.status === "finished") {
    parts.push(t("rematch possible until {time}", { time: when(view.expires_at) }));
  }
  return parts;
}

function badge(view) {
  if (view.status === "waiting") return t("Waiting");
  if (view.status === "expired") return t("Closed");
  if (view.game.result) return t("Over");
  return view.you.to_move ? t("Your turn") : t("Their turn");
}

/** Your turn first, the nearest deadline first; then their turn, waiting, over. */
function urgency(view) {
  const rank = view.you.to_move && view.status === "playing" ? 0
    : view.status === "playing" ? 1 : view.status === "waiting" ? 2 : 3;
  const due = Date.parse(view.claim_opens_at || view.expires_at || "9999-01-01");
  return [rank, due];
}

function entry(view) {
  const item = el("li");
  const link = el("a", null, `game-link${view.you.to_move ? " turn" : ""}`);
  link.href = `/r/${view.id}`;
  const title = el("span", null, "game-title");
  const rival = opponent(view);
  title.append(rival ? nameEl(rival) : el("span", t("No opponent yet")));
  const params = { rule_set: view.rule_set.name, number: view.game.number };
  const about = bySide(view.you.side,
    t("{rule_set} · you play the drums · game {number}", params),
    t("{rule_set} · you play the tires · game {number}", params));
  // News: the room's record has moved on since this browser's player last looked at it.
  const seen = seenVersion(view.id);
  const news = seen !== null && view.version > seen;
  link.classList.toggle("news", news);
  link.append(
    miniBoard(view.game.fen, view.you.side, view.rule_set.notation.mirrored),
    title,
    news
      ? el("span", `${t("New")} · ${badge(view)}`, "game-badge game-news")
      : el("span", badge(view), "game-badge"),
    el("span", about, "game-about"),
    el("span", facts(view).join(" · "), "game-meta"),
  );
  item.append(link);
  return item;
}

async function listGames() {
  const list = document.getElementById("games");
  const empty = document.getElementById("games-empty");
  const views = [];
  // A signed-in player's profile holds seats taken on other devices too.
  let held = [];
  try {
    held = (await get("/profile/games")).rooms;
  } catch {
    held = [];
  }
  const here = myRooms();
  await Promise.all([...new Set([...here, ...held])].map(async (id) => {
    try {
      const view = await get(`/r/${encodeURIComponent(id)}/state`);
      syncClock(view.now);
      keepView(view);
      if (view.you) views.push(view);
      else if (here.includes(id)) forgetRoom(id); // the seat moved to another browser
    } catch (e) {
      if (e.status === 404) forgetRoom(id);
      // Offline: the room as this device saw it last.
      const kept = e.offline ? await keptView(id) : null;
      if (kept?.you) views.push(kept);
    }
  }));
  views.sort((a, b) => {
    const [ra, da] = urgency(a);
    const [rb, db] = urgency(b);
    return ra - rb || da - db;
  });
  list.replaceChildren(...views.map(entry));
  empty.hidden = views.length > 0;
  list.closest(".games-panel").classList.toggle("has-games", views.length > 0);
  const turns = views.filter((v) => v.you.to_move && v.status === "playing").length;
  document.title = turns
    ? t("({count}) Your move · Checkers at your own pace", { count: turns })
    : t("Checkers at your own pace");
}

listGames();
