/**
 * Child process of run.ts: starts the gateway as `serve` does (migrate, build the search
 * index from the database, listen) and reports, as one JSON line on stdout, how long that
 * took and the resident memory; then serves until killed.
 */
const processStart = performance.now();
const { loadConfig } = await import('../../apps/gateway/src/config/config.js');
const { createLogger } = await import('../../apps/gateway/src/kernel/logger.js');
const { startGateway } = await import('../../apps/gateway/src/server.js');
const modulesLoaded = performance.now();
const config = loadConfig();
const gateway = await startGateway(config, createLogger(config.logLevel));
const ready = performance.now();
const memory = process.memoryUsage();
process.stdout.write(
  `${JSON.stringify({
    url: gateway.url,
    startGatewayMs: ready - modulesLoaded,
    sinceProcessStartMs: ready - processStart + performance.timeOrigin - (performance.timeOrigin - process.uptime() * 1000 + processStart),
    uptimeMs: process.uptime() * 1000,
    rssMb: memory.rss / 1e6,
    heapUsedMb: memory.heapUsed / 1e6,
    arrayBuffersMb: memory.arrayBuffers / 1e6,
  })}\n`,
);
process.on('SIGTERM', () => {
  process.stdout.write(`${JSON.stringify({ rssMbAtEnd: process.memoryUsage().rss / 1e6 })}\n`);
  void gateway.close().then(() => process.exit(0));
});
