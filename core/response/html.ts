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

// The attributes whose value a browser follows as a URL: where a `javascript:` URL would run.
const URL_ATTRIBUTE =
  /\s(?:href|src|action|formaction|xlink:href|poster|cite|background|ping|srcset)\s*=\s*["']?$/i;
// A scheme a link may use without running anything: the web's, mail and phone; a URL with no scheme is relative.
const SAFE_SCHEME = /^(?:https?|mailto|tel):/i;
const SCHEME = /^[^/?#]*?:/;
/** What an unsafe URL becomes: a URL that leads nowhere (Closure's convention), and says why. */
export const UNSAFE_URL = 'about:invalid#unsafe-url';

/**
 * A URL as a link may carry it: relative, or `http:`, `https:`, `mailto:` or `tel:`; anything else
 * (`javascript:`, `data:`, `vbscript:`, a scheme hidden by control characters) becomes `about:invalid#unsafe-url`.
 */
export function safeUrl(url: string): string {
  // Browsers drop leading spaces and control characters, and tabs and newlines anywhere, before reading a scheme.
  const read = url.replace(/^[\x00-\x20]+/, '').replace(/[\t\n\r]/g, '');
  return SCHEME.test(read) && !SAFE_SCHEME.test(read) ? UNSAFE_URL : url;
}

/**
 * The template tag for markup: `html\`<h1>${title}</h1>\`` escapes `title`, so user content
 * can never inject markup; nested templates and arrays of them are kept as markup. A text value in a
 * URL attribute (`href="${link}"`, `src`, `action`…) passes `safeUrl()` too, so no `javascript:` link
 * can come from data; `Html` there is trusted as it is.
 */
export function htmlTemplate(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html {
  const urls = urlSlots(strings);
  let markup = strings[0]!;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    const url = urls !== NO_SLOTS && urls[i] === true && typeof value === 'string';
    markup += (url ? escapeHtml(safeUrl(value)) : render(value)) + strings[i + 1]!;
  }
  return new Html(markup);
}

const NO_SLOTS: readonly boolean[] = [];
// A call site's strings are one array for its life, so which of its values sit in a URL attribute is worked
// out once.
const SLOTS = new WeakMap<TemplateStringsArray, readonly boolean[]>();

function urlSlots(strings: TemplateStringsArray): readonly boolean[] {
  let slots = SLOTS.get(strings);
  if (slots === undefined) {
    const found = strings.slice(0, -1).map((part) => URL_ATTRIBUTE.test(part));
    slots = found.includes(true) ? found : NO_SLOTS;
    SLOTS.set(strings, slots);
  }
  return slots;
}
