// A scoreboard propped up on a tablet: the table's address as a QR code for phones, full
// screen, and a screen that stays on.
//
// Keeping the screen on: the Screen Wake Lock API where the browser has it, which is only on
// secure pages (https, or this machine's own address); the tablets open the table's plain-http
// LAN address, where it does not exist. There the screen is kept on as NoSleep.js does it: a
// tiny silent video (static/media/, see its README) plays in a loop after the tap, because a
// playing video keeps a screen on. Each engine has its own test for that, so the video is made
// to pass all three: Blink only counts a muted video that is on screen and covers a fifth of
// the page (it lies full-bleed behind the page, all but transparent); Gecko only one with an
// audio track (both files carry a silent one); WebKit only one that is neither muted nor
// looping (there it plays its silent track unmuted and starts again when it ends).
//
// The choice is remembered on the tablet: after a reload (unlock, a language switch) the
// screen is kept on again at once where the browser allows it, else at the first tap. The line
// under the buttons says what keep-awake does, that it is on, or, where neither way works, to
// use the tablet's display settings instead. The button's data-wake says which way holds the
// screen: off, lock, video, waiting (for a tap) or failed.
import { $, at, get, h, t } from "./api.js";

const KEY = "uno-attack-awake";
const GESTURES = ["pointerup", "touchend", "keydown", "click"];
const MEDIA = at("/static/media/keep-awake");
const WEBKIT = navigator.vendor === "Apple Computer, Inc."; // Safari, and every browser on iOS
let wanted = localStorage.getItem(KEY) === "on";
let lock = null; // the screen wake lock while one is held
let video = null; // the silent video, once made

async function showAddress() {
  try {
    $("table-url").textContent = (await get("/api/table-url")).url;
  } catch {
    // the QR code still shows it
  }
}

function fullScreen() {
  if (document.fullscreenElement) document.exitFullscreen();
  else document.documentElement.requestFullscreen?.();
}

/** The button and the line under it: which way (if any) keeps the screen on. */
function show(how) {
  const button = $("wake");
  const note = $("wake-note");
  button.dataset.wake = how;
  button.setAttribute("aria-pressed", String(how === "lock" || how === "video"));
  const words = { off: "wake_what", lock: "wake_on", video: "wake_on", waiting: "wake_tap", failed: "wake_unavailable" };
  note.textContent = t(words[how]);
  note.hidden = false;
}

function silentVideo() {
  const sources = [
    h("source", { src: `${MEDIA}.webm`, type: "video/webm" }),
    h("source", { src: `${MEDIA}.mp4`, type: "video/mp4" }),
  ];
  if (WEBKIT) sources.reverse(); // the MP4 first where WebKit plays it
  const el = h("video", { class: "keep-awake-video", playsinline: true, "aria-hidden": "true", tabindex: -1 }, sources);
  el.playsInline = true;
  el.disablePictureInPicture = true;
  el.disableRemotePlayback = true;
  el.muted = !WEBKIT;
  el.loop = !WEBKIT;
  el.addEventListener("ended", () => wanted && el.play().catch(() => {})); // WebKit's own loop
  document.body.append(el);
  return el;
}

/** Keep the screen on: the wake lock where there is one, else the silent video. */
async function keep() {
  if ("wakeLock" in navigator) {
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => {
        lock = null;
        if (!wanted) show("off");
      });
      if (!wanted) return release(); // turned off again while the lock was on its way
      return show("lock");
    } catch {
      // refused (a battery saver, a hidden page): the video may still do it
    }
  }
  video ??= silentVideo();
  try {
    await video.play();
    if (!wanted) return release();
    show("video");
  } catch (error) {
    // a browser that needs a tap first waits for one; one that refused even a tap cannot
    show(error?.name === "NotAllowedError" && !navigator.userActivation?.isActive ? "waiting" : "failed");
  }
}

function release() {
  lock?.release();
  lock = null;
  video?.pause();
  show("off");
}

function toggle() {
  wanted = !wanted;
  localStorage.setItem(KEY, wanted ? "on" : "off");
  if (wanted) keep();
  else release();
}

/** A tap anywhere takes the screen again where it waits for one. */
function onGesture(event) {
  if (event.target instanceof Element && event.target.closest("#wake")) return; // the button's own
  if (wanted && ["waiting", "failed"].includes($("wake").dataset.wake)) keep();
}

export function startScreenTools() {
  if (!$("phone-panel")) return;
  showAddress();
  $("fullscreen").addEventListener("click", fullScreen);
  $("wake").addEventListener("click", toggle);
  show("off");
  if (wanted) keep();
  for (const type of GESTURES) document.addEventListener(type, onGesture, { capture: true, passive: true });
  // a wake lock ends when the page is hidden, and a video may be paused: take it again when
  // the tablet comes back
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && wanted && !lock && (video === null || video.paused)) keep();
  });
}
