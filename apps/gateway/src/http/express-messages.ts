/**
 * The HTTP server's request and response classes for an Express app: each request and response
 * is born with the app's own prototypes (`app.request`, `app.response`).
 *
 * Express otherwise gives each one its prototype as it arrives (`Object.setPrototypeOf` in
 * `app.handle`), and V8 then keeps every request's objects through the next young-generation
 * collection. Measured on a bare Express app, one request at a time: 3–5 MB survived each
 * scavenge (pauses of 3–15 ms), and under 1 KB with these classes (0.5 ms). Express's own
 * `setPrototypeOf` then finds the prototype already set and changes nothing. In the gateway,
 * those scavenges were most of the p99 of `?q=` at 200,000 products (bench:http:memory).
 */
import { IncomingMessage, ServerResponse, type RequestListener, type ServerOptions } from 'node:http';

interface ExpressPrototypes {
  request: object;
  response: object;
}

function hasExpressPrototypes(handler: object): handler is ExpressPrototypes {
  const { request, response } = handler as Partial<ExpressPrototypes>;
  return typeof request === 'object' && request instanceof IncomingMessage && typeof response === 'object' && response instanceof ServerResponse;
}

/** Options for `http.createServer` that make the handler's requests and responses (an Express app's) as it wants them; none for another handler. */
export function messageClasses(handler: RequestListener): Pick<ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  if (!hasExpressPrototypes(handler)) return {};
  // Node's own classes are plain constructor functions: these call them on an object of the app's prototype.
  function AppRequest(this: IncomingMessage, ...args: unknown[]) {
    (IncomingMessage as unknown as (...args: unknown[]) => void).apply(this, args);
  }
  AppRequest.prototype = handler.request;
  function AppResponse(this: ServerResponse, ...args: unknown[]) {
    (ServerResponse as unknown as (...args: unknown[]) => void).apply(this, args);
  }
  AppResponse.prototype = handler.response;
  return { IncomingMessage: AppRequest as unknown as typeof IncomingMessage, ServerResponse: AppResponse as unknown as typeof ServerResponse };
}
