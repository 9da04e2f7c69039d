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

// Draws `field` (fieldOf) and a scene, the map's field fitted to the canvas (y up).
function draw(canvas, v, scene) {
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
    const fill = d.ink === INK.CAROM_INK_DISC ? rgbText(d.rgb) : COLOUR[d.ink];
    disc(d.x, d.y, d.radius, fill, d.ink === INK.CAROM_INK_OWN ? '#ffffff' : '#0b1b12');
  }
  ctx.font = `${Math.max(10, Math.round(1.1 * scale))}px sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const d of scene.disks) {
    if (d.name === undefined) continue;
    ctx.fillStyle = d.ink === INK.CAROM_INK_OWN ? COLOUR[INK.CAROM_INK_OWN] : '#ffffffcc';
    ctx.fillText(d.name, X(d.x), Y(d.y - d.radius) + 2);
  }
  if (scene.hud.banner) {
    ctx.font = `bold ${Math.max(16, Math.round(0.045 * W))}px sans-serif`;
    ctx.textBaseline = 'middle';
    const w = ctx.measureText(scene.hud.banner).width + 40;
    ctx.fillStyle = '#000000b0';
    ctx.fillRect((W - w) / 2, H / 2 - 30, w, 60);
    ctx.fillStyle = scene.hud.phase === 'goal' ? COLOUR[INK.CAROM_INK_OWN] : '#ffffff';
    ctx.fillText(scene.hud.banner, W / 2, H / 2);
  }
}

