/** Types of build-dot-kernel.mjs (imported by the kernel's test and bench/search/vectors.ts). */
export function compileDotKernel(): Promise<string>;
export function compileWat(name: string, text: string): Promise<Uint8Array>;
