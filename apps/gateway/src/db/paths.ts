import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The gateway package's root, found from this file whether it runs from src/ or dist/. */
export const packageRoot: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === '@commerce-gateway/gateway') {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('cannot find the @commerce-gateway/gateway package root');
    dir = parent;
  }
})();

export const schemaPath = join(packageRoot, 'prisma', 'schema.prisma');
export const migrationsDir = join(packageRoot, 'prisma', 'migrations');
