import type { AddressInfo } from 'node:net';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { parseQueryOnce } from './parse-query-once.js';

describe('parseQueryOnce', () => {
  it('parses the query once per request and keeps what is assigned to req.query', async () => {
    const app = express();
    parseQueryOnce(app);
    app.use((req, res) => {
      const first = req.query;
      const same = first === req.query;
      req.query = { page: 2 } as never;
      res.json({ first: { ...first }, same, assigned: req.query });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const answers = await Promise.all(['?page=1&q=a+b', '?q=other', ''].map(async (search) => (await fetch(`http://127.0.0.1:${port}/${search}`)).json()));
      expect(answers).toEqual([
        { first: { page: '1', q: 'a b' }, same: true, assigned: { page: 2 } },
        { first: { q: 'other' }, same: true, assigned: { page: 2 } },
        { first: {}, same: true, assigned: { page: 2 } },
      ]);
    } finally {
      server.close();
    }
  });
});
