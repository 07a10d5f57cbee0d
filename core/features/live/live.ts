// live(): a watched resource's index and show stream its changes; its create, update and destroy publish them.
import {
  events,
  Result,
  type EventSink,
  type EventStreamOptions,
  type HandlerRequest,
  type JsonSchema,
  type Reply,
  type Route,
  type RouteEvents,
  type Watcher,
  type WatchedResource,
} from 'sevenfold';
import { compileSerializer } from 'sevenfold/serializer';
import { memoryBroker, type Broker, type LiveEvent, type Reload } from './broker.js';

/** The events a watched route streams, besides `reload`. */
export type ChangeName = 'created' | 'updated' | 'destroyed';

export interface LiveOptions extends EventStreamOptions {
  /** Carries changes between processes and keeps their history: `memoryBroker()` (this process) by default. */
  readonly broker?: Broker;
  /**
   * Names the streams that end together: `changes.disconnect(tag)` ends every stream whose request it named,
   * in every process the broker reaches, e.g. `(req) => sessionOf(req).id` so that signing out ends them.
   */
  readonly tag?: (req: HandlerRequest<any, any, any, any>) => string | undefined;
}

/** What `live()` makes: the `watch` option of resources, and what publishes changes made elsewhere. */
export interface Live extends Watcher {
  /** The broker changes go through. */
  readonly broker: Broker;
  /** Watching for one action alone: `{ watch: changes.only('show') }`. */
  only(...actions: readonly ('index' | 'show')[]): Watcher;
  /**
   * Publishes a change made outside the resource's own create, update and destroy (a job, another table):
   * `await changes.publish('posts', 'updated', post)`. `data` is written by the resource's show serializer and
   * its member is `data.id`; `scope` gives a nested resource's parent params (`{ user_id: '1' }`). Resolves with
   * the event's id.
   */
  publish(
    resource: string | { readonly name: string },
    name: ChangeName,
    data: unknown,
    scope?: Readonly<Record<string, unknown>>,
  ): Promise<string>;
  /** Ends the streams whose `tag` is `tag`, in every process the broker reaches. */
  disconnect(tag: string): Promise<void>;
  /** How many streams are open here. */
  readonly open: number;
  /** Ends every stream here and closes the broker. */
  close(): Promise<void>;
}

/** The channel that carries `disconnect()` between processes: no resource's name starts with `#`. */
const CONTROL = '#disconnect';
/** Which entity a create or update changed, when its answer does not carry it (a form's redirect). */
const CHANGED = new WeakMap<object, unknown>();

/**
 * Names the entity a handler created or updated, for its watchers: needed when its answer does not carry it
 * (a `303` after a form), so that the event's data is the entity and not its id alone.
 */
export function changed(req: HandlerRequest<any, any, any, any>, entity: unknown): void {
  CHANGED.set(req, entity);
}

/** What the hub keeps of a watched resource: how its data is written, where its member and scope come from. */
interface Watched {
  readonly name: string;
  readonly param: string | undefined;
  readonly serialize: (value: unknown) => string;
  /** The params that place a member in its parents, in path order. */
  readonly scopeParams: readonly string[];
}

/**
 * A hub for watched resources: `resource('posts', handlers, { watch: changes })` with `const changes = live()`.
 * Its index and show answer `Accept: text/event-stream` with the resource's changes (docs/live.md).
 */
export function live(options: LiveOptions = {}): Live {
  const broker = options.broker ?? memoryBroker();
  const { tag } = options;
  const streamOptions: EventStreamOptions = {
    ...(options.heartbeat === undefined ? {} : { heartbeat: options.heartbeat }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    ...(options.maxBuffered === undefined ? {} : { maxBuffered: options.maxBuffered }),
  };
  const resources = new Map<string, Watched>();
  const open = new Set<EventSink>();
  const tagged = new Map<string, Set<EventSink>>();
  let control: (() => void) | undefined;

  /** Listens for `disconnect()` from any process, once a stream is open that a tag names. */
  function listenForDisconnects(): void {
    control ??= broker.subscribe(CONTROL, (event) => {
      if (event.name !== 'disconnect') return;
      const tag = (JSON.parse((event as LiveEvent).data) as { tag: string }).tag;
      for (const stream of tagged.get(tag) ?? []) stream.close();
    });
  }

  function watchRoutes(resource: WatchedResource, actions: readonly string[]): readonly Route[] {
    const show = resource.routes.find((route) => route.action === 'show' && route.method === 'GET');
    const schema = show?.schema?.response?.['200'];
    const label = `${resource.name}#show response 200 (watched)`;
    const serialize = schema === undefined ? JSON.stringify : compileSerializer(schema, { label }).serialize;
    const own = resource.param;
    const member = resource.routes.find((route) => own !== undefined && route.params.includes(own));
    const scopeParams = (member ?? resource.routes[0]!).params.filter((name) => name !== own);
    const watched: Watched = { name: resource.name, param: own, serialize, scopeParams };
    resources.set(resource.name, watched);
    const eventsOf = routeEvents(schema, own, show?.schema?.params);
    return resource.routes.map((route) => {
      if (
        route.method === 'GET' &&
        actions.includes(route.action) &&
        (route.action === 'index' || route.action === 'show')
      )
        return { ...route, events: eventsOf, handler: watching(route, watched) };
      if (route.action === 'create' || route.action === 'update' || route.action === 'destroy')
        return { ...route, handler: publishing(route, watched) };
      return route;
    });
  }

  /** The index or show handler, answering a client that asks for `text/event-stream` with a stream. */
  function watching(route: Route, watched: Watched): Route['handler'] {
    const handler = route.handler;
    const memberOf = route.action === 'show' ? watched.param : undefined;
    return (req, res) => {
      if (!wantsEvents(req.headers.accept)) return handler(req, res);
      const scope = scopeOf(req.params, watched.scopeParams);
      const member = memberOf === undefined ? undefined : String(req.params[memberOf]);
      const pass = (event: LiveEvent) =>
        member === undefined
          ? event.scope === scope
          : event.member === member && (scope === '' || event.scope === scope);
      return events(req, (stream) => watch(stream, watched.name, pass, tag?.(req)), streamOptions);
    };
  }

  /** Sends what the client missed (from `Last-Event-ID`), then every change as it comes, in order. */
  async function watch(
    stream: EventSink,
    channel: string,
    pass: (event: LiveEvent) => boolean,
    name: string | undefined,
  ): Promise<void> {
    open.add(stream);
    if (name !== undefined) {
      listenForDisconnects();
      let streams = tagged.get(name);
      if (streams === undefined) tagged.set(name, (streams = new Set()));
      streams.add(stream);
    }
    // Events that come while the history is read wait, so that none is sent twice or out of order.
    let waiting: (LiveEvent | Reload)[] | undefined = [];
    const seen = new Set<string>();
    const send = (event: LiveEvent | Reload) => {
      if (event.name === 'reload') stream.send(reloadEvent(event as Reload));
      else if (pass(event as LiveEvent) && !seen.has(event.id!))
        stream.send({ event: event.name, id: event.id, data: (event as LiveEvent).data });
    };
    const unsubscribe = broker.subscribe(channel, (event) =>
      waiting === undefined ? send(event) : waiting.push(event),
    );
    stream.signal.addEventListener('abort', () => {
      unsubscribe();
      open.delete(stream);
      if (name === undefined) return;
      const streams = tagged.get(name);
      streams?.delete(stream);
      if (streams?.size === 0) tagged.delete(name);
    });
    try {
      if (stream.lastEventId !== undefined) {
        const missed = await broker.since(channel, stream.lastEventId);
        if (!Array.isArray(missed)) stream.send(reloadEvent(missed as Reload));
        else
          for (const event of missed as readonly LiveEvent[]) {
            send(event);
            seen.add(event.id);
          }
      }
    } finally {
      const queued = waiting;
      waiting = undefined;
      for (const event of queued) send(event);
    }
  }

  /** A create, update or destroy handler that publishes its change once it succeeded, before it answers. */
  function publishing(route: Route, watched: Watched): Route['handler'] {
    const handler = route.handler;
    const name: ChangeName =
      route.action === 'create' ? 'created' : route.action === 'update' ? 'updated' : 'destroyed';
    return (req, res) => {
      const out = handler(req, res);
      const after = (value: unknown) => publishAnswer(req, res, value, watched, name).then(() => value);
      if (out !== null && typeof out === 'object' && typeof (out as PromiseLike<unknown>).then === 'function')
        return Promise.resolve(out).then(after);
      return after(out);
    };
  }

  async function publishAnswer(
    req: HandlerRequest<any, any, any, any>,
    res: Reply,
    out: unknown,
    watched: Watched,
    name: ChangeName,
  ): Promise<void> {
    const status = out instanceof Result ? out.status : 200;
    if (status >= 400) return;
    const { param } = watched;
    let member = param === undefined ? undefined : (req.params as Record<string, unknown>)[param];
    let entity = CHANGED.get(req);
    if (entity === undefined && name !== 'destroyed') {
      if (out instanceof Result) entity = out.kind === 'json' ? out.body : undefined;
      else entity = out;
    }
    if (member === undefined && entity !== null && typeof entity === 'object')
      member = (entity as { id?: unknown }).id;
    if (member === undefined) member = memberFromLocation(out, res);
    const data =
      entity === undefined || name === 'destroyed'
        ? JSON.stringify({ id: member ?? null })
        : watched.serialize(entity);
    const scope = scopeOf(req.params, watched.scopeParams);
    try {
      await broker.publish(watched.name, {
        name,
        scope,
        member: member === undefined ? undefined : String(member),
        data,
      });
    } catch (error) {
      // The change is made: the answer tells the client so, and the log says its watchers were not told.
      req.log.error({ err: error }, `${watched.name}: the ${name} event could not be published`);
    }
  }

  function only(...actions: readonly ('index' | 'show')[]): Watcher {
    for (const action of actions)
      if (action !== 'index' && action !== 'show')
        throw new TypeError(`live().only(): only index and show stream, got ${JSON.stringify(action)}`);
    return { watchRoutes: (resource) => watchRoutes(resource, actions) };
  }

  return {
    broker,
    watchRoutes: (resource) => watchRoutes(resource, ['index', 'show']),
    only,
    async publish(resource, name, data, scope = {}) {
      const key = typeof resource === 'string' ? resource : resource.name;
      const watched = resources.get(key);
      if (watched === undefined)
        throw new TypeError(
          `live().publish(): no resource "${key}" is watched by this hub; give it { watch: changes } first`,
        );
      const id = data !== null && typeof data === 'object' ? (data as { id?: unknown }).id : undefined;
      const payload = name === 'destroyed' ? JSON.stringify({ id: id ?? null }) : watched.serialize(data);
      return broker.publish(key, {
        name,
        scope: scopeOf(scope, watched.scopeParams),
        member: id === undefined ? undefined : String(id),
        data: payload,
      });
    },
    async disconnect(name) {
      await broker.publish(CONTROL, { name: 'disconnect', scope: '', data: JSON.stringify({ tag: name }) });
    },
    get open() {
      return open.size;
    },
    async close() {
      for (const stream of [...open]) stream.close();
      control?.();
      await broker.close?.();
    },
  };
}

/** Whether the client asked for an event stream by name (`*\/*` is a browser's page load, not a watch). */
export function wantsEvents(accept: string | string[] | undefined): boolean {
  if (accept === undefined) return false;
  for (const range of (Array.isArray(accept) ? accept.join(',') : accept).split(',')) {
    const [type, ...parameters] = range.split(';');
    if (type!.trim().toLowerCase() !== 'text/event-stream') continue;
    const q = parameters.find((parameter) => parameter.trim().toLowerCase().startsWith('q='));
    return q === undefined || Number(q.trim().slice(2)) > 0;
  }
  return false;
}

/** The parent params as one string, the same from a route's params and from `publish()`'s scope. */
function scopeOf(params: Readonly<Record<string, unknown>>, names: readonly string[]): string {
  return names.map((name) => `${name}=${encodeURIComponent(String(params[name] ?? ''))}`).join('&');
}

/** The last segment of a `Location` the answer points at: a created member's id when nothing else tells it. */
function memberFromLocation(out: unknown, res: Reply): string | undefined {
  const location = (out instanceof Result ? out.headers?.Location : undefined) ?? res.headers?.Location;
  if (location === undefined) return undefined;
  const path = location.split(/[?#]/)[0]!;
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last === '' ? undefined : decodeURIComponent(last);
}

function reloadEvent(reload: Reload): { event: string; id?: string; data: string } {
  const data = JSON.stringify({ reason: 'events were missed: fetch afresh' });
  return reload.id === undefined ? { event: 'reload', data } : { event: 'reload', id: reload.id, data };
}

/** The events a watched index or show streams, with the schema of each one's data. */
function routeEvents(
  schema: JsonSchema | undefined,
  param: string | undefined,
  params: JsonSchema | undefined,
): RouteEvents {
  const idSchema = ((params?.properties as Record<string, JsonSchema> | undefined)?.[param ?? ''] ?? {
    type: 'string',
  }) as JsonSchema;
  const entity = schema === undefined ? {} : { data: schema };
  return Object.freeze({
    created: { ...entity, description: 'A member was created: its JSON as show answers it.' },
    updated: { ...entity, description: 'A member was updated: its JSON as show answers it.' },
    destroyed: {
      data: { type: 'object', properties: { id: idSchema }, required: ['id'] },
      description: 'A member was destroyed: its id.',
    },
    reload: {
      data: { type: 'object', properties: { reason: { type: 'string' } } },
      description: 'Events were missed (too far behind, or the broker lost its connection): fetch afresh.',
    },
  });
}
