// Types of platform.mjs for TypeScript callers (tests that start processes as npm start does).
export declare const SERVICES: string[];
export declare const GATEWAY_PORT: number;
export declare const SERVICE_PORTS: Record<string, number>;
export declare const publicUrl: string;
/** Node's arguments that run a workspace's production bundle (after `node`). */
export declare const BUNDLE_COMMAND: string[];
export declare function developmentKeys(): { privateKey: string; publicKey: string };
/** Ports and data of one running platform; npm start's fixed ports and databases by default. */
export interface PlatformLayout {
  gatewayPort?: number;
  ports?: Record<string, number>;
  databaseUrl?: (service: string) => string;
  topicPrefix?: string;
  s3Bucket?: string;
}
export declare function serviceEnv(
  service: string,
  layout?: PlatformLayout,
): Record<string, string>;
export declare function gatewayEnv(layout?: PlatformLayout): Record<string, string>;
