// A virtualised grid of sticker tiles: only the rows on screen (and a few around them) exist in the
// document, so 100,000 entries scroll like 100. The page itself scrolls; the grid takes the height
// all its rows would have and draws the visible window of them.

import * as palettes from './palettes.js';
import * as selection from './selection.js';
import { h } from './dom.js';
import { tile, placeholder } from './tile.js';

// The first screen of stickers is timed with the Performance API: the mark `first-stickers-drawn`
// is set once the tiles of the first full screen have their images decoded (Benchmarks/README.md).
let firstScreenMarked = false;
let firstScreenDone;
/** Settles once the first screen of stickers is drawn (work that can wait, waits for it). */
export const firstScreenDrawn = new Promise((resolve) => { firstScreenDone = resolve; });

function markFirstScreen(layer) {
  if (firstScreenMarked) return;
  const images = [...layer.querySelectorAll('.tile[data-entry-id] img')]
    .filter((img) => img.getBoundingClientRect().top < window.innerHeight);
  if (images.length === 0) return;
  firstScreenMarked = true;
  Promise.all(images.map((img) => img.decode().catch(() => {})))
    .then(() => requestAnimationFrame(() => { performance.mark('first-stickers-drawn'); firstScreenDone(); }));
}

/**
 * How much of the window's bottom is covered by bars fixed there (the phone's tab bar, the picked
 * stickers' bar): a tile moved to with the keyboard must not land under them.
 */
function coveredAtBottom() {
  let covered = 0;
  for (const bar of document.querySelectorAll('.tabs, #selection-bar')) {
    if (bar.hidden || getComputedStyle(bar).position !== 'fixed') continue;
    covered = Math.max(covered, window.innerHeight - bar.getBoundingClientRect().top);
  }
  return Math.max(0, covered);
}

/** Entries read from the server a page at a time, remembered up to `keepPages` pages. */
export class PagedSource {
  constructor(fetchPage, pageSize = 120, keepPages = 60) {
    this.fetchPage = fetchPage;
    this.pageSize = pageSize;
    this.keepPages = keepPages;
    this.pages = new Map();
    this.loading = new Map();
    this.total = 0;
  }

  /** Reads the first page and the total. */
  async start() {
    await this.load(0);
    return this;
  }

  async load(page) {
    if (this.pages.has(page)) return;
    if (!this.loading.has(page)) {
      const promise = this.fetchPage(page * this.pageSize, this.pageSize).then(({ total, entries }) => {
        this.total = total;
        palettes.note(entries);
        this.pages.set(page, entries);
        if (this.pages.size > this.keepPages) this.pages.delete(this.pages.keys().next().value);
      }).finally(() => this.loading.delete(page));
      this.loading.set(page, promise);
    }
    await this.loading.get(page);
  }

  at(index) {
    const page = this.pages.get(Math.floor(index / this.pageSize));
    return page ? page[index % this.pageSize] : undefined;
  }

  /** Loads the pages that hold indexes `from..<to`. */
  ensure(from, to) {
    const wanted = [];
    for (let page = Math.floor(from / this.pageSize); page <= Math.floor((to - 1) / this.pageSize); page++) {
      if (!this.pages.has(page)) wanted.push(this.load(page));
    }
    return wanted.length ? Promise.all(wanted).then(() => true) : null;
  }

  /** The index of entry `id` among the pages in memory, or -1. */
  indexOf(id) {
    for (const [page, entries] of this.pages) {
      const at = entries.findIndex((entry) => entry.id === id);
      if (at >= 0) return page * this.pageSize + at;
    }
    return -1;
  }
}

/** A list that is all in memory (search results, a pack). */
export class ArraySource {
  constructor(entries) {
    this.entries = entries;
    this.total = entries.length;
    palettes.note(entries);
  }
  at(index) { return this.entries[index]; }
  ensure() { return null; }
  indexOf(id) { return this.entries.findIndex((entry) => entry.id === id); }
}

/** The grid. `caption(entry)` optionally replaces a tile's caption; `onOpen(id, index)` opens one. */
export class VirtualGrid {
  constructor({ label, caption, onOpen, minTile = 172, gap = 18, captionHeight = 30, overscan = 3 }) {
    this.caption = caption;
    this.onOpen = onOpen;
    this.minTile = minTile;
    this.gap = gap;
    this.captionHeight = captionHeight;
    this.overscan = overscan;
    this.source = new ArraySource([]);
    this.drawn = new Map();
    this.focusIndex = 0;
    this.range = null;
    this.layer = h('div', { class: 'vgrid-layer' });
    this.element = h('div', { class: 'vgrid', role: 'region', 'aria-label': label }, this.layer);
    this.element.addEventListener('keydown', (event) => this.key(event));
    this.element.addEventListener('focusin', (event) => {
      const node = event.target.closest('.tile[data-entry-id]');
      if (node && node.dataset.index) this.focusIndex = Number(node.dataset.index);
    });
    this.scheduled = false;
    this.onScroll = () => this.schedule();
    window.addEventListener('scroll', this.onScroll, { passive: true });
    this.resizer = new ResizeObserver(() => { this.measure(); this.schedule(true); });
    this.resizer.observe(this.element);
  }

  /** Stops following the window (the view is gone). */
  destroy() {
    window.removeEventListener('scroll', this.onScroll);
    this.resizer.disconnect();
  }

  /** Shows another list; keeps tiles of entries that are still there (`fresh`: makes them all anew). */
  setSource(source, { fresh = false } = {}) {
    this.source = source;
    if (fresh) {
      for (const node of this.drawn.values()) node.remove();
      this.drawn = new Map();
    }
    this.focusIndex = Math.min(this.focusIndex, Math.max(0, source.total - 1));
    this.measure();
    this.schedule(true);
  }

  measure() {
    const width = this.element.clientWidth || this.element.parentElement?.clientWidth || 800;
    const min = window.innerWidth < 560 ? Math.min(this.minTile, 112) : this.minTile;
    const columns = Math.max(1, Math.floor((width + this.gap) / (min + this.gap)));
    const tileSize = (width - this.gap * (columns - 1)) / columns;
    // A new geometry: every drawn tile moves to its new cell on the next draw.
    if (columns !== this.columns || tileSize !== this.tileSize) for (const node of this.drawn.values()) delete node.dataset.index;
    this.columns = columns;
    this.tileSize = tileSize;
    this.rowHeight = this.tileSize + this.captionHeight + this.gap;
    const rows = Math.ceil(this.source.total / this.columns);
    this.element.style.setProperty('height', `${Math.max(0, rows * this.rowHeight - this.gap)}px`);
    this.element.style.setProperty('--tile-width', `${this.tileSize}px`);
    this.element.style.setProperty('--tile-height', `${this.tileSize + this.captionHeight}px`);
  }

  schedule(force = false) {
    if (force) this.range = null;
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => { this.scheduled = false; this.draw(); });
  }

  visibleRows() {
    const top = this.element.getBoundingClientRect().top;
    const first = Math.floor(Math.max(0, -top) / this.rowHeight);
    const last = Math.floor(Math.max(0, window.innerHeight - top) / this.rowHeight);
    return [first, last];
  }

  /**
   * Draws the rows around the visible ones. Each tile is placed absolutely at its index's cell and
   * stays in the document, untouched, while it is in range: scrolling only adds the rows coming in
   * and removes those going out, so the browser repaints only those.
   */
  draw() {
    if (!this.element.isConnected) return;
    const total = this.source.total;
    const rows = Math.ceil(total / this.columns);
    const [firstVisible, lastVisible] = this.visibleRows();
    const first = Math.max(0, firstVisible - this.overscan);
    const last = Math.min(rows - 1, lastVisible + this.overscan);
    const from = first * this.columns;
    const to = Math.min(total, (last + 1) * this.columns);
    const key = `${from}:${to}:${total}:${this.columns}`;
    if (this.range === key) return;
    const pending = this.source.ensure(from, to);
    if (pending) pending.then(() => this.schedule(true)).catch(() => {});

    const hadFocus = this.element.contains(document.activeElement);
    const previous = this.drawn || new Map();
    const drawn = new Map();
    const ids = new Set();
    const byId = new Map();
    for (const node of previous.values()) if (node.dataset.entryId) byId.set(node.dataset.entryId, node);
    const rekeyed = new Map();
    for (const node of previous.values()) if (node.dataset.index !== undefined) rekeyed.set(Number(node.dataset.index), node);
    let before = null;
    for (let index = to - 1; index >= from; index--) {
      const entry = this.source.at(index);
      let node = rekeyed.get(index);
      if (entry) {
        const reuse = byId.get(String(entry.id));
        if (reuse && reuse.captionKey === this.captionKey(entry)) node = reuse;
        else if (!node || node.dataset.entryId !== String(entry.id) || node.captionKey !== this.captionKey(entry)) {
          node = tile(entry, { caption: this.caption ? this.caption(entry) : undefined });
          node.captionKey = this.captionKey(entry);
        }
        const open = node.querySelector('.tile-open');
        open.onclick = () => this.onOpen?.(entry.id, index);
        open.tabIndex = index === this.focusIndex ? 0 : -1;
        ids.add(entry.id);
        byId.delete(String(entry.id));
      } else if (!node || node.dataset.entryId) {
        node = placeholder();
      }
      if (node.dataset.index !== String(index)) {
        node.dataset.index = String(index);
        const row = Math.floor(index / this.columns), column = index % this.columns;
        node.style.setProperty('transform', `translate(${column * (this.tileSize + this.gap)}px, ${row * this.rowHeight}px)`);
      }
      drawn.set(index, node);
      // Keep document order = index order (screen readers read it so); move only what is out of place.
      if (node.parentNode !== this.layer || node.nextSibling !== before) this.layer.insertBefore(node, before);
      before = node;
    }
    const kept = new Set(drawn.values());
    for (const node of previous.values()) if (!kept.has(node)) node.remove();
    this.drawn = drawn;
    palettes.cancelExcept(ids);
    this.range = pending ? null : key;
    markFirstScreen(this.layer);
    // The focused tile was re-attached, or the one asked for has arrived: give it the focus.
    if ((hadFocus && !this.element.contains(document.activeElement)) || (this.pendingFocus !== null && this.pendingFocus !== undefined && !pending
        && (document.activeElement === document.body || this.element.contains(document.activeElement)))) {
      this.focusTile(this.pendingFocus ?? this.focusIndex, false);
    }
    // No tile carries tabindex 0 (the focused index is off screen): let Tab reach the first drawn one.
    if (!this.layer.querySelector('.tile-open[tabindex="0"]')) {
      const firstOpen = this.layer.querySelector('.tile[data-entry-id] .tile-open');
      if (firstOpen) firstOpen.tabIndex = 0;
    }
  }

  captionKey(entry) {
    return this.caption ? JSON.stringify([entry.color, entry.distance, entry.share]) : '';
  }

  /** Scrolls tile `index` into view, clear of the bars over the page's edges, and focuses it. */
  focusTile(index, scroll = true) {
    const total = this.source.total;
    if (total === 0) return;
    index = Math.max(0, Math.min(total - 1, index));
    this.focusIndex = index;
    if (scroll) {
      const row = Math.floor(index / this.columns);
      const gridTop = this.element.getBoundingClientRect().top + window.scrollY;
      const rowTop = gridTop + row * this.rowHeight;
      const header = document.querySelector('.app-header')?.offsetHeight ?? 0;
      const footer = coveredAtBottom();
      if (rowTop < window.scrollY + header + 8) window.scrollTo({ top: rowTop - header - 8 });
      else if (rowTop + this.rowHeight > window.scrollY + window.innerHeight - footer) {
        window.scrollTo({ top: rowTop + this.rowHeight - window.innerHeight + footer + 8 });
      }
      this.range = null;
      this.draw();
    }
    for (const open of this.layer.querySelectorAll('.tile-open[tabindex="0"]')) open.tabIndex = -1;
    const node = this.layer.querySelector(`.tile[data-entry-id][data-index="${index}"] .tile-open`);
    // A tile whose page is still loading takes the focus when it arrives (see draw).
    this.pendingFocus = node ? null : index;
    if (node) { node.tabIndex = 0; node.focus({ preventScroll: true }); }
  }

  key(event) {
    const node = event.target.closest('.tile[data-entry-id]');
    if (!node || event.altKey || event.ctrlKey || event.metaKey) return;
    const index = Number(node.dataset.index);
    const [firstVisible, lastVisible] = this.visibleRows();
    const page = Math.max(1, lastVisible - firstVisible - 1) * this.columns;
    const moves = {
      ArrowRight: 1, ArrowLeft: -1, ArrowDown: this.columns, ArrowUp: -this.columns,
      PageDown: page, PageUp: -page, Home: -index, End: this.source.total - 1 - index,
    };
    if (event.key in moves) {
      event.preventDefault();
      this.focusTile(index + moves[event.key]);
    } else if (event.key === ' ' && event.target.classList.contains('tile-open')) {
      event.preventDefault();
      selection.toggle(Number(node.dataset.entryId));
    }
  }
}
