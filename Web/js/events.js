// The server's event stream (GET /api/events, Server-Sent Events): progress of imports and
// reprocessing (see jobs.js). One connection for the page; listeners get `(name, data)`.

const NAMES = ['job', 'progress'];
const listeners = new Set();
let source = null;

function connect() {
  source = new EventSource('/api/events');
  for (const name of NAMES) {
    source.addEventListener(name, (event) => {
      let data = event.data;
      try { data = JSON.parse(event.data); } catch { /* plain text */ }
      for (const listener of listeners) listener(name, data);
    });
  }
}

/** Calls `listener(name, data)` for every event; returns a function that stops it. */
export function listen(listener) {
  if (!source) connect();
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Opens the stream now, so no event of a job started next is missed. */
export function ready() {
  if (!source) connect();
  if (source.readyState === EventSource.OPEN) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => resolve();
    source.addEventListener('open', done, { once: true });
    setTimeout(done, 1500);
  });
}
