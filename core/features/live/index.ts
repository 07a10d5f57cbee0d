// `sevenfold/live`: watch a resource over server-sent events, its changes carried by a broker between processes,
// written on sevenfold's public API as any app's feature would be.
export { changed, live, wantsEvents, type ChangeName, type Live, type LiveOptions } from './live.js';
export {
  memoryBroker,
  type Broker,
  type Change,
  type LiveEvent,
  type MemoryBrokerOptions,
  type Reload,
} from './broker.js';
