// What a response schema writes, as plans: one per place in the schema, each JSON type it declares, one
// level deep, its children by their own plans; allOf merges what its branches declare, anyOf and oneOf
// write the union of it.

export const STRING = 1;
export const NUMBER = 2;
export const BOOLEAN = 4;
export const NULL = 8;
export const SCALARS = STRING | NUMBER | BOOLEAN | NULL;

// Past this many terms (a subschema is one or two, a combination of branches one more), a schema is refused
// at definition: anyOf inside anyOf can multiply them.
const MAX_TERMS = 50_000;

/**
 * What a serializer writes at one place of its schema: every scalar as JSON.stringify writes it (`scalars`
 * says which it declares, which are tried first), an object and an array by what the schema declares of them
 * there, `'whole'` where it declares nothing of them (`{}`), or neither (`undefined`) where it declares
 * another type.
 */
export interface Plan {
  readonly id: number;
  /** Where the schema declares it, as a JSON pointer (`#/properties/author`), for messages. */
  readonly at: string;
  scalars: number;
  object: ObjectPlan | 'whole' | undefined;
  array: ArrayPlan | 'whole' | undefined;
}

export interface ObjectPlan {
  /** The properties written, in the schema's order. */
  readonly properties: readonly Property[];
  /** Every name `properties` lists, those declared `false` (never written) too: the rest are other keys. */
  readonly declared: ReadonlySet<string>;
  /**
   * How the value's other keys are written: by the first pattern they match, else by `additional`, else not
   * (nor under a plan that declares no value).
   */
  readonly patterns: readonly Pattern[];
  readonly additional: Plan | undefined;
}

export interface Property {
  readonly name: string;
  /** The name as JSON, with its colon: `"name":`. */
  readonly key: string;
  readonly plan: Plan;
}

export interface Pattern {
  readonly regexp: RegExp;
  readonly plan: Plan;
}

export interface ArrayPlan {
  readonly prefix: readonly Plan[];
  /** The items past `prefix`. */
  readonly items: Plan;
}

/** A plan, whose children are not planned yet: what one place of a schema (or a combination of places) says. */
export interface Level {
  readonly scalars: number;
  readonly object: Shape | 'whole' | undefined;
  readonly array: Items | 'whole' | undefined;
}

export interface Shape {
  readonly props: ReadonlyMap<string, Term>;
  readonly patterns: ReadonlyArray<readonly [RegExp, Term]>;
  readonly additional: Term | undefined;
}

export interface Items {
  readonly prefix: readonly Term[];
  readonly items: Term;
}

/** A place of a schema, or a union or intersection of places, whose level is worked out when first needed. */
export interface Term {
  readonly id: number;
  readonly at: string;
  readonly op?: 'or' | 'and';
  readonly operands?: readonly Term[];
  level: Level | undefined;
  busy: boolean;
  readonly compute: () => Level;
}

export const ANY_LEVEL: Level = { scalars: SCALARS, object: 'whole', array: 'whole' };
export const NO_LEVEL: Level = { scalars: 0, object: undefined, array: undefined };

/** Makes terms for one schema and combines them; `fail` throws the definition error for a message. */
export function termSpace(fail: (message: string) => never) {
  let count = 0;
  const combined = new Map<string, Term>();
  const leaf = (at: string, compute: () => Level, extra?: Pick<Term, 'op' | 'operands'>): Term => {
    if (++count > MAX_TERMS)
      fail(
        `the schema has more than ${MAX_TERMS} subschemas and combinations of its allOf, anyOf and oneOf branches to plan; declare fewer properties or alternatives`,
      );
    return { id: count, at, level: undefined, busy: false, compute, ...extra };
  };
  const any = leaf('#', () => ANY_LEVEL);
  const none = leaf('#', () => NO_LEVEL);

  const levelOf = (term: Term): Level => {
    if (term.level !== undefined) return term.level;
    if (term.busy)
      fail(
        `the schema at ${term.at} refers back to itself (through $ref, allOf, anyOf or oneOf) before declaring a property or an item, so it describes no value; declare the value's type or properties there`,
      );
    term.busy = true;
    term.level = term.compute();
    term.busy = false;
    return term.level;
  };

  /** `or` (anyOf, oneOf: the union of what they declare) or `and` (allOf: merged) of `list`. */
  const combine = (op: 'or' | 'and', list: readonly Term[], at: string): Term => {
    const flat: Term[] = [];
    for (const term of list)
      for (const one of term.op === op ? term.operands! : [term]) if (!flat.includes(one)) flat.push(one);
    const [absorbing, neutral] = op === 'or' ? [any, none] : [none, any];
    if (flat.includes(absorbing)) return absorbing;
    const kept = flat.filter((term) => term !== neutral);
    if (kept.length <= 1) return kept[0] ?? neutral;
    const key = `${op}${kept.map((term) => term.id).join(',')}`;
    let term = combined.get(key);
    if (term === undefined) {
      const merge = op === 'or' ? union : intersection;
      term = leaf(at, () => kept.map(levelOf).reduce(merge), { op, operands: kept });
      combined.set(key, term);
    }
    return term;
  };
  const or = (list: readonly Term[], at: string) => combine('or', list, at);
  const and = (list: readonly Term[], at: string) => combine('and', list, at);

  function union(a: Level, b: Level): Level {
    return {
      scalars: a.scalars | b.scalars,
      object:
        a.object === undefined || b.object === 'whole'
          ? b.object
          : b.object === undefined || a.object === 'whole'
            ? a.object
            : shapes(a.object, b.object, or),
      array:
        a.array === undefined || b.array === 'whole'
          ? b.array
          : b.array === undefined || a.array === 'whole'
            ? a.array
            : lists(a.array, b.array, or),
    };
  }

  function intersection(a: Level, b: Level): Level {
    return {
      scalars: a.scalars & b.scalars,
      object:
        a.object === undefined || b.object === undefined
          ? undefined
          : a.object === 'whole'
            ? b.object
            : b.object === 'whole'
              ? a.object
              : shapes(a.object, b.object, and),
      array:
        a.array === undefined || b.array === undefined
          ? undefined
          : a.array === 'whole'
            ? b.array
            : b.array === 'whole'
              ? a.array
              : lists(a.array, b.array, and),
    };
  }

  // Both merges keep every name either side declares, with the terms of the sides that write it combined: a
  // property of one branch is written under anyOf and allOf alike.
  function shapes(a: Shape, b: Shape, op: typeof or): Shape {
    const props = new Map<string, Term>();
    for (const name of new Set([...a.props.keys(), ...b.props.keys()])) {
      const sides = [termFor(a, name), termFor(b, name)].filter((term) => term !== undefined);
      props.set(name, op(sides, sides[0]!.at));
    }
    const additional = [a.additional, b.additional].filter((term) => term !== undefined);
    return {
      props,
      patterns: [...a.patterns, ...b.patterns],
      additional: additional.length === 0 ? undefined : op(additional, additional[0]!.at),
    };
  }

  function lists(a: Items, b: Items, op: typeof or): Items {
    const prefix: Term[] = [];
    for (let i = 0; i < Math.max(a.prefix.length, b.prefix.length); i++) {
      const sides = [a.prefix[i] ?? a.items, b.prefix[i] ?? b.items];
      prefix.push(op(sides, sides[0]!.at));
    }
    return { prefix, items: op([a.items, b.items], a.items.at) };
  }

  return { any, none, leaf, or, and, levelOf };
}

export type TermSpace = ReturnType<typeof termSpace>;

/** The term that writes key `name` of a shape: its property, else the first pattern it matches, else additional. */
function termFor(shape: Shape, name: string): Term | undefined {
  return (
    shape.props.get(name) ?? shape.patterns.find(([regexp]) => regexp.test(name))?.[1] ?? shape.additional
  );
}

/**
 * The plans of `root` and of every place it reaches, `root`'s first: each term's level is worked out here,
 * so a schema's errors are thrown when it is planned, not when a value comes.
 */
export function plans(root: Term, space: TermSpace): readonly Plan[] {
  const list: Plan[] = [];
  // By level rather than by term: every $ref to one definition is one plan.
  const byLevel = new Map<Level, Plan>();
  const pending: Array<[Plan, Level]> = [];
  const planOf = (term: Term): Plan => {
    const level = space.levelOf(term);
    let plan = byLevel.get(level);
    if (plan === undefined) {
      plan = { id: list.length, at: term.at, scalars: 0, object: undefined, array: undefined };
      list.push(plan);
      byLevel.set(level, plan);
      pending.push([plan, level]);
    }
    return plan;
  };
  planOf(root);
  // A queue rather than recursion: a schema nested deeper than the stack is planned all the same.
  for (let i = 0; i < pending.length; i++) {
    const [plan, level] = pending[i]!;
    plan.scalars = level.scalars;
    plan.object =
      typeof level.object === 'object' ? objectPlan(level.object, planOf, space.levelOf) : level.object;
    plan.array =
      typeof level.array === 'object'
        ? { prefix: level.array.prefix.map(planOf), items: planOf(level.array.items) }
        : level.array;
  }
  return list;
}

function objectPlan(shape: Shape, planOf: (term: Term) => Plan, levelOf: (term: Term) => Level): ObjectPlan {
  const properties: Property[] = [];
  for (const [name, term] of shape.props)
    if (!isNever(levelOf(term)))
      properties.push({ name, key: `${JSON.stringify(name)}:`, plan: planOf(term) });
  return {
    properties,
    declared: new Set(shape.props.keys()),
    patterns: shape.patterns.map(([regexp, term]) => ({ regexp, plan: planOf(term) })),
    additional: shape.additional === undefined ? undefined : planOf(shape.additional),
  };
}

/** Whether a plan (or level) declares no value at all (`false`): a key under it is never written. */
export function isNever(plan: Plan | Level): boolean {
  return plan.scalars === 0 && plan.object === undefined && plan.array === undefined;
}
