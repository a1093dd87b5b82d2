// The stickers the user has picked (to add to a pack), shared by every view.

const picked = new Set();
const listeners = new Set();

function changed() {
  for (const listener of listeners) listener(picked);
  for (const node of document.querySelectorAll('.tile[data-entry-id]')) {
    const on = picked.has(Number(node.dataset.entryId));
    node.classList.toggle('selected', on);
    const box = node.querySelector('.tile-select input');
    if (box) box.checked = on;
  }
}

export const has = (id) => picked.has(id);
export const ids = () => [...picked];
export const size = () => picked.size;

export function toggle(id, on = !picked.has(id)) {
  if (on) picked.add(id); else picked.delete(id);
  changed();
}

export function clear() {
  picked.clear();
  changed();
}

export function onChange(listener) {
  listeners.add(listener);
}
