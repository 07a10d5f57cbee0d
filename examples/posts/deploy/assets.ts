// The example's static files (public/: its style sheet), served by sevenfold/assets.
import { fileURLToPath } from 'node:url';
import { assets, type Assets } from 'sevenfold/assets';

/**
 * examples/posts/public served under `/assets` (every page links `STYLESHEET`, the style sheet's fingerprinted
 * URL). The folder is found from this module's place in build/ (build/examples/posts/deploy/).
 */
export function postsAssets(): Assets {
  return assets('/assets', fileURLToPath(new URL('../../../../examples/posts/public/', import.meta.url)));
}
