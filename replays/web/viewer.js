// The replay page's viewer: the match re-simulated by carom's own core,
// compiled to WebAssembly (carom-viewer.js, which defines createCaromViewer,
// and its WebAssembly, gzipped), drawn on a canvas. `carom-replay html` puts
// this script, the module and the replay into one page; a .crpl dropped on
// the page replaces the replay. Its compressed chunks are read by the zstd
// inside the module, as carom-replay reads them.
'use strict';

// ---- C structs in the module's memory ---------------------------------
// wasm32 lays a struct out as C does: each field at a multiple of its own
// alignment, the size a multiple of the largest. Field lists follow carom.h
// and carom_viewer.h.
const FIELD = {
  i32: { size: 4, align: 4 }, u32: { size: 4, align: 4 }, u8: { size: 1, align: 1 },
  u64: { size: 8, align: 8 }, f64: { size: 8, align: 8 },
};

function struct(fields) {
  const offsets = {};
  let at = 0;
  let align = 1;
  for (const [name, type, count = 1] of fields) {
    const t = type === 'char' ? { size: 1, align: 1 } : FIELD[type];
    at = Math.ceil(at / t.align) * t.align;
    offsets[name] = { at, type, count };
    at += t.size * count;
    align = Math.max(align, t.align);
  }
  return { offsets, size: Math.ceil(at / align) * align };
}

const S = {
  replayInfo: struct([['format_version', 'u32'], ['core_version', 'u32'], ['producer', 'char', 65],
    ['map_name', 'char', 65], ['seed', 'u64'], ['ticks', 'u64'], ['keyframes', 'u32'],
    ['has_footer', 'i32'], ['final_hash', 'u64'], ['score', 'u32', 2], ['problem', 'char', 160]]),
  mapInfo: struct([['name', 'char', 65], ['width', 'f64'], ['height', 'f64'], ['team_size', 'u32'],
    ['slots', 'u32'], ['pucks', 'u32'], ['discs', 'u32'], ['shapes', 'u32'], ['posts', 'u32'],
    ['goals', 'u32'], ['match_seconds', 'u32'], ['score_limit', 'u32'], ['player_radius', 'f64'],
    ['puck_radius', 'f64'], ['hash', 'u64']]),
  shape: struct([['kind', 'i32'], ['visible', 'i32'], ['rgb', 'u32'], ['ax', 'f64'], ['ay', 'f64'],
    ['bx', 'f64'], ['by', 'f64'], ['cx', 'f64'], ['cy', 'f64'], ['nx', 'f64'], ['ny', 'f64'],
    ['offset', 'f64'], ['hx', 'f64'], ['hy', 'f64']]),
  circle: struct([['x', 'f64'], ['y', 'f64'], ['radius', 'f64'], ['rgb', 'u32']]),
  goal: struct([['defender', 'i32'], ['ax', 'f64'], ['ay', 'f64'], ['bx', 'f64'], ['by', 'f64']]),
  verify: struct([['ok', 'i32'], ['ticks', 'u64'], ['final_hash', 'u64'], ['diverged', 'i32'],
    ['divergence_tick', 'u64'], ['what', 'char', 256]]),
  sceneDisk: struct([['x', 'f64'], ['y', 'f64'], ['radius', 'f64'], ['ink', 'i32'], ['rgb', 'u32']]),
  hud: struct([['score', 'u32', 2], ['ticks_left', 'u64'], ['phase', 'char', 16], ['banner', 'char', 96]]),
  viewerInfo: struct([['tick', 'u64'], ['last_tick', 'u64'], ['length', 'u64'], ['tick_rate', 'u32'],
    ['goals', 'u32']]),
  viewerGoal: struct([['tick', 'u64'], ['team', 'i32'], ['scorer', 'i32'], ['own_goal_by', 'i32']]),
  disk: struct([['kind', 'i32'], ['index', 'u32'], ['team', 'i32'], ['active', 'i32'], ['x', 'f64'],
    ['y', 'f64'], ['vx', 'f64'], ['vy', 'f64'], ['radius', 'f64']]),
  player: struct([['slot', 'u32'], ['team', 'i32'], ['active', 'i32'], ['name', 'char', 33],
    ['goals', 'u32'], ['last_input', 'u8']]),
  roster: struct([['tick', 'u64'], ['slot', 'u32'], ['join', 'i32'], ['bot', 'i32'], ['name', 'char', 33]]),
};

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
          case 'i32': return view.getInt32(p, true);
          case 'u32': return view.getUint32(p, true);
          case 'u8': return view.getUint8(p);
          case 'u64': return view.getBigUint64(p, true);
          default: return view.getFloat64(p, true);
        }
      };
      out[name] = f.count === 1 ? one(at)
        : Array.from({ length: f.count }, (_, i) => one(at + i * FIELD[f.type].size));
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
    `const FIELD = ${JSON.stringify(FIELD)};`, struct.toString(), `const S = ${JSON.stringify(S)};`,
    Carom.toString(), WORKER_MAIN].join('\n');
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const worker = new Worker(url);
  worker.onmessage = (event) => { onDone(event.data); worker.terminate(); URL.revokeObjectURL(url); };
  worker.onerror = (event) => { onDone({ error: event.message || 'the worker failed', ms: 0 }); };
  worker.postMessage({ wasm, replay: bytes.slice().buffer });
  return worker;
}

// ---- Drawing ---------------------------------------------------------------
const INK = ['#e5534b', '#4b8fe5', '#f4f4f4', '#ffd43b'];  // left, right, puck, followed
const WALL = '#cfd8dc';
const rgbText = (rgb) => '#' + rgb.toString(16).padStart(6, '0');

function clockText(ticks, rate) {
  const tenths = Math.floor(Number(ticks) * 10 / rate);
  const m = Math.floor(tenths / 600);
  const s = Math.floor(tenths / 10) % 60;
  return `${m}:${String(s).padStart(2, '0')}.${tenths % 10}`;
}

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
    carom.call('carom_viewer_create', this.replay, carom.scratch);
    this.viewer = carom.handle();
    this.timeline = carom.get('carom_viewer_get_info', S.viewerInfo, this.viewer);
    this.goals = carom.list('carom_viewer_goals', S.viewerGoal, this.viewer);
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

  // Moves the match to `tick`; what it cost (ticks re-simulated).
  seek(tick) {
    const stepsAt = this.carom.scratch + 16;
    this.carom.call('carom_viewer_seek', this.viewer, BigInt(tick), stepsAt);
    return Number(new DataView(this.carom.m.HEAPU8.buffer).getBigUint64(stepsAt, true));
  }

  // The scene at the viewer's tick, in one call: a disk per puck, slot and disc at most.
  scene(follow) {
    const m = this.carom.m;
    const capacity = this.mapInfo.pucks + this.mapInfo.slots + this.mapInfo.discs;
    const disksAt = m._malloc(S.sceneDisk.size * capacity);
    const hudAt = m._malloc(S.hud.size);
    const countAt = this.carom.scratch + 8;
    try {
      this.carom.call('carom_viewer_scene', this.viewer, follow, disksAt, capacity, countAt, hudAt);
      const n = Math.min(new DataView(m.HEAPU8.buffer).getUint32(countAt, true), capacity);
      const disks = Array.from({ length: n }, (_, i) => this.carom.read(S.sceneDisk, disksAt + i * S.sceneDisk.size));
      return { disks, hud: this.carom.read(S.hud, hudAt) };
    } finally {
      m._free(hudAt);
      m._free(disksAt);
    }
  }

  // The players on the field now: where they are and their names.
  players() {
    const match = this.carom.m._carom_viewer_match(this.viewer);
    return this.carom.list('carom_match_disks', S.disk, match)
      .filter((d) => d.kind === 1 && d.active)
      .map((d) => ({ ...d, name: this.carom.get('carom_match_player', S.player, match, d.index).name }));
  }
}

// Draws the map and a scene, the map's field fitted to the canvas (y up).
function draw(canvas, v, scene, players, follow) {
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
    if (s.kind === 0) {  // segment
      ctx.moveTo(X(s.ax), Y(s.ay));
      ctx.lineTo(X(s.bx), Y(s.by));
      ctx.stroke();
    } else if (s.kind === 1) {  // arc, counter-clockwise from a to b (clockwise on screen)
      const r = Math.hypot(s.ax - s.cx, s.ay - s.cy) * scale;
      const from = -Math.atan2(s.ay - s.cy, s.ax - s.cx);
      const to = -Math.atan2(s.by - s.cy, s.bx - s.cx);
      ctx.arc(X(s.cx), Y(s.cy), r, from, to, true);
      ctx.stroke();
    } else if (s.kind === 2) {  // plane: the line dot(p, n) = offset, across the field
      const far = 2 * Math.max(m.width, m.height);
      const px = s.nx * s.offset;
      const py = s.ny * s.offset;
      ctx.moveTo(X(px - s.ny * far), Y(py + s.nx * far));
      ctx.lineTo(X(px + s.ny * far), Y(py - s.nx * far));
      ctx.stroke();
    } else if (s.kind === 3) {  // box: centre, half extents along n and its normal
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
    ctx.strokeStyle = INK[g.defender];
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
    const fill = d.ink === 4 ? rgbText(d.rgb) : INK[d.ink];
    disc(d.x, d.y, d.radius, fill, d.ink === 3 ? '#ffffff' : '#0b1b12');
  }
  ctx.font = `${Math.max(10, Math.round(1.1 * scale))}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const p of players) {
    ctx.fillStyle = p.index === follow ? INK[3] : '#ffffffcc';
    ctx.fillText(p.name, X(p.x), Y(p.y - p.radius) + 2);
  }
  if (scene.hud.banner) {
    ctx.font = `bold ${Math.max(16, Math.round(0.045 * W))}px sans-serif`;
    ctx.textBaseline = 'middle';
    const w = ctx.measureText(scene.hud.banner).width + 40;
    ctx.fillStyle = '#000000b0';
    ctx.fillRect((W - w) / 2, H / 2 - 30, w, 60);
    ctx.fillStyle = scene.hud.banner.startsWith('GOAL') ? INK[3] : '#ffffff';
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
  const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16];
  let v = null;
  let worker = null;
  let playing = false;
  let position = 0;  // ticks on the timeline, fractional while playing
  let speed = 1;
  let follow = -1;
  let lastFrame = null;
  let lastSeek = null;  // { tick, ms, steps }

  function setSpeed(value) {
    speed = Math.min(16, Math.max(0.25, Number(value) || 1));
    $('speed').value = String(SPEEDS.includes(speed) ? speed : 1);
  }

  function seekTo(tick) {
    position = Math.min(Math.max(0, tick), v.length);
    const t0 = performance.now();
    const steps = v.seek(Math.min(Math.floor(position), v.lastTick));
    return { tick: Math.floor(position), ms: performance.now() - t0, steps };
  }

  function render() {
    if (!v) return;
    const scene = v.scene(follow);
    draw(canvas, v, scene, v.players(), follow);
    const h = scene.hud;
    $('score').textContent = `${h.score[0]} : ${h.score[1]}`;
    $('clock').textContent = clockText(h.ticks_left, v.rate);
    $('phase').textContent = h.banner || h.phase;
    $('time').textContent = `${clockText(Math.min(position, v.length), v.rate)} / ${clockText(v.length, v.rate)}`;
    $('timeline').value = String(Math.floor(position));
    $('play').textContent = playing ? 'pause' : 'play';
  }

  function frame(now) {
    if (playing && v && lastFrame !== null) {
      const target = position + ((now - lastFrame) / 1000) * v.rate * speed;
      seekTo(target);
      if (position >= v.length) playing = false;
    }
    lastFrame = now;
    render();
    requestAnimationFrame(frame);
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
    $('title').textContent = `${name}: ${i.map_name}, ${clockText(v.lastTick, v.rate)}` +
      (i.problem ? ` (the file stops early: ${i.problem})` : '');
    const tl = $('timeline');
    tl.max = String(v.length);
    const marks = $('marks');
    marks.replaceChildren(...v.goals.map((g) => {
      const mark = document.createElement('span');
      mark.className = `mark ${g.team === 0 ? 'left' : 'right'}`;
      mark.style.left = `${(100 * Number(g.tick)) / Math.max(v.length, 1)}%`;
      mark.title = `goal at ${clockText(g.tick, v.rate)}`;
      mark.onclick = () => { lastSeek = seekTo(Number(g.tick) + 1); render(); };
      return mark;
    }));
    const names = new Map();
    for (const r of v.roster) if (r.join) names.set(r.slot, r.name);
    $('follow').replaceChildren(new Option('nobody', '-1'),
      ...[...names].map(([slot, n]) => new Option(n, String(slot))));
    follow = -1;
    $('verdict').textContent = 'verifying: re-simulating the whole match…';
    $('verdict').className = '';
    const v0 = v;
    worker = startVerification(wasm, bytes, (outcome) => showVerdict(outcome, v0));
    lastSeek = seekTo(Number(params.get('tick') || 0));
    playing = params.get('autoplay') === '1';
    render();
  }

  $('play').onclick = () => {
    if (position >= v.length) seekTo(0);
    playing = !playing;
    render();
  };
  $('timeline').oninput = (e) => { lastSeek = seekTo(Number(e.target.value)); render(); };
  $('speed').replaceChildren(...SPEEDS.map((s) => new Option(`${s}×`, String(s))));
  $('speed').onchange = (e) => setSpeed(e.target.value);
  $('follow').onchange = (e) => { follow = Number(e.target.value); render(); };
  document.addEventListener('keydown', (e) => {
    if (!v || e.target.tagName === 'SELECT') return;
    const rate = v.rate;
    if (e.key === ' ') { $('play').onclick(); e.preventDefault(); }
    else if (e.key === 'ArrowRight') lastSeek = seekTo(position + 5 * rate);
    else if (e.key === 'ArrowLeft') lastSeek = seekTo(position - 5 * rate);
    else if (e.key === ']') setSpeed(SPEEDS[Math.min(SPEEDS.indexOf(speed) + 1, SPEEDS.length - 1)]);
    else if (e.key === '[') setSpeed(SPEEDS[Math.max(SPEEDS.indexOf(speed) - 1, 0)]);
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
    state: () => ({ position, playing, speed, follow, length: v && v.length, lastSeek,
      goals: v ? v.goals.map((g) => Number(g.tick)) : [] }),
    load,
  };

  setSpeed(params.get('speed') || 1);
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
