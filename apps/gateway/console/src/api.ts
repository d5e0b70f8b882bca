/**
 * The admin API as the console calls it: same origin, the session cookie (HttpOnly, set by
 * POST /admin/console/session), `X-Console-Request: 1` on every write, and the admin API's one
 * error shape turned into an AdminApiError the pages show as it is worded.
 */
import type { Session } from './api-types';

export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | undefined>;

function withQuery(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function request<T>(method: string, path: string, options: { query?: Query; body?: unknown; credential?: string; file?: { data: Blob; type: string } } = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') headers['X-Console-Request'] = '1';
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.file) headers['Content-Type'] = options.file.type;
  if (options.credential) headers.Authorization = `Bearer ${options.credential}`;
  let response: Response;
  try {
    response = await fetch(withQuery(path, options.query), { method, headers, credentials: 'same-origin', body: options.file ? options.file.data : options.body === undefined ? undefined : JSON.stringify(options.body) });
  } catch {
    throw new AdminApiError(0, 'network_error', 'The gateway cannot be reached; is it running?');
  }
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => undefined)) as { error?: { type?: string; message?: string; param?: string } } | undefined;
  if (!response.ok) {
    const error = body?.error;
    throw new AdminApiError(response.status, error?.type ?? 'internal_error', error?.message ?? `The gateway answered ${response.status}`, error?.param);
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, query?: Query) => request<T>('GET', path, { query }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body }),
  put: <T>(path: string, body: unknown) => request<T>('PUT', path, { body }),
  delete: <T>(path: string) => request<T>('DELETE', path),
  /** Any other method (PATCH…) with a JSON body. */
  request: <T>(method: string, path: string, body?: unknown) => request<T>(method, path, { body }),
  /** A file as the request's body (a catalog, a discounts file…). */
  upload: <T>(path: string, data: Blob, type: string) => request<T>('POST', path, { file: { data, type } }),
  signIn: (credential: string) => request<Session>('POST', '/admin/console/session', { credential }),
};

export const enc = encodeURIComponent;

// The admin contract's shapes the console reads (openapi/admin).
export type * from './api-types';
