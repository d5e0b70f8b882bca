/**
 * A scripted fetch for unit tests: answers the requests in order, from a list of responses,
 * errors (thrown as fetch would) or functions of the request. Records what was sent.
 */
export type Answer = Response | Error | ((request: Request) => Response | Promise<Response>);

export interface SentRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

export function fakeFetch(answers: Answer[]): { fetch: typeof fetch; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const queue = [...answers];
  const scripted = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(input, init);
    sent.push({ method: request.method, url: request.url, headers: request.headers, body: await request.clone().text() });
    const next = queue.shift();
    if (next === undefined) throw new Error(`fakeFetch: no answer scripted for request ${sent.length}`);
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next(request) : next;
  }) as typeof globalThis.fetch;
  return { fetch: scripted, sent };
}

/** What undici's fetch throws when the connection is reset. */
export function connectionReset(): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
}
