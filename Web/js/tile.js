// One sticker tile: the sticker over its palette gradient, a caption, and a box to pick it.
// Test hook (a contract): the tile is an element with data-entry-id="ID" holding an <img> of the sticker.

import * as api from './api.js';
import * as palettes from './palettes.js';
import * as selection from './selection.js';
import { h, fileName } from './dom.js';
import { gradient } from './gradient.js';
import { colourWords } from './colors.js';

/**
 * A sticker image's text alternative: what a person would say of it, its photo's file name and
 * its main colours ("pug.heic, sticker in beige and grey"); without a palette yet, the name alone.
 */
export function stickerAlt(entry, palette) {
  const name = fileName(entry.path) || `#${entry.id}`;
  const words = colourWords(palette);
  const kind = entry.animated || entry.sticker?.animation ? 'animated sticker' : 'sticker';
  return words ? `${name}, ${kind} in ${words}` : `${name}, ${kind}`;
}

/**
 * Plays an animated sticker while the pointer or the keyboard focus is on `node`, and shows its
 * first frame otherwise: hundreds of them in the grid cost no more than stills until one is looked
 * at. Not for those who asked for less motion.
 */
function playOnHover(node, img, id) {
  const play = () => { if (!api.reducedMotion()) img.src = api.animationURL(id); };
  const still = () => { img.src = api.stickerURL(id); };
  node.addEventListener('mouseenter', play);
  node.addEventListener('mouseleave', still);
  node.addEventListener('focusin', play);
  node.addEventListener('focusout', still);
}

/** Sets the tile art's background from a palette, and says its colours in the image's alternative. */
export function paint(art, palette, entry) {
  art.style.setProperty('background-image', gradient(palette));
  art.classList.add('painted');
  const img = art.querySelector('img');
  if (img && entry) img.alt = stickerAlt(entry, palette);
}

/**
 * A tile for `entry` (`{id, path, palette?}`); `caption` replaces the file name (search shows the
 * matched colour there); `onOpen(id)` opens the detail view.
 */
export function tile(entry, { caption, onOpen, selectable = true } = {}) {
  const id = entry.id;
  const name = fileName(entry.path);
  const img = h('img', {
    src: api.stickerURL(id),
    alt: stickerAlt(entry),
    decoding: 'async',
    draggable: 'false',
  });
  img.addEventListener('load', () => img.classList.add('loaded'), { once: true });
  img.addEventListener('error', () => img.classList.add('broken'), { once: true });
  const art = h('div', { class: 'tile-art' }, img);
  if (entry.animated) art.append(h('span', { class: 'tile-badge' }, 'Animated'));
  const palette = entry.palette ?? palettes.cached(id);
  if (palette) paint(art, palette, entry);
  else palettes.load(id, (loaded) => paint(art, loaded, entry));

  // Named by its image; the keys are said once for every tile (index.html's #tile-keys).
  const open = h('button', {
    class: 'tile-open',
    type: 'button',
    tabindex: '-1',
    'aria-describedby': 'tile-keys',
    onclick: () => onOpen && onOpen(id),
  }, art);

  const node = h('div', { class: 'tile', dataset: { entryId: String(id) } }, open,
    h('div', { class: 'tile-caption' }, caption ?? h('span', { class: 'tile-name', title: entry.path || '' }, name || `#${id}`),
      h('span', { class: 'tile-id' }, `#${id}`)));
  if (entry.animated) playOnHover(node, img, id);
  if (selectable) {
    const box = h('input', {
      type: 'checkbox',
      tabindex: '-1',
      'aria-label': `Pick ${name || `sticker ${id}`}`,
      onchange: (event) => selection.toggle(id, event.target.checked),
    });
    box.checked = selection.has(id);
    node.classList.toggle('selected', box.checked);
    node.append(h('label', { class: 'tile-select', title: 'Pick (space)' }, box, h('span', { class: 'tick', 'aria-hidden': 'true' })));
  }
  return node;
}

/** A grey stand-in while a page of entries loads (no data-entry-id: it is not a sticker yet). */
export function placeholder() {
  return h('div', { class: 'tile placeholder', 'aria-hidden': 'true' },
    h('div', { class: 'tile-open' }, h('div', { class: 'tile-art' })), h('div', { class: 'tile-caption' }, '\u00a0'));
}
