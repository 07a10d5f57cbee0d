// The example's static files (public/: the style sheet, the live index's script), served by sevenfold/assets.
import { fileURLToPath } from 'node:url';
import { assets, type Assets } from 'sevenfold/assets';

/**
 * examples/posts/public served under `/assets` (every page links `STYLESHEET`, the style sheet's fingerprinted
 * URL; the index page loads `LIVE_SCRIPT`, live.js's). The folder is found from this module's place in build/
 * (build/examples/posts/deploy/).
 */
export function postsAssets(): Assets {
  return assets('/assets', fileURLToPath(new URL('../../../../examples/posts/public/', import.meta.url)));
}
