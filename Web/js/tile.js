// One sticker tile: the sticker over its palette gradient, a caption, and a box to pick it.
// Test hook (a contract): the tile is an element with data-entry-id="ID" holding an <img> of the sticker.

import * as api from './api.js';
import * as palettes from './palettes.js';
import * as selection from './selection.js';
import { h, fileName } from './dom.js';
import { gradient } from './gradient.js';

/** Sets the tile art's background from a palette. */
export function paint(art, palette) {
  art.style.setProperty('background-image', gradient(palette));
  art.classList.add('painted');
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
    alt: `Sticker ${id}${name ? `, ${name}` : ''}`,
    decoding: 'async',
    draggable: 'false',
  });
  img.addEventListener('load', () => img.classList.add('loaded'), { once: true });
  img.addEventListener('error', () => img.classList.add('broken'), { once: true });
  const art = h('div', { class: 'tile-art' }, img);
  const palette = entry.palette ?? palettes.cached(id);
  if (palette) paint(art, palette);
  else palettes.load(id, (loaded) => paint(art, loaded));

  const open = h('button', {
    class: 'tile-open',
    type: 'button',
    tabindex: '-1',
    'aria-label': `Sticker ${id}${name ? `, ${name}` : ''}. Enter opens it, space picks it.`,
    onclick: () => onOpen && onOpen(id),
  }, art);

  const node = h('div', { class: 'tile', dataset: { entryId: String(id) } }, open,
    h('div', { class: 'tile-caption' }, caption ?? h('span', { class: 'tile-name', title: entry.path || '' }, name || `#${id}`),
      h('span', { class: 'tile-id' }, `#${id}`)));
  if (selectable) {
    const box = h('input', {
      type: 'checkbox',
      tabindex: '-1',
      'aria-label': `Pick sticker ${id}`,
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
