// Zod compiles object schemas with `new Function` when it may, and probes whether it may when the
// first schema is built. The CSP forbids eval, so the probe alone reports a violation in the
// browser: zod runs without JIT from the start. Imported first by app/root.tsx, whose module the
// browser evaluates before any other route's or dialog's, so before any schema is built.
// Written into zod's shared config object (the one `z.config()` fills, created by whichever comes
// first) rather than through `z.config()`: pages without forms need not load zod for it.
const shared = globalThis as { __zod_globalConfig?: Record<string, unknown> };
(shared.__zod_globalConfig ??= {}).jitless = true;

export {};
