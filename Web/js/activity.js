// Long jobs (import, reprocess) as cards with a progress bar in the corner of the window, told to
// screen readers as they go: the start, each new phase ("Uploading", "Making stickers"), every
// quarter of the way, and the end with its result. Not every step: a thousand photos would be a
// thousand interruptions.

import { h, icon, replace, announce } from './dom.js';

/** A job card; update it with `progress(done, total, text)`, end it with `finish(text, problems)`. */
export function job(title) {
  const bar = h('progress', { max: '1', value: '0', 'aria-label': title });
  const text = h('p', { class: 'job-text' }, 'Starting…');
  const problems = h('ul', { class: 'job-problems' });
  const close = h('button', { type: 'button', class: 'button icon-only subtle small', 'aria-label': 'Dismiss', hidden: true, onclick: () => card.remove() }, icon('close'));
  const card = h('section', { class: 'job', 'aria-label': title }, h('header', {}, h('h2', {}, title), close), bar, text, problems);
  document.getElementById('activity').append(card);
  announce(title);
  let phase = null;
  let quarter = 0;
  return {
    progress(done, total, message) {
      if (total > 0) { bar.max = total; bar.value = Math.min(done, total); } else bar.removeAttribute('value');
      text.textContent = message;
      const now = message.split(':')[0];
      const reached = total > 0 ? Math.floor((4 * Math.min(done, total)) / total) : 0;
      if (now !== phase) { phase = now; quarter = reached; announce(message); }
      else if (reached > quarter && reached < 4) { quarter = reached; announce(message); }
    },
    problem(message) {
      problems.append(h('li', {}, message));
    },
    finish(message, ok = true) {
      bar.max = 1;
      bar.value = 1;
      card.classList.add(ok ? 'done' : 'failed');
      replace(text, message);
      announce(`${title}: ${message}`, { urgent: !ok });
      close.hidden = false;
      if (ok && problems.children.length === 0) setTimeout(() => card.remove(), 6000);
    },
  };
}
