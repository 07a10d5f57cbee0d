/** A post as stored; the JSON answer adds its `links`. */
export interface Post {
  readonly id: string;
  readonly title: string;
  readonly body: string;
  /** When it was first published, or `null` while it is a draft. */
  readonly publishedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A comment as stored: it belongs to one post, but is named by its own id alone (shallow routes). */
export interface Comment {
  readonly id: string;
  readonly postId: string;
  readonly author: string;
  readonly body: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The blog's one profile: a singular resource, never named by id. */
export interface Profile {
  readonly name: string;
  readonly bio: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * Posts, comments and the profile in memory, in Maps whose insertion order is creation order
 * (so listing needs no sort), with plain synchronous methods since nothing here waits.
 */
export class BlogRepository {
  readonly #posts = new Map<string, Post>();
  readonly #comments = new Map<string, Comment>();
  #profile: Profile | undefined;

  /** Posts oldest first. */
  posts(): Post[] {
    return [...this.#posts.values()];
  }

  /** Posts whose title or body contains `text`, ignoring case, oldest first. */
  search(text: string): Post[] {
    const needle = text.toLowerCase();
    return this.posts().filter(
      (post) => post.title.toLowerCase().includes(needle) || post.body.toLowerCase().includes(needle),
    );
  }

  post(id: string): Post | undefined {
    return this.#posts.get(id);
  }

  /** Stores a new post; `false` when the id is taken. */
  insertPost(post: Post): boolean {
    if (this.#posts.has(post.id)) return false;
    this.#posts.set(post.id, post);
    return true;
  }

  /** Replaces a stored post in place, so it keeps its place in the order. */
  savePost(post: Post): void {
    this.#posts.set(post.id, post);
  }

  /** Removes a post and its comments; `false` when there was none. */
  removePost(id: string): boolean {
    if (!this.#posts.delete(id)) return false;
    for (const comment of this.#comments.values()) {
      if (comment.postId === id) this.#comments.delete(comment.id);
    }
    return true;
  }

  /** The comments of one post, oldest first. */
  commentsOf(postId: string): Comment[] {
    return [...this.#comments.values()].filter((comment) => comment.postId === postId);
  }

  comment(id: string): Comment | undefined {
    return this.#comments.get(id);
  }

  /** Stores a comment, new or changed (ids are generated, so a new one never collides). */
  saveComment(comment: Comment): void {
    this.#comments.set(comment.id, comment);
  }

  /** Removes a comment; `false` when there was none. */
  removeComment(id: string): boolean {
    return this.#comments.delete(id);
  }

  profile(): Profile | undefined {
    return this.#profile;
  }

  saveProfile(profile: Profile): void {
    this.#profile = profile;
  }

  /** Removes the profile; `false` when there was none. */
  removeProfile(): boolean {
    const had = this.#profile !== undefined;
    this.#profile = undefined;
    return had;
  }
}
