// How changes travel between the processes that watch them: the broker interface and the in-process broker.

/** A change as published: which event, in which part of the resource, about which member, its data as JSON. */
export interface Change {
  /** `created`, `updated`, `destroyed`, or a name of the app's own. */
  readonly name: string;
  /** The parent params that place it (`user_id=1`), `''` for a resource that is not nested. */
  readonly scope: string;
  /** The member's id, as its path param reads, when the change is about one member. */
  readonly member?: string | undefined;
  /** The event's data: JSON text, written by the resource's own serializer. */
  readonly data: string;
}

/** A change once stored: its id orders it among the channel's events and is what a client resumes from. */
export interface LiveEvent extends Change {
  readonly id: string;
}

/**
 * What watchers are told when events may have been missed (the broker lost its connection, or a client
 * resumes from further back than the history keeps): fetch afresh. `id`, when given, is the latest event the
 * fresh state includes, where a later resume starts.
 */
export interface Reload {
  readonly name: 'reload';
  readonly id?: string | undefined;
}

/**
 * Carries changes between processes and keeps each channel's recent history for resuming. `memoryBroker()` is
 * one process's; examples/posts/deploy/live-broker.ts is PostgreSQL's `LISTEN`/`NOTIFY`, for processes and
 * machines sharing one database. docs/live.md says what each method must guarantee.
 */
export interface Broker {
  /**
   * Stores the change in the channel's history and delivers it to the channel's subscribers in every process,
   * in the order ids give; resolves with its id once stored.
   */
  publish(channel: string, change: Change): Promise<string>;
  /**
   * Calls `listener` with every event published on the channel from now on, in id order, and with a `Reload`
   * when some may have been lost. Returns the unsubscribe.
   */
  subscribe(channel: string, listener: (event: LiveEvent | Reload) => void): () => void;
  /**
   * The channel's events after `lastId`, in order; a `Reload` when they cannot all be told: an id older than
   * the history kept, or not one this broker gave.
   */
  since(channel: string, lastId: string): Promise<readonly LiveEvent[] | Reload>;
  /**
   * Orders two ids it gave: negative when `a` came first, positive when after, `0` when the same, `NaN` when
   * either is not one of its own. Optional; given, a stream never sends an event at or before one its client
   * has, however late the event's notification comes.
   */
  compare?(a: string, b: string): number;
  /** Stops delivering and lets go of what it holds (connections, timers). */
  close?(): Promise<void>;
}

export interface MemoryBrokerOptions {
  /** Events kept per channel for clients that resume; an older `Last-Event-ID` gets a reload. Default 1 000. */
  readonly history?: number;
}

/**
 * The broker of one process: changes reach the watchers of this process only, and the history lives in its
 * memory (a restart starts afresh, and a client resuming from before it is told to reload). Ids are
 * `<boot>-<n>`: `boot` names this broker, so an id from another process or an earlier run is never mistaken
 * for one of its own. A listener that throws keeps the event from no other: `publish()` rejects with its error
 * once every listener has the event.
 */
export function memoryBroker(options: MemoryBrokerOptions = {}): Broker {
  const keep = options.history ?? 1000;
  if (!Number.isSafeInteger(keep) || keep < 0)
    throw new TypeError(`memoryBroker(): history must be a whole number, got ${String(keep)}`);
  const boot = Math.floor(Math.random() * 36 ** 6).toString(36);
  let sequence = 0;
  interface Channel {
    readonly history: LiveEvent[];
    /** The sequence number of the newest event the history no longer holds. */
    dropped: number;
    readonly listeners: Set<(event: LiveEvent | Reload) => void>;
  }
  const channels = new Map<string, Channel>();
  const channelOf = (name: string): Channel => {
    let channel = channels.get(name);
    if (channel === undefined)
      channels.set(name, (channel = { history: [], dropped: 0, listeners: new Set() }));
    return channel;
  };
  // Only an id this broker gave: its boot, a dash, and a number it counted to, written as it wrote it.
  const numberOf = (id: string): number | undefined => {
    const dash = id.indexOf('-');
    if (dash === -1 || id.slice(0, dash) !== boot) return undefined;
    const n = Number(id.slice(dash + 1));
    return Number.isSafeInteger(n) && n >= 1 && n <= sequence && String(n) === id.slice(dash + 1)
      ? n
      : undefined;
  };
  return {
    async publish(name, change) {
      const channel = channelOf(name);
      const event: LiveEvent = { ...change, id: `${boot}-${++sequence}` };
      channel.history.push(event);
      if (channel.history.length > keep) channel.dropped = numberOf(channel.history.shift()!.id)!;
      let failure: { error: unknown } | undefined;
      for (const listener of [...channel.listeners]) {
        // One listener's error must not keep the event from the others: it is thrown once all have it.
        try {
          listener(event);
        } catch (error) {
          failure ??= { error };
        }
      }
      if (failure !== undefined) throw failure.error;
      return event.id;
    },
    subscribe(name, listener) {
      const channel = channelOf(name);
      // A listener of its own per call, so that subscribing one function twice is two subscriptions.
      const own = (event: LiveEvent | Reload) => listener(event);
      channel.listeners.add(own);
      return () => {
        channel.listeners.delete(own);
      };
    },
    compare(a, b) {
      const first = numberOf(a);
      const second = numberOf(b);
      return first === undefined || second === undefined ? NaN : first - second;
    },
    async since(name, lastId) {
      const channel = channelOf(name);
      const last = numberOf(lastId);
      const latest = channel.history.at(-1)?.id;
      // An id not of this run, or one whose successors the history dropped, cannot be resumed from.
      if (last === undefined || last < channel.dropped) return { name: 'reload', id: latest };
      return channel.history.filter((event) => numberOf(event.id)! > last);
    },
  };
}
