import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatRoutes, openapi, resource, RouteDefinitionError, scope } from '../../core/index.js';
import { cors, type CorsPolicy } from '../../core/features/cors/index.js';
import { needsPreflight } from '../../core/request/cross-site.js';

// cors() as data: the policy checked when it is declared (each mistake names the fix), its two rules (grants,
// preflight), the cross-site rule it relies on, and what the listing and OpenAPI say of it.

const A = 'https://a.example';

test('cors() :: every mistake in a policy is a RouteDefinitionError that names the fix', () => {
  const cases: Array<[unknown, RegExp]> = [
    [
      undefined,
      /cors\(policy\): policy must be an object such as \{ origins: \['https:\/\/app\.example'\] \}/,
    ],
    [
      { origin: [A] },
      /unknown option "origin" \(did you mean "origins"\?\); cors takes origins, credentials/,
    ],
    [{}, /"origins" must be a list of origins .*'\*' for any page, or a function .*got undefined/],
    [{ origins: A }, /"origins" must be a list of origins .*got "https:\/\/a\.example"/],
    [{ origins: [] }, /"origins" is empty, so no page could call/],
    [
      { origins: ['https://a.example/'] },
      /"https:\/\/a\.example\/" is not an origin; .* e\.g\. "https:\/\/a\.example"$/,
    ],
    [
      { origins: ['https://A.example'] },
      /"https:\/\/A\.example" is not an origin; .* e\.g\. "https:\/\/a\.example"$/,
    ],
    [{ origins: ['https://a.example:443'] }, /e\.g\. "https:\/\/a\.example"$/],
    [{ origins: ['a.example'] }, /"a\.example" is not an origin; .* e\.g\. "https:\/\/app\.example"$/],
    [{ origins: [7] }, /7 is not an origin/],
    [{ origins: ['null'] }, /"null" cannot be allowed: it is the origin of sandboxed frames and local files/],
    [{ origins: [A, '*'] }, /'\*' goes alone, as origins: '\*', not in a list/],
    [
      { origins: '*', credentials: true },
      /credentials: true cannot go with origins: '\*' .*list the origins/,
    ],
    [{ origins: [A], credentials: 'yes' }, /"credentials" must be true or false, got "yes"/],
    [{ origins: [A], maxAge: -1 }, /"maxAge" must be a whole number of seconds \(0 or more\), got -1/],
    [{ origins: [A], maxAge: 1.5 }, /got 1\.5/],
    [{ origins: [A], methods: [] }, /"methods" must be a non-empty list such as \['GET', 'POST'\], got \[\]/],
    [
      { origins: [A], methods: ['GET', 'TRACE'] },
      /methods\[1\] must be one of GET, HEAD, POST, PUT, PATCH, DELETE, got "TRACE"/,
    ],
    [{ origins: [A], methods: ['OPTIONS'] }, /methods\[0\] must be one of/],
    [
      { origins: [A], exposedHeaders: 'Location' },
      /"exposedHeaders" must be a list of header names, got "Location"/,
    ],
    [
      { origins: [A], exposedHeaders: ['X Bad'] },
      /exposedHeaders\[0\] must be a header name such as "Location", got "X Bad"/,
    ],
    [{ origins: [A], allowedHeaders: ['ok', 'a\r\nb'] }, /allowedHeaders\[1\] must be a header name/],
  ];
  for (const [policy, message] of cases) {
    try {
      cors(policy as CorsPolicy);
      assert.unreachable(`${JSON.stringify(policy)} was accepted`);
    } catch (error) {
      assert.instance(error, RouteDefinitionError, JSON.stringify(policy));
      assert.match((error as Error).message, /^cors\(policy\): /);
      assert.match((error as Error).message, message);
    }
  }
});

test('cors() :: a hook named cors, frozen, whose crossOrigin part applies the policy, every option filled in', () => {
  const made = cors({ origins: [A] });
  assert.is(made.kind, 'hook');
  assert.is(made.name, 'cors');
  assert.ok(Object.isFrozen(made) && Object.isFrozen(made.crossOrigin));
  assert.is(
    made.onRequest,
    undefined,
    'nothing to do before matching: preflights are answered from the table',
  );
  // The defaults, as a preflight shows them: the usual request headers, no credentials, no max-age.
  assert.equal(made.crossOrigin!.preflight(A, ['GET'], 'GET, HEAD, OPTIONS', undefined).headers, {
    Allow: 'GET, HEAD, OPTIONS',
    Vary: 'Origin',
    'Access-Control-Allow-Origin': A,
    'Access-Control-Allow-Methods': 'GET',
    'Access-Control-Allow-Headers':
      'Accept, Authorization, Content-Type, If-Match, If-None-Match, X-Request-Id',
  });
  const given = [A];
  const copy = cors({ origins: given });
  given.push('https://evil.example');
  assert.not.ok(
    copy.crossOrigin!.grants('https://evil.example', 'GET'),
    'the policy is a copy: changing the list later changes nothing',
  );
  assert.is(
    cors({ origins: ['https://b.example'] }).crossOrigin!.key,
    made.crossOrigin!.key,
    'alike policies share a key',
  );
  assert.is.not(cors({ origins: [A], maxAge: 5 }).crossOrigin!.key, made.crossOrigin!.key);
});

test('Cors.grants() :: listed origins exactly, as browsers write them; a function sees well-formed ones only', () => {
  const listed = cors({ origins: [A, 'http://localhost:8080'] }).crossOrigin!;
  const cases: Array<[string, boolean]> = [
    [A, true],
    ['http://localhost:8080', true],
    ['https://a.example:443', false],
    ['http://a.example', false],
    ['https://b.example', false],
    ['https://a.example.evil.example', false],
    ['null', false],
    ['', false],
    [`${A}, https://b.example`, false],
  ];
  for (const [origin, expected] of cases) assert.is(listed.grants(origin, 'GET'), expected, origin);

  const asked: string[] = [];
  const checked = cors({
    origins: (origin) => (asked.push(origin), origin.endsWith('.a.example')),
  }).crossOrigin!;
  assert.ok(checked.grants('https://app.a.example', 'POST'));
  assert.not.ok(checked.grants('https://a.example', 'POST'));
  for (const malformed of ['null', 'https://x.a.example/', 'https://u@x.a.example', 'x.a.example', ''])
    assert.not.ok(checked.grants(malformed, 'GET'), malformed);
  assert.equal(
    asked,
    ['https://app.a.example', 'https://a.example'],
    'the function never sees a malformed one',
  );

  assert.ok(
    cors({ origins: '*' }).crossOrigin!.grants('null', 'DELETE'),
    "'*' is any page, sandboxed ones included",
  );
});

test('Cors.grants() :: methods narrows what is granted: HEAD with GET, OPTIONS always', () => {
  const reads = cors({ origins: [A], methods: ['GET'] }).crossOrigin!;
  assert.equal(
    ['GET', 'HEAD', 'OPTIONS', 'POST', 'DELETE'].map((method) => reads.grants(A, method)),
    [true, true, true, false, false],
  );
});

test('Cors.preflight() :: the 204 that grants it, headers a preflight asks reflected only as header names', () => {
  const policy = cors({
    origins: [A],
    credentials: true,
    maxAge: 600,
    allowedHeaders: ['Content-Type'],
  }).crossOrigin!;
  assert.equal(policy.preflight(A, ['GET', 'HEAD', 'POST'], 'GET, HEAD, POST, OPTIONS', 'x-other'), {
    status: 204,
    headers: {
      Allow: 'GET, HEAD, POST, OPTIONS',
      Vary: 'Origin',
      'Access-Control-Allow-Origin': A,
      'Access-Control-Allow-Methods': 'GET, HEAD, POST',
      'Access-Control-Allow-Headers': 'Content-Type',
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Max-Age': '600',
    },
    body: '',
  });
  const any = cors({ origins: '*', allowedHeaders: '*' }).crossOrigin!;
  const reflected = any.preflight(A, ['PUT'], 'PUT, OPTIONS', 'content-type, x-a, bad header, x\u00e9');
  assert.equal(reflected.headers, {
    Allow: 'PUT, OPTIONS',
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Methods': 'PUT',
    'Access-Control-Allow-Headers': 'content-type, x-a',
  });
});

test('needsPreflight() :: what a browser sends from another origin only after a granted preflight', () => {
  const cases: Array<[string, string | undefined, boolean]> = [
    ['POST', 'application/json', true],
    ['POST', 'application/json; charset=utf-8', true],
    ['POST', 'application/x-www-form-urlencoded', false],
    ['POST', 'multipart/form-data; boundary=x', false],
    ['POST', 'TEXT/PLAIN;charset=UTF-8', false],
    ['POST', undefined, false],
    ['PUT', undefined, true],
    ['PUT', 'application/x-www-form-urlencoded', true],
    ['PATCH', 'application/json', true],
    ['DELETE', undefined, true],
  ];
  for (const [method, type, expected] of cases)
    assert.is(needsPreflight(method, type), expected, `${method} ${type}`);
});

const posts = resource('posts', { index: () => [], create: () => ({}), destroy: () => undefined });

test('cors :: the listing names it in the Hooks column, and before matching when a scope has it', () => {
  const listed = formatRoutes(scope({ hooks: [cors({ origins: [A] })] }, posts));
  assert.match(listed, /posts\.index +GET +\/posts +posts#index +cors\n/);
  assert.match(listed, /Around every request, misses included: cors/);
  const own = resource('notes', { index: () => [] }, { hooks: [cors({ origins: '*' })] });
  assert.match(formatRoutes(own), /notes\.index +GET +\/notes +notes#index +cors/);
});

test('cors :: OpenAPI lists the headers every answer of its routes may carry, on the methods it grants', () => {
  const document = openapi(
    scope(
      { hooks: [cors({ origins: [A], credentials: true, exposedHeaders: ['Location'], methods: ['GET'] })] },
      posts,
    ),
    { title: 'posts', version: '1' },
  ) as { paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>> };
  const index = document.paths['/posts']!.get!.responses;
  for (const response of Object.values(index))
    assert.equal(Object.keys(response.headers ?? {}), [
      'Access-Control-Allow-Origin',
      'Access-Control-Allow-Credentials',
      'Access-Control-Expose-Headers',
      'Vary',
    ]);
  const create = document.paths['/posts']!.post!.responses;
  assert.ok(
    Object.values(create).every((response) => !('Access-Control-Allow-Origin' in (response.headers ?? {}))),
    'POST is not granted',
  );
  const open = openapi(scope({ hooks: [cors({ origins: '*' })] }, posts), { title: 'p', version: '1' }) as {
    paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>;
  };
  assert.equal(Object.keys(open.paths['/posts']!.post!.responses['201']!.headers!), [
    'Location',
    'Access-Control-Allow-Origin',
  ]);
});

test.run();
