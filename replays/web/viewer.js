// The replay page's viewer: the match re-simulated by carom's own core,
// compiled to WebAssembly (carom-viewer.js, which defines createCaromViewer,
// and its WebAssembly, gzipped), drawn on a canvas. `carom-replay html` puts
// this script, the module and the replay into one page; a .crpl dropped on
// the page replaces the replay. Its compressed chunks are read by the zstd
// inside the module, as carom-replay reads them.
'use strict';

// ---- C structs in the module's memory ---------------------------------
// carom.h's layout as wasm32 has it (each struct's size, fields, offsets and
// C types; the enums' values), printed by libcarom's layout program at build
// time and written in here: nothing below knows an offset.
const ABI = @CAROM_ABI@;

// A struct of carom.h by its C name: { size, offsets: { field: { at, type, count } } }.
function struct(name) {
  const s = ABI.structs[name];
  if (!s) throw new Error(`carom.h has no struct ${name}`);
  const offsets = {};
  for (const f of s.fields) offsets[f.name] = { at: f.offset, type: f.type, count: f.count, size: f.size / f.count };
  return { offsets, size: s.size };
}

const S = {
  replayInfo: struct('carom_replay_info'),
  mapInfo: struct('carom_map_info'),
  shape: struct('carom_shape'),
  circle: struct('carom_circle'),
  goal: struct('carom_goal'),
  verify: struct('carom_verify_result'),
  sceneDisk: struct('carom_scene_disk'),
  hud: struct('carom_scene_hud'),
  viewerInfo: struct('carom_viewer_info'),
  viewerGoal: struct('carom_viewer_goal'),
  player: struct('carom_player'),
  roster: struct('carom_roster_entry'),
};
const INK = ABI.enums.carom_ink;
const KEY = ABI.enums.carom_view_key;
const SHAPE = ABI.enums.carom_shape_kind;

// carom.h's functions on one module instance: each call checks its status
// and throws carom_last_error()'s message.
class Carom {
  constructor(module) {
    this.m = module;
    this.scratch = module._malloc(4096);
  }

  call(name, ...args) {
    const status = this.m['_' + name](...args);
    if (status !== 0) throw new Error(this.m.UTF8ToString(this.m._carom_last_error()));
  }

  read(layout, ptr) {
    const view = new DataView(this.m.HEAPU8.buffer);
    const out = {};
    for (const [name, f] of Object.entries(layout.offsets)) {
      const at = ptr + f.at;
      if (f.type === 'char') {
        out[name] = this.m.UTF8ToString(at, f.count);
        continue;
      }
      const one = (p) => {
        switch (f.type) {
          case 'int32_t': return view.getInt32(p, true);
          case 'uint32_t': return view.getUint32(p, true);
          case 'uint8_t': return view.getUint8(p);
          case 'uint64_t': return view.getBigUint64(p, true);
          case 'double': return view.getFloat64(p, true);
          default: throw new Error(`carom.h's ${name}: a ${f.type} is not read here`);
        }
      };
      out[name] = f.count === 1 ? one(at)
        : Array.from({ length: f.count }, (_, i) => one(at + i * f.size));
    }
    return out;
  }

  handle() {  // the pointer a call left in the scratch's first word
    return new DataView(this.m.HEAPU8.buffer).getUint32(this.scratch, true);
  }

  // A struct filled by `name(...args, out)`.
  get(name, layout, ...args) {
    const out = this.m._malloc(layout.size);
    try {
      this.call(name, ...args, out);
      return this.read(layout, out);
    } finally {
      this.m._free(out);
    }
  }

  // Every item of a (buffer, capacity, count) call, asking for the count first.
  list(name, layout, ...args) {
    const countAt = this.scratch + 8;
    this.call(name, ...args, 0, 0, countAt);
    const n = new DataView(this.m.HEAPU8.buffer).getUint32(countAt, true);
    if (n === 0) return [];
    const buffer = this.m._malloc(layout.size * n);
    try {
      this.call(name, ...args, buffer, n, countAt);
      return Array.from({ length: n }, (_, i) => this.read(layout, buffer + i * layout.size));
    } finally {
      this.m._free(buffer);
    }
  }

  openReplay(bytes) {
    const at = this.m._malloc(Math.max(bytes.length, 1));
    try {
      this.m.HEAPU8.set(bytes, at);
      this.call('carom_replay_open_bytes', at, bytes.length, this.scratch);
      return this.handle();
    } finally {
      this.m._free(at);
    }
  }
}

const hex = (h) => h.toString(16).padStart(16, '0');

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
    const replay = carom.openReplay(new Uint8Array(event.data.replay));
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

// ---- Drawing ---------------------------------------------------------------
const COLOUR = {  // by carom_ink
  [INK.CAROM_INK_LEFT]: '#e5534b', [INK.CAROM_INK_RIGHT]: '#4b8fe5',
  [INK.CAROM_INK_PUCK]: '#f4f4f4', [INK.CAROM_INK_OWN]: '#ffd43b',
};
const GOAL_INK = [INK.CAROM_INK_LEFT, INK.CAROM_INK_RIGHT];  // by the defending team
const WALL = '#cfd8dc';
const rgbText = (rgb) => '#' + rgb.toString(16).padStart(6, '0');

class Viewer {
  constructor(carom, bytes, name) {
    this.carom = carom;
    this.name = name;
    this.replay = carom.openReplay(bytes);
    this.info = carom.get('carom_replay_get_info', S.replayInfo, this.replay);
    carom.call('carom_replay_map', this.replay, carom.scratch);
    this.map = carom.handle();
    this.mapInfo = carom.get('carom_map_get_info', S.mapInfo, this.map);
    const m = this.mapInfo;
    const each = (n, fn) => Array.from({ length: n }, (_, i) => fn(i));
    this.shapes = each(m.shapes, (i) => carom.get('carom_map_shape', S.shape, this.map, i));
    this.posts = each(m.posts, (i) => carom.get('carom_map_post', S.circle, this.map, i));
    this.goalLines = each(m.goals, (i) => carom.get('carom_map_goal', S.goal, this.map, i));
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

// Draws the map and a scene, the map's field fitted to the canvas (y up).
function draw(canvas, v, scene) {
  const ctx = canvas.getContext('2d');
  const { width: W, height: H } = canvas;
  const m = v.mapInfo;
  const margin = 0.04 * Math.max(m.width, m.height);
  const scale = Math.min(W / (m.width + 2 * margin), H / (m.height + 2 * margin));
  const ox = (W - m.width * scale) / 2;
  const oy = (H - m.height * scale) / 2;
  const X = (x) => ox + x * scale;
  const Y = (y) => oy + (m.height - y) * scale;

  ctx.fillStyle = '#1f3a2b';
  ctx.fillRect(0, 0, W, H);
  ctx.fillStyle = '#2e6b45';
  ctx.fillRect(X(0), Y(m.height), m.width * scale, m.height * scale);
  ctx.lineCap = 'round';
  ctx.lineWidth = Math.max(1.5, 0.25 * scale);
  for (const s of v.shapes) {
    if (!s.visible) continue;
    ctx.strokeStyle = s.rgb ? rgbText(s.rgb) : WALL;
    ctx.fillStyle = ctx.strokeStyle;
    ctx.beginPath();
    if (s.kind === SHAPE.CAROM_SHAPE_SEGMENT) {
      ctx.moveTo(X(s.ax), Y(s.ay));
      ctx.lineTo(X(s.bx), Y(s.by));
      ctx.stroke();
    } else if (s.kind === SHAPE.CAROM_SHAPE_ARC) {  // counter-clockwise from a to b (clockwise on screen)
      const r = Math.hypot(s.ax - s.cx, s.ay - s.cy) * scale;
      const from = -Math.atan2(s.ay - s.cy, s.ax - s.cx);
      const to = -Math.atan2(s.by - s.cy, s.bx - s.cx);
      ctx.arc(X(s.cx), Y(s.cy), r, from, to, true);
      ctx.stroke();
    } else if (s.kind === SHAPE.CAROM_SHAPE_PLANE) {  // the line dot(p, n) = offset, across the field
      const far = 2 * Math.max(m.width, m.height);
      const px = s.nx * s.offset;
      const py = s.ny * s.offset;
      ctx.moveTo(X(px - s.ny * far), Y(py + s.nx * far));
      ctx.lineTo(X(px + s.ny * far), Y(py - s.nx * far));
      ctx.stroke();
    } else if (s.kind === SHAPE.CAROM_SHAPE_BOX) {  // centre, half extents along n and its normal
      const corner = (a, b) => [X(s.cx + s.nx * a - s.ny * b), Y(s.cy + s.ny * a + s.nx * b)];
      const pts = [corner(s.hx, s.hy), corner(-s.hx, s.hy), corner(-s.hx, -s.hy), corner(s.hx, -s.hy)];
      ctx.moveTo(...pts[0]);
      for (const p of pts.slice(1)) ctx.lineTo(...p);
      ctx.closePath();
      ctx.fill();
    }
  }
  ctx.lineWidth = Math.max(3, 0.6 * scale);
  for (const g of v.goalLines) {
    ctx.strokeStyle = COLOUR[GOAL_INK[g.defender]];
    ctx.beginPath();
    ctx.moveTo(X(g.ax), Y(g.ay));
    ctx.lineTo(X(g.bx), Y(g.by));
    ctx.stroke();
  }
  const disc = (x, y, r, fill, outline) => {
    ctx.beginPath();
    ctx.arc(X(x), Y(y), Math.max(1.5, r * scale), 0, 2 * Math.PI);
    ctx.fillStyle = fill;
    ctx.fill();
    if (outline) {
      ctx.lineWidth = Math.max(1, 0.15 * scale);
      ctx.strokeStyle = outline;
      ctx.stroke();
    }
  };
  for (const p of v.posts) disc(p.x, p.y, p.radius, p.rgb ? rgbText(p.rgb) : WALL, '#0b1b12');
  for (const d of scene.disks) {
    const fill = d.ink === INK.CAROM_INK_DISC ? rgbText(d.rgb) : COLOUR[d.ink];
    disc(d.x, d.y, d.radius, fill, d.ink === INK.CAROM_INK_OWN ? '#ffffff' : '#0b1b12');
  }
  ctx.font = `${Math.max(10, Math.round(1.1 * scale))}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const d of scene.disks) {
    if (d.name === undefined) continue;
    ctx.fillStyle = d.ink === INK.CAROM_INK_OWN ? COLOUR[INK.CAROM_INK_OWN] : '#ffffffcc';
    ctx.fillText(d.name, X(d.x), Y(d.y - d.radius) + 2);
  }
  if (scene.hud.banner) {
    ctx.font = `bold ${Math.max(16, Math.round(0.045 * W))}px sans-serif`;
    ctx.textBaseline = 'middle';
    const w = ctx.measureText(scene.hud.banner).width + 40;
    ctx.fillStyle = '#000000b0';
    ctx.fillRect((W - w) / 2, H / 2 - 30, w, 60);
    ctx.fillStyle = scene.hud.phase === 'goal' ? COLOUR[INK.CAROM_INK_OWN] : '#ffffff';
    ctx.fillText(scene.hud.banner, W / 2, H / 2);
  }
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
