// Type tests for signedIn() and res.flash(): compiled by `tsc -p .` in `npm test`, never run.
import { resource, signedIn, type Flash } from '../../core/index.js';

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
      type __ = Expect<Equal<typeof req.flashes, readonly Flash[]>>;
      // @ts-expect-error: the guard adds user, nothing else
      void req.context.admin;
      res.flash('notice', 'Listed.');
      // @ts-expect-error: a message is text
      res.flash('notice', 42);
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
