// Types of prisma-migrations.mjs for TypeScript callers (the test helpers' global setup).
export declare function ensureDatabase(adminUrl: string, dbName: string): Promise<boolean>;
export declare function applyMigrations(serviceDir: string, databaseUrl: string): Promise<string[]>;
export declare function pendingSchemaDiff(serviceDir: string, adminUrl: string): Promise<string>;
export declare function createMigration(
  serviceDir: string,
  name: string,
  adminUrl: string,
): Promise<string | null>;
