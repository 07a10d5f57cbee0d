// The sign-in page: one password field, labelled, that works with no script.
import { html, type Html } from 'sevenfold';
import { frame, type Visitor } from './layout.js';

// Markup here is kept as written (prettier leaves html`…` alone): it is what a person reads.

/** The form that signs in with `POSTS_TOKEN`, going on to `next` after; `message` after a wrong token. */
export function signInView(home: string, next: string, visitor: Visitor, message?: string): Html {
  return frame(
    home,
    'Sign in',
    html`${message !== undefined && html`<div class="summary" role="alert"><p id="token-error">${message}</p></div>`}
<form method="post" action="/session">
<input type="hidden" name="next" value="${next}">
<label for="token">Token</label>
<p class="hint" id="token-hint">The token the server was started with (POSTS_TOKEN).</p>
<input type="password" id="token" name="token" required autocomplete="current-password" aria-describedby="token-hint${message !== undefined ? ' token-error' : ''}"${message !== undefined && html` aria-invalid="true"`}>
<div class="actions"><button>Sign in</button> <a href="${home}">Cancel</a></div>
</form>`,
    visitor,
  );
}
