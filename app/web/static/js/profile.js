// The profile page: passkeys (WebAuthn), mailed sign-in links, devices, and attaching the
// seats this browser holds. Signed in or not, it acts through same-origin endpoints only.
import { el, get, myRooms, post, when } from "./common.js";
import { nt, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const error = $("profile-error");
const done = $("profile-done");

function fail(e) {
  error.textContent = e.name === "NotAllowedError" || e.name === "AbortError"
    ? t("The passkey was not used: nothing changed.")
    : e.status === 403 && e.data?.code === "passkey_refused"
      ? t("That passkey was not accepted here.")
      : e.message;
  error.hidden = false;
}

function say(text) {
  error.hidden = true;
  done.textContent = text;
}

const passkeysWork = () => typeof window.PublicKeyCredential?.parseCreationOptionsFromJSON === "function";

async function create(begin, finish, body) {
  if (!passkeysWork()) throw new Error(t("This browser cannot use passkeys."));
  const { ceremony, options } = await post(begin, body);
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
  const credential = await navigator.credentials.create({ publicKey });
  return post(finish, { ceremony, credential: credential.toJSON() });
}

async function signIn() {
  if (!passkeysWork()) throw new Error(t("This browser cannot use passkeys."));
  const { ceremony, options } = await post("/profile/sign-in/options", {});
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options);
  const credential = await navigator.credentials.get({ publicKey });
  return post("/profile/sign-in", { ceremony, credential: credential.toJSON() });
}

function busy(button, work) {
  button.addEventListener("click", async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      await work();
    } catch (e) {
      fail(e);
    } finally {
      button.disabled = false;
    }
  });
}

function onSubmit(form, work) {
  if (!form) return;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await work(new FormData(form));
    } catch (e) {
      fail(e);
    } finally {
      button.disabled = false;
    }
  });
}

function entry(text, about, ...buttons) {
  const item = el("li", null, "entry");
  const label = el("span", null, "entry-text");
  const name = el("bdi", text, "entry-name");
  name.dir = "auto";
  label.append(name, el("span", about, "entry-about muted small"));
  item.append(label, ...buttons);
  return item;
}

function button(text, action, extra = "") {
  const node = el("button", text, `button ${extra}`.trim());
  node.type = "button";
  busy(node, action);
  return node;
}

function show(profile) {
  $("profile-name").textContent = profile.name;
  $("passkeys").replaceChildren(...profile.passkeys.map((key) => {
    const rename = button(t("Rename"), async () => {
      const name = window.prompt(t("A name for this passkey"), key.name);
      if (name && name.trim()) show(await post(`/profile/passkeys/${key.id}/name`, { name: name.trim() }));
    });
    rename.setAttribute("aria-label", t("Rename the passkey {name}", { name: key.name }));
    const remove = button(t("Remove"), async () => {
      show(await post(`/profile/passkeys/${key.id}/remove`, {}));
      say(t("The passkey was removed."));
    }, "subtle");
    remove.setAttribute("aria-label", t("Remove the passkey {name}", { name: key.name }));
    const used = key.last_used_at ? t("last used {time}", { time: when(key.last_used_at) }) : t("never used yet");
    return entry(key.name, `${t("added {time}", { time: when(key.created_at) })} · ${used}`, rename, remove);
  }));
  $("devices").replaceChildren(...profile.devices.map((device) => {
    const about = [
      device.current ? t("this device") : t("seen {time}", { time: when(device.last_seen_at) }),
      device.method === "link" ? t("signed in by a mailed link") : t("signed in with a passkey"),
    ].join(" · ");
    const out = button(t("Sign out"), async () => {
      const answer = await post(`/profile/devices/${device.id}/sign-out`, {});
      if (device.current) window.location.assign("/profile");
      else show(answer);
    }, "subtle");
    out.setAttribute("aria-label", t("Sign out {device}", { device: device.device }));
    return entry(device.device, about, out);
  }));
  const state = $("email-state");
  if (state) {
    state.textContent = profile.email_pending
      ? t("A link to confirm {address} is in its mailbox.", { address: profile.email_pending })
      : profile.email ? t("Confirmed.") : t("No address yet: a passkey is your only way in.");
  }
}

async function offerAttach() {
  const { rooms } = await get("/profile/games");
  const loose = myRooms().filter((id) => !rooms.includes(id));
  const box = $("attach");
  if (!loose.length) {
    box.hidden = true;
    return;
  }
  $("attach-text").textContent = nt(
    "This browser holds {n} game that is not in your profile yet.",
    "This browser holds {n} games that are not in your profile yet.",
    loose.length,
  );
  box.hidden = false;
  const go = $("attach-go");
  go.onclick = async () => {
    go.disabled = true;
    let added = 0;
    for (const id of loose) {
      try {
        await post(`/r/${encodeURIComponent(id)}/attach`, {});
        added += 1;
      } catch (e) {
        if (e.status !== 403 && e.status !== 401 && e.status !== 404) fail(e);
      }
    }
    go.disabled = false;
    box.hidden = true;
    say(nt("{n} game added to your profile.", "{n} games added to your profile.", added));
  };
}

function signedOutPage() {
  busy($("sign-in"), async () => {
    await signIn();
    window.location.assign("/profile");
  });
  onSubmit($("create-form"), async (data) => {
    await create("/profile/register/options", "/profile/register", { name: data.get("name") });
    window.location.assign("/profile");
  });
  onSubmit($("link-form"), async (data) => {
    await post("/profile/link", { address: data.get("address") });
    say(t("If that address belongs to a profile, a sign-in link is on its way to it."));
  });
}

function signedInPage(profile) {
  show(profile);
  offerAttach().catch(fail);
  busy($("add-passkey"), async () => {
    show(await create("/profile/passkeys/options", "/profile/passkeys"));
    say(t("This device's passkey was added."));
  });
  onSubmit($("name-form"), async (data) => {
    show(await post("/profile/name", { name: data.get("name") }));
    say(t("Saved: your games in progress show the new name."));
  });
  onSubmit($("notify-form"), async (data) => {
    show(await post("/profile/notify", { groups: data.getAll("groups") }));
    say(t("Saved."));
  });
  onSubmit($("public-form"), async (data) => {
    show(await post("/profile/public", { public: data.get("public") === "on" }));
    say(t("Saved."));
  });
  onSubmit($("email-form"), async (data) => {
    show(await post("/profile/email", { address: data.get("address") }));
    say(t("A confirmation link is on its way to that address."));
  });
  busy($("delete-profile"), async () => {
    const confirm = $("delete-confirm");
    if (confirm.hidden || !$("delete-sure").checked) {
      confirm.hidden = false;
      $("delete-sure").focus();
      return;
    }
    await post("/profile/delete", { confirm: true });
    window.location.assign("/profile");
  });
  busy($("sign-out"), async () => {
    await post("/profile/sign-out", {});
    window.location.assign("/profile");
  });
  busy($("sign-out-all"), async () => {
    await post("/profile/sign-out-everywhere", {});
    window.location.assign("/profile");
  });
}

function linkPage() {
  const match = window.location.hash.match(/^#([tc])=([A-Za-z0-9_-]{20,100})$/);
  const go = $("link-go");
  if (!match) return;
  const [, kind, secret] = match;
  $("link-text").textContent = kind === "t"
    ? t("Sign in to your profile on this device.")
    : t("Confirm this address for your profile.");
  go.textContent = kind === "t" ? t("Sign in") : t("Confirm");
  go.hidden = false;
  busy(go, async () => {
    await post("/profile/link/redeem", { secret });
    history.replaceState(null, "", window.location.pathname);
    go.hidden = true;
    $("link-text").textContent = kind === "t"
      ? t("Signed in. Add a passkey on this device from your profile, so that you need no mail next time.")
      : t("Address confirmed.");
    $("link-after").hidden = false;
  });
}

const data = $("profile-data");
if ($("link-go")) linkPage();
else if (data && JSON.parse(data.textContent)) signedInPage(JSON.parse(data.textContent));
else signedOutPage();
// The buttons work once the script handles them: a click before would send a form nowhere.
for (const button of document.querySelectorAll("button[data-script]")) button.disabled = false;
