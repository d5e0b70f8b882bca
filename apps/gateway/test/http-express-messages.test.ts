import express from 'express';
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listenOn, type Listening } from '../src/server.js';

let listening: Listening | undefined;
afterEach(async () => {
  await listening?.close({ graceMs: 100 });
  listening = undefined;
});

describe('the HTTP server of an Express app', () => {
  it('makes each request and response with the app’s prototypes, so Express never changes one', async () => {
    const app = express();
    app.get('/p/:id', (req, res) => {
      res.json({ id: req.params.id, accept: req.get('accept'), protocol: req.protocol });
    });
    listening = await listenOn(app, '127.0.0.1', 0);
    const born: [object | null, object | null][] = [];
    // Listeners run in order: this one sees the objects as the server made them, before the app.
    listening.server.prependListener('request', (req: IncomingMessage, res) => born.push([Object.getPrototypeOf(req), Object.getPrototypeOf(res)]));
    for (const id of ['a', 'b']) {
      const response = await fetch(`${listening.url}/p/${id}`, { headers: { accept: 'application/json' } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ id, accept: 'application/json', protocol: 'http' });
    }
    expect(born).toEqual([
      [app.request, app.response],
      [app.request, app.response],
    ]);
    // Errors and other statuses still go through Express's own responses.
    expect((await fetch(`${listening.url}/nowhere`)).status).toBe(404);
  });

  it('leaves another handler Node’s own classes', async () => {
    const seen: object[] = [];
    listening = await listenOn((req, res) => {
      seen.push(Object.getPrototypeOf(req));
      res.end('ok');
    }, '127.0.0.1', 0);
    expect(await (await fetch(listening.url)).text()).toBe('ok');
    const { IncomingMessage: Plain } = await import('node:http');
    expect(seen).toEqual([Plain.prototype]);
  });
});
