/** The ACP versions this gateway speaks, oldest first; the last is the current one. */
export const ACP_VERSIONS = ['2026-04-17'] as const;
export const ACP_VERSION = ACP_VERSIONS[ACP_VERSIONS.length - 1]!;
