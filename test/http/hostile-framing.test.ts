import * as assert from 'uvu/assert';
import { expectProblem } from '../support/http.js';
import { addCases, closes, hostileSuite, status, type Case } from '../support/hostile.js';

// Hostile HTTP framing, from raw sockets on every adapter: Host, Content-Length against
// Transfer-Encoding, chunk sizes, method tokens, versions and lines that are not HTTP.
const CASES: Case[] = [
  // Protocol
  {
    name: 'no Host on HTTP/1.1: 400',
    bytes: 'GET /posts HTTP/1.1\r\nConnection: close\r\n\r\n',
    check: expectProblem(400, /Host/),
  },
  {
    name: 'two Host headers: 400',
    bytes: 'GET /posts HTTP/1.1\r\nHost: a\r\nHost: b\r\nConnection: close\r\n\r\n',
    check: expectProblem(400, /Host/),
  },
  { name: 'HTTP/1.0 without Host: served', bytes: 'GET /posts HTTP/1.0\r\n\r\n', check: status(200) },
  {
    name: 'Content-Length with Transfer-Encoding: 400, closed',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    check: closes(expectProblem(400)),
  },
  {
    name: 'two equal Content-Lengths: 400, closed',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}',
    check: closes(expectProblem(400)),
  },
  {
    name: 'two different Content-Lengths: 400, closed',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 20\r\n\r\n{}',
    check: closes(expectProblem(400)),
  },
  {
    name: 'bad chunk size: 400, closed',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
    check: closes(expectProblem(400)),
  },
  {
    name: 'Content-Length not a number: 400',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: abc\r\n\r\n{}',
    check: closes(expectProblem(400)),
  },
  {
    name: 'negative Content-Length: 400',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: -1\r\n\r\n{}',
    check: closes(expectProblem(400)),
  },
  {
    name: 'Transfer-Encoding not chunked: 400 or refused',
    bytes:
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n{}',
    check: (r) => assert.ok(r.status >= 400 && r.status < 500),
  },
  {
    name: 'invalid method token: 400',
    bytes: 'G@T /posts HTTP/1.1\r\nHost: x\r\n\r\n',
    check: closes(expectProblem(400)),
  },
  {
    name: 'invalid header name: 400',
    bytes: 'GET /posts HTTP/1.1\r\nHost: x\r\nBad Header: v\r\n\r\n',
    check: closes(expectProblem(400)),
  },
  {
    name: 'HTTP/2 preface on HTTP/1.1: 400',
    bytes: 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
    check: (r) => assert.ok(r.status === 400 || r.status === 505),
  },
  {
    name: 'unknown HTTP version: 400',
    bytes: 'GET /posts HTTP/9.9\r\nHost: x\r\n\r\n',
    check: (r) => assert.ok(r.status === 400 || r.status === 505),
  },
  {
    name: 'garbage line: 400 with a Date',
    bytes: '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n',
    check: (r) => {
      closes(expectProblem(400))(r);
      assert.match(r.headers.date ?? '', /GMT$/);
    },
  },
];

const hostile = hostileSuite('hostile: framing');
addCases(hostile, CASES);
hostile.run();
