// Sound on the scoreboard, made in the browser (Web Audio, no files): suspense ticks that speed
// up with the launcher's tension, the eject, "UNO!" and the winner's fanfare. Each tablet has
// its own switch (remembered on the tablet, off until someone turns it on: browsers only allow
// sound after a tap), and a hidden page stays quiet.
const KEY = "uno-attack-sound";
let context = null;
let ticking = null; // the suspense ticks' timer
let on = localStorage.getItem(KEY) === "on";

export function soundOn() {
  return on;
}

/** The switch: a tap turns sound on or off (and, the first time, creates the audio context). */
export function toggleSound() {
  on = !on;
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) context ??= new AudioContext();
  if (!on) stopSuspense();
  return on;
}

function audible() {
  return on && context !== null && !document.hidden;
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
