// examples/blog as a Cloudflare Worker: the same table served by toFetch, its JSON Schemas precompiled
// (validators.ts), posts kept in the isolate's memory.
import { toFetch, type FetchHandler } from 'sevenfold/fetch';
import { blogApp } from './app.js';
import validators from './validators.js';

// Made as the module loads, so a table the validators do not match fails the deploy, not every request.
const handler: FetchHandler = toFetch(blogApp().table, { validators });

export default { fetch: (request: Request) => handler(request) };
