// "Fix the cut-out": over an entry's photo, a box dragged around the subject and points that take a
// part out or bring one back. After each change the sticker that guidance makes appears beside the
// photo (the server makes it and saves nothing); Save stores the guidance and re-makes the sticker.
// The keyboard does it all too: on the photo, arrow keys move a crosshair and Enter or Space places
// a box corner or a point; Escape leaves.
//
// Guidance is in pixels of the upright photo (the entry's width × height), origin top left, as the
// API takes it. The photo shown is a scaled copy: positions are kept as photo pixels and drawn as
// percentages, so the page never needs the copy's own size.

import * as api from './api.js';
import { h, icon, replace, toast } from './dom.js';
import { gradient } from './gradient.js';

/** Milliseconds without a change before a preview is asked for. */
const SETTLE = 250;

const TOOLS = {
  box: { label: 'Box', key: 'b', icon: 'crop', hint: 'Drag a box around the subject (or Enter on two corners).' },
  exclude: { label: 'Take out', key: 'x', icon: 'remove', hint: 'Click a part that should not be in the sticker.' },
  include: { label: 'Bring back', key: 'i', icon: 'add', hint: 'Click a part of the subject that went missing.' },
};

let session = null;

/** True while the mode is open (the detail view leaves its keys alone then). */
export const active = () => session !== null;

/** Ends the mode without putting anything back (the detail view shows another entry, or closed). */
export function leave() {
  session?.abandon();
}

/** An empty guidance: the automatic cut-out. */
const none = () => ({ box: null, include: [], exclude: [] });

/** True when `guidance` asks for nothing (absent, or no box and no points). */
export function isEmpty(guidance) {
  return !guidance || (!guidance.box && !(guidance.include || []).length && !(guidance.exclude || []).length);
}

/** What `guidance` holds, in words: "a box, 2 parts taken out". */
export function describe(guidance) {
  if (isEmpty(guidance)) return 'automatic';
  const parts = [];
  if (guidance.box) parts.push('a box');
  const out = (guidance.exclude || []).length;
  const back = (guidance.include || []).length;
  if (out) parts.push(`${out} ${out === 1 ? 'part' : 'parts'} taken out`);
  if (back) parts.push(`${back} ${back === 1 ? 'part' : 'parts'} brought back`);
  return parts.join(', ');
}

/**
 * Opens the mode in `container` (its children are kept aside and put back on Cancel) for `entry`
 * (`GET /api/entries/{id}`). `onSaved(entry)` gets the entry after Save or Reset; `onClosed()`
 * runs when the mode is left either way, with the children back for a Cancel.
 */
export function open(container, entry, { onSaved, onClosed }) {
  if (session) session.close();
  const W = entry.width;
  const H = entry.height;
  const stored = isEmpty(entry.guidance) ? none() : clone(entry.guidance);
  const state = {
    guidance: clone(stored), undo: [], redo: [], tool: stored.box ? 'exclude' : 'box',
    cursor: { x: Math.floor(W / 2), y: Math.floor(H / 2) }, anchor: null, drag: null,
    inflight: null, again: false, version: 0, url: null, saving: false,
  };
  const kept = [...container.childNodes];

  // The photo, with the box, the points and the keyboard crosshair drawn over it.
  const boxNode = h('div', { class: 'fix-box', hidden: true });
  const draftNode = h('div', { class: 'fix-box fix-draft', hidden: true });
  const marks = h('div', { class: 'fix-marks' });
  const cross = h('div', { class: 'fix-cross' });
  const stage = h('div', {
    class: 'fix-stage', tabindex: '0', role: 'application', 'aria-roledescription': 'photo',
    'aria-label': `The photo, ${W} × ${H}`, 'aria-describedby': 'fix-keys',
  }, h('img', { src: api.photoURL(entry.id, 1024), alt: '', draggable: 'false' }), boxNode, draftNode, marks, cross);
  stage.style.setProperty('--ratio', `${W} / ${H}`);
  const position = h('span', { class: 'fix-position' });

  const preview = h('img', { class: 'fix-preview-img', alt: 'The new sticker', src: entry.sticker ? api.stickerURL(entry.id) : null, hidden: !entry.sticker });
  preview.dataset.version = '0';
  const spinner = h('div', { class: 'fix-spinner', hidden: true }, h('span', { class: 'visually-hidden' }, 'Working'));
  const art = h('div', { class: 'detail-art fix-art' }, preview, spinner);
  art.style.setProperty('background-image', gradient(entry.palette));
  const status = h('p', { class: 'fix-status', role: 'status', 'aria-live': 'polite' });

  const toolButtons = Object.entries(TOOLS).map(([name, tool]) => h('button', {
    type: 'button', class: `button fix-tool fix-tool-${name}`, 'aria-pressed': 'false', title: `${tool.label} (${tool.key.toUpperCase()})`,
    dataset: { tool: name }, onclick: () => setTool(name),
  }, icon(tool.icon), tool.label));
  const undoButton = h('button', { type: 'button', class: 'button subtle', title: 'Undo (Ctrl+Z)', onclick: () => undo() }, icon('undo'), 'Undo');
  const redoButton = h('button', { type: 'button', class: 'button subtle', title: 'Redo (Ctrl+Shift+Z)', onclick: () => redo() }, icon('redo'), 'Redo');
  const clearButton = h('button', { type: 'button', class: 'button subtle', onclick: () => change(none()) }, icon('trash'), 'Clear');
  const hint = h('span', { class: 'fix-hint' });
  const resetButton = h('button', {
    type: 'button', class: 'button danger fix-reset', disabled: isEmpty(entry.guidance) || null,
    title: isEmpty(entry.guidance) ? 'This sticker is cut out automatically already' : null, onclick: () => reset(),
  }, 'Reset to automatic');
  const cancelButton = h('button', { type: 'button', class: 'button', onclick: () => close() }, 'Cancel');
  const saveButton = h('button', { type: 'button', class: 'button primary fix-save', onclick: () => save() }, 'Save');

  const section = h('section', { class: 'fix', 'aria-labelledby': 'fix-title' },
    h('div', { class: 'fix-head' },
      h('h3', { id: 'fix-title' }, icon('scissors'), 'Fix the cut-out'),
      h('div', { class: 'fix-tools', role: 'group', 'aria-label': 'Tool' }, toolButtons),
      h('div', { class: 'fix-history' }, undoButton, redoButton, clearButton)),
    h('div', { class: 'fix-pictures' },
      h('figure', { class: 'fix-photo' }, stage, h('figcaption', {}, hint, position)),
      h('figure', { class: 'fix-result', 'aria-busy': 'false' }, art, h('figcaption', {}, 'New sticker'), status)),
    h('p', { id: 'fix-keys', class: 'visually-hidden' },
      'Arrow keys move the crosshair, with Shift in larger steps. Enter or Space places a point, or a corner of the box. ',
      'B, X and I choose the tool: box, take out, bring back. Escape leaves without saving.'),
    h('div', { class: 'fix-actions' }, resetButton, h('span', { class: 'fix-spacer' }), cancelButton, saveButton));

  replace(container, section);
  // The photo is decoded on the server while the person looks and draws; a failure here shows with
  // the first preview, which reads the photo again.
  api.prepareCutout(entry.id).catch(() => {});

  function clone(guidance) {
    return { box: guidance.box ? { ...guidance.box } : null, include: (guidance.include || []).map((p) => ({ ...p })), exclude: (guidance.exclude || []).map((p) => ({ ...p })) };
  }

  function pixel(event) {
    const rect = stage.getBoundingClientRect();
    const x = Math.floor(((event.clientX - rect.left) / rect.width) * W);
    const y = Math.floor(((event.clientY - rect.top) / rect.height) * H);
    return { x: Math.min(W - 1, Math.max(0, x)), y: Math.min(H - 1, Math.max(0, y)) };
  }

  function boxFrom(a, b) {
    const x = Math.min(a.x, b.x);
    const y = Math.min(a.y, b.y);
    return { x, y, width: Math.abs(a.x - b.x) + 1, height: Math.abs(a.y - b.y) + 1 };
  }

  function place(node, box) {
    node.hidden = !box;
    if (!box) return;
    node.style.setProperty('left', `${(box.x / W) * 100}%`);
    node.style.setProperty('top', `${(box.y / H) * 100}%`);
    node.style.setProperty('width', `${(box.width / W) * 100}%`);
    node.style.setProperty('height', `${(box.height / H) * 100}%`);
  }

  function mark(point, kind) {
    const node = h('span', { class: `fix-mark fix-${kind}`, 'aria-hidden': 'true' }, kind === 'exclude' ? '−' : '+');
    node.style.setProperty('left', `${((point.x + 0.5) / W) * 100}%`);
    node.style.setProperty('top', `${((point.y + 0.5) / H) * 100}%`);
    return node;
  }

  function render() {
    const { guidance, tool } = state;
    place(boxNode, guidance.box);
    const draft = state.drag ? boxFrom(state.drag.from, state.drag.to) : state.anchor ? boxFrom(state.anchor, state.cursor) : null;
    place(draftNode, draft);
    replace(marks, guidance.exclude.map((p) => mark(p, 'exclude')), guidance.include.map((p) => mark(p, 'include')));
    cross.style.setProperty('left', `${((state.cursor.x + 0.5) / W) * 100}%`);
    cross.style.setProperty('top', `${((state.cursor.y + 0.5) / H) * 100}%`);
    for (const button of toolButtons) button.setAttribute('aria-pressed', String(button.dataset.tool === tool));
    stage.dataset.tool = tool;
    undoButton.disabled = !state.undo.length || state.saving;
    redoButton.disabled = !state.redo.length || state.saving;
    clearButton.disabled = isEmpty(guidance) || state.saving;
    saveButton.disabled = state.saving;
    hint.textContent = `${TOOLS[tool].hint} Now: ${describe(guidance)}.`;
    position.textContent = `Crosshair ${state.cursor.x}, ${state.cursor.y}${state.anchor ? ` · box from ${state.anchor.x}, ${state.anchor.y}` : ''}`;
  }

  function setTool(name) {
    state.tool = name;
    state.anchor = null;
    render();
  }

  /** Makes `next` the guidance (undoable) and asks for its preview. */
  function change(next) {
    state.undo.push(clone(state.guidance));
    state.redo = [];
    state.guidance = next;
    changed();
  }

  function changed() {
    render();
    clearTimeout(state.timer);
    state.timer = setTimeout(requestPreview, SETTLE);
    setStatus('Changes made: the preview follows…');
  }

  function undo() {
    if (!state.undo.length) return;
    state.redo.push(state.guidance);
    state.guidance = state.undo.pop();
    changed();
  }

  function redo() {
    if (!state.redo.length) return;
    state.undo.push(state.guidance);
    state.guidance = state.redo.pop();
    changed();
  }

  function addPoint(point, kind) {
    const next = clone(state.guidance);
    const other = kind === 'exclude' ? 'include' : 'exclude';
    // A pixel is kept or taken out, not both: the newer word wins (as `catalog recut` does).
    next[other] = next[other].filter((p) => p.x !== point.x || p.y !== point.y);
    if (!next[kind].some((p) => p.x === point.x && p.y === point.y)) next[kind].push(point);
    change(next);
  }

  function setBox(box) {
    change({ ...clone(state.guidance), box });
  }

  // One preview in flight at a time: changes made meanwhile are sent when it comes back, so a burst
  // of clicks costs two cut-outs, not one each.
  async function requestPreview() {
    if (!session) return;
    if (state.inflight) { state.again = true; return; }
    const sent = clone(state.guidance);
    const controller = new AbortController();
    state.inflight = controller;
    setBusy(true);
    setStatus('Making the preview…');
    try {
      const blob = await api.cutoutPreview(entry.id, sent, controller.signal);
      if (!session) return;
      if (state.url) URL.revokeObjectURL(state.url);
      state.url = URL.createObjectURL(blob);
      preview.src = state.url;
      preview.hidden = false;
      state.version += 1;
      preview.dataset.version = String(state.version);
      preview.dataset.bytes = String(blob.size);
      if (!state.again) setStatus(`Preview ready: ${describe(sent)}.`);
    } catch (error) {
      if (error.name === 'AbortError' || !session) return;
      if (!state.again) setStatus(error.message, true);
    } finally {
      state.inflight = null;
      if (session) {
        if (state.again) { state.again = false; requestPreview(); } else setBusy(false);
      }
    }
  }

  function setBusy(busy) {
    spinner.hidden = !busy;
    art.parentElement.setAttribute('aria-busy', String(busy));
    art.classList.toggle('busy', busy);
  }

  function setStatus(text, problem = false) {
    status.textContent = text;
    status.classList.toggle('problem', problem);
    status.setAttribute('role', problem ? 'alert' : 'status');
  }

  async function save() {
    await finish(() => api.saveGuidance(entry.id, state.guidance), 'Saved: the sticker was made again with your fix.');
  }

  async function reset() {
    await finish(() => api.resetGuidance(entry.id), 'Back to the automatic cut-out.');
  }

  async function finish(call, done) {
    state.saving = true;
    clearTimeout(state.timer);
    render();
    setBusy(true);
    setStatus('Saving: making the sticker…');
    try {
      const updated = await call();
      if (!session) return;
      teardown();
      toast(done);
      onSaved(updated);
      onClosed();
    } catch (error) {
      if (!session) return;
      state.saving = false;
      render();
      setBusy(false);
      setStatus(error.message, true);
    }
  }

  // Mouse, pen and touch: a drag draws the box; a tap places a point.
  stage.addEventListener('pointerdown', (event) => {
    if (event.button !== 0 || state.saving) return;
    event.preventDefault();
    stage.focus({ preventScroll: true });
    stage.setPointerCapture(event.pointerId);
    const at = pixel(event);
    state.drag = { from: at, to: at, tool: state.tool };
    state.cursor = at;
    if (state.tool === 'box') render();
  });
  stage.addEventListener('pointermove', (event) => {
    if (!state.drag) return;
    state.drag.to = pixel(event);
    state.cursor = state.drag.to;
    if (state.drag.tool === 'box') render();
  });
  const endDrag = (event, cancelled) => {
    const drag = state.drag;
    if (!drag) return;
    state.drag = null;
    if (cancelled) { render(); return; }
    drag.to = pixel(event);
    if (drag.tool === 'box') {
      const box = boxFrom(drag.from, drag.to);
      // A click, or a slip of a few pixels, is not a box.
      if (box.width >= W / 50 && box.height >= H / 50) setBox(box);
      else { render(); setStatus('Drag to draw the box: hold the button down from one corner to the other.'); }
    } else {
      addPoint(drag.to, drag.tool);
    }
  };
  stage.addEventListener('pointerup', (event) => endDrag(event, false));
  stage.addEventListener('pointercancel', (event) => endDrag(event, true));

  stage.addEventListener('keydown', (event) => {
    const step = Math.max(1, Math.round(Math.max(W, H) / (event.shiftKey ? 10 : 100)));
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (moves[event.key]) {
      event.preventDefault();
      const [dx, dy] = moves[event.key];
      state.cursor = { x: Math.min(W - 1, Math.max(0, state.cursor.x + dx)), y: Math.min(H - 1, Math.max(0, state.cursor.y + dy)) };
      render();
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (state.saving) return;
      const at = { ...state.cursor };
      if (state.tool !== 'box') { addPoint(at, state.tool); return; }
      if (!state.anchor) {
        state.anchor = at;
        render();
        setStatus(`First corner at ${at.x}, ${at.y}: move to the opposite corner and press Enter.`);
      } else {
        const box = boxFrom(state.anchor, at);
        state.anchor = null;
        setBox(box);
      }
    }
  });

  section.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      // A half-drawn box goes first; then the mode.
      if (state.anchor) { state.anchor = null; render(); setStatus('Box cancelled.'); return; }
      close();
      return;
    }
    if (event.target.matches('input, select, textarea')) return;
    const mod = event.ctrlKey || event.metaKey;
    if (mod && event.key.toLowerCase() === 'z') { event.preventDefault(); event.shiftKey ? redo() : undo(); return; }
    if (mod && event.key.toLowerCase() === 'y') { event.preventDefault(); redo(); return; }
    if (mod || event.altKey) return;
    const tool = Object.entries(TOOLS).find(([, t]) => t.key === event.key.toLowerCase());
    if (tool) { event.preventDefault(); setTool(tool[0]); }
    // ← and → step through stickers in the detail view: not while fixing one.
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') event.stopPropagation();
  });

  // The dialog closes on Escape by itself; in the mode, Escape leaves the mode instead.
  const dialog = container.closest('dialog');
  const onCancel = (event) => {
    if (!session) return;
    event.preventDefault();
    if (state.anchor) { state.anchor = null; render(); return; }
    close();
  };
  dialog?.addEventListener('cancel', onCancel);

  function teardown() {
    clearTimeout(state.timer);
    state.inflight?.abort();
    if (state.url) URL.revokeObjectURL(state.url);
    dialog?.removeEventListener('cancel', onCancel);
    session = null;
  }

  function close() {
    if (!session) return;
    teardown();
    replace(container, kept);
    onClosed();
  }

  session = { close, abandon: teardown };
  render();
  setStatus(isEmpty(entry.guidance) ? 'The sticker as it is now.' : `The sticker as it is now, fixed by hand: ${describe(entry.guidance)}.`);
  (toolButtons.find((b) => b.dataset.tool === state.tool) || stage).focus();
  return session;
}
