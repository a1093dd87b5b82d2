// Export of a pack for one platform: the fit report first (a dry run: every sticker fitted to the
// platform's limits), then the download, the same bytes as `catalog export`.

import * as api from './api.js';
import { h, icon, replace, formatBytes } from './dom.js';

/** The platforms, in the order people look for them. */
export const FORMATS = [
  { id: 'whatsapp', label: 'WhatsApp', note: '.wastickers file: 3–30 stickers, 512 × 512 WebP ≤ 100 KB each' },
  { id: 'telegram', label: 'Telegram', note: 'a folder (zipped): stickers 512 px ≤ 512 KB, up to 120 a pack' },
  { id: 'signal', label: 'Signal', note: 'a folder (zipped): 512 × 512 ≤ 300 KB, up to 200 a pack' },
  { id: 'imessage', label: 'iMessage', note: 'an Xcode sticker pack folder (zipped), 408 px PNGs' },
  { id: 'png', label: 'PNG files', note: 'the stickers as stored, with manifest.json (zipped)' },
  { id: 'zip', label: 'Zip', note: 'the stickers as stored, with manifest.json, in one zip' },
];

/** Opens the export dialog for `pack` and `format`, with its fit report. */
export async function showExport(pack, format) {
  const dialog = document.getElementById('export-dialog');
  const body = h('div', { class: 'export-body', 'aria-busy': 'true' }, h('p', { class: 'hint' }, 'Fitting every sticker to the limits…'));
  const download = h('a', { class: 'button primary download', href: api.exportURL(pack.name, format.id), download: '', 'aria-disabled': 'true', tabindex: '-1' }, icon('download'), `Download for ${format.label}`);
  download.addEventListener('click', (event) => {
    if (download.getAttribute('aria-disabled') === 'true') event.preventDefault();
  });
  replace(dialog,
    h('header', { class: 'dialog-head' },
      h('h2', { id: 'export-title' }, `${pack.title || pack.name} for ${format.label}`),
      h('button', { type: 'button', class: 'button icon-only subtle', 'aria-label': 'Close', onclick: () => dialog.close() }, icon('close'))),
    h('p', { class: 'hint' }, format.note),
    body,
    h('div', { class: 'form-actions' }, h('button', { type: 'button', class: 'button subtle', onclick: () => dialog.close() }, 'Close'), download));
  dialog.setAttribute('aria-labelledby', 'export-title');
  if (!dialog.open) dialog.showModal();

  let report;
  if (format.id === 'whatsapp' && pack.items.length < 3) {
    // The server would refuse it too; said here without a failed request.
    body.removeAttribute('aria-busy');
    replace(body, h('div', { class: 'report-problem', role: 'alert' }, icon('warning'),
      h('p', {}, `WhatsApp needs at least 3 stickers in a pack; this one has ${pack.items.length}. Add more from the Stickers view.`)));
    return;
  }
  try {
    report = await api.exportReport(pack.name, format.id);
  } catch (error) {
    body.removeAttribute('aria-busy');
    replace(body, h('div', { class: 'report-problem', role: 'alert' }, icon('warning'), h('p', {}, error.message)));
    dialog.querySelector('.form-actions .subtle').focus();
    return;
  }
  body.removeAttribute('aria-busy');
  replace(body, reportView(report));
  if (report.ok) {
    download.removeAttribute('aria-disabled');
    download.removeAttribute('tabindex');
    download.focus();
  } else {
    dialog.querySelector('.form-actions .subtle').focus();
  }
}

function reportView(report) {
  const parts = report.parts || [];
  const files = parts.flatMap((part) => part.files.map((file) => ({ ...file, part: part.name })));
  const bad = files.filter((file) => !file.ok);
  const total = files.reduce((sum, file) => sum + (file.bytes || 0), 0);
  const summary = report.ok
    ? h('p', { class: 'report-ok', role: 'status' }, `✓ Every file fits. ${files.length} files, ${formatBytes(total)}${parts.length > 1 ? `, split into ${parts.length} packs (${parts.map((p) => p.name).join(', ')})` : ''}.`)
    : h('p', { class: 'report-problem', role: 'alert' }, icon('warning'), `${bad.length} file${bad.length === 1 ? '' : 's'} cannot fit the platform's limits: ${bad.map((f) => f.file).join(', ')}.`);
  const table = h('table', { class: 'report' },
    h('thead', {}, h('tr', {}, ['File', 'Sticker', 'Pixels', 'Size', 'Limit', 'Encoding'].map((t) => h('th', { scope: 'col' }, t)),
      h('th', { scope: 'col' }, h('span', { class: 'visually-hidden' }, 'Fits')))),
    h('tbody', {}, files.map((file) => h('tr', { class: file.ok ? '' : 'bad' },
      h('td', {}, parts.length > 1 ? `${file.part}/${file.file}` : file.file),
      h('td', {}, file.id === null || file.id === undefined ? '—' : `#${file.id}`),
      h('td', {}, file.width && file.height ? `${file.width} × ${file.height}` : '—'),
      h('td', { class: 'num' }, formatBytes(file.bytes)),
      h('td', { class: 'num' }, file.limit ? formatBytes(file.limit) : '—'),
      h('td', {}, file.encoding || ''),
      h('td', { 'aria-label': file.ok ? 'fits' : 'too big' }, file.ok ? '✓' : '✗')))));
  // The list scrolls on its own: focusable, so the keyboard can scroll it too.
  return h('div', {}, summary, h('div', { class: 'report-scroll', tabindex: '0', role: 'region', 'aria-label': 'Files and their limits' }, table));
}
