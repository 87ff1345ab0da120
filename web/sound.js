/* sound.js: the audio thread's half of the page's sound (an AudioWorklet).
 *
 * xiangqi.js posts each emulated frame's samples (mono, 48 kHz, about 800 a
 * frame); this plays them in order from a ring buffer.  When the buffer runs
 * dry it plays silence; when it holds more than MAX_QUEUED samples (the page
 * ran frames faster than real time, e.g. catching up after a stall) the
 * oldest are dropped, so the sound never lags the picture by more than that.
 */
"use strict";

const CAPACITY = 16384;
const MAX_QUEUED = 4800;   // 100 ms at 48 kHz

class NesSound extends AudioWorkletProcessor {
  constructor() {
    super();
    this.ring = new Float32Array(CAPACITY);
    this.read = 0;
    this.queued = 0;
    this.port.onmessage = (event) => this.push(event.data);
  }

  push(samples) {
    for (let i = 0; i < samples.length; i++) {
      this.ring[(this.read + this.queued) % CAPACITY] = samples[i];
      if (this.queued < CAPACITY) this.queued++;
      else this.read = (this.read + 1) % CAPACITY;
    }
    if (this.queued > MAX_QUEUED) {
      this.read = (this.read + this.queued - MAX_QUEUED) % CAPACITY;
      this.queued = MAX_QUEUED;
    }
  }

  process(inputs, outputs) {
    const out = outputs[0][0];
    for (let i = 0; i < out.length; i++) {
      if (this.queued > 0) {
        out[i] = this.ring[this.read];
        this.read = (this.read + 1) % CAPACITY;
        this.queued--;
      } else {
        out[i] = 0;
      }
    }
    return true;
  }
}

registerProcessor("nes-sound", NesSound);
