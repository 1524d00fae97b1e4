/**
 * Data that is the same for every visitor and may be a minute old (the public course catalogue,
 * issue 33), kept in the Workers Cache API of the data centre that answers: the first request of
 * a minute reads D1, the others read the copy. Only data is cached, never a page: every page
 * carries the script nonce of its own request (security-headers.server.ts). On Cloudflare the
 * cache works on a custom domain (on workers.dev `put` does nothing and every request reads D1);
 * locally Miniflare keeps it in the state directory.
 */

/** The data centre's cache (Workers' `caches.default`; the DOM's CacheStorage type lacks it). */
const edgeCache = () => (caches as unknown as { default: Cache }).default;

/** The copies live under an address of their own, which no request of a visitor can name. */
const cacheRequest = (key: string) => new Request(`https://edge-cache.wuff.invalid/${encodeURIComponent(key)}`);

/** The cached value of `key`, or what `compute` answers (then kept for `seconds`). */
export async function cachedJson<T>(key: string, seconds: number, compute: () => Promise<T>): Promise<T> {
  const cache = edgeCache();
  const hit = await cache.match(cacheRequest(key));
  if (hit) return (await hit.json()) as T;
  const value = await compute();
  await cache.put(
    cacheRequest(key),
    new Response(JSON.stringify(value), { headers: { "Content-Type": "application/json", "Cache-Control": `public, max-age=${seconds}` } }),
  );
  return value;
}

/** Drops the copy of `key`: the next request reads D1 (a booking changes the free places). */
export async function forgetCached(key: string): Promise<void> {
  await edgeCache().delete(cacheRequest(key));
}
