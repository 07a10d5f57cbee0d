// `sevenfold/caching`: validators for GET responses, written on sevenfold's public API as any app's hook would be.
export { etag } from './etag.js';
export { fresh, type ValidatorPart, type Validators } from './fresh.js';
