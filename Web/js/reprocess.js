// Reprocessing of the stale entries, with a progress bar fed by the event stream.

import * as api from './api.js';
import * as events from './events.js';
import * as stale from './stale.js';
import { job } from './activity.js';
import { toast, fileName } from './dom.js';

const FINAL = new Set(['reprocessed', 'refreshed', 'missing', 'duplicate', 'failed']);
let running = false;

/** Re-makes every stale sticker; `onDone()` runs when it is over. */
export async function reprocessStale(onDone) {
  if (running) return;
  running = true;
  const total = stale.count();
  const card = job(`Reprocessing ${total || ''} stale sticker${total === 1 ? '' : 's'}`.replace('  ', ' '));
  let done = 0, failed = 0, finished = false;
  const finish = (summary) => {
    if (finished) return;
    finished = true;
    running = false;
    stop();
    const remade = summary?.reprocessed ?? done - failed;
    const bad = summary?.failed ?? failed;
    card.finish(`${remade} sticker${remade === 1 ? '' : 's'} made again${bad ? `, ${bad} failed` : ''}${summary?.missing ? `, ${summary.missing} photos missing` : ''}.`, bad === 0);
    onDone?.();
  };
  const stop = events.listen((name, data) => {
    if (finished || !data || typeof data !== 'object') return;
    const kind = data.event ?? name;
    if (data.job && data.job !== 'reprocess' && kind !== 'reprocess') return;
    if (FINAL.has(kind) && Array.isArray(data.reasons)) {
      done += 1;
      if (kind === 'failed') { failed += 1; card.problem(`${fileName(data.path)}: ${data.error?.message ?? 'failed'}`); }
      if (kind === 'missing') card.problem(`${fileName(data.path)}: the photo is gone`);
      card.progress(done, Math.max(total, done), `${done} of ${Math.max(total, done)}${failed ? ` · ${failed} failed` : ''}`);
    } else if (typeof data.done === 'number' && typeof data.total === 'number') {
      card.progress(data.done, data.total, `${data.done} of ${data.total}`);
    }
    if (kind === 'summary' && data.reprocessed !== undefined) finish(data);
  });
  await events.ready();
  try {
    const reply = await api.reprocess(false);
    const summary = reply?.summary ?? (reply && reply.event === 'summary' ? reply : null);
    if (summary) finish(summary);
  } catch (error) {
    finished = true;
    running = false;
    stop();
    card.finish(error.message, false);
    toast(error.message, 'error');
  }
}
