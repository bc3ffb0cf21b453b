import path from 'node:path';
import { pendingSchemaDiff } from '../../scripts/lib/prisma-migrations.mjs';
import { repoRoot } from '../../scripts/lib/stack-config.mjs';
import { SERVICES, stack } from '@challenge/testing';
import { describe, expect, it } from 'vitest';

describe('every schema change ships with its migration', () => {
  it.each(SERVICES)(
    '%s: schema.prisma equals the schema as of its newest migration',
    async (service) => {
      const sql = await pendingSchemaDiff(
        path.join(repoRoot, 'services', service),
        stack.postgresAdminUrl,
      );
      // If this fails: npm run migrate:create -- <name> --service <service>
      expect(sql).toBe('');
    },
  );
});
