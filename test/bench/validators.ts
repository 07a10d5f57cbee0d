import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Compile } from 'typebox/schema';
import Value from 'typebox/value';
import { ajvCompiler } from '../../adapters/http/ajv.js';
import { POST_BODY } from './apps.js';

// The candidates for compiling plain JSON Schema, on the posts body: ajv (what sevenfold uses,
// through its compiler) and TypeBox 1.x's JSON Schema compiler. Figures in docs/validation.md.

const require = createRequire(import.meta.url);
const valid = () => ({ id: 'hello-world', title: 'Hello, world', body: 'Some text of a post.' });
const defaulted = () => ({ id: 'hello-world', title: 'Hello, world' });
const invalid = () => ({ id: 'bad id!', title: '', body: 7 });

function nsPerOp(fn: () => unknown, n = 500_000): number {
  for (let i = 0; i < 50_000; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  return Number(process.hrtime.bigint() - start) / n;
}

function version(file: string): string {
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Median ns per check over five trials, each candidate measured in turn. */
export function validatorFigures(): string {
  const ajv = ajvCompiler.compile(POST_BODY, 'json');
  const typebox = Compile(POST_BODY as never);
  const rows: Array<[string, () => unknown, () => unknown]> = [
    ['a valid body', () => ajv(valid()), () => typebox.Check(valid())],
    [
      'a body that needs its default (body: "")',
      () => ajv(defaulted()),
      () => typebox.Check(Value.Default(POST_BODY as never, defaulted())),
    ],
    ['an invalid body, with every error', () => ajv(invalid()), () => typebox.Errors(invalid())],
  ];
  const lines = ['| check | ajv ns | TypeBox ns |', '|---|---|---|'];
  for (const [label, a, t] of rows) {
    const as: number[] = [];
    const ts: number[] = [];
    for (let trial = 0; trial < 5; trial++) {
      as.push(nsPerOp(a));
      ts.push(nsPerOp(t));
    }
    lines.push(`| ${label} | ${median(as).toFixed(0)} | ${median(ts).toFixed(0)} |`);
  }
  const coerced = ajvCompiler.compile({ type: 'object', properties: { limit: { type: 'integer' } } }, 'text');
  const query = { limit: '5' };
  coerced(query);
  const converted = Value.Convert({ type: 'object', properties: { limit: { type: 'integer' } } } as never, {
    limit: '5',
  });
  lines.push(
    '',
    `Coercing a query field ("5" for an integer) on plain JSON Schema: ajv gives ${JSON.stringify(query)}, TypeBox's Value.Convert gives ${JSON.stringify(converted)}.`,
    `Versions: ajv ${version(require.resolve('ajv/package.json'))}, typebox ${version(require.resolve('typebox').replace(/build[/\\].*$/, 'package.json'))}.`,
  );
  return lines.join('\n');
}
