// The replay page's viewer: the match re-simulated by carom's own core,
// compiled to WebAssembly (carom-viewer.js, which defines createCaromViewer,
// and its WebAssembly, gzipped), drawn on a canvas. `carom-replay html` puts
// this script, the module and the replay into one page; a .crpl dropped on
// the page replaces the replay. Its compressed chunks are read by the zstd
// inside the module, as carom-replay reads them.
'use strict';

// The replay's structs, beside those of the field and scene (abi.js).
Object.assign(S, {
  replayInfo: struct('carom_replay_info'),
  verify: struct('carom_verify_result'),
  viewerInfo: struct('carom_viewer_info'),
  viewerGoal: struct('carom_viewer_goal'),
  roster: struct('carom_roster_entry'),
});
const KEY = ABI.enums.carom_view_key;

// ---- Verification, in a worker ------------------------------------------
// The page's own copy of the module re-simulates the whole match in a worker
// (carom_replay_verify: every tick's hash, every keyframe, the footer), so
// the drawing never waits for it. Both run from the page's own text: no
// network, and a page opened from file:// works.
const WORKER_MAIN = `
onmessage = async (event) => {
  const started = performance.now();
  const carom = new Carom(await createCaromViewer({ wasmBinary: event.data.wasm }));
  try {
    const replay = carom.withBytes(new Uint8Array(event.data.replay), (at, size) => {
      carom.call('carom_replay_open_bytes', at, size, carom.scratch);
      return carom.handle();
    });
    const result = carom.get('carom_replay_verify', S.verify, replay);
    postMessage({ result, ms: performance.now() - started });
  } catch (error) {
    postMessage({ error: String(error.message || error), ms: performance.now() - started });
  }
};`;

function startVerification(wasm, bytes, onDone) {
  const source = [document.getElementById('carom-module').textContent,
    `const S = ${JSON.stringify(S)};`,
    Carom.toString(), WORKER_MAIN].join('\n');
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const worker = new Worker(url);
  worker.onmessage = (event) => { onDone(event.data); worker.terminate(); URL.revokeObjectURL(url); };
  worker.onerror = (event) => { onDone({ error: event.message || 'the worker failed', ms: 0 }); };
  worker.postMessage({ wasm, replay: bytes.slice().buffer });
  return worker;
}

// ---- The viewer ------------------------------------------------------------
class Viewer {
  constructor(carom, bytes, name) {
    this.carom = carom;
    this.name = name;
    this.replay = carom.withBytes(bytes, (at, size) => {
      carom.call('carom_replay_open_bytes', at, size, carom.scratch);
      return carom.handle();
    });
    this.info = carom.get('carom_replay_get_info', S.replayInfo, this.replay);
    carom.call('carom_replay_map', this.replay, carom.scratch);
    this.map = carom.handle();
    Object.assign(this, fieldOf(carom, this.map));
    this.roster = carom.list('carom_replay_roster', S.roster, this.replay);
    this.rosterTicks = this.roster.map((r) => Number(r.tick)).sort((x, y) => x - y);
    this.names = new Map();
    this.namesAt = -1;
    carom.call('carom_viewer_create', this.replay, carom.scratch);
    this.viewer = carom.handle();
    this.goals = carom.list('carom_viewer_goals', S.viewerGoal, this.viewer);
    this.timeline = this.state();
    this.rate = this.timeline.tick_rate;
    this.lastTick = Number(this.timeline.last_tick);
    this.length = Number(this.timeline.length);
  }

  free() {
    const m = this.carom.m;
    m._carom_viewer_free(this.viewer);
    m._carom_map_free(this.map);
    m._carom_replay_free(this.replay);
  }

  // The playhead, the speed and the timeline's words (carom_viewer_info).
  state() {
    return this.carom.get('carom_viewer_get_info', S.viewerInfo, this.viewer);
  }

  // The playhead to `position`; what it cost (ticks re-simulated).
  seek(position) {
    const stepsAt = this.carom.scratch + 16;
    this.carom.call('carom_viewer_seek', this.viewer, BigInt(position), stepsAt);
    return Number(new DataView(this.carom.m.HEAPU8.buffer).getBigUint64(stepsAt, true));
  }

  press(key) { this.carom.call('carom_viewer_press', this.viewer, key); }
  advance(seconds) { this.carom.call('carom_viewer_advance', this.viewer, seconds); }
  setSpeed(speed) { this.carom.call('carom_viewer_set_speed', this.viewer, speed); }

  // `ticks` as the viewer writes a time ("m:ss.t").
  clock(ticks) {
    const at = this.carom.scratch + 32;
    this.carom.call('carom_clock_text', BigInt(ticks), this.rate, at, 32);
    return this.carom.m.UTF8ToString(at);
  }

  // The scene at the viewer's tick, in one call: a disk per puck, slot and
  // disc at most; the players' with their slots, named here.
  scene(follow, tick) {
    const m = this.carom.m;
    const capacity = this.mapInfo.pucks + this.mapInfo.slots + this.mapInfo.discs;
    const disksAt = m._malloc(S.sceneDisk.size * capacity);
    const hudAt = m._malloc(S.hud.size);
    const countAt = this.carom.scratch + 8;
    try {
      this.carom.call('carom_viewer_scene', this.viewer, follow, disksAt, capacity, countAt, hudAt);
      const n = Math.min(new DataView(m.HEAPU8.buffer).getUint32(countAt, true), capacity);
      const disks = Array.from({ length: n }, (_, i) => this.carom.read(S.sceneDisk, disksAt + i * S.sceneDisk.size));
      this.keepNames(tick);
      for (const d of disks) if (d.slot >= 0) d.name = this.nameOf(d.slot);
      return { disks, hud: this.carom.read(S.hud, hudAt) };
    } finally {
      m._free(hudAt);
      m._free(disksAt);
    }
  }

  // The players' names are asked of the match once, until the roster
  // changes: forgotten when a join or leave lies between their tick and `tick`.
  keepNames(tick) {
    let lo = 0;
    let hi = this.rosterTicks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.rosterTicks[mid] <= tick) lo = mid + 1; else hi = mid;
    }
    if (lo !== this.namesAt) {
      this.names = new Map();
      this.namesAt = lo;
    }
  }

  // The name of the player in `slot` at the viewer's tick.
  nameOf(slot) {
    if (!this.names.has(slot)) {
      const match = this.carom.m._carom_viewer_match(this.viewer);
      this.names.set(slot, this.carom.get('carom_match_player', S.player, match, slot).name);
    }
    return this.names.get(slot);
  }

  // The speeds the viewer plays at.
  speeds() { return this.carom.list('carom_viewer_speeds', { size: 8, offsets: { s: { at: 0, type: 'double', count: 1 } } }).map((x) => x.s); }
}

// ---- The page ----------------------------------------------------------------
const fromBase64 = (text) => Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));

// The module's WebAssembly, which the page holds gzipped.
function inflate(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}

async function main() {
  const $ = (id) => document.getElementById(id);
  const params = new URLSearchParams(location.search);
  const wasm = await inflate(fromBase64($('carom-wasm').textContent));
  const carom = new Carom(await createCaromViewer({ wasmBinary: wasm }));
  const canvas = $('field');
  let v = null;
  let worker = null;
  let follow = -1;
  let lastFrame = null;
  let lastSeek = null;  // { tick, ms, steps }
  let state = null;     // carom_viewer_info after the last move

  // The browser's keys: what each does is the viewer's (carom_viewer_press),
  // as in carom-replay play.
  const KEYS = {
    ' ': KEY.CAROM_VIEW_PAUSE, p: KEY.CAROM_VIEW_PAUSE, '+': KEY.CAROM_VIEW_FASTER,
    '=': KEY.CAROM_VIEW_FASTER, '-': KEY.CAROM_VIEW_SLOWER, _: KEY.CAROM_VIEW_SLOWER,
    ArrowLeft: KEY.CAROM_VIEW_BACK_5S, ArrowRight: KEY.CAROM_VIEW_FORWARD_5S,
    ArrowUp: KEY.CAROM_VIEW_BACK_30S, ArrowDown: KEY.CAROM_VIEW_FORWARD_30S,
    '[': KEY.CAROM_VIEW_PREVIOUS_GOAL, ']': KEY.CAROM_VIEW_NEXT_GOAL,
    ',': KEY.CAROM_VIEW_TICK_BACK, '<': KEY.CAROM_VIEW_TICK_BACK,
    '.': KEY.CAROM_VIEW_TICK_FORWARD, '>': KEY.CAROM_VIEW_TICK_FORWARD,
    Home: KEY.CAROM_VIEW_HOME, g: KEY.CAROM_VIEW_HOME, End: KEY.CAROM_VIEW_END, G: KEY.CAROM_VIEW_END,
  };

  function seekTo(position) {
    const t0 = performance.now();
    const steps = v.seek(Math.max(0, Math.floor(position)));
    state = v.state();
    return { tick: Number(state.position), ms: performance.now() - t0, steps };
  }

  function render() {
    if (!v) return;
    const scene = v.scene(follow, Number(state.tick));
    draw(canvas, v, scene);
    const h = scene.hud;
    $('score').textContent = `${h.score[0]} : ${h.score[1]}`;
    $('clock').textContent = h.clock;
    $('phase').textContent = h.phase_text;
    $('time').textContent = state.time;
    $('timeline').value = String(state.position);
    $('play').textContent = state.paused ? 'play' : 'pause';
    $('speed').value = String(state.speed);
  }

  function frame(now) {
    if (v && lastFrame !== null && !state.paused) {
      v.advance((now - lastFrame) / 1000);
      state = v.state();
    }
    lastFrame = now;
    render();
    requestAnimationFrame(frame);
  }

  function press(key) {
    v.press(key);
    state = v.state();
  }

  function showVerdict(outcome, v0) {
    if (v !== v0) return;  // a newer replay was dropped meanwhile
    const el = $('verdict');
    const seconds = outcome.ms / 1000;
    if (outcome.error) {
      el.textContent = `could not verify: ${outcome.error}`;
      el.className = 'bad';
      return;
    }
    const r = outcome.result;
    const realTime = Number(r.ticks) / v.rate / Math.max(seconds, 1e-6);
    const pace = `${r.ticks} ticks re-simulated in ${seconds.toFixed(2)} s, ${Math.round(realTime)}× real time`;
    if (r.ok && v.info.has_footer) {
      el.textContent = `verified: final hash ${hex(r.final_hash)} matches the file (${pace})`;
      el.className = 'good';
    } else if (r.ok) {
      el.textContent = `verified to tick ${r.ticks}: every tick matches the file, which has no footer ` +
        `(final hash ${hex(r.final_hash)}; ${pace})`;
      el.className = 'good';
    } else if (r.diverged) {
      el.textContent = `DIVERGED at tick ${r.divergence_tick}: ${r.what}`;
      el.className = 'bad';
    } else {
      // A file cut short (or one that cannot be played back): what it holds, and why no proof.
      el.textContent = `not proven: ${r.what}; its first ${r.ticks} ticks re-simulate as recorded`;
      el.className = 'bad';
    }
    el.dataset.ticks = String(r.ticks);
    el.dataset.ms = String(outcome.ms);
  }

  function load(bytes, name) {
    if (worker) worker.terminate();
    if (v) v.free();
    v = null;
    try {
      v = new Viewer(carom, bytes, name);
    } catch (error) {
      $('verdict').textContent = `${name}: ${error.message}`;
      $('verdict').className = 'bad';
      return;
    }
    const i = v.info;
    document.title = `carom: ${i.map_name}, ${i.score[0]} : ${i.score[1]}`;
    $('title').textContent = `${name}: ${i.map_name}, ${v.clock(v.lastTick)}` +
      (i.problem ? ` (the file stops early: ${i.problem})` : '');
    const tl = $('timeline');
    tl.max = String(v.length);
    const marks = $('marks');
    marks.replaceChildren(...v.goals.map((g) => {
      const mark = document.createElement('span');
      mark.className = `mark ${g.team === 0 ? 'left' : 'right'}`;
      mark.style.left = `${(100 * Number(g.tick)) / Math.max(v.length, 1)}%`;
      mark.title = `goal at ${v.clock(g.tick)}`;
      mark.onclick = () => { lastSeek = seekTo(Number(g.tick) + 1); render(); };
      return mark;
    }));
    const names = new Map();
    for (const r of v.roster) if (r.join) names.set(r.slot, r.name);
    $('follow').replaceChildren(new Option('nobody', '-1'),
      ...[...names].map(([slot, n]) => new Option(n, String(slot))));
    follow = -1;
    $('speed').replaceChildren(...v.speeds().map((s) => new Option(`${s}×`, String(s))));
    v.setSpeed(Number(params.get('speed')) || 1);
    $('verdict').textContent = 'verifying: re-simulating the whole match…';
    $('verdict').className = '';
    const v0 = v;
    worker = startVerification(wasm, bytes, (outcome) => showVerdict(outcome, v0));
    lastSeek = seekTo(Number(params.get('tick') || 0));
    if (params.get('autoplay') === '1') press(KEY.CAROM_VIEW_PAUSE);
    render();
  }

  $('play').onclick = () => { press(KEY.CAROM_VIEW_PAUSE); render(); };
  $('timeline').oninput = (e) => { lastSeek = seekTo(Number(e.target.value)); render(); };
  $('speed').onchange = (e) => { v.setSpeed(Number(e.target.value)); state = v.state(); render(); };
  $('follow').onchange = (e) => { follow = Number(e.target.value); render(); };
  document.addEventListener('keydown', (e) => {
    if (!v || e.target.tagName === 'SELECT' || !(e.key in KEYS)) return;
    press(KEYS[e.key]);
    e.preventDefault();
    render();
  });
  // A .crpl dropped anywhere on the page: read by the same module.
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', async (e) => {
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) load(new Uint8Array(await file.arrayBuffer()), file.name);
  });
  const fit = () => {
    const box = canvas.parentElement.getBoundingClientRect();
    canvas.width = Math.max(320, Math.floor(box.width));
    canvas.height = Math.max(180, Math.floor(Math.min(box.width * 0.56, innerHeight - 170)));
    render();
  };
  addEventListener('resize', fit);

  // For tests and embedding pages: the position and what the last seek cost.
  window.carom = {
    seek: (tick) => { lastSeek = seekTo(tick); render(); return lastSeek; },
    press: (name) => { press(KEY[name]); render(); return window.carom.state(); },
    state: () => ({ position: state ? Number(state.position) : 0, playing: state ? !state.paused : false,
      speed: state ? state.speed : 1, follow, length: v && v.length, lastSeek,
      goals: v ? v.goals.map((g) => Number(g.tick)) : [] }),
    load,
  };

  const data = $('carom-replay').textContent.trim();
  if (data) {
    load(fromBase64(data), $('carom-replay').dataset.name);
  } else {
    $('verdict').textContent = 'drop a .crpl file on this page';
  }
  fit();
  requestAnimationFrame(frame);
}

main().catch((error) => {
  document.getElementById('verdict').textContent = `the viewer failed to start: ${error.message || error}`;
});
