// Palettes for tiles. The entry list may carry each entry's palette; when it does not, the palette
// of a tile that comes into view is read from /api/entries/{id}, a few at a time, and remembered.

import * as api from './api.js';

const known = new Map();
const waiting = new Map();
const queue = [];
let running = 0;
const PARALLEL = 6;
const REMEMBERED = 5000;

function remember(id, palette) {
  known.set(id, palette);
  if (known.size > REMEMBERED) known.delete(known.keys().next().value);
}

/** Records palettes that came with a list of entries. */
export function note(entries) {
  for (const entry of entries) if (Array.isArray(entry.palette)) remember(entry.id, entry.palette);
}

/** The palette of entry `id` if already known (synchronously), else undefined. */
export const cached = (id) => known.get(id);

/** Forgets every palette (after a reprocess, which may change them). */
export function forget() {
  known.clear();
}

function pump() {
  while (running < PARALLEL && queue.length > 0) {
    const id = queue.shift();
    const callbacks = waiting.get(id);
    if (!callbacks) continue;
    running++;
    // Low priority: the stickers themselves come first (the browser has few connections to share).
    api.entry(id, undefined, 'low')
      .then((detail) => { remember(id, detail.palette || []); return detail.palette || []; })
      .catch(() => [])
      .then((palette) => {
        waiting.delete(id);
        for (const callback of callbacks) callback(palette);
      })
      .finally(() => { running--; pump(); });
  }
}

/** Calls `callback(palette)` once the palette of `id` is known. */
export function load(id, callback) {
  if (known.has(id)) { callback(known.get(id)); return; }
  if (waiting.has(id)) { waiting.get(id).push(callback); return; }
  waiting.set(id, [callback]);
  queue.push(id);
  pump();
}

/** Drops requests for tiles that left the screen before their turn came. */
export function cancelExcept(ids) {
  for (let i = queue.length - 1; i >= 0; i--) {
    if (!ids.has(queue[i])) { waiting.delete(queue[i]); queue.splice(i, 1); }
  }
}
