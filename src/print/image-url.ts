/**
 * Which stored asset an `imageUrl` names. Only `/files/<name>` and `<PUBLIC_BASE_URL>/files/<name>`
 * name one; anything else (another host, a query, a path outside /files) names nothing and is
 * never fetched.
 */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}(?:\.[A-Za-z0-9]{1,10})?$/;

export function assetNameFromUrl(url: string, publicBaseUrl?: string): string | null {
  let path: string | null = null;
  if (url.startsWith('/files/')) path = url;
  else if (publicBaseUrl) {
    const base = publicBaseUrl.replace(/\/+$/, '');
    if (url.startsWith(`${base}/files/`)) path = url.slice(base.length);
  }
  if (path === null) return null;
  const name = path.slice('/files/'.length);
  return ASSET_NAME.test(name) ? name : null;
}

/** Every asset name a design refers to (artworks and an image background), in first-use order. */
export function referencedAssetNames(
  state: { background?: { kind: string; value: string }; artworks?: readonly { imageUrl: string }[] },
  publicBaseUrl?: string,
): string[] {
  const names = new Set<string>();
  if (state.background?.kind === 'image') {
    const name = assetNameFromUrl(state.background.value, publicBaseUrl);
    if (name) names.add(name);
  }
  for (const artwork of state.artworks ?? []) {
    const name = assetNameFromUrl(artwork.imageUrl, publicBaseUrl);
    if (name) names.add(name);
  }
  return [...names];
}
