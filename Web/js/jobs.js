// Follows a server job (import, reprocess) on the event stream and draws it as a card with a
// progress bar. The server runs one job at a time and reports, as Server-Sent Events:
//   job      {"id","kind","state":"started","total"}
//   progress {"id","kind","done","total","event"}   (event: the CLI's --json line for one photo)
//   job      {"id","kind","state":"finished","summary"}, {"id","kind","state":"interrupted","summary"}
//            (the server was stopped; the summary counts what was done) or {"id","kind","state":"failed","error"}
// The POST that starts a job answers 202 with {"job": {"id","kind","total"}}.

import * as events from './events.js';
import { job as card } from './activity.js';
import { fileName } from './dom.js';

/**
 * Starts a job with `start()` (a promise of the POST's answer) and follows job `kind` to its end.
 * `describe(done, total)` words the progress; `summarise(summary)` the end (`{text, ok}`).
 * Resolves with the summary (null when the job failed).
 */
export async function follow({ kind, title, start, describe, summarise, card: existing }) {
  const view = existing ?? card(title);
  let id = null;
  const early = [];
  let settle;
  const finished = new Promise((resolve) => { settle = resolve; });

  const handle = (name, data) => {
    if (name === 'progress') {
      const line = data.event || {};
      if (line.event === 'failed') view.problem(`${fileName(line.path)}: ${line.error?.message ?? 'failed'}`);
      if (line.event === 'missing') view.problem(`${fileName(line.path)}: the photo file is gone`);
      view.progress(data.done, data.total, describe(data.done, data.total));
    } else if (name === 'job' && data.state === 'finished') {
      const { text, ok } = summarise(data.summary || {});
      view.finish(text, ok);
      settle(data.summary || {});
    } else if (name === 'job' && data.state === 'interrupted') {
      const left = data.summary?.left;
      view.finish(`The server was stopped${left ? ` with ${left} photos left` : ''}; what was done is kept, and the next run goes on from there.`, false);
      settle(data.summary || {});
    } else if (name === 'job' && data.state === 'failed') {
      view.finish(data.error?.message ?? 'The job failed.', false);
      settle(null);
    } else if (name === 'job' && data.state === 'started') {
      view.progress(0, data.total, describe(0, data.total));
    }
  };
  const stop = events.listen((name, data) => {
    if (!data || typeof data !== 'object' || data.kind !== kind) return;
    if (id === null) early.push([name, data]);
    else if (data.id === id) handle(name, data);
  });
  await events.ready();
  try {
    const reply = await start(view);
    id = reply?.job?.id ?? null;
    if (id === null) throw new Error('The server did not start the job.');
    for (const [name, data] of early) if (data.id === id) handle(name, data);
    early.length = 0;
    return await finished;
  } catch (error) {
    view.finish(error.message, false);
    return null;
  } finally {
    stop();
  }
}
