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
