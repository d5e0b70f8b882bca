/**
 * The gateway's boundaries (issues 22 and 39; docs/architecture.md draws them). `pnpm lint` runs
 * dependency-cruiser with these rules over src/; test/boundaries.test.ts plants a violation of
 * each and sees the lint fail. Type-only imports count (a cycle through types is still a cycle).
 */

/** Where the database's own types may appear: db/ and the stores (a `*-store.ts`, or a module of a `store/` folder). */
const DATA_LAYER = '^src/(db/|generated/|.*(-store\\.ts|/store/))';
/** The packages behind it: Prisma, the pg driver, PGlite and its adapter, and the generated client. */
const DATABASE_PACKAGES = ['node_modules/(@prisma/[^/]+|pg|pg-[^/]+|@electric-sql/pglite|pglite-prisma-adapter)/', '^src/generated/prisma/'];

/**
 * The folders of src/ and what each may import besides itself: every arrow points down, so no loop
 * between folders can form (a folder not listed here is an error: each new one is given its place).
 * - the foundation: settings (config/, which imports nothing), the kernel (money, ids, errors, logs,
 *   the outbound HTTP client and its address guard, record reading, concurrency), the database, the contract;
 * - the domains, which know nothing of HTTP: platform services, then the commerce domains in the order
 *   checkout orchestrates them (discounts and shipping take a priced cart they define, never import checkout);
 * - the edges (our API, ACP, UCP, the admin API, MCP, ops, the CLI) over the shared edge (http/);
 * - the composition root: the files at src/'s top (app, server, services), which only the CLI imports.
 */
const FOUNDATION = ['config', 'kernel', 'generated', 'db', 'contract'];
const PLATFORM = ['auth', 'merchants', 'idempotency', 'rate-limit', 'search', 'storefront'];
const COMMERCE = {
  catalog: ['search', 'storefront'],
  customers: [],
  discounts: ['search'],
  shipping: [],
  payments: [],
  webhooks: ['storefront'],
  checkout: ['auth', 'catalog', 'customers', 'discounts', 'shipping', 'payments', 'webhooks'],
  orders: ['checkout', 'payments', 'webhooks'],
  /** What the PSP says happened (its webhooks, reconciliation), applied to payments and orders. */
  settlement: ['orders', 'payments', 'webhooks'],
};
const DOMAINS = [...PLATFORM, ...Object.keys(COMMERCE)];
const BELOW_EDGES = [...FOUNDATION, ...DOMAINS];
const LAYERS = {
  config: [],
  kernel: ['config'],
  generated: [],
  db: ['config', 'kernel', 'generated'],
  contract: ['config', 'kernel'],
  /** The merchants everything belongs to, first among the platform: a key, a catalog or a code naming a new merchant creates it through merchants/ (ensureMerchant). */
  merchants: FOUNDATION,
  ...Object.fromEntries(PLATFORM.filter((folder) => folder !== 'merchants').map((folder) => [folder, [...FOUNDATION, 'merchants']])),
  ...Object.fromEntries(Object.entries(COMMERCE).map(([folder, domains]) => [folder, [...FOUNDATION, ...PLATFORM, ...domains]])),
  http: BELOW_EDGES,
  api: [...BELOW_EDGES, 'http'],
  acp: [...BELOW_EDGES, 'http'],
  ucp: [...BELOW_EDGES, 'http'],
  admin: [...BELOW_EDGES, 'http'],
  ops: [...BELOW_EDGES, 'http', 'acp', 'ucp', 'admin'],
  mcp: [...BELOW_EDGES, 'http', 'acp', 'ucp'],
};
/** The CLI is the operator's entry point: it may import everything, the composition root included. */
const CLI = 'cli';
const FOLDERS = [...Object.keys(LAYERS), CLI];
/** The domain: services, stores and engines, which know nothing of HTTP. */
const DOMAIN = `^src/(${[...FOUNDATION, ...DOMAINS].join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      comment: 'A module never imports itself back, through any chain (types included).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'database-only-in-db-and-stores',
      comment: 'Prisma, pg and PGlite (and their types) only in db/ and the stores: services take the unit of work.',
      severity: 'error',
      from: { path: '^src/', pathNot: [DATA_LAYER, '\\.test\\.ts$'] },
      to: { path: DATABASE_PACKAGES },
    },
    ...Object.entries(LAYERS).map(([folder, below]) => ({
      name: `${folder}-imports-only-below`,
      comment: `${folder}/ imports only ${below.length ? below.join(', ') : 'itself'} (the architecture's directions; see LAYERS).`,
      severity: 'error',
      from: { path: `^src/${folder}/` },
      to: { path: '^src/[^/]+/', pathNot: `^src/(${[folder, ...below].join('|')})/` },
    })),
    {
      name: 'composition-root-only-from-the-cli',
      comment: 'The files at the top of src/ (app, server, services, the demo seed) assemble everything: only they and the CLI import them.',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: `^src/${CLI}/` },
      to: { path: '^src/[^/]+\\.ts$' },
    },
    {
      name: 'every-folder-has-a-place',
      comment: 'A folder of src/ is given its place in LAYERS before it holds code.',
      severity: 'error',
      from: { path: '^src/[^/]+/', pathNot: `^src/(${FOLDERS.join('|')})/` },
      to: {},
    },
    {
      name: 'no-folder-cycles',
      comment: 'No folder (at any depth: src/catalog/feed as well as src/catalog) imports itself back through other folders.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'services-know-no-express',
      comment: "Services, stores and engines know nothing of Express; the edges do, and a domain's routes.ts (the PSP's webhooks, which no edge profile serves).",
      severity: 'error',
      from: { path: DOMAIN, pathNot: '/routes\\.ts$' },
      to: { path: 'node_modules/(express|express-openapi-validator|body-parser|router)/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // The generated Prisma client is a target (the database rule), never walked (its own cycles are not ours).
    doNotFollow: { path: ['node_modules', '^src/generated/'] },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
