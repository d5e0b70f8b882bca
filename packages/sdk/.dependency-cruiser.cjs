/** The SDK's one structural rule, run by `pnpm lint`: no import cycles (types included); the generated client is not ours to shape. */
module.exports = {
  forbidden: [{ name: 'no-cycles', severity: 'error', from: {}, to: { circular: true } }],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: ['node_modules', '^src/generated/'] },
  },
};
