// The account page's WebAuthn calls and buttons (the page itself is rendered on the
// server). Options and answers travel as WebAuthn JSON (base64url for every buffer).
(() => {
  "use strict";
  const $ = (id) => document.getElementById(id);

  const b64 = {
    toBytes(text) {
      const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
      return Uint8Array.from(plain, (c) => c.charCodeAt(0));
    },
    from(buffer) {
      if (!buffer) return null;
      const bytes = new Uint8Array(buffer);
      let plain = "";
      for (const b of bytes) plain += String.fromCharCode(b);
      return btoa(plain).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    },
  };

  async function call(method, path, body) {
    const init = { method, headers: {}, credentials: "same-origin" };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(path, init);
    const text = await response.text();
    const data = text ? JSON.parse(text) : {};
    if (!response.ok) {
      const error = new Error((data.error && data.error.message) || `HTTP ${response.status}`);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  function say(text, bad) {
    const box = $("account-status") || $("link-status");
    const p = document.createElement("p");
    p.textContent = text;
    if (bad) p.className = "error";
    box.replaceChildren(p);
  }

  function creationOptions(json) {
    return {
      ...json,
      challenge: b64.toBytes(json.challenge),
      user: { ...json.user, id: b64.toBytes(json.user.id) },
      excludeCredentials: (json.excludeCredentials || []).map((c) => ({ ...c, id: b64.toBytes(c.id) })),
    };
  }

  function requestOptions(json) {
    return {
      ...json,
      challenge: b64.toBytes(json.challenge),
      allowCredentials: (json.allowCredentials || []).map((c) => ({ ...c, id: b64.toBytes(c.id) })),
    };
  }

  function credentialJSON(cred) {
    const r = cred.response;
    const response = { clientDataJSON: b64.from(r.clientDataJSON) };
    if (r.attestationObject) {
      response.attestationObject = b64.from(r.attestationObject);
      response.transports = r.getTransports ? r.getTransports() : [];
    } else {
      response.authenticatorData = b64.from(r.authenticatorData);
      response.signature = b64.from(r.signature);
      response.userHandle = b64.from(r.userHandle);
    }
    return { id: cred.id, rawId: b64.from(cred.rawId), type: cred.type, response, clientExtensionResults: {} };
  }

  async function register(event) {
    event.preventDefault();
    try {
      const options = await call("POST", "/api/v1/account/register/options", { name: $("register-name").value });
      const cred = await navigator.credentials.create({ publicKey: creationOptions(options) });
      const made = await call("POST", "/api/v1/account/register/verify", credentialJSON(cred));
      const list = $("codes-list");
      list.replaceChildren(...made.recovery_codes.map((code) => {
        const li = document.createElement("li");
        li.textContent = code;
        return li;
      }));
      $("recovery-codes").hidden = false;
      say(`Account "${made.account.name}" created; you are signed in.`);
    } catch (error) {
      say(`The account was not created: ${error.message}`, true);
    }
  }

  async function login() {
    try {
      const options = await call("POST", "/api/v1/account/login/options", {});
      const cred = await navigator.credentials.get({ publicKey: requestOptions(options) });
      await call("POST", "/api/v1/account/login/verify", credentialJSON(cred));
      location.assign("/account");
    } catch (error) {
      say(`Not signed in: ${error.message}`, true);
    }
  }

  async function addPasskey() {
    try {
      const options = await call("POST", "/api/v1/account/passkeys/options", {});
      const cred = await navigator.credentials.create({ publicKey: creationOptions(options) });
      await call("POST", "/api/v1/account/passkeys/verify", credentialJSON(cred));
      location.reload();
    } catch (error) {
      say(`No passkey was added: ${error.message}`, true);
    }
  }

  async function act(method, path, body, after) {
    try {
      const data = await call(method, path, body);
      if (after) after(data);
      else location.reload();
    } catch (error) {
      say(error.message, true);
    }
  }

  function claimBrowserDecks() {
    const store = window.deckcheckDecks;
    const kept = store ? store.decks() : {};
    const decks = Object.entries(kept).map(([id, item]) => ({ id, edit_token: item.token }));
    const owned = store ? store.collection() : null;
    const collections = owned && owned.id && owned.token ? [{ id: owned.id, edit_token: owned.token }] : [];
    act("POST", "/api/v1/account/claim", { decks, collections }, (data) =>
      say(`${data.claimed.length} of this browser's decks and collections are in your account now; ${data.refused.length} could not join it (another account's, gone, or a wrong key).`));
  }

  function deleteAccount() {
    const choice = document.querySelector("input[name=delete-decks]:checked").value;
    act("DELETE", "/api/v1/account", { decks: choice }, (data) => {
      const store = window.deckcheckDecks;
      // Kept decks come back with new edit keys, now their only owners: kept here.
      for (const deck of (data && data.decks) || []) if (store) store.keep(deck.id, deck.edit_token, "");
      const first = ((data && data.collections) || [])[0];
      if (store && first && !store.collection()) store.keepCollection({ id: first.id, token: first.edit_token, name: "" });
      location.assign("/account");
    });
  }

  async function useLink() {
    const secret = location.hash.slice(1);
    if (!secret) return say("This address holds no sign-in link: open the whole link you were given.", true);
    history.replaceState(null, "", location.pathname); // the secret leaves the address
    try {
      await call("POST", "/api/v1/account/links/use", { secret });
      location.assign("/account");
    } catch (error) {
      say(error.message, true);
    }
  }

  function wire() {
    if (location.pathname === "/account/link") return useLink();
    const on = (id, type, fn) => $(id) && $(id).addEventListener(type, fn);
    if ($("link-origin")) $("link-origin").value = location.origin;
    on("register-form", "submit", register);
    on("login", "click", login);
    on("recovery-form", "submit", (event) => {
      event.preventDefault();
      act("POST", "/api/v1/account/login/recovery", { code: $("recovery-code").value }, () => location.assign("/account"));
    });
    on("add-passkey", "click", addPasskey);
    on("account-logout", "click", () => act("POST", "/api/v1/account/logout", undefined, () => location.assign("/account")));
    on("end-others", "click", () => act("DELETE", "/api/v1/account/sessions"));
    on("account-claim", "click", claimBrowserDecks);
    on("account-delete", "click", deleteAccount);
    for (const button of document.querySelectorAll("[data-remove-passkey]"))
      button.addEventListener("click", () => act("DELETE", `/api/v1/account/passkeys/${button.dataset.removePasskey}`));
    for (const button of document.querySelectorAll("[data-end-session]"))
      button.addEventListener("click", () => act("DELETE", `/api/v1/account/sessions/${button.dataset.endSession}`));
  }

  wire();
})();
