// The packs view (every pack as a card) and one pack: its stickers in order, dragged (or moved with
// Alt+arrows) to reorder, an emoji each, its title and author, and the export buttons.

import * as api from './api.js';
import * as packindex from './packindex.js';
import * as palettes from './palettes.js';
import * as detail from './detail.js';
import { ArraySource } from './grid.js';
import { h, icon, replace, toast, formatCount } from './dom.js';
import { paint, stickerAlt } from './tile.js';
import { createPackDialog } from './packpicker.js';
import { showExport, FORMATS } from './exporter.js';

/** The list of packs. */
export function renderList(main) {
  const cards = h('div', { class: 'pack-cards' }, h('p', { class: 'hint' }, 'Loading…'));
  const create = h('button', { type: 'button', class: 'button primary', onclick: async () => {
    const name = await createPackDialog();
    if (name) location.hash = `#/packs/${encodeURIComponent(name)}`;
  } }, icon('plus'), 'New pack');
  replace(main, h('section', { class: 'view packs' },
    h('div', { class: 'view-head' }, h('h1', { class: 'view-title' }, 'Packs'), create), cards));

  packindex.refresh().then((list) => {
    if (list.length === 0) {
      replace(cards, h('div', { class: 'empty' },
        h('p', {}, 'No packs yet.'),
        h('p', {}, 'Pick stickers in the ', h('a', { href: '#/' }, 'Stickers'), ' view (the round box on each, or Space) and choose “Add to pack”, or make an empty pack first.')));
      return;
    }
    replace(cards, list.map((pack) => card(pack)));
  }).catch((error) => replace(cards, h('p', { class: 'problem' }, error.message)));
  return { destroy() {} };
}

function card(pack) {
  const covers = h('div', { class: 'pack-cover' });
  api.pack(pack.name).then((full) => {
    for (const item of full.items.slice(0, 4)) {
      // A cover only: the card's link is named by the pack's title.
      const art = h('div', { class: 'tile-art' }, h('img', { src: api.stickerURL(item.id), alt: '', loading: 'lazy' }));
      palettes.load(item.id, (palette) => paint(art, palette));
      covers.append(art);
    }
  }).catch(() => {});
  return h('a', { class: 'pack-card', href: `#/packs/${encodeURIComponent(pack.name)}` },
    covers,
    h('div', { class: 'pack-card-text' },
      h('h2', { class: 'pack-card-title' }, pack.title || pack.name),
      h('span', { class: 'hint' }, `${formatCount(pack.count)} sticker${pack.count === 1 ? '' : 's'}${pack.author ? ` · by ${pack.author}` : ''}`)));
}

/** One pack. */
export function renderPack(main, name) {
  const view = h('section', { class: 'view pack' }, h('p', { class: 'hint' }, 'Loading…'));
  replace(main, view);
  let pack = null;
  let dragged = null;

  async function load(focusId) {
    try {
      pack = await api.pack(name);
    } catch (error) {
      replace(view, h('h1', { class: 'view-title' }, 'Pack not found'), h('p', { class: 'problem' }, error.message), h('p', {}, h('a', { href: '#/packs' }, 'All packs')));
      return;
    }
    draw();
    if (focusId !== undefined) view.querySelector(`.pack-item[data-entry-id="${focusId}"] .pack-item-art`)?.focus();
  }

  function draw() {
    // The title is edited in place in a field; the view's heading says it too, for those who move
    // by headings.
    const heading = h('h1', { class: 'visually-hidden' }, pack.title || name);
    const title = h('input', { type: 'text', class: 'pack-title-input', value: pack.title, maxlength: '128', 'aria-label': 'Title' });
    const author = h('input', { type: 'text', class: 'pack-author-input', value: pack.author, maxlength: '128', placeholder: 'Author', 'aria-label': 'Author' });
    const save = async (field, input) => {
      if (pack[field] === input.value.trim()) return;
      try {
        await api.updatePack(name, { [field]: input.value.trim() });
        pack[field] = input.value.trim();
        heading.textContent = pack.title || name;
        packindex.refresh();
        toast(`${field === 'title' ? 'Title' : 'Author'} saved`);
      } catch (error) {
        toast(error.message, 'error');
        input.value = pack[field];
      }
    };
    title.addEventListener('change', () => save('title', title));
    author.addEventListener('change', () => save('author', author));
    for (const input of [title, author]) input.addEventListener('keydown', (e) => { if (e.key === 'Enter') input.blur(); });

    const items = h('ol', { class: 'pack-items', 'aria-label': 'Stickers in the pack, in order' },
      pack.items.map((item, index) => itemNode(item, index)));
    const remove = h('button', { type: 'button', class: 'button subtle danger', onclick: async () => {
      if (!confirm(`Delete the pack “${pack.title || name}”? Its stickers stay in the catalog.`)) return;
      try {
        await api.deletePack(name);
        await packindex.refresh();
        location.hash = '#/packs';
      } catch (error) { toast(error.message, 'error'); }
    } }, icon('trash'), 'Delete pack');

    replace(view,
      h('nav', { class: 'crumbs', 'aria-label': 'Back' }, h('a', { href: '#/packs' }, icon('left'), 'Packs')),
      heading,
      h('p', { id: 'pack-keys', class: 'visually-hidden' }, 'Enter opens the sticker; Alt and the arrow keys move it.'),
      h('div', { class: 'pack-head' },
        h('div', { class: 'pack-fields' },
          h('label', { class: 'pack-title-label' }, h('span', { class: 'visually-hidden' }, 'Title'), title),
          h('label', { class: 'pack-author-label' }, h('span', {}, 'by'), author),
          h('p', { class: 'hint' }, `${pack.items.length} sticker${pack.items.length === 1 ? '' : 's'} · file name “${name}” · drag to reorder (or Alt + ← →), type an emoji under each`)),
        remove),
      h('section', { class: 'export-bar', 'aria-label': 'Export' },
        h('h2', {}, 'Export'),
        h('div', { class: 'export-buttons' }, FORMATS.map((format) =>
          h('button', { type: 'button', class: `button export-${format.id}`, disabled: pack.items.length === 0 || null, onclick: () => showExport(pack, format) },
            icon('download'), format.label))),
        platformChecks(pack.platforms || [])),
      pack.items.length
        ? items
        : h('div', { class: 'empty' }, 'This pack is empty. Pick stickers in the ', h('a', { href: '#/' }, 'Stickers'), ' view and choose “Add to pack”.'));
  }

  function itemNode(item, index) {
    const img = h('img', { src: api.stickerURL(item.id), alt: stickerAlt(item), draggable: 'false' });
    // Named by its image and its place; the keys are said once for all (#pack-keys).
    const art = h('button', { type: 'button', class: 'pack-item-art tile-art', 'aria-describedby': 'pack-keys',
      onclick: () => detail.open(new ArraySource(pack.items), index) }, img, h('span', { class: 'visually-hidden' }, `, place ${item.position}`));
    palettes.load(item.id, (palette) => paint(art, palette, item));
    const emoji = h('input', { type: 'text', class: 'emoji-input', value: item.emoji.join(''), 'aria-label': `Emoji of sticker ${item.id}`, maxlength: '40', spellcheck: 'false' });
    emoji.addEventListener('change', async () => {
      const text = emoji.value.trim();
      if (!text) { emoji.value = item.emoji.join(''); return; }
      try {
        await api.setEmoji(name, item.id, text);
        item.emoji = [text];
        toast(`Emoji of #${item.id}: ${text}`);
      } catch (error) {
        toast(error.message, 'error');
        emoji.value = item.emoji.join('');
      }
    });
    const node = h('li', { class: 'pack-item tile', draggable: 'true', dataset: { entryId: String(item.id), position: String(item.position) } },
      h('span', { class: 'pack-item-place', 'aria-hidden': 'true' }, String(item.position)),
      h('span', { class: 'grip', title: 'Drag to move' }, icon('grip')),
      art,
      h('div', { class: 'pack-item-bar' }, emoji,
        h('button', { type: 'button', class: 'button icon-only subtle small', 'aria-label': `Move sticker ${item.id} earlier`, disabled: index === 0 || null, onclick: () => move(item.id, item.position - 1) }, icon('left')),
        h('button', { type: 'button', class: 'button icon-only subtle small', 'aria-label': `Move sticker ${item.id} later`, disabled: index === pack.items.length - 1 || null, onclick: () => move(item.id, item.position + 1) }, icon('right')),
        h('button', { type: 'button', class: 'button icon-only subtle small', 'aria-label': `Remove sticker ${item.id} from the pack`, onclick: () => removeItem(item.id) }, icon('trash'))));

    node.addEventListener('dragstart', (event) => {
      dragged = item.id;
      node.classList.add('dragging');
      event.dataTransfer.effectAllowed = 'move';
      event.dataTransfer.setData('application/x-sticker-id', String(item.id));
    });
    node.addEventListener('dragend', () => { node.classList.remove('dragging'); dragged = null; clearMarks(); });
    node.addEventListener('dragover', (event) => {
      if (dragged === null || dragged === item.id) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      clearMarks();
      node.classList.add(after(event, node) ? 'drop-after' : 'drop-before');
    });
    node.addEventListener('dragleave', () => node.classList.remove('drop-before', 'drop-after'));
    node.addEventListener('drop', (event) => {
      if (dragged === null) return;
      event.preventDefault();
      const from = pack.items.find((i) => i.id === dragged).position;
      let to = item.position + (after(event, node) ? 1 : 0);
      if (from < to) to -= 1;
      clearMarks();
      if (to !== from) move(dragged, to);
    });
    art.addEventListener('keydown', (event) => {
      if (!event.altKey) return;
      if (event.key === 'ArrowLeft' || event.key === 'ArrowUp') { event.preventDefault(); if (index > 0) move(item.id, item.position - 1); }
      if (event.key === 'ArrowRight' || event.key === 'ArrowDown') { event.preventDefault(); if (index < pack.items.length - 1) move(item.id, item.position + 1); }
    });
    return node;
  }

  function after(event, node) {
    const box = node.getBoundingClientRect();
    return event.clientX > box.left + box.width / 2;
  }

  function clearMarks() {
    for (const marked of view.querySelectorAll('.drop-before, .drop-after')) marked.classList.remove('drop-before', 'drop-after');
  }

  async function move(id, position) {
    try {
      await api.moveInPack(name, id, position);
      await load(id);
      packindex.refresh();
    } catch (error) {
      toast(error.message, 'error');
    }
  }

  async function removeItem(id) {
    try {
      await api.removeFromPack(name, id);
      await load();
      packindex.refresh();
      toast(`#${id} removed from the pack (it stays in the catalog)`);
    } catch (error) {
      toast(error.message, 'error');
    }
  }

  load();
  return { destroy() {}, reload: () => load() };
}

/**
 * What each messaging app makes of the pack as it is: ready, split into several packs (too many
 * stickers, or still and animated kept apart), or not without a change, with the reason. Said in
 * words, not colour alone.
 */
function platformChecks(checks) {
  if (checks.length === 0) return null;
  return h('ul', { class: 'platform-checks', 'aria-label': 'What each app takes' }, checks.map((check) => {
    const label = FORMATS.find((format) => format.id === check.format)?.label || check.format;
    const verdict = !check.ok ? 'needs a change' : check.sets > 1 ? `as ${check.sets} packs` : 'ready';
    return h('li', { class: `platform-check ${check.ok ? 'ok' : 'blocked'}`, dataset: { format: check.format } },
      h('span', { class: 'platform-name' }, `${label}:`), ' ',
      h('span', { class: 'platform-verdict' }, verdict),
      check.note ? h('span', { class: 'platform-note' }, ` — ${check.note}`) : null);
  }));
}

