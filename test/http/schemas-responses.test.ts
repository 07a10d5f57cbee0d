import * as assert from 'uvu/assert';
import { html, HttpError, resource } from '../../core/index.js';
import { json } from '../support/http.js';
import { onEvery, withServers } from '../support/servers.js';

// checkResponses on every adapter: a body its response schema refuses, or a status the OpenAPI does
// not list, is a 500 reported to onError.

const lying = resource(
  'lies',
  {
    // A wrong body does not compile; past a cast (or from JavaScript) checkResponses catches it.
    index: () => [{ id: 1 }] as never,
    show: () => {
      throw new HttpError(418, 'a teapot');
    },
  },
  {
    schemas: {
      index: {
        response: {
          type: 'array',
          items: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        },
      },
      show: { response: { type: 'object' } },
    },
  },
);

const reported: string[] = [];
const responses = withServers('checkResponses', lying, {
  checkResponses: true,
  onError: (error) => void reported.push(String(error)),
});

responses(
  'a body that fails its response schema, or an undocumented status, is a reported 500',
  async ({ servers }) => {
    reported.length = 0;
    const index = await onEvery(servers, { path: '/lies' });
    assert.is(index.status, 500);
    const show = await onEvery(servers, { path: '/lies/1', headers: { Accept: 'application/json' } });
    assert.is(show.status, 500);
    // The client learns nothing of the mismatch: the detail is the developer's, through onError.
    assert.equal(json(show), { type: 'about:blank', title: 'Internal Server Error', status: 500 });
    assert.is(show.headers.vary, 'Accept');
    assert.match(
      reported[0]!,
      /lies\.index answered 200 with a body that does not match its response schema: 0\.id must be a string/,
    );
    assert.match(
      reported.at(-1)!,
      /lies\.show answered 418, which its OpenAPI operation does not list; declare 418 in schemas\.show\.errors/,
    );
  },
);

responses.run();

// What the table knows of forms is documented by default, so checkResponses (as validation.md recommends in
// development) lets the docs' form flow through: new and edit pages, a 303 after a form, the form again (422),
// a create answering a plain value (200).
const Note = {
  type: 'object',
  required: ['title'],
  properties: { title: { type: 'string', minLength: 1 } },
} as const;
const notes = resource(
  'notes',
  {
    new: (req, res) =>
      res.html(html`<form method="post" action="/notes"><label>Title <input name="title"></label></form>`),
    edit: (req, res) => res.html(html`<form><p>${req.params.note_id}</p></form>`),
    create: (req, res) =>
      req.body.title === 'token'
        ? { token: 't' }
        : req.body.title === 'again'
          ? res.html(html`<form><p role="alert">Try again</p></form>`, 422)
          : res.redirect(`/notes/${req.body.title}`, 303),
    update: (req) => ({ title: req.body.title }),
  },
  { schemas: { create: { body: Note, html: true }, update: { body: Note } } },
);
const formReported: string[] = [];
const forms = withServers('checkResponses and forms', notes, {
  checkResponses: true,
  crossSiteProtection: false,
  onError: (error) => void formReported.push(String(error)),
});

forms(
  'checkResponses :: the form flow passes with nothing declared beyond html: true',
  async ({ servers }) => {
    const page = { Accept: 'text/html' };
    const form = { ...page, 'Content-Type': 'application/x-www-form-urlencoded' };
    assert.is((await onEvery(servers, { path: '/notes/7/new', headers: page })).status, 200);
    assert.is((await onEvery(servers, { path: '/notes/7/edit', headers: page })).status, 200);
    const made = await onEvery(servers, {
      method: 'POST',
      path: '/notes',
      headers: form,
      body: 'title=first',
    });
    assert.is(made.status, 303, made.body);
    const again = await onEvery(servers, {
      method: 'POST',
      path: '/notes',
      headers: form,
      body: 'title=again',
    });
    assert.is(again.status, 422, again.body);
    const plain = await onEvery(servers, {
      method: 'PUT',
      path: '/notes/7',
      headers: { 'Content-Type': 'application/json' },
      body: '{"title":"x"}',
    });
    assert.is(plain.status, 200, plain.body);
    assert.equal(formReported, []);
  },
);

forms.run();
