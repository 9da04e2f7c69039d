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
// and throws carom_last_error()'s message. A page calls it every frame, so
// it allocates nothing it can keep: each layout's readers are made once,
// the structs calls fill and the bytes handed in go to buffers kept for
// the next call, and a text field that did not change is not decoded again.
class Carom {
  constructor(module) {
    this.m = module;
    this.scratch = module._malloc(4096);
    this.readers = new WeakMap();  // layout -> [{ name, at, read(at) }]
    this.kept = {};                // buffer name -> { at, size }
    this.view = new DataView(module.HEAPU8.buffer);
  }

  call(name, ...args) {
    const status = this.m['_' + name](...args);
    if (status !== 0) throw new Error(this.m.UTF8ToString(this.m._carom_last_error()));
  }

  // The module's memory as a DataView (a new one once the memory grew).
  data() {
    if (this.view.buffer !== this.m.HEAPU8.buffer) this.view = new DataView(this.m.HEAPU8.buffer);
    return this.view;
  }

  // At least `size` bytes of the module's memory kept under `name` across calls.
  buffer(name, size) {
    const b = this.kept[name];
    if (b && b.size >= size) return b.at;
    if (b) this.m._free(b.at);
    const at = this.m._malloc(size);
    this.kept[name] = { at, size };
    return at;
  }

  fields(layout) {
    let fields = this.readers.get(layout);
    if (fields) return fields;
    fields = Object.entries(layout.offsets).map(([name, f]) => {
      const one = this.reader(name, f);
      const read = f.count === 1 || f.type === 'char' ? one
        : (at) => Array.from({ length: f.count }, (_, i) => one(at + i * f.size));
      return { name, at: f.at, read };
    });
    this.readers.set(layout, fields);
    return fields;
  }

  reader(name, f) {
    switch (f.type) {
      case 'int32_t': return (p) => this.view.getInt32(p, true);
      case 'uint32_t': return (p) => this.view.getUint32(p, true);
      case 'uint8_t': return (p) => this.view.getUint8(p);
      case 'uint64_t': return (p) => this.view.getBigUint64(p, true);
      case 'double': return (p) => this.view.getFloat64(p, true);
      case 'char': {
        const kept = { bytes: new Uint8Array(0), text: '' };  // the field's last text
        return (p) => this.text(p, f.count, kept);
      }
      default: throw new Error(`carom.h's ${name}: a ${f.type} is not read here`);
    }
  }

  // The NUL-terminated text at `at` (at most `count` bytes): `kept`'s
  // ({ bytes, text }, the last read) when the bytes are the same, else
  // decoded and kept.
  text(at, count, kept) {
    const heap = this.m.HEAPU8;
    let n = 0;
    while (n < count && heap[at + n] !== 0) ++n;
    if (n === kept.bytes.length) {
      let same = true;
      for (let i = 0; i < n && same; ++i) same = heap[at + i] === kept.bytes[i];
      if (same) return kept.text;
    }
    kept.bytes = heap.slice(at, at + n);
    kept.text = this.m.UTF8ToString(at, n);
    return kept.text;
  }

  read(layout, ptr) {
    this.data();
    const out = {};
    for (const f of this.fields(layout)) out[f.name] = f.read(ptr + f.at);
    return out;
  }

  handle() {  // the pointer a call left in the scratch's first word
    return this.data().getUint32(this.scratch, true);
  }

  // A struct filled by `name(...args, out)`.
  get(name, layout, ...args) {
    const out = this.buffer('get', layout.size);
    this.call(name, ...args, out);
    return this.read(layout, out);
  }

  // Every item of a (buffer, capacity, count) call, asking for the count first.
  list(name, layout, ...args) {
    const countAt = this.scratch + 8;
    this.call(name, ...args, 0, 0, countAt);
    const n = this.data().getUint32(countAt, true);
    if (n === 0) return [];
    const buffer = this.m._malloc(layout.size * n);
    try {
      this.call(name, ...args, buffer, n, countAt);
      return Array.from({ length: n }, (_, i) => this.read(layout, buffer + i * layout.size));
    } finally {
      this.m._free(buffer);
    }
  }

  // A byte array copied into the module's memory for `fn(pointer, size)`:
  // a datagram's size into a buffer kept for the next, a file's for this call.
  withBytes(bytes, fn) {
    const small = bytes.length <= 65536;
    const at = small ? this.buffer('bytes', 65536) : this.m._malloc(bytes.length);
    try {
      this.m.HEAPU8.set(bytes, at);
      return fn(at, bytes.length);
    } finally {
      if (!small) this.m._free(at);
    }
  }
}

const hex = (h) => h.toString(16).padStart(16, '0');
