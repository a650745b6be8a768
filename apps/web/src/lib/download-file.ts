import { ApiError, withQuery } from '@/lib/api-client';
import { getToken } from '@/lib/session';

const ATTACHMENT_NAME = /filename="([^"]+)"/;

/**
 * Saves a file the server sends (a CSV export). The session is a bearer token, which a plain link cannot
 * send, so the file is fetched with it and handed to the browser as a download.
 */
export async function downloadFile(
  path: string,
  query: Record<string, string | undefined>,
  options: { fallbackError: string; defaultName: string },
): Promise<void> {
  const token = getToken();
  const response = await fetch(withQuery(path, query), {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new ApiError(body?.error ?? options.fallbackError, response.status);
  }
  const name = ATTACHMENT_NAME.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name ?? options.defaultName;
  link.click();
  // Released later: the browser reads the file after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
