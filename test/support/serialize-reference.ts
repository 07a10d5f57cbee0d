// What a response serializer must write, worked out the slow way and on its own, for the serializer tests
// to hold compileSerializer()'s code and its walk to: JSON.stringify's reading of the value, then each
// object and array cut down to what the schema declares at its place, read from the schema value by value.

/** What applies at one place: a schema, or schemas combined as allOf (`and`) or anyOf/oneOf (`or`). */
type Formula =
  { readonly schema: unknown } | { readonly and: readonly Formula[] } | { readonly or: readonly Formula[] };

interface Strict {
  readonly names: readonly string[];
  readonly props: ReadonlyMap<string, Formula>;
  readonly patterns: ReadonlyArray<readonly [RegExp, Formula]>;
  readonly additional: Formula | undefined;
}
/** What applies to an object at a place: `undefined` where objects are not declared. */
type ObjectView = 'whole' | Strict | undefined;
type ArrayView = 'whole' | { readonly prefix: readonly Formula[]; readonly items: Formula } | undefined;

/** Thrown where the serializer must throw: an object or array the schema does not declare. */
export class Undeclared extends Error {}

const ALWAYS: Formula = { schema: true };
const SCALARS = ['string', 'number', 'boolean', 'null'];
const OWN = Symbol('own keywords only');

/**
 * The JSON the serializer of `schema` must write for `value`: keys in the schema's order, then the
 * value's other own ones; `Undeclared` where it must throw.
 */
export function reference(schema: unknown, value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new Undeclared('nothing to write');
  const resolve = (ref: string): unknown =>
    ref === '#'
      ? schema
      : ref
          .slice(2)
          .split('/')
          .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'))
          .reduce<unknown>((node, name) => (node as Record<string, unknown>)[name], schema);
  const isFormula = (x: unknown): x is Formula =>
    x !== null &&
    typeof x === 'object' &&
    ('or' in x || 'and' in x || ('schema' in x && Object.keys(x).length === 1));
  const formula = (x: unknown): Formula => (isFormula(x) ? x : { schema: x });

  /** A schema as its own keywords, its $ref, allOf, anyOf, oneOf, const and enum: the serializer's order. */
  function expand(s: Record<string, unknown>): Formula {
    const list: Formula[] = [{ schema: { ...s, [OWN]: true } }];
    if (typeof s.$ref === 'string') list.push({ schema: resolve(s.$ref) });
    for (const one of (s.allOf as unknown[] | undefined) ?? []) list.push({ schema: one });
    for (const key of ['anyOf', 'oneOf'])
      if (s[key] !== undefined) list.push({ or: (s[key] as unknown[]).map((one) => ({ schema: one })) });
    if (s.const !== undefined) list.push(constant(s.const));
    if (s.enum !== undefined) list.push({ or: (s.enum as unknown[]).map(constant) });
    return { and: list };
  }

  function constant(value: unknown): Formula {
    if (Array.isArray(value))
      return { schema: { type: 'array', items: { or: value.map(constant) }, [OWN]: true } };
    if (value !== null && typeof value === 'object') {
      const properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, constant(v)]));
      return { schema: { type: 'object', properties, [OWN]: true } };
    }
    return { schema: { type: value === null ? 'null' : typeof value, [OWN]: true } };
  }

  /** Reads formula `f` at one level: `combine` the views of `and`/`or`, `leaf` one schema's own keywords. */
  function view<V>(f: Formula, combine: (views: V[], op: 'and' | 'or') => V, leaf: (s: unknown) => V): V {
    if ('and' in f)
      return combine(
        f.and.map((g) => view(g, combine, leaf)),
        'and',
      );
    if ('or' in f)
      return combine(
        f.or.map((g) => view(g, combine, leaf)),
        'or',
      );
    const s = f.schema;
    if (isFormula(s)) return view(s, combine, leaf);
    if (typeof s !== 'object' || s === null || (s as Record<symbol, unknown>)[OWN] === true) return leaf(s);
    return view(expand(s as Record<string, unknown>), combine, leaf);
  }

  const typesOf = (o: Record<string, unknown>): string[] | undefined =>
    o.type === undefined
      ? undefined
      : ([] as string[]).concat(o.type as string).map((t) => (t === 'integer' ? 'number' : t));

  const scalars = (f: Formula): string[] =>
    view<string[]>(
      f,
      (views, op) =>
        op === 'or'
          ? [...new Set(views.flat())]
          : views.reduce((a, b) => a.filter((t) => b.includes(t)), SCALARS),
      (s) => {
        if (typeof s === 'boolean') return s ? SCALARS : [];
        const o = s as Record<string, unknown>;
        const types = typesOf(o);
        if (types === undefined) return SCALARS;
        return SCALARS.filter((t) => types.includes(t) || (t === 'null' && o.nullable === true));
      },
    );

  const objects = (f: Formula): ObjectView =>
    view<ObjectView>(f, merge, (s) => {
      if (typeof s === 'boolean') return s ? 'whole' : undefined;
      const o = s as Record<string, unknown>;
      const types = typesOf(o);
      if (types !== undefined && !types.includes('object')) return undefined;
      const keywords = ['properties', 'patternProperties', 'additionalProperties'];
      if (types === undefined && keywords.every((k) => o[k] === undefined)) return 'whole';
      const props = Object.entries((o.properties ?? {}) as Record<string, unknown>);
      const extra = o.additionalProperties;
      return {
        names: props.map(([name]) => name),
        props: new Map(props.map(([name, one]) => [name, formula(one)])),
        patterns: Object.entries((o.patternProperties ?? {}) as Record<string, unknown>).map(
          ([p, one]) => [new RegExp(p, 'u'), formula(one)] as const,
        ),
        additional: extra === undefined || extra === false ? undefined : formula(extra),
      };
    });

  const ruleOf = (v: Strict, key: string): Formula | undefined =>
    v.props.get(key) ?? v.patterns.find(([re]) => re.test(key))?.[1] ?? v.additional;

  function merge(views: ObjectView[], op: 'and' | 'or'): ObjectView {
    const some = views.filter((v) => v !== undefined);
    if (op === 'and' && some.length < views.length) return undefined;
    if (some.length === 0) return op === 'and' ? 'whole' : undefined;
    if (op === 'or' && some.includes('whole')) return 'whole';
    const strict = some.filter((v) => v !== 'whole');
    if (strict.length === 0) return 'whole';
    const join = (list: Formula[]): Formula | undefined =>
      list.length <= 1 ? list[0] : op === 'and' ? { and: list } : { or: list };
    const names = [...new Set(strict.flatMap((v) => v.names))];
    const additional = join(strict.flatMap((v) => v.additional ?? []));
    return {
      names,
      props: new Map(names.map((name) => [name, join(strict.flatMap((v) => ruleOf(v, name) ?? []))!])),
      patterns: strict.flatMap((v) => v.patterns),
      additional,
    };
  }

  const arrays = (f: Formula): ArrayView =>
    view<ArrayView>(
      f,
      (views, op) => {
        const some = views.filter((v) => v !== undefined);
        if (op === 'and' && some.length < views.length) return undefined;
        if (some.length === 0) return op === 'and' ? 'whole' : undefined;
        if (op === 'or' && some.includes('whole')) return 'whole';
        const strict = some.filter((v) => v !== 'whole');
        if (strict.length === 0) return 'whole';
        const join = (list: Formula[]): Formula => (list.length === 1 ? list[0]! : { [op]: list }) as Formula;
        const length = Math.max(...strict.map((v) => v.prefix.length));
        return {
          prefix: Array.from({ length }, (_, i) => join(strict.map((v) => v.prefix[i] ?? v.items))),
          items: join(strict.map((v) => v.items)),
        };
      },
      (s) => {
        if (typeof s === 'boolean') return s ? 'whole' : undefined;
        const o = s as Record<string, unknown>;
        const types = typesOf(o);
        if (types !== undefined && !types.includes('array')) return undefined;
        const tuple = ((Array.isArray(o.items) ? o.items : o.prefixItems) ?? []) as unknown[];
        const rest = Array.isArray(o.items) ? o.additionalItems : o.items;
        if (tuple.length === 0 && (rest === undefined || rest === true)) return 'whole';
        return { prefix: tuple.map(formula), items: rest === undefined ? ALWAYS : formula(rest) };
      },
    );

  /** Whether nothing may stand at a place (`false`, or types with nothing in common): never written. */
  const never = (f: Formula) =>
    scalars(f).length === 0 && objects(f) === undefined && arrays(f) === undefined;

  function strip(f: Formula, data: unknown): unknown {
    if (data === null || typeof data !== 'object') return data;
    if (Array.isArray(data)) {
      const v = arrays(f);
      if (v === undefined) throw new Undeclared('an array');
      return v === 'whole' ? data : data.map((one, i) => strip(v.prefix[i] ?? v.items, one));
    }
    const v = objects(f);
    if (v === undefined) throw new Undeclared('an object');
    if (v === 'whole') return data;
    const out = new Map<string, unknown>();
    const record = data as Record<string, unknown>;
    for (const name of v.names) {
      const rule = v.props.get(name)!;
      if (Object.hasOwn(record, name) && !never(rule)) out.set(name, strip(rule, record[name]));
    }
    for (const key of Object.keys(record)) {
      if (v.props.has(key)) continue;
      const rule = v.patterns.find(([re]) => re.test(key))?.[1] ?? v.additional;
      if (rule !== undefined && !never(rule)) out.set(key, strip(rule, record[key]));
    }
    return out;
  }

  return emit(strip({ schema }, JSON.parse(text)));
}

/** JSON of stripped data, each Map's keys in its own order. */
function emit(x: unknown): string {
  if (x instanceof Map) return `{${[...x].map(([k, v]) => `${JSON.stringify(k)}:${emit(v)}`).join(',')}}`;
  if (Array.isArray(x)) return `[${x.map(emit).join(',')}]`;
  return JSON.stringify(x);
}
