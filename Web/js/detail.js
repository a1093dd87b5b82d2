// The detail view of one entry: the sticker beside its source photo, the palette (a click copies a
// colour), EXIF as a table, why it is stale, the packs it is in. ← and → step through the list it
// was opened from.

import * as api from './api.js';
import * as stale from './stale.js';
import * as packindex from './packindex.js';
import { h, icon, replace, toast, fileName, formatBytes } from './dom.js';
import { gradient, prefersDarkText } from './gradient.js';
import { addToPackControl } from './packpicker.js';
import * as fixcutout from './fixcutout.js';
import { stickerAlt } from './tile.js';

const dialog = () => document.getElementById('detail');
let current = null;

/** Opens entry `index` of `source` (a grid source). `onStep(index)` follows the steps in the grid. */
export function open(source, index, { onStep } = {}) {
  current = { source, index, onStep };
  const node = dialog();
  if (!node.open) {
    node.showModal();
    node.addEventListener('close', () => {
      fixcutout.leave();
      const closed = current;
      current = null;
      closed?.onStep?.(closed.index);
    }, { once: true });
  }
  show();
}

async function step(delta) {
  if (!current) return;
  const next = current.index + delta;
  if (next < 0 || next >= current.source.total) return;
  const pending = current.source.ensure(next, next + 1);
  if (pending) await pending;
  current.index = next;
  show();
}

async function show() {
  fixcutout.leave();
  const { source, index } = current;
  const summary = source.at(index);
  const node = dialog();
  if (!summary) return;
  const id = summary.id;
  const position = h('span', { class: 'detail-position' }, `${index + 1} of ${source.total}`);
  const prev = h('button', { type: 'button', class: 'button icon-only subtle', 'aria-label': 'Previous sticker (←)', disabled: index === 0 || null, onclick: () => step(-1) }, icon('left'));
  const next = h('button', { type: 'button', class: 'button icon-only subtle', 'aria-label': 'Next sticker (→)', disabled: index >= source.total - 1 || null, onclick: () => step(1) }, icon('right'));
  const close = h('button', { type: 'button', class: 'button icon-only subtle', 'aria-label': 'Close (Esc)', onclick: () => node.close() }, icon('close'));
  const title = h('h2', { id: 'detail-title', class: 'detail-title' }, `#${id}`, h('span', { class: 'detail-file' }, fileName(summary.path)));
  const body = h('div', { class: 'detail-body', 'aria-busy': 'true' }, h('p', { class: 'hint' }, 'Loading…'));
  replace(node, h('header', { class: 'detail-header' }, title, h('div', { class: 'detail-nav' }, position, prev, next, close)), body);
  node.setAttribute('aria-labelledby', 'detail-title');
  const keepFocus = document.activeElement && node.contains(document.activeElement) && document.activeElement.getAttribute('aria-label');
  (keepFocus && [...node.querySelectorAll('button')].find((b) => b.getAttribute('aria-label') === keepFocus) || close).focus();

  let entry;
  try {
    entry = await api.entry(id);
  } catch (error) {
    replace(body, h('p', { class: 'problem' }, error.message));
    return;
  }
  if (!current || current.source.at(current.index)?.id !== id) return;
  body.removeAttribute('aria-busy');
  render(body, entry);
}

function render(body, entry) {
  replace(body, pictures(entry, body), facts(entry));
}

/** Opens "Fix the cut-out" in place of the detail; focus comes back to its button after. */
function fixCutout(body, entry) {
  fixcutout.open(body, entry, {
    onSaved: (updated) => {
      api.renewStickers();
      render(body, updated);
      // The grid and the palettes show the new sticker too.
      document.dispatchEvent(new CustomEvent('catalog:changed'));
    },
    onClosed: () => body.querySelector('.fix-button')?.focus(),
  });
}

function pictures(entry, body) {
  const stickerArt = h('div', { class: 'detail-art' });
  let animationRow = null;
  stickerArt.style.setProperty('background-image', gradient(entry.palette));
  if (entry.sticker) {
    const animation = entry.sticker.animation;
    const moving = animation && !api.reducedMotion();
    const img = h('img', { src: moving ? api.animationURL(entry.id) : api.stickerURL(entry.id), alt: stickerAlt(entry, entry.palette), width: entry.sticker.width, height: entry.sticker.height });
    stickerArt.append(img);
    if (animation) {
      const seconds = (animation.durationMs / 1000).toFixed(1);
      const timing = h('p', { class: 'detail-animation' }, `Animated: ${animation.frames} frames, ${animation.frameRate} fps, ${seconds} s`);
      // Less motion asked for: the first frame, and a button that plays it on request.
      const toggle = h('button', { type: 'button', class: 'button', 'aria-pressed': String(moving) }, moving ? 'Pause' : 'Play');
      toggle.addEventListener('click', () => {
        const playing = toggle.getAttribute('aria-pressed') === 'true';
        img.src = playing ? api.stickerURL(entry.id) : api.animationURL(entry.id);
        toggle.setAttribute('aria-pressed', String(!playing));
        toggle.textContent = playing ? 'Play' : 'Pause';
      });
      animationRow = h('div', { class: 'detail-animation-row' }, timing, toggle);
    }
  } else {
    stickerArt.append(h('p', { class: 'no-sticker' }, icon('warning'), 'No sticker'));
  }
  // A photo that was never decoded (no size recorded) has no preview: not asked for.
  const photoBox = h('div', { class: 'detail-photo' });
  if (entry.width) {
    const photo = h('img', { src: api.photoURL(entry.id, 1024), alt: `The source photo, ${fileName(entry.path)}`, class: 'detail-photo-img' });
    photo.addEventListener('error', () => replace(photoBox, h('p', { class: 'hint' }, 'The source photo is not available (moved, deleted or unreadable).')), { once: true });
    photoBox.append(photo);
  } else {
    photoBox.append(h('p', { class: 'hint' }, 'This file could not be read as a photo.'));
  }
  const guided = !fixcutout.isEmpty(entry.guidance);
  // Only a photo that was decoded (its size is known) can be guided; a failed cut-out ("no subject")
  // is exactly what a box fixes.
  // Guidance is for stills: a clip's cut-out cannot be fixed by hand yet.
  const fix = entry.width && entry.sha256 && !entry.sticker?.animation
    ? h('div', { class: 'detail-cutout' },
      h('button', { type: 'button', class: 'button fix-button', onclick: () => fixCutout(body, entry) }, icon('scissors'), 'Fix the cut-out'),
      h('p', { class: 'hint guided-note' }, guided ? `Fixed by hand: ${fixcutout.describe(entry.guidance)}.` : 'Cut out automatically.'))
    : null;
  return h('div', { class: 'detail-pictures' },
    h('figure', {}, stickerArt, animationRow, h('figcaption', {}, 'Sticker', entry.sticker ? ` · ${entry.sticker.width} × ${entry.sticker.height} · ${formatBytes(entry.sticker.bytes)}` : '', guided ? ' · fixed by hand' : '')),
    h('figure', {}, photoBox, h('figcaption', {}, 'Photo', entry.width ? ` · ${entry.width} × ${entry.height}` : '', entry.format ? ` · ${entry.format.toUpperCase()}` : '')),
    fix);
}

function facts(entry) {
  const parts = [];
  if (entry.failure) {
    parts.push(h('section', { class: 'detail-failure', role: 'note' },
      h('h3', {}, icon('warning'), 'Could not become a sticker'),
      h('p', {}, h('code', {}, entry.failure.code), ' ', entry.failure.message)));
  }
  if (entry.palette && entry.palette.length) {
    parts.push(h('section', {}, h('h3', {}, 'Palette'), h('p', { class: 'hint' }, 'Click a colour to copy it.'),
      h('div', { class: 'swatches' }, entry.palette.map((color) => swatch(color)))));
  }
  const reasons = stale.reasonsFor(entry.id);
  if (reasons.length) {
    parts.push(h('section', {}, h('h3', {}, 'Out of date'),
      h('ul', { class: 'reasons' }, reasons.map((reason) => h('li', {}, h('code', {}, reason), ' ', stale.EXPLAINED[reason] || '')))));
  }
  const packs = packindex.packsOf(entry.id);
  parts.push(h('section', {}, h('h3', {}, 'Packs'),
    packs.length
      ? h('ul', { class: 'pack-links' }, packs.map((pack) => h('li', {}, h('a', { href: `#/packs/${encodeURIComponent(pack.name)}`, onclick: () => dialog().close() }, pack.title || pack.name), ` (${ordinal(pack.position)})`)))
      : h('p', { class: 'hint' }, 'In no pack yet.'),
    entry.sticker ? addToPackControl(() => [entry.id]) : null));
  parts.push(h('section', {}, h('h3', {}, 'Photo'), exifTable(entry)));
  return h('div', { class: 'detail-facts' }, parts);
}

function swatch(color) {
  const button = h('button', {
    type: 'button', class: 'swatch', title: `Copy ${color.hex}`, 'aria-label': `${color.hex}, ${Math.round(color.share * 100)} percent. Copy`,
    onclick: async () => {
      try {
        await navigator.clipboard.writeText(color.hex);
        toast(`Copied ${color.hex}`);
      } catch {
        toast(`${color.hex} (copying is not allowed here)`);
      }
    },
  }, h('span', { class: 'swatch-hex' }, color.hex), h('span', { class: 'swatch-share' }, `${Math.round(color.share * 100)}%`));
  button.style.setProperty('--swatch', color.hex);
  button.style.setProperty('flex-grow', String(Math.max(0.6, color.share * 5)));
  button.classList.add(prefersDarkText(color.hex) ? 'on-light' : 'on-dark');
  return button;
}

function exifTable(entry) {
  const exif = entry.exif || {};
  const rows = [
    ['File', entry.path],
    ['Camera', [exif.make, exif.model].filter(Boolean).join(' ')],
    ['Lens', exif.lensModel],
    ['Taken', exif.takenAt],
    ['Exposure', exif.exposureTime ? (exif.exposureTime < 1 ? `1/${Math.round(1 / exif.exposureTime)} s` : `${exif.exposureTime} s`) : null],
    ['Aperture', exif.fNumber ? `ƒ/${exif.fNumber}` : null],
    ['ISO', exif.iso],
    ['Focal length', exif.focalLength ? `${exif.focalLength} mm` : null],
    ['Orientation', exif.orientation],
    ['Position', exif.gpsLatitude !== null && exif.gpsLatitude !== undefined ? `${exif.gpsLatitude.toFixed(5)}, ${exif.gpsLongitude.toFixed(5)}${exif.gpsAltitude !== null && exif.gpsAltitude !== undefined ? ` · ${Math.round(exif.gpsAltitude)} m` : ''}` : null],
    ['SHA-256', entry.sha256],
    ['Made by', entry.sticker ? `pipeline ${entry.sticker.pipelineVersion} · ${entry.sticker.settings.size} px · outline ${entry.sticker.settings.outline}${entry.sticker.settings.shadow ? ' · shadow' : ''}` : null],
  ].filter(([, value]) => value !== null && value !== undefined && value !== '');
  return h('table', { class: 'exif' }, h('tbody', {}, rows.map(([key, value]) => h('tr', {}, h('th', { scope: 'row' }, key), h('td', {}, String(value))))));
}

function ordinal(n) {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

document.addEventListener('keydown', (event) => {
  if (!current || !dialog().open || fixcutout.active()) return;
  if (event.target.matches('input, select, textarea')) return;
  if (event.key === 'ArrowLeft') { event.preventDefault(); step(-1); }
  if (event.key === 'ArrowRight') { event.preventDefault(); step(1); }
});
