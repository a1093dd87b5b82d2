// Colour names and hex, as the search accepts them (`#rrggbb`, `#rgb`, any CSS colour name). The
// browser itself resolves names, so the picker can follow what is typed.

const probe = document.createElement('canvas').getContext('2d');

/** `text` as `#rrggbb` when it is a colour the search takes, else null. */
export function toHex(text) {
  const value = (text || '').trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(value)) return value;
  if (/^#[0-9a-f]{3}$/.test(value)) return '#' + [...value.slice(1)].map((c) => c + c).join('');
  if (!/^[a-z]+$/.test(value)) return null;
  // An unknown name leaves fillStyle as it was: try from two different colours to tell.
  probe.fillStyle = '#000000';
  probe.fillStyle = value;
  const first = probe.fillStyle;
  probe.fillStyle = '#ffffff';
  probe.fillStyle = value;
  if (first !== probe.fillStyle || !/^#[0-9a-f]{6}$/.test(first)) return null;
  return first;
}

/** Colours to start from, one click each. */
export const PRESETS = [
  ['red', '#e53935'], ['orange', '#ff8800'], ['gold', '#ffd700'], ['green', '#43a047'],
  ['teal', '#008080'], ['blue', '#1e88e5'], ['purple', '#8e24aa'], ['pink', '#ff69b4'],
  ['brown', '#8b5a2b'], ['white', '#ffffff'], ['grey', '#808080'], ['black', '#000000'],
];

// Colours in words, for text alternatives ("sticker in beige and grey"): a dozen and a half names
// everyone knows, chosen by lightness, chroma and hue in Oklab (the space the search's ΔE is in).

function oklch(hex) {
  const value = parseInt(hex.slice(1), 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  const L = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  const A = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const B = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  return { L, C: Math.hypot(A, B), H: ((Math.atan2(B, A) * 180) / Math.PI + 360) % 360 };
}

/** The everyday name of `#rrggbb`: red, orange, yellow, green, teal, blue, purple, pink, brown… */
export function colourName(hex) {
  const { L, C, H } = oklch(hex);
  const neutral = () => (L >= 0.9 ? 'white' : L < 0.3 ? 'black' : 'grey');
  if (C < 0.03 || (L >= 0.95 && C < 0.04)) return neutral();
  // Pale warm colours (sand, cream, tan) read as beige before they read as a hue.
  if (H >= 40 && H < 115 && C < 0.09 && L >= 0.7) return 'beige';
  if (C < 0.05) return H >= 30 && H < 100 && L >= 0.3 && L < 0.7 ? 'brown' : neutral();
  if (H < 15 || H >= 340) return L >= 0.65 ? 'pink' : 'red';
  if (H < 40) return L < 0.5 && C < 0.17 ? 'brown' : L >= 0.82 ? 'pink' : 'red';
  if (H < 75) return L < 0.6 ? 'brown' : 'orange';
  if (H < 115) return L < 0.7 ? 'olive' : 'yellow';
  if (H < 170) return 'green';
  if (H < 215) return 'teal';
  if (H < 275) return L < 0.35 ? 'navy' : 'blue';
  return L >= 0.7 ? 'pink' : 'purple';
}

/**
 * The main colours of a palette (`[{hex, share}]`) in words, most of the sticker first: "beige and
 * grey", "orange, white and black". Shades with one name count together (four reds outweigh one
 * black); a name under a tenth of the sticker is left out, and three are enough.
 */
export function colourWords(palette) {
  const shares = new Map();
  for (const c of palette || []) {
    if (!/^#[0-9a-fA-F]{6}$/.test(c.hex)) continue;
    const name = colourName(c.hex.toLowerCase());
    shares.set(name, (shares.get(name) ?? 0) + (c.share ?? 0));
  }
  const ranked = [...shares].sort((a, b) => b[1] - a[1]);
  const names = ranked.filter(([, share], i) => i === 0 || share >= 0.1).slice(0, 3).map(([name]) => name);
  if (names.length < 2) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
