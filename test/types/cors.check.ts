// Type tests for cors(): the policy's shapes and its refusals, compiled by `tsc -p .` in `npm test`, never run.
import { resource, scope, type CrossOrigin, type Hook } from '../../core/index.js';
import { cors } from '../../core/features/cors/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

// The three ways to name the origins, and every option.
cors({ origins: ['https://a.example', 'https://b.example'] });
cors({ origins: '*' });
cors({ origins: '*', credentials: false });
cors({ origins: (origin) => origin.endsWith('.a.example'), credentials: true });
const full = cors({
  origins: ['https://a.example'],
  credentials: true,
  exposedHeaders: ['Location'],
  allowedHeaders: '*',
  maxAge: 600,
  methods: ['GET', 'POST'],
});

// A hook, so a scope or a resource takes it; its policy is data.
const posts = resource('posts', { index: () => [] }, { hooks: [cors({ origins: '*' })] });
scope({ hooks: [full] }, posts);
const asHook: Hook = full;
type _policy = Expect<Equal<typeof full.crossOrigin, CrossOrigin | undefined>>;
type _made = Expect<Equal<ReturnType<typeof cors>, Hook>>;

// @ts-expect-error: '*' cannot go with credentials (browsers refuse it)
cors({ origins: '*', credentials: true });
// @ts-expect-error: one origin is a list of one, not a string
cors({ origins: 'https://a.example' });
// @ts-expect-error: origins is required
cors({ credentials: true });
// @ts-expect-error: a method CORS grants is one a route answers, not OPTIONS (a preflight's own)
cors({ origins: '*', methods: ['OPTIONS'] });
// @ts-expect-error: maxAge is seconds, a number
cors({ origins: '*', maxAge: '600' });
// @ts-expect-error: an origin check answers true or false
cors({ origins: (origin: string) => origin });
// @ts-expect-error: unknown option
cors({ origins: '*', origin: 'https://a.example' });

void asHook;
