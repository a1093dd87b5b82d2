// The stickers view: every sticker, newest first, or those of a colour; the photos that could not
// become stickers apart, with their reasons. The colour query lives in the URL (#/?color=orange&...),
// so a search can be bookmarked; so does "Collapse duplicates" (#/?collapse=1: only the best of
// each group of near-duplicates is listed).

import * as api from './api.js';
import * as detail from './detail.js';
import { PagedSource, ArraySource, VirtualGrid } from './grid.js';
import { h, icon, replace, fileName, formatCount, debounce } from './dom.js';
import { toHex, PRESETS } from './colors.js';

const FIELDS = ['color', 'within', 'camera', 'taken-after', 'taken-before', 'collapse'];
const DEFAULT_WITHIN = 12;
const SEARCH_LIMIT = 500;

/** Builds the view into `main` for the query `params` (URLSearchParams from the hash). */
export function render(main, params) {
  const state = Object.fromEntries(FIELDS.map((key) => [key, params.get(key) || '']));
  let aborter = null;

  const picker = h('input', { type: 'color', class: 'color-picker', 'aria-label': 'Pick a colour', value: toHex(state.color) || '#ff8800' });
  const field = h('input', {
    type: 'search', name: 'color', id: 'color-field', class: 'color-field', autocomplete: 'off', spellcheck: 'false',
    placeholder: 'Find by colour: orange, teal, #ff8800…', 'aria-label': 'Colour (a name or #hex)', value: state.color,
  });
  const within = h('input', { type: 'range', min: '2', max: '40', step: '1', value: state.within || DEFAULT_WITHIN, 'aria-label': 'How close' });
  const withinOut = h('output', {}, within.value);
  const camera = h('input', { type: 'text', name: 'camera', placeholder: 'e.g. Canon', value: state.camera });
  const after = h('input', { type: 'date', name: 'taken-after', value: state['taken-after'] });
  const before = h('input', { type: 'date', name: 'taken-before', value: state['taken-before'] });
  const hasFilters = state.camera || state['taken-after'] || state['taken-before'];
  const problem = h('p', { class: 'field-problem', role: 'alert' });

  const presets = h('div', { class: 'presets', role: 'group', 'aria-label': 'Colours' },
    PRESETS.map(([name, hex]) => {
      const chip = h('button', { type: 'button', class: 'preset', title: name, 'aria-label': `Find ${name} stickers`,
        onclick: () => { field.value = name; picker.value = toHex(name) || hex; changed(); } });
      chip.style.setProperty('--chip', toHex(name) || hex);
      return chip;
    }));

  const form = h('form', { class: 'filter-bar', role: 'search', 'aria-label': 'Find stickers by colour', onsubmit: (e) => { e.preventDefault(); changed(true); } },
    h('div', { class: 'filter-main' },
      h('label', { class: 'color-well', title: 'Pick a colour' }, picker),
      h('div', { class: 'color-input' }, icon('search'), field),
      h('button', { type: 'button', class: 'button subtle clear', onclick: () => clearAll() }, 'Clear')),
    h('div', { class: 'filter-more' },
      presets,
      h('label', { class: 'within' }, h('span', {}, 'Closeness ΔE'), within, withinOut),
      h('details', { class: 'more-filters', open: hasFilters || null },
        h('summary', {}, 'Camera & date'),
        h('div', { class: 'more-grid' },
          h('label', {}, h('span', {}, 'Camera'), camera),
          h('label', {}, h('span', {}, 'Taken after'), after),
          h('label', {}, h('span', {}, 'Taken before'), before)))),
    problem);

  const heading = h('h1', { class: 'view-title', 'aria-live': 'polite' }, 'Stickers');
  const collapse = h('input', { type: 'checkbox', name: 'collapse', checked: state.collapse === '1' });
  const collapseLabel = h('label', { class: 'collapse-toggle', title: 'Show only the best of each group of near-duplicates' },
    collapse, h('span', {}, 'Collapse duplicates'));
  const failed = h('section', { class: 'failed', hidden: true, 'aria-label': 'Photos that could not become stickers' });
  const empty = h('div', { class: 'empty', hidden: true });
  const grid = new VirtualGrid({
    label: 'Stickers',
    caption: (entry) => entry.color ? matchCaption(entry) : undefined,
    onOpen: (id, index) => detail.open(grid.source, index, { onStep: (i) => grid.focusTile(i) }),
  });
  replace(main, h('section', { class: 'view library' }, form, h('div', { class: 'view-head' }, heading, collapseLabel), failed, empty, grid.element));

  function query() {
    const hex = toHex(field.value);
    return {
      color: field.value.trim(),
      within: Number(within.value) !== DEFAULT_WITHIN ? within.value : '',
      camera: camera.value.trim(),
      'taken-after': after.value,
      'taken-before': before.value,
      collapse: collapse.checked ? '1' : '',
      hex,
    };
  }

  function writeURL(q) {
    const search = new URLSearchParams();
    for (const key of FIELDS) if (q[key]) search.set(key, q[key]);
    const text = search.toString();
    const hash = text ? `#/?${text}` : '#/';
    if (location.hash !== hash) history.replaceState(null, '', hash);
  }

  async function load({ fresh = false } = {}) {
    aborter?.abort();
    aborter = new AbortController();
    const q = query();
    writeURL(q);
    problem.textContent = '';
    field.removeAttribute('aria-invalid');
    const filtered = q.camera || q['taken-after'] || q['taken-before'];
    // A colour search ranks by colour; collapsing applies to the list of every sticker.
    collapseLabel.hidden = !!q.color;
    try {
      if (q.color && !q.hex) {
        // Checked here first: the server would say the same with a 400, logged as a console error.
        field.setAttribute('aria-invalid', 'true');
        problem.textContent = `“${q.color}” is not a colour the search knows: use a name (orange, teal, rebeccapurple…), #rrggbb or #rgb.`;
        return;
      }
      if (q.color) {
        picker.value = q.hex;
        const results = await api.search({
          color: q.color, within: within.value, limit: SEARCH_LIMIT,
          camera: q.camera, 'taken-after': q['taken-after'], 'taken-before': q['taken-before'],
        }, aborter.signal);
        grid.setSource(new ArraySource(results), { fresh });
        heading.textContent = results.length
          ? `${formatCount(results.length)}${results.length === SEARCH_LIMIT ? '+' : ''} sticker${results.length === 1 ? '' : 's'} with ${q.color}`
          : `No sticker with ${q.color}`;
        showEmpty(results.length === 0, `Nothing within ΔE ${within.value} of ${q.color}${filtered ? ' with these filters' : ''}. Drag “Closeness” to the right to widen the search.`);
        failed.hidden = true;
      } else {
        if (filtered) problem.textContent = 'Camera and date filters apply to a colour search: pick a colour.';
        const source = await new PagedSource((offset, limit) => api.entries({ offset, limit, status: 'ok', distinct: !!q.collapse, signal: aborter.signal })).start();
        grid.setSource(source, { fresh });
        heading.textContent = `${formatCount(source.total)} sticker${source.total === 1 ? '' : 's'}${q.collapse ? ', duplicates collapsed' : ''}`;
        showEmpty(source.total === 0, 'No stickers yet. Drop photos anywhere on this page, or use “Import photos”.');
        loadFailed();
      }
    } catch (error) {
      if (error.name === 'AbortError') return;
      if (error.status === 400) {
        field.setAttribute('aria-invalid', 'true');
        problem.textContent = error.message;
      } else {
        problem.textContent = error.message;
      }
    }
  }

  function showEmpty(on, text) {
    empty.hidden = !on;
    empty.textContent = text;
  }

  async function loadFailed() {
    try {
      const { total, entries } = await api.entries({ status: 'failed', limit: 60 });
      failed.hidden = total === 0;
      if (total === 0) return;
      const list = h('ul', { class: 'failed-list' });
      const section = h('details', { class: 'failed-box' },
        h('summary', {}, icon('warning'), `${formatCount(total)} photo${total === 1 ? '' : 's'} could not become stickers`),
        list,
        total > entries.length ? h('p', { class: 'hint' }, `The first ${entries.length} are shown; \`catalog list --failed\` lists them all.`) : null);
      replace(failed, section);
      for (const entry of entries) {
        const reason = h('span', { class: 'failed-reason' }, entry.failure ? entry.failure.message : '…');
        const code = h('span', { class: 'failed-code' }, entry.failure?.code ?? '');
        list.append(h('li', {},
          h('button', { type: 'button', class: 'failed-item', onclick: () => detail.open(new ArraySource(entries), entries.indexOf(entry)) },
            h('span', { class: 'failed-name', title: entry.path }, fileName(entry.path)), code, reason)));
        if (!entry.failure) {
          api.entry(entry.id).then((full) => {
            entry.failure = full.failure;
            code.textContent = full.failure?.code ?? '';
            reason.textContent = full.failure?.message ?? '';
          }).catch(() => {});
        }
      }
    } catch {
      failed.hidden = true;
    }
  }

  const changedSoon = debounce(() => load(), 160);
  function changed(now = false) {
    withinOut.textContent = within.value;
    if (now) load(); else changedSoon();
  }

  function clearAll() {
    field.value = '';
    within.value = DEFAULT_WITHIN;
    camera.value = after.value = before.value = '';
    changed(true);
    field.focus();
  }

  picker.addEventListener('input', () => { field.value = picker.value; changed(); });
  field.addEventListener('input', () => {
    const hex = toHex(field.value);
    if (hex) picker.value = hex;
    if (!field.value.trim() || hex) changed();
  });
  field.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' && grid.source.total > 0) { event.preventDefault(); grid.focusTile(0); }
  });
  within.addEventListener('input', () => changed());
  collapse.addEventListener('change', () => changed(true));
  for (const input of [camera, after, before]) input.addEventListener('change', () => changed());

  load();
  return {
    grid,
    /** Reads the list again (new entries came in; `fresh`: stickers were re-made). */
    reload: (options) => load(options),
    focusSearch: () => field.focus(),
    destroy: () => { aborter?.abort(); grid.destroy(); },
  };
}

function matchCaption(entry) {
  const dot = h('span', { class: 'match-dot', title: entry.color });
  dot.style.setProperty('--dot', entry.color);
  return h('span', { class: 'match' }, dot,
    h('span', {}, `${Math.round(entry.share * 100)}%`),
    h('span', { class: 'match-distance', title: 'Oklab ΔE from the colour asked for' }, `ΔE ${entry.distance.toFixed(1)}`));
}
