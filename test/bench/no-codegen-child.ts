// One in-process variant for no-codegen.ts: toFetch over the validated posts app, with ajv compiling at start-up or,
// under `--disallow-code-generation-from-strings` (as workerd runs), with precompiled validators and the general walk.
import { pathToFileURL } from 'node:url';
import { toFetch } from '../../adapters/fetch.js';
import type { PrecompiledValidators } from '../../adapters/pipeline/precompiled.js';
import { postsResource } from '../../examples/posts/app.js';
import { answerRounds } from './rounds.js';
import { sevenfoldValidated, WORKLOAD } from './workload.js';

const [validatorsFile, exampleValidatorsFile] = process.argv.slice(2);
const load = async (file: string | undefined) =>
  file === undefined || file === ''
    ? undefined
    : ((await import(pathToFileURL(file).href)) as { default: PrecompiledValidators }).default;
const [validators, exampleValidators] = [await load(validatorsFile), await load(exampleValidatorsFile)];

// Start-up: the time to make a handler for examples/posts, its schemas compiled by ajv or looked up; once, cold,
// as a server starts (compiled schemas are cached by object, so a second table would cost nothing).
const table = postsResource();
const before = performance.now();
toFetch(table, { validators: exampleValidators, checkResponses: true });
process.send!({ startup: performance.now() - before });

const handler = toFetch(sevenfoldValidated, { validators, onError: () => {} });
const PER_ROUND = 50_000;
const request = (item: (typeof WORKLOAD)[number]) =>
  new Request(`http://127.0.0.1${item.path}`, {
    method: item.method,
    headers: 'headers' in item ? item.headers : undefined,
    body: 'payload' in item ? item.payload : undefined,
  });

for (const item of WORKLOAD) {
  const res = await handler(request(item));
  const body = await res.text();
  if (res.status !== item.status || body !== item.body)
    throw new Error(
      `${item.method} ${item.path} answered ${res.status} ${body}; expected ${item.status} ${item.body}`,
    );
}

async function round(): Promise<number> {
  const before = process.cpuUsage();
  let wrong = 0;
  for (let n = 0; n < PER_ROUND; n++) {
    const item = WORKLOAD[n % WORKLOAD.length]!;
    const res = await handler(request(item));
    if (res.status !== item.status || (await res.text()).length !== item.body.length) wrong++;
  }
  const used = process.cpuUsage(before);
  if (wrong > 0) throw new Error(`${wrong} answers differed from the workload's`);
  return (used.user + used.system) / PER_ROUND;
}

answerRounds(round);
