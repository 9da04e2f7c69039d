// The play page in a real browser: carom-server serves it at / (--http) and
// headless Chromium (driven by playwright-core) plays through it, over the
// server's WebSocket, with carom's own client in WebAssembly.
//   - a page joins a room with bots by its link, holds `d` 500 ms and taps
//     `w` 50 ms: the server's replay has that slot's inputs for as long, and
//     the page's copy passes every state check for 30 s (no resync);
//   - four pages and four carom-loadgen UDP clients share a room: the
//     replay verifies and names all eight;
//   - a page with an empty cache joins a room on a HaxBall stadium (the map
//     travels), and a reload joins from the page's cache without fetching;
//   - a spectator page; a hidden page plays on when shown again;
//   - a goal is drawn (screenshot kept in OUT);
//   - on a server with --token-key, a page joins with #token= (the address
//     drops it at once), under the token's name; the same link again, and a
//     page without a token, are refused with the reason.
// One server holds the cases on the arena (a room each, run side by side),
// a second one the stadium's (its map transfers counted alone).
//   node play.js SERVER LOADGEN REPLAY PAGE_DIR STADIUM_HBS OUT_DIR TOKEN
'use strict';
const { chromium } = require('playwright-core');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const [serverBin, loadgenBin, replayBin, pageDir, stadium, outDir, tokenBin] = process.argv.slice(2);
if (!tokenBin) {
  console.error('usage: node play.js SERVER LOADGEN REPLAY PAGE_DIR STADIUM_HBS OUT_DIR TOKEN');
  process.exit(2);
}
fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A carom-server on loopback (ports the system picks), stopped with SIGTERM.
async function startServer(name, args) {
  const dir = path.join(outDir, name);
  fs.mkdirSync(dir, { recursive: true });
  const ready = path.join(dir, 'ready.json');
  const log = fs.openSync(path.join(dir, 'server.log'), 'w');
  const child = spawn(serverBin, ['--bind', '127.0.0.1', '--port', '0', '--http', '127.0.0.1:0',
    '--web-dir', pageDir, '--ready-file', ready, '--replay-dir', path.join(dir, 'replays'), ...args],
  { stdio: ['ignore', 'ignore', log] });
  for (let i = 0; i < 200 && !fs.existsSync(ready); ++i) await sleep(50);
  const ports = JSON.parse(fs.readFileSync(ready, 'utf8'));
  return {
    dir, child, udp: ports.port, http: ports.http_port,
    url: (query = '') => `http://127.0.0.1:${ports.http_port}/${query}`,
    async stop() {
      const exited = new Promise((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10000)]);
    },
    replays() {
      return fs.readdirSync(path.join(dir, 'replays')).filter((f) => f.endsWith('.crpl'))
        .map((f) => path.join(dir, 'replays', f));
    },
  };
}

const TICK_MS = 1000 / 60;
const { INK, pixels } = require('../../../shared/render/web/tests/canvas.js');
const LEFT = INK.left;
const RIGHT = INK.right;
const PUCK = INK.puck;
const BANNER = INK.banner;


// A counter of the server's /metrics.
async function metric(server, name) {
  const text = await (await fetch(server.url('metrics'))).text();
  const line = text.split('\n').find((l) => l.startsWith(name + ' ') || l.startsWith(name + '{'));
  return line ? Number(line.split(' ').pop()) : NaN;
}

const info = (page) => page.evaluate(() => window.carom && window.carom.info());
async function until(page, what, test, ms = 15000) {
  const end = Date.now() + ms;
  for (;;) {
    const i = await info(page);
    if (i && test(i)) return i;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms (${JSON.stringify(i)})`);
    await sleep(50);
  }
}

// The replay's per-tick players (carom-replay export), or null.
function exported(file) {
  const run = spawnSync(replayBin, ['export', '--json', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0) return null;
  return run.stdout.trim().split('\n').map((line) => JSON.parse(line));
}

// The runs of ticks in which `name`'s input had `bit` set: [first, last] each.
function runs(ticks, name, bit) {
  const out = [];
  let start = null;
  for (const t of ticks) {
    const p = (t.players || []).find((x) => x.name === name);
    const on = p !== undefined && (p.input & bit) !== 0;
    if (on && start === null) start = t.tick;
    if (!on && start !== null) {
      out.push([start, t.tick - 1]);
      start = null;
    }
  }
  return out;
}

// The input a page's keys give, as the replay records it: [first, last] tick
// of each run of `direction` (k × 22.5° from +x: d's is 0, w's is 4).
function steering(ticks, name, direction) {
  return runs(ticks.map((t) => ({ ...t, players: (t.players || []).map((p) => ({
    ...p, input: (p.input & 0x10) !== 0 && (p.input & 0x0f) === direction ? 1 : 0 })) })), name, 1);
}

function replayOf(server, room) {
  const prefix = `room${String(room).padStart(2, '0')}-`;
  return server.replays().filter((f) => path.basename(f).startsWith(prefix));
}

async function main() {
  const browser = await chromium.launch({
    executablePath: process.env.CAROM_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const errors = [];
  const open = async (context, url) => {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(url);
    return page;
  };
  const newContext = () => browser.newContext({ viewport: { width: 1100, height: 800 } });
  const started = Date.now();
  // Room 0: the crowd; room 1: the keys; room 2: the spectator, the hidden page, the goal.
  const arena = await startServer('arena', ['--bots', '--rooms', '3', '--final-pause', '1',
    '--max-sessions-per-ip', '64']);
  const stadiumServer = await startServer('stadium', ['--bots', '--rooms', '1', '--map', stadium]);
  const tokenKey = path.join(outDir, 'token.key');
  spawnSync(tokenBin, ['keygen', '-o', tokenKey]);
  const tokenServer = await startServer('tokens', ['--bots', '--rooms', '1', '--token-key', tokenKey]);
  const results = {};
  try {
    // ---- A player by link, keys held and tapped, 30 s of sound copy ----------
    const keys = async () => {
      const context = await newContext();
      // When the page last heard from the server: its copy's tick is that old.
      await context.addInitScript(() => {
        const Native = window.WebSocket;
        window.WebSocket = class extends Native {
          constructor(...args) {
            super(...args);
            this.addEventListener('message', () => { window.lastMessageAt = performance.now(); });
          }
        };
      });
      const page = await open(context, arena.url('?room=1&name=ann'));
      const joined = await until(page, 'the page holds the match', (i) => i.has_state);
      check(joined.room === 1 && joined.slot >= 0, `keys: the link joins room 1 as a player (slot ${joined.slot})`);
      // The copy's match tick and the round trip when each key event is handled.
      await page.evaluate(() => {
        window.keyLog = [];
        const note = (e) => {
          const m = window.carom.match();
          window.keyLog.push({ key: e.key, type: e.type, tick: m ? m.tick : -1, rtt: window.carom.info().rtt_ms,
            stamp: e.timeStamp, handled: performance.now(), heard: window.lastMessageAt });
        };
        addEventListener('keydown', note);
        addEventListener('keyup', note);
      });
      await sleep(500);
      await page.keyboard.down('d');
      await sleep(500);
      await page.keyboard.up('d');
      await sleep(400);
      await page.keyboard.down('w');
      await sleep(50);
      await page.keyboard.up('w');
      await sleep(200);
      return { context, page };
    };
    const sound = async ({ context, page }) => {
      const end = Date.now() + 30000;
      let worst = 0;
      while (Date.now() < end) {
        await sleep(1000);
        const i = await info(page);
        worst = Math.max(worst, i.state_check_failures + i.resyncs);
      }
      const after = await info(page);
      check(worst === 0 && after.state_check_failures === 0 && after.resyncs === 0 && after.has_state && !after.ended,
        `keys: 30 s of play, every update's state check passed (${after.full_states} FullState, ` +
        `${after.state_check_failures} failed, ${after.resyncs} resyncs)`);
      check(after.bytes_in > 0 && after.bytes_out > 0,
        `keys: bytes in ${after.bytes_in}, out ${after.bytes_out} over the WebSocket`);
      results.keyLog = await page.evaluate(() => window.keyLog);
      await context.close();
    };

    // ---- Four pages and four UDP clients in one room ---------------------------
    const crowd = async () => {
      const context = await newContext();
      const names = ['pia', 'pat', 'pem', 'pol'];
      const pages = await Promise.all(names.map((n) => open(context, arena.url(`?room=0&name=${n}`))));
      const joined = await Promise.all(pages.map((p) => until(p, 'a crowd page holds the match', (i) => i.has_state)));
      check(joined.every((i) => i.room === 0 && i.slot >= 0),
        `crowd: four pages play in room 0 (slots ${joined.map((i) => i.slot).join(', ')})`);
      const loadgen = spawn(loadgenBin, ['--server', `127.0.0.1:${arena.udp}`, '--clients', '4', '--rooms', '1',
        '--seconds', '30', '--json', '--map-cache', path.join(outDir, 'loadgen-maps')], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      loadgen.stdout.on('data', (d) => { out += d; });
      const code = await new Promise((resolve) => loadgen.on('exit', resolve));
      const report = (() => { try { return JSON.parse(out); } catch { return null; } })();
      results.loadgen = report;
      check(code === 0, `crowd: carom-loadgen's four UDP clients played 30 s beside them (exit ${code})`);
      const after = await Promise.all(pages.map(info));
      check(after.every((i) => i.state_check_failures === 0 && i.resyncs === 0 && !i.ended),
        `crowd: the pages' copies stayed sound (failures ${after.map((i) => i.state_check_failures)}, ` +
        `resyncs ${after.map((i) => i.resyncs)})`);
      results.crowdNames = names.concat([0, 1, 2, 3].map((k) => `load${k}`));
      await context.close();
    };

    // ---- A spectator, a goal drawn, a hidden page that plays on ---------------
    const watch = async () => {
      const context = await newContext();
      const spectator = await open(context, arena.url('?room=2&name=sam&spectate=1'));
      const seen = await until(spectator, 'the spectator holds the match', (i) => i.has_state);
      check(seen.slot === -1 && seen.room === 2, `watch: &spectate=1 watches room 2 (slot ${seen.slot})`);
      const player = await open(context, arena.url('?room=2&name=hid'));
      const before = await until(player, 'the player holds the match', (i) => i.has_state);
      // A hidden tab: headless Chromium keeps every page visible (another page
      // brought to front, a minimised window and Page.setWebLifecycleState
      // leave document.visibilityState 'visible'), so the page is hidden as
      // Chromium does it: visibilityState 'hidden' and no animation frame
      // (its timers are throttled; the page's client runs on its messages).
      await player.evaluate(() => {
        window.shown = window.requestAnimationFrame.bind(window);
        window.held = [];
        window.requestAnimationFrame = (fn) => { window.held.push(fn); return 0; };
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      const frames = async () => player.evaluate(() => new Promise((resolve) => {
        let n = 0;
        const count = () => { ++n; window.requestAnimationFrame(count); };
        window.requestAnimationFrame(count);
        setTimeout(() => resolve(n), 500);
      }));
      const hiddenFrames = await frames();
      await sleep(10000);
      const hidden = await info(player);
      await player.evaluate(() => {
        window.requestAnimationFrame = window.shown;
        delete document.visibilityState;
        delete document.hidden;
        document.dispatchEvent(new Event('visibilitychange'));
        for (const fn of window.held.splice(0)) window.requestAnimationFrame(fn);
      });
      await sleep(3000);
      const shown = await info(player);
      const visibility = await player.evaluate(() => document.visibilityState);
      check(hiddenFrames === 0 && hidden.state === 2 && !hidden.ended && shown.state === 2 && !shown.ended &&
        shown.has_state && shown.server_tick > hidden.server_tick && hidden.server_tick > before.server_tick &&
        shown.state_check_failures === 0,
        `watch: 10 s hidden (${hiddenFrames} frames drawn meanwhile), the session lives on ` +
        `(tick ${before.server_tick} → ${hidden.server_tick} → ${shown.server_tick}, ${visibility} again), ` +
        `${shown.full_states} FullState, ${shown.resyncs} resyncs, ${shown.state_check_failures} failed checks`);
      // The spectator draws the room's first goal it sees (bots score).
      await spectator.waitForFunction(() => document.getElementById('phase').textContent.startsWith('GOAL!'),
        null, { timeout: 90000, polling: 20 }).catch(() => {});
      const banner = await spectator.textContent('#phase');
      const [left, right, puck, yellow] = await pixels(spectator, [LEFT, RIGHT, PUCK, BANNER]);
      const [centre] = await pixels(spectator, [BANNER], [0.3, 0.4, 0.7, 0.6]);
      await spectator.screenshot({ path: path.join(outDir, 'goal.png') });
      check(banner.startsWith('GOAL!') && left > 50 && right > 50 && puck > 20 && centre > 200,
        `watch: a goal is drawn: "${banner}", pixels left ${left}, right ${right}, puck ${puck}, ` +
        `banner ${yellow} (${centre} in the middle); screenshot ${path.join(outDir, 'goal.png')}`);
      const last = await info(spectator);
      check(last.state_check_failures === 0 && last.resyncs === 0,
        `watch: the spectator's copy stayed sound (${last.state_check_failures} failed, ${last.resyncs} resyncs)`);
      await context.close();
    };

    // ---- A HaxBall stadium: fetched once, then from the page's cache -----------
    const cache = async () => {
      const context = await newContext();
      const before = await metric(stadiumServer, 'carom_map_transfers_started_total');
      const page = await open(context, stadiumServer.url('?room=0&name=kim'));
      const first = await until(page, 'the stadium page holds the match', (i) => i.has_state);
      const fetched = await metric(stadiumServer, 'carom_map_transfers_started_total');
      check(first.map_source === 'the server' && fetched === before + 1,
        `cache: an empty cache joins "${first.map_name}" with the map from ${first.map_source} ` +
        `(transfers ${before} → ${fetched})`);
      await sleep(1000);  // the page keeps the map (IndexedDB) once it is known
      await page.reload();
      const again = await until(page, 'the reloaded page holds the match', (i) => i.has_state);
      const after = await metric(stadiumServer, 'carom_map_transfers_started_total');
      check(again.map_source === "the host's cache" && after === fetched && again.state_check_failures === 0,
        `cache: the reload joins with the map from ${again.map_source}, transfers still ${after}`);
      await context.close();
    };

    // ---- A token server: #token= in the fragment, used once -------------------
    const tokens = async () => {
      const made = spawnSync(tokenBin, ['make', '--key', tokenKey, '--id', '5', '--name', 'tia',
        '--server', `127.0.0.1:${tokenServer.udp}`, '--expires', '60'], { encoding: 'utf8' });
      const text = made.stdout.trim();
      check(made.status === 0 && text.length > 0, `tokens: carom-token made a token (${text.length} characters)`);
      const context = await newContext();
      const page = await open(context, tokenServer.url(`?room=0&name=zed#token=${text}`));
      const href = await page.evaluate(() => location.href);
      check(!href.includes('token'), `tokens: the address drops the token once read (${href})`);
      const joined = await until(page, 'the token page holds the match', (i) => i.has_state);
      const log = fs.readFileSync(path.join(tokenServer.dir, 'server.log'), 'utf8');
      check(joined.slot >= 0 && log.includes('(tia, player 5) from'),
        `tokens: the page joins with #token= as the token's tia, player 5 (slot ${joined.slot})`);
      const other = await newContext();
      const again = await open(other, tokenServer.url(`?room=0&name=zed#token=${text}`));
      const reused = await until(again, 'the same token again is refused', (i) => i.ended);
      check(reused.message.includes('used already'), `tokens: the same link again is refused: "${reused.message}"`);
      const none = await open(other, tokenServer.url('?room=0&name=zed'));
      const refused = await until(none, 'a page without a token is refused', (i) => i.ended);
      check(refused.message.includes('connect token'), `tokens: a page without one is refused: "${refused.message}"`);
      await other.close();
      await context.close();
    };

    // The keys alone (their ticks are timed), then the rest side by side
    // while the keys' page plays on.
    const pressed = await keys();
    await Promise.all([sound(pressed), crowd(), watch(), cache(), tokens()]);
  } finally {
    await browser.close();
    await arena.stop();
    await stadiumServer.stop();
    await tokenServer.stop();
  }
  check(errors.length === 0, `no page error (${errors.join('; ')})`);

  // ---- The server's replays ----------------------------------------------------
  const keysFiles = replayOf(arena, 1);
  const ticks = keysFiles.length > 0 ? exported(keysFiles[0]) : null;
  check(ticks !== null, `keys: the server's replay of room 1 exports (${keysFiles[0]})`);
  if (ticks) {
    const d = steering(ticks, 'ann', 0);
    const w = steering(ticks, 'ann', 4);
    const len = (r) => r.map(([a, b]) => b - a + 1);
    check(d.length === 1 && Math.abs(len(d)[0] - 30) <= 2,
      `keys: ann's 500 ms hold of d: ${len(d).join(', ')} ticks toward +x (30 ± 2)`);
    check(w.length === 1 && Math.abs(len(w)[0] - 3) <= 2,
      `keys: ann's 50 ms tap of w: ${len(w).join(', ')} ticks toward +y (3 ± 2)`);
    // Each input starts where the page's copy was when its key went down
    // plus a round trip (the copy lags the server by the way down, the input
    // takes the way up), two ticks (the page's next tick sends it, the
    // server's next tick applies it), and what the page's own delays add
    // (the copy's age since the last message, the event's wait to be
    // handled), ± 2; and the two inputs start as far apart as the keys went down.
    const at = (key) => (results.keyLog || []).find((e) => e.key === key && e.type === 'keydown');
    const ticksOf = (ms) => Math.ceil(Math.max(ms, 0) / TICK_MS);
    for (const [key, run] of [['d', d], ['w', w]]) {
      const e = at(key);
      if (!e || run.length === 0) {
        check(false, `keys: ${key}'s keydown was seen by the page and its input recorded`);
        continue;
      }
      const expected = ticksOf(e.rtt) + 2;
      const late = ticksOf(e.handled - e.heard) + ticksOf(e.handled - e.stamp);
      const offset = run[0][0] - e.tick;
      check(offset >= expected - 2 - late && offset <= expected + late + 2,
        `keys: ${key}'s input starts at tick ${run[0][0]}, the page's copy was at ${e.tick} on keydown ` +
        `(offset ${offset}, expected ${expected} ± 2, + ${late} of the page's delays: round trip ${e.rtt.toFixed(1)} ms)`);
    }
    const kd = at('d');
    const kw = at('w');
    if (kd && kw && d.length > 0 && w.length > 0) {
      const apart = (kw.stamp - kd.stamp) / TICK_MS;
      check(Math.abs(w[0][0] - d[0][0] - apart) <= 2,
        `keys: the inputs start ${w[0][0] - d[0][0]} ticks apart, the keydowns ${apart.toFixed(1)} ticks (± 2)`);
    }
  }
  const crowdFiles = replayOf(arena, 0);
  const verify = crowdFiles.length > 0 ? spawnSync(replayBin, ['verify', crowdFiles[0]], { encoding: 'utf8' }) : null;
  check(verify !== null && verify.status === 0,
    `crowd: the replay of room 0 verifies (${verify ? verify.stdout.trim().split('\n').pop() : 'no file'})`);
  const infoRun = crowdFiles.length > 0 ? spawnSync(replayBin, ['info', '--json', crowdFiles[0]], { encoding: 'utf8' }) : null;
  const named = infoRun && infoRun.status === 0 ? infoRun.stdout : '';
  const missing = (results.crowdNames || []).filter((n) => !named.includes(`"${n}"`));
  check(named !== '' && missing.length === 0,
    `crowd: carom-replay info names all eight (${(results.crowdNames || []).join(', ')}; missing: ${missing.join(', ') || 'none'})`);
  for (const f of arena.replays().concat(stadiumServer.replays(), tokenServer.replays())) {
    const v = spawnSync(replayBin, ['verify', f], { encoding: 'utf8' });
    check(v.status === 0, `${path.basename(f)} verifies`);
  }
  console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (failures.length > 0) {
    console.log(`${failures.length} check(s) failed`);
    process.exit(1);
  }
  console.log('every check passed');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
