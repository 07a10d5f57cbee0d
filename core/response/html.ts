/**
 * Markup that is safe to send: built by the `html` tag, which escapes every interpolated value
 * unless it is itself `Html`. A string never becomes `Html` by accident; `trustedHtml()` says so
 * on purpose.
 */
export class Html {
  readonly #markup: string;
  constructor(markup: string) {
    this.#markup = markup;
  }
  toString(): string {
    return this.#markup;
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as it must appear inside HTML, in an element or a quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Marks markup from a source you trust (a file you wrote, another renderer) as safe to send as is. */
export function trustedHtml(markup: string): Html {
  return new Html(markup);
}

/** What a template may interpolate: text (escaped), `Html` (as is), lists of them, or nothing. */
export type HtmlValue = Html | string | number | bigint | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.toString();
  // `false` and absent values render nothing, so `${cond && html`…`}` reads as in JSX.
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/**
 * The template tag for markup: `html\`<h1>${title}</h1>\`` escapes `title`, so user content
 * can never inject markup; nested templates and arrays of them are kept as markup.
 */
export function htmlTemplate(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  let markup = strings[0]!;
  for (let i = 0; i < values.length; i++) markup += render(values[i]!) + strings[i + 1]!;
  return new Html(markup);
}
