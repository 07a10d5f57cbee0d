// What a handler's req carries: the request's own fields and the methods handlers use, the same on every
// adapter, and none of the request path's state (holding the connection, writing the response, body flags).
import * as assert from 'uvu/assert';
import { hook, resource, scope } from '../../core/index.js';
import { onEvery, withServers } from '../support/servers.js';

/** Every property name reachable on `value` through ordinary property access: its own and its prototypes'. */
function reachable(value: object): string[] {
  const names = new Set<string>();
  for (let at: object | null = value; at !== null && at !== Object.prototype; at = Object.getPrototypeOf(at))
    for (const name of Object.getOwnPropertyNames(at)) if (name !== 'constructor') names.add(name);
  return [...names].sort();
}

const seen: Record<string, string[]> = {};
const probe = hook('probe', {
  onRequest: (req) => void (seen.hook = reachable(req)),
});
const table = scope(
  { hooks: [probe] },
  resource('things', {
    show: (req) => ({ names: reachable(req), constructorKeys: Object.getOwnPropertyNames(req.constructor) }),
  }),
);

const HANDLER_FIELDS = [
  'accepts',
  'allowed',
  'body',
  'context',
  'cookies',
  'error',
  'headers',
  'id',
  'ip',
  'log',
  'method',
  'params',
  'path',
  'query',
  'route',
  'signal',
  'toJSON',
  'url',
];
const PIPELINE_STATE = [
  'hold',
  'release',
  'write',
  'destroy',
  'closeAfter',
  'pass',
  'readBody',
  'bodyRead',
  'format',
];

const objects = withServers('the request object', table);

objects(
  'req :: the request’s fields and the methods handlers use, and none of the request path’s state',
  async ({ servers }) => {
    const answer = await onEvery(servers, { path: '/things/1' });
    const { names, constructorKeys } = JSON.parse(answer.body) as {
      names: string[];
      constructorKeys: string[];
    };
    assert.equal(names, HANDLER_FIELDS);
    for (const state of PIPELINE_STATE) assert.not.ok(names.includes(state), state);
    // The request path's own access (locate, matched, …) is by functions of its module, not statics either.
    assert.equal(constructorKeys.sort(), ['length', 'name', 'prototype']);
    assert.equal(seen.hook, HANDLER_FIELDS, 'a hook gets the same object');
  },
);

objects.run();
