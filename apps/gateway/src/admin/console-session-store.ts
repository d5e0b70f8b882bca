/** The console_sessions table: the only code that reads or writes console sign-ins. */
import type { Database } from '../db/database.js';

export interface ConsoleSessionRecord {
  id: string;
  tokenHash: string;
  operatorId: string;
  expiresAt: Date;
}

export class ConsoleSessionStore {
  constructor(private readonly db: Pick<Database, 'prisma'>) {}

  async create(record: ConsoleSessionRecord): Promise<void> {
    await this.db.prisma.consoleSession.create({ data: record });
  }

  async findByHash(tokenHash: string): Promise<ConsoleSessionRecord | undefined> {
    return (await this.db.prisma.consoleSession.findUnique({ where: { tokenHash } })) ?? undefined;
  }

  /** Removes the session and every expired one (sign-out is when stale rows are swept). */
  async remove(tokenHash: string): Promise<void> {
    await this.db.prisma.consoleSession.deleteMany({ where: { OR: [{ tokenHash }, { expiresAt: { lt: new Date() } }] } });
  }
}
