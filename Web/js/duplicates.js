// The duplicates view: each group of near-duplicate stickers side by side, its best one marked in
// words. "Keep this one" makes a member the group's best; "Not duplicates" parts a group for good.
// The catalog remembers both (as `catalog duplicates --keep` / `--not-duplicates` do); nothing is
// deleted.

import * as api from './api.js';
import { h, icon, replace, announce, toast, formatBytes, formatCount, fileName } from './dom.js';

/** Builds the view into `main`. */
export function render(main) {
  const heading = h('h1', { class: 'view-title', id: 'duplicates-title' }, 'Duplicates');
  const summary = h('p', { class: 'hint dup-summary' }, 'Looking for stickers that show the same subject…');
  const list = h('div', { class: 'dup-groups' });
  replace(main, h('section', { class: 'view duplicates', 'aria-labelledby': 'duplicates-title' },
    heading,
    h('p', { class: 'hint' }, 'Resized, recompressed or cropped copies of a photo, and the same subject on other backgrounds. '
      + 'Nothing is deleted: keep the one you want, or say a group is not duplicates. The catalog remembers.'),
    summary, list));

  let aborter = null;
  let busy = false;

  async function load() {
    aborter?.abort();
    aborter = new AbortController();
    try {
      draw(await api.duplicates({ signal: aborter.signal }));
    } catch (error) {
      if (error.name === 'AbortError') return;
      replace(list, h('p', { class: 'problem', role: 'alert' }, error.message));
    }
  }

  function draw(document_) {
    const { groups } = document_;
    if (groups.length === 0) {
      summary.textContent = '';
      replace(list, h('div', { class: 'empty dup-empty' },
        h('p', {}, 'No near-duplicates: no two stickers show the same subject.'),
        h('p', {}, 'Stickers made by an older version are not compared until they are made again: run ',
          h('code', {}, 'catalog reprocess'), ', or “Reprocess” when the page offers it.')));
      return;
    }
    const members = groups.reduce((sum, group) => sum + group.members.length, 0);
    summary.textContent = `${formatCount(groups.length)} group${groups.length === 1 ? '' : 's'}, ${formatCount(members)} stickers.`;
    replace(list, groups.map((group, index) => drawGroup(group, index + 1)));
  }

  function drawGroup(group, number) {
    const titleId = `dup-group-${group.best}`;
    const byUser = group.bestChosenBy === 'user';
    return h('section', { class: 'dup-group panel', 'aria-labelledby': titleId, dataset: { best: group.best } },
      h('div', { class: 'dup-group-head' },
        h('h2', { id: titleId, tabindex: '-1' }, `Group ${number}: ${group.members.length} stickers`),
        h('button', {
          type: 'button', class: 'button dup-distinct', 'aria-describedby': titleId,
          onclick: (event) => decide(event.currentTarget, () => api.markDistinct(group.members.map((m) => m.id)),
            `Group ${number} marked as not duplicates.`),
        }, 'Not duplicates')),
      h('ul', { class: 'dup-members' }, group.members.map((member) => drawMember(member, group, byUser))));
  }

  function drawMember(member, group, byUser) {
    const best = member.id === group.best;
    const name = fileName(member.path);
    const nameId = `dup-name-${member.id}`;
    const badge = best
      ? h('p', { class: 'dup-badge' }, icon('star'), byUser ? 'Best, kept by you' : 'Best (suggested)')
      : null;
    return h('li', { class: `dup-member${best ? ' is-best' : ''}`, dataset: { entryId: member.id } },
      h('div', { class: 'dup-art' },
        h('img', { src: api.stickerURL(member.id), alt: `${name}, sticker`, loading: 'lazy', decoding: 'async' })),
      badge,
      h('p', { class: 'dup-name', id: nameId, title: member.path }, name),
      h('p', { class: 'dup-facts' }, `${member.width} × ${member.height} px, ${formatBytes(member.fileSize)}`),
      h('p', { class: 'dup-distance' }, best ? 'Distance 0' : `Distance ${member.distance} from the best`),
      best && byUser
        ? null
        : h('button', {
          type: 'button', class: `button dup-keep${best ? '' : ' primary'}`, 'aria-describedby': nameId,
          onclick: (event) => decide(event.currentTarget, () => api.keepDuplicate(member.id), `Kept ${name}.`, member.id),
        }, 'Keep this one'));
  }

  /**
   * Runs a decision, then shows the groups it answers with and puts the focus on the heading of the
   * group that holds `kept` (groups are reordered by their best), else of the group now where the
   * parted one was, else on the view's heading.
   */
  async function decide(button, action, said, kept) {
    if (busy) return;
    busy = true;
    button.setAttribute('aria-disabled', 'true');
    const group = button.closest('.dup-group');
    const index = [...list.querySelectorAll('.dup-group')].indexOf(group);
    try {
      draw(await action());
      announce(said);
      const groups = [...list.querySelectorAll('.dup-group')];
      const target = groups.find((g) => g.querySelector(`.dup-member[data-entry-id="${kept}"]`)) ?? groups[Math.min(index, groups.length - 1)];
      (target?.querySelector('h2') ?? heading).focus();
    } catch (error) {
      button.removeAttribute('aria-disabled');
      toast(error.message, 'error');
    } finally {
      busy = false;
    }
  }

  heading.setAttribute('tabindex', '-1');
  load();
  return {
    /** Reads the groups again (the catalog changed). */
    reload: () => load(),
    destroy: () => aborter?.abort(),
  };
}
