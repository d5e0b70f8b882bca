/** The admin API's audit log (admin_audit_log): append and read, never change (rules make UPDATE and DELETE change nothing). */
import type { Database } from '../db/database.js';
import { newId } from '../kernel/ids.js';
import { after, NEWEST_FIRST, pageOf, type Page, type PageParams } from './page-cursor.js';

export interface AuditRecord {
  operatorId: string | null;
  operation: string;
  method: string;
  path: string;
  target: string | null;
  merchantId: string | null;
  outcome: 'succeeded' | 'refused' | 'failed';
  status: number;
  detail: string | null;
  requestId: string;
}

export interface AuditEntry extends AuditRecord {
  id: string;
  createdAt: Date;
}

export class AuditStore {
  constructor(private readonly db: Pick<Database, 'prisma'>) {}

  async append(record: AuditRecord): Promise<void> {
    await this.db.prisma.adminAuditEntry.create({ data: { id: newId('aud'), ...record } });
  }

  /** Newest first; only entries about these merchants (or by this operator) unless `merchantIds` is undefined (every merchant). */
  async list(params: PageParams, scope: { merchantIds?: string[]; operatorId: string }): Promise<Page<AuditEntry>> {
    const scoped = scope.merchantIds ? { OR: [{ merchantId: { in: scope.merchantIds } }, { operatorId: scope.operatorId }] } : {};
    const rows = await this.db.prisma.adminAuditEntry.findMany({
      where: { AND: [scoped, after(params.cursor)] },
      orderBy: NEWEST_FIRST,
      take: params.limit + 1,
    });
    return pageOf(rows, params.limit, (row) => ({ ...row, outcome: row.outcome as AuditRecord['outcome'] }));
  }
}
