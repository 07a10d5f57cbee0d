// examples/posts' index page, live: the list follows the index's own event stream (docs/live.md), kept as the
// server would now write it; the page works the same without it, and its policy lets in this file alone.
'use strict';
(() => {
  const region = document.querySelector('main [aria-live]');
  // A browser without EventSource, or a page other than the index, keeps the page as it came.
  if (typeof EventSource !== 'function' || region === null) return;

  const base = location.pathname;
  const query = new URLSearchParams(location.search);
  // The index's own defaults (shared/specs/posts-api.md): limit 100, offset 0.
  const limit = whole(query.get('limit'), 100);
  const offset = whole(query.get('offset'), 0);
  let stale = false;

  const source = new EventSource(location.pathname + location.search);
  source.addEventListener('created', (event) => created(parsed(event)));
  source.addEventListener('updated', (event) => updated(parsed(event)));
  source.addEventListener('destroyed', (event) => destroyed(parsed(event)));
  source.addEventListener('reload', () => outdated('Posts changed while this page was not following them.'));

  function whole(text, fallback) {
    const n = Number(text);
    return text !== null && Number.isSafeInteger(n) && n >= 0 ? n : fallback;
  }

  function parsed(event) {
    try {
      const data = JSON.parse(event.data);
      return data !== null && typeof data === 'object' && typeof data.id === 'string' ? data : undefined;
    } catch {
      return undefined;
    }
  }

  const showPath = (id) => `${base}/${encodeURIComponent(id)}`;
  // The list is the element after the live region: `ul.posts`, or the "No posts yet." paragraph.
  const list = () => region.nextElementSibling;
  const items = () => (list().matches('ul.posts') ? [...list().children] : []);
  const itemOf = (id) => items().find((li) => li.firstElementChild.getAttribute('href') === showPath(id));
  const nextLink = () => document.querySelector('main nav[aria-label="Pages"] a[rel="next"]');

  function created(post) {
    if (post === undefined || typeof post.title !== 'string')
      return outdated('A post was added whose title this page was not told.');
    const li = itemOf(post.id);
    if (li !== undefined) return retitle(li, post.title);
    const count = items().length;
    // Posts are listed oldest first, so a new one is the last of them all.
    if (nextLink() !== null) return say(`New post “${post.title}”, at the end of the list.`);
    if (count === 0 && offset > 0) return outdated(`New post “${post.title}”.`);
    if (count >= limit) {
      addNextLink();
      return say(`New post “${post.title}”, on the next page.`);
    }
    append(item(post));
    say(`New post “${post.title}”.`);
  }

  function updated(post) {
    const li = post === undefined ? undefined : itemOf(post.id);
    if (li === undefined) return;
    if (typeof post.title !== 'string') return outdated('A post on this page was edited.');
    retitle(li, post.title);
    say(`“${post.title}” was edited.`);
  }

  function destroyed(post) {
    const li = post === undefined ? undefined : itemOf(post.id);
    if (li === undefined) {
      // A post before this page moves the whole page by one; after it, nothing here changes.
      if (offset > 0) outdated('A post was deleted.');
      return;
    }
    const title = li.firstElementChild.textContent;
    // The line break after it goes too, as the server writes none for a post it no longer has.
    if (li.nextSibling?.nodeType === Node.TEXT_NODE) li.nextSibling.remove();
    li.remove();
    if (items().length === 0) {
      const empty = document.createElement('p');
      empty.textContent = 'No posts yet.';
      list().replaceWith(empty);
    }
    if (nextLink() !== null) outdated(`“${title}” was deleted.`);
    else say(`“${title}” was deleted.`);
  }

  /** A post's line, as views/posts.ts writes it: its title to show it, and Edit with the title for a reader. */
  function item(post) {
    const li = document.createElement('li');
    const show = document.createElement('a');
    show.href = showPath(post.id);
    show.textContent = post.title;
    const edit = document.createElement('a');
    edit.href = `${showPath(post.id)}/edit`;
    const hidden = document.createElement('span');
    hidden.className = 'visually-hidden';
    hidden.textContent = ` ${post.title}`;
    edit.append('Edit', hidden);
    li.append(show, ' ', edit);
    return li;
  }

  function retitle(li, title) {
    li.firstElementChild.textContent = title;
    li.querySelector('.visually-hidden').textContent = ` ${title}`;
  }

  function append(li) {
    let ul = list();
    if (!ul.matches('ul.posts')) {
      ul = document.createElement('ul');
      ul.className = 'posts';
      ul.append('\n');
      list().replaceWith(ul);
    }
    ul.append(li, '\n');
  }

  /** The "Next page" link the server writes once posts follow this page, in the pages' nav (made if absent). */
  function addNextLink() {
    let nav = document.querySelector('main nav[aria-label="Pages"]');
    // The server writes the space between "Previous page" and "Next page" whether or not either is there.
    if (nav === null) {
      nav = document.createElement('nav');
      nav.setAttribute('aria-label', 'Pages');
      nav.className = 'actions';
      nav.append(' ');
      list().after('\n', nav);
    }
    const next = document.createElement('a');
    next.href = `${base}?${new URLSearchParams({ limit: String(limit), offset: String(offset + limit) })}`;
    next.rel = 'next';
    next.textContent = 'Next page';
    nav.append(next);
  }

  /** Tells of a change: a reader hears it (the region is polite), and sees it above the list. */
  function say(text) {
    const message = document.createElement('p');
    message.className = 'flash notice';
    message.textContent = text;
    const last = region.lastElementChild;
    if (last !== null && !last.matches('.outdated')) last.replaceWith(message);
    else region.append(message);
  }

  /** Tells of a change this page cannot show in place, with the way to the list as it is now (said once). */
  function outdated(text) {
    if (!stale) {
      stale = true;
      const notice = document.createElement('p');
      notice.className = 'flash notice outdated';
      const refresh = document.createElement('a');
      refresh.href = location.pathname + location.search;
      refresh.textContent = 'Show the list as it is now';
      notice.append('This page may be out of date. ', refresh);
      region.prepend(notice);
    }
    say(text);
  }
})();
