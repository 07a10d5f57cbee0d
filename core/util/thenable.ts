/** Whether a handler's answer is still to come (a promise or any thenable), to await before rendering. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function'
  );
}
