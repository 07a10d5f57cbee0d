// A child process for test/http/precompiled-validators.test.ts, run by node with
// `--disallow-code-generation-from-strings` (as workerd runs code): examples/posts served by toFetch, with the
// precompiled validators module given as the first argument (or none), answers the runtime exchanges in process
// and prints them as JSON; a start-up failure is printed as `{ "error": message }`.
import { pathToFileURL } from 'node:url';
import { toFetch } from '../../adapters/fetch.js';
import type { PrecompiledValidators } from '../../adapters/pipeline/precompiled.js';
import { inProcess } from './in-process.js';
import { runtimeApp } from './runtime-apps.js';
import { EXCHANGES } from './runtime-exchanges.js';

const [file] = process.argv.slice(2);
const validators =
  file === undefined
    ? undefined
    : ((await import(pathToFileURL(file).href)) as { default: PrecompiledValidators }).default;
const { source, options } = runtimeApp('posts');
let output: unknown;
try {
  const handler = toFetch(source, { ...options, validators });
  const answers = [];
  for (const { request } of EXCHANGES) {
    if (typeof request === 'string') continue;
    const { status, headers, body } = await inProcess(handler, request);
    answers.push({ status, headers, body });
  }
  output = { answers };
} catch (error) {
  output = { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
}
process.stdout.write(JSON.stringify(output));
