// Types of the parts of stack-config.mjs that TypeScript code (the test helpers) uses.
/** The environment variables the scripts honour, read once. */
export declare const env: Readonly<{
  XDG_CACHE_HOME: string;
  HOME: string;
  PATH: string;
  STACK_DATA_DIR: string;
  PAYMENT_SANDBOX_TLS_DIR: string;
}>;
export declare const repoRoot: string;
export declare const localDir: string;
export declare const cacheDir: string;
/** The stack's Kafka: its address, and the version whose jars it keeps under cacheDir. */
export declare const kafka: Readonly<{
  host: string;
  port: number;
  controllerPort: number;
  version: string;
  slf4jVersion: string;
  heap: string[];
}>;
export declare function stackUrls(): {
  postgresAdminUrl: string;
  databaseUrl: (dbName: string) => string;
  redisUrl: string;
  kafkaBrokers: string[];
  s3: { endpoint: string; accessKey: string; secretKey: string; region: string };
  smtp: { host: string; port: number };
  smtpCatcherHttp: string;
  paymentSandbox: { apiUrl: string; apiKey: string; caFile: string; baseUrl: string };
};
/** Environment for child processes: the current environment plus `extra`. */
export declare function childEnv(
  extra?: Record<string, string>,
): Record<string, string | undefined>;
/** The platform's one Node: the pinned version, the lowest accepted, the registry package, the cache folder. */
export declare const nodeRuntime: {
  readonly version: string;
  readonly minimum: string;
  readonly packageName: string;
  readonly dir: string;
};
