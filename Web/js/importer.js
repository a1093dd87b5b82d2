// Import by dropping photos on the page (or the "Import photos" button): the files are uploaded
// (the upload's progress), then the server imports them (progress from the event stream).

import * as api from './api.js';
import { follow } from './jobs.js';
import { formatBytes } from './dom.js';

/** Uploads `files` and follows their import; `onDone()` runs when it is over. */
export async function importFiles(files, onDone) {
  const photos = [...files].filter((file) => file.size > 0);
  if (photos.length === 0) return;
  const count = photos.length;
  await follow({
    kind: 'import',
    title: `Importing ${count} photo${count === 1 ? '' : 's'}`,
    start: (view) => api.importFiles(photos, (sent, size) =>
      view.progress(sent, size, `Uploading: ${formatBytes(sent)} of ${formatBytes(size)}`)),
    describe: (done, total) => `Making stickers: ${done} of ${total}`,
    summarise: (s) => {
      const imported = s.imported ?? 0, duplicates = s.duplicates ?? 0, failed = s.failed ?? 0;
      return {
        text: `${imported} new sticker${imported === 1 ? '' : 's'}${duplicates ? `, ${duplicates} already there` : ''}${failed ? `, ${failed} failed` : ''}.`,
        ok: failed === 0,
      };
    },
  });
  onDone?.();
}

/** Makes the whole window a drop target for photos. */
export function acceptDrops(onDone) {
  const overlay = document.getElementById('drop-overlay');
  let depth = 0;
  const hasFiles = (event) => [...(event.dataTransfer?.types || [])].includes('Files');
  window.addEventListener('dragenter', (event) => {
    if (!hasFiles(event)) return;
    depth += 1;
    overlay.hidden = false;
  });
  window.addEventListener('dragleave', (event) => {
    if (!hasFiles(event)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) overlay.hidden = true;
  });
  window.addEventListener('dragover', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  });
  window.addEventListener('drop', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth = 0;
    overlay.hidden = true;
    importFiles(event.dataTransfer.files, onDone);
  });
}
