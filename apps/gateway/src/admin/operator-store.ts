/** The operators table: the only code that reads or writes operator credentials. */
import type { Database } from '../db/database.js';
import type { Operator } from './operator.js';

export interface NewOperatorRecord extends Omit<Operator, 'createdAt' | 'revokedAt'> {
  tokenHash: string;
}

type Row = NonNullable<Awaited<ReturnType<Database['prisma']['operator']['findUnique']>>>;

function toOperator({ tokenHash: _hash, ...row }: Row): Operator {
  return row;
}

export class OperatorStore {
  constructor(private readonly db: Pick<Database, 'prisma'>) {}

  async create(record: NewOperatorRecord): Promise<Operator> {
    return toOperator(await this.db.prisma.operator.create({ data: record }));
  }

  async findByHash(tokenHash: string): Promise<(Operator & { tokenHash: string }) | undefined> {
    const row = await this.db.prisma.operator.findUnique({ where: { tokenHash } });
    return row ? { ...toOperator(row), tokenHash: row.tokenHash } : undefined;
  }

  async byId(id: string): Promise<Operator | undefined> {
    const row = await this.db.prisma.operator.findUnique({ where: { id } });
    return row ? toOperator(row) : undefined;
  }

  async list(): Promise<Operator[]> {
    return (await this.db.prisma.operator.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })).map(toOperator);
  }

  /** Marks it revoked; false when there is no such operator. */
  async revoke(id: string): Promise<boolean> {
    const { count } = await this.db.prisma.operator.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
    return count > 0 || (await this.db.prisma.operator.count({ where: { id } })) > 0;
  }
}
