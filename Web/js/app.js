// The page: routes (#/ stickers and colour search, #/packs, #/packs/NAME, #/duplicates, #/settings), the header's
// import and reprocess buttons, the selection bar, and a light watch on the catalog so that entries
// added by other processes (`catalog import` in a terminal) appear.

import * as api from './api.js';
import * as library from './library.js';
import * as packs from './packs.js';
import * as settings from './settings.js';
import * as duplicates from './duplicates.js';
import * as selection from './selection.js';
import * as stale from './stale.js';
import * as packindex from './packindex.js';
import * as palettes from './palettes.js';
import { h, replace, formatCount } from './dom.js';
import { importFiles, acceptDrops } from './importer.js';
import { reprocessStale } from './reprocess.js';
import { addToPackControl } from './packpicker.js';
import { firstScreenDrawn } from './grid.js';

const main = document.getElementById('main');
let view = null;
let viewName = '';

function route() {
  const hash = location.hash.replace(/^#/, '') || '/';
  const [path, query = ''] = hash.split('?');
  const params = new URLSearchParams(query);
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  view?.destroy?.();
  if (parts[0] === 'packs' && parts[1]) { viewName = 'packs'; view = packs.renderPack(main, parts[1]); }
  else if (parts[0] === 'packs') { viewName = 'packs'; view = packs.renderList(main); }
  else if (parts[0] === 'duplicates') { viewName = 'duplicates'; view = duplicates.render(main); }
  else if (parts[0] === 'settings') { viewName = 'settings'; view = settings.render(main, refreshAll); }
  else { viewName = 'library'; view = library.render(main, params); }
  for (const link of document.querySelectorAll('.tabs a')) {
    if (link.dataset.view === viewName) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = { library: 'Stickers', packs: 'Packs', duplicates: 'Duplicates', settings: 'Settings' }[viewName] + ' · Sticker Catalog';
}

/** Reads everything again after the catalog changed (import, reprocess): stickers too. */
function refreshAll() {
  palettes.forget();
  api.renewStickers();
  stale.refresh();
  packindex.refresh().catch(() => {});
  view?.reload?.({ fresh: true });
}

// A sticker re-made from its detail view (a fixed cut-out).
document.addEventListener('catalog:changed', refreshAll);

// The selection bar: what to do with the picked stickers.
const bar = document.getElementById('selection-bar');
const count = h('span', { class: 'selection-count', 'aria-live': 'polite' });
replace(bar, count, addToPackControl(() => selection.ids(), { onAdded: () => selection.clear() }),
  h('button', { type: 'button', class: 'button subtle', onclick: () => selection.clear() }, 'Clear'));
selection.onChange((picked) => {
  bar.hidden = picked.size === 0;
  count.textContent = `${picked.size} picked`;
  document.body.classList.toggle('has-selection', picked.size > 0);
});

// Import: the button, and drops anywhere.
const input = document.getElementById('import-input');
document.getElementById('import-button').addEventListener('click', () => input.click());
input.addEventListener('change', () => {
  importFiles(input.files, refreshAll);
  input.value = '';
});
acceptDrops(refreshAll);

// Reprocess: shown while entries are stale.
const reprocessButton = document.getElementById('reprocess-button');
stale.onChange((total) => {
  reprocessButton.hidden = total === 0;
  reprocessButton.querySelector('.label').textContent = `Reprocess ${formatCount(total)} stale`;
  reprocessButton.title = `${total} sticker${total === 1 ? ' is' : 's are'} out of date: make them again`;
});
reprocessButton.addEventListener('click', () => reprocessStale(refreshAll));

// Keys: "/" to the colour field, "?" for help.
const keys = document.getElementById('keys');
document.getElementById('keys-button').addEventListener('click', () => keys.showModal());
document.addEventListener('keydown', (event) => {
  if (event.target.matches('input, select, textarea') || event.ctrlKey || event.metaKey || event.altKey) return;
  if (document.querySelector('dialog[open]')) return;
  if (event.key === '/') {
    event.preventDefault();
    if (viewName !== 'library') location.hash = '#/';
    setTimeout(() => document.querySelector('input[name="color"]')?.focus(), 0);
  } else if (event.key === '?') {
    keys.showModal();
  }
});

// Other processes write to the same catalog: look for new entries every few seconds while the page
// is visible, and read the list again when there are.
let seen = null;
let misses = 0;
const offline = h('div', { class: 'offline', role: 'alert', hidden: true },
  'The catalog server does not answer. Start `catalog serve` again, then reload this page.');
document.body.append(offline);
async function watch() {
  if (document.visibilityState === 'visible') {
    try {
      const [{ total, entries }, failedPage] = await Promise.all([api.entries({ limit: 1 }), api.entries({ limit: 1, status: 'failed' })]);
      const mark = `${total}:${entries[0]?.id ?? 0}:${failedPage.total}`;
      if (seen !== null && mark !== seen) {
        stale.refresh();
        if (viewName === 'library') view?.reload?.();
      }
      seen = mark;
      misses = 0;
      offline.hidden = true;
    } catch {
      // The server may be restarting: say so only when it stays away.
      misses += 1;
      if (misses >= 2) offline.hidden = false;
    }
  }
  setTimeout(watch, 3000);
}

// The skip link moves the focus to the view without following its href: "#main" would be taken
// for a route, and the stickers view would replace the one being skipped into.
document.querySelector('.skip').addEventListener('click', (event) => {
  event.preventDefault();
  main.focus();
});

window.addEventListener('hashchange', route);
route();
watch();
// What only the header and the detail view need is read once the first stickers are on screen.
Promise.race([firstScreenDrawn, new Promise((resolve) => setTimeout(resolve, 1500))]).then(() => {
  stale.refresh();
  packindex.refresh().catch(() => {});
});
