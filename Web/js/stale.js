// Which entries are stale (what `catalog list --stale` says), for the reprocess button and the
// detail view.

import * as api from './api.js';

let reasons = new Map();
let total = 0;
let loading = null;
const listeners = new Set();

/** Reads the stale entries again. */
export function refresh() {
  if (!loading) {
    loading = api.entries({ stale: true, limit: 1000 })
      .then(({ total: count, entries }) => {
        total = count;
        reasons = new Map(entries.map((entry) => [entry.id, entry.reasons || []]));
        for (const listener of listeners) listener(total);
      })
      .catch(() => {})
      .finally(() => { loading = null; });
  }
  return loading;
}

export const count = () => total;
export const reasonsFor = (id) => reasons.get(id) || [];
export const onChange = (listener) => listeners.add(listener);

/** What each reason means, for people. */
export const EXPLAINED = {
  pipeline: 'made by an older version of the sticker maker',
  settings: 'made with other settings than the current ones',
  'source-changed': 'the photo file has changed',
  failed: 'the last try failed for a reason that may have passed',
  'source-missing': 'the photo file is gone',
};
