import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { html, HttpError, resource } from '../../core/index.js';
import { isFormSubmission } from '../../core/request/accept.js';
import { isCrossSite, isFormType, trustedOrigins } from '../../core/request/cross-site.js';
import { isUrlencoded, overriddenMethod } from '../../core/request/method-override.js';
import { json, raw, type RawRequest } from '../support/http.js';
import { startAll } from '../support/servers.js';
import { createListener, type ServeOptions } from '../../adapters/node.js';

// ---- the pure rules (core/request/method-override.ts, core/request/cross-site.ts)

test('overriddenMethod :: PUT, PATCH and DELETE in any case, the field removed; nothing else', () => {
  const cases: Array<[unknown, string | undefined]> = [
    ['PUT', 'PUT'],
    ['put', 'PUT'],
    ['Patch', 'PATCH'],
    ['DELETE', 'DELETE'],
    ['GET', undefined],
    ['POST', undefined],
    ['HEAD', undefined],
    ['PUTX', undefined],
    ['', undefined],
    [['PUT', 'DELETE'], undefined],
    [undefined, undefined],
  ];
  for (const [value, expected] of cases) {
    const body: Record<string, unknown> = { title: 't' };
    if (value !== undefined) body._method = value;
    assert.is(overriddenMethod(body), expected, JSON.stringify(value));
    assert.is('_method' in body, value !== undefined && expected === undefined, JSON.stringify(value));
  }
});

test('isCrossSite :: Sec-Fetch-Site decides where sent, else Origin against Host; trusted origins pass', () => {
  const trusted = new Set(['https://app.example']);
  const cases: Array<[string | undefined, string | undefined, boolean]> = [
    ['same-origin', undefined, false],
    ['none', undefined, false],
    ['same-site', undefined, true],
    ['cross-site', undefined, true],
    ['cross-site', 'https://evil.example', true],
    ['cross-site', 'https://app.example', false],
    [undefined, 'http://api.local:3000', false],
    [undefined, 'http://API.local:3000', false],
    [undefined, 'http://api.local:4000', true],
    [undefined, 'https://evil.example', true],
    [undefined, 'null', true],
    [undefined, 'not a url', true],
    [undefined, undefined, false],
  ];
  for (const [secFetchSite, origin, expected] of cases) {
    assert.is(
      isCrossSite({ secFetchSite, origin, host: 'api.local:3000' }, trusted),
      expected,
      `${secFetchSite} ${origin}`,
    );
  }
});

test('isFormType, isUrlencoded :: the bodies a page on another site can send without a preflight', () => {
  for (const type of [
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'text/plain;charset=UTF-8',
    'TEXT/PLAIN',
  ])
    assert.ok(isFormType(type), type);
  for (const type of ['application/json', 'application/x-www-form-urlencodedx', undefined, ''])
    assert.not.ok(isFormType(type), String(type));
  assert.ok(isUrlencoded('application/x-www-form-urlencoded; charset=utf-8'));
  assert.not.ok(isUrlencoded('multipart/form-data'));
});

test('trustedOrigins :: each entry must be an origin, and the error says how to write one', () => {
  assert.equal(
    [...trustedOrigins(['https://app.example', 'http://localhost:5173'])],
    ['https://app.example', 'http://localhost:5173'],
  );
  for (const bad of ['https://app.example/', 'app.example', 'https://app.example/path'])
    assert.throws(() => trustedOrigins([bad]), /is not an origin; write scheme, host and port only/);
});

test('isFormSubmission :: a form body and an Accept that prefers HTML; curl and API clients are not browsers', () => {
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  const form = 'application/x-www-form-urlencoded';
  const cases: Array<[string | undefined, string | undefined, boolean]> = [
    [form, browser, true],
    ['multipart/form-data; boundary=x', browser, true],
    ['Application/X-WWW-Form-Urlencoded; charset=utf-8', 'text/html', true],
    [form, 'text/html;q=0.9, application/json', false],
    [form, 'application/json', false],
    [form, '*/*', false],
    [form, undefined, false],
    ['application/json', browser, false],
    ['text/plain', browser, false],
    [undefined, browser, false],
  ];
  for (const [type, accept, expected] of cases) {
    const headers = { 'content-type': type, accept };
    assert.is(isFormSubmission({ headers }), expected, `${type} / ${accept}`);
  }
});

test.run();

// ---- through every adapter

// Handlers that echo the method and body they were given.
const notes = resource('notes', {
  index: () => [],
  show: (req) => ({ id: req.params.note_id }),
  create: (req, res) => res.created('/notes/1', { method: req.method, body: req.body }),
  update: (req) => ({ method: req.method, body: req.body }),
  destroy: () => undefined,
});

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

async function onEveryAdapter(
  options: ServeOptions | undefined,
  request: RawRequest,
  check: (response: Awaited<ReturnType<typeof raw>>) => void,
): Promise<void> {
  const servers = await startAll(notes, options);
  try {
    const wires: string[] = [];
    for (const { name, running } of servers) {
      const response = await raw(running.url, request);
      try {
        check(response);
      } catch (error) {
        (error as Error).message = `[${name}] ${(error as Error).message}`;
        throw error;
      }
      wires.push(response.wire.replace(/^Date: .*$/m, ''));
    }
    for (const wire of wires.slice(1)) assert.is(wire, wires[0], 'the adapters answered different bytes');
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
}

const override = suite('method override');

override('a form POST with _method=PUT is routed as PUT, without the field in the body', () =>
  onEveryAdapter(
    undefined,
    { method: 'POST', path: '/notes/5', headers: FORM, body: 'title=x&_method=PUT' },
    (r) => {
      assert.is(r.status, 200);
      assert.equal(json(r), { method: 'PUT', body: { title: 'x' } });
    },
  ),
);

override(
  '_method=delete reaches destroy; PATCH where there is no PATCH route is 405 with its Allow',
  async () => {
    await onEveryAdapter(
      undefined,
      { method: 'POST', path: '/notes/5', headers: FORM, body: '_method=delete' },
      (r) => assert.is(r.status, 204),
    );
    await onEveryAdapter(
      undefined,
      { method: 'POST', path: '/notes/5', headers: FORM, body: '_method=PATCH' },
      (r) => {
        assert.is(r.status, 405);
        assert.is(r.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
        assert.match(json(r).detail, /^PATCH is not allowed here/);
      },
    );
  },
);

override(
  'nothing else is overridden: GET, a JSON body, a query parameter, or with the option off',
  async () => {
    await onEveryAdapter(
      undefined,
      { method: 'POST', path: '/notes', headers: FORM, body: '_method=GET&title=t' },
      (r) => {
        assert.is(r.status, 201);
        assert.equal(json(r), { method: 'POST', body: { _method: 'GET', title: 't' } });
      },
    );
    const member405 = (r: Awaited<ReturnType<typeof raw>>) => assert.is(r.status, 405);
    await onEveryAdapter(
      undefined,
      {
        method: 'POST',
        path: '/notes/5',
        headers: { 'Content-Type': 'application/json' },
        body: '{"_method":"PUT"}',
      },
      member405,
    );
    await onEveryAdapter(
      undefined,
      { method: 'POST', path: '/notes/5?_method=PUT', headers: FORM, body: 'title=x' },
      member405,
    );
    await onEveryAdapter(
      { methodOverride: false },
      { method: 'POST', path: '/notes/5', headers: FORM, body: '_method=PUT' },
      member405,
    );
  },
);

override('a form body over the limit is 413 before any route is chosen', () =>
  onEveryAdapter(
    { bodyLimit: 16 },
    { method: 'POST', path: '/notes/5', headers: FORM, body: `_method=PUT&t=${'x'.repeat(40)}` },
    (r) => assert.is(r.status, 413),
  ),
);

override.run();

const crossSite = suite('cross-site form protection');
const post = (headers: Record<string, string>, body = 'title=t'): RawRequest => ({
  method: 'POST',
  path: '/notes',
  headers,
  body,
});

crossSite(
  'a request from another site is 403 problem+json, whatever its body; the same origin, and clients without the headers, pass',
  async () => {
    const refused = (r: Awaited<ReturnType<typeof raw>>) => {
      assert.is(r.status, 403);
      assert.is(r.headers['content-type'], 'application/problem+json');
      assert.match(json(r).detail, /another site/);
    };
    const created = (r: Awaited<ReturnType<typeof raw>>) => assert.is(r.status, 201);
    await onEveryAdapter(undefined, post({ ...FORM, 'Sec-Fetch-Site': 'cross-site' }), refused);
    await onEveryAdapter(
      undefined,
      post({ 'Content-Type': 'text/plain', 'Sec-Fetch-Site': 'cross-site' }),
      refused,
    );
    await onEveryAdapter(undefined, post({ ...FORM, Origin: 'https://evil.example' }), refused);
    await onEveryAdapter(
      undefined,
      {
        method: 'POST',
        path: '/notes/5',
        headers: { ...FORM, 'Sec-Fetch-Site': 'cross-site' },
        body: '_method=DELETE',
      },
      refused,
    );
    await onEveryAdapter(undefined, post({ ...FORM, 'Sec-Fetch-Site': 'same-origin' }), created);
    await onEveryAdapter(undefined, post({ ...FORM, Origin: 'http://test.local' }), created);
    await onEveryAdapter(undefined, post(FORM), created);
    // JSON, as Go's CrossOriginProtection does: a page that may call the API cross-site is a trusted origin.
    await onEveryAdapter(
      undefined,
      post({ 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' }, '{"title":"t"}'),
      refused,
    );
  },
);

crossSite(
  'trustedOrigins lets a listed site post; crossSiteProtection: false turns the check off',
  async () => {
    const created = (r: Awaited<ReturnType<typeof raw>>) => assert.is(r.status, 201);
    const fromApp = post({ ...FORM, 'Sec-Fetch-Site': 'cross-site', Origin: 'https://app.example' });
    await onEveryAdapter({ trustedOrigins: ['https://app.example'] }, fromApp, created);
    await onEveryAdapter(
      { crossSiteProtection: false },
      post({ ...FORM, 'Sec-Fetch-Site': 'cross-site' }),
      created,
    );
  },
);

crossSite.run();

const pages = suite('errors for browsers');

pages(
  'a browser gets an HTML error page, escaped; other clients problem+json; both Vary: Accept',
  async () => {
    const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
    await onEveryAdapter(undefined, { path: '/notes/5/<script>', headers: { Accept: browser } }, (r) => {
      assert.is(r.status, 404);
      assert.is(r.headers['content-type'], 'text/html; charset=utf-8');
      assert.is(r.headers.vary, 'Accept');
      assert.match(r.body, /^<!doctype html>\n<html lang="en">/);
      assert.match(r.body, /<title>404 Not Found<\/title>/);
    });
    await onEveryAdapter(
      undefined,
      { method: 'DELETE', path: '/notes', headers: { Accept: browser } },
      (r) => {
        assert.is(r.status, 405);
        assert.is(r.headers.allow, 'GET, HEAD, POST, OPTIONS');
        assert.match(r.body, /<p>DELETE is not allowed here; allowed: GET, HEAD, POST, OPTIONS<\/p>/);
      },
    );
    await onEveryAdapter(undefined, { path: '/nowhere', headers: { Accept: '*/*' } }, (r) => {
      assert.is(r.headers['content-type'], 'application/problem+json');
      assert.is(r.headers.vary, 'Accept');
    });
  },
);

pages(
  "errorPage: the app's own page for browsers, on every adapter; one that throws falls back",
  async () => {
    const browser = { Accept: 'text/html' };
    const mine = (error: HttpError) =>
      html`<!doctype html><title>${error.status}</title><p>${error.message}</p>`;
    await onEveryAdapter({ errorPage: mine }, { path: '/nowhere', headers: browser }, (r) => {
      assert.is(r.status, 404);
      assert.is(r.body, '<!doctype html><title>404</title><p>no route matches this path</p>');
    });
    await onEveryAdapter({ errorPage: mine }, { path: '/nowhere', headers: { Accept: '*/*' } }, (r) =>
      assert.is(r.headers['content-type'], 'application/problem+json'),
    );
    const reported: unknown[] = [];
    const broken = () => {
      throw new Error('the template is broken');
    };
    await onEveryAdapter(
      { errorPage: broken, onError: (error) => reported.push(error) },
      { path: '/nowhere', headers: browser },
      (r) => {
        assert.is(r.status, 404);
        assert.match(r.body, /<title>404 Not Found<\/title>/);
      },
    );
    assert.is(reported.length, 3);
    assert.throws(
      () => createListener(notes, { errorPage: 'page' as never }),
      /errorPage must be a function/,
    );
  },
);

pages.run();
