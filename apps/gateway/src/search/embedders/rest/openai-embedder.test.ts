/**
 * The OpenAI-compatible embedder against a tiny local HTTP server that answers the
 * embeddings format (its vectors come from the local embedder, so the contract's
 * similarity checks hold).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedderContract } from '../../embedder.contract.js';
import { EmbedderError } from '../../embedder.js';
import { sharedLocalEmbedder } from '../local/local-embedder.js';
import { OpenAiEmbedder } from './openai-embedder.js';

interface Received {
  authorization: string | undefined;
  body: { model?: string; input: string[]; dimensions?: number };
}

let server: Server;
let base: string;
const received: Received[] = [];
let behaviour: 'ok' | 'error' | 'short' | 'slow' | 'reversed' | 'throttle-once' | 'fail-once' | 'throttled' | 'bad-request' = 'ok';
/** Answers given so far while throttling (the first of them refused). */
let refusals = 0;

async function readBody(req: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of req) body += chunk;
  return body;
}

beforeAll(async () => {
  const local = sharedLocalEmbedder();
  server = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req)) as Received['body'];
    received.push({ authorization: req.headers.authorization, body });
    if (behaviour === 'error') {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"model overloaded"}}');
      return;
    }
    if (behaviour === 'throttled' || (behaviour === 'throttle-once' && refusals === 0)) {
      refusals++;
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"error":{"message":"rate limited"}}');
      return;
    }
    if (behaviour === 'fail-once' && refusals === 0) {
      refusals++;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"warming up"}}');
      return;
    }
    if (behaviour === 'bad-request') {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"bad input"}}');
      return;
    }
    if (behaviour === 'slow') await new Promise((r) => setTimeout(r, 500));
    const data = body.input.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: Array.from(local.embedOne(text)).map((x) => x * 3).slice(0, behaviour === 'short' ? 10 : undefined),
    }));
    if (behaviour === 'reversed') data.reverse();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/embeddings`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const make = (extra: Partial<ConstructorParameters<typeof OpenAiEmbedder>[0]> = {}) =>
  new OpenAiEmbedder({ url: base, apiKey: 'sk-test', model: 'text-embedding-test', dimensions: 100, retry: { minDelayMs: 10, maxDelayMs: 2_000 }, ...extra });

embedderContract('OpenAI-compatible endpoint', async () => make());

describe('OpenAI-compatible embedder', () => {
  it('sends the model, the texts, the dimensions and the bearer key', async () => {
    behaviour = 'ok';
    received.length = 0;
    await make().embed(['oak chair']);
    expect(received[0]).toEqual({ authorization: 'Bearer sk-test', body: { model: 'text-embedding-test', input: ['oak chair'], dimensions: 100 } });
  });

  it('sends texts in batches and keeps their order, whatever order the answer lists them in', async () => {
    behaviour = 'reversed';
    received.length = 0;
    const texts = ['sofa', 'lamp', 'desk', 'mug', 'bed'];
    const vectors = await make({ batchSize: 2 }).embed(texts);
    expect(received.map((r) => r.body.input)).toEqual([['sofa', 'lamp'], ['desk', 'mug'], ['bed']]);
    const expected = await sharedLocalEmbedder().embed(texts);
    vectors.forEach((v, i) => expect(v[0]).toBeCloseTo(expected[i]![0]!, 5));
  });

  it.each([
    ['error', /answered 500: .*model overloaded/],
    ['short', /not 100 numbers/],
  ] as const)('fails with EmbedderError when the endpoint answers %s', async (mode, message) => {
    behaviour = mode;
    const failure = await make().embed(['x']).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(EmbedderError);
    expect((failure as Error).message).toMatch(message);
  });

  it('fails with EmbedderError when the endpoint is unreachable or too slow', async () => {
    behaviour = 'slow';
    await expect(make({ timeoutMs: 50 }).embed(['x'])).rejects.toBeInstanceOf(EmbedderError);
    await expect(make({ url: 'http://127.0.0.1:1/v1/embeddings' }).embed(['x'])).rejects.toThrow(/unreachable.*after 5 attempts/);
    behaviour = 'ok';
  });

  it('waits as long as a 429 asks (Retry-After) and sends the batch again', async () => {
    behaviour = 'throttle-once';
    refusals = 0;
    received.length = 0;
    const started = Date.now();
    const vectors = await make().embed(['oak chair', 'lamp']);
    expect(vectors).toHaveLength(2);
    expect(received).toHaveLength(2);
    expect(received[1]!.body.input).toEqual(['oak chair', 'lamp']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('backs off and retries a 5xx', async () => {
    behaviour = 'fail-once';
    refusals = 0;
    received.length = 0;
    expect(await make().embed(['sofa'])).toHaveLength(1);
    expect(received).toHaveLength(2);
  });

  it('gives up after its retries, saying how many attempts it made', async () => {
    behaviour = 'throttled';
    received.length = 0;
    await expect(make({ retry: { retries: 1 } }).embed(['x'])).rejects.toThrow(/answered 429.*after 2 attempts/);
    expect(received).toHaveLength(2);
  });

  it('never retries a 4xx other than 429 (the request is wrong, not the moment)', async () => {
    behaviour = 'bad-request';
    received.length = 0;
    await expect(make().embed(['x'])).rejects.toThrow(/answered 400/);
    expect(received).toHaveLength(1);
    behaviour = 'ok';
  });
});
