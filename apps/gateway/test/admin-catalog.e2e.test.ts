/**
 * The admin API over the catalog: a catalog file uploaded as the body (JSON array or NDJSON) runs
 * through the import service `gateway catalog import` runs and is followed by polling; anything
 * that is not a catalog is refused with 400 before anything is written (and audited); the search
 * index is rebuilt through the service `gateway catalog reindex` runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { product } from './support/fixtures.js';
import { call, type Reply } from './support/http.js';
import { startTestGateway, type TestGateway } from './support/test-gateway.js';

let gateway: TestGateway;
const op = { full: '', reader: '', rivalOnly: '' };

const admin = (token: string, path: string, init: RequestInit = {}): Promise<Reply> =>
  call(`${gateway.url}/admin${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> | undefined) } });
const upload = (token: string, merchantId: string, body: string, contentType = 'application/json') =>
  admin(token, `/merchants/${merchantId}/catalog/imports`, { method: 'POST', body, headers: { 'content-type': contentType } });
const ndjson = (records: object[]) => records.map((r) => JSON.stringify(r)).join('\n') + '\n';
const productCount = (merchantId: string) => gateway.db.prisma.product.count({ where: { merchantId } });

/** Polls the import until it is over. */
async function finished(id: string, token = op.full): Promise<Record<string, unknown>> {
  let reply: Reply | undefined;
  await expect.poll(async () => (reply = await admin(token, `/catalog/imports/${id}`)).body.state, { timeout: 30_000 }).not.toBe('running');
  return reply!.body;
}

beforeAll(async () => {
  gateway = await startTestGateway();
  await gateway.importProducts('shop', [product({ id: 'chair' })]);
  await gateway.importProducts('rival', [product({ id: 'stool' })]);
  op.full = (await gateway.services.admin.operators.create({ name: 'shop ops', access: 'full', merchantIds: ['shop'] })).token;
  op.reader = (await gateway.services.admin.operators.create({ name: 'auditor', access: 'read', allMerchants: true })).token;
  op.rivalOnly = (await gateway.services.admin.operators.create({ name: 'rival ops', access: 'full', merchantIds: ['rival'] })).token;
}, 120_000);
afterAll(() => gateway?.close());

describe('catalog import', () => {
  it('imports a JSON array: 202 with the import, followed to succeeded; the products are there', async () => {
    const started = await upload(op.full, 'shop', JSON.stringify([product({ id: 'desk' }), product({ id: 'lamp', title: 'Brass lamp' })]));
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ id: expect.stringMatching(/^imp_/), merchant_id: 'shop', received: 2, failed: 0, errors: [], started_at: expect.any(String) });
    expect(['running', 'succeeded']).toContain(started.body.state);
    expect(started.headers.get('location')).toBe(`/admin/catalog/imports/${started.body.id}`);
    expect(await finished(started.body.id)).toMatchObject({ state: 'succeeded', received: 2, imported: 2, failed: 0, finished_at: expect.any(String) });
    expect(await productCount('shop')).toBe(3);
    const lamp = await gateway.db.prisma.product.findUnique({ where: { merchantId_id: { merchantId: 'shop', id: 'lamp' } } });
    expect(lamp?.title).toBe('Brass lamp');
  });

  it('imports NDJSON, upserting by id', async () => {
    const started = await upload(op.full, 'shop', ndjson([product({ id: 'desk', title: 'Oak desk' }), product({ id: 'rug' })]), 'application/x-ndjson');
    expect(started.status).toBe(202);
    expect(await finished(started.body.id)).toMatchObject({ state: 'succeeded', imported: 2 });
    expect(await productCount('shop')).toBe(4);
  });

  it('an import that fails while writing (a SKU another product has) is failed, with the line, and writes nothing', async () => {
    const clash = product({ id: 'chair-2', variants: [{ ...product({ id: 'x' }).variants[0]!, sku: 'chair-default' }] });
    const started = await upload(op.full, 'shop', ndjson([product({ id: 'vase' }), clash]), 'application/x-ndjson');
    expect(started.status).toBe(202);
    const done = await finished(started.body.id);
    expect(done).toMatchObject({ state: 'failed', received: 2, imported: 0, failed: 2, errors: [{ line: 2, message: expect.stringMatching(/chair-default/) }] });
    expect(await productCount('shop')).toBe(4);
  });

  it.each([
    ['garbage', 'this is not a catalog', 'application/json'],
    ['an object, not an array', '{"id":"desk"}', 'application/json'],
    ['an empty array', '[]', 'application/json'],
    ['an empty body', '', 'application/json'],
    ['NDJSON that is not JSON', 'not json\n', 'application/x-ndjson'],
    ['an empty NDJSON file', '\n\n', 'application/x-ndjson'],
    ['a product that breaks the contract', ndjson([product({ id: 'ok' }), { id: 'bad', title: 'No price' }]), 'application/x-ndjson'],
    ['a repeated id', ndjson([product({ id: 'twice' }), product({ id: 'twice' })]), 'application/x-ndjson'],
  ])('refuses %s with 400 in the admin error shape; nothing changes; audited', async (_name, body, type) => {
    const refused = await upload(op.full, 'shop', body, type);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ error: expect.objectContaining({ type: 'invalid_request', message: expect.any(String), request_id: expect.any(String) }) });
    expect(await productCount('shop')).toBe(4);
    await gateway.services.admin.audit.settled();
    const [entry] = (await admin(op.reader, '/audit?limit=1')).body.items;
    expect(entry).toMatchObject({ operation: 'importCatalog', outcome: 'refused', status: 400, merchant_id: 'shop', detail: expect.stringMatching(/^invalid_request: /) });
  });

  it('names the line of a bad product', async () => {
    const refused = await upload(op.full, 'shop', ndjson([product({ id: 'ok' }), { id: 'bad' }]), 'application/x-ndjson');
    expect(refused.body.error).toMatchObject({ param: 'body', message: expect.stringMatching(/line 2/) });
  });

  it('refuses another content type (415), a body over 1 MiB (413), a read-only credential (403), another merchant (403), a merchant that does not exist (404)', async () => {
    const text = await upload(op.full, 'shop', 'id,title\nchair,Chair\n', 'text/csv');
    expect(text.status).toBe(415);
    expect(text.body.error.type).toBe('invalid_request');
    const huge = await upload(op.full, 'shop', JSON.stringify([product({ id: 'big', description: 'x'.repeat(1_100_000) })]));
    expect(huge.status).toBe(413);
    expect(huge.body.error.type).toBe('payload_too_large');
    expect((await upload(op.reader, 'shop', JSON.stringify([product({ id: 'r' })]))).status).toBe(403);
    expect((await upload(op.full, 'rival', JSON.stringify([product({ id: 'r' })]))).status).toBe(403);
    const ghost = await gateway.services.admin.operators.create({ name: 'root', access: 'full', allMerchants: true });
    expect((await upload(ghost.token, 'nosuch', JSON.stringify([product({ id: 'r' })]))).status).toBe(404);
    expect(await productCount('shop')).toBe(4);
    expect(await productCount('nosuch')).toBe(0);
  });

  it('an import is shown only to credentials serving its merchant; an unknown id is 404', async () => {
    const started = await upload(op.full, 'shop', JSON.stringify([product({ id: 'desk' })]));
    await finished(started.body.id);
    expect((await admin(op.reader, `/catalog/imports/${started.body.id}`)).status).toBe(200);
    const hidden = await admin(op.rivalOnly, `/catalog/imports/${started.body.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toMatchObject({ type: 'not_found', param: 'import_id' });
    expect((await admin(op.full, '/catalog/imports/imp_nosuch')).status).toBe(404);
  });
});

describe('catalog reindex', () => {
  it('rebuilds the merchant\'s search index and answers with counts; read-only is 403, an unknown merchant 404', async () => {
    const reindexed = await admin(op.full, '/merchants/shop/catalog/reindex', { method: 'POST' });
    expect(reindexed.status).toBe(200);
    expect(reindexed.body).toEqual({ merchant_id: 'shop', products: 4, embedded: expect.any(Number), unembedded: expect.any(Number), embedder_error: expect.toSatisfy((v) => v === null || typeof v === 'string'), duration_ms: expect.any(Number) });
    expect((await admin(op.reader, '/merchants/shop/catalog/reindex', { method: 'POST' })).status).toBe(403);
    const root = await gateway.services.admin.operators.create({ name: 'root 2', access: 'full', allMerchants: true });
    expect((await admin(root.token, '/merchants/nosuch/catalog/reindex', { method: 'POST' })).status).toBe(404);
  });
});
