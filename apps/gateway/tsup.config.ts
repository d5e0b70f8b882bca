import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { cli: 'src/cli/main.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  // Chunks: the CLI's entry loads only the local socket's client; the commands (Prisma, PGlite,
  // Express…) load when a command runs in this process (src/cli/main.ts).
  splitting: true,
});
