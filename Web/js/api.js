// The catalog's JSON API, as the page uses it. Every request goes through here, so the token,
// the error shape and the URL layout live in one place.

const tokenMeta = document.querySelector('meta[name="catalog-token"]');
/** The per-run token the server put into the page; sent with every state-changing request. */
export const token = tokenMeta ? tokenMeta.content : '';

/** An API failure: the server's `{"error": {"code", "message"}}`, or a network problem. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function failure(response) {
  let code = `http-${response.status}`;
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (body && body.error) {
      code = body.error.code || code;
      message = body.error.message || message;
    }
  } catch {
    // Not JSON: keep the status line.
  }
  return new ApiError(response.status, code, message);
}

/** `path` with the query `params` (null, undefined and '' left out; arrays repeated). */
export function url(path, params = {}) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

async function request(method, path, { params, body, signal, priority, blob } = {}) {
  const headers = { Accept: 'application/json' };
  const init = { method, headers, signal, credentials: 'same-origin' };
  if (priority) init.priority = priority;
  if (method !== 'GET' && method !== 'HEAD') headers['X-Catalog-Token'] = token;
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url(path, params), init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'The catalog server does not answer. Is `catalog serve` still running?');
  }
  if (!response.ok) throw await failure(response);
  if (response.status === 204) return null;
  if (blob) return response.blob();
  const type = response.headers.get('Content-Type') || '';
  return type.includes('json') ? response.json() : response.text();
}

const enc = encodeURIComponent;

/** A page of entries, newest first: `{total, entries}` (`distinct`: only the best of each group of near-duplicates). */
export async function entries({ limit = 100, offset = 0, status, stale, distinct, signal } = {}) {
  const body = await request('GET', '/api/entries', {
    params: { limit, offset, status, stale: stale ? 'true' : undefined, distinct: distinct ? 'true' : undefined },
    signal,
  });
  // Accept a bare array too, so the page keeps working if the envelope changes.
  if (Array.isArray(body)) return { total: body.length, entries: body };
  return { total: body.total ?? body.count ?? 0, entries: body.entries ?? body.items ?? [] };
}

/** One entry, as `catalog show ID --json` prints it (`priority: 'low'` lets images go first). */
export const entry = (id, signal, priority) => request('GET', `/api/entries/${enc(id)}`, { signal, priority });

/** Colour search, as `catalog search --json` prints it. */
export const search = (query, signal) => request('GET', '/api/search', { params: query, signal });

let generation = 0;
/** Makes sticker URLs new, so images re-made by a reprocess are fetched again. */
export function renewStickers() { generation += 1; }
export const stickerURL = (id) => generation ? `/api/stickers/${enc(id)}.png?v=${generation}` : `/api/stickers/${enc(id)}.png`;
/** An animated sticker's moving form (animated WebP); its PNG is the first frame. */
export const animationURL = (id) => generation ? `/api/stickers/${enc(id)}.webp?v=${generation}` : `/api/stickers/${enc(id)}.webp`;
/** Whether the person asked for less motion: animated stickers then stay still until asked to play. */
export const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;
export const photoURL = (id, size = 1024) => url(`/api/photos/${enc(id)}/preview.jpg`, { size });

export const packs = () => request('GET', '/api/packs');
export const pack = (name) => request('GET', `/api/packs/${enc(name)}`);
export const createPack = (name, title, author) => request('POST', '/api/packs', { body: { name, title, author } });
export const updatePack = (name, fields) => request('PATCH', `/api/packs/${enc(name)}`, { body: fields });
export const deletePack = (name) => request('DELETE', `/api/packs/${enc(name)}`);
export const addToPack = (name, ids, emoji) =>
  request('POST', `/api/packs/${enc(name)}/items`, { body: emoji ? { ids, emoji } : { ids } });
export const removeFromPack = (name, id) => request('DELETE', `/api/packs/${enc(name)}/items/${enc(id)}`);
export const moveInPack = (name, id, position) =>
  request('PATCH', `/api/packs/${enc(name)}/items/${enc(id)}`, { body: { position } });
export const setEmoji = (name, id, emoji) =>
  request('PATCH', `/api/packs/${enc(name)}/items/${enc(id)}`, { body: { emoji } });

export const exportURL = (name, format) => url(`/api/packs/${enc(name)}/export`, { format });
export const exportReport = (name, format) =>
  request('GET', `/api/packs/${enc(name)}/export`, { params: { format, 'dry-run': 1 } });

/** The groups of near-duplicates, `{within, groups}`, as `catalog duplicates --json` prints them. */
export const duplicates = ({ within, signal } = {}) => request('GET', '/api/duplicates', { params: { within }, signal });
/** Makes entry `id` the best of its group; the groups as they now are. */
export const keepDuplicate = (id) => request('POST', '/api/duplicates/keep', { body: { id } });
/** Marks entries `ids` as not duplicates of each other; the groups as they now are. */
export const markDistinct = (ids) => request('POST', '/api/duplicates/distinct', { body: { ids } });

export const settings = () => request('GET', '/api/settings');
export const saveSettings = (values) => request('PUT', '/api/settings', { body: values });
export const stats = () => request('GET', '/api/stats');

/** Has the server decode entry `id`'s photo ahead of the first preview (nothing is made or saved). */
export const prepareCutout = (id) => request('POST', `/api/entries/${enc(id)}/cutout/prepare`);
/** The sticker `guidance` would make of entry `id` (a PNG Blob): a preview, nothing is saved. */
export const cutoutPreview = (id, guidance, signal) =>
  request('POST', `/api/entries/${enc(id)}/cutout`, { body: guidance, signal, blob: true });
/** Stores `guidance` with entry `id` and re-makes its sticker; the entry as it now is. */
export const saveGuidance = (id, guidance) => request('PUT', `/api/entries/${enc(id)}/guidance`, { body: guidance });
/** Back to the automatic cut-out for entry `id`; the entry as it now is. */
export const resetGuidance = (id) => request('DELETE', `/api/entries/${enc(id)}/guidance`);

export const reprocess = (all = false) => request('POST', '/api/reprocess', { body: { all } });

/**
 * Uploads photos for import (multipart). `onProgress(sent, total)` follows the upload; the import
 * itself reports on the event stream. XMLHttpRequest, because fetch reports no upload progress.
 */
export function importFiles(files, onProgress) {
  const form = new FormData();
  for (const file of files) form.append('photos', file, file.name);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/import');
    xhr.setRequestHeader('X-Catalog-Token', token);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    xhr.addEventListener('load', () => {
      let body = null;
      try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(new ApiError(xhr.status, body?.error?.code ?? `http-${xhr.status}`,
        body?.error?.message ?? `upload failed (${xhr.status})`));
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, 'network', 'The upload was cut off.')));
    xhr.send(form);
  });
}
