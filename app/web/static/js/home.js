// The home page: create a room, play the computer, list this browser's games.
import { ago, duration, forgetRoom, get, myRooms, post, rememberRoom, when } from "./common.js";

function bindForm(form, url, body) {
  if (!form) return;
  const error = form.querySelector(".form-error");
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
}));
bindForm(document.getElementById("computer-form"), "/computer", (data) => ({
  level: data.get("level"),
  rule_set: data.get("rule_set"),
}));

function summary(view) {
  const you = view.you;
  const game = view.game;
  const opponentSide = you.side === "drums" ? "tires" : "drums";
  const theirs = game.moves.filter((m) => m.side === opponentSide).at(-1);
  const parts = [];
  if (view.status === "waiting") parts.push("waiting for an opponent to accept");
  else if (game.result) parts.push(game.result.text);
  else parts.push(theirs ? `opponent moved ${ago(theirs.played_at)}` : "no opponent move yet");
  if (view.claim_opens_at && !you.to_move && !game.result) {
    const left = Date.parse(view.claim_opens_at) - Date.now();
    parts.push(left > 0 ? `claim opens in ${duration(left, true)}` : "you can claim the win");
  }
  if (view.expires_at) {
    const left = Date.parse(view.expires_at) - Date.now();
    const what = view.status === "finished" ? "rematch closes" : "expires";
    parts.push(`${what} ${when(view.expires_at)} (in ${duration(left, true)})`);
  }
  return parts.join(" · ");
}

function badge(view) {
  if (view.status === "waiting") return "Waiting";
  if (view.status === "expired") return "Expired";
  if (view.game.result) return "Over";
  return view.you.to_move ? "Your turn" : "Their turn";
}

async function listGames() {
  const list = document.getElementById("games");
  const empty = document.getElementById("games-empty");
  const views = [];
  await Promise.all(myRooms().map(async (id) => {
    try {
      const view = await get(`/r/${encodeURIComponent(id)}/state`);
      if (view.you) views.push(view);
      else forgetRoom(id); // the seat moved to another browser
    } catch (e) {
      if (e.status === 404) forgetRoom(id);
    }
  }));
  const rank = (v) => (v.you.to_move ? 0 : v.status === "playing" ? 1 : v.status === "waiting" ? 2 : 3);
  views.sort((a, b) => rank(a) - rank(b) || (Date.parse(a.expires_at || 0) - Date.parse(b.expires_at || 0)));
  list.replaceChildren(...views.map((view) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/r/${view.id}`;
    link.className = `game-link${view.you.to_move ? " turn" : ""}`;
    const title = document.createElement("span");
    title.className = "game-title";
    title.textContent = `${view.rule_set.name} · you play the ${view.you.side} · game ${view.game.number}`;
    const tag = document.createElement("span");
    tag.className = "game-badge";
    tag.textContent = badge(view);
    const meta = document.createElement("span");
    meta.className = "game-meta";
    meta.textContent = summary(view);
    link.append(title, tag, meta);
    item.append(link);
    return item;
  }));
  empty.hidden = views.length > 0;
  list.closest(".games-panel").classList.toggle("has-games", views.length > 0);
}

listGames();
