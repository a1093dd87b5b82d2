// Import by dropping photos on the page (or the "Import photos" button): the files are uploaded
// (progress of the upload), then the server imports them (progress from the event stream).

import * as api from './api.js';
import * as events from './events.js';
import { job } from './activity.js';
import { toast, formatBytes, fileName } from './dom.js';

const FINAL = new Set(['imported', 'duplicate', 'failed']);

/** Uploads `files` and follows their import; `onDone()` runs when it is over. */
export async function importFiles(files, onDone) {
  const photos = [...files].filter((file) => file.size > 0);
  if (photos.length === 0) return;
  const card = job(`Importing ${photos.length} photo${photos.length === 1 ? '' : 's'}`);
  let done = 0, failed = 0, finished = false;
  const total = photos.length;
  const finish = (summary) => {
    if (finished) return;
    finished = true;
    stop();
    const imported = summary?.imported ?? done - failed;
    const duplicates = summary?.duplicates ?? 0;
    const bad = summary?.failed ?? failed;
    card.finish(`${imported} new sticker${imported === 1 ? '' : 's'}${duplicates ? `, ${duplicates} already there` : ''}${bad ? `, ${bad} failed` : ''}.`, bad === 0);
    onDone?.();
  };
  const stop = events.listen((name, data) => {
    if (finished || !data || typeof data !== 'object') return;
    const kind = data.event ?? name;
    if (data.job && data.job !== 'import' && kind !== 'import') return;
    if (FINAL.has(kind)) {
      done += 1;
      if (kind === 'failed') {
        failed += 1;
        card.problem(`${fileName(data.path)}: ${data.error?.message ?? 'failed'}`);
      }
      card.progress(done, total, `Making stickers: ${done} of ${total}${failed ? ` · ${failed} failed` : ''}`);
    } else if (typeof data.done === 'number' && typeof data.total === 'number') {
      card.progress(data.done, data.total, `Making stickers: ${data.done} of ${data.total}`);
    }
    if (kind === 'summary' && (data.imported !== undefined || data.duplicates !== undefined)) finish(data);
  });
  await events.ready();
  try {
    const reply = await api.importFiles(photos, (sent, size) =>
      card.progress(sent, size * 2, `Uploading: ${formatBytes(sent)} of ${formatBytes(size)}`));
    card.progress(total * 0.02, total, 'Making stickers…');
    // A server that answers when the import is over gives the summary in its reply.
    const summary = reply?.summary ?? (reply && reply.event === 'summary' ? reply : null);
    if (summary) finish(summary);
  } catch (error) {
    finished = true;
    stop();
    card.finish(error.message, false);
    toast(error.message, 'error');
  }
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
