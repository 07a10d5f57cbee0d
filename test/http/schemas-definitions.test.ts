import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as v from 'valibot';
import { z } from 'zod';
import { createListener } from '../../adapters/node.js';
import { resource, RouteDefinitionError } from '../../core/index.js';
import { ROOT } from '../support/paths.js';

// Schemas refused when a table is defined or mounted, and ajv loaded only for a table that validates.

const definitions = suite('schemas at definition');
const ok = () => null;

definitions('a misspelt schema key, a body on a bodiless action, a params schema naming no param', () => {
  const cases: Array<[() => unknown, RegExp]> = [
    [
      () => resource('posts', { create: ok }, { schemas: { create: { bdoy: {} } as never } }),
      /schema of posts#create has unknown key "bdoy" \(did you mean "body"\?\)/,
    ],
    [
      () => resource('posts', { index: ok }, { schemas: { index: { body: {} } as never } }),
      /posts#index reads no request body, so it cannot have a body schema/,
    ],
    [
      () =>
        resource(
          'posts',
          { show: ok },
          { schemas: { show: { params: { properties: { id: {} } } } } as never },
        ),
      /params schema of posts#show describes "id", which is not a param of its path \(post_id\)/,
    ],
    [
      () => resource('posts', { create: ok }, { schemas: { create: { body: 'title' } } as never }),
      /body schema of posts#create must be a JSON Schema object/,
    ],
    [
      () =>
        resource(
          'posts',
          { create: ok },
          { schemas: { create: { body: v.object({ t: v.string() }) } } as never },
        ),
      /body schema of posts#create cannot be converted to JSON Schema.*valibot offers no Standard JSON Schema converter/,
    ],
    [
      () =>
        resource(
          'posts',
          { create: ok },
          { schemas: { create: { body: z.object({ at: z.date() }) } } as never },
        ),
      /body schema of posts#create cannot be converted to JSON Schema/,
    ],
  ];
  for (const [define, message] of cases) {
    const error = (() => {
      try {
        define();
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    assert.instance(error, RouteDefinitionError, String(message));
    assert.match((error as Error).message, message);
  }
});

definitions(
  'a schema ajv refuses (a misspelt keyword) fails when the table is mounted, naming the route',
  () => {
    const broken = resource(
      'posts',
      { create: ok },
      { schemas: { create: { body: { type: 'object', maxPropertys: 2 } } } },
    );
    assert.throws(
      () => createListener(broken),
      (error: Error) =>
        error instanceof RouteDefinitionError &&
        /route posts\.create: its body schema is not valid JSON Schema \(2020-12\): .*maxPropertys/.test(
          error.message,
        ),
    );
  },
);

definitions(
  'a schema JSON Schema’s meta-schema refuses fails when mounted, whichever part of the request it checks',
  () => {
    const schema = { type: 'object', maxProperties: 'two' } as const;
    for (const part of ['body', 'query'] as const) {
      const broken = resource('posts', { create: ok }, { schemas: { create: { [part]: schema } } as never });
      assert.throws(
        () => createListener(broken),
        (error: Error) =>
          error instanceof RouteDefinitionError &&
          new RegExp(
            `route posts\\.create: its ${part} schema is not valid JSON Schema \\(2020-12\\): .*maxProperties must be integer`,
          ).test(error.message),
      );
    }
  },
);

definitions('a table that declares no schema never loads ajv', async () => {
  const script = `
    import { createRequire } from 'node:module';
    import { createListener } from './build/adapters/node.js';
    import { resource } from './build/core/index.js';
    const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/ajv/'));
    createListener(resource('posts', { index: () => [] }, { schemas: { index: { response: { type: 'array' } } } }));
    const before = loaded();
    createListener(resource('notes', { create: () => 1 }, { schemas: { create: { body: { type: 'object' } } } }));
    console.log(JSON.stringify([before, loaded()]));
  `;
  const { stdout } = await promisify(execFile)('node', ['--input-type=module', '-e', script], { cwd: ROOT });
  assert.equal(JSON.parse(stdout), [false, true]);
});

definitions.run();
