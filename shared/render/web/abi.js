// carom.h in the browser: its structs read out of a WebAssembly module's
// memory and its functions called with their status checked. Shared by the
// replay page (replays/web) and the play page (client/web); the build puts
// it, and carom.h's layout, in front of each page's script.
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

// The structs both pages read: the map, the scene, the players.
const S = {
  mapInfo: struct('carom_map_info'),
  shape: struct('carom_shape'),
  circle: struct('carom_circle'),
  goal: struct('carom_goal'),
  sceneDisk: struct('carom_scene_disk'),
  hud: struct('carom_scene_hud'),
  player: struct('carom_player'),
};
const INK = ABI.enums.carom_ink;
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

  // A byte array copied into the module's memory for `fn(pointer, size)`.
  withBytes(bytes, fn) {
    const at = this.m._malloc(Math.max(bytes.length, 1));
    try {
      this.m.HEAPU8.set(bytes, at);
      return fn(at, bytes.length);
    } finally {
      this.m._free(at);
    }
  }
}

const hex = (h) => h.toString(16).padStart(16, '0');
