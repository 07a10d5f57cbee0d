// Type tests for signedIn() and flash(): compiled by `tsc -p .` in `npm test`, never run.
import { resource } from '../../core/index.js';
import { flash, flashes, signedIn, type Flash } from '../../core/features/sessions/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

interface Member {
  readonly id: string;
}

resource(
  'drafts',
  {
    index(req, res) {
      type _ = Expect<Equal<typeof req.context, { user: Member }>>;
      const shown = flashes(req);
      type __ = Expect<Equal<typeof shown, readonly Flash[]>>;
      // @ts-expect-error: the guard adds user, nothing else
      void req.context.admin;
      flash(req, 'notice', 'Listed.');
      // @ts-expect-error: a message is text
      flash(req, 'notice', 42);
      void res;
      return [];
    },
  },
  { before: [signedIn<Member>()] },
);

resource(
  'notes',
  {
    index(req) {
      type _ = Expect<Equal<typeof req.context, { member: string }>>;
      return req.context.member;
    },
  },
  { before: [signedIn<string, 'member'>({ key: 'member' })] },
);
