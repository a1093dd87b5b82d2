// A sticker's background: a linear gradient through its palette, largest share first, from the
// top-left corner to the bottom-right, mixed in linear light. The same stops `catalog preview`
// draws (Sources/Processing/Preview/PaletteGradient.swift), so the page and the contact sheet agree.

const NEUTRAL = ['#eeeef0', '#c4c6cc'];

const linearMixing = typeof CSS !== 'undefined' && CSS.supports('background-image', 'linear-gradient(135deg in srgb-linear, red, blue)');

function rgb(hex) {
  const value = parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

function hex([r, g, b]) {
  return '#' + [r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('');
}

const toLinear = (v) => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
const fromLinear = (v) => {
  const c = v <= 0.0031308 ? v * 12.92 : 1.055 * v ** (1 / 2.4) - 0.055;
  return Math.min(255, Math.max(0, Math.round(c * 255)));
};

/** `color` moved `amount` (0...1) of the way to white. */
function lighten(color, amount) {
  return hex(rgb(color).map((v) => Math.round(v + (255 - v) * amount)));
}

/** The gradient's colour stops for a palette (`[{hex, share}]`), as PaletteGradient.stops. */
export function stops(palette) {
  const colors = (palette || []).map((c) => c.hex).filter((h) => /^#[0-9a-fA-F]{6}$/.test(h));
  if (colors.length === 0) return NEUTRAL;
  if (colors.length === 1) return [lighten(colors[0], 0.55), colors[0]];
  return colors;
}

/** The CSS background-image for a palette. */
export function gradient(palette) {
  const list = stops(palette);
  if (linearMixing) return `linear-gradient(135deg in srgb-linear, ${list.join(', ')})`;
  // Older engines mix in gamma space: add in-between stops computed in linear light.
  const expanded = [];
  for (let i = 0; i < list.length - 1; i++) {
    const a = rgb(list[i]).map(toLinear), b = rgb(list[i + 1]).map(toLinear);
    for (let step = 0; step < 4; step++) {
      const t = step / 4;
      expanded.push(hex(a.map((v, k) => fromLinear(v * (1 - t) + b[k] * t))));
    }
  }
  expanded.push(list[list.length - 1]);
  return `linear-gradient(135deg, ${expanded.join(', ')})`;
}

/** Whether text over `hexColor` reads better dark (true) or light. */
export function prefersDarkText(hexColor) {
  const [r, g, b] = rgb(hexColor).map(toLinear);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.18;
}
