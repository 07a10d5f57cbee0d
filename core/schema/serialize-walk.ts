// Writing a value by its plans: the walk that serves where code cannot be generated, and the general step
// (toJSON, wrappers, types the schema does not declare) that generated code calls for anything unusual.
import {
  BOOLEAN,
  isNever,
  NULL,
  NUMBER,
  STRING,
  type ArrayPlan,
  type ObjectPlan,
  type Plan,
} from './serialize-plan.js';
import { finite, inherits, isPlain, quote } from './serialize-json.js';

/** How deep objects and arrays a serializer writes by their plans may nest: a circular value stops here. */
export const MAX_DEPTH = 1000;

/**
 * Writes an object or array its plan declares, at a depth; `plain` when the value is plain data (see
 * `isPlain`), whose own properties are told from Object.prototype's without asking.
 */
export type Writer = (value: any, depth: number, plain: boolean) => string;

/**
 * What one serializer shares between its generated code and its walk: the writers of objects and arrays by
 * plan id (filled by one of them), `general` for any value at a place, `rest` for the keys past the declared
 * ones, and the errors.
 */
export interface Walk {
  readonly plans: readonly Plan[];
  readonly objects: Array<Writer | undefined>;
  readonly arrays: Array<Writer | undefined>;
  /** Any value under plan `id`, as JSON.stringify would read it; `undefined` for nothing to write. */
  readonly general: (value: unknown, key: string | number, id: number, depth: number) => string | undefined;
  /** Value `x` at `key` under `plan`: the fast steps generated code takes, in its order, then `general`. */
  readonly step: (x: unknown, key: string | number, plan: Plan, depth: number) => string | undefined;
  /**
   * Appends the keys of `value` past its declared properties to `text` and closes it; `state` says what
   * comes first: 0 the opening brace, 1 a comma, 2 the closing quote of a string and a comma.
   */
  readonly rest: (value: object, id: number, depth: number, text: string, state: number) => string;
  readonly tooDeep: (id: number) => TypeError;
  readonly nothing: () => TypeError;
}

export function walk(plans: readonly Plan[], label: string): Walk {
  const objects: Array<Writer | undefined> = [];
  const arrays: Array<Writer | undefined> = [];
  const fail = (kind: string, plan: Plan, fix: string) =>
    new TypeError(`${label}: ${kind} where the schema at ${plan.at} declares ${declared(plan)}; ${fix}`);

  function general(value: unknown, key: string | number, id: number, depth: number): string | undefined {
    const plan = plans[id]!;
    let x = value;
    if ((typeof x === 'object' && x !== null) || typeof x === 'function' || typeof x === 'bigint') {
      const toJSON = (x as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') x = toJSON.call(x, typeof key === 'number' ? `${key}` : key);
    }
    // Number, String, Boolean and BigInt objects are written as their primitives, as JSON.stringify does.
    if (typeof x === 'object' && x !== null) {
      if (x instanceof Number) x = Number(x);
      else if (x instanceof String) x = String(x);
      else if (x instanceof Boolean) x = Boolean.prototype.valueOf.call(x);
      else if (x instanceof BigInt) x = BigInt.prototype.valueOf.call(x);
    }
    switch (typeof x) {
      case 'string':
        return quote(x);
      case 'number':
        return finite(x);
      case 'boolean':
        return x ? 'true' : 'false';
      case 'bigint':
        throw fail(
          'a BigInt',
          plan,
          'JSON has no BigInt: convert it (Number(n) or String(n)) or give BigInt.prototype a toJSON()',
        );
      case 'object':
        break;
      default:
        return undefined;
    }
    if (x === null) return 'null';
    if (Array.isArray(x)) {
      if (plan.array === undefined)
        throw fail(
          'an array',
          plan,
          'only what the schema declares is written: return that, or declare the array',
        );
      return plan.array === 'whole' ? entire(x) : arrays[id]!(x, depth, false);
    }
    if (plan.object === undefined)
      throw fail(
        'an object',
        plan,
        'only what the schema declares is written: return that, or declare the object and its properties',
      );
    return plan.object === 'whole' ? entire(x) : objects[id]!(x, depth, false);
  }

  // Generated code takes these steps in this order, so that both read a value alike.
  function step(x: any, key: string | number, plan: Plan, depth: number): string | undefined {
    if (plan.scalars & STRING && typeof x === 'string') return quote(x);
    if (plan.scalars & NUMBER && typeof x === 'number') return finite(x);
    if (plan.scalars & BOOLEAN && typeof x === 'boolean') return x ? 'true' : 'false';
    if (plan.scalars & NULL && x === null) return 'null';
    if (
      typeof plan.array === 'object' &&
      Array.isArray(x) &&
      (x as { toJSON?: unknown }).toJSON === undefined
    )
      return arrays[plan.id]!(x, depth, false);
    if (
      typeof plan.object === 'object' &&
      typeof x === 'object' &&
      x !== null &&
      x.toJSON === undefined &&
      !Array.isArray(x) &&
      isPlain(x)
    )
      return objects[plan.id]!(x, depth, true);
    return general(x, key, plan.id, depth);
  }

  function rest(value: object, id: number, depth: number, text: string, state: number): string {
    const object = plans[id]!.object as ObjectPlan;
    let s = text;
    let c = state === 0 ? '{' : state === 1 ? ',' : '",';
    for (const key of Object.keys(value)) {
      if (object.declared.has(key)) continue;
      const plan = object.patterns.find((pattern) => pattern.regexp.test(key))?.plan ?? object.additional;
      if (plan === undefined || isNever(plan)) continue;
      const w = step((value as Record<string, unknown>)[key], key, plan, depth + 1);
      if (w !== undefined) {
        s += `${c}${quote(key)}:${w}`;
        c = ',';
      }
    }
    return c === '{' ? '{}' : c === ',' ? `${s}}` : `${s}"}`;
  }

  const tooDeep = (id: number) =>
    new TypeError(
      `${label}: the value nests more than ${MAX_DEPTH} objects or arrays deep at ${plans[id]!.at}, where the schema is recursive; is it circular?`,
    );
  const nothing = () =>
    new TypeError(
      `${label}: the value is undefined, a function or a symbol, which JSON cannot write; return a value, or answer without a body`,
    );
  return { plans, objects, arrays, general, step, rest, tooDeep, nothing };
}

/** Fills the writers of `w` with ones that walk its plans, and gives the serializer that uses them. */
export function interpret(w: Walk): (value: unknown) => string {
  for (const plan of w.plans) {
    if (typeof plan.object === 'object') w.objects[plan.id] = objectWriter(w, plan, plan.object);
    if (typeof plan.array === 'object') w.arrays[plan.id] = arrayWriter(w, plan, plan.array);
  }
  const root = w.plans[0]!;
  return (value) => {
    const text = w.step(value, '', root, 0);
    if (text === undefined) throw w.nothing();
    return text;
  };
}

function objectWriter(w: Walk, plan: Plan, object: ObjectPlan): Writer {
  const properties = object.properties.map((p) => ({ ...p, inherits: inherits(p.name) }));
  const more = object.patterns.length > 0 || object.additional !== undefined;
  const proto = Object.prototype as Record<string, unknown>;
  return (v, depth, plain) => {
    if (depth > MAX_DEPTH) throw w.tooDeep(plan.id);
    let s = '';
    let c = '{';
    for (let i = 0; i < properties.length; i++) {
      const { name, key, plan: p, inherits } = properties[i]!;
      const x = v[name];
      // As the generated code asks: a plain object's value is its own unless Object.prototype holds it.
      if (x !== undefined && ((!inherits && plain && x !== proto[name]) || Object.hasOwn(v, name))) {
        const text = w.step(x, name, p, depth + 1);
        if (text !== undefined) {
          s += c + key + text;
          c = ',';
        }
      }
    }
    if (more) return w.rest(v, plan.id, depth, s, c === '{' ? 0 : 1);
    return c === '{' ? '{}' : `${s}}`;
  };
}

function arrayWriter(w: Walk, plan: Plan, array: ArrayPlan): Writer {
  const { prefix, items } = array;
  return (v, depth) => {
    if (depth > MAX_DEPTH) throw w.tooDeep(plan.id);
    const n = v.length;
    let s = '[';
    for (let i = 0; i < n; i++) {
      if (i > 0) s += ',';
      const text = w.step(v[i], i, i < prefix.length ? prefix[i]! : items, depth + 1);
      s += text === undefined ? 'null' : text;
    }
    return `${s}]`;
  };
}

/**
 * An object or array the schema declares nothing of, after its toJSON(): JSON.stringify's, unless it has a
 * toJSON() of its own, which JSON.stringify would call again.
 */
function entire(x: object): string {
  if (typeof (x as { toJSON?: unknown }).toJSON !== 'function') return JSON.stringify(x);
  if (Array.isArray(x)) return `[${x.map((one, i) => held(one, `${i}`) ?? 'null').join(',')}]`;
  const pairs: string[] = [];
  for (const key of Object.keys(x)) {
    const text = held((x as Record<string, unknown>)[key], key);
    if (text !== undefined) pairs.push(`${quote(key)}:${text}`);
  }
  return `{${pairs.join(',')}}`;
}

/** `x` as JSON.stringify writes it under `key` of an object (its toJSON() given that key). */
function held(x: unknown, key: string): string | undefined {
  const text = JSON.stringify({ [key]: x });
  return text === '{}' ? undefined : text.slice(quote(key).length + 2, -1);
}

/** What a plan declares, for messages: `string or null`. */
function declared(plan: Plan): string {
  const names = [
    ...[
      [STRING, 'string'],
      [NUMBER, 'number'],
      [BOOLEAN, 'boolean'],
      [NULL, 'null'],
    ]
      .filter(([bit]) => plan.scalars & (bit as number))
      .map(([, name]) => name as string),
    ...(plan.object === undefined ? [] : ['object']),
    ...(plan.array === undefined ? [] : ['array']),
  ];
  return names.length === 0 ? 'no value (false)' : names.join(' or ');
}
