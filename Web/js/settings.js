// Settings: how stickers are made (the catalog's `catalog config`), and what the catalog holds.
// A change makes the stickers made otherwise stale; the page offers to make them again.

import * as api from './api.js';
import * as stale from './stale.js';
import { h, replace, toast, formatBytes, formatCount } from './dom.js';
import { reprocessStale } from './reprocess.js';

const LABELS = {
  'palette.colors': ['Palette colours', 'How many dominant colours are kept per sticker (1–16).', { type: 'number', min: 1, max: 16 }],
  'sticker.size': ['Sticker size', 'Long side of a sticker, in pixels (128–2048).', { type: 'number', min: 128, max: 2048, step: 1 }],
  'sticker.outline': ['White outline', 'Outline width in pixels at 512 px; 0 for none (0–64).', { type: 'number', min: 0, max: 64 }],
  'sticker.shadow': ['Shadow', 'A soft shadow under the sticker.', { type: 'checkbox' }],
  'cutout.model': ['Cut-out model', 'u2net cuts out more cleanly; u2netp is about three times faster and needs less memory.',
    { type: 'select', options: [['u2net', 'u2net (stronger)'], ['u2netp', 'u2netp (fast)']] }],
  'cutout.precision': ['Cut-out precision', 'auto runs fp32 for now; fp32 is the reference; int8 is faster where the CPU has VNNI and makes the same stickers on every CPU, with masks a little off fp32\'s. Machines with different CPUs sharing a catalog should name one.',
    { type: 'select', options: [['auto', 'auto'], ['fp32', 'fp32 (reference)'], ['int8', 'int8 (faster)']] }],
};

/** Settings as a list of `{key, value, default, description}` whatever shape the server sends. */
function normalise(body) {
  if (Array.isArray(body)) return body;
  const values = body.settings ?? body;
  if (Array.isArray(values)) return values;
  return Object.entries(values).map(([key, value]) => ({ key, value, default: null, description: '' }));
}

export function render(main, onReprocessed) {
  const form = h('form', { class: 'settings-form' }, h('p', { class: 'hint' }, 'Loading…'));
  const statsBox = h('dl', { class: 'stats' });
  const staleBox = h('div', { class: 'stale-box' });
  replace(main, h('section', { class: 'view settings' },
    h('h1', { class: 'view-title' }, 'Settings'),
    h('div', { class: 'settings-columns' },
      h('section', { class: 'panel', 'aria-labelledby': 'make-title' }, h('h2', { id: 'make-title' }, 'How stickers are made'), form, staleBox),
      h('section', { class: 'panel', 'aria-labelledby': 'stats-title' }, h('h2', { id: 'stats-title' }, 'The catalog'), statsBox))));

  let settings = [];
  async function load() {
    try {
      settings = normalise(await api.settings());
    } catch (error) {
      replace(form, h('p', { class: 'problem' }, error.message));
      return;
    }
    const inputs = new Map();
    const rows = settings.map((setting) => {
      const [label, help, attrs] = LABELS[setting.key] ?? [setting.key, setting.description, { type: 'text' }];
      const id = `setting-${setting.key.replace(/\W/g, '-')}`;
      const { options, ...rest } = attrs;
      const input = attrs.type === 'select'
        ? h('select', { id, name: setting.key }, ...options.map(([value, text]) => h('option', { value }, text)))
        : h('input', { id, name: setting.key, ...rest });
      if (attrs.type === 'checkbox') input.checked = setting.value === true || setting.value === 'true';
      else input.value = String(setting.value);
      inputs.set(setting.key, input);
      const fallback = setting.default !== null && setting.default !== undefined ? ` Default: ${setting.default}.` : '';
      // What a value such as `auto` runs on the server's machine, when the server says.
      const runs = setting.runs ? ` Here it runs ${setting.runs}.` : '';
      return h('div', { class: `setting setting-${attrs.type}` },
        h('label', { for: id }, label), input, h('p', { class: 'hint' }, help + runs + fallback));
    });
    const problem = h('p', { class: 'field-problem', role: 'alert' });
    replace(form, rows, problem, h('div', { class: 'form-actions' }, h('button', { type: 'submit', class: 'button primary' }, 'Save')));
    form.onsubmit = async (event) => {
      event.preventDefault();
      problem.textContent = '';
      const changed = {};
      for (const setting of settings) {
        const input = inputs.get(setting.key);
        const value = input.type === 'checkbox' ? input.checked : input.type === 'number' ? Number(input.value) : input.value;
        if (String(value) !== String(setting.value)) changed[setting.key] = value;
      }
      if (Object.keys(changed).length === 0) { toast('Nothing changed'); return; }
      try {
        await api.saveSettings(changed);
        toast('Saved. Stickers made otherwise are now out of date.');
        await load();
        await stale.refresh();
        drawStale();
      } catch (error) {
        problem.textContent = error.message;
      }
    };
  }

  function drawStale() {
    const count = stale.count();
    replace(staleBox, count
      ? h('div', { class: 'notice' }, h('p', {}, `${formatCount(count)} sticker${count === 1 ? ' is' : 's are'} out of date (made by an older version, with other settings, or from a photo that changed).`),
        h('button', { type: 'button', class: 'button primary', onclick: () => reprocessStale(() => { stale.refresh().then(drawStale); onReprocessed?.(); }) }, 'Make them again'))
      : h('p', { class: 'hint' }, 'Every sticker is up to date.'));
  }

  async function loadStats() {
    try {
      const s = await api.stats();
      const rows = [
        ['Stickers', formatCount(s.ok)],
        ['Failed photos', formatCount(s.failed)],
        ['Packs', formatCount(s.packs)],
        ['Palette colours', formatCount(s.paletteColors)],
        ['Sticker images', formatBytes(s.stickerBytes)],
        ['Catalog file', formatBytes(s.fileSize)],
        ['Made by pipeline', Object.entries(s.stickersByPipelineVersion || {}).map(([v, n]) => `v${v}: ${formatCount(n)}`).join(', ') || '—'],
      ];
      replace(statsBox, rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
    } catch (error) {
      replace(statsBox, h('p', { class: 'problem' }, error.message));
    }
  }

  load();
  loadStats();
  stale.refresh().then(drawStale);
  return { destroy() {} };
}
