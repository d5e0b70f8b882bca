/**
 * The gateway's boundaries (issue 22; docs/architecture.md draws them). `pnpm lint` runs
 * dependency-cruiser with these rules over src/; test/boundaries.test.ts plants a violation of
 * each and sees the lint fail. Type-only imports count (a cycle through types is still a cycle).
 */

/** Where the database's own types may appear: db/ and the stores (a `*-store.ts`, or a module of a `store/` folder). */
const DATA_LAYER = '^src/(db/|generated/|.*(-store\\.ts|/store/))';
/** The packages behind it: Prisma, the pg driver, PGlite and its adapter, and the generated client. */
const DATABASE_PACKAGES = ['node_modules/(@prisma/[^/]+|pg|pg-[^/]+|@electric-sql/pglite|pglite-prisma-adapter)/', '^src/generated/prisma/'];
/** The domain: services, stores and engines, which know nothing of HTTP (their `routes.ts` are the edge's handlers). */
const DOMAIN = '^src/(auth|catalog|checkout|customers|discounts|orders|payments|shipping|webhooks|search|idempotency|storefront|rate-limit|config|db)/';
/** An edge: a protocol profile's folder. Our API's handlers are the `routes.ts` of the domain folders. */
const EDGES = ['acp', 'ucp'];

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
    {
      name: 'config-imports-no-domain-code',
      comment: 'Settings are read and checked in config/ alone; the domain imports config, never the reverse.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: '^src/', pathNot: '^src/config/' },
    },
    {
      name: 'services-know-no-express',
      comment: 'Services, stores and engines know nothing of Express; handlers (routes.ts) and the edges do.',
      severity: 'error',
      from: { path: DOMAIN, pathNot: '/routes\\.ts$' },
      to: { path: 'node_modules/(express|express-openapi-validator|body-parser|router)/' },
    },
    ...EDGES.map((edge) => ({
      name: `edge-${edge}-keeps-to-itself`,
      comment: `The ${edge} edge uses the domain and the shared edge (http/), never another edge's handlers or internals.`,
      severity: 'error',
      from: { path: `^src/${edge}/` },
      to: { path: ['/routes\\.ts$', `^src/(${EDGES.filter((other) => other !== edge).join('|') || '$^'})/`], pathNot: `^src/${edge}/` },
    })),
    {
      name: 'our-api-keeps-to-itself',
      comment: "Our API's handlers (routes.ts) and the shared edge (http/) never reach into a protocol profile's folder.",
      severity: 'error',
      from: { path: ['/routes\\.ts$', '^src/http/'], pathNot: `^src/(${EDGES.join('|')})/` },
      to: { path: `^src/(${EDGES.join('|')})/` },
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
