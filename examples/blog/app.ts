// examples/blog: posts with publish and search, comments nested shallow, a singular profile, under /blog.
import { HttpError, paths, prefix, resource, singular, unreachableIds, type Form } from 'sevenfold';
import { BlogRepository, type Comment, type Post, type Profile } from './repository.js';
import { BLOG_PREFIX, COMMENT_SCHEMAS, POST_SCHEMAS, PROFILE_SCHEMAS } from './schema.js';

/**
 * What the app is built from; tests pass a fixed clock and numbered ids so every run answers the same bytes.
 */
export interface BlogOptions {
  readonly repository?: BlogRepository;
  readonly now?: () => Date;
  readonly newId?: () => string;
}

/** A post as sent: the stored record and where to go from it. */
export type PostJson = Post & { readonly links: { self: string; comments: string; publish: string } };
export type CommentJson = Comment & { readonly links: { self: string; post: string } };
export type ProfileJson = Profile & { readonly links: { self: string; posts: string } };
/** What new and edit answer: the fields to fill in and the form that sends them. */
export type PostForm = Pick<Post, 'id' | 'title' | 'body'> & { readonly form: Form };
export type CommentForm = Pick<Comment, 'id' | 'body'> & { readonly form: Form };

/**
 * How records become answers, links built by the table's own path helpers: the handlers reach
 * them through this explicitly typed object, since typing them from a table that holds those
 * very handlers is circular (TS7022) unless every handler annotates its return type.
 */
interface Views {
  post(post: Post): PostJson;
  /** Where a post with this id would be shown, whether or not it exists. */
  postPath(id: string): string;
  newPost(id: string): PostForm;
  editPost(post: Post): PostForm;
  comment(comment: Comment): CommentJson;
  editComment(comment: Comment): CommentForm;
  profile(profile: Profile): ProfileJson;
}

/**
 * The blog as one route table under /blog: posts (the seven actions, `publish` on a member,
 * `search` on the collection, update on PUT and PATCH), their comments nested shallow and the
 * one profile, kept in `repository`; the unprefixed resources come beside `table` for
 * `unreachableIds(table, posts)`, but only the table is served.
 */
export function blogApp(options: BlogOptions = {}) {
  const {
    repository = new BlogRepository(),
    now = () => new Date(),
    newId = () => crypto.randomUUID(),
  } = options;
  // Both are filled in once the table exists; no handler runs before that.
  let views!: Views;
  let unreachable: ReadonlySet<string> = new Set();

  const stamp = (): string => now().toISOString();
  const absent = (what: string, id: string): HttpError =>
    new HttpError(404, `there is no ${what} with id ${JSON.stringify(id)}`);
  const noProfile = (): HttpError => new HttpError(404, 'there is no profile yet: create it with POST');
  const postOf = (id: string): Post => {
    const post = repository.post(id);
    if (post === undefined) throw absent('post', id);
    return post;
  };
  const commentOf = (id: string): Comment => {
    const comment = repository.comment(id);
    if (comment === undefined) throw absent('comment', id);
    return comment;
  };
  const profileOf = (): Profile => {
    const profile = repository.profile();
    if (profile === undefined) throw noProfile();
    return profile;
  };

  const posts = resource(
    'posts',
    {
      index: () => repository.posts().map((post) => views.post(post)),
      show: (req) => views.post(postOf(req.params.post_id)),
      new: (req) => views.newPost(req.params.post_id),
      edit: (req) => views.editPost(postOf(req.params.post_id)),
      create: (req, res) => {
        const { id = newId(), title, body } = req.body;
        // GET /blog/posts/search is the search: a post with that id could never be shown.
        if (unreachable.has(id)) {
          throw new HttpError(422, 'the post is not valid', {
            errors: {
              id: [`is the path of another route: ${views.postPath(id)} would never show this post`],
            },
          });
        }
        const at = stamp();
        const post: Post = { id, title: title.trim(), body, publishedAt: null, createdAt: at, updatedAt: at };
        if (!repository.insertPost(post)) {
          throw new HttpError(409, `a post with id ${JSON.stringify(id)} exists already`, {
            errors: { id: ['is taken by another post'] },
          });
        }
        const answer = views.post(post);
        return res.created(answer.links.self, answer);
      },
      // One handler for PUT and PATCH: the fields sent change, the others stay.
      update: (req) => {
        const post = postOf(req.params.post_id);
        const { title, body } = req.body;
        const changed: Post = {
          ...post,
          title: title === undefined ? post.title : title.trim(),
          body: body ?? post.body,
          updatedAt: stamp(),
        };
        repository.savePost(changed);
        return views.post(changed);
      },
      destroy: (req) => {
        if (!repository.removePost(req.params.post_id)) throw absent('post', req.params.post_id);
      },
      publish: (req) => {
        const post = postOf(req.params.post_id);
        if (post.publishedAt !== null) return views.post(post);
        const at = stamp();
        const published: Post = { ...post, publishedAt: at, updatedAt: at };
        repository.savePost(published);
        return views.post(published);
      },
      search: (req) => repository.search(req.query.q).map((post) => views.post(post)),
    },
    {
      schemas: POST_SCHEMAS,
      member: { publish: 'POST' },
      collection: { search: 'GET' },
      patch: true,
    },
  );

  const comments = resource(
    'comments',
    {
      index: (req) => {
        const post = postOf(req.params.post_id);
        return repository.commentsOf(post.id).map((comment) => views.comment(comment));
      },
      show: (req) => views.comment(commentOf(req.params.comment_id)),
      edit: (req) => views.editComment(commentOf(req.params.comment_id)),
      create: (req, res) => {
        const post = postOf(req.params.post_id);
        const at = stamp();
        const comment: Comment = {
          id: newId(),
          postId: post.id,
          author: req.body.author.trim(),
          body: req.body.body,
          createdAt: at,
          updatedAt: at,
        };
        repository.saveComment(comment);
        const answer = views.comment(comment);
        return res.created(answer.links.self, answer);
      },
      update: (req) => {
        const changed: Comment = {
          ...commentOf(req.params.comment_id),
          body: req.body.body,
          updatedAt: stamp(),
        };
        repository.saveComment(changed);
        return views.comment(changed);
      },
      destroy: (req) => {
        if (!repository.removeComment(req.params.comment_id)) throw absent('comment', req.params.comment_id);
      },
    },
    // Shallow: a comment's own routes need only its id, so its links do not depend on its post.
    { parent: posts, shallow: true, schemas: COMMENT_SCHEMAS },
  );

  const profile = singular(
    'profile',
    {
      show: () => views.profile(profileOf()),
      create: (req, res) => {
        if (repository.profile() !== undefined) {
          throw new HttpError(409, 'the profile exists already: change it with PUT');
        }
        const at = stamp();
        const made: Profile = { name: req.body.name.trim(), bio: req.body.bio, createdAt: at, updatedAt: at };
        repository.saveProfile(made);
        const answer = views.profile(made);
        return res.created(answer.links.self, answer);
      },
      update: (req) => {
        const changed: Profile = {
          ...profileOf(),
          name: req.body.name.trim(),
          bio: req.body.bio,
          updatedAt: stamp(),
        };
        repository.saveProfile(changed);
        return views.profile(changed);
      },
      destroy: () => {
        if (!repository.removeProfile()) throw noProfile();
      },
    },
    { schemas: PROFILE_SCHEMAS },
  );

  const table = prefix(BLOG_PREFIX, posts, comments, profile);
  const p = paths(table);
  unreachable = unreachableIds(table, posts);
  views = {
    post: (post) => ({
      ...post,
      links: {
        self: p.posts.show({ post_id: post.id }),
        comments: p.comments.index({ post_id: post.id }),
        publish: p.posts.publish({ post_id: post.id }),
      },
    }),
    postPath: (id) => p.posts.show({ post_id: id }),
    newPost: (id) => ({ id, title: '', body: '', form: p.posts.create.form() }),
    editPost: ({ id, title, body }) => ({ id, title, body, form: p.posts.update.form({ post_id: id }) }),
    comment: (comment) => ({
      ...comment,
      links: {
        self: p.comments.show({ comment_id: comment.id }),
        post: p.posts.show({ post_id: comment.postId }),
      },
    }),
    editComment: ({ id, body }) => ({ id, body, form: p.comments.update.form({ comment_id: id }) }),
    profile: (profile) => ({ ...profile, links: { self: p.profile.show(), posts: p.posts.index() } }),
  };
  return { table, posts, comments, profile };
}
