// PostgreSQL as the broker of watched posts: the `live_events` table holds each change and each channel's recent
// history, and `LISTEN`/`NOTIFY` tells every process that a change was stored; on a server and on PGlite.
import pg from 'pg';
import type { Broker, Change, LiveEvent, Reload } from 'sevenfold/live';
import type { Queryable } from './postgres.js';

/** The PostgreSQL channel every process listens on; a payload is `<id> <channel>`, never the change itself. */
export const NOTIFY_CHANNEL = 'posts_live';

/** What the listening connection calls itself in `pg_stat_activity` (`application_name`). */
export const LISTENER_NAME = 'posts live listener';

/** A connection that listens on `NOTIFY_CHANNEL`. */
export interface ListenConnection {
  /** Resolves while the connection answers, rejects when it does not. */
  check(): Promise<void>;
  /** Stops listening and lets go of the connection. */
  close(): Promise<void>;
}

/**
 * Opens a connection listening on `NOTIFY_CHANNEL`, resolved once `LISTEN` holds: `notified` gets each payload,
 * and `lost` is called, once, when the connection is lost after that.
 */
export type Listen = (
  notified: (payload: string) => void,
  lost: (error: unknown) => void,
) => Promise<ListenConnection>;

/**
 * Listening on a PostgreSQL server: a connection of its own, outside the pool, since a pooled connection goes
 * back to the pool and `LISTEN` belongs to one session. `config` gives where and how long to wait
 * (`connectionTimeoutMillis`, and `query_timeout` for the check).
 */
export function serverListen(config: pg.ClientConfig): Listen {
  return async (notified, lost) => {
    const client = new pg.Client({ ...config, application_name: LISTENER_NAME, keepAlive: true });
    let listening = false;
    let gone = false;
    const onLost = (error: unknown): void => {
      // A failure before LISTEN holds is the rejection of this call; after it, the broker's to act on, once.
      if (!listening || gone) return;
      gone = true;
      lost(error);
    };
    client.on('error', onLost);
    client.on('end', () => onLost(new Error('Connection terminated: the live listener lost its connection')));
    client.on('notification', (message) => {
      if (message.channel === NOTIFY_CHANNEL) notified(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
    } catch (error) {
      void within(client.end(), 1000);
      throw error;
    }
    listening = true;
    return {
      check: async () => void (await client.query('SELECT 1')),
      close: async () => {
        gone = true;
        // A server that froze never answers the goodbye: the connection is let go of all the same.
        await within(client.end(), 1000);
      },
    };
  };
}

/** What `pgliteListen` needs of a PGlite instance. */
export interface ListenablePGlite {
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  query(text: string): Promise<unknown>;
}

/**
 * Listening on PGlite: its `listen()` hears the `NOTIFY` of every query the process runs on it, the pool's
 * included; it has no connection to lose, only a database that can be closed.
 */
export function pgliteListen(lite: ListenablePGlite): Listen {
  return async (notified) => {
    const unlisten = await lite.listen(NOTIFY_CHANNEL, notified);
    return {
      check: async () => void (await lite.query('SELECT 1')),
      close: async () => void (await unlisten().catch(() => {})),
    };
  };
}

export interface PostgresBrokerOptions {
  /** Events kept per channel for clients that resume; an older `Last-Event-ID` gets a reload. Default 1 000. */
  readonly history?: number;
  /** Milliseconds between checks that the listening connection still answers. Default 5 000. */
  readonly checkEvery?: number;
  /** Milliseconds before listening again after a loss, doubled after each failed try. Default 100. */
  readonly retryDelay?: number;
  /** The longest wait between tries to listen again, in milliseconds. Default 5 000. */
  readonly maxRetryDelay?: number;
  /** Told when listening fails: the connection lost, or a try to listen again refused. */
  readonly onLost?: (error: unknown) => void;
  /** Told when listening holds again after a loss. */
  readonly onBack?: () => void;
}

/** A row of `READ`: the channel's watermarks, and one event after the id asked for (all `null` when none). */
interface Row {
  readonly latest: string;
  readonly pruned: string;
  readonly id: string | null;
  readonly name: string;
  readonly scope: string;
  readonly member: string | null;
  readonly data: string;
}

/** The channel's newest id and its pruned watermark, and its events after `$2`, in id order, at most `$3`. */
const READ = `SELECT c.latest, c.pruned, e.id, e.name, e.scope, e.member, e.data
  FROM live_channels c
  LEFT JOIN LATERAL (
    SELECT id, name, scope, member, data FROM live_events
    WHERE channel = c.channel AND id > $2 ORDER BY id LIMIT $3
  ) e ON true
  WHERE c.channel = $1
  ORDER BY e.id`;

/** How many events one read of a channel takes, so that a process far behind catches up in steps. */
const PAGE = 500;

/** Ids this broker gives: what `live_events`' bigserial counts, from 1. */
const ID = /^[1-9]\d{0,17}$/;

type Listener = (event: LiveEvent | Reload) => void;

/**
 * The broker of processes sharing one PostgreSQL database (a server, or PGlite for one process). `publish`
 * is one statement, `live_publish()` (deploy/migrations.ts): under a lock per channel held to its commit, it
 * stores the change, keeps the channel's newest `history` events (recording the newest id it dropped, the
 * pruned watermark) and notifies `<id> <channel>`, so that a channel's ids commit in order. Each process keeps,
 * per channel, the last id it delivered; a notification makes it read the rows after that one, in order, and
 * give them to its subscribers. A lost listening connection (its error or end events, or a periodic check
 * that goes unanswered) is listened again with backoff, and every subscriber gets a `Reload` with the
 * channel's latest id, since what was published meanwhile was not heard.
 */
export class PostgresBroker implements Broker {
  readonly #db: Queryable;
  readonly #listen: Listen;
  readonly #history: number;
  readonly #options: PostgresBrokerOptions;
  readonly #listeners = new Map<string, Set<Listener>>();
  /** Per channel, the newest id delivered here (or known to have no subscriber here to deliver to). */
  #cursors = new Map<string, bigint>();
  /** The channels a notification said have events after their cursor. */
  readonly #pending = new Set<string>();
  #pumping: Promise<void> | undefined;
  #connection: ListenConnection | undefined;
  #state: 'down' | 'up' | 'closed' = 'down';
  /** Counts the tries to listen: what a notification, a loss or a read belongs to, so that a stale one is ignored. */
  #generation = 0;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #checker: ReturnType<typeof setInterval> | undefined;
  #checking = false;

  private constructor(db: Queryable, listen: Listen, options: PostgresBrokerOptions) {
    this.#db = db;
    this.#listen = listen;
    this.#history = whole('history', options.history ?? 1000, 0);
    whole('checkEvery', options.checkEvery ?? 5000, 1);
    whole('retryDelay', options.retryDelay ?? 100, 1);
    whole('maxRetryDelay', options.maxRetryDelay ?? 5000, 1);
    this.#options = options;
  }

  /**
   * The broker of `db` (the pool its changes are stored and read through), listening through `listen`;
   * resolves once it listens, rejects when it cannot start to.
   */
  static async open(
    db: Queryable,
    listen: Listen,
    options: PostgresBrokerOptions = {},
  ): Promise<PostgresBroker> {
    const broker = new PostgresBroker(db, listen, options);
    await broker.#connect(false);
    broker.#checker = setInterval(() => void broker.#check(), options.checkEvery ?? 5000);
    // Checking must not keep a process alive that has nothing else to do.
    broker.#checker.unref?.();
    return broker;
  }

  async publish(channel: string, change: Change): Promise<string> {
    if (this.#state === 'closed') throw new Error('the live broker is closed: nothing more is published');
    // The channel rides in the notification, whose payload PostgreSQL caps at 8 000 bytes.
    if (channel === '' || new TextEncoder().encode(channel).byteLength > 1000)
      throw new TypeError(`a live channel is 1 to 1000 bytes, got ${JSON.stringify(channel.slice(0, 40))}…`);
    const { rows } = await this.#db.query<{ id: string }>(
      'SELECT live_publish($1, $2, $3, $4, $5, $6)::text AS id',
      [channel, change.name, change.scope, change.member ?? null, change.data, this.#history],
    );
    return rows[0]!.id;
  }

  subscribe(channel: string, listener: (event: LiveEvent | Reload) => void): () => void {
    // A listener of its own per call, so that subscribing one function twice is two subscriptions.
    const own: Listener = (event) => listener(event);
    let listeners = this.#listeners.get(channel);
    if (listeners === undefined) this.#listeners.set(channel, (listeners = new Set()));
    listeners.add(own);
    const held = listeners;
    return () => {
      held.delete(own);
      if (held.size === 0 && this.#listeners.get(channel) === held) this.#listeners.delete(channel);
    };
  }

  compare(a: string, b: string): number {
    if (!ID.test(a) || !ID.test(b)) return NaN;
    const difference = BigInt(a) - BigInt(b);
    return difference < 0n ? -1 : difference > 0n ? 1 : 0;
  }

  async since(channel: string, lastId: string): Promise<readonly LiveEvent[] | Reload> {
    if (!ID.test(lastId)) {
      const { rows } = await this.#db.query<{ latest: string }>(
        'SELECT latest::text AS latest FROM live_channels WHERE channel = $1',
        [channel],
      );
      return { name: 'reload', id: rows[0]?.latest };
    }
    // One statement, one snapshot: the watermarks and the rows agree, whatever a publish prunes meanwhile.
    const { rows } = await this.#db.query<Row>(READ, [channel, lastId, null]);
    const first = rows[0];
    if (first === undefined) return { name: 'reload' };
    const last = BigInt(lastId);
    // Older than what was pruned, some successors are gone; newer than the latest, it is not an id of this database.
    if (last < BigInt(first.pruned) || last > BigInt(first.latest))
      return { name: 'reload', id: first.latest };
    return rows.filter((row) => row.id !== null).map(eventOf);
  }

  async close(): Promise<void> {
    if (this.#state === 'closed') return;
    this.#state = 'closed';
    clearInterval(this.#checker);
    clearTimeout(this.#retry);
    this.#listeners.clear();
    this.#pending.clear();
    const connection = this.#connection;
    this.#connection = undefined;
    await connection?.close().catch(() => {});
  }

  /**
   * Listens, then reads every channel's latest id as where delivery starts: after `LISTEN`, so that nothing
   * stored later goes unheard. Listening again, it tells every subscriber to reload. Resolves with whether it
   * listens (not when the broker was closed meanwhile).
   */
  async #connect(again: boolean): Promise<boolean> {
    const generation = ++this.#generation;
    let up = false;
    let dropped: { error: unknown } | undefined;
    const connection = await this.#listen(
      (payload) => {
        if (generation === this.#generation) this.#notified(payload);
      },
      (error) => {
        if (up) this.#lose(error, generation);
        else dropped ??= { error };
      },
    );
    let latest: Map<string, bigint>;
    try {
      const { rows } = await this.#db.query<{ channel: string; latest: string }>(
        'SELECT channel, latest::text AS latest FROM live_channels',
      );
      latest = new Map(rows.map((row) => [row.channel, BigInt(row.latest)]));
      if (dropped !== undefined) throw dropped.error;
    } catch (error) {
      await connection.close().catch(() => {});
      throw error;
    }
    if (this.#state === 'closed') {
      await connection.close().catch(() => {});
      return false;
    }
    up = true;
    this.#connection = connection;
    this.#cursors = latest;
    this.#state = 'up';
    if (again)
      for (const [channel, listeners] of this.#listeners)
        emit(listeners, { name: 'reload', id: latest.get(channel)?.toString() });
    this.#pump();
    return true;
  }

  /** A notification: its channel is read if a subscriber here waits for what it announces. */
  #notified(payload: string): void {
    const space = payload.indexOf(' ');
    const id = payload.slice(0, space);
    if (space === -1 || !ID.test(id)) return;
    const channel = payload.slice(space + 1);
    // While the latest ids are read, every notified channel is read once they are known.
    if (this.#state !== 'up') return void this.#pending.add(channel);
    const n = BigInt(id);
    if (n <= (this.#cursors.get(channel) ?? 0n)) return;
    // A channel nobody here watches has nothing to deliver: it is enough to know it got that far.
    if (!this.#listeners.has(channel)) return void this.#cursors.set(channel, n);
    this.#pending.add(channel);
    this.#pump();
  }

  /** Reads the notified channels one at a time, so that each one's events are delivered once and in order. */
  #pump(): void {
    if (this.#pumping !== undefined || this.#state !== 'up') return;
    this.#pumping = (async () => {
      while (this.#state === 'up' && this.#pending.size > 0) {
        const channel = this.#pending.values().next().value as string;
        this.#pending.delete(channel);
        await this.#deliver(channel);
      }
    })().finally(() => {
      this.#pumping = undefined;
      if (this.#state === 'up' && this.#pending.size > 0) this.#pump();
    });
  }

  /** Delivers the channel's events after its cursor; a cursor older than the pruned watermark is a reload. */
  async #deliver(channel: string): Promise<void> {
    const generation = this.#generation;
    const cursor = this.#cursors.get(channel) ?? 0n;
    let rows: Row[];
    try {
      rows = (await this.#db.query<Row>(READ, [channel, cursor.toString(), PAGE])).rows;
    } catch (error) {
      // What was announced cannot be read: like a lost connection, it ends in a reload once both answer again.
      return this.#lose(error, generation);
    }
    if (this.#state !== 'up' || generation !== this.#generation) return;
    const first = rows[0];
    if (first === undefined) return;
    const listeners = this.#listeners.get(channel);
    if (cursor < BigInt(first.pruned)) {
      this.#cursors.set(channel, BigInt(first.latest));
      if (listeners !== undefined) emit(listeners, { name: 'reload', id: first.latest });
      return;
    }
    for (const row of rows) {
      if (row.id === null) break;
      const id = BigInt(row.id);
      if (id > (this.#cursors.get(channel) ?? 0n)) this.#cursors.set(channel, id);
      if (listeners !== undefined) emit(listeners, eventOf(row));
    }
    if (rows.length === PAGE) this.#pending.add(channel);
  }

  /** The listening connection is lost (or a read failed): let go of it and listen again, with backoff. */
  #lose(error: unknown, generation: number): void {
    if (this.#state !== 'up' || generation !== this.#generation) return;
    this.#state = 'down';
    const connection = this.#connection;
    this.#connection = undefined;
    void connection?.close().catch(() => {});
    this.#pending.clear();
    this.#options.onLost?.(error);
    this.#listenAgain(0);
  }

  #listenAgain(attempt: number): void {
    const first = this.#options.retryDelay ?? 100;
    const delay = Math.min(first * 2 ** attempt, this.#options.maxRetryDelay ?? 5000);
    // Up to a fifth less, so that processes that lost their connections together do not come back as one.
    this.#retry = setTimeout(() => void this.#tryAgain(attempt), delay * (1 - Math.random() / 5));
    this.#retry.unref?.();
  }

  async #tryAgain(attempt: number): Promise<void> {
    this.#retry = undefined;
    if (this.#state !== 'down') return;
    let listening: boolean;
    try {
      listening = await this.#connect(true);
    } catch (error) {
      if (this.#state !== 'down') return;
      this.#options.onLost?.(error);
      return this.#listenAgain(attempt + 1);
    }
    if (listening) this.#options.onBack?.();
  }

  /** Asks the listening connection to answer: one that does not is lost, though it never said so. */
  async #check(): Promise<void> {
    const connection = this.#connection;
    if (this.#state !== 'up' || connection === undefined || this.#checking) return;
    this.#checking = true;
    const generation = this.#generation;
    try {
      await connection.check();
    } catch (error) {
      this.#lose(error, generation);
    } finally {
      this.#checking = false;
    }
  }
}

/** Gives `event` to every listener; one that throws keeps it from none of the others. */
function emit(listeners: ReadonlySet<Listener>, event: LiveEvent | Reload): void {
  for (const listener of [...listeners]) {
    try {
      listener(event);
    } catch {
      // A listener's failure is its own (the hub writes to a stream that may have closed meanwhile).
    }
  }
}

function eventOf(row: Row): LiveEvent {
  const event = { id: row.id!, name: row.name, scope: row.scope, data: row.data };
  return row.member === null ? event : { ...event, member: row.member };
}

/** `promise`, or nothing once `ms` have passed; never rejects. */
function within(promise: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  return Promise.race([
    promise.then(
      () => {},
      () => {},
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}

function whole(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min)
    throw new TypeError(
      `PostgresBroker: ${name} must be a whole number of at least ${min}, got ${String(value)}`,
    );
  return value;
}
