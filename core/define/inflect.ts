/**
 * Resource names become id parameters: `posts` → `post_id`, `categories` → `category_id`.
 *
 * The rule is applied to the last `_`-separated word of the name and exists twice, once as
 * code (`singular`) and once as a type (`Singular`); test/core/inflect.test.ts proves they agree.
 * 1. a word in IRREGULAR maps to its entry; a word in UNCOUNTABLE stays as it is;
 * 2. `…ies` after a consonant → `…y` (categories → category);
 * 3. `…sses`, `…zzes`, `…xes`, `…ches`, `…shes` drop `es` (addresses → address, boxes → box);
 * 4. a word ending in `ss`, `us` or `is` is taken to be singular already: no rule applies;
 * 5. `…s` drops the `s` (posts → post, houses → house);
 * 6. anything else (people2, inbox, staff): no rule applies.
 * Where no rule applies, `resource()` requires `options.param`, at compile time and at run time.
 */

/**
 * Plurals the suffix rules get wrong, mapped to their singular; frozen, as `resource()` trusts the names made
 * from it.
 */
export const IRREGULAR = Object.freeze({
  people: 'person',
  men: 'man',
  women: 'woman',
  children: 'child',
  mice: 'mouse',
  geese: 'goose',
  feet: 'foot',
  teeth: 'tooth',
  oxen: 'ox',
  lives: 'life',
  wives: 'wife',
  knives: 'knife',
  leaves: 'leaf',
  halves: 'half',
  wolves: 'wolf',
  shelves: 'shelf',
  movies: 'movie',
  cookies: 'cookie',
  zombies: 'zombie',
  pies: 'pie',
  ties: 'tie',
  caches: 'cache',
  quizzes: 'quiz',
  statuses: 'status',
  aliases: 'alias',
  buses: 'bus',
  viruses: 'virus',
  analyses: 'analysis',
  theses: 'thesis',
  crises: 'crisis',
  diagnoses: 'diagnosis',
  indices: 'index',
  matrices: 'matrix',
  vertices: 'vertex',
  criteria: 'criterion',
  phenomena: 'phenomenon',
  heroes: 'hero',
  potatoes: 'potato',
  tomatoes: 'tomato',
  echoes: 'echo',
} as const);

/** Words whose singular is the word itself. */
export const UNCOUNTABLE = Object.freeze([
  'news',
  'series',
  'species',
  'sheep',
  'fish',
  'deer',
  'data',
  'metadata',
  'media',
  'information',
  'equipment',
  'feedback',
  'software',
  'hardware',
  'advice',
  'money',
] as const);

type Irregular = typeof IRREGULAR;
type Uncountable = (typeof UNCOUNTABLE)[number];
type Vowel = 'a' | 'e' | 'i' | 'o' | 'u';

type PlainWord<W extends string> = W extends `${string}${'ss' | 'us' | 'is'}`
  ? never
  : W extends `${infer S}s`
    ? S extends ''
      ? never
      : S
    : never;

type EsWord<W extends string> = W extends `${infer S}sses`
  ? `${S}ss`
  : W extends `${infer S}zzes`
    ? `${S}zz`
    : W extends `${infer S}xes`
      ? `${S}x`
      : W extends `${infer S}ches`
        ? `${S}ch`
        : W extends `${infer S}shes`
          ? `${S}sh`
          : PlainWord<W>;

type SingularWord<W extends string> = W extends keyof Irregular
  ? Irregular[W]
  : W extends Uncountable
    ? W
    : W extends `${infer S}ies`
      ? S extends '' | `${string}${Vowel}`
        ? EsWord<W>
        : `${S}y`
      : EsWord<W>;

/** The singular of a resource name by the rule above, or `never` where no rule applies. */
export type Singular<N extends string> = string extends N
  ? string
  : N extends `${infer Head}_${infer Tail}`
    ? Singular<Tail> extends never
      ? never
      : `${Head}_${Singular<Tail>}`
    : SingularWord<N>;

/** The id parameter `resource(N, …)` uses by default: `post_id` for `posts`; `never` if unknown. */
export type IdParam<N extends string> = [Singular<N>] extends [never] ? never : `${Singular<N>}_id`;

const uncountable: ReadonlySet<string> = new Set(UNCOUNTABLE);
const VOWELS = 'aeiou';
const ES_ENDINGS = ['sses', 'zzes', 'xes', 'ches', 'shes'] as const;

function singularWord(word: string): string | undefined {
  if (Object.hasOwn(IRREGULAR, word)) return IRREGULAR[word as keyof Irregular];
  if (uncountable.has(word)) return word;
  if (word.endsWith('ies') && word.length > 3 && !VOWELS.includes(word[word.length - 4]!)) {
    return `${word.slice(0, -3)}y`;
  }
  for (const ending of ES_ENDINGS) if (word.endsWith(ending)) return word.slice(0, -2);
  if (word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return undefined;
  if (word.endsWith('s') && word.length > 1) return word.slice(0, -1);
  return undefined;
}

/** The singular of `name` by the rule above, or `undefined` where no rule applies. */
export function singular(name: string): string | undefined {
  const cut = name.lastIndexOf('_');
  const word = singularWord(name.slice(cut + 1));
  return word === undefined ? undefined : name.slice(0, cut + 1) + word;
}

/** The default id parameter for a resource name (`posts` → `post_id`), or `undefined`. */
export function idParam(name: string): string | undefined {
  const one = singular(name);
  return one === undefined ? undefined : `${one}_id`;
}
