// What the browser tests read off a page's canvas (#field), drawn by
// shared/render/web/draw.js: the inks it uses, and pixels counted by colour.
'use strict';

const INK = { left: '#e5534b', right: '#4b8fe5', puck: '#f4f4f4', banner: '#ffd43b' };

// Counts the canvas's pixels near each of `colours` (#rrggbb) within a box
// given as fractions of the canvas.
function pixels(page, colours, box = [0, 0, 1, 1]) {
  return page.evaluate(([wanted, b]) => {
    const c = document.getElementById('field');
    const x0 = Math.floor(b[0] * c.width);
    const y0 = Math.floor(b[1] * c.height);
    const w = Math.floor((b[2] - b[0]) * c.width);
    const h = Math.floor((b[3] - b[1]) * c.height);
    const data = c.getContext('2d').getImageData(x0, y0, w, h).data;
    const rgb = wanted.map((s) => [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16)));
    const counts = wanted.map(() => 0);
    for (let i = 0; i < data.length; i += 4)
      rgb.forEach((c2, k) => {
        if (Math.abs(data[i] - c2[0]) + Math.abs(data[i + 1] - c2[1]) + Math.abs(data[i + 2] - c2[2]) < 24) counts[k]++;
      });
    return counts;
  }, [colours, box]);
}

module.exports = { INK, pixels };
