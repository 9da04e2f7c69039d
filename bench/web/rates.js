// What WebAssembly costs carom: one replay re-simulated and verified by the
// native carom-replay, by its WebAssembly build under Node, and by the page
// `carom-replay html` writes, in headless Chromium (its worker's figure,
// which includes compiling the module); then seeks in the page. Runs
// alternate, so that the machine's drift touches all three alike.
//   NODE_PATH=/usr/local/lib/carom-web/node_modules node bench/web/rates.js \
//     build/release/replays/carom-replay build/web/replays/carom-replay.js \
//     replays/corpus/ten-minutes-stadium.crpl [ROUNDS]
'use strict';
const { chromium } = require('playwright-core');
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const [native, wasm, replay, roundsText = '5'] = process.argv.slice(2);
if (!replay) {
  console.error('usage: node rates.js CAROM_REPLAY CAROM_REPLAY_JS REPLAY [ROUNDS]');
  process.exit(2);
}
const rounds = Number(roundsText);

// Ticks a second of `carom-replay verify` (its own timing of the re-simulation).
function verifyRate(command, args) {
  const run = spawnSync(command, [...args, 'verify', replay], { encoding: 'utf8' });
  const m = /OK: (\d+) ticks.* in ([0-9.]+) s/.exec(run.stdout);
  if (run.status !== 0 || !m) throw new Error(`${command} verify failed: ${run.stdout}${run.stderr}`);
  return Number(m[1]) / Number(m[2]);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carom-web-rates-'));
  const page = path.join(dir, 'match.html');
  spawnSync(native, ['html', replay, '-o', page], { stdio: 'ignore' });
  const browser = await chromium.launch({
    executablePath: process.env.CAROM_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  const rates = { native: [], node: [], page: [] };
  const seeks = [];
  try {
    for (let r = 0; r < rounds; ++r) {
      rates.native.push(verifyRate(native, []));
      rates.node.push(verifyRate(process.execPath, [wasm]));
      const tab = await browser.newPage();
      await tab.goto(`file://${page}`);
      await tab.waitForFunction(() => /^(verified|DIVERGED|not proven|could not)/.test(
        document.getElementById('verdict').textContent), null, { timeout: 120000 });
      const v = await tab.evaluate(() => document.getElementById('verdict').dataset);
      rates.page.push(Number(v.ticks) / (Number(v.ms) / 1000));
      const length = await tab.evaluate(() => window.carom.state().length);
      for (let i = 0; i < 20; ++i) {
        const t = Math.floor(((i * 7919) % 20 + 0.5) / 20 * length);
        seeks.push((await tab.evaluate((tick) => window.carom.seek(tick), t)).ms);
      }
      await tab.close();
    }
  } finally {
    await browser.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const n = median(rates.native);
  const rate = (name) => {
    const m = median(rates[name]);
    return `${name.padEnd(6)} ${Math.round(m).toString().padStart(8)} ticks/s  ` +
      `${Math.round(m / 60).toString().padStart(5)}x real time  ${(m / n).toFixed(3)} of native`;
  };
  console.log(`${path.basename(replay)}: verify, median of ${rounds} rounds`);
  for (const name of ['native', 'node', 'page']) console.log(`  ${rate(name)}`);
  console.log(`  seeks in the page: ${seeks.length}, median ${median(seeks).toFixed(1)} ms, ` +
    `max ${Math.max(...seeks).toFixed(1)} ms`);
  console.log(JSON.stringify({ replay: path.basename(replay), rounds,
    native_ticks_per_s: Math.round(n), node_ticks_per_s: Math.round(median(rates.node)),
    page_ticks_per_s: Math.round(median(rates.page)),
    seek_ms_median: Number(median(seeks).toFixed(2)), seek_ms_max: Number(Math.max(...seeks).toFixed(2)) }));
}

main().catch((error) => { console.error(error); process.exit(1); });
