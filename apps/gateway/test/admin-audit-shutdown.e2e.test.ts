/**
 * Shutdown keeps the audit entries still being written (server.ts closes the database only after
 * AuditLog.settled()): a write refused while the database briefly refused its entry, then the
 * gateway stopped, still has its entry. On PostgreSQL (TEST_DATABASE_URL), where the database
 * outlives the gateway's process and can be read after it.
 */
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { startGateway } from '../src/server.js';
import { call } from './support/http.js';
import { createTestDatabase } from './support/test-database.js';

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('stopping the gateway', () => {
  it('waits for the audit entries it is still writing', async () => {
    const db = await createTestDatabase();
    try {
      const config = loadConfig({ DATABASE_URL: db.url!, GATEWAY_ENV: 'sandbox', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', WEBHOOK_WORKER: 'off', CATALOG_SNAPSHOT_DIR: 'off' });
      const gateway = await startGateway(config, pino({ level: 'silent' }));
      const { token } = await gateway.services.admin.operators.create({ name: 'root', access: 'full', allMerchants: true });
      const appends = vi.spyOn(gateway.services.admin.audit.store, 'append');
      const settled = vi.spyOn(gateway.services.admin.audit, 'settled');
      await db.prisma.$executeRawUnsafe('ALTER TABLE admin_audit_log RENAME TO admin_audit_log_away');
      const refused = await call(`${gateway.url}/admin/merchants`, { method: 'POST', json: { id: 'bad id' }, headers: { authorization: `Bearer ${token}` } });
      expect(refused.status).toBe(400);
      const stopped = gateway.close();
      // Stopping has reached the audit log (HTTP closed, the database still open: lifecycle.ts) and waits for
      // the entry, whose write the database has refused so far (and refuses until the table is back).
      await vi.waitFor(() => expect(settled).toHaveBeenCalled(), { timeout: 10_000 });
      expect(appends.mock.settledResults.map((result) => result.type)).toContain('rejected');
      expect(appends.mock.settledResults.map((result) => result.type)).not.toContain('fulfilled');
      await db.prisma.$executeRawUnsafe('ALTER TABLE admin_audit_log_away RENAME TO admin_audit_log');
      await stopped;
      const entries = await db.prisma.adminAuditEntry.findMany({ where: { requestId: refused.headers.get('request-id')! } });
      expect(entries).toMatchObject([{ operation: 'createMerchant', outcome: 'refused', status: 400 }]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
