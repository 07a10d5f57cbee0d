// A serializer's plans as generated JavaScript: one function per object and array the schema declares,
// each property read and written with constant names, the walk's steps unrolled.
import {
  BOOLEAN,
  NULL,
  NUMBER,
  STRING,
  type ArrayPlan,
  type ObjectPlan,
  type Plan,
} from './serialize-plan.js';
import { escaped, finite, inherits, isPlain, plainLength, quote } from './serialize-json.js';
import { MAX_DEPTH, type Walk } from './serialize-walk.js';

/** What the generated code calls, by the one-letter names its legend gives. */
const NAMES = ['S', 'T', 'E', 'F', 'D', 'X', 'P', 'K', 'U', 'H', 'B', 'A', 'O', 'W'] as const;

const LEGEND = [
  '// S(s): a string as JSON; T(s): how many of its first characters need no escape (mostly all of them);',
  '// E(s, t): s quoted with its escapes; F(n): a number; D(x, key, plan, depth): any other value by its plan',
  '// (toJSON(), a type the schema does not declare); X: the keys past the declared ones; P(o): whether o is',
  '// plain data; H: Object.hasOwn; B: Object.prototype; A: Array.isArray; K, U: the errors; O, W: the',
  '// writers D calls, by plan. In a writer, p says v is plain data, whose value of a name is its own unless',
  '// it is what Object.prototype holds; c is what comes before the next value: 0 the opening bracket, 1 a',
  '// comma, 2 the closing quote of a string and a comma.',
];

const str = (text: string) => JSON.stringify(text);

/** The code generated for a schema's plans: its text, and what makes a serializer of it for a walk. */
export interface Generated {
  /** The code as a person reads it: a legend, then the functions that run. */
  readonly source: string;
  /** A serializer running this code, calling `w` for what it does not do itself. */
  readonly make: (w: Walk) => (value: unknown) => string;
}

/**
 * The serializer of `plans` as code. Throws where the process refuses code generation (EvalError) or the
 * engine the code (RangeError).
 */
export function generate(plans: readonly Plan[]): Generated {
  const lines = [...LEGEND, 'function serialize(v) {', '  let w;'];
  lines.push(...indent(stepCode(plans[0]!, 'v', '""', '0', top), 1), '}');
  for (const plan of plans) {
    if (typeof plan.object === 'object') lines.push(...objectCode(plan, plan.object));
    if (typeof plan.array === 'object') lines.push(...arrayCode(plan, plan.array));
  }
  // The generated writers go into the walk's tables, where `general` finds them.
  const written = plans.flatMap((plan) => [
    ...(typeof plan.object === 'object' ? [`O[${plan.id}] = o${plan.id};`] : []),
    ...(typeof plan.array === 'object' ? [`W[${plan.id}] = a${plan.id};`] : []),
  ]);
  const source = lines.join('\n');
  const factory = new Function(...NAMES, `${source}\n${written.join('\n')}\nreturn serialize;`);
  const make = (w: Walk) =>
    factory(
      quote,
      plainLength,
      escaped,
      finite,
      w.general,
      w.rest,
      isPlain,
      w.tooDeep,
      w.nothing,
      Object.hasOwn,
      Object.prototype,
      Array.isArray,
      w.objects,
      w.arrays,
    ) as (value: unknown) => string;
  return { source, make };
}

/**
 * How a step's text is used: `done` for a text, `maybe` for a text or undefined (nothing to write), `string`
 * for a string.
 */
interface Use {
  readonly done: (text: string) => string;
  readonly maybe: (text: string) => string;
  readonly string: (x: string) => string | string[];
}

const top: Use = {
  done: (text) => `return ${text};`,
  maybe: (text) => `if ((w = ${text}) === undefined) throw U(); return w;`,
  string: (x) => `return S(${x});`,
};

/**
 * A writer's use of its values: each appended after what `c` says comes first (`open` the bracket, then
 * `key`), a plain string without its closing quote, which the next append or the end writes.
 */
function appending(open: string, key: string): Use {
  const before = (text: string) =>
    `(c === 0 ? ${str(open + key + text)} : c === 1 ? ${str(`,${key}${text}`)} : ${str(`",${key}${text}`)})`;
  const done = (text: string) => `s += ${before('')} + ${text}; c = 1;`;
  return {
    done,
    maybe: (text) => `if ((w = ${text}) !== undefined) { ${done('w')} }`,
    string: (x) => [
      `if ((t = T(${x})) === ${x}.length) {`,
      `  s += ${before('"')} + ${x}; c = 2;`,
      '} else {',
      `  ${done(`E(${x}, t)`)}`,
      '}',
    ],
  };
}

/** What closes a writer's text, by what `c` says is pending. */
const closing = (open: string, close: string) =>
  `return c === 0 ? ${str(open + close)} : c === 1 ? s + ${str(close)} : s + ${str(`"${close}`)};`;

/**
 * The statements that write `x` (an expression, at key `key`) under `plan`: the walk's fast steps
 * (serialize-walk.ts, `step`) in its order, then D.
 */
function stepCode(plan: Plan, x: string, key: string, depth: string, use: Use): string[] {
  const branches: Array<[string, string | string[]]> = [];
  if (plan.scalars & STRING) branches.push([`typeof ${x} === "string"`, use.string(x)]);
  if (plan.scalars & NUMBER) branches.push([`typeof ${x} === "number"`, use.done(`F(${x})`)]);
  if (plan.scalars & BOOLEAN)
    branches.push([`typeof ${x} === "boolean"`, use.done(`(${x} ? "true" : "false")`)]);
  if (plan.scalars & NULL) branches.push([`${x} === null`, use.done('"null"')]);
  if (typeof plan.array === 'object')
    branches.push([`A(${x}) && ${x}.toJSON === undefined`, use.done(`a${plan.id}(${x}, ${depth})`)]);
  if (typeof plan.object === 'object')
    branches.push([
      `typeof ${x} === "object" && ${x} !== null && ${x}.toJSON === undefined && !A(${x}) && P(${x})`,
      use.done(`o${plan.id}(${x}, ${depth}, true)`),
    ]);
  const general = use.maybe(`D(${x}, ${key}, ${plan.id}, ${depth})`);
  if (branches.length === 0) return [general];
  const out: string[] = [];
  branches.forEach(([test, then], i) =>
    out.push(`${i === 0 ? 'if' : '} else if'} (${test}) {`, ...indent([then].flat(), 1)),
  );
  out.push('} else {', `  ${general}`, '}');
  return out;
}

function objectCode(plan: Plan, object: ObjectPlan): string[] {
  const lines = [
    `// ${printable(plan.at)}`,
    `function o${plan.id}(v, d, p) {`,
    `  if (d > ${MAX_DEPTH}) throw K(${plan.id});`,
  ];
  lines.push('  let s = "", c = 0, x, w, t;');
  for (const { name, key, plan: p } of object.properties) {
    const own = inherits(name) ? '' : `p && x !== B[${str(name)}] || `;
    lines.push(`  x = v[${str(name)}];`, `  if (x !== undefined && (${own}H(v, ${str(name)}))) {`);
    lines.push(...indent(stepCode(p, 'x', str(name), 'd + 1', appending('{', key)), 2), '  }');
  }
  const more = object.patterns.length > 0 || object.additional !== undefined;
  lines.push(more ? `  return X(v, ${plan.id}, d, s, c);` : `  ${closing('{', '}')}`, '}');
  return lines;
}

function arrayCode(plan: Plan, array: ArrayPlan): string[] {
  const lines = [
    `// ${printable(plan.at)}`,
    `function a${plan.id}(v, d) {`,
    `  if (d > ${MAX_DEPTH}) throw K(${plan.id});`,
  ];
  lines.push('  const n = v.length;', '  let s = "", c = 0, x, w, t;', '  for (let i = 0; i < n; i++) {');
  lines.push('    x = v[i];');
  const base = appending('[', '');
  const use: Use = { ...base, maybe: (text) => `${base.done(`((w = ${text}) === undefined ? "null" : w)`)}` };
  const element = (p: Plan) => stepCode(p, 'x', 'i', 'd + 1', use);
  if (array.prefix.length === 0) lines.push(...indent(element(array.items), 2));
  else {
    array.prefix.forEach((p, i) => {
      lines.push(`    ${i === 0 ? 'if' : '} else if'} (i === ${i}) {`, ...indent(element(p), 3));
    });
    lines.push('    } else {', ...indent(element(array.items), 3), '    }');
  }
  lines.push('  }', `  ${closing('[', ']')}`, '}');
  return lines;
}

// A place in the schema names its properties, which may hold a line break (a comment would end there, and
// the rest run as code): anything but printable ASCII is written as an escape.
function printable(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function indent(lines: readonly string[], depth: number): string[] {
  return lines.map((line) => '  '.repeat(depth) + line);
}
