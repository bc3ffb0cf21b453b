// Types of production-tree.mjs for TypeScript callers (the production-bundle test, the benchmark).
export declare const BUNDLED_WORKSPACES: string[];
export declare function withWorkspaceDependencies(workspaces: string[]): string[];
export declare function writeProductionTree(
  target: string,
  workspaces?: string[],
): { workspaces: string[]; installSeconds: number };
