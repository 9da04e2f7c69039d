// What the play page costs, in one run on loopback (figures, not a test):
//   - keydown → the first drawn frame whose predicted own disk has moved (in
//     the model: the scene's own disk, not its pixels), from the event's
//     timeStamp inside the page: p50/p95 in ms and in frames;
//   - bytes per browser client in a 4 v 4 at 60 Hz (four pages and four
//     carom-loadgen UDP clients in one room): the client's payload
//     (carom_client_info's bytes) and on the wire (payload + WebSocket
//     framing + TCP/IP headers, estimated from the messages counted), against
//     carom-loadgen's UDP payload + UDP/IP headers;
//   - the page's CPU: Chrome's Performance.getMetrics (TaskDuration,
//     ScriptDuration) over the same seconds, as a % of one core and per
//     frame drawn (the main thread's busy time, not CPU time: on a loaded
//     machine it grows), with the CPU time of every Chromium process
//     (SystemInfo.getProcessInfo: the renderer, the GPU process's software
//     compositing, the network service), which a loaded machine stretches
//     far less: a spectator alone in the browser, in turns (ROUNDS times)
//     with a bare canvas of the same size that only moves a filled square
//     each frame (the browser's floor for a canvas that changes every
//     frame) and, with BEFORE_DIR (another build's page), that page on a
//     server of its own with the same bots' match; then the spectator once
//     more under the CPU profiler, its script's self time a frame split
//     into the WebAssembly module, the drawing's script, the canvas's calls,
//     the rest of the script and the garbage collector; then the players and
//     a spectator of the 4 v 4;
//   - from opening / to the first accepted input: the timeline and its
//     round trips.
//   NODE_PATH=/usr/local/lib/carom-web/node_modules node bench/web/play.js \
//     build/release/server/carom-server build/release/tools/loadgen/carom-loadgen \
//     build/web/client/web [SECONDS] [PRESSES] [BEFORE_DIR [ROUNDS]]
'use strict';
const { chromium } = require('playwright-core');
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const [serverBin, loadgenBin, pageDir, secondsText = '20', pressesText = '60', beforeDir,
  roundsText = '2'] = process.argv.slice(2);
if (!pageDir) {
  console.error('usage: node play.js CAROM_SERVER CAROM_LOADGEN PAGE_DIR [SECONDS] [PRESSES] [BEFORE_DIR [ROUNDS]]');
  process.exit(2);
}
const SECONDS = Number(secondsText);
const PRESSES = Number(pressesText);
const ROUNDS = Number(roundsText);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
// Per message on the wire, besides its payload: IPv4 (20) + TCP with
// timestamps (32) a segment, one message a segment (TCP_NODELAY; ACKs ride
// on the other way's messages at 60 Hz); WebSocket's header is 2 bytes up
// to 125 of payload and 4 up to 65535, plus the 4-byte mask from the page.
const TCP_IP = 52;
const UDP_IP = 28;
const wsHeader = (size, masked) => (size <= 125 ? 2 : 4) + (masked ? 4 : 0);

async function startServer(dir, args, page = pageDir) {
  fs.mkdirSync(dir, { recursive: true });
  const ready = path.join(dir, 'ready.json');
  const child = spawn(serverBin, ['--bind', '127.0.0.1', '--port', '0', '--http', '127.0.0.1:0',
    '--web-dir', page, '--ready-file', ready, '--replay-dir', path.join(dir, 'replays'),
    '--max-sessions-per-ip', '64', ...args], { stdio: 'ignore' });
  for (let i = 0; i < 200 && !fs.existsSync(ready); ++i) await sleep(50);
  const ports = JSON.parse(fs.readFileSync(ready, 'utf8'));
  return {
    udp: ports.port,
    url: (query) => `http://127.0.0.1:${ports.http_port}/${query}`,
    stop: () => new Promise((resolve) => { child.on('exit', resolve); child.kill('SIGTERM'); }),
  };
}

// Before the page's scripts: every WebSocket message counted, with its size
// and time (performance.now()), and when the first frame drew a state.
function watchSocket() {
  window.wsLog = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.wsLog.push({ t: performance.now(), dir: 'open-start', size: 0 });
      this.addEventListener('open', () => window.wsLog.push({ t: performance.now(), dir: 'open', size: 0 }));
      this.addEventListener('message', (e) => window.wsLog.push({ t: performance.now(), dir: 'in', size: e.data.byteLength }));
    }
    send(data) {
      window.wsLog.push({ t: performance.now(), dir: 'out', size: data.byteLength });
      super.send(data);
    }
  };
}

// Before the page's scripts: every requestAnimationFrame callback counted
// (the frames the page drew, or the bare canvas filled).
function countFrames() {
  window.framesRun = 0;
  const native = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => native((t) => {
    ++window.framesRun;
    callback(t);
  });
}

// The browser's floor for a canvas that changes every frame: a page that
// does nothing but clear the last frame's square and fill one a few pixels
// on, each requestAnimationFrame, on an opaque canvas of the play page's size.
const barePage = (W, H) => `<!doctype html><html><body style="margin:0;background:#1f3a2b">
<canvas id="c" width="${W}" height="${H}"></canvas><script>
const ctx = document.getElementById('c').getContext('2d', { alpha: false });
let k = 0;
window.framesRun = 0;
function frame() {
  ++window.framesRun;
  const x = 10 + (k % 600);
  ctx.clearRect(x - 4, 40, 30, 30);
  ctx.fillStyle = '#f4f4f4';
  ctx.fillRect(x, 40, 30, 30);
  ++k;
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
</script></body></html>`;

// A CPU profile's self time by kind, in ms: the WebAssembly module's
// functions, the drawing's script (draw.js's functions), the canvas's own
// calls, the rest of the script, the garbage collector, and the main
// thread's work outside the script ((program): style, paint, the canvas's
// raster); (idle) is left out.
const DRAWING = new Set(['draw', 'drawDisc', 'drawGround', 'sprite', 'place', 'put', 'fieldPlace', 'blank',
  'context2d', 'rgbText', 'placements']);
const CANVAS = new Set(['drawImage', 'fillRect', 'clearRect', 'fillText', 'measureText', 'fill',
  'stroke', 'arc', 'beginPath', 'moveTo', 'lineTo', 'closePath', 'getContext', 'set font',
  'set fillStyle', 'set strokeStyle', 'set lineWidth', 'set textAlign', 'set textBaseline',
  'get lineDashOffset', 'set lineDashOffset', 'get width', 'get height']);
function profileSplit(profile) {
  const kind = new Map();
  for (const n of profile.nodes) {
    const { functionName: f, url } = n.callFrame;
    let k = 'other script';
    if (f === '(idle)' || f === '(root)') k = 'idle';
    else if (f === '(program)') k = 'not script';
    else if (f === '(garbage collector)') k = 'gc';
    else if (url.includes('.wasm') || url.startsWith('wasm://')) k = 'wasm';
    else if (DRAWING.has(f)) k = 'drawing script';
    else if (CANVAS.has(f)) k = 'canvas calls';
    kind.set(n.id, k);
  }
  const out = { wasm: 0, 'drawing script': 0, 'canvas calls': 0, 'other script': 0, gc: 0, 'not script': 0, idle: 0 };
  for (let i = 0; i < profile.samples.length; ++i)
    out[kind.get(profile.samples[i])] += (profile.timeDeltas[i + 1] || 0) / 1000;
  delete out.idle;
  return out;
}

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'carom-play-bench-'));
  const browser = await chromium.launch({
    executablePath: process.env.CAROM_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  // Each page in its own context: its own renderer, so its metrics are its own.
  const open = async (url) => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript(watchSocket);
    await page.addInitScript(countFrames);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(url);
    return { context, page, cdp };
  };
  const info = (p) => p.page.evaluate(() => window.carom && window.carom.info());
  const until = async (p, test, ms = 20000) => {
    const end = Date.now() + ms;
    for (;;) {
      const i = await info(p);
      if (i && test(i)) return i;
      if (Date.now() > end) throw new Error(`not within ${ms} ms: ${JSON.stringify(i)}`);
      await sleep(50);
    }
  };
  const metrics = async (p) => Object.fromEntries((await p.cdp.send('Performance.getMetrics')).metrics
    .map((m) => [m.name, m.value]));
  const out = {};
  try {
    // ---- Latency: a room without bots, the measured page and one other ------
    const quiet = await startServer(path.join(work, 'quiet'), ['--rooms', '1']);
    const me = await open(quiet.url('?room=0&name=lat'));
    const other = await open(quiet.url('?room=0&name=mate'));
    const joined = await until(me, (i) => i.has_state);
    await until(other, (i) => i.has_state);
    // Open → holding the match, in the page's clock (0: the navigation).
    out.open = await me.page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const res = performance.getEntriesByType('resource').map((r) => ({ name: r.name.split('/').pop(), start: r.startTime, end: r.responseEnd }));
      return { nav: { start: nav.startTime, response: nav.responseEnd, dom: nav.domContentLoadedEventEnd }, res, ws: window.wsLog };
    });
    // A press from rest is measured; a disk still gliding would move anyway,
    // so the disk must drift less than a tenth of what one tick of input
    // moves it (about 0.015 map units), and its drift is taken out.
    await me.page.evaluate(() => {
      window.lat = { pending: null, samples: [], last: null, v: { x: 0, y: 0 }, key: null };
      const L = window.lat;
      const DIR = { d: [1, 0], a: [-1, 0], w: [0, 1], s: [0, -1] };
      window.carom.onFrame = ({ disks, slot }) => {
        const own = disks.find((d) => d.slot === slot);
        if (!own) return;
        const at = performance.now();
        if (L.last) L.v = { x: own.x - L.last.x, y: own.y - L.last.y };
        if (L.pending) {
          const p = L.pending;
          ++p.frames;
          const dx = own.x - (p.x + p.v.x * p.frames);
          const dy = own.y - (p.y + p.v.y * p.frames);
          if (dx * p.dir[0] + dy * p.dir[1] > 0.004) {
            L.samples.push({ ms: at - p.t, frames: p.frames });
            L.pending = null;
          } else if (p.frames > 60) {
            L.pending = null;  // never seen to move: not counted
          }
        }
        L.last = { x: own.x, y: own.y };
      };
      window.lat.atRest = () => L.last !== null && Math.hypot(L.v.x, L.v.y) < 0.0015;
      addEventListener('keydown', (e) => {
        if (!L.last || e.repeat || !(e.key in DIR)) return;
        // From the event's time; the disk as the last frame drew it, and its drift.
        L.pending = { t: e.timeStamp, x: L.last.x, y: L.last.y, v: L.v, dir: DIR[e.key], frames: 0 };
      });
    });
    let unsettled = 0;
    for (let k = 0; k < PRESSES; ++k) {
      const settled = await me.page.waitForFunction(() => window.lat.atRest(), null, { timeout: 6000 })
        .then(() => true, () => false);
      if (!settled) {
        ++unsettled;
        continue;
      }
      // A short tap, and its opposite next: the disk comes back to rest soon.
      const key = ['d', 'a', 'w', 's'][k % 4];
      await me.page.keyboard.down(key);
      await sleep(40);
      await me.page.keyboard.up(key);
      await sleep(150);
    }
    await sleep(300);
    const lat = await me.page.evaluate(() => window.lat.samples);
    out.latency = {
      presses: PRESSES, measured: lat.length, unsettled, slot: joined.slot,
      ms_p50: quantile(lat.map((s) => s.ms), 0.5), ms_p95: quantile(lat.map((s) => s.ms), 0.95),
      frames_p50: quantile(lat.map((s) => s.frames), 0.5), frames_p95: quantile(lat.map((s) => s.frames), 0.95),
    };
    for (const p of [me, other]) await p.context.close();
    await quiet.stop();

    // ---- A 4 v 4 of four pages and four UDP clients, and a spectator --------
    const server = await startServer(path.join(work, 'crowd'), ['--bots', '--rooms', '1']);
    // A spectator alone in the browser first, following the bots' match.
    const system = await browser.newBrowserCDPSession();
    const cpuTimes = async () => {  // seconds of CPU by process type, all of Chromium's processes
      const { processInfo } = await system.send('SystemInfo.getProcessInfo');
      const out = { all: 0 };
      for (const p of processInfo) {
        out[p.type] = (out[p.type] || 0) + p.cpuTime;
        out.all += p.cpuTime;
      }
      return out;
    };
    // A page's cost over SECONDS, from a second after it drew its first frame.
    const measure = async (p, profile) => {
      await sleep(1000);  // past the start's work
      const frames = () => p.page.evaluate(() => window.framesRun);
      if (profile) {
        await p.cdp.send('Profiler.enable');
        await p.cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        await p.cdp.send('Profiler.start');
      }
      const [a, ca, fa] = [await metrics(p), await cpuTimes(), await frames()];
      await sleep(SECONDS * 1000);
      const [b, cb, fb] = [await metrics(p), await cpuTimes(), await frames()];
      const s = b.Timestamp - a.Timestamp;
      const out = {
        frames_per_s: (fb - fa) / s,
        task_pct: 100 * (b.TaskDuration - a.TaskDuration) / s,
        script_pct: 100 * (b.ScriptDuration - a.ScriptDuration) / s,
        script_ms_per_frame: 1000 * (b.ScriptDuration - a.ScriptDuration) / (fb - fa),
        task_ms_per_frame: 1000 * (b.TaskDuration - a.TaskDuration) / (fb - fa),
        renderer_cpu_pct: 100 * (cb.renderer - ca.renderer) / s,
        chromium_cpu_pct: 100 * (cb.all - ca.all) / s,
      };
      if (profile) {
        const { profile: prof } = await p.cdp.send('Profiler.stop');
        out.profile_ms_per_frame = Object.fromEntries(Object.entries(profileSplit(prof))
          .map(([k, ms]) => [k, ms / (fb - fa)]));
      }
      await p.context.close();
      return out;
    };
    const spectateAlone = async (url, profile = false) => {
      const alone = await open(url('?room=0&name=solo&spectate=1'));
      await until(alone, (i) => i.has_state);
      return measure(alone, profile);
    };
    // The play page's canvas, for the bare page's.
    const size = await (async () => {
      const p = await open(server.url('?room=0&name=solo&spectate=1'));
      await until(p, (i) => i.has_state);
      const wh = await p.page.evaluate(() => { const c = document.getElementById('field'); return [c.width, c.height]; });
      await p.context.close();
      return wh;
    })();
    const bareAlone = async () => {
      const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      await page.setContent(barePage(...size));  // it counts its frames itself
      return measure({ context, page, cdp }, false);
    };
    // In turns: the bare canvas, (BEFORE_DIR's page, each on a server of its
    // own with the same bots' match,) this page; then each page profiled.
    const before = beforeDir
      ? await startServer(path.join(work, 'before'), ['--bots', '--rooms', '1'], beforeDir) : null;
    out.canvas = size;
    out.cpu_alone_turns = [];
    for (let k = 0; k < ROUNDS; ++k) {
      out.cpu_alone_turns.push({ page: 'bare', ...await bareAlone() });
      if (before) out.cpu_alone_turns.push({ page: 'before', ...await spectateAlone(before.url) });
      out.cpu_alone_turns.push({ page: 'after', ...await spectateAlone(server.url) });
    }
    out.cpu_alone_profiled = [{ page: 'after', ...await spectateAlone(server.url, true) }];
    if (before) out.cpu_alone_profiled.push({ page: 'before', ...await spectateAlone(before.url, true) });
    if (before) await before.stop();
    const players = [];
    for (const name of ['pia', 'pat', 'pem', 'pol']) players.push(await open(server.url(`?room=0&name=${name}`)));
    const watcher = await open(server.url('?room=0&name=sam&spectate=1'));
    for (const p of [...players, watcher]) await until(p, (i) => i.has_state);
    const loadgen = spawn(loadgenBin, ['--server', `127.0.0.1:${server.udp}`, '--clients', '4', '--rooms', '1',
      '--seconds', String(SECONDS + 4), '--json', '--map-cache', path.join(work, 'maps')], { stdio: ['ignore', 'pipe', 'ignore'] });
    let loadText = '';
    loadgen.stdout.on('data', (d) => { loadText += d; });
    const loadDone = new Promise((resolve) => loadgen.on('exit', resolve));
    await sleep(2000);  // the UDP clients in (8 players: no bot left)
    const snap = async () => Promise.all([...players, watcher].map(async (p) => ({
      info: await info(p), metrics: await metrics(p),
      ws: await p.page.evaluate(() => ({ n: window.wsLog.length })),
    })));
    const a = await snap();
    await sleep(SECONDS * 1000);
    const b = await snap();
    const logs = await Promise.all([...players, watcher].map((p, k) =>
      p.page.evaluate((from) => window.wsLog.slice(from), a[k].ws.n)));
    await loadDone;
    const load = JSON.parse(loadText);
    const seconds = (k) => b[k].metrics.Timestamp - a[k].metrics.Timestamp;
    const per = (k) => {
      const msgs = logs[k];
      const down = msgs.filter((m) => m.dir === 'in');
      const up = msgs.filter((m) => m.dir === 'out');
      const s = seconds(k);
      const sum = (xs, f) => xs.reduce((acc, m) => acc + f(m), 0);
      return {
        slot: b[k].info.slot,
        payload_down_Bps: (b[k].info.bytes_in - a[k].info.bytes_in) / s,
        payload_up_Bps: (b[k].info.bytes_out - a[k].info.bytes_out) / s,
        msgs_down_per_s: down.length / s,
        msgs_up_per_s: up.length / s,
        wire_down_Bps: sum(down, (m) => m.size + wsHeader(m.size, false) + TCP_IP) / s,
        wire_up_Bps: sum(up, (m) => m.size + wsHeader(m.size, true) + TCP_IP) / s,
        cpu_task_pct: 100 * (b[k].metrics.TaskDuration - a[k].metrics.TaskDuration) / s,
        cpu_script_pct: 100 * (b[k].metrics.ScriptDuration - a[k].metrics.ScriptDuration) / s,
        cpu_layout_pct: 100 * (b[k].metrics.LayoutDuration + b[k].metrics.RecalcStyleDuration -
          a[k].metrics.LayoutDuration - a[k].metrics.RecalcStyleDuration) / s,
        resyncs: b[k].info.resyncs, failures: b[k].info.state_check_failures,
      };
    };
    const pages = [0, 1, 2, 3].map(per);
    const mean = (f) => pages.reduce((acc, p) => acc + f(p), 0) / pages.length;
    const spectator = per(4);
    const udpUp = mean((p) => p.msgs_up_per_s);  // the same client sends the same datagrams
    out.bytes = {
      seconds: SECONDS,
      browser: {
        payload_down_Bps: mean((p) => p.payload_down_Bps), payload_up_Bps: mean((p) => p.payload_up_Bps),
        wire_down_Bps: mean((p) => p.wire_down_Bps), wire_up_Bps: mean((p) => p.wire_up_Bps),
        msgs_down_per_s: mean((p) => p.msgs_down_per_s), msgs_up_per_s: udpUp,
        resyncs: pages.map((p) => p.resyncs), failures: pages.map((p) => p.failures),
      },
      udp: {
        payload_down_Bps: load.bytes_per_s.in_client_mean, payload_up_Bps: load.bytes_per_s.out_client_mean,
        updates_per_s: load.updates_per_s.client_mean,
        wire_down_Bps: load.bytes_per_s.in_client_mean + UDP_IP * load.updates_per_s.client_mean,
        wire_up_Bps: load.bytes_per_s.out_client_mean + UDP_IP * udpUp,
        ok: load.ok,
      },
    };
    out.cpu = {
      player_task_pct: mean((p) => p.cpu_task_pct), player_script_pct: mean((p) => p.cpu_script_pct),
      player_layout_pct: mean((p) => p.cpu_layout_pct), spectator_layout_pct: spectator.cpu_layout_pct,
      spectator_task_pct: spectator.cpu_task_pct, spectator_script_pct: spectator.cpu_script_pct,
    };
    for (const p of [...players, watcher]) await p.context.close();
    await server.stop();
  } finally {
    await browser.close();
    fs.rmSync(work, { recursive: true, force: true });
  }

  const f1 = (x) => x.toFixed(1);
  const L = out.latency;
  console.log(`keydown → first drawn frame with the own disk moved (${L.measured} of ${L.presses} presses, ` +
    `${L.unsettled} skipped: the disk not at rest): p50 ${f1(L.ms_p50)} ms / ${L.frames_p50} frames, ` +
    `p95 ${f1(L.ms_p95)} ms / ${L.frames_p95} frames`);
  const B = out.bytes;
  console.log(`bytes per client, 4 v 4 at 60 Hz, ${B.seconds} s (B/s down / up):`);
  console.log(`  browser payload ${Math.round(B.browser.payload_down_Bps)} / ${Math.round(B.browser.payload_up_Bps)}, ` +
    `on the wire ${Math.round(B.browser.wire_down_Bps)} / ${Math.round(B.browser.wire_up_Bps)} ` +
    `(${f1(B.browser.msgs_down_per_s)} / ${f1(B.browser.msgs_up_per_s)} messages/s)`);
  console.log(`  UDP     payload ${Math.round(B.udp.payload_down_Bps)} / ${Math.round(B.udp.payload_up_Bps)}, ` +
    `on the wire ${Math.round(B.udp.wire_down_Bps)} / ${Math.round(B.udp.wire_up_Bps)} ` +
    `(${f1(B.udp.updates_per_s)} updates/s)`);
  console.log(`the page's main thread: player ${f1(out.cpu.player_task_pct)} % of a core ` +
    `(script ${f1(out.cpu.player_script_pct)} %, style and layout ${f1(out.cpu.player_layout_pct)} %), ` +
    `spectator ${f1(out.cpu.spectator_task_pct)} % (script ${f1(out.cpu.spectator_script_pct)} %, ` +
    `style and layout ${f1(out.cpu.spectator_layout_pct)} %)`);
  const alone = (c) => `${f1(c.frames_per_s)} frames/s; main thread ${f1(c.task_pct)} % of a core ` +
    `(${c.task_ms_per_frame.toFixed(2)} ms a frame), script ${f1(c.script_pct)} % ` +
    `(${c.script_ms_per_frame.toFixed(2)} ms a frame); CPU time: the renderer ${f1(c.renderer_cpu_pct)} %, ` +
    `all of Chromium ${f1(c.chromium_cpu_pct)} %`;
  const who = { bare: 'the bare canvas', before: 'BEFORE_DIR\'s page', after: 'this page' };
  console.log(`alone in the browser, in turns (canvas ${out.canvas.join('×')}):`);
  for (const t of out.cpu_alone_turns) console.log(`  ${who[t.page]}: ${alone(t)}`);
  const median = (xs) => quantile(xs, 0.5);
  for (const page of ['bare', 'before', 'after']) {
    const ts = out.cpu_alone_turns.filter((t) => t.page === page);
    if (ts.length === 0) continue;
    const m = (k) => f1(median(ts.map((t) => t[k])));
    console.log(`  medians, ${who[page]}: main thread ${m('task_pct')} %, script ${m('script_pct')} % ` +
      `(${median(ts.map((t) => t.script_ms_per_frame)).toFixed(2)} ms a frame), renderer ` +
      `${m('renderer_cpu_pct')} %, all of Chromium ${m('chromium_cpu_pct')} %`);
  }
  for (const P of out.cpu_alone_profiled) {
    console.log(`  ${who[P.page]} profiled (100 µs samples; the profiler's cost included): ${alone(P)}; ` +
      `self time a frame: ${Object.entries(P.profile_ms_per_frame).map(([k, ms]) => `${k} ${ms.toFixed(3)} ms`).join(', ')}`);
  }
  const O = out.open;
  const ws = O.ws;
  const opened = ws.find((m) => m.dir === 'open');
  const firstIn = ws.find((m) => m.dir === 'in');
  console.log(`opening /: document ${f1(O.nav.response)} ms, DOMContentLoaded ${f1(O.nav.dom)} ms, ` +
    O.res.map((r) => `${r.name} ${f1(r.end)} ms`).join(', ') +
    `, WebSocket open ${f1(opened.t)} ms, first reply ${f1(firstIn.t)} ms`);
  // The exchanges on the socket before the first state: a turn is a message
  // out answered by one in.
  let turns = 0;
  let waiting = false;
  const turnLog = [];
  for (const m of ws) {
    if (m.dir === 'out') waiting = true;
    if (m.dir === 'in' && waiting) {
      ++turns;
      waiting = false;
      turnLog.push(`${f1(m.t)} ms ${m.size} B`);
    }
    if (turns >= 8) break;
  }
  console.log(`  the socket's first exchanges (reply time, size): ${turnLog.join('; ')}`);
  console.log(`  the socket's first messages: ${ws.slice(0, 24).map((m) => `${m.dir} ${f1(m.t)} ${m.size}`).join(', ')}`);
  console.log(JSON.stringify(out));
}

main().catch((error) => { console.error(error); process.exit(1); });
