import * as assert from 'uvu/assert';
import { HttpError, resource } from '../../core/index.js';
import { json } from '../support/http.js';
import { onEvery, withServers } from '../support/servers.js';

// checkResponses on every adapter: a body its response schema refuses, or a status the OpenAPI does
// not list, is a 500 reported to onError.

const lying = resource(
  'lies',
  {
    // A wrong body does not compile; past a cast (or from JavaScript) checkResponses catches it.
    index: () => [{ id: 1 }] as never,
    show: () => {
      throw new HttpError(418, 'a teapot');
    },
  },
  {
    schemas: {
      index: {
        response: {
          type: 'array',
          items: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
        },
      },
      show: { response: { type: 'object' } },
    },
  },
);

const reported: string[] = [];
const responses = withServers('checkResponses', lying, {
  checkResponses: true,
  onError: (error) => void reported.push(String(error)),
});

responses(
  'a body that fails its response schema, or an undocumented status, is a reported 500',
  async ({ servers }) => {
    reported.length = 0;
    const index = await onEvery(servers, { path: '/lies' });
    assert.is(index.status, 500);
    const show = await onEvery(servers, { path: '/lies/1', headers: { Accept: 'application/json' } });
    assert.is(show.status, 500);
    // The client learns nothing of the mismatch: the detail is the developer's, through onError.
    assert.equal(json(show), { type: 'about:blank', title: 'Internal Server Error', status: 500 });
    assert.is(show.headers.vary, 'Accept');
    assert.match(
      reported[0]!,
      /lies\.index answered 200 with a body that does not match its response schema: 0\.id must be a string/,
    );
    assert.match(
      reported.at(-1)!,
      /lies\.show answered 418, which its OpenAPI operation does not list; declare 418 in schemas\.show\.errors/,
    );
  },
);

responses.run();
