import { html, isFormSubmission, pathFor, type Html, type HttpError, type Request } from 'sevenfold';
import type { FieldErrors, Post } from '../post.js';
import { errorView, layout } from './layout.js';

// Markup here is kept as written (prettier leaves html`…` alone): it is what a person reads.

const postPath = (id: string): string => pathFor('/posts/:post_id', { post_id: id });

/** What the index shows: one page of posts and where the pages around it start. */
export interface IndexPage {
  readonly posts: readonly Post[];
  readonly limit: number;
  readonly offset: number;
  readonly total: number;
  /** An id for the "New post" link (`/posts/<id>/new`); the form lets a person change it. */
  readonly newId: string;
}

/** The list of posts, each with its show and edit links, and the way to write a new one. */
export function indexView({ posts, limit, offset, total, newId }: IndexPage): Html {
  const pageLink = (from: number, text: string, rel: string) =>
    html`<a href="${`/posts?limit=${limit}&offset=${from}`}" rel="${rel}">${text}</a>`;
  return layout(
    'All posts',
    html`<p><a href="${pathFor('/posts/:post_id/new', { post_id: newId })}">New post</a></p>
${
  posts.length === 0
    ? html`<p>No posts yet.</p>`
    : html`<ul class="posts">
${posts.map(
  (
    post,
  ) => html`<li><a href="${postPath(post.id)}">${post.title}</a> <a href="${pathFor('/posts/:post_id/edit', { post_id: post.id })}">Edit<span class="visually-hidden"> ${post.title}</span></a></li>
`,
)}</ul>`
}
${
  (offset > 0 || offset + limit < total) &&
  html`<nav aria-label="Pages" class="actions">${offset > 0 && pageLink(Math.max(0, offset - limit), 'Previous page', 'prev')} ${offset + limit < total && pageLink(offset + limit, 'Next page', 'next')}</nav>`
}`,
  );
}

/** One post: its text, when it was written, and the ways to edit or delete it. */
export function showView(post: Post): Html {
  return layout(
    post.title,
    html`<div class="post-body">${post.body}</div>
<dl class="meta">
<dt>Address</dt><dd>${postPath(post.id)}</dd>
<dt>Created</dt><dd>${when(post.createdAt)}</dd>
<dt>Updated</dt><dd>${when(post.updatedAt)}</dd>
</dl>
<div class="actions">
<a href="${pathFor('/posts/:post_id/edit', { post_id: post.id })}">Edit</a>
<form method="post" action="${postPath(post.id)}">
<input type="hidden" name="_method" value="DELETE">
<button class="danger">Delete this post</button>
</form>
</div>`,
  );
}

function when(iso: string): Html {
  return html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}</time>`;
}

/** What a post form shows: the values to fill in and, after a refused submission, the messages. */
export interface FormState {
  readonly id: string;
  readonly title: string;
  readonly body: string;
  readonly errors?: FieldErrors;
}

/** The form that creates a post; its id comes from the `new` path and can still be changed. */
export function newView(state: FormState): Html {
  return layout(
    'New post',
    postForm(
      state,
      '/posts',
      undefined,
      html`${field(state, 'id', 'Address', 'Letters, digits, - and _, up to 64: the post will live at /posts/<address>.')}
<input type="text" id="id" name="id" value="${state.id}" required pattern="[A-Za-z0-9_\\-]{1,64}"${described(state, 'id', true)}>`,
      'Create post',
    ),
  );
}

/** The form that replaces a post's title and body (sent as PUT through `_method`). */
export function editView(state: FormState): Html {
  return layout(
    'Edit post',
    html`<p>Editing <a href="${postPath(state.id)}">${postPath(state.id)}</a>.</p>
${postForm(state, postPath(state.id), 'PUT', undefined, 'Save changes')}`,
  );
}

function postForm(
  state: FormState,
  action: string,
  method: 'PUT' | undefined,
  idField: Html | undefined,
  submit: string,
): Html {
  const errors = state.errors ?? {};
  const general = errors[''] ?? [];
  return html`${
    Object.keys(errors).length > 0 &&
    html`<div class="summary" role="alert"><p>The post was not saved:</p>
<ul>${Object.entries(errors).map(([name, messages]) => html`<li>${name === '' ? 'The form' : (LABELS[name] ?? name)} ${messages.join('; ')}</li>`)}</ul></div>`
  }
<form method="post" action="${action}">
${method !== undefined && html`<input type="hidden" name="_method" value="${method}">`}
${idField}
${field(state, 'title', 'Title')}
<input type="text" id="title" name="title" value="${state.title}" required${described(state, 'title', false)}>
${field(state, 'body', 'Text', 'Optional, up to 100 000 characters.')}
<textarea id="body" name="body"${described(state, 'body', true)}>${state.body}</textarea>
${general.length > 0 && html`<p class="field-error">${general.join('; ')}</p>`}
<div class="actions"><button>${submit}</button> <a href="/posts">Cancel</a></div>
</form>`;
}

const LABELS: Readonly<Record<string, string>> = { id: 'Address', title: 'Title', body: 'Text' };

/** A field's label, its hint and its messages, each with an id the input points to. */
function field(state: FormState, name: string, label: string, hint?: string): Html {
  const messages = state.errors?.[name] ?? [];
  return html`<label for="${name}">${label}</label>
${hint !== undefined && html`<p class="hint" id="${name}-hint">${hint}</p>`}
${messages.length > 0 && html`<p class="field-error" id="${name}-error">${label} ${messages.join('; ')}</p>`}`;
}

/** The input's `aria-describedby` (its hint and messages) and `aria-invalid` after a refusal. */
function described(state: FormState, name: string, hinted: boolean): Html {
  const invalid = (state.errors?.[name]?.length ?? 0) > 0;
  const ids = [hinted && `${name}-hint`, invalid && `${name}-error`].filter(Boolean).join(' ');
  return html`${ids !== '' && html` aria-describedby="${ids}"`}${invalid && html` aria-invalid="true"`}`;
}

/** What a refused form showed: the submitted values as text (a repeated field is not text, so it shows empty). */
function submitted(body: unknown, id?: string): FormState {
  const fields = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const text = (name: string): string => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
  return { id: id ?? text('id'), title: text('title'), body: text('body') };
}

/**
 * The page a browser gets for an error (the adapters' `errorPage` option): a refused create or
 * update form submission (422 from the schema or the handler, 409 for a taken id) is its form
 * again with the messages beside the fields; any other error is the problem in the site's layout.
 */
export function postsErrorPage(error: HttpError, req?: Request<any, any, any, any>): Html {
  if (req !== undefined && (error.status === 422 || error.status === 409) && isFormSubmission(req)) {
    const errors = (error.errors ?? {}) as FieldErrors;
    if (req.route.name === 'posts.create') return newView({ ...submitted(req.body), errors });
    if (req.route.name === 'posts.update')
      return editView({ ...submitted(req.body, req.params.post_id as string), errors });
  }
  return errorView(error);
}
