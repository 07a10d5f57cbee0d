import type { InjectionToken } from 'sevenfold/controllers';
import type { PostRepository } from './repository.js';

// The controller asks for its services by these names and app.ts registers them, so both look here.

/** Where the posts live: register another PostRepository under this token to swap the store. */
export const POST_REPOSITORY: InjectionToken<PostRepository> = Symbol('PostRepository');
/** The clock behind createdAt and updatedAt; tests register a fixed one. */
export const CLOCK: InjectionToken<() => Date> = Symbol('Clock');
/** Ids for posts created without one. */
export const NEW_ID: InjectionToken<() => string> = Symbol('NewId');
/** Ids no member route could be reached with (a static route where the id goes): create refuses them with 422. */
export const UNREACHABLE_IDS: InjectionToken<ReadonlySet<string>> = Symbol('UnreachableIds');
