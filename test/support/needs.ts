import type { Callback, Test } from 'uvu';

/** What some tests need that a developer's machine may lack (PostgreSQL, Chromium, a runtime of test/runtimes/). */
export interface Need {
  /** The tests, as the warning names them. */
  readonly what: string;
  /** Whether everything they need is here. */
  readonly ok: boolean;
  /** Why each missing part is missing, saying what to install. */
  readonly missing: readonly string[];
}

// SEVENFOLD_TEST_WITHOUT=chromium,postgres,bun hides what it names, to see the tests that need it skip.
const without = new Set(
  (process.env.SEVENFOLD_TEST_WITHOUT ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== ''),
);

/** The reason `name` is missing when `SEVENFOLD_TEST_WITHOUT` hides it, else `undefined`. */
export function hidden(name: string): string | undefined {
  return without.has(name) ? `${name}: hidden by SEVENFOLD_TEST_WITHOUT` : undefined;
}

/** What the tests of `what` need, decided once as their file loads, from the reason each missing part is missing. */
export function need(what: string, reasons: ReadonlyArray<string | undefined>): Need {
  const missing = reasons.filter((reason): reason is string => reason !== undefined);
  // Under CI the failing tests say it.
  if (missing.length > 0 && process.env.CI !== 'true')
    console.warn(`\n  ⚠ SKIPPED ${what}:\n    ${missing.join('\n    ')}\n`);
  return { what, ok: missing.length === 0, missing };
}

/**
 * `run` when `need` is met, else a suite like it whose tests are registered with `skip` (uvu counts them
 * skipped, not passed), or failing under `CI=true` (CI must not pass by skipping), and whose hooks are dropped.
 */
export function needs<T>(need: Need, run: Test<T>): Test<T> {
  if (need.ok) return run;
  const failure = `CI needs ${need.what}: ${need.missing.join('; ')}`;
  const register =
    process.env.CI === 'true'
      ? (name: string) =>
          run(name, () => {
            throw new Error(failure);
          })
      : (name: string, body: Callback<T>) => run.skip(name, body);
  // Hooks of tests that do not run have nothing to set up.
  const dropped = Object.assign(() => {}, { each: () => {} });
  return Object.assign(register, {
    only: register,
    skip: run.skip,
    before: dropped,
    after: dropped,
    run: run.run,
  });
}
