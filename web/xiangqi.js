/* xiangqi.js: plays the cartridge (the ROM named by <body data-rom>) in jsnes.
 *
 * jsnes (its browser bundle, the global `jsnes`) emulates the console; this
 * script gives it a screen, a controller, sound and a power switch:
 *
 *  - the screen: every frame drawn to a 256x240 canvas, scaled by CSS to the
 *    largest size that fits (a whole number of device pixels per NES pixel
 *    when it can), with smoothing off;
 *  - the controller: the keys of `make play` (KEYMAP below, which also fills
 *    the page's key table), matched by `code` (the key's place, as SDL's
 *    scancodes in `make play`) and by `key` (its meaning: what some
 *    keyboards and WebDriver send, e.g. "Enter" with code "NumpadEnter"),
 *    and the on-screen buttons (pointer events: touch, pen or mouse).  A
 *    press lasts at least MIN_PRESS_FRAMES frames, so a tap shorter than a
 *    frame still reaches the cartridge;
 *  - sound: Web Audio, started by the first key or touch (browsers allow
 *    sound only after a user gesture);
 *  - Power cycle (jsnes' reloadROM: the cartridge from scratch) and Reset
 *    (the console's button: the CPU's reset, RAM kept).
 *
 * The emulator runs at the NES's 60.0988 frames a second by the clock, not
 * by the display's refresh rate.  jsnes blanks an 8-pixel border unless
 * ppu.clipToTvSize is false, and every ROM load makes a new PPU, so it is
 * set after each load.
 *
 * window.xiangqi is for tests and the curious: the NES object, the frame
 * count since power-on, snapshots of RAM (and the picture) taken between
 * frames, a wait for frames to pass, and the pad's log.
 */
"use strict";

(() => {
  const NES_FPS = 60.0988;
  const MIN_PRESS_FRAMES = 3;   // docs/UI.md: the main loop may take 2 frames for one pass
  const MAX_CATCH_UP = 4;       // frames run per animation frame at most, else the clock restarts
  const SAMPLE_RATE = 48000;
  const RAM_SIZE = 0x800;
  const PAD_LOG_MAX = 100000;

  const C = jsnes.Controller;
  const BUTTON = {
    a: C.BUTTON_A, b: C.BUTTON_B, select: C.BUTTON_SELECT, start: C.BUTTON_START,
    up: C.BUTTON_UP, down: C.BUTTON_DOWN, left: C.BUTTON_LEFT, right: C.BUTTON_RIGHT,
  };

  // The keys, as in `make play` (tools/nes/player.py).  `codes`: KeyboardEvent.code
  // values; `keys`: KeyboardEvent.key values (compared in lower case).
  // Entries with the same `row` share a line of the page's key table.
  const KEYMAP = [
    { row: "Arrow keys", nes: "D-pad", does: "move the cursor; menus", button: "up", codes: ["ArrowUp"], keys: ["arrowup", "up"] },
    { row: "Arrow keys", button: "down", codes: ["ArrowDown"], keys: ["arrowdown", "down"] },
    { row: "Arrow keys", button: "left", codes: ["ArrowLeft"], keys: ["arrowleft", "left"] },
    { row: "Arrow keys", button: "right", codes: ["ArrowRight"], keys: ["arrowright", "right"] },
    { row: "X", nes: "A", does: "pick up or put down a piece; confirm", button: "a", codes: ["KeyX"], keys: ["x"] },
    { row: "Z", nes: "B", does: "cancel", button: "b", codes: ["KeyZ"], keys: ["z"] },
    { row: "S or Enter", nes: "Start", does: "play; the pause menu", button: "start", codes: ["KeyS", "Enter", "NumpadEnter"], keys: ["s", "enter"] },
    { row: "A or Right Shift", nes: "Select", does: "(not used by the game)", button: "select", codes: ["KeyA", "ShiftRight"], keys: ["a"] },
    { row: "R", nes: "Reset", does: "the console's Reset button: back to the title", action: "reset", codes: ["KeyR"], keys: ["r"] },
  ];
  const BY_CODE = new Map();
  const BY_KEY = new Map();
  for (const entry of KEYMAP) {
    for (const code of entry.codes) BY_CODE.set(code, entry);
    for (const key of entry.keys) BY_KEY.set(key, entry);
  }

  const canvas = document.getElementById("nes");
  const statusLine = document.getElementById("status");
  const soundLine = document.getElementById("sound");
  const context = canvas.getContext("2d", { alpha: false });
  const image = context.createImageData(256, 240);
  const pixels = new Uint32Array(image.data.buffer);

  let frames = 0;               // frames run since power-on
  let running = false;
  let stopped = false;          // the emulator crashed or the cartridge did not load
  let clockStart = null;        // performance.now() when frame `clockFrames` was due
  let clockFrames = 0;
  const waiters = [];           // [frame, resolve, hold]: xiangqi.afterFrames
  let held = false;             // a test holds the emulator between two of its steps

  function setStatus(text) {
    statusLine.textContent = text;
  }

  // The emulator stopped or never started: nothing will run, so every wait ends now.
  function stop(message, error) {
    running = false;
    stopped = true;
    setStatus(message);
    if (error) console.error(error);
    for (const [, resolve] of waiters.splice(0)) resolve();
  }

  // ---- sound ---------------------------------------------------------------
  const sound = {
    context: null,
    node: null,
    muted: false,
    batch: new Float32Array(4096),
    count: 0,
    samples: 0,                 // samples handed to the audio thread
    loud: 0,                    // of them, not silent

    // Called by the first key or touch: a gesture lets the AudioContext run.
    start() {
      if (this.context) {
        if (this.context.state === "suspended" && !this.muted) this.context.resume();
        return;
      }
      const AudioContext = window.AudioContext || window.webkitAudioContext;
      if (!AudioContext) {
        soundLine.textContent = "No sound: this browser has no Web Audio.";
        return;
      }
      try {
        this.context = new AudioContext({ sampleRate: SAMPLE_RATE });   // jsnes makes 48 kHz
      } catch (error) {
        soundLine.textContent = `No sound: ${error.message || error}`;
        this.start = () => {};
        return;
      }
      this.context.audioWorklet
        .addModule(document.body.dataset.soundWorklet)
        .then(() => {
          this.node = new AudioWorkletNode(this.context, "nes-sound", { outputChannelCount: [1] });
          this.node.connect(this.context.destination);
          this.showState();
        })
        .catch((error) => {
          soundLine.textContent = `No sound: ${error.message || error}`;
        });
      this.context.onstatechange = () => this.showState();
    },

    showState() {
      if (!this.context) return;
      soundLine.textContent = this.muted ? "Sound off." : this.context.state === "running" ? "Sound on." : "Sound paused.";
    },

    toggleMute() {
      this.muted = !this.muted;
      document.getElementById("mute").setAttribute("aria-pressed", String(this.muted));
      if (this.context) {
        if (this.muted) this.context.suspend();
        else this.context.resume();
      }
      this.showState();
    },

    sample(left, right) {
      if (this.node && this.count < this.batch.length) this.batch[this.count++] = (left + right) / 2;
    },

    // After each frame: the frame's samples (about 800) to the audio thread,
    // only while it plays (a suspended context would pile them up).
    flush() {
      if (this.count && this.context && this.context.state === "running") {
        const chunk = this.batch.slice(0, this.count);
        for (const v of chunk) if (v !== 0) this.loud++;
        this.samples += chunk.length;
        this.node.port.postMessage(chunk, [chunk.buffer]);
      }
      this.count = 0;
    },
  };

  // ---- the console -----------------------------------------------------------
  const nes = new jsnes.NES({
    onFrame(buffer) {
      // jsnes' pixels are 0xBBGGRR; the canvas' little-endian words are ABGR.
      for (let i = 0; i < 256 * 240; i++) pixels[i] = 0xff000000 | buffer[i];
    },
    onAudioSample: (left, right) => sound.sample(left, right),
    sampleRate: SAMPLE_RATE,
  });

  // ---- the controller -------------------------------------------------------
  // A button is down while any source (a key, a finger) holds it, and for
  // at least MIN_PRESS_FRAMES frames; the pad's state is set before each frame.
  const pad = {
    sources: new Map(),         // source id -> button
    holders: new Array(8).fill(0),
    down: new Array(8).fill(false),
    downSince: new Array(8).fill(0),
    log: [],                    // [frame, buttons held during it (bit n = jsnes button n)] at each change
    lastMask: 0,
    presses: 0,                 // button presses seen (keys and touches)

    press(source, button) {
      if (this.sources.has(source)) return;
      this.sources.set(source, button);
      this.presses++;
      if (this.holders[button]++ === 0 && !this.down[button]) {
        this.down[button] = true;
        this.downSince[button] = frames;
        nes.buttonDown(1, button);
      }
      showPressed(button, true);
    },

    release(source) {
      const button = this.sources.get(source);
      if (button === undefined) return;
      this.sources.delete(source);
      if (--this.holders[button] === 0) showPressed(button, false);
    },

    releaseAll() {
      for (const source of [...this.sources.keys()]) this.release(source);
    },

    // Before frame `frames` runs: let go of the buttons no one holds any more
    // that were down long enough; log the state if it changed.
    beforeFrame() {
      let mask = 0;
      for (let b = 0; b < 8; b++) {
        if (this.down[b] && this.holders[b] === 0 && frames - this.downSince[b] >= MIN_PRESS_FRAMES) {
          this.down[b] = false;
          nes.buttonUp(1, b);
        }
        if (this.down[b]) mask |= 1 << b;
      }
      if (mask !== this.lastMask && this.log.length < PAD_LOG_MAX) this.log.push([frames, mask]);
      this.lastMask = mask;
    },

    clear() {
      this.releaseAll();
      for (let b = 0; b < 8; b++) {
        if (this.down[b]) nes.buttonUp(1, b);
        this.down[b] = false;
      }
      this.log = [];
      this.lastMask = 0;
    },
  };

  const touchButtons = new Map();   // button -> [elements]
  for (const el of document.querySelectorAll("#touch [data-button]")) {
    const button = BUTTON[el.dataset.button];
    if (!touchButtons.has(button)) touchButtons.set(button, []);
    touchButtons.get(button).push(el);
  }
  function showPressed(button, down) {
    for (const el of touchButtons.get(button) || []) el.classList.toggle("down", down);
  }

  // ---- running -----------------------------------------------------------------
  function afterLoad() {
    nes.ppu.clipToTvSize = false;   // each load makes a new PPU
    frames = 0;
    clockStart = null;
  }

  function powerCycle() {
    if (!nes.romData) return;
    pad.clear();
    nes.reloadROM();
    afterLoad();
    setStatus("");
    running = true;
    stopped = false;
  }

  function reset() {
    if (!nes.romData || !running) return;
    nes.cpu.requestIrq(nes.cpu.IRQ_RESET);
  }

  function runFrame() {
    pad.beforeFrame();
    nes.frame();
    frames++;
    sound.flush();
  }

  function onAnimationFrame(now) {
    requestAnimationFrame(onAnimationFrame);
    if (!running || held) return;
    if (clockStart === null) {
      clockStart = now;
      clockFrames = frames;
    }
    let due = Math.floor(((now - clockStart) * NES_FPS) / 1000) + clockFrames - frames;
    if (due > MAX_CATCH_UP) {        // the tab was hidden, or the machine is too slow
      clockStart = now;
      clockFrames = frames;
      due = 1;
    }
    if (due <= 0) return;
    // a waiter's frame ends this batch, so its snapshot shows exactly that frame
    const stopAt = waiters.reduce((first, w) => Math.min(first, w[0]), Infinity);
    try {
      for (let i = 0; i < due && frames < stopAt; i++) runFrame();
    } catch (error) {
      stop(`The emulated console stopped (${error.message || error}). Press Power cycle to start again.`, error);
    }
    context.putImageData(image, 0, 0);
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (frames < waiters[i][0]) continue;
      const [, resolve, hold] = waiters.splice(i, 1)[0];
      if (hold) {                     // stop here until the test's next step
        held = true;
        clockStart = null;            // and do not catch up the held time afterwards
      }
      resolve();
    }
  }

  // ---- the screen's size: as large as fits, whole device pixels if it can ----
  function fitScreen() {
    const box = document.getElementById("screen");
    const play = document.getElementById("play");
    const others = play.offsetHeight - box.offsetHeight;    // what shares the height with the screen
    const width = box.clientWidth;
    const height = Math.max(120, window.innerHeight - others - 16);
    const dpr = window.devicePixelRatio || 1;
    let scale = Math.min(width / 256, height / 240) * dpr;  // device pixels per NES pixel
    if (scale >= 1) scale = Math.floor(scale);
    canvas.style.width = `${(256 * scale) / dpr}px`;
    canvas.style.height = `${(240 * scale) / dpr}px`;
  }

  // ---- input events -------------------------------------------------------------
  function keyEntry(event) {
    return BY_CODE.get(event.code) || BY_KEY.get((event.key || "").toLowerCase());
  }

  window.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;   // the browser's shortcuts
    const entry = keyEntry(event);
    if (!entry) return;
    event.preventDefault();        // no scrolling, no button clicks from Enter
    sound.start();
    if (event.repeat) return;
    if (entry.action === "reset") reset();
    else pad.press(`key:${event.code || event.key}`, BUTTON[entry.button]);
  });
  window.addEventListener("keyup", (event) => {
    pad.release(`key:${event.code || event.key}`);
    if (keyEntry(event)) event.preventDefault();
  });
  window.addEventListener("blur", () => pad.releaseAll());   // keys let go elsewhere

  for (const [button, elements] of touchButtons) {
    for (const el of elements) {
      el.addEventListener("pointerdown", (event) => {
        event.preventDefault();
        sound.start();
        el.setPointerCapture(event.pointerId);
        pad.press(`pointer:${event.pointerId}`, button);
      });
      for (const type of ["pointerup", "pointercancel", "lostpointercapture"]) {
        el.addEventListener(type, (event) => pad.release(`pointer:${event.pointerId}`));
      }
      el.addEventListener("contextmenu", (event) => event.preventDefault());
    }
  }
  document.getElementById("power").addEventListener("click", (event) => {
    sound.start();
    powerCycle();
    event.currentTarget.blur();
  });
  document.getElementById("reset").addEventListener("click", (event) => {
    sound.start();
    reset();
    event.currentTarget.blur();
  });
  document.getElementById("mute").addEventListener("click", (event) => {
    sound.start();
    sound.toggleMute();
    event.currentTarget.blur();
  });
  window.addEventListener("resize", fitScreen);
  matchMedia("(any-pointer: coarse)").addEventListener("change", fitScreen);   // the pad shown or hidden

  // ---- the key table, from KEYMAP ------------------------------------------------
  function fillKeyTable() {
    const body = document.querySelector("#keys tbody");
    for (const entry of KEYMAP) {
      if (!entry.nes) continue;      // a further key of the row above
      const row = body.insertRow();
      for (const text of [entry.row, entry.nes, entry.does]) row.insertCell().textContent = text;
    }
  }

  // ---- start -----------------------------------------------------------------------
  async function loadCartridge() {
    const url = document.body.dataset.rom;
    if (location.protocol === "file:") {
      throw new Error("this page cannot read the cartridge from a file: serve it over HTTP (make serve)");
    }
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
    nes.loadROM(new Uint8Array(await response.arrayBuffer()));
    afterLoad();
    setStatus("");
    running = true;
  }

  window.xiangqi = {
    get nes() { return nes; },
    get frames() { return frames; },
    get running() { return running; },
    get presses() { return pad.presses; },
    get pad() { return { log: pad.log.map((e) => e.slice()), down: pad.down.slice() }; },
    get sound() {
      const ctx = sound.context;
      return { state: ctx ? ctx.state : "not started", ready: !!sound.node, samples: sound.samples, loud: sound.loud };
    },
    KEYMAP,
    MIN_PRESS_FRAMES,
    // RAM ($0000-$07FF) and the frame count, read between frames; with
    // `picture`, also the canvas as a PNG data URL (the same frame).
    snapshot(picture = false) {
      const shot = { frames, running, presses: pad.presses, ram: Array.from(nes.cpu.mem.subarray(0, RAM_SIZE)) };
      if (picture) shot.picture = canvas.toDataURL("image/png");
      return shot;
    },
    // Resolves once `n` more frames have run and been drawn, or at once if
    // the emulator is not running (and after loading: frame 0 is the first).
    // With `hold`, the emulator then waits for the next call (or release()):
    // a test driving the page steps it frame by frame, however slow the test.
    afterFrames(n, hold = false) {
      held = false;
      return new Promise((resolve) => {
        if (stopped) resolve();
        else waiters.push([frames + Math.max(1, n), resolve, hold]);
      });
    },
    release() {
      held = false;
    },
    powerCycle,
    reset,
  };

  fillKeyTable();
  fitScreen();
  requestAnimationFrame(onAnimationFrame);
  loadCartridge().catch((error) => stop(`Cannot start the cartridge: ${error.message || error}`, error));
})();
