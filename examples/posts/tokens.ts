// Injection tokens: the controller asks for its services by these names.
import type { InjectionToken } from 'sevenfold/controllers';
import type { PostRepository } from './repository.js';
import type { PostsRoutes } from './routes.js';

/** Where the posts live: register another PostRepository under this token to swap the store. */
export const POST_REPOSITORY: InjectionToken<PostRepository> = Symbol('PostRepository');
/** The clock behind createdAt and updatedAt; tests register a fixed one. */
export const CLOCK: InjectionToken<() => Date> = Symbol('Clock');
/** Ids for posts created without one. */
export const NEW_ID: InjectionToken<() => string> = Symbol('NewId');
/**
 * The routes of the resource the controller serves, computed from it when first asked: the controller is
 * built before it.
 */
export const POSTS_ROUTES: InjectionToken<() => PostsRoutes> = Symbol('PostsRoutes');
