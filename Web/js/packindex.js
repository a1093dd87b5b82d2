// The packs, and which packs each sticker is in, read once and again after every pack change.

import * as api from './api.js';

let list = [];
let byEntry = new Map();
let loading = null;
const listeners = new Set();

/** Reads the packs (and their items) again. */
export function refresh() {
  if (!loading) {
    loading = (async () => {
      const summaries = await api.packs();
      const details = await Promise.all(summaries.map((pack) => api.pack(pack.name).catch(() => null)));
      const map = new Map();
      for (const detail of details) {
        if (!detail) continue;
        for (const item of detail.items) {
          if (!map.has(item.id)) map.set(item.id, []);
          map.get(item.id).push({ name: detail.name, title: detail.title, position: item.position });
        }
      }
      list = summaries;
      byEntry = map;
      for (const listener of listeners) listener(list);
      return list;
    })().finally(() => { loading = null; });
  }
  return loading;
}

export const all = () => list;
export const packsOf = (id) => byEntry.get(id) || [];
/** Calls `listener(packs)` after each refresh; returns a function that stops it. */
export function onChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
