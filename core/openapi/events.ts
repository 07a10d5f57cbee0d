// A watched route's event stream as OpenAPI documents it: the text/event-stream answer, Last-Event-ID, the 503.
import type { RouteEvents } from '../types.js';
import type { Json } from './operation.js';

/**
 * Where each event's schema goes: OpenAPI 3.2's `itemSchema`, written as is under an extension because the
 * document stays 3.1 (declaring 3.2 once a table is watched would move every tool reading it to 3.2 for one
 * option), so a 3.2 upgrade renames this key and drops the 3.1 `schema`.
 */
export const ITEM_SCHEMA = 'x-itemSchema';

const JSON_TEXT = 'application/json';

/**
 * The `text/event-stream` Media Type Object of a watched route's `200`: as 3.1 reads it, text; each event in
 * `x-itemSchema`, one `oneOf` branch per event name, its `data` JSON whose `contentSchema` is the event's.
 */
export function eventStream(events: RouteEvents): Json {
  const names = Object.keys(events);
  return {
    schema: {
      type: 'string',
      description:
        `Server-sent events, asked for with Accept: text/event-stream: ${names.join(', ')}, each as ` +
        `${ITEM_SCHEMA} describes it (OpenAPI 3.2's itemSchema); comment lines keep the stream open. ` +
        'Sent with Cache-Control: no-store, no-transform.',
    },
    [ITEM_SCHEMA]: {
      type: 'object',
      required: ['data'],
      properties: {
        event: { type: 'string' },
        id: {
          type: 'string',
          description: 'Opaque: a client that reconnects sends the last one it saw as Last-Event-ID.',
        },
        data: { type: 'string', contentMediaType: JSON_TEXT },
      },
      oneOf: names.map((name) => {
        const { data, description } = events[name]!;
        return {
          ...(description === undefined ? {} : { description }),
          // Each branch requires its event, as the name is what tells them apart (3.2 lints say so).
          required: ['event'],
          properties: {
            event: { const: name },
            data:
              data === undefined
                ? { contentMediaType: JSON_TEXT }
                : { contentMediaType: JSON_TEXT, contentSchema: data },
          },
        };
      }),
    },
  };
}

/** The request header a reconnecting client sends, on the operations that stream. */
export const LAST_EVENT_ID: Json = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  description:
    'With Accept: text/event-stream, the id of the last event the client saw, which a reconnecting client ' +
    'sends (EventSource does it by itself): the stream first replays the events after it, or sends reload ' +
    'when it cannot.',
  schema: { type: 'string' },
};

/** The `503` a stream past the process's `maxEventStreams` gets: a problem with `Retry-After`. */
export function tooManyStreams(problem: Json): Json {
  return {
    ...problem,
    description:
      'Service Unavailable: with Accept: text/event-stream, when the server has as many event streams open ' +
      'as it allows (maxEventStreams); try again after Retry-After.',
    headers: {
      ...(problem.headers as Json | undefined),
      'Retry-After': {
        description: 'How many seconds to wait before asking for the stream again.',
        schema: { type: 'integer', minimum: 0 },
      },
    },
  };
}

/**
 * A Media Type Object whose event data schemas are `replace`d (for the document's passes over every schema:
 * ajv's keywords renamed, shared shapes referenced), or as it is when it documents no events.
 */
export function withEventData(media: Json, replace: (schema: unknown) => unknown): Json {
  const item = media[ITEM_SCHEMA] as Json | undefined;
  if (item === undefined) return media;
  const oneOf = (item.oneOf as Json[]).map((branch) => {
    const properties = branch.properties as Json;
    const data = properties.data as Json;
    if (data.contentSchema === undefined) return branch;
    return {
      ...branch,
      properties: { ...properties, data: { ...data, contentSchema: replace(data.contentSchema) } },
    };
  });
  return { ...media, [ITEM_SCHEMA]: { ...item, oneOf } };
}
