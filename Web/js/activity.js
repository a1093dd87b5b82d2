// Long jobs (import, reprocess) as cards with a progress bar in the corner of the window.

import { h, icon, replace } from './dom.js';

/** A job card; update it with `progress(done, total, text)`, end it with `finish(text, problems)`. */
export function job(title) {
  const bar = h('progress', { max: '1', value: '0', 'aria-label': title });
  const text = h('p', { class: 'job-text' }, 'Starting…');
  const problems = h('ul', { class: 'job-problems' });
  const close = h('button', { type: 'button', class: 'button icon-only subtle small', 'aria-label': 'Dismiss', hidden: true, onclick: () => card.remove() }, icon('close'));
  const card = h('section', { class: 'job', 'aria-label': title }, h('header', {}, h('h2', {}, title), close), bar, text, problems);
  document.getElementById('activity').append(card);
  return {
    progress(done, total, message) {
      if (total > 0) { bar.max = total; bar.value = Math.min(done, total); } else bar.removeAttribute('value');
      text.textContent = message;
    },
    problem(message) {
      problems.append(h('li', {}, message));
    },
    finish(message, ok = true) {
      bar.max = 1;
      bar.value = 1;
      card.classList.add(ok ? 'done' : 'failed');
      replace(text, message);
      close.hidden = false;
      if (ok && problems.children.length === 0) setTimeout(() => card.remove(), 6000);
    },
  };
}
