// Type tests for hooks, scopes and inherited guards: compiled by `tsc -p .` in `npm test`, never run.
import { pino } from 'pino';
import {
  bearer,
  guard,
  hook,
  html,
  prefix,
  resource,
  scope,
  singular,
  type ErrorPage,
  type Logger,
} from '../../core/index.js';
import { requestId, requestLog } from '../../core/features/logging/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

const signedIn = bearer({ verify: () => ({ user: 'ada' }) });
const team = guard('team', () => ({ team: 'core' }));

const posts = resource('posts', { index: () => [] }, { before: [signedIn] });
const mine_ = resource('drafts', { index: () => [], create: () => ({}) }, { before: { create: [team] } });

// A child's handlers see what its parent's every-action guards add, then their own.
const comments = resource(
  'comments',
  {
    index(req) {
      type _ = Expect<Equal<typeof req.context, { user: string }>>;
      return req.context.user;
    },
    create(req) {
      type _ = Expect<Equal<typeof req.context, { user: string; team: string }>>;
      return req.context.team;
    },
  },
  { parent: posts, before: { create: [team] } },
);

// Grandchildren too, through a prefix.
singular(
  'like',
  {
    show(req) {
      type _ = Expect<Equal<typeof req.context, { user: string }>>;
      return req.context.user;
    },
  },
  { parent: prefix('/api', comments) as never as typeof comments },
);

// A parent's per-action guards are not inherited.
resource(
  'notes',
  {
    index(req) {
      // @ts-expect-error: `team` guards drafts#create only
      return req.context.team;
    },
  },
  { parent: mine_ },
);

// Every request has an id and a logger.
resource('ids', {
  index(req) {
    type _ = Expect<Equal<typeof req.id, string>>;
    const log: Logger = req.log;
    log.info({ id: req.id }, 'listed');
    // @ts-expect-error: the id is the hook's to set, not the handler's
    req.id = 'x';
    return [];
  },
});

// A hook's request may have no route (a table's hooks run before matching).
hook('named', {
  onRequest(req) {
    // @ts-expect-error: route is undefined before matching
    void req.route.name;
    req.id = 'set-by-a-hook';
    return undefined;
  },
  onSend(_req, out) {
    out.headers['X-Ok'] = '1';
    return { ...out, status: 304 };
  },
});
hook('wrong', {
  // @ts-expect-error: a response's status is a number
  onSend: (_req, out) => ({ ...out, status: '304' }),
});

// @ts-expect-error: a scope takes guards and hooks, not misspellings
scope({ gaurds: [signedIn] }, posts);
// @ts-expect-error: hooks are made by hook()
scope({ hooks: [() => {}] }, posts);

// The ready-made hooks: requestId's options, requestLog's logger (pino's fits) and options.
scope({ hooks: [requestId(), requestId({ header: 'X-Correlation-Id' }), requestLog(pino())] }, posts);
// @ts-expect-error: a header name is a string
requestId({ header: 7 });
// @ts-expect-error: console has no fatal() and no child(), so it is not a pino-compatible logger
requestLog(console);
requestLog(pino(), {
  redact: ['X-Api-Key'],
  level: (req, status) => (req.route === undefined || status < 400 ? 'info' : 'warn'),
});
// @ts-expect-error: a level is one of pino's, or silent
requestLog(pino(), { level: () => 'loud' });
hook('reads-the-error', {
  onSend(req) {
    const error: unknown = req.error;
    void error;
    // @ts-expect-error: the error is the request path's to record, a hook's to read
    req.error = new Error('x');
  },
});

// An error page gets the request id as its third argument, when the request has one.
const named: ErrorPage = (error, _request, requestId) => {
  type _ = Expect<Equal<typeof requestId, string | undefined>>;
  return html`<p>${error.status} ${requestId ?? ''}</p>`;
};
void named;
// @ts-expect-error: a hook's parts are onRequest and onSend (fastify's names)
hook('old-names', { request: () => undefined });
