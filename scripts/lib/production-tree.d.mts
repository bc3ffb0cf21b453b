// Types of production-tree.mjs for TypeScript callers (the production-bundle test, the benchmark).
export declare const BUNDLED_WORKSPACES: string[];
export declare function withWorkspaceDependencies(workspaces: string[]): string[];
export declare function writeProductionTree(
  target: string,
  workspaces?: string[],
): { workspaces: string[]; installSeconds: number };
export declare const KEEP_WHOLE: string[];
export declare function writeMigrationTree(
  target: string,
): Promise<{ files: number; whole: string[] }>;
export declare function tracedEntries(root: string, workspaces: string[]): string[];
export declare function pruneToTrace(
  root: string,
  entries: string[],
): Promise<{ kept: number; removed: number }>;
