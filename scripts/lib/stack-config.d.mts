// Types of the parts of stack-config.mjs that TypeScript code (the test helpers) uses.
export declare const repoRoot: string;
export declare const localDir: string;
export declare const cacheDir: string;
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
