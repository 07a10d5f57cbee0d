/** Checks of numeric options, shared by `compile()` and the adapters, so each says the same. */

/**
 * `value` when it is a whole number of at least `min`; otherwise a TypeError that names the option (and its
 * unit).
 */
export function wholeNumber(name: string, value: number, min: number, unit?: string): number {
  if (!Number.isSafeInteger(value) || value < min) {
    const what = unit === undefined ? 'a whole number' : `a whole number of ${unit}`;
    throw new TypeError(`${name} must be ${what} of at least ${min}, got ${value}`);
  }
  return value;
}
