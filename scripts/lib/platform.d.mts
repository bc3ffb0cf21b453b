// Types of platform.mjs for TypeScript callers (tests that start processes as npm start does).
export declare const SERVICES: string[];
export declare const GATEWAY_PORT: number;
export declare const SERVICE_PORTS: Record<string, number>;
export declare const publicUrl: string;
export declare function developmentKeys(): { privateKey: string; publicKey: string };
export declare function serviceEnv(service: string): Record<string, string>;
export declare function gatewayEnv(): Record<string, string>;
