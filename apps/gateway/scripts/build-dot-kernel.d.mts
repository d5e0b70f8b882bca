/** Types of build-dot-kernel.mjs (imported by the kernel's test). */
export function compileDotKernel(): Promise<string>;
