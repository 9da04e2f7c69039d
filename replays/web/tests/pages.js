// The replay pages in a real browser: `carom-replay html` writes the page of
// every corpus file, of a match recorded on a HaxBall stadium (oval.hbs,
// written in HaxBall's own JSON) and of a replay whose embedded map was
// altered; headless Chromium (driven by playwright-core) opens each from
// file:// and must say "verified" with the final hash the native
// `carom-replay verify` prints, or, for the altered one, where it diverged.
// It also checks the drawing of a goal (a screenshot kept in OUT), times
// seeks, plays at 16x and drops a .crpl on a page.
//   node pages.js CAROM_REPLAY REPLAY_ALTER_MAP CORPUS_DIR OVAL_HBS OUT_DIR
'use strict';
const { chromium } = require('playwright-core');
const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const [tool, alterMap, corpusDir, stadium, outDir] = process.argv.slice(2);
if (!outDir) {
  console.error('usage: node pages.js CAROM_REPLAY REPLAY_ALTER_MAP CORPUS_DIR OVAL_HBS OUT_DIR');
  process.exit(2);
}
fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

// The corpus as CTest knows it: the files, and those of older cores and formats.
function corpus() {
  const files = [];
  for (const entry of fs.readdirSync(corpusDir, { withFileTypes: true })) {
    const p = path.join(corpusDir, entry.name);
    if (entry.isFile() && p.endsWith('.crpl')) files.push(p);
    if (entry.isDirectory() && /^(core|format)/.test(entry.name))
      for (const f of fs.readdirSync(p)) if (f.endsWith('.crpl')) files.push(path.join(p, f));
  }
  return files.sort();
}

// The native verdict: the final hash, or the divergence's tick.
function nativeVerify(file) {
  const run = spawnSync(tool, ['verify', file], { encoding: 'utf8' });
  const text = run.stdout + run.stderr;
  const hash = /final hash ([0-9a-f]{16})/.exec(text);
  const diverged = /DIVERGED at tick (\d+)/.exec(text);
  return { status: run.status, hash: hash && hash[1], divergedAt: diverged && Number(diverged[1]), text };
}

function makePage(replay, name) {
  const page = path.join(outDir, `${name}.html`);
  execFileSync(tool, ['html', replay, '-o', page], { stdio: ['ignore', 'ignore', 'inherit'] });
  return page;
}

const url = (file, query = '') => `file://${path.resolve(file)}${query}`;

async function verdictOf(page) {
  await page.waitForFunction(() => {
    const text = document.getElementById('verdict').textContent;
    return text !== '' && !text.startsWith('verifying');
  }, null, { timeout: 120000 });
  return page.evaluate(() => {
    const v = document.getElementById('verdict');
    return { text: v.textContent, ticks: Number(v.dataset.ticks), ms: Number(v.dataset.ms) };
  });
}


const { INK, pixels } = require('../../../shared/render/web/tests/canvas.js');
const LEFT = INK.left;
const RIGHT = INK.right;
const PUCK = INK.puck;
const BANNER = INK.banner;

async function main() {
  const cases = corpus().map((file) => ({ file, name: path.relative(corpusDir, file).replace(/[/.]/g, '-') }));
  // A match on a stadium written in HaxBall's format, recorded here.
  const recorded = path.join(outDir, 'oval-stadium.crpl');
  execFileSync(tool, ['record', '--map', stadium, '--seed', '4', '--ticks', '5400', '-o', recorded],
    { stdio: ['ignore', 'ignore', 'inherit'] });
  cases.push({ file: recorded, name: 'oval-stadium' });
  // A copy of team-arena whose embedded map has a box moved by 1e-9.
  const altered = path.join(outDir, 'altered-map.crpl');
  execFileSync(alterMap, [path.join(corpusDir, 'team-arena.crpl'), altered]);

  const browser = await chromium.launch({
    executablePath: process.env.CAROM_CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const open = async (file, query) => {
      const page = await context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url(file, query));
      return { page, errors };
    };

    // Every page: verified with the native hash, and drawn at its end.
    const pace = [];
    const sizes = [];
    for (const c of cases) {
      const native = nativeVerify(c.file);
      const html = makePage(c.file, c.name);
      const { page, errors } = await open(html, '?speed=16');
      const verdict = await verdictOf(page);
      const expect = `verified: final hash ${native.hash} matches the file`;
      check(native.status === 0 && verdict.text.startsWith(expect),
        `${c.name}: "${verdict.text}" (native: final hash ${native.hash})`);
      const end = await page.evaluate(() => window.carom.seek(window.carom.state().length));
      const phase = await page.textContent('#phase');
      const drawn = await pixels(page, [LEFT, RIGHT, PUCK]);
      check(errors.length === 0 && phase.length > 0 && drawn[2] > 0,
        `${c.name}: at its end (tick ${end.tick}) the page shows "${phase}", puck pixels ${drawn[2]}` +
        (errors.length ? `; page errors: ${errors.join('; ')}` : ''));
      pace.push(`${c.name} ${verdict.ticks} ticks in ${verdict.ms.toFixed(0)} ms ` +
        `(${(verdict.ticks / 60 / (verdict.ms / 1000)).toFixed(0)}x real time)`);
      const bytes = fs.statSync(html).size;
      sizes.push(`${c.name} ${bytes} bytes`);
      // The 2-minute 4 v 4 shares as a page of at most 1 MB.
      if (c.name === 'team-arena-crpl') check(bytes <= 1000000, `the page of team-arena is ${bytes} bytes`);
      await page.close();
    }
    console.log(`verification in the page:\n  ${pace.join('\n  ')}`);
    console.log(`page sizes:\n  ${sizes.join('\n  ')}`);

    // The altered map: the page says where it diverged, never "verified".
    {
      const native = nativeVerify(altered);
      const { page } = await open(makePage(altered, 'altered-map'));
      const verdict = await verdictOf(page);
      check(native.status === 1 && native.divergedAt !== null &&
        verdict.text.startsWith(`DIVERGED at tick ${native.divergedAt}:`) && !/verified/i.test(verdict.text),
        `altered map: "${verdict.text}" (native: diverged at tick ${native.divergedAt})`);
      await page.close();
    }

    // A file cut short (a killed recorder, a broken download): it plays up
    // to where it stops, and the page says why it proves nothing more.
    {
      const cut = path.join(outDir, 'cut.crpl');
      fs.writeFileSync(cut, fs.readFileSync(path.join(corpusDir, 'duel-rink.crpl')).subarray(0, 9000));
      const { page, errors } = await open(makePage(cut, 'cut'));
      const verdict = await verdictOf(page);
      const end = await page.evaluate(() => window.carom.seek(window.carom.state().length));
      const phase = await page.textContent('#phase');
      check(verdict.text.startsWith('not proven: incomplete: the file stops at byte') &&
        !/verified/i.test(verdict.text) && end.tick > 0 && phase.startsWith('the file stops here') &&
        errors.length === 0, `a cut file: "${verdict.text}"; at its end (tick ${end.tick}): "${phase}"`);
      await page.close();
    }

    // A goal, drawn: team-arena in the pause after its first goal.
    {
      const { page } = await open(makePage(path.join(corpusDir, 'team-arena.crpl'), 'goal'));
      await verdictOf(page);
      const goals = await page.evaluate(() => window.carom.state().goals);
      await page.evaluate((t) => window.carom.seek(t), goals[0] + 30);
      const banner = await page.textContent('#phase');
      const [left, right, puck, yellow] = await pixels(page, [LEFT, RIGHT, PUCK, BANNER]);
      const [centre] = await pixels(page, [BANNER], [0.3, 0.4, 0.7, 0.6]);
      await page.screenshot({ path: path.join(outDir, 'goal.png') });
      check(banner.startsWith('GOAL!') && left > 50 && right > 50 && puck > 20 && centre > 200,
        `a goal is drawn: "${banner}", pixels left ${left}, right ${right}, puck ${puck}, ` +
        `banner ${yellow} (${centre} in the middle); screenshot ${path.join(outDir, 'goal.png')}`);
      // [ and ] go to the previous and next goal, as in carom-replay play.
      await page.evaluate(() => window.carom.seek(0));
      await page.keyboard.press(']');
      const next = await page.evaluate(() => window.carom.state());
      await page.keyboard.press(']');
      await page.keyboard.press('[');
      const back = await page.evaluate(() => window.carom.state());
      check(goals.length >= 2 && next.position === goals[0] && back.position === goals[0],
        `] from the start goes to the first goal (${next.position}, goals ${goals.slice(0, 2)}), ` +
        `] then [ comes back to it (${back.position})`);
      // Following a player draws its disk in the followed ink (the banner's yellow).
      await page.evaluate(() => window.carom.seek(120));
      const [before] = await pixels(page, [BANNER]);
      const slot = await page.evaluate(() => document.getElementById('follow').options[1].value);
      await page.selectOption('#follow', slot);
      const [after] = await pixels(page, [BANNER]);
      const note = await page.evaluate(() => window.carom.state().follow);
      check(before === 0 && after > 100 && String(note) === slot,
        `following slot ${slot}: ${after} pixels in the followed ink (${before} before)`);
      await page.close();
    }

    // Seeks on the longest match: anywhere, from the nearest keyframe; the
    // first one as the page opens at ?tick=20000, then 44 more.
    {
      const { page } = await open(makePage(path.join(corpusDir, 'ten-minutes-stadium.crpl'), 'seek'),
        '?tick=20000');
      await verdictOf(page);
      const first = await page.evaluate(() => window.carom.state());
      check(first.lastSeek.tick === 20000, `the page opened at tick ${first.lastSeek.tick}`);
      // Reported, not judged: the browser runs code first in its baseline
      // tier, so a seek while the page is still opening is the slowest.
      console.log(`opening at tick 20000: that seek ${first.lastSeek.ms.toFixed(1)} ms ` +
        `(${first.lastSeek.steps} ticks stepped)`);
      const length = await page.evaluate(() => window.carom.state().length);
      let seed = 7;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
      const ticks = [length, 0, length - 1, 1, ...Array.from({ length: 40 }, () => next() % length)];
      const times = [];
      for (const t of ticks) {
        const s = await page.evaluate((tick) => window.carom.seek(tick), t);
        times.push(s.ms);
        if (s.tick !== t) check(false, `seek to ${t} landed on ${s.tick}`);
      }
      const sorted = [...times].sort((a, b) => a - b);
      console.log(`seek times over ${times.length} seeks: median ${sorted[sorted.length >> 1].toFixed(1)} ms, ` +
        `max ${sorted[sorted.length - 1].toFixed(1)} ms`);
      await page.close();
    }

    // Played at 16x to the final whistle; then a dropped .crpl replaces the match.
    {
      const { page, errors } = await open(makePage(path.join(corpusDir, 'bumpers-stadium.crpl'), 'play'),
        '?speed=16&autoplay=1');
      await verdictOf(page);
      const a = await page.evaluate(() => window.carom.state());
      const started = Date.now();
      await page.waitForFunction(() => {
        const s = window.carom.state();
        return !s.playing && s.position >= s.length;
      }, null, { timeout: 120000 });
      const seconds = (Date.now() - started) / 1000;
      const phase = await page.textContent('#phase');
      check(a.speed === 16 && a.playing && phase.startsWith('FINAL'),
        `autoplay at 16x: from tick ${a.position.toFixed(0)} to the end of ${a.length} ticks in ` +
        `${seconds.toFixed(1)} s, showing "${phase}"`);
      const dropped = path.join(corpusDir, 'churn-rink.crpl');
      const bytes = [...fs.readFileSync(dropped)];
      await page.evaluate((data) => {
        const file = new File([new Uint8Array(data)], 'churn-rink.crpl');
        const transfer = new DataTransfer();
        transfer.items.add(file);
        document.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true }));
      }, bytes);
      await page.waitForFunction(() => document.getElementById('title').textContent.startsWith('churn-rink.crpl'));
      const verdict = await verdictOf(page);
      const native = nativeVerify(dropped);
      check(verdict.text.startsWith(`verified: final hash ${native.hash}`) && errors.length === 0,
        `a dropped churn-rink.crpl: "${verdict.text}"`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  if (failures.length) {
    console.log(`${failures.length} check(s) failed`);
    process.exit(1);
  }
  console.log('every page verified and drew its match');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
