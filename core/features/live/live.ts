// live(): a watched resource's index and show stream its changes; its create, update and destroy publish them.
import {
  events,
  Result,
  RouteDefinitionError,
  prepareEvent,
  PreparedEvent,
  type EventSink,
  type EventStreamOptions,
  type HandlerRequest,
  type JsonSchema,
  type Logger,
  type Reply,
  type Route,
  type RouteEvents,
  type ServerEvent,
  type Watcher,
  type WatchedResource,
} from 'sevenfold';
import { compileSerializer } from 'sevenfold/serializer';
import { memoryBroker, type Broker, type Change, type LiveEvent, type Reload } from './broker.js';

/** The events a watched route streams, besides `reload`. */
export type ChangeName = 'created' | 'updated' | 'destroyed';

const CHANGE_NAMES: readonly string[] = ['created', 'updated', 'destroyed'];

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
  only<A extends 'index' | 'show'>(...actions: readonly A[]): Watcher<A>;
  /**
   * Publishes a change made outside the resource's own create, update and destroy (a job, another table):
   * `await changes.publish('posts', 'updated', post)`. `data` is written by the resource's show serializer and
   * its member is `data.id`; `scope` gives a nested resource's parent params (`{ user_id: '1' }`), every one
   * of them. Resolves with the event's id; rejects with a `TypeError` for a resource this hub does not watch.
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
  /** Ends every stream here, refuses those that come later, and closes the broker. */
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
  checkBroker(broker);
  const { tag } = options;
  if (tag !== undefined && typeof tag !== 'function')
    throw new TypeError('live(): tag must be a function of the request, e.g. (req) => sessionOf(req).id');
  const streamOptions: EventStreamOptions = {
    ...(options.heartbeat === undefined ? {} : { heartbeat: options.heartbeat }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
    ...(options.maxBuffered === undefined ? {} : { maxBuffered: options.maxBuffered }),
  };
  // Half of what a stream may queue, so that live events still fit behind a replay.
  const replayLimit = (options.maxBuffered ?? 1024 * 1024) / 2;
  // Made once and never opened, so that a wrong heartbeat, retry or maxBuffered throws here, not at a watcher.
  events({ headers: {} }, () => {}, streamOptions);
  const resources = new Map<string, Watched>();
  const open = new Set<EventSink>();
  const tagged = new Map<string, Set<EventSink>>();
  let control: (() => void) | undefined;
  let closed = false;

  /** Listens for `disconnect()` from any process, once a stream is open that a tag names. */
  function listenForDisconnects(): void {
    control ??= broker.subscribe(CONTROL, (event) => {
      if (event.name !== 'disconnect') return;
      let name: unknown;
      try {
        name = (JSON.parse((event as LiveEvent).data) as { tag?: unknown }).tag;
      } catch {
        // Not what disconnect() publishes: another program's message on the channel ends nothing.
        return;
      }
      if (typeof name === 'string') for (const stream of [...(tagged.get(name) ?? [])]) stream.close();
    });
  }

  /** Counts a stream as open, under its tag when it has one. */
  function hold(stream: EventSink, name: string | undefined): void {
    open.add(stream);
    if (name === undefined) return;
    let streams = tagged.get(name);
    if (streams === undefined) tagged.set(name, (streams = new Set()));
    streams.add(stream);
    listenForDisconnects();
  }

  function release(stream: EventSink, name: string | undefined): void {
    open.delete(stream);
    if (name === undefined) return;
    const streams = tagged.get(name);
    streams?.delete(stream);
    if (streams?.size === 0) tagged.delete(name);
  }

  function watchRoutes(
    resource: WatchedResource,
    actions: readonly string[],
    named: boolean,
  ): readonly Route[] {
    const watched = watchedOf(resource, actions, named);
    const show = resource.routes.find((route) => route.action === 'show' && route.method === 'GET');
    const eventsOf = routeEvents(entitySchema(resource.routes), watched.param, show?.schema?.params);
    return resource.routes.map((route) => {
      if (route.method === 'GET' && actions.includes(route.action))
        return withHandler(route, watching(route, watched), eventsOf);
      if (route.action === 'create' || route.action === 'update' || route.action === 'destroy')
        return withHandler(route, publishing(route, watched));
      return route;
    });
  }

  /** The resource as the hub keeps it, checked: what it streams exists, and its changes can be placed. */
  function watchedOf(resource: WatchedResource, actions: readonly string[], named: boolean): Watched {
    const { name, param: own } = resource;
    const call = `${own === undefined ? 'singular' : 'resource'}(${JSON.stringify(name)})`;
    const streamed = actions.filter((action) =>
      resource.routes.some((route) => route.action === action && route.method === 'GET'),
    );
    if (streamed.length < (named ? actions.length : 1)) {
      const missing = named ? actions.filter((action) => !streamed.includes(action)) : actions;
      throw new RouteDefinitionError(
        `${call}: "watch" streams ${missing.join(' and ')}, which the resource does not route; give ${missing.length === 1 ? 'it a handler' : 'one of them a handler'}, or drop "watch"`,
        { resource: name },
      );
    }
    const parents = (route: Route) => route.params.filter((param) => param !== own).join(',');
    const collection = resource.routes.find((route) => own === undefined || !route.params.includes(own));
    const member = resource.routes.find((route) => own !== undefined && route.params.includes(own));
    // A shallow member's routes do not name its parent, so an index could not be told which changes are its own.
    if (
      collection !== undefined &&
      member !== undefined &&
      parents(collection) !== parents(member) &&
      streamed.includes('index')
    )
      throw new RouteDefinitionError(
        `${call}: its index cannot be watched with "shallow": a shallow member's update and destroy do not name its parent, so the index's watchers could not be told which changes are theirs; watch members alone with changes.only('show'), or drop "shallow"`,
        { resource: name },
      );
    const scopeParams = (member ?? collection!).params.filter((param) => param !== own);
    const known = resources.get(name);
    if (known !== undefined && known.scopeParams.join(',') !== scopeParams.join(','))
      throw new RouteDefinitionError(
        `${call}: this hub already watches a resource named "${name}" placed by other params (${known.scopeParams.join(', ') || 'none'}); their changes would share one channel, so give one of them another name`,
        { resource: name },
      );
    const schema = entitySchema(resource.routes);
    const label = `${name} watched events' data`;
    const serialize = schema === undefined ? JSON.stringify : compileSerializer(schema, { label }).serialize;
    const watched: Watched = { name, param: own, serialize, scopeParams };
    resources.set(name, watched);
    return watched;
  }

  /** The index or show handler, answering a client that asks for `text/event-stream` with a stream. */
  function watching(route: Route, watched: Watched): Route['handler'] {
    const handler = route.handler;
    const memberOf = route.action === 'show' ? watched.param : undefined;
    return (req, res) => {
      if (!wantsEvents(req.headers.accept)) return then(handler(req, res), (out) => varyOnAccept(out, res));
      // The handler answers first, as to any GET, so a member it does not find or will not show is not watched.
      const headers = res.headers === null ? null : { ...res.headers };
      const cookies = res.cookies === null ? null : [...res.cookies];
      return then(handler(req, res), (out) => {
        // Its answer is not sent, so neither is what it added to the reply (a Cache-Control would undo no-store).
        res.headers = headers;
        res.cookies = cookies;
        if (statusOf(out) >= 300) return out;
        const params = req.params as Readonly<Record<string, unknown>>;
        const scope = scopeOf(params, watched.scopeParams);
        const member = memberOf === undefined ? undefined : String(params[memberOf]);
        const pass = (event: LiveEvent) =>
          member === undefined
            ? event.scope === scope
            : event.member === member && (scope === '' || event.scope === scope);
        const name = tag?.(req);
        return events(req, (stream) => watch(stream, watched.name, pass, name, req.log), streamOptions);
      });
    };
  }

  /** Sends what the client missed (from `Last-Event-ID`), then every change as it comes, in order. */
  async function watch(
    stream: EventSink,
    channel: string,
    pass: (event: LiveEvent) => boolean,
    name: string | undefined,
    log: Logger,
  ): Promise<void> {
    if (closed) return stream.close();
    if (stream.closed) return;
    let unsubscribe: (() => void) | undefined;
    // Listened for first, so that a stream closed at any later step, even while subscribing, lets go of all.
    stream.signal.addEventListener(
      'abort',
      () => {
        unsubscribe?.();
        release(stream, name);
      },
      { once: true },
    );
    hold(stream, name);
    // Events that come while the history is read wait, so that none is sent out of order.
    let waiting: (LiveEvent | Reload)[] | undefined = [];
    // The ids the history gave, until an event it did not hold shows that none later can repeat one.
    let replayed: Set<string> | undefined;
    // The newest id the client has (sent, replayed or named by a reload), where the broker can order ids.
    let newest = stream.lastEventId;
    const compare = broker.compare?.bind(broker);
    const deliver = (event: LiveEvent | Reload): void => {
      if (event.name === 'reload') {
        if (event.id !== undefined) newest = event.id;
        return write(stream, reloadEvent(event as Reload), log);
      }
      const change = event as LiveEvent;
      if (replayed !== undefined) {
        if (replayed.delete(change.id)) return;
        replayed = undefined;
      }
      // A notification that comes late (another process's, after this client reconnected) is not sent twice.
      if (compare !== undefined && newest !== undefined && compare(change.id, newest) <= 0) return;
      if (compare !== undefined) newest = change.id;
      if (pass(change)) write(stream, prepared(change), log);
    };
    unsubscribe = broker.subscribe(channel, (event) => {
      if (waiting === undefined) deliver(event);
      else waiting.push(event);
    });
    if (stream.closed) return unsubscribe();
    const lastId = stream.lastEventId;
    if (lastId !== undefined) {
      let missed: readonly LiveEvent[] | Reload;
      try {
        missed = await broker.since(channel, lastId);
      } catch (error) {
        // What was missed cannot be told, so the client is told to fetch afresh rather than left to guess.
        log.error({ err: error }, `${channel}: the events after ${lastId} could not be read`);
        missed = { name: 'reload' };
      }
      // A replay larger than a stream may queue would be cut as a slow reader's, again at every reconnect.
      if (Array.isArray(missed) && replayBytes(missed as readonly LiveEvent[], pass) > replayLimit)
        missed = { name: 'reload', id: (missed as readonly LiveEvent[]).at(-1)!.id };
      if (!Array.isArray(missed)) {
        newest = (missed as Reload).id ?? newest;
        write(stream, reloadEvent(missed as Reload), log);
      } else {
        for (const event of missed as readonly LiveEvent[]) {
          newest = event.id;
          if (pass(event)) write(stream, prepared(event), log);
        }
        if (missed.length > 0) replayed = new Set((missed as readonly LiveEvent[]).map((event) => event.id));
      }
    }
    const queued = waiting;
    waiting = undefined;
    for (const event of queued) deliver(event);
  }

  /** A create, update or destroy handler that publishes its change once it succeeded, before it answers. */
  function publishing(route: Route, watched: Watched): Route['handler'] {
    const handler = route.handler;
    const name: ChangeName =
      route.action === 'create' ? 'created' : route.action === 'update' ? 'updated' : 'destroyed';
    return (req, res) =>
      then(handler(req, res), (out) => announce(req, res, out, watched, name).then(() => out));
  }

  /** Publishes the change a handler answered with; a failure is logged, for the change itself is made. */
  async function announce(
    req: HandlerRequest<any, any, any, any>,
    res: Reply,
    out: unknown,
    watched: Watched,
    name: ChangeName,
  ): Promise<void> {
    if (statusOf(out) >= 400) return;
    try {
      await broker.publish(watched.name, changeOf(req, res, out, watched, name));
    } catch (error) {
      // The change is made: the answer tells the client so, and the log says its watchers were not told.
      req.log.error({ err: error }, `${watched.name}: the ${name} event could not be published`);
    }
  }

  function only<A extends 'index' | 'show'>(...actions: readonly A[]): Watcher<A> {
    if (actions.length === 0)
      throw new TypeError(`live().only(): name what streams, 'index', 'show' or both`);
    for (const action of actions)
      if (action !== 'index' && action !== 'show')
        throw new TypeError(`live().only(): only index and show stream, got ${JSON.stringify(action)}`);
    return { watchRoutes: (resource) => watchRoutes(resource, [...new Set(actions)], true) };
  }

  return {
    broker,
    watchRoutes: (resource) => watchRoutes(resource, ['index', 'show'], false),
    only,
    async publish(resource, name, data, scope = {}) {
      const key = typeof resource === 'string' ? resource : resource?.name;
      const watched = resources.get(key);
      if (watched === undefined)
        throw new TypeError(
          `live().publish(): no resource "${key}" is watched by this hub; give it { watch: changes } first`,
        );
      if (!CHANGE_NAMES.includes(name))
        throw new TypeError(
          `live().publish(): the event is created, updated or destroyed, got ${JSON.stringify(name)}`,
        );
      const missing = watched.scopeParams.filter((param) => scope[param] === undefined);
      if (missing.length > 0)
        throw new TypeError(
          `live().publish(): ${key} is nested; give the params that place it, e.g. ${key}, ${name}, data, { ${missing.map((param) => `${param}: '1'`).join(', ')} }`,
        );
      const id = isRecord(data) ? data.id : undefined;
      const member = watched.param === undefined || id === undefined ? undefined : String(id);
      return broker.publish(key, {
        name,
        scope: scopeOf(scope, watched.scopeParams),
        member,
        data: name === 'destroyed' ? destroyedData(watched, id) : watched.serialize(data),
      });
    },
    async disconnect(name) {
      if (typeof name !== 'string') throw new TypeError('live().disconnect(tag): tag must be a string');
      await broker.publish(CONTROL, { name: 'disconnect', scope: '', data: JSON.stringify({ tag: name }) });
    },
    get open() {
      return open.size;
    },
    async close() {
      closed = true;
      for (const stream of [...open]) stream.close();
      control?.();
      control = undefined;
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

function checkBroker(broker: unknown): void {
  for (const method of ['publish', 'subscribe', 'since'])
    if (typeof (broker as Record<string, unknown> | null)?.[method] !== 'function')
      throw new TypeError(
        `live(): broker must have publish(), subscribe() and since() (the Broker of sevenfold/live), e.g. memoryBroker(); it has no ${method}()`,
      );
}

/** `f` of a handler's answer, awaited when it is a promise and at once when it is not. */
function then(out: unknown, f: (value: unknown) => unknown): unknown {
  return out !== null && typeof out === 'object' && typeof (out as PromiseLike<unknown>).then === 'function'
    ? Promise.resolve(out).then(f)
    : f(out);
}

/** The status a handler's answer is sent with: a Result's or a Response's own, 204 for nothing, else 200. */
function statusOf(out: unknown): number {
  if (out instanceof Result) return out.status;
  if (typeof Response === 'function' && out instanceof Response) return out.status;
  return out === undefined ? 204 : 200;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

/** The entity an answer carries: a JSON result's body, or a plain object returned as it is. */
function entityOf(out: unknown): unknown {
  if (out instanceof Result) return out.kind === 'json' ? out.body : undefined;
  if (!isRecord(out) || Array.isArray(out)) return undefined;
  const proto = Object.getPrototypeOf(out);
  return proto === Object.prototype || proto === null ? out : undefined;
}

/** The change a create, update or destroy made, from its request and answer. */
function changeOf(
  req: HandlerRequest<any, any, any, any>,
  res: Reply,
  out: unknown,
  watched: Watched,
  name: ChangeName,
): Change {
  const params = req.params as Readonly<Record<string, unknown>>;
  const entity = CHANGED.has(req) ? CHANGED.get(req) : name === 'destroyed' ? undefined : entityOf(out);
  let member: unknown;
  if (watched.param !== undefined) {
    member = params[watched.param];
    if (member === undefined && isRecord(entity)) member = entity.id;
    if (member === undefined) member = memberFromLocation(out, res);
  }
  const data =
    name === 'destroyed'
      ? destroyedData(watched, member)
      : entity === undefined
        ? JSON.stringify({ id: member ?? null })
        : watched.serialize(entity);
  const scope = scopeOf(params, watched.scopeParams);
  return { name, scope, member: member === undefined ? undefined : String(member), data };
}

/** A destroyed member's data: its id, or `{}` for a singular resource, which has none. */
function destroyedData(watched: Watched, id: unknown): string {
  return JSON.stringify(watched.param === undefined ? {} : { id: id ?? null });
}

/** The parent params as one string, the same from a route's params and from `publish()`'s scope. */
function scopeOf(params: Readonly<Record<string, unknown>>, names: readonly string[]): string {
  return names.map((name) => `${name}=${encodeURIComponent(String(params[name] ?? ''))}`).join('&');
}

/** A header of a result's or a reply's, whatever the case of its name. */
function headerIn(
  headers: Readonly<Record<string, string>> | null | undefined,
  name: string,
): string | undefined {
  if (headers === null || headers === undefined) return undefined;
  const key = Object.keys(headers).find((key) => key.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** The last segment of a `Location` the answer points at: a created member's id when nothing else tells it. */
function memberFromLocation(out: unknown, res: Reply): string | undefined {
  const location =
    (out instanceof Result ? headerIn(out.headers, 'location') : undefined) ??
    headerIn(res.headers, 'location');
  if (location === undefined) return undefined;
  const path = location.split(/[?#]/)[0]!;
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return last === '' ? undefined : decodeURIComponent(last);
  } catch {
    // A Location with bad percent-encoding names no member.
    return undefined;
  }
}

/**
 * The answer with `Accept` in its `Vary`: the same URL answers `text/event-stream` with a stream, so a cache
 * must not give this answer to a watcher. Added where the sent `Vary` comes from: the reply's, else the result's.
 */
function varyOnAccept(out: unknown, res: Reply): unknown {
  const own = out instanceof Result ? headerIn(out.headers, 'vary') : undefined;
  if (own !== undefined && headerIn(res.headers, 'vary') === undefined) {
    if (lists(own, 'accept')) return out;
    const result = out as Result;
    const headers = Object.fromEntries(
      Object.entries(result.headers!).filter(([name]) => name.toLowerCase() !== 'vary'),
    );
    return new Result(result.status, result.kind, result.body, { ...headers, Vary: `${own}, Accept` });
  }
  if (!lists(headerIn(res.headers, 'vary') ?? '', 'accept')) res.header('Vary', 'Accept');
  return out;
}

function lists(vary: string, field: string): boolean {
  return vary.split(',').some((token) => ['*', field].includes(token.trim().toLowerCase()));
}

/** Writes an event; one the stream cannot carry (a broker's id with a line break) ends that stream alone. */
/** The bytes a replay of `events` writes to a stream that passes them. */
function replayBytes(events: readonly LiveEvent[], pass: (event: LiveEvent) => boolean): number {
  let bytes = 0;
  for (const event of events) {
    if (!pass(event)) continue;
    const ready = prepared(event);
    bytes += ready instanceof PreparedEvent ? ready.bytes.byteLength : event.data.length;
  }
  return bytes;
}

// A change a broker delivers to a thousand watchers is formatted and encoded once, for all of them.
const PREPARED = new WeakMap<LiveEvent, PreparedEvent>();

function prepared(change: LiveEvent): ServerEvent | PreparedEvent {
  let event = PREPARED.get(change);
  if (event !== undefined) return event;
  const fields = { event: change.name, id: change.id, data: change.data };
  try {
    PREPARED.set(change, (event = prepareEvent(fields)));
  } catch {
    // A field a broker got wrong (a line break in an id): sending it again throws where write() reports it.
    return fields;
  }
  return event;
}

function write(stream: EventSink, event: ServerEvent | PreparedEvent, log: Logger): void {
  try {
    stream.send(event);
  } catch (error) {
    log.error({ err: error }, 'a watched resource event could not be sent; its stream is closed');
    stream.close();
  }
}

/** A route with another handler (and the events it streams), its Standard Schema validators kept. */
function withHandler(route: Route, handler: Route['handler'], streams?: RouteEvents): Route {
  const copy: Route = streams === undefined ? { ...route, handler } : { ...route, events: streams, handler };
  // A spread copies enumerable properties only, and `standard` is not one (see core/define/resource.ts).
  if (route.standard !== undefined) Object.defineProperty(copy, 'standard', { value: route.standard });
  return Object.freeze(copy);
}

/** The schema an entity is written by: show's answer, else update's or create's, each of which is one. */
function entitySchema(routes: readonly Route[]): JsonSchema | undefined {
  const answer = (action: string, status: string) =>
    routes.find((route) => route.action === action)?.schema?.response?.[status];
  return answer('show', '200') ?? answer('update', '200') ?? answer('create', '201');
}

function reloadEvent(reload: Reload): ServerEvent {
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
  const destroyed: JsonSchema =
    param === undefined
      ? { type: 'object', properties: {} }
      : { type: 'object', properties: { id: idSchema }, required: ['id'] };
  return Object.freeze({
    created: {
      ...entity,
      description:
        'A member was created: its JSON as show answers it ({ id } alone when its answer had no body).',
    },
    updated: {
      ...entity,
      description:
        'A member was updated: its JSON as show answers it ({ id } alone when its answer had no body).',
    },
    destroyed: {
      data: destroyed,
      description: param === undefined ? 'It was destroyed.' : 'A member was destroyed: its id.',
    },
    reload: {
      data: { type: 'object', properties: { reason: { type: 'string' } } },
      description: 'Events were missed (too far behind, or the broker lost its connection): fetch afresh.',
    },
  });
}
