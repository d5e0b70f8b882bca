import { openDatabase } from '../apps/gateway/src/db/database.js';
const db = await openDatabase({ url: 'postgresql://postgres@127.0.0.1:5432/test' });
const f = () => db.prisma.$transaction(async (tx) => { for (let i = 0; i < 3; i++) await tx.$queryRaw`SELECT ${i}::int AS x`; });
let next = 0; await Promise.all(Array.from({ length: 8 }, async () => { while (next++ < 8000) await f(); }));
await db.close(); process.exit(0);
