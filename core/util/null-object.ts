/**
 * A constructor for objects with no `Object.prototype` in their chain, so a client's
 * `__proto__` or `constructor` key is just a key. `Object.create(null)` does the same but
 * gives V8 dictionary-mode objects, slower to fill and read on every request.
 */
export const NullObject = function NullObject() {} as unknown as new () => Record<string, any>;
NullObject.prototype = Object.freeze(Object.create(null));
