import { compileSerializer, interpretSerializer } from '../../core/schema/serialize.js';
import { Post } from '../../examples/posts/schema.js';
import { fixed, median } from './load.js';

// Writing the posts example's answers as JSON, in process: the serializer compiled from the response
// schema, its walk (what runs where code generation is refused), JSON.stringify, and fast-json-stringify
// (fastify's), on the index (50 posts) and one post. The posts hold exactly the declared fields, so all
// four write the same bytes, checked before timing. Figures in docs/performance.md.

const BODY =
  'A post of the kind the example keeps: a few sentences of plain text, written in a form and stored as it came, ' +
  'about two hundred characters long, as the seeded posts are.';

/** The example's posts as its store gives them: ids, titles, bodies and ISO timestamps. */
function posts(count: number, body = BODY) {
  return Array.from({ length: count }, (_, i) => ({
    id: `seed-${i}`,
    title: `Seed ${i}`,
    body,
    createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(),
    updatedAt: new Date(Date.UTC(2025, 0, 2, 0, 0, i)).toISOString(),
  }));
}

/** Nanoseconds per call of `fn`, after a warm-up, over calls that take about a fifth of a second. */
function nsPerCall(fn: () => unknown, calls: number): number {
  for (let i = 0; i < calls / 10; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) fn();
  return Number(process.hrtime.bigint() - start) / calls;
}

type Candidate = readonly [name: string, write: (value: unknown) => string];

/** Median ns per call of each candidate over interleaved trials, and each one's speed against JSON.stringify. */
function race(candidates: readonly Candidate[], value: unknown, calls: number, trials = 9) {
  const expected = JSON.stringify(value);
  for (const [name, write] of candidates)
    if (write(value) !== expected) throw new Error(`${name} wrote other bytes than JSON.stringify`);
  const samples = candidates.map(() => [] as number[]);
  for (let t = 0; t < trials; t++)
    // A different candidate goes first in each trial.
    for (let k = 0; k < candidates.length; k++) {
      const i = (k + t) % candidates.length;
      const write = candidates[i]![1];
      samples[i]!.push(nsPerCall(() => write(value), calls));
    }
  const stringify = samples[candidates.findIndex(([name]) => name === 'JSON.stringify')]!;
  return candidates.map(([name], i) => ({
    name,
    ns: median(samples[i]!),
    speed: median(stringify.map((ns, t) => ns / samples[i]![t]!)),
  }));
}

export async function serializeFigures(): Promise<string> {
  // Loaded here, so that no other part of the benchmark runs beside fastify's code.
  const { default: fastJson } = await import('fast-json-stringify');
  const index = { type: 'array', items: Post } as const;
  const kinds = [
    { label: 'index (50 posts)', schema: index, value: posts(50), calls: 2_000 },
    // Text typed in a form has line breaks, which JSON escapes: such a string is written by JSON.stringify.
    {
      label: 'index, bodies in two paragraphs',
      schema: index,
      value: posts(50, `${BODY}\r\n\r\n${BODY}`),
      calls: 1_000,
    },
    { label: 'show (1 post)', schema: Post, value: posts(1)[0], calls: 200_000 },
  ];
  const lines = [
    '| answer | bytes | compiled ns | walk ns | JSON.stringify ns | fast-json-stringify ns | compiled vs JSON.stringify | walk vs JSON.stringify | fast-json-stringify vs JSON.stringify |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const { label, schema, value, calls } of kinds) {
    const candidates: Candidate[] = [
      ['compiled', compileSerializer(schema).serialize],
      ['walk', interpretSerializer(schema).serialize],
      ['JSON.stringify', (v) => JSON.stringify(v)],
      ['fast-json-stringify', fastJson(schema as never) as (value: unknown) => string],
    ];
    const figures = race(candidates, value, calls);
    const ns = figures.map((f) => Math.round(f.ns)).join(' | ');
    const speeds = figures
      .filter((f) => f.name !== 'JSON.stringify')
      .map((f) => `${fixed(f.speed)}×`)
      .join(' | ');
    lines.push(`| ${label} | ${JSON.stringify(value).length} | ${ns} | ${speeds} |`);
  }
  lines.push(
    '',
    'Speeds are the median of trial-by-trial ratios (above 1× is faster than JSON.stringify); the bytes are those of each answer, the same from all four.',
  );
  return lines.join('\n');
}
