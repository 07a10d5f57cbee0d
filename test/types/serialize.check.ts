// Type tests: compiled by `tsc -p .` in `npm test`, never run. A line marked @ts-expect-error
// that compiles, or an Expect<Equal<…>> that does not hold, fails the build.
import { compileSerializer, interpretSerializer, type Serializer } from '../../core/schema/serialize.js';
import { Post } from '../../examples/posts/schema.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

// A schema `as const`, a boolean schema, and a label.
const compiled = compileSerializer(Post, { label: 'posts#show response 200' });
const any = compileSerializer(true);
const walked = interpretSerializer({ type: 'array', items: Post });

export type Checks = [
  Expect<Equal<typeof compiled, Serializer>>,
  Expect<Equal<ReturnType<Serializer['serialize']>, string>>,
  Expect<Equal<Serializer['source'], string | undefined>>,
  Expect<Equal<typeof any, Serializer>>,
  Expect<Equal<typeof walked, Serializer>>,
];

// @ts-expect-error a schema is an object or a boolean
compileSerializer('string');
// @ts-expect-error the walk is asked for by interpretSerializer(), not by its options
interpretSerializer(Post, { generate: true });
// @ts-expect-error the label is text
compileSerializer(Post, { label: 200 });
