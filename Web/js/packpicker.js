// "Add to pack": pick a pack (or make one) and append stickers to it. Used by the selection bar and
// the detail view.

import * as api from './api.js';
import * as packindex from './packindex.js';
import { h, toast } from './dom.js';

/** A pack name from a title: the characters a pack name may hold (it becomes a file name). */
export function nameFrom(title) {
  const base = title.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-').replace(/^[-._]+|[-._]+$/g, '').slice(0, 64);
  return base || 'pack';
}

/** Asks for a new pack's title, author and name; resolves to the created pack's name or null. */
export function createPackDialog() {
  return new Promise((resolve) => {
    const title = h('input', { type: 'text', required: true, maxlength: '128', placeholder: 'Beach days', autocomplete: 'off' });
    const author = h('input', { type: 'text', maxlength: '128', placeholder: 'Your name', autocomplete: 'name' });
    const name = h('input', { type: 'text', required: true, maxlength: '64', pattern: '[A-Za-z0-9][A-Za-z0-9_.\\-]*', placeholder: 'beach-days', spellcheck: 'false' });
    const problem = h('p', { class: 'field-problem', role: 'alert' });
    let nameTouched = false;
    title.addEventListener('input', () => { if (!nameTouched) name.value = nameFrom(title.value); });
    name.addEventListener('input', () => { nameTouched = true; });
    const dialog = h('dialog', { class: 'form-dialog', 'aria-labelledby': 'new-pack-title' });
    const form = h('form', { method: 'dialog' },
      h('h2', { id: 'new-pack-title' }, 'New pack'),
      h('label', {}, h('span', {}, 'Title'), title),
      h('label', {}, h('span', {}, 'Author'), author),
      h('label', {}, h('span', {}, 'Name'), name, h('small', { class: 'hint' }, 'For file names: letters, digits, - _ .')),
      problem,
      h('div', { class: 'form-actions' },
        h('button', { type: 'button', class: 'button subtle', onclick: () => dialog.close() }, 'Cancel'),
        h('button', { type: 'submit', class: 'button primary' }, 'Create pack')));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      problem.textContent = '';
      try {
        await api.createPack(name.value.trim(), title.value.trim(), author.value.trim());
        await packindex.refresh();
        dialog.returnValue = name.value.trim();
        dialog.close(name.value.trim());
      } catch (error) {
        problem.textContent = error.message;
      }
    });
    dialog.append(form);
    dialog.addEventListener('close', () => { const value = dialog.returnValue; dialog.remove(); resolve(value || null); });
    document.body.append(dialog);
    dialog.showModal();
    title.focus();
  });
}

/** Appends `ids` to the pack `name`; says what happened. */
export async function addTo(name, ids) {
  const result = await api.addToPack(name, ids);
  await packindex.refresh();
  const added = result?.added?.length ?? ids.length;
  const already = result?.alreadyPresent?.length ?? 0;
  const link = h('a', { href: `#/packs/${encodeURIComponent(name)}` }, 'Open the pack');
  toast(h('span', {}, `${added} added to ${name}${already ? ` (${already} already there)` : ''}. `, link));
  return result;
}

/** A select of packs plus an "Add" button; `ids()` gives the stickers to add when clicked. */
export function addToPackControl(ids, { onAdded } = {}) {
  const NEW = '\u0000new';
  const select = h('select', { 'aria-label': 'Pack' });
  const fill = () => {
    const chosen = select.value;
    select.replaceChildren(
      ...packindex.all().map((pack) => h('option', { value: pack.name }, `${pack.title || pack.name} (${pack.count})`)),
      h('option', { value: NEW }, 'New pack…'));
    if ([...select.options].some((o) => o.value === chosen)) select.value = chosen;
  };
  fill();
  // Follow the packs while the control is on the page; drop the listener once it is gone.
  let stop = null;
  stop = packindex.onChange(() => {
    if (!select.isConnected && select.dataset.shown) { stop(); return; }
    if (select.isConnected) select.dataset.shown = '1';
    fill();
  });
  const button = h('button', { type: 'button', class: 'button primary' }, 'Add to pack');
  button.addEventListener('click', async () => {
    let name = select.value;
    if (name === NEW) {
      name = await createPackDialog();
      if (!name) return;
      fill();
      select.value = name;
    }
    try {
      await addTo(name, ids());
      onAdded?.(name);
    } catch (error) {
      toast(error.message, 'error');
    }
  });
  return h('div', { class: 'add-to-pack' }, select, button);
}
