// examples/minimal.ts, which reads the port from PORT: one resource kept in a Map, served on node:http.
import { formatRoutes, HttpError, resource } from 'sevenfold';
import { serve } from 'sevenfold/node';

const store = new Map<string, { id: string; title: string }>();

const posts = resource('posts', {
  index: () => [...store.values()],
  show(req) {
    const post = store.get(req.params.post_id); // post_id: string, typed from 'posts'
    if (!post) throw new HttpError(404, 'no such post'); // a problem+json 404
    return post; // sent as 200 JSON
  },
  create(req, res) {
    const { id, title } = req.body as { id: string; title: string };
    store.set(id, { id, title });
    return res.created(`/posts/${id}`, store.get(id)); // 201 with Location
  },
  destroy(req) {
    store.delete(req.params.post_id); // returning nothing: 204
  },
});

console.log(formatRoutes(posts)); // the table is the product: print it, diff it, test it
const { url } = await serve(posts, { port: Number(process.env.PORT ?? 3000) });
console.log(`listening on ${url}`);
