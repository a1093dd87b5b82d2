// Small DOM helpers: elements from code (never from HTML strings, so catalog text is never markup),
// the icon sprite, announcements and number formats.

/**
 * An element: `h('button', {class: 'x', onclick: fn}, 'text', child)`. Attributes starting with
 * `on` become listeners; `dataset` and `style` objects are applied through the DOM (the CSP
 * forbids style attributes in markup, not the CSSOM).
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'style') for (const [p, v] of Object.entries(value)) node.style.setProperty(p, v);
    else if (key === 'class') node.className = value;
    else if (value === true) node.setAttribute(key, '');
    else node.setAttribute(key, String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

const SVG = 'http://www.w3.org/2000/svg';

/** An icon from the sprite in index.html (`#icon-NAME`). */
export function icon(name, label) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'icon');
  if (label) {
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', label);
  } else {
    svg.setAttribute('aria-hidden', 'true');
  }
  const use = document.createElementNS(SVG, 'use');
  use.setAttribute('href', `#icon-${name}`);
  svg.append(use);
  return svg;
}

/** Replaces the children of `node`. */
export function replace(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/**
 * Tells screen readers `text` (politely, after what they are saying; `urgent`: at once). Each
 * message is a new line in a live region that was in the page from the start: a region made
 * together with its text is often not heard, and the same words twice are heard twice.
 */
export function announce(text, { urgent = false } = {}) {
  const region = document.getElementById(urgent ? 'alerter' : 'announcer');
  if (!region || !text) return;
  region.append(h('p', {}, text));
  while (region.childElementCount > 3) region.firstElementChild.remove();
}

/** A short message at the bottom of the window, read out by screen readers. */
export function toast(message, kind = 'info') {
  const region = document.getElementById('toasts');
  const note = h('div', { class: `toast toast-${kind}` }, message);
  region.append(note);
  announce(note.textContent, { urgent: kind === 'error' });
  setTimeout(() => note.classList.add('leaving'), kind === 'error' ? 7000 : 3500);
  setTimeout(() => note.remove(), kind === 'error' ? 7600 : 4100);
}

const bytesFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
/** Bytes as people read them (decimal units, as the export limits are). */
export function formatBytes(bytes) {
  if (bytes === null || bytes === undefined) return '—';
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${bytesFormat.format(bytes / 1e3)} KB`;
  if (bytes < 1e9) return `${bytesFormat.format(bytes / 1e6)} MB`;
  return `${bytesFormat.format(bytes / 1e9)} GB`;
}

export const formatCount = (n) => new Intl.NumberFormat().format(n);

/** The last part of a path: what people call the photo. */
export function fileName(path) {
  if (!path) return '';
  const parts = path.split('/');
  return parts[parts.length - 1] || path;
}

/** Calls `fn` once `wait` ms have passed without another call. */
export function debounce(fn, wait) {
  let timer = null;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), wait);
  };
}
