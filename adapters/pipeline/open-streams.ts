// The event streams a server writes, for its drain to end: kept alike by node's server and toFetch()'s handler.

/** What a drain ends: an event stream being written. */
export interface Endable {
  close(): void;
  onClose(listener: () => void): void;
}

/**
 * The streams one server (or one fetch handler) writes. A stream never finishes by itself, so a drain ends them,
 * cleanly: their clients see the end and reconnect, to another server if there is one.
 */
export class OpenStreams {
  readonly #open = new Set<Endable>();
  #draining = false;

  /** Keeps a stream until it closes; one kept while draining ends at once (its queued bytes still go). */
  keep(stream: Endable): void {
    if (this.#draining) return stream.close();
    this.#open.add(stream);
    stream.onClose(() => this.#open.delete(stream));
  }

  /** Ends every stream kept, and any kept from now on; returns how many it ended. */
  drain(): number {
    this.#draining = true;
    const open = [...this.#open];
    for (const stream of open) stream.close();
    return open.length;
  }
}
