import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/stack-config.mjs';

/**
 * The deployment files, checked offline in every `npm test` (docs/adr/0087): `node
 * scripts/deploy-check.mjs` renders the Helm chart (defaults, production values, every option on,
 * and values that lack a required value, which must fail with their message) and both kustomize
 * overlays, validates every rendered object against the Kubernetes JSON schemas of the oldest and
 * newest Kubernetes the chart claims, checks the network policies against every in-cluster call
 * and every required variable against each process's env schema, lints the Dockerfile and the
 * compose file. Its tools are built or installed once into ~/.cache/challenge-platform (minutes
 * cold: helm, kustomize and k6 with `go install`, kubernetes-validate with pip); warm it takes
 * seconds.
 */
describe('node scripts/deploy-check.mjs', () => {
  it(
    'passes every check, the schema checks for both Kubernetes versions among them',
    async () => {
      const result = await promisify(execFile)(
        process.execPath,
        [path.join(repoRoot, 'scripts', 'deploy-check.mjs')],
        { cwd: repoRoot, timeout: 40 * 60_000, maxBuffer: 16 * 1024 * 1024 },
      ).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code?: number; stdout?: string }) => ({
          code: error.code ?? -1,
          stdout: error.stdout ?? '',
        }),
      );
      const failed = result.stdout.split('\n').filter((line) => !/^(ok|skip) /.test(line));
      expect({ code: result.code, failed }).toEqual({
        code: 0,
        failed: [expect.stringMatching(/^\d+ passed, 0 failed, 0 skipped$/), ''],
      });
      const lines = result.stdout.split('\n');
      for (const render of [
        'helm template (defaults)',
        'helm template (production values)',
        'kustomize build k8s/overlays/dev',
        'kustomize build k8s/overlays/prod',
      ])
        for (const version of ['1.25', '1.37'])
          expect(lines, `${render}, Kubernetes ${version}`).toContainEqual(
            expect.stringMatching(
              new RegExp(
                `^ok {3}schemas: ${render.replace(/[()]/g, '\\$&')}, Kubernetes ${version} `,
              ),
            ),
          );
      expect(lines).toContainEqual(
        expect.stringMatching(
          /^ok {3}helm template .*no sepaDebtor: fails with the required message/,
        ),
      );
    },
    45 * 60_000,
  );
});
