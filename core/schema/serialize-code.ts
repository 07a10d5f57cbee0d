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
import { finite, isPlain, MAX_DEPTH, quote, type Walk } from './serialize-walk.js';

/** What the generated code calls, by the one-letter names its legend gives. */
const NAMES = ['S', 'F', 'D', 'X', 'P', 'K', 'U', 'H', 'A', 'O', 'W'] as const;

const LEGEND = [
  '// S(s): a string as JSON; F(n): a number as JSON; D(x, key, plan, depth): any other value by its plan',
  '// (toJSON(), a type the schema does not declare); X: the keys past the declared ones; P(o): whether o is',
  '// plain data; H: Object.hasOwn; A: Array.isArray; K, U: the errors; O, W: the writers D calls, by plan.',
];

const str = (text: string) => JSON.stringify(text);

/**
 * The serializer of `w`'s plans as code, with the writers `w.general` calls filled with the generated ones,
 * and the code as a person reads it. Throws where the process refuses code generation (EvalError) or the
 * engine the code (RangeError).
 */
export function generate(w: Walk, label: string): { serialize: (value: unknown) => string; source: string } {
  const lines = [`// ${label}: only what the schema declares is written.`, ...LEGEND];
  lines.push('function serialize(v) {', '  let w;');
  lines.push(...indent(stepCode(w.plans[0]!, 'v', '""', '0', top), 1), '}');
  for (const plan of w.plans) {
    if (typeof plan.object === 'object') lines.push(...objectCode(plan, plan.object));
    if (typeof plan.array === 'object') lines.push(...arrayCode(plan, plan.array));
  }
  const written = w.plans.flatMap((plan) => [
    ...(typeof plan.object === 'object' ? [`O[${plan.id}] = o${plan.id};`] : []),
    ...(typeof plan.array === 'object' ? [`W[${plan.id}] = a${plan.id};`] : []),
  ]);
  const source = lines.join('\n');
  const make = new Function(...NAMES, `${source}\n${written.join('\n')}\nreturn serialize;`);
  const serialize = make(
    quote,
    finite,
    w.general,
    w.rest,
    isPlain,
    w.tooDeep,
    w.nothing,
    Object.hasOwn,
    Array.isArray,
    w.objects,
    w.arrays,
  ) as (value: unknown) => string;
  return { serialize, source };
}

/** How a step's text is used: `done` for a text, `maybe` for a text or undefined (nothing to write). */
interface Use {
  readonly done: (text: string) => string;
  readonly maybe: (text: string) => string;
}

const top: Use = {
  done: (text) => `return ${text};`,
  maybe: (text) => `if ((w = ${text}) === undefined) throw U(); return w;`,
};

/**
 * The statements that write `x` (an expression, at key `key`) under `plan`: the walk's fast steps
 * (serialize-walk.ts, `step`) in its order, then D.
 */
function stepCode(plan: Plan, x: string, key: string, depth: string, use: Use): string[] {
  const branches: Array<[string, string]> = [];
  if (plan.scalars & STRING) branches.push([`typeof ${x} === "string"`, use.done(`S(${x})`)]);
  if (plan.scalars & NUMBER) branches.push([`typeof ${x} === "number"`, use.done(`F(${x})`)]);
  if (plan.scalars & BOOLEAN)
    branches.push([`typeof ${x} === "boolean"`, use.done(`(${x} ? "true" : "false")`)]);
  if (plan.scalars & NULL) branches.push([`${x} === null`, use.done('"null"')]);
  if (typeof plan.array === 'object')
    branches.push([`A(${x}) && ${x}.toJSON === undefined`, use.done(`a${plan.id}(${x}, ${depth})`)]);
  if (typeof plan.object === 'object')
    branches.push([
      `typeof ${x} === "object" && ${x} !== null && ${x}.toJSON === undefined && !A(${x}) && P(${x})`,
      use.done(`o${plan.id}(${x}, ${depth})`),
    ]);
  const general = use.maybe(`D(${x}, ${key}, ${plan.id}, ${depth})`);
  if (branches.length === 0) return [general];
  const out: string[] = [];
  branches.forEach(([test, then], i) => out.push(`${i === 0 ? 'if' : '} else if'} (${test}) {`, `  ${then}`));
  out.push('} else {', `  ${general}`, '}');
  return out;
}

function objectCode(plan: Plan, object: ObjectPlan): string[] {
  const lines = [
    `// ${plan.at}`,
    `function o${plan.id}(v, d) {`,
    `  if (d > ${MAX_DEPTH}) throw K(${plan.id});`,
  ];
  lines.push('  let s = "", c = "{", x, w;');
  for (const { name, key, plan: p } of object.properties) {
    const append = (text: string) => `s += c + ${str(key)} + ${text}; c = ",";`;
    const use: Use = {
      done: append,
      maybe: (text) => `if ((w = ${text}) !== undefined) { ${append('w')} }`,
    };
    lines.push(`  x = v[${str(name)}];`, `  if (x !== undefined && H(v, ${str(name)})) {`);
    lines.push(...indent(stepCode(p, 'x', str(name), 'd + 1', use), 2), '  }');
  }
  const more = object.patterns.length > 0 || object.additional !== undefined;
  lines.push(more ? `  return X(v, ${plan.id}, d, s, c);` : '  return c === "{" ? "{}" : s + "}";', '}');
  return lines;
}

function arrayCode(plan: Plan, array: ArrayPlan): string[] {
  const lines = [
    `// ${plan.at}`,
    `function a${plan.id}(v, d) {`,
    `  if (d > ${MAX_DEPTH}) throw K(${plan.id});`,
  ];
  lines.push('  const n = v.length;', '  let s = "[", x, w;', '  for (let i = 0; i < n; i++) {');
  lines.push('    if (i > 0) s += ",";', '    x = v[i];');
  const use: Use = {
    done: (text) => `s += ${text};`,
    maybe: (text) => `s += (w = ${text}) === undefined ? "null" : w;`,
  };
  const element = (p: Plan) => stepCode(p, 'x', 'i', 'd + 1', use);
  if (array.prefix.length === 0) lines.push(...indent(element(array.items), 2));
  else {
    array.prefix.forEach((p, i) => {
      lines.push(`    ${i === 0 ? 'if' : '} else if'} (i === ${i}) {`, ...indent(element(p), 3));
    });
    lines.push('    } else {', ...indent(element(array.items), 3), '    }');
  }
  lines.push('  }', '  return s + "]";', '}');
  return lines;
}

function indent(lines: readonly string[], depth: number): string[] {
  return lines.map((line) => '  '.repeat(depth) + line);
}
