/** Injected by vite.config.ts at build time: commit day and short hash, e.g. '2026-11-22 1a2b3c4'. */
declare const __WUFF_VERSION__: string;
