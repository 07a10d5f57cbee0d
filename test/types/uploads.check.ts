// Type tests for uploads: compiled by `tsc -p .` in `npm test`, never run. A file field of a body schema is a
// `File` in the handler, its other fields as before.
import { resource, type FromSchema } from '../../core/index.js';
import { serve } from '../../adapters/node.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

const Avatar = {
  type: 'object',
  required: ['name', 'picture'],
  properties: {
    name: { type: 'string' },
    picture: { type: 'string', format: 'binary' },
    note: { type: 'string', contentMediaType: 'text/plain' },
  },
} as const;

export type Checks = [
  Expect<Equal<FromSchema<typeof Avatar>, { name: string; picture: File; note?: File }>>,
  Expect<Equal<FromSchema<{ type: 'string'; format: 'email' }>, string>>,
];

export const avatars = resource(
  'avatars',
  {
    create: async (req) => {
      const picture: File = req.body.picture;
      const bytes: ArrayBuffer = await picture.arrayBuffer();
      // @ts-expect-error a file is not text
      const text: string = req.body.picture;
      return { name: req.body.name, size: bytes.byteLength, type: picture.type, text };
    },
  },
  { schemas: { create: { body: Avatar } } },
);

export const started = () => serve(avatars, { uploads: { fileSize: 1024, files: 1 } });
// @ts-expect-error a limit is a number
export const wrong = () => serve(avatars, { uploads: { fileSize: '1k' } });
