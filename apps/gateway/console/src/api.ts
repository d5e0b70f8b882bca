/**
 * The admin API as the console calls it: the functions and types generated from the admin
 * contract (generated/, from openapi/admin by `pnpm generate`; never edited by hand), on the
 * generated fetch client configured here — same origin, the session cookie (HttpOnly, set by
 * POST /admin/console/session), `X-Console-Request: 1` on every write, and the admin API's one
 * error shape turned into an AdminApiError the pages show as it is worded.
 *
 * A page calls a generated function through `call`: `call(listOrders({ path: { merchant_id }, query }))`
 * answers the operation's response body, typed by the contract.
 */
import { client } from './generated/client.gen';
import { createConsoleSession } from './generated/sdk.gen';
import type { AdminError, MerchantList } from './generated/types.gen';

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

/** The error a failed request becomes: no response (fetch threw) → network_error; else the admin error body's type, message and param. */
function adminApiError(error: unknown, response: Response | undefined): AdminApiError {
  if (error instanceof AdminApiError) return error;
  if (!response) return new AdminApiError(0, 'network_error', 'The gateway cannot be reached; is it running?');
  const body = typeof error === 'object' && error !== null ? (error as Partial<AdminError>).error : undefined;
  return new AdminApiError(response.status, body?.type ?? 'internal_error', body?.message ?? `The gateway answered ${response.status}`, body?.param);
}

client.setConfig({ baseUrl: '', credentials: 'same-origin', headers: { Accept: 'application/json' }, throwOnError: true });
client.interceptors.request.use((request) => {
  if (request.method !== 'GET') request.headers.set('X-Console-Request', '1');
  return request;
});
client.interceptors.error.use((error, response) => adminApiError(error, response));

/** What a generated function answered: the response's body (undefined for a 204). A failure was thrown as an AdminApiError. */
export async function call<T>(pending: Promise<{ data: T; response: Response }>): Promise<T> {
  const { data, response } = await pending;
  return (response.status === 204 ? undefined : data) as T;
}

/** The operator credential, sent once as a Bearer credential and exchanged for the session cookie. */
export const signIn = (credential: string) => call(createConsoleSession({ headers: { Authorization: `Bearer ${credential}` } }));

export const enc = encodeURIComponent;

/** One page of any of the admin API's cursor lists (MerchantList, OrderList…: the same fields around their items). */
export type Page<T> = Omit<MerchantList, 'items'> & { items: T[] };

// The operations and the contract's shapes (openapi/admin), as generated.
export * from './generated/sdk.gen';
export type * from './generated/types.gen';
