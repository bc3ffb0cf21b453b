/** The types of what TypeScript code (the benchmarks) uses of index.mjs. */
export interface ComponentStatus {
  name: string;
  state: 'up' | 'down' | 'installed' | 'missing';
  address?: string;
  pid?: number | null;
  owner?: string;
  detail?: string;
}

/** State of each component (all, or those named in `only`). */
export declare function stackStatus(options?: { only?: string[] }): Promise<ComponentStatus[]>;
