// The posts' pages: list, post, new and edit forms, all built with paths().
import {
  html,
  isFormSubmission,
  type FieldErrors,
  type Form,
  type Html,
  type HttpError,
  type HandlerRequest,
} from 'sevenfold';
import type { Post } from '../post.js';
import type { PostsPaths } from '../routes.js';
import { errorView, layout, type Visitor } from './layout.js';

// Markup here is kept as written (prettier leaves html`…` alone): it is what a person reads.
// Every view takes the resource's path helpers (`p`), so each link and form comes from the route table.

/** What the index shows: one page of posts and where the pages around it start. */
export interface IndexPage {
  readonly posts: readonly Post[];
  readonly limit: number;
  readonly offset: number;
  readonly total: number;
  /** An id for the "New post" link (`/posts/<id>/new`); the form lets a person change it. */
  readonly newId: string;
}

/**
 * The list of posts, each with its show and edit links, and the way to write a new one. public/live.js keeps
 * the list true as posts change and speaks in the empty `aria-live` region before it (the list must follow it).
 */
export function indexView(
  p: PostsPaths,
  { posts, limit, offset, total, newId }: IndexPage,
  visitor?: Visitor,
): Html {
  const pageLink = (from: number, text: string, rel: string) =>
    html`<a href="${p.posts.index({}, { limit, offset: from })}" rel="${rel}">${text}</a>`;
  return layout(
    p,
    'All posts',
    html`<p><a href="${p.posts.new({ post_id: newId })}">New post</a></p>
<div aria-live="polite"></div>
${
  posts.length === 0
    ? html`<p>No posts yet.</p>`
    : html`<ul class="posts">
${posts.map(
  (
    post,
  ) => html`<li><a href="${p.posts.show({ post_id: post.id })}">${post.title}</a> <a href="${p.posts.edit({ post_id: post.id })}">Edit<span class="visually-hidden"> ${post.title}</span></a></li>
`,
)}</ul>`
}
${
  (offset > 0 || offset + limit < total) &&
  html`<nav aria-label="Pages" class="actions">${offset > 0 && pageLink(Math.max(0, offset - limit), 'Previous page', 'prev')} ${offset + limit < total && pageLink(offset + limit, 'Next page', 'next')}</nav>`
}`,
    visitor,
    true,
  );
}

/** One post: its text, when it was written, and the ways to edit or delete it. */
export function showView(p: PostsPaths, post: Post, visitor?: Visitor): Html {
  return layout(
    p,
    post.title,
    html`<div class="post-body">${post.body}</div>
<dl class="meta">
<dt>Address</dt><dd>${p.posts.show({ post_id: post.id })}</dd>
<dt>Created</dt><dd>${when(post.createdAt)}</dd>
<dt>Updated</dt><dd>${when(post.updatedAt)}</dd>
</dl>
<div class="actions">
<a href="${p.posts.edit({ post_id: post.id })}">Edit</a>
${formTag(p.posts.destroy.form({ post_id: post.id }))}
<button class="danger">Delete this post</button>
</form>
</div>`,
    visitor,
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
export function newView(p: PostsPaths, state: FormState, visitor?: Visitor): Html {
  return layout(
    p,
    'New post',
    postForm(
      p,
      state,
      p.posts.create.form(),
      html`${field(state, 'id', 'Address', 'Letters, digits, - and _, up to 64: the post will live at /posts/<address>.')}
<input type="text" id="id" name="id" value="${state.id}" required pattern="[A-Za-z0-9_\\-]{1,64}"${described(state, 'id', true)}>`,
      'Create post',
    ),
    visitor,
  );
}

/** The form that replaces a post's title and body (sent as PUT through `_method`). */
export function editView(p: PostsPaths, state: FormState, visitor?: Visitor): Html {
  const path = p.posts.show({ post_id: state.id });
  return layout(
    p,
    'Edit post',
    html`<p>Editing <a href="${path}">${path}</a>.</p>
${postForm(p, state, p.posts.update.form({ post_id: state.id }), undefined, 'Save changes')}`,
    visitor,
  );
}

/** A form's opening tag and its hidden fields (`_method` for PUT and DELETE), as `.form()` gives them. */
function formTag(form: Form): Html {
  return html`<form method="${form.method.toLowerCase()}" action="${form.action}">
${Object.entries(form.fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}`;
}

function postForm(
  p: PostsPaths,
  state: FormState,
  form: Form,
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
${formTag(form)}
${idField}
${field(state, 'title', 'Title')}
<input type="text" id="title" name="title" value="${state.title}" required${described(state, 'title', false)}>
${field(state, 'body', 'Text', 'Optional, up to 100 000 characters.')}
<textarea id="body" name="body"${described(state, 'body', true)}>${state.body}</textarea>
${general.length > 0 && html`<p class="field-error">${general.join('; ')}</p>`}
<div class="actions"><button>${submit}</button> <a href="${p.posts.index()}">Cancel</a></div>
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

/**
 * What a refused form showed: the submitted values as text (a repeated field is not text, so it shows empty).
 */
function submitted(body: unknown, id?: string): FormState {
  const fields = (body !== null && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const text = (name: string): string => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
  return { id: id ?? text('id'), title: text('title'), body: text('body') };
}

/**
 * The page a browser gets for an error (the adapters' `errorPage` option, given the resource's
 * paths): a refused create or update form submission (422 from the schema or the handler, 409
 * for a taken id) is its form again with the messages beside the fields; any other error is the
 * problem in the site's layout.
 */
export function postsErrorPage(p: PostsPaths) {
  return (error: HttpError, req?: HandlerRequest<any, any, any, any>, requestId?: string): Html => {
    if (req !== undefined && (error.status === 422 || error.status === 409) && isFormSubmission(req)) {
      const errors = (error.errors ?? {}) as FieldErrors;
      if (req.route.name === 'posts.create') return newView(p, { ...submitted(req.body), errors });
      if (req.route.name === 'posts.update')
        return editView(p, { ...submitted(req.body, req.params.post_id as string), errors });
    }
    return errorView(p, error, requestId);
  };
}
