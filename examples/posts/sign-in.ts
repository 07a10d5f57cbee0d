// /session: signing in with POSTS_TOKEN from a browser, and out; the session cookie then lets it write.
import { singular, type HandlerRequest } from 'sevenfold';
import type { Live } from 'sevenfold/live';
import { flash, flashes, localPath, sessionOf } from 'sevenfold/sessions';
import { matches, sessionSignedIn, WRITER } from './auth.js';
import { newStreamsTag, STREAMS_TAG } from './live.js';
import { page, type Visitor } from './views/layout.js';
import { signInView } from './views/sign-in.js';

/** Where a person lands after signing in or out when no page of this site was asked for. */
const HOME = '/posts';

const SCHEMAS = {
  new: {
    query: { type: 'object', properties: { next: { type: 'string', maxLength: 2000 } } },
    html: 'default',
    summary: 'The sign-in form',
  },
  create: {
    body: {
      type: 'object',
      required: ['token'],
      properties: {
        token: { type: 'string', maxLength: 1000 },
        next: { type: 'string', maxLength: 2000 },
      },
    },
    html: true,
    seeOther: 'the page asked for, or the list of posts',
  },
  destroy: { seeOther: 'the list of posts' },
} as const;

/** The page's visitor: what the layout shows around the form. */
export function visitorOf(req: HandlerRequest<any, any, any, any>): Visitor {
  return { flashes: flashes(req), signedIn: sessionSignedIn(req) };
}

/** Where to go after signing in: `next` when it is a page of this site, else all posts. */
const onward = (next: string | undefined): string => {
  const path = localPath(next);
  return path === '/' && next !== '/' ? HOME : path;
};

/**
 * The `session` singular resource, mounted only when `POSTS_TOKEN` is set: `GET /session/new` the form,
 * `POST /session` signs in (303 on, or the form again with 422), `DELETE /session` signs out (303), ending the
 * session's event streams through `changes` in every process.
 */
export function signInResource(changes?: Live) {
  return singular(
    'session',
    {
      new: (req) => page(signInView(HOME, onward(req.query.next), visitorOf(req))),
      async create(req, res) {
        if (!(await matches(req.body.token)))
          return page(
            signInView(HOME, onward(req.body.next), visitorOf(req), 'That token is not the right one.'),
            422,
          );
        // A new seal (a new IV) for the signed-in session: a cookie planted before carries none of it.
        const session = sessionOf(req);
        session.user = WRITER;
        session[STREAMS_TAG] = newStreamsTag();
        flash(req, 'notice', 'Signed in.');
        return res.redirect(onward(req.body.next), 303);
      },
      async destroy(req, res) {
        const session = sessionOf(req);
        const streams = session[STREAMS_TAG];
        // Signing out a visitor who never signed in changes nothing and says nothing.
        if (session.user !== undefined) {
          delete session.user;
          delete session[STREAMS_TAG];
          flash(req, 'notice', 'Signed out.');
        }
        if (typeof streams === 'string' && changes !== undefined) {
          try {
            await changes.disconnect(streams);
          } catch (error) {
            // The session ends all the same: its streams show only what anyone may watch.
            req.log.error({ err: error }, "signing out: the session's event streams could not be ended");
          }
        }
        return res.redirect(HOME, 303);
      },
    },
    { schemas: SCHEMAS },
  );
}
