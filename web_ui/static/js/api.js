// The page's data, words, the DOM helpers every page script uses, and a small JSON client for
// the scoreboard API.
//
// Every POST carries the session's CSRF token and an idempotency key made once per tap: when
// the network drops the request or the service answers 502/503/504, the same request is sent
// again with the same key, so the table applies it once however often it arrives. Refusals
// come back as {error}: `post` throws an ApiError with the reason, and `showError` puts it in
// front of the players in words.

/** The element with this id, or null. */
export const $ = (id) => document.getElementById(id);

export const page = JSON.parse($("page-data").textContent);
const csrf = document.querySelector('meta[name="csrf-token"]').content;

/** Where this table is served: "" (at /), or "/t/<id>" for a table of a service with several. */
export const base = document.querySelector('meta[name="base"]')?.content ?? "";

/** An address of this table's: "/api/state" → "/t/<id>/api/state" at a table of several. */
export function at(path) {
  return path.startsWith("/") ? base + path : path;
}

/** A UI word in this page's language, with {placeholders} filled in. */
export function t(key, params = {}) {
  const text = page.words[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

export function colourName(letter) {
  return page.colours[letter] ?? letter;
}

/** "RH2" → "Red Hit 2" / "红 罚按牌 2"; a wild keeps its own name. */
export function cardName(text) {
  if (!text) return "";
  const coloured = "RYGB".includes(text[0]) && text.length > 1;
  const face = coloured ? text.slice(1) : text;
  const name = page.cards[face] ?? face;
  return coloured ? `${colourName(text[0])} ${name}` : name;
}

/** An option's choice in words: "winner_collects" → "Winner collects the others' points". */
export function choiceLabel(option, value) {
  return page.choices?.[option]?.[value] ?? (value ? value.replaceAll("_", " ") : "—");
}

/** An option in plain words, {label, hint}: the words for the chosen match format first
 * ("target@elim_tournament"), then the option's own; else the engine's meaning, its first
 * part as the label. */
export function optionWords(option, format) {
  const words = page.option_words ?? {};
  const found = words[`${option.id}@${format}`] ?? words[option.id];
  if (found) return found;
  const [label, ...rest] = (page.language === "zh-CN" ? option.zh : option.en).split(/[;；]\s*/);
  return { label, hint: rest.join("; ") };
}

/** Build an element: h("button", {class: "big", onclick: fn}, "text", child...). */
export function h(tag, attrs = {}, ...children) {
  const isSvg = ["svg", "polyline", "line", "text", "circle", "g", "title", "rect"].includes(tag);
  const el = isSvg
    ? document.createElementNS("http://www.w3.org/2000/svg", tag)
    : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on")) el.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(el.dataset, value);
    else el.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export class ApiError extends Error {
  constructor(status, reason) {
    super(reason);
    this.status = status;
  }
}

function newKey() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const RETRIES = [500, 1500, 4000]; // ms to wait before each new attempt of the same tap
const RETRIED = new Set([0, 502, 503, 504]); // no answer, or the service did not get to it

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function send(url, text) {
  try {
    return await fetch(at(url), {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: text,
      credentials: "same-origin",
    });
  } catch (error) {
    return { ok: false, status: 0, statusText: String(error.message || error), json: async () => ({}) };
  }
}

/** POST JSON for one tap: the CSRF header and one idempotency key, the same on every retry.
 * The answer, or an ApiError with the reason. */
export async function post(url, body = {}) {
  const text = JSON.stringify({ key: newKey(), ...body });
  let response = await send(url, text);
  for (const wait of RETRIES) {
    if (!RETRIED.has(response.status)) break;
    await sleep(wait);
    response = await send(url, text);
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, answer.error || response.statusText);
  return answer;
}

export async function get(url) {
  const response = await fetch(at(url), { credentials: "same-origin" });
  if (!response.ok) throw new ApiError(response.status, response.statusText);
  return response.json();
}

const message = $("message");

/** Show a refusal (or any problem) to the players, in words, until the next success. */
export function showError(error) {
  const reason = error instanceof Error ? error.message : String(error);
  say(t("error", { reason }));
}

/** Show `text` as it is in the message bar. A `sticky` message stays until its own code
 * clears it (`clearError({ sticky: true })`): the next success elsewhere (a background
 * refresh) does not take it away. */
export function say(text, { sticky = false } = {}) {
  message.textContent = text;
  message.hidden = false;
  if (sticky) message.dataset.sticky = "true";
  else delete message.dataset.sticky;
}

export function clearError({ sticky = false } = {}) {
  if (message.dataset.sticky && !sticky) return;
  message.hidden = true;
  message.textContent = "";
  delete message.dataset.sticky;
}

/** Run an API call from a tap: errors are shown, success clears them. */
export async function attempt(call) {
  try {
    const answer = await call();
    clearError();
    return answer;
  } catch (error) {
    showError(error);
    return null;
  }
}

/** A short message that fades by itself (launcher notices, "dealt", ...). */
export function notify(text) {
  const box = $("notices");
  const item = h("div", { class: "notice" }, text);
  box.append(item);
  setTimeout(() => item.remove(), 6000);
  while (box.children.length > 3) box.firstChild.remove();
}

/** What the operator must fix (the default PIN, no admin password), above the page's content. */
function showWarnings() {
  const main = document.querySelector("main");
  if (!page.warnings?.length || !main) return;
  const list = h("ul", {}, page.warnings.map((text) => h("li", {}, text)));
  main.prepend(h("section", { class: "panel warnings", id: "warnings", role: "alert" }, list));
}

showWarnings();
