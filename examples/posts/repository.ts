// What the controller needs of a store (PostRepository), and the in-memory one.
import { byAge, type Post } from './post.js';

/** A page of posts and how many there are in all. */
export interface Page {
  readonly posts: readonly Post[];
  readonly total: number;
}

/** Where posts live; the app sees only this, so a database can replace the memory store. */
export interface PostRepository {
  /** Posts oldest first (then by id), `limit` of them from `offset`. */
  list(limit: number, offset: number): Promise<Page>;
  get(id: string): Promise<Post | undefined>;
  /** Stores a new post; `false` when the id is taken. */
  insert(post: Post): Promise<boolean>;
  /** Replaces a stored post; `false` when there is none with that id. */
  replace(post: Post): Promise<boolean>;
  /** Removes a post; `false` when there was none. */
  remove(id: string): Promise<boolean>;
}

/** An in-memory repository: a Map, plus a sorted view rebuilt only after writes. */
export class MemoryPostRepository implements PostRepository {
  readonly #posts = new Map<string, Post>();
  #sorted: Post[] | undefined;

  async list(limit: number, offset: number): Promise<Page> {
    const sorted = (this.#sorted ??= [...this.#posts.values()].sort(byAge));
    return { posts: sorted.slice(offset, offset + limit), total: sorted.length };
  }

  async get(id: string): Promise<Post | undefined> {
    return this.#posts.get(id);
  }

  async insert(post: Post): Promise<boolean> {
    if (this.#posts.has(post.id)) return false;
    this.#posts.set(post.id, post);
    this.#sorted = undefined;
    return true;
  }

  async replace(post: Post): Promise<boolean> {
    if (!this.#posts.has(post.id)) return false;
    this.#posts.set(post.id, post);
    this.#sorted = undefined;
    return true;
  }

  async remove(id: string): Promise<boolean> {
    this.#sorted = undefined;
    return this.#posts.delete(id);
  }
}
