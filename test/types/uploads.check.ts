// Type tests for uploads: compiled by `tsc -p .` in `npm test`, never run. A file field of a body schema is a
// `File` in the handler, its other fields as before.
import { paths, resource, type Form, type FromSchema } from '../../core/index.js';
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
    // Reached by an edit form's POST whose first part is `_method`: the file is a `File` all the same.
    update: (req) => ({ size: req.body.picture.size }),
  },
  { schemas: { create: { body: Avatar }, update: { body: Avatar } } },
);

// An edit form with files: a POST, multipart, its `_method` the first field.
const edit = paths(avatars).avatars.update.form({ avatar_id: 1 });
// @ts-expect-error the edit form takes the route's params
paths(avatars).avatars.update.form();
export type FormChecks = [
  Expect<Equal<typeof edit, Form>>,
  Expect<Equal<Form['method'], 'GET' | 'POST'>>,
  Expect<Equal<Form['enctype'], 'multipart/form-data' | undefined>>,
  Expect<Equal<Form['fields'], { readonly _method?: 'PUT' | 'PATCH' | 'DELETE' }>>,
];
// @ts-expect-error a form never sends PUT itself: it POSTs, with `_method`
export const put: Form = { action: '/avatars/1', method: 'PUT', fields: {} };
// @ts-expect-error `_method` names PUT, PATCH or DELETE only
export const get: Form = { action: '/avatars/1', method: 'POST', fields: { _method: 'GET' } };
// @ts-expect-error a form's enctype here is multipart/form-data or none
export const text: Form = { action: '/a', method: 'POST', enctype: 'text/plain', fields: {} };
export const multipartPut: Form = {
  action: '/avatars/1',
  method: 'POST',
  enctype: 'multipart/form-data',
  fields: { _method: 'PUT' },
};

export const started = () => serve(avatars, { uploads: { fileSize: 1024, files: 1 } });
// @ts-expect-error a limit is a number
export const wrong = () => serve(avatars, { uploads: { fileSize: '1k' } });
