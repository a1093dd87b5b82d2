// Reprocessing of the stale entries, with a progress bar fed by the event stream.

import * as api from './api.js';
import * as stale from './stale.js';
import { follow } from './jobs.js';

let running = false;

/** Re-makes every stale sticker; `onDone()` runs when it is over. */
export async function reprocessStale(onDone) {
  if (running) return;
  running = true;
  const total = stale.count();
  try {
    await follow({
      kind: 'reprocess',
      title: total ? `Reprocessing ${total} stale sticker${total === 1 ? '' : 's'}` : 'Reprocessing',
      start: () => api.reprocess(false),
      describe: (done, all) => `Making stickers again: ${done} of ${all}`,
      summarise: (s) => {
        const remade = s.reprocessed ?? 0, failed = s.failed ?? 0, missing = s.missing ?? 0;
        return {
          text: `${remade} sticker${remade === 1 ? '' : 's'} made again${failed ? `, ${failed} failed` : ''}${missing ? `, ${missing} photo${missing === 1 ? '' : 's'} missing` : ''}.`,
          ok: failed === 0,
        };
      },
    });
  } finally {
    running = false;
    onDone?.();
  }
}
