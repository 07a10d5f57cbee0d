import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isHost, splitTarget } from '../../core/request/target.js';

// The request target and the Host it is sent to, read as RFC 3986 and RFC 9110 say: nothing routes by a path
// hidden in an authority.

test('splitTarget() :: origin form, and absolute form by what follows the authority, which ends at / ? or #', () => {
  const cases: Array<[string, { path: string; search: string } | undefined]> = [
    ['/posts?limit=2#top', { path: '/posts', search: 'limit=2' }],
    ['http://x/posts/7?a=1', { path: '/posts/7', search: 'a=1' }],
    ['HTTPS://x:8080/posts', { path: '/posts', search: '' }],
    ['http://x', { path: '/', search: '' }],
    ['http://x?/healthz', { path: '/', search: '/healthz' }],
    ['http://x#/healthz', { path: '/', search: '' }],
    ['ftp://x/healthz', undefined],
    ['*', undefined],
    ['posts', undefined],
  ];
  for (const [target, expected] of cases) assert.equal(splitTarget(target), expected, target);
});

test('isHost() :: a host name or address and a port, nothing a runtime could take for a path', () => {
  for (const host of [
    'example.com',
    'EXAMPLE.com.',
    '127.0.0.1:4231',
    '[::1]:8080',
    ':8080',
    '',
    'xn--bcher-kva.example',
  ])
    assert.ok(isHost(host), host);
  for (const host of ['x/healthz', 'x?', 'x#', 'a@b', 'a b', 'a,b', 'a\\b', 'bücher.example', '[v1.fe]'])
    assert.not.ok(isHost(host), host);
});

test.run();
