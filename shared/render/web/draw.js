// A carom field on a canvas: the map's walls, goals and posts, then a
// scene's disks, names and banner. The replay page and the play page draw
// with it; what they draw (the scene and its words) comes from carom.h.
'use strict';

const COLOUR = {  // by carom_ink
  [INK.CAROM_INK_LEFT]: '#e5534b', [INK.CAROM_INK_RIGHT]: '#4b8fe5',
  [INK.CAROM_INK_PUCK]: '#f4f4f4', [INK.CAROM_INK_OWN]: '#ffd43b',
};
const GOAL_INK = [INK.CAROM_INK_LEFT, INK.CAROM_INK_RIGHT];  // by the defending team
const WALL = '#cfd8dc';
const rgbText = (rgb) => '#' + rgb.toString(16).padStart(6, '0');

// What a page draws of a map (carom_map*): read once, drawn every frame.
function fieldOf(carom, map) {
  const info = carom.get('carom_map_get_info', S.mapInfo, map);
  const each = (n, fn) => Array.from({ length: n }, (_, i) => fn(i));
  return {
    mapInfo: info,
    shapes: each(info.shapes, (i) => carom.get('carom_map_shape', S.shape, map, i)),
    posts: each(info.posts, (i) => carom.get('carom_map_post', S.circle, map, i)),
    goalLines: each(info.goals, (i) => carom.get('carom_map_goal', S.goal, map, i)),
  };
}

// Where the map's field goes on a W×H canvas (y up), fitted with a margin.
function fieldPlace(m, W, H) {
  const margin = 0.04 * Math.max(m.width, m.height);
  const scale = Math.min(W / (m.width + 2 * margin), H / (m.height + 2 * margin));
  const ox = (W - m.width * scale) / 2;
  const oy = (H - m.height * scale) / 2;
  return { scale, X: (x) => ox + x * scale, Y: (y) => oy + (m.height - y) * scale };
}

// What never moves: the ground, walls, goal lines and posts.
function drawGround(ctx, v, W, H) {
  const m = v.mapInfo;
  const { scale, X, Y } = fieldPlace(m, W, H);
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
  for (const p of v.posts) drawDisc(ctx, scale, X(p.x), Y(p.y), p.radius, p.rgb ? rgbText(p.rgb) : WALL, '#0b1b12');
}

function drawDisc(ctx, scale, x, y, r, fill, outline) {
  ctx.beginPath();
  ctx.arc(x, y, Math.max(1.5, r * scale), 0, 2 * Math.PI);
  ctx.fillStyle = fill;
  ctx.fill();
  if (outline) {
    ctx.lineWidth = Math.max(1, 0.15 * scale);
    ctx.strokeStyle = outline;
    ctx.stroke();
  }
}

// What a canvas holds between frames: its ground, drawn once (for the field
// and the canvas's size) on a canvas of its own, what the last frame put on
// it (the images and where) and the rectangles they covered, and the moving
// things' images (a disk by its colours and size, a name by its text and
// colour, the banner by its words), each drawn once. A frame puts the
// ground back under those rectangles only and copies the images onto it: a
// still field is not drawn again, nor a text shaped and rasterised, every
// frame; a frame that would put the same images at the same places leaves
// the canvas as it is (nothing for the browser to raster or composite).
const shown = new WeakMap();  // canvas -> { v, W, H, ground, sprites, last, next }
// Left in the context after a frame. Setting a canvas's width or height
// (even to the same value) clears it and resets its context, this too: the
// next frame then draws the whole ground again. A dash offset draws nothing
// without dashes, which nothing here uses.
const DRAWN = 0.5;

// An image of `w`×`h` pixels drawn once by `paint(ctx)`, kept under `key`.
function sprite(s, key, w, h, paint) {
  let image = s.sprites.get(key);
  if (image) return image;
  image = document.createElement('canvas');
  image.width = Math.max(1, Math.ceil(w));
  image.height = Math.max(1, Math.ceil(h));
  paint(image.getContext('2d'));
  s.sprites.set(key, image);
  return image;
}

// The canvas's context, opaque (everything is drawn on the ground, and the
// compositor need not blend the canvas over the page), kept: asking for it
// again costs a call and an options object every frame.
const contexts = new WeakMap();
function context2d(canvas) {
  let ctx = contexts.get(canvas);
  if (!ctx) contexts.set(canvas, ctx = canvas.getContext('2d', { alpha: false }));
  return ctx;
}

// A frame's images and their places (kept from frame to frame: a frame
// allocates no list).
const placements = () => ({ images: [], at: [] });

// Draws `field` (fieldOf) and a scene, the map's field fitted to the canvas (y up).
function draw(canvas, v, scene) {
  const ctx = context2d(canvas);
  const { width: W, height: H } = canvas;
  let s = shown.get(canvas);
  if (!s || s.v !== v || s.W !== W || s.H !== H) {
    const ground = document.createElement('canvas');
    ground.width = W;
    ground.height = H;
    drawGround(ground.getContext('2d'), v, W, H);
    s = { v, W, H, ground, sprites: new Map(), last: placements(), next: placements() };
    shown.set(canvas, s);
    ctx.lineDashOffset = 0;
  }
  const { images, at } = s.next;
  images.length = 0;
  at.length = 0;
  const place = (image, x, y) => {
    images.push(image);
    at.push(x, y);
  };

  const { scale, X, Y } = fieldPlace(v.mapInfo, W, H);
  const outline = Math.max(1, 0.15 * scale);
  for (const d of scene.disks) {
    const fill = d.ink === INK.CAROM_INK_DISC ? rgbText(d.rgb) : COLOUR[d.ink];
    const edge = d.ink === INK.CAROM_INK_OWN ? '#ffffff' : '#0b1b12';
    const r = Math.max(1.5, d.radius * scale);
    const half = r + outline;
    const image = sprite(s, `disc ${fill} ${edge} ${r}`, 2 * half + 2, 2 * half + 2,
      (c) => drawDisc(c, scale, half + 1, half + 1, d.radius, fill, edge));
    place(image, X(d.x) - half - 1, Y(d.y) - half - 1);
  }
  const size = Math.max(10, Math.round(1.1 * scale));
  const font = `${size}px sans-serif`;
  for (const d of scene.disks) {
    if (d.name === undefined) continue;
    const colour = d.ink === INK.CAROM_INK_OWN ? COLOUR[INK.CAROM_INK_OWN] : '#ffffffcc';
    const key = `name ${colour} ${d.name}`;
    let image = s.sprites.get(key);
    if (!image) {
      ctx.font = font;
      const w = ctx.measureText(d.name).width + 4;
      image = sprite(s, key, w, 1.4 * size, (c) => {
        c.font = font;
        c.textAlign = 'center';
        c.textBaseline = 'top';
        c.fillStyle = colour;
        c.fillText(d.name, w / 2, 0);
      });
    }
    place(image, Math.round(X(d.x) - image.width / 2), Math.round(Y(d.y - d.radius) + 2));
  }
  if (scene.hud.banner) {
    const text = scene.hud.banner;
    const colour = scene.hud.phase === 'goal' ? COLOUR[INK.CAROM_INK_OWN] : '#ffffff';
    const bold = `bold ${Math.max(16, Math.round(0.045 * W))}px sans-serif`;
    const key = `banner ${colour} ${bold} ${text}`;
    let image = s.sprites.get(key);
    if (!image) {
      ctx.font = bold;
      const w = Math.ceil(ctx.measureText(text).width + 40);
      image = sprite(s, key, w, 60, (c) => {
        c.fillStyle = '#000000b0';
        c.fillRect(0, 0, w, 60);
        c.font = bold;
        c.textAlign = 'center';
        c.textBaseline = 'middle';
        c.fillStyle = colour;
        c.fillText(text, w / 2, 30);
      });
    }
    place(image, Math.round((W - image.width) / 2), Math.round(H / 2 - 30));
  }

  const last = s.last;
  const intact = ctx.lineDashOffset === DRAWN;
  if (intact && images.length === last.images.length &&
    images.every((image, k) => image === last.images[k]) && at.every((x, k) => x === last.at[k]))
    return;
  if (!intact) {
    ctx.drawImage(s.ground, 0, 0);
  } else {
    // The ground back under the last frame's images: each one's rectangle,
    // rounded out to whole pixels (its edge is filtered into the next one),
    // clipped to the canvas.
    for (let k = 0; k < last.images.length; ++k) {
      const x0 = Math.max(0, Math.floor(last.at[2 * k]) - 1);
      const y0 = Math.max(0, Math.floor(last.at[2 * k + 1]) - 1);
      const w = Math.min(W, Math.ceil(last.at[2 * k] + last.images[k].width) + 1) - x0;
      const h = Math.min(H, Math.ceil(last.at[2 * k + 1] + last.images[k].height) + 1) - y0;
      if (w > 0 && h > 0) ctx.drawImage(s.ground, x0, y0, w, h, x0, y0, w, h);
    }
  }
  for (let k = 0; k < images.length; ++k) ctx.drawImage(images[k], at[2 * k], at[2 * k + 1]);
  s.last = s.next;
  s.next = last;
  ctx.lineDashOffset = DRAWN;
}

// An empty field (nothing to show yet); the next draw() draws it all.
function blank(canvas) {
  const ctx = context2d(canvas);
  ctx.fillStyle = '#1f3a2b';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.lineDashOffset = 0;
}
