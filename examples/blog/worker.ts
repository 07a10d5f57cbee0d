// examples/blog as a Cloudflare Worker: the same table served by toFetch, its JSON Schemas precompiled
// (validators.ts), posts kept in the isolate's memory.
import { toFetch, type FetchHandler } from 'sevenfold/fetch';
import { blogApp } from './app.js';
import validators from './validators.js';

let handler: FetchHandler | undefined;

export default {
  fetch(request: Request): Promise<Response> {
    // Made on the first request, not as the module loads: a Worker may not make random ids at start-up.
    handler ??= toFetch(blogApp().table, { validators });
    return handler(request);
  },
};
