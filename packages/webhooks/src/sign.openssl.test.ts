import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sign } from './node.js';
import { signAsync } from './web.js';

// An independent implementation: `openssl dgst -sha256 -hmac KEY FILE` over the exact body bytes.
const hasOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const dir = mkdtempSync(join(tmpdir(), 'webhooks-openssl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function opensslHmac(body: Uint8Array, secret: string): string {
  const file = join(dir, 'body');
  writeFileSync(file, body);
  const out = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret, file], { encoding: 'utf8' });
  const digest = /([0-9a-f]{64})\s*$/.exec(out)?.[1];
  if (!digest) throw new Error(`unexpected openssl output: ${out}`);
  return digest;
}

describe.skipIf(!hasOpenssl)('signatures agree with openssl byte for byte', () => {
  it.each([
    ['ASCII JSON', '{"id":"evt_1","type":"order.created","data":{"object":{}}}', 'whsec_test'],
    ['non-ASCII UTF-8 JSON', '{"note":"Crème brûlée — 注文 🛒","total":12.5}', 'whsec_test'],
    ['a non-ASCII secret', '{"id":"evt_2"}', 'clé-secrète-🔑'],
    ['whitespace the sender kept', '{\n  "id": "evt_3"\n}\n', 'whsec_test'],
    ['an empty body', '', 'whsec_test'],
  ])('%s', async (_, body, secret) => {
    const expected = `t=1700000000,v1=${opensslHmac(Buffer.from(body, 'utf8'), secret)}`;
    expect(sign(body, secret, { timestamp: 1_700_000_000 })).toBe(expected);
    expect(sign(Buffer.from(body), secret, { timestamp: 1_700_000_000 })).toBe(expected);
    expect(await signAsync(body, secret, { timestamp: 1_700_000_000 })).toBe(expected);
  });

  it('binary bytes (every byte value)', async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const expected = `t=1,v1=${opensslHmac(bytes, 'k')}`;
    expect(sign(bytes, 'k', { timestamp: 1 })).toBe(expected);
    expect(await signAsync(bytes.buffer, 'k', { timestamp: 1 })).toBe(expected);
  });
});
