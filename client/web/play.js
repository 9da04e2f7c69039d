// The play page: carom's own client (libcarom's carom_client_*, compiled to
// WebAssembly: carom-play.js) over the server's WebSocket. This script is
// the client's host, as carom-client is in a terminal: it owns the socket,
// the clock, the keys and the canvas, and nothing else. What the client
// sends, predicts and shows is the client's; the room list's words are the
// status query's; the drawing is the replay page's (draw.js).
'use strict';

Object.assign(S, {
  info: struct('carom_client_info'),
  config: struct('carom_client_config'),
  matchInfo: struct('carom_match_info'),
});
const CLIENT_STATE = ABI.enums.carom_client_state;
const KEYS = ABI.enums.carom_key;
const TICK_MS = 1000 / ABI.defines.CAROM_TICK_RATE;
const MAX_DATAGRAM = ABI.defines.CAROM_MAX_DATAGRAM;
// Ticks a late page catches up at most: a tab the browser stopped for a
// while resumes at the present, not with seconds of inputs at once.
const MAX_CATCH_UP = 4;

// The page's elements, looked up once (none is ever replaced).
const elements = new Map();
const $ = (id) => {
  let e = elements.get(id);
  if (!e) elements.set(id, e = document.getElementById(id));
  return e;
};
// Text that changed is written, else left alone: no style and layout work
// every frame for the same words.
const setText = (id, text) => {
  const e = $(id);
  if (e.textContent !== text) e.textContent = text;
};
const params = new URLSearchParams(location.search);
const now = () => BigInt(Math.floor(performance.now()));

// A connect token for a server started with --token-key: #token=BASE64URL
// (carom-token make's text). In the fragment, which never reaches a
// server's logs; taken off the address at once, as it is good for one
// session and a link passed on must not carry it. null: none; an empty
// array: text that is not base64url (the server then says token_required).
const connectToken = (() => {
  const text = new URLSearchParams(location.hash.slice(1)).get('token');
  if (text === null) return null;
  history.replaceState(null, '', location.pathname + location.search);
  try {
    const b64 = text.trim().replace(/-/g, '+').replace(/_/g, '/');
    const bytes = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    return Uint8Array.from(bytes, (c) => c.charCodeAt(0));
  } catch {
    return new Uint8Array(0);
  }
})();

// The session's reclaim token (random, never 0): from the browser's
// cryptographic generator, as carom-client takes its own.
const reclaimToken = () => crypto.getRandomValues(new BigUint64Array(1))[0] | 1n;

// ---- Maps kept by hash (IndexedDB), so a reload joins without fetching ----
const mapStore = {
  db: null,
  async open() {
    if (!('indexedDB' in self)) return;
    this.db = await new Promise((resolve) => {
      const request = indexedDB.open('carom-maps', 1);
      request.onupgradeneeded = () => request.result.createObjectStore('maps');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);  // private windows: no cache, maps travel
    });
  },
  get(hash) {
    if (!this.db) return Promise.resolve(null);
    return new Promise((resolve) => {
      const request = this.db.transaction('maps').objectStore('maps').get(hash);
      request.onsuccess = () => resolve(request.result || null);
      request.onerror = () => resolve(null);
    });
  },
  put(hash, bytes) {
    if (!this.db) return;
    this.db.transaction('maps', 'readwrite').objectStore('maps').put(bytes, hash);
  },
};

// ---- The WebSocket: one binary message a datagram ---------------------------
function openSocket(onMessage, onClose) {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  ws.binaryType = 'arraybuffer';
  ws.onmessage = (e) => onMessage(new Uint8Array(e.data));
  ws.onclose = (e) => onClose(e);
  return new Promise((resolve, reject) => {
    ws.onopen = () => resolve(ws);
    ws.onerror = () => reject(new Error(`cannot open ${ws.url}`));
  });
}

// ---- The lobby: the status query, a room a row ------------------------------
function showRooms(status, join) {
  $('title').textContent = `${status.name}: ${status.rooms.length} room${status.rooms.length === 1 ? '' : 's'}, ` +
    `${status.clients} of ${status.max_clients} clients`;
  $('rooms').replaceChildren(...status.rooms.map((r) => {
    const row = document.createElement('tr');
    const cells = [r.room, r.map, `${r.players}/${r.slots}`, r.bots, `${r.spectators}/${r.spectator_slots}`,
      `${r.score[0]}-${r.score[1]}`, r.time, r.phase];
    row.replaceChildren(...cells.map((text, i) => {
      const td = document.createElement('td');
      td.textContent = String(text);
      if (i !== 1 && i !== 7) td.className = 'num';
      return td;
    }));
    const actions = document.createElement('td');
    const button = (label, spectate) => {
      const b = document.createElement('button');
      b.textContent = label;
      b.onclick = () => join(r, spectate);
      return b;
    };
    actions.append(button('play', false), ' ', button('watch', true));
    row.append(actions);
    return row;
  }));
}

// ---- The page -----------------------------------------------------------------
async function main() {
  const carom = new Carom(await createCaromPlay());
  await mapStore.open();
  const canvas = $('field');
  const datagram = carom.m._malloc(MAX_DATAGRAM);
  const sizeAt = carom.scratch + 8;
  let client = 0;       // carom_client*, once joining
  let field = null;     // what is drawn of the room's map (fieldOf)
  let fieldMap = 0;     // the carom_map* it was read from
  let cachedMap = false;
  let nextTick = 0;     // performance.now() of the client's next tick
  let status = null;    // the rooms, every page of the last status query
  let pages = null;     // the pages of the query under way
  let lastInfo = null;
  let showRoster = false;
  let netShownAt = -Infinity;  // performance.now() of the last network line
  let ws = null;
  // What a frame reads, in buffers kept from frame to frame: the scene's
  // disks (grown for a map with more), its HUD, a player's record.
  let disksAt = 0;
  let disksCapacity = 0;
  const hudAt = carom.m._malloc(S.hud.size);
  const playerAt = carom.m._malloc(S.player.size);
  const names = new Map();  // slot -> { bytes, text }: a name is decoded when its bytes change

  const send = (bytes) => { if (ws && ws.readyState === WebSocket.OPEN) ws.send(bytes); };
  // What the client queued goes out, each datagram a message.
  function flush() {
    if (!client) return;
    for (;;) {
      carom.call('carom_client_take_datagram', client, datagram, MAX_DATAGRAM, sizeAt);
      const n = carom.data().getUint32(sizeAt, true);
      if (n === 0) return;
      send(carom.m.HEAPU8.subarray(datagram, datagram + n));  // send() copies it
    }
  }

  // The rooms from `first`: a reply lists those that fit, the next page is asked for.
  function askStatus(first = 0) {
    carom.call('carom_status_request', first, datagram, MAX_DATAGRAM, sizeAt);
    const n = new DataView(carom.m.HEAPU8.buffer).getUint32(sizeAt, true);
    send(carom.m.HEAPU8.slice(datagram, datagram + n));
  }

  function statusOf(bytes) {
    return carom.withBytes(bytes, (at, size) => {
      const server = carom.m._malloc(256);
      carom.m.stringToUTF8(location.host, server, 256);
      try {
        if (carom.m._carom_status_json(at, size, server, 0, 0, sizeAt) !== 0) return null;
        const n = new DataView(carom.m.HEAPU8.buffer).getUint32(sizeAt, true);
        const out = carom.m._malloc(n + 1);
        try {
          carom.call('carom_status_json', at, size, server, out, n + 1, sizeAt);
          return JSON.parse(carom.m.UTF8ToString(out));
        } finally {
          carom.m._free(out);
        }
      } finally {
        carom.m._free(server);
      }
    });
  }

  function onMessage(bytes) {
    if (!client) {
      // In the lobby every message is a status reply (anything else is dropped).
      const page = statusOf(bytes);
      if (!page) return;
      if (page.first_room === 0) pages = page;
      else if (pages && page.first_room === pages.rooms.length) pages.rooms.push(...page.rooms);
      else return;
      if (pages.rooms.length < pages.rooms_total && page.rooms.length > 0) {
        askStatus(pages.rooms.length);
        return;
      }
      status = pages;
      showRooms(status, join);
      autoJoin();
      return;
    }
    carom.withBytes(bytes, (at, size) => carom.call('carom_client_receive', client, at, size, now()));
    // A hidden tab's timers wait; its messages do not: the client steps on.
    tickDue();
    flush();
  }

  function onClose(event) {
    if (client && lastInfo && lastInfo.ended) return;
    $('message').textContent = `the server closed the connection (${event.code}${event.reason ? ': ' + event.reason : ''})`;
    $('message').className = 'bad';
  }

  async function join(room, spectate) {
    if (client) return;
    const name = $('name').value.trim() || 'player';
    localStorage.setItem('carom-name', name);
    const config = carom.m._malloc(S.config.size);
    const nameAt = carom.m._malloc(64);
    const tokenAt = connectToken && connectToken.length > 0 ? carom.m._malloc(connectToken.length) : 0;
    try {
      carom.m._carom_client_config_init(config);
      carom.m.stringToUTF8(name, nameAt, 64);
      const view = new DataView(carom.m.HEAPU8.buffer);
      const f = S.config.offsets;
      view.setUint32(config + f.name.at, nameAt, true);
      view.setInt32(config + f.room.at, room.room, true);
      view.setInt32(config + f.spectator.at, spectate ? 1 : 0, true);
      view.setBigUint64(config + f.token.at, reclaimToken(), true);
      view.setInt32(config + f.key_releases.at, 1, true);  // a browser says when a key goes up
      if (tokenAt) {
        carom.m.HEAPU8.set(connectToken, tokenAt);
        view.setUint32(config + f.connect_token.at, tokenAt, true);  // wasm32: 4-byte pointers
        view.setUint32(config + f.connect_token_size.at, connectToken.length, true);
      }
      try {
        carom.call('carom_client_create', config, carom.scratch);
      } catch (e) {
        $('message').textContent = `cannot join: the token in the address is refused: ${e.message}`;
        $('message').className = 'bad';
        return;
      }
      client = carom.handle();
    } finally {
      if (tokenAt) carom.m._free(tokenAt);
      carom.m._free(nameAt);
      carom.m._free(config);
    }
    // A map kept from before, offered by hash: Accepted names the room's.
    const kept = await mapStore.get(room.map_hash);
    if (kept) carom.withBytes(kept, (at, size) => carom.call('carom_client_add_map', client, at, size));
    $('lobby').hidden = true;
    $('game').hidden = false;
    history.replaceState(null, '', `?room=${room.room}&name=${encodeURIComponent(name)}${spectate ? '&spectate=1' : ''}`);
    carom.call('carom_client_start', client, now());
    nextTick = performance.now();
    flush();
    fit();
  }

  function autoJoin() {
    const room = params.get('room');
    if (room === null || client || !status) return;
    const r = status.rooms.find((x) => String(x.room) === room);
    if (!r) {
      $('message').textContent = `no room ${room} on this server`;
      $('message').className = 'bad';
      return;
    }
    join(r, params.get('spectate') === '1');
  }

  // The client's ticks that are due: one a tick period, a few at most behind.
  function tickDue() {
    if (!client) return;
    const t = performance.now();
    if (t - nextTick > MAX_CATCH_UP * TICK_MS) nextTick = t - TICK_MS;
    while (t >= nextTick) {
      carom.call('carom_client_tick', client, now());
      nextTick += TICK_MS;
    }
  }

  function info() {
    return client ? carom.get('carom_client_get_info', S.info, client) : null;
  }

  // The room's map, read once for drawing; kept by hash once it is known.
  function followMap(i) {
    const map = carom.m._carom_client_map(client);
    if (map === 0 || map === fieldMap) return;
    fieldMap = map;
    field = fieldOf(carom, map);
    if (!cachedMap) {
      cachedMap = true;
      const hash = field.mapInfo.hash.toString(16).padStart(16, '0');
      carom.call('carom_client_map_bytes', client, 0, 0, sizeAt);
      const n = new DataView(carom.m.HEAPU8.buffer).getUint32(sizeAt, true);
      const at = carom.m._malloc(n);
      try {
        carom.call('carom_client_map_bytes', client, at, n, sizeAt);
        if (i.map_source === 'the server') mapStore.put(hash, carom.m.HEAPU8.slice(at, at + n));
      } finally {
        carom.m._free(at);
      }
    }
  }

  // The name of the player in `slot` of the copy of the match.
  function nameOf(match, slot) {
    carom.call('carom_match_player', match, slot, playerAt);
    const f = S.player.offsets.name;
    let kept = names.get(slot);
    if (!kept) names.set(slot, kept = { bytes: new Uint8Array(0), text: '' });
    return carom.text(playerAt + f.at, f.count, kept);
  }

  function rosterText() {
    const match = carom.m._carom_client_match(client);
    if (match === 0) return '';
    const lines = [];
    for (let slot = 0; slot < field.mapInfo.slots; ++slot) {
      const p = carom.get('carom_match_player', S.player, match, slot);
      if (!p.active) continue;
      lines.push(`${p.team === 0 ? 'left ' : 'right'}  ${p.name.padEnd(16)} ${p.goals}`);
    }
    return lines.join('\n');
  }

  function render() {
    if (!client) return;
    const i = info();
    lastInfo = i;
    if (i.ended) {
      $('message').textContent = i.message;
      $('message').className = i.exit_code === 0 ? '' : 'bad';
    }
    followMap(i);
    const m = carom.m;
    const capacity = field ? field.mapInfo.pucks + field.mapInfo.slots + field.mapInfo.discs : 0;
    if (capacity > disksCapacity) {
      m._free(disksAt);
      disksAt = m._malloc(S.sceneDisk.size * capacity);
      disksCapacity = capacity;
    }
    carom.call('carom_client_scene', client, now(), disksAt, capacity, sizeAt, hudAt);
    const n = Math.min(carom.data().getUint32(sizeAt, true), capacity);
    const hud = carom.read(S.hud, hudAt);
    setText('score', `${hud.score[0]} : ${hud.score[1]}`);
    setText('clock', hud.clock);
    setText('phase', hud.phase_text);
    setText('title', `carom: ${i.map_name || 'joining'}` +
      (i.slot >= 0 ? `, you: ${i.team === 0 ? 'left' : 'right'}` : i.state === CLIENT_STATE.CAROM_CLIENT_CONNECTED ? ', watching' : ''));
    // The counters move every tick: the line is rewritten four times a second.
    if (performance.now() >= netShownAt + 250) {
      netShownAt = performance.now();
      setText('net', i.rtt_ms >= 0
        ? `ping ${i.rtt_ms.toFixed(0)} ms, in ${i.bytes_in} B, out ${i.bytes_out} B, resyncs ${i.resyncs}`
        : hud.phase_text);
    }
    if (!field || n === 0 && !i.has_state) {
      blank(canvas);
      return;
    }
    const disks = Array.from({ length: n }, (_, k) => carom.read(S.sceneDisk, disksAt + k * S.sceneDisk.size));
    const match = m._carom_client_match(client);
    for (const d of disks) {
      if (d.slot >= 0 && match !== 0) d.name = nameOf(match, d.slot);
    }
    draw(canvas, field, { disks, hud });
    // An embedding page (a benchmark) may follow what each frame drew.
    if (window.carom.onFrame) window.carom.onFrame({ disks, hud, slot: i.slot });
    if ($('roster').hidden === showRoster) $('roster').hidden = !showRoster;
    if (showRoster) setText('roster', rosterText());
  }

  function frame() {
    tickDue();
    flush();
    render();
    requestAnimationFrame(frame);
  }

  // Keys: a direction steers while it is down (keyup is its release); a tap
  // shorter than a tick still steers that one tick (the client's rule).
  const KEY_OF = {
    w: KEYS.CAROM_KEY_UP, W: KEYS.CAROM_KEY_UP, ArrowUp: KEYS.CAROM_KEY_UP,
    s: KEYS.CAROM_KEY_DOWN, S: KEYS.CAROM_KEY_DOWN, ArrowDown: KEYS.CAROM_KEY_DOWN,
    a: KEYS.CAROM_KEY_LEFT, A: KEYS.CAROM_KEY_LEFT, ArrowLeft: KEYS.CAROM_KEY_LEFT,
    d: KEYS.CAROM_KEY_RIGHT, D: KEYS.CAROM_KEY_RIGHT, ArrowRight: KEYS.CAROM_KEY_RIGHT,
    ' ': KEYS.CAROM_KEY_KICK,
  };
  function key(e, down) {
    if (!client || e.target.tagName === 'INPUT') return;
    if (e.key === 'Tab') {
      showRoster = down;
      e.preventDefault();
      return;
    }
    if (e.key === 'Escape' && down) {
      carom.call('carom_client_quit', client, now());
      flush();
      return;
    }
    if (!(e.key in KEY_OF)) return;
    e.preventDefault();
    if (down && e.repeat) return;
    carom.call('carom_client_key', client, KEY_OF[e.key], down ? 1 : 0, BigInt(Math.floor(e.timeStamp)));
  }
  addEventListener('keydown', (e) => key(e, true));
  addEventListener('keyup', (e) => key(e, false));
  // Keys held when the page loses the focus never come up: let them go.
  addEventListener('blur', () => {
    if (!client) return;
    for (const k of Object.values(KEYS)) carom.call('carom_client_key', client, k, 0, now());
    showRoster = false;
  });
  addEventListener('pagehide', () => {
    if (client) {
      carom.call('carom_client_quit', client, now());
      flush();
    }
  });

  function fit() {
    const box = canvas.parentElement.getBoundingClientRect();
    canvas.width = Math.max(320, Math.floor(box.width));
    canvas.height = Math.max(180, Math.floor(Math.min(box.width * 0.56, innerHeight - 150)));
  }
  addEventListener('resize', fit);

  // For tests and embedding pages: the session as carom_client_info has it.
  window.carom = {
    info: () => {
      const i = info();
      if (!i) return null;
      const out = {};
      for (const [k, v] of Object.entries(i)) out[k] = typeof v === 'bigint' ? Number(v) : v;
      return out;
    },
    // The copy of the match (carom_match_info: its tick, phase, score), or null.
    match: () => {
      const match = client ? carom.m._carom_client_match(client) : 0;
      if (match === 0) return null;
      const out = {};
      for (const [k, v] of Object.entries(carom.get('carom_match_get_info', S.matchInfo, match)))
        out[k] = typeof v === 'bigint' ? Number(v) : v;
      return out;
    },
    status: () => status,
    onFrame: null,  // called with each frame's { disks, hud, slot } once drawn
  };

  $('name').value = params.get('name') || localStorage.getItem('carom-name') || '';
  try {
    ws = await openSocket(onMessage, onClose);
  } catch (error) {
    $('message').textContent = error.message;
    $('message').className = 'bad';
    return;
  }
  askStatus();
  const lobby = setInterval(() => { if (client) clearInterval(lobby); else askStatus(); }, 2000);
  fit();
  requestAnimationFrame(frame);
}

main().catch((error) => {
  $('message').textContent = `the page failed to start: ${error.message || error}`;
  $('message').className = 'bad';
});
