// Sound on the scoreboard, made in the browser (Web Audio, no files): suspense ticks that speed
// up with the launcher's tension, the eject, "UNO!" and the winner's fanfare. Each tablet has
// its own switch (remembered on the tablet, off until someone turns it on), and a hidden page
// stays quiet.
//
// Browsers start sound only after a tap on the page: after every load (unlock, lock, a language
// switch, back from set-up) the audio context waits, suspended, for the first tap or key
// anywhere on the page, which starts it. Until it runs the switch says so ("Sound: on · tap
// anywhere to start"), and its data-audio tells the page (and the tests) where it is: off,
// suspended, running, blocked (a tap did not start it) or unavailable (no Web Audio here).
import { $, t } from "./api.js";

const KEY = "uno-attack-sound";
const GESTURES = ["pointerdown", "pointerup", "touchend", "keydown", "click"];
let context = null;
let refused = false; // a tap tried to start the sound and the browser said no
let ticking = null; // the suspense ticks' timer
let on = localStorage.getItem(KEY) === "on";

export function soundOn() {
  return on;
}

function newContext() {
  try {
    const context = new AudioContext();
    context.addEventListener("statechange", showAudio);
    return context;
  } catch {
    return null; // no Web Audio here: the switch says so
  }
}

/** Start the audio context if it waits (only a tap or a key lets the browser do it). */
function start() {
  if (!on || context === null || context.state === "running") return;
  context.resume().then(
    () => ((refused = context.state !== "running"), showAudio()),
    () => ((refused = true), showAudio()),
  );
}

/** What this tablet can play now, on the switch: its data-audio, and a hint after its words. */
function showAudio() {
  const button = $("sound");
  if (!button) return;
  let audio = "off";
  if (on && context === null) audio = "unavailable";
  else if (on) audio = context.state === "running" ? "running" : refused ? "blocked" : "suspended";
  button.dataset.audio = audio;
  const hint = { suspended: "sound_tap", blocked: "sound_blocked", unavailable: "sound_unavailable" }[audio];
  $("sound-hint").textContent = hint ? t(hint) : "";
}

/** The switch: a tap turns sound on or off (and, the first time, creates the audio context). */
export function toggleSound() {
  on = !on;
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) context ??= newContext();
  if (on) start();
  if (!on) stopSuspense();
  showAudio();
  return on;
}

function audible() {
  return on && context?.state === "running" && !document.hidden;
}

/** Remember what was played (the page's own record, and what tests look at). */
function played(name) {
  const root = document.documentElement;
  root.dataset.sounds = [...(root.dataset.sounds ?? "").split(" ").filter(Boolean), name].slice(-40).join(" ");
}

function tone(frequency, start, length, { type = "sine", volume = 0.2, slide = null } = {}) {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  const t0 = context.currentTime + start;
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, t0);
  if (slide) oscillator.frequency.exponentialRampToValueAtTime(slide, t0 + length);
  gain.gain.setValueAtTime(volume, t0);
  gain.gain.exponentialRampToValueAtTime(0.001, t0 + length);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(t0);
  oscillator.stop(t0 + length);
}

const SOUNDS = {
  tick: () => tone(1200, 0, 0.04, { type: "square", volume: 0.08 }),
  eject: () => tone(900, 0, 0.35, { type: "sawtooth", volume: 0.15, slide: 120 }),
  uno: () => {
    tone(660, 0, 0.15, { type: "triangle" });
    tone(990, 0.16, 0.25, { type: "triangle" });
  },
  winner: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.14, 0.3, { type: "triangle" })),
};

export function play(name) {
  if (!audible()) return;
  SOUNDS[name]();
  played(name);
}

/** Ticks while the launcher holds its suspense: the higher the tension, the faster. */
export function startSuspense(tension) {
  stopSuspense();
  const every = Math.max(70, 420 - 350 * Math.min(1, Math.max(0, tension)));
  ticking = setInterval(() => play("tick"), every);
  play("tick");
}

export function stopSuspense() {
  clearInterval(ticking);
  ticking = null;
}

document.addEventListener("visibilitychange", () => {
  if (document.hidden) stopSuspense();
});
// every tap or key anywhere on the page starts a waiting context (a tap on the switch too,
// which then goes on to turn the sound off as a tap on it does)
for (const type of GESTURES) document.addEventListener(type, start, { capture: true, passive: true });
if (on) context = newContext(); // where the browser lets it run without a tap, it runs now
showAudio();
