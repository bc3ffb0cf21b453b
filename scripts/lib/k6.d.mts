// Types of k6.mjs for TypeScript callers (the load-test smoke test).
export declare const K6_VERSION: string;
export declare const k6Path: string;
export declare function ensureK6(): string;
export declare const LOAD_RUN_ENV: Readonly<Record<string, string>>;
export declare function ensureClip(file: string): string;
