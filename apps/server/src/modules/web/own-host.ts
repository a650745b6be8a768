const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

function hostAndPort(host: string, defaultPort: string): { name: string; port: string } {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim());
  return { name: (match?.[1] ?? host).toLowerCase(), port: match?.[2] ?? defaultPort };
}

/**
 * Where a page request that arrived on another name of this server belongs: PUBLIC_URL's origin, or null
 * when it arrived there already or on a name that is not this server's own. The other names are the
 * loopback aliases of a loopback PUBLIC_URL (localhost vs 127.0.0.1) and the www. form of the same domain.
 * Any other name (a proxy's internal host, say) is left alone, so a rewriting proxy cannot make a loop.
 */
export function ownHostRedirect(publicUrl: string, requestHost: string | undefined): string | null {
  if (!requestHost) return null;
  const canonical = new URL(publicUrl);
  const defaultPort = canonical.protocol === 'https:' ? '443' : '80';
  const own = { name: canonical.hostname.toLowerCase(), port: canonical.port || defaultPort };
  const asked = hostAndPort(requestHost, defaultPort);
  if (asked.port !== own.port || asked.name === own.name) return null;
  const bothLoopback = LOOPBACK_HOSTS.test(asked.name) && LOOPBACK_HOSTS.test(own.name);
  const wwwPair = asked.name === `www.${own.name}` || own.name === `www.${asked.name}`;
  return bothLoopback || wwwPair ? canonical.origin : null;
}
