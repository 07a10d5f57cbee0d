// What the conformance tests share: widgets, a resource whose handlers echo what they were given,
// and the suite that serves it on every adapter and checks that each case answers the same bytes on each.
import { suite, type Test } from 'uvu';
import * as assert from 'uvu/assert';
import { html, HttpError, resource, trustedHtml, type HandlerRequest } from '../../core/index.js';
import { exchange, parseResponse, raw, requestText, type RawRequest, type RawResponse } from './http.js';
import { startAll } from './servers.js';
import { inProcess, sameAnswer } from './in-process.js';
import { toFetch } from '../../adapters/fetch.js';

// Handlers that echo what they were given, so the wire shows what each adapter passed in.
export const widgets = resource('widgets', {
  index: (req) => ({ url: req.url, query: { ...req.query } }),
  show(req) {
    const id = req.params.widget_id;
    if (id === 'boom') throw new Error('secret detail at /srv/app/widgets.js:12');
    if (id === 'reject') return Promise.reject(new TypeError('rejected'));
    if (id === 'missing') throw new HttpError(404, 'no widget "missing"');
    if (id === 'crlf')
      throw new HttpError(409, 'taken', { headers: { 'X-Injected': 'a\r\nSet-Cookie: x=1' } });
    if (id === 'nothing') return undefined;
    if (id === 'function') return () => 1;
    if (id === 'map') return new Map([['a', 1]]);
    if (id === 'set') return new Set([1]);
    if (id === 'hidden')
      return new (class Hidden {
        #state = 1;
        get state() {
          return this.#state;
        }
      })();
    if (id === 'dated') return new Date(0);
    if (id === 'late') return new Promise((resolve) => setTimeout(() => resolve({ late: true }), 20));
    return {
      params: { ...req.params },
      proto: !Object.prototype.isPrototypeOf(req.params) && !('toString' in req.params),
    };
  },
  new: (req, res) => res.html(html`<form>${req.params.widget_id.length}</form>`),
  edit: (req: HandlerRequest<{ widget_id: string }>, res) =>
    req.accepts('application/json', 'text/html') === 'text/html'
      ? res.html(trustedHtml('<h1>edit</h1>'))
      : { edit: req.params.widget_id },
  create: (req, res) => res.created('/widgets/1', { body: req.body }),
  update(req, res) {
    if (req.params.widget_id === 'badheader') return res.header('X-Bad', 'a\nb').json({});
    return { id: req.params.widget_id, body: req.body };
  },
  destroy: () => undefined,
});

export const jsonHeaders = { 'Content-Type': 'application/json' };

/** One request (or raw bytes) and the check its answer must pass on every adapter. */
export interface Case {
  readonly name: string;
  readonly request: RawRequest | Buffer;
  check(response: RawResponse): void;
}

/** The servers a conformance suite runs on: widgets on every adapter. */
export type Servers = Awaited<ReturnType<typeof startAll>>;

/**
 * A suite serving widgets on every adapter, with a test for each case: the check passes, every
 * adapter answers the same bytes, and each still answers a good request afterwards.
 */
export function conformanceSuite(name: string, cases: readonly Case[]): Test<{ servers: Servers }> {
  const conformance = suite<{ servers: Servers }>(name, { servers: [] });
  const handler = toFetch(widgets, { onError: () => {}, checkResponses: true });
  conformance.before(async (context) => void (context.servers = await startAll(widgets)));
  conformance.after(({ servers }) =>
    Promise.all(servers.map(({ running }) => running.close())).then(() => undefined),
  );
  for (const c of cases) {
    conformance(`${c.name} :: same bytes on every adapter`, async ({ servers }) => {
      const answers: Array<[string, RawResponse]> = [];
      for (const { name, running } of servers) {
        const bytes = Buffer.isBuffer(c.request) ? c.request : requestText(c.request);
        const response = parseResponse(await exchange(running.url, bytes));
        try {
          c.check(response);
        } catch (error) {
          (error as Error).message = `[${name}] ${(error as Error).message}`;
          throw error;
        }
        answers.push([name, response]);
      }
      const [first, ...rest] = answers;
      for (const [name, response] of rest)
        assert.is(response.wire, first![1].wire, `${name} differs from ${first![0]}`);
      // In process through toFetch(): the same answer with no socket (raw bytes are HTTP/1.1 framing, the socket's).
      if (!Buffer.isBuffer(c.request)) {
        const answer = await inProcess(handler, c.request);
        c.check(answer);
        sameAnswer(answer, first![1], `toFetch differs from ${first![0]}`);
      }
      // The server still answers a good request afterwards.
      for (const { running } of servers)
        assert.is((await raw(running.url, { path: '/widgets/ok' })).status, 200);
    });
  }
  return conformance;
}
