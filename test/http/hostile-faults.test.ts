import * as assert from 'uvu/assert';
import { expectProblem, get } from '../support/http.js';
import { addCases, hostileSuite, type Case } from '../support/hostile.js';

// Handlers that fail (throw, reject, never answer, answer late, fail while the error is written),
// from raw sockets on every adapter: a bare 500 or 503 that leaks nothing.
const CASES: Case[] = [
  // Faults
  {
    name: 'handler throws: bare 500',
    bytes: get('/faults/throw'),
    check: (r) => {
      expectProblem(500)(r);
      assert.is(r.body, '{"type":"about:blank","title":"Internal Server Error","status":500}');
    },
  },
  { name: 'handler rejects: bare 500', bytes: get('/faults/reject'), check: expectProblem(500) },
  {
    name: 'handler never answers: 503 after handlerTimeout',
    bytes: get('/faults/never'),
    check: expectProblem(503),
  },
  {
    name: 'handler answers after the timeout: 503, late answer dropped',
    bytes: get('/faults/late'),
    check: expectProblem(503),
  },
  {
    name: 'error while writing the error: bare 500 with its own reason phrase',
    bytes: get('/faults/bad-error'),
    check: (r) => {
      expectProblem(500)(r);
      assert.match(r.wire, /^HTTP\/1\.1 500 Internal Server Error\r\n/);
      assert.is(r.headers['x-broken'], undefined);
    },
  },
  { name: 'result with no JSON form: 500', bytes: get('/faults/bigint'), check: expectProblem(500) },
];

const hostile = hostileSuite('hostile: faults');
addCases(hostile, CASES);
hostile.run();
