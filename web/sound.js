// The game's sound output (Web Audio), loaded once the game is ready
// (`slotStudio.loadSound`, used by slotui.webaudio): one AudioContext, created or resumed by
// the first tap or key, suspended while the page is hidden. Python's `slotui.cues` decides
// every cue; this plays a cue's notes, given flat, in one call (a call from Python costs).

const FIELDS = 7; // freq, dur, at, wave, gain, to, attack (slotui.webaudio.flat)
const WAVES = ["sine", "square", "sawtooth", "triangle", "noise"];

export function createAudio() {
  let ctx = null;
  let master = null;
  let noise = null;
  let volume = 0.8;
  let muted = false;
  let nextId = 1;
  let gestured = false; // a tap or key seen: a context may start
  const playing = new Map(); // id -> [[source, gain], ...] (until they have sounded)
  const api = { state: "none", onstate: null };

  const told = () => {
    api.state = ctx ? ctx.state : "none";
    if (api.onstate) api.onstate(api.state);
  };
  const level = () => {
    if (master) master.gain.setTargetAtTime(muted ? 0 : volume * volume, ctx.currentTime, 0.02);
  };
  const make = () => {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return;
    ctx = new AC();
    master = ctx.createGain();
    master.gain.value = muted ? 0 : volume * volume;
    master.connect(ctx.destination);
    // One second of white noise, from a fixed seed: rustles, wind, whooshes.
    noise = ctx.createBuffer(1, ctx.sampleRate, ctx.sampleRate);
    const data = noise.getChannelData(0);
    let x = 0x2545f491;
    for (let i = 0; i < data.length; i++) {
      x ^= x << 13; x ^= x >>> 17; x ^= x << 5;
      data[i] = ((x >>> 0) / 4294967296) * 2 - 1;
    }
    ctx.onstatechange = told;
    told();
  };

  /** A gesture (the first tap or key): create the context, or resume it. */
  api.start = () => {
    gestured = true;
    if (muted || document.hidden) return;
    if (!ctx) make();
    else if (ctx.state === "suspended") ctx.resume().catch(() => {});
  };
  /** Once loaded: a page that had a tap or key already (sticky activation) may start at once. */
  api.startIfAllowed = () => {
    if (navigator.userActivation?.hasBeenActive) api.start();
  };
  api.running = () => !!ctx && ctx.state === "running" && !document.hidden && !muted;
  api.time = () => (ctx ? ctx.currentTime : 0);
  api.setLevel = (v, m) => {
    volume = v;
    muted = m;
    if (!ctx) {
      // Unmuted by the player's tap or key (or by the host once the page had one): it may start.
      if (!m && (gestured || navigator.userActivation?.hasBeenActive) && !document.hidden) make();
      return;
    }
    level();
    if (m) ctx.suspend().catch(() => {});
    else if (!document.hidden) ctx.resume().catch(() => {});
  };
  /** Play the notes (FIELDS numbers each) from context time `at`; an id for `stop`. */
  api.play = (flat, at) => {
    if (!ctx) return 0;
    const nodes = [];
    for (let i = 0; i + FIELDS <= flat.length; i += FIELDS) {
      const [freq, dur, off, wave, gain, to, attack] = flat.slice(i, i + FIELDS);
      const t = at + off;
      const g = ctx.createGain();
      g.gain.setValueAtTime(0.0001, t);
      g.gain.exponentialRampToValueAtTime(Math.max(gain, 0.0002), t + Math.max(attack, 0.002));
      g.gain.exponentialRampToValueAtTime(0.0001, t + Math.max(dur, attack + 0.01));
      g.connect(master);
      let src;
      if (WAVES[wave] === "noise") {
        src = ctx.createBufferSource();
        src.buffer = noise;
        src.loop = true;
        const band = ctx.createBiquadFilter();
        band.type = "bandpass";
        band.Q.value = 0.9;
        band.frequency.setValueAtTime(freq, t);
        if (to > 0) band.frequency.exponentialRampToValueAtTime(to, t + dur);
        src.connect(band);
        band.connect(g);
      } else {
        src = ctx.createOscillator();
        src.type = WAVES[wave] || "sine";
        src.frequency.setValueAtTime(freq, t);
        if (to > 0) src.frequency.exponentialRampToValueAtTime(to, t + dur);
        src.connect(g);
      }
      src.start(t);
      src.stop(t + dur + 0.03);
      nodes.push([src, g]);
    }
    const id = nextId++;
    playing.set(id, nodes);
    const last = nodes.length ? nodes[nodes.length - 1][0] : null;
    if (last) last.onended = () => playing.delete(id);
    return id;
  };
  /** Silence cue `id` from context time `when` (a short fade; what has not begun never sounds). */
  api.stop = (id, when) => {
    const nodes = playing.get(id);
    if (!nodes) return;
    playing.delete(id);
    for (const [src, g] of nodes) {
      try {
        g.gain.cancelScheduledValues(when);
        g.gain.setTargetAtTime(0.0001, when, 0.015);
        src.stop(when + 0.06);
      } catch {
        // already stopped
      }
    }
  };

  // Hidden: suspended (nothing is scheduled meanwhile); visible again: resumed.
  document.addEventListener("visibilitychange", () => {
    if (!ctx) return;
    if (document.hidden) ctx.suspend().catch(() => {});
    else if (!muted) ctx.resume().catch(() => {});
  });
  for (const type of ["pointerdown", "keydown"]) {
    document.addEventListener(type, () => api.start(), { capture: true });
  }
  return api;
}
