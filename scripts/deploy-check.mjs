#!/usr/bin/env node
// Checks the deployment files without a cluster and without a Docker engine (docs/adr/0087; part
// of `npm test` through e2e/test/deploy-check.test.ts):
//   helm lint + helm template of charts/challenge-platform (default and production values, every
//   option on, values lacking a required value), kustomize build of each overlay, every rendered
//   object validated against the Kubernetes JSON schemas of the oldest and newest Kubernetes the
//   chart claims, the NetworkPolicies against every in-cluster call, k6 inspect of each load-test
//   script, BuildKit's lint of the Dockerfile, and `docker compose config` of docker-compose.yml
//   (through compose-go, the library behind it, where the docker compose plugin is missing), and
//   that every variable a process's env module (services/*/src/env.ts, gateway/src/env.ts)
//   requires is given to it by the chart, by each kustomize overlay and by the compose file.
// Installs helm v3, kustomize v5 and k6 on first use with `go install`, into
// ${XDG_CACHE_HOME:-$HOME/.cache}/challenge-platform/bin, and kubernetes-validate (PyPI) into a
// virtualenv beside them (python3-venv from apt if Debian lacks it; nothing else on the machine
// changes). Prints one line per check; exits 1 if any check fails.
//
//   node scripts/deploy-check.mjs
//
// A standalone tool: Node builtins only (and the stack's apt helper, for python3-venv), and the
// environment is read in the block below only.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// ---- environment (the only place this script reads it) ---------------------------------------
const CACHE_HOME =
  process.env.XDG_CACHE_HOME || path.join(process.env.HOME || os.homedir(), '.cache');
const INHERITED_ENV = { ...process.env }; // handed on unchanged to the tools run below
// -------------------------------------------------------------------------------------------------

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(CACHE_HOME, 'challenge-platform', 'bin');

// Published versions that build with the local Go toolchain (1.26).
const TOOLS = {
  helm: { pkg: 'helm.sh/helm/v3/cmd/helm', mod: 'helm.sh/helm/v3', version: 'v3.22.0' },
  kustomize: {
    pkg: 'sigs.k8s.io/kustomize/kustomize/v5',
    mod: 'sigs.k8s.io/kustomize/kustomize/v5',
    version: 'v5.8.1',
  },
  k6: { pkg: 'go.k6.io/k6', mod: 'go.k6.io/k6', version: 'v1.8.1' },
};

// A helm built by `go install` lacks the release ldflags and believes the cluster is
// Kubernetes 1.20; render for a current one (the chart needs >= 1.25).
const KUBE_VERSION = '1.31.0';
const CHART = 'charts/challenge-platform';
// The chart has no default for the platform's bank account (sepaDebtor): every render but the one
// that checks the `required` message uses these example values.
const CHART_VALUES = ['-f', `${CHART}/ci/example-values.yaml`];
// Every optional template switched on, so none of them can rot unnoticed.
const ALL_OPTIONS = [
  '--set',
  'defaults.autoscaling.enabled=true',
  '--set',
  'gateway.autoscaling.enabled=true',
  '--set',
  'kafka.topics.strimzi=true',
  '--set',
  'kafka.topicPrefix=staging.',
  '--set',
  'kafka.ssl=true',
  '--set',
  'kafka.caSecret=kafka-cluster-ca-cert',
  '--set',
  'kafka.sasl.mechanism=scram-sha-512',
  '--set',
  'kafka.sasl.username=challenge-platform',
  '--set',
  'kafka.sasl.existingSecret=challenge-platform-kafka-user',
  '--set',
  'metrics.serviceMonitor.enabled=true',
  '--set',
  'redis.existingSecret=redis-url',
  '--set',
  'smtp.existingSecret=smtp-credentials',
  '--set',
  'smtp.secure=true',
  '--set',
  'payments.extraCaConfigMap=payments-ca',
  '--set',
  'payments.webhookUrl=https://hooks.example.com/api/payments/webhook',
  '--set',
  'networkPolicy.metricsNamespaceSelector.matchLabels.kubernetes\\.io/metadata\\.name=monitoring',
  '--set',
  'networkPolicy.metricsPodSelector.matchLabels.app\\.kubernetes\\.io/name=prometheus',
  '--set',
  'networkPolicy.extraFrom[0].ipBlock.cidr=10.0.0.0/16',
  '--set',
  'ingress.className=nginx',
  '--set',
  'ingress.tls[0].secretName=tls,ingress.tls[0].hosts[0]=challenge.example.com',
  '--set',
  'imagePullSecrets[0].name=registry',
];

const results = [];

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, {
    cwd: opts.cwd ?? ROOT,
    env: { ...INHERITED_ENV, ...opts.env },
    input: opts.input,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: opts.timeout ?? 120_000,
  });
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}`;
  return {
    ok: r.status === 0 && !r.error,
    status: r.status,
    output,
    stdout: r.stdout ?? '',
    missing: r.error?.code === 'ENOENT',
  };
}

function seconds(start) {
  return `${((performance.now() - start) / 1000).toFixed(1)}s`;
}

function report(status, name, detail = '') {
  results.push(status);
  const tag = { ok: 'ok  ', fail: 'FAIL', skip: 'skip' }[status];
  console.log(`${tag} ${name}${detail ? ` (${detail})` : ''}`);
}

function indent(text) {
  return text
    .trimEnd()
    .split('\n')
    .slice(-40) // the end of a long log says what went wrong
    .map((line) => `     | ${line}`)
    .join('\n');
}

// Runs one check: a command that must exit 0 (and, if given, whose output must pass `expect`).
function check(name, cmd, args, expect) {
  const start = performance.now();
  const r = run(cmd, args);
  const problem = !r.ok ? r.output || `exit ${r.status}` : expect ? expect(r.output) : null;
  if (problem) {
    report('fail', name, seconds(start));
    console.log(indent(problem));
  } else {
    report('ok', name, seconds(start));
  }
  return !problem;
}

// The module version a binary was built from, as `go version -m` reports it.
function builtVersion(tool) {
  const file = path.join(BIN, tool);
  if (!existsSync(file)) return null;
  const r = run('go', ['version', '-m', file]);
  const line = r.output
    .split('\n')
    .find((l) => l.trim().startsWith('mod\t') || l.trim().startsWith('mod '));
  return line ? line.trim().split(/\s+/)[2] : 'unknown';
}

function ensureTool(tool) {
  const { pkg, mod, version } = TOOLS[tool];
  const have = builtVersion(tool);
  if (have === version) {
    report('ok', `${tool} ${version} present`);
    return true;
  }
  if (!run('go', ['version']).ok) {
    report('fail', `${tool} ${version} install`, 'go not found: install Go 1.22 or newer');
    return false;
  }
  mkdirSync(BIN, { recursive: true });
  const start = performance.now();
  const r = run('go', ['install', `${pkg}@${version}`], {
    env: { GOBIN: BIN },
    timeout: 30 * 60_000,
  });
  if (!r.ok || builtVersion(tool) !== version) {
    report('fail', `${tool} ${version} install (go install ${mod}@${version})`, seconds(start));
    console.log(indent(r.output));
    return false;
  }
  report('ok', `${tool} ${version} installed with go install`, seconds(start));
  return true;
}

// Small Go programs around the libraries behind `docker compose config` (compose-go) and
// `docker build --check` (BuildKit's Dockerfile frontend): they validate the compose file and the
// Dockerfile without a Docker engine; manifest-json turns rendered manifests and the compose
// project into JSON for the environment check. Built once, like the tools above (again when their
// source here changes).
const GO_PROGRAMS = {
  'compose-check': {
    require: { mod: 'github.com/compose-spec/compose-go/v2', version: 'v2.16.1' },
    source: `package main

import (
	"context"
	"fmt"
	"os"

	"github.com/compose-spec/compose-go/v2/cli"
)

func main() {
	opts, err := cli.NewProjectOptions(os.Args[1:], cli.WithOsEnv, cli.WithDotEnv)
	if err == nil {
		_, err = opts.LoadProject(context.Background())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
`,
  },
  'dockerfile-check': {
    require: { mod: 'github.com/moby/buildkit', version: 'v0.33.1' },
    source: `package main

// dockerfile-check FILE NAME=VALUE...: BuildKit's lint rules (those of docker build --check) and
// the conversion of every stage to LLB, with the given build args, without a registry.
import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/moby/buildkit/client/llb"
	"github.com/moby/buildkit/client/llb/sourceresolver"
	"github.com/moby/buildkit/frontend/dockerfile/dockerfile2llb"
	"github.com/moby/buildkit/frontend/dockerui"
	digest "github.com/opencontainers/go-digest"
)

// Offline stand-in for the registry: every base image is an empty linux image.
type offline struct{}

func (offline) ResolveImageConfig(ctx context.Context, ref string, _ sourceresolver.Opt) (string, digest.Digest, []byte, error) {
	cfg := []byte(\`{"architecture":"amd64","os":"linux","config":{"Env":["PATH=/usr/local/bin:/usr/bin:/bin"]},"rootfs":{"type":"layers","diff_ids":[]}}\`)
	return ref, digest.FromBytes(cfg), cfg, nil
}

func main() {
	dt, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	args := map[string]string{}
	for _, a := range os.Args[2:] {
		k, v, _ := strings.Cut(a, "=")
		args[k] = v
	}
	opt := func() dockerfile2llb.ConvertOpt {
		sm := llb.NewSourceMap(nil, os.Args[1], "Dockerfile", dt)
		sm.Definition = &llb.Definition{}
		return dockerfile2llb.ConvertOpt{Config: dockerui.Config{BuildArgs: args}, SourceMap: sm, MetaResolver: offline{}}
	}
	res, err := dockerfile2llb.DockerfileLint(context.Background(), dt, opt())
	if err == nil && res.Error != nil {
		err = fmt.Errorf("%s", res.Error.Message)
	}
	if err == nil {
		_, err = dockerfile2llb.DockerfileConvertLLB(context.Background(), dt, opt())
	}
	failed := err != nil
	if failed {
		fmt.Fprintln(os.Stderr, err)
	}
	for _, w := range res.Warnings {
		failed = true
		line := 0
		if len(w.Location.Ranges) > 0 {
			line = int(w.Location.Ranges[0].Start.Line)
		}
		fmt.Fprintf(os.Stderr, "%s:%d: %s: %s\\n", os.Args[1], line, w.RuleName, w.Detail)
	}
	if failed {
		os.Exit(1)
	}
}
`,
  },
  'manifest-json': {
    require: { mod: 'github.com/compose-spec/compose-go/v2', version: 'v2.16.1' },
    // Already in the module cache as a dependency of compose-go.
    also: [{ mod: 'go.yaml.in/yaml/v3', version: 'v3.0.6' }],
    source: `package main

// manifest-json yaml FILE|-   : every YAML document of a multi-document stream, as a JSON array
// manifest-json compose FILE  : the compose project as docker compose config resolves it, as JSON
import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/compose-spec/compose-go/v2/cli"
	"go.yaml.in/yaml/v3"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run() error {
	if len(os.Args) != 3 {
		return errors.New("usage: manifest-json yaml FILE|- | manifest-json compose FILE")
	}
	switch os.Args[1] {
	case "yaml":
		in := os.Stdin
		if os.Args[2] != "-" {
			f, err := os.Open(os.Args[2])
			if err != nil {
				return err
			}
			defer f.Close()
			in = f
		}
		docs := []any{}
		dec := yaml.NewDecoder(in)
		for {
			var doc any
			err := dec.Decode(&doc)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			if doc != nil {
				docs = append(docs, doc)
			}
		}
		return json.NewEncoder(os.Stdout).Encode(docs)
	case "compose":
		opts, err := cli.NewProjectOptions([]string{os.Args[2]}, cli.WithOsEnv, cli.WithDotEnv)
		if err != nil {
			return err
		}
		project, err := opts.LoadProject(context.Background())
		if err != nil {
			return err
		}
		out, err := project.MarshalJSON()
		if err != nil {
			return err
		}
		_, err = os.Stdout.Write(out)
		return err
	}
	return fmt.Errorf("unknown mode %q", os.Args[1])
}
`,
  },
};

function ensureGoProgram(name) {
  const { require, also = [], source } = GO_PROGRAMS[name];
  const file = path.join(BIN, name);
  const label = `${name} (${require.mod.split('/').slice(-2).join('/')} ${require.version})`;
  // A stamp of the source beside the binary: a program whose source changed here is rebuilt.
  // (Binaries built before the stamp existed are judged by their module version alone.)
  const stamp = `${file}.source-sha256`;
  const digest = createHash('sha256')
    .update(JSON.stringify([require, also, source]))
    .digest('hex');
  if (
    existsSync(file) &&
    run('go', ['version', '-m', file]).output.includes(`${require.mod}\t${require.version}`) &&
    (!existsSync(stamp) || readFileSync(stamp, 'utf8').trim() === digest)
  ) {
    report('ok', `${label} present`);
    return true;
  }
  if (!run('go', ['version']).ok) return false;
  const src = path.join(CACHE_HOME, 'challenge-platform', 'src', name);
  mkdirSync(src, { recursive: true });
  writeFileSync(path.join(src, 'main.go'), source);
  const requires = [require, ...also].map((m) => `\t${m.mod} ${m.version}\n`).join('');
  writeFileSync(path.join(src, 'go.mod'), `module ${name}\n\ngo 1.24\n\nrequire (\n${requires})\n`);
  const start = performance.now();
  const inSrc = { cwd: src, timeout: 30 * 60_000 };
  const tidy = run('go', ['mod', 'tidy'], inSrc);
  const build = tidy.ok ? run('go', ['build', '-o', file, '.'], inSrc) : tidy;
  if (!build.ok) {
    report('fail', `${label} build`, seconds(start));
    console.log(indent(build.output));
    return false;
  }
  writeFileSync(stamp, `${digest}\n`);
  report('ok', `${label} built`, seconds(start));
  return true;
}

// ---- tools ----------------------------------------------------------------------------------
// Every pin must be a version the Go module proxy serves (semantic or pseudo-version; it refuses
// tags like MinIO's RELEASE.*), checked even when a binary is already built, so a pin that only
// works from a warm cache fails here rather than on a new machine.
const pins = new Set(
  [
    ...Object.values(TOOLS),
    ...Object.values(GO_PROGRAMS).flatMap((p) => [p.require, ...(p.also ?? [])]),
  ].map(({ mod, version }) => `${mod}@${version}`),
);
for (const pin of pins) check(`Go module proxy serves ${pin}`, 'go', ['list', '-m', pin]);
const have = Object.fromEntries(Object.keys(TOOLS).map((tool) => [tool, ensureTool(tool)]));
const helm = path.join(BIN, 'helm');
const kustomize = path.join(BIN, 'kustomize');
const k6 = path.join(BIN, 'k6');

// ---- Helm -----------------------------------------------------------------------------------
if (have.helm) {
  check(`helm lint ${CHART}`, helm, [
    'lint',
    '--strict',
    CHART,
    '--kube-version',
    KUBE_VERSION,
    ...CHART_VALUES,
  ]);
  const kinds = (want) => (out) => {
    const found = new Set([...out.matchAll(/^kind: (\w+)/gm)].map((m) => m[1]));
    const lacking = want.filter((k) => !found.has(k));
    return lacking.length ? `rendered, but without: ${lacking.join(', ')}` : null;
  };
  check(
    `helm template ${CHART} (defaults)`,
    helm,
    ['template', 'check', CHART, '--kube-version', KUBE_VERSION, ...CHART_VALUES],
    kinds([
      'Deployment',
      'Service',
      'ConfigMap',
      'PodDisruptionBudget',
      'Job',
      'Ingress',
      'NetworkPolicy',
    ]),
  );
  // Values with a required value missing must stop the render, and say which value: the
  // platform's bank account (no default on purpose), and a JWT key when the chart is told to make
  // the Secret itself (ci/must-fail/).
  for (const [what, args, message] of [
    ['no sepaDebtor', [], 'sepaDebtor.name is required'],
    [
      'ci/must-fail/no-jwt-private-key-values.yaml',
      ['-f', `${CHART}/ci/must-fail/no-jwt-private-key-values.yaml`],
      'jwt.privateKey is required when jwt.existingSecret is empty',
    ],
  ]) {
    const name = `helm template ${CHART} (${what}: fails with the required message)`;
    const start = performance.now();
    const r = run(helm, ['template', 'check', CHART, '--kube-version', KUBE_VERSION, ...args]);
    const ok = !r.ok && r.output.includes(message);
    report(ok ? 'ok' : 'fail', name, seconds(start));
    if (!ok) console.log(indent(r.ok ? 'the render succeeded' : r.output));
  }
  // Every optional template switched on, so none of them can rot unnoticed.
  check(
    `helm template ${CHART} (all options on)`,
    helm,
    ['template', 'check', CHART, '--kube-version', KUBE_VERSION, ...CHART_VALUES, ...ALL_OPTIONS],
    kinds(['HorizontalPodAutoscaler', 'KafkaTopic', 'ServiceMonitor', 'NetworkPolicy']),
  );
}

// ---- kustomize ------------------------------------------------------------------------------
if (have.kustomize) {
  const overlays = readdirSync(path.join(ROOT, 'k8s/overlays'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  for (const overlay of overlays) {
    check(
      `kustomize build k8s/overlays/${overlay}`,
      kustomize,
      ['build', `k8s/overlays/${overlay}`],
      (out) => (/^kind: Deployment/m.test(out) ? null : 'rendered no Deployment'),
    );
  }
}

// ---- k6 -------------------------------------------------------------------------------------
if (have.k6) {
  const scripts = readdirSync(path.join(ROOT, 'load-tests'))
    .filter((f) => f.endsWith('.js'))
    .sort();
  for (const script of scripts) {
    check(`k6 inspect load-tests/${script}`, k6, ['inspect', `load-tests/${script}`], (out) => {
      try {
        const opts = JSON.parse(out.slice(out.indexOf('{')));
        return opts.thresholds && Object.keys(opts.thresholds).length
          ? null
          : 'the script sets no thresholds';
      } catch {
        return `unexpected k6 inspect output:\n${out}`;
      }
    });
  }
}

// ---- Dockerfile -----------------------------------------------------------------------------
if (ensureGoProgram('dockerfile-check')) {
  for (const service of ['gateway', 'identity', 'wallet', 'media']) {
    check(`Dockerfile lint + LLB (SERVICE=${service})`, path.join(BIN, 'dockerfile-check'), [
      'Dockerfile',
      `SERVICE=${service}`,
    ]);
  }
}

// ---- docker compose ------------------------------------------------------------------------
// `docker compose config` needs no engine, only the compose plugin of the docker CLI; without
// the plugin, compose-go (the library that implements it) validates the same way.
if (run('docker', ['compose', 'version']).ok) {
  check('docker compose config -q', 'docker', [
    'compose',
    '-f',
    'docker-compose.yml',
    'config',
    '-q',
  ]);
} else if (ensureGoProgram('compose-check')) {
  check(
    'docker-compose.yml (compose-go: no docker compose plugin here)',
    path.join(BIN, 'compose-check'),
    ['docker-compose.yml'],
  );
} else {
  report(
    'skip',
    'docker compose config',
    'neither the docker compose plugin nor Go to build compose-go',
  );
}

// ---- environment coverage --------------------------------------------------------------------
// Every variable that a process's env module requires (no default, not optional) must be given to
// that process by each description of the deployment: the chart, every kustomize overlay and the
// compose file. The schemas are read from the modules themselves (zod, through tsx), not parsed.
// A required variable that is present but empty (left for the operator to fill in, e.g. the prod
// overlay's bank account) is named in the result; the process refuses to start until it is set.
const PROCESSES = Object.fromEntries(
  [
    ['gateway', 'gateway/src/env.ts'],
    ...readdirSync(path.join(ROOT, 'services'))
      .sort()
      .map((name) => [name, `services/${name}/src/env.ts`]),
  ].filter(([, file]) => existsSync(path.join(ROOT, file))),
);

const ENV_SCHEMA_READER = `
import { pathToFileURL } from 'node:url';
const out = {};
for (const [name, file] of Object.entries(JSON.parse(process.argv[1]))) {
  const { envSchema } = await import(pathToFileURL(file).href);
  if (!envSchema?.shape) throw new Error(file + ': envSchema is not a z.object');
  out[name] = Object.entries(envSchema.shape).map(([key, schema]) => ({
    key,
    required: !schema.safeParse(undefined).success,
  }));
}
console.log('ENV-SCHEMAS ' + JSON.stringify(out));
`;

function readEnvSchemas() {
  const start = performance.now();
  const name = `env schemas of ${Object.keys(PROCESSES).join(', ')}`;
  if (!existsSync(path.join(ROOT, 'node_modules', 'tsx'))) {
    report('skip', name, 'no node_modules/tsx: npm install first');
    return null;
  }
  const files = Object.fromEntries(
    Object.entries(PROCESSES).map(([p, f]) => [p, path.join(ROOT, f)]),
  );
  const r = run(process.execPath, [
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    ENV_SCHEMA_READER,
    JSON.stringify(files),
  ]);
  const line = r.output.split('\n').find((l) => l.startsWith('ENV-SCHEMAS '));
  if (!r.ok || !line) {
    report('fail', name, seconds(start));
    console.log(indent(r.output));
    return null;
  }
  report('ok', name, seconds(start));
  return JSON.parse(line.slice('ENV-SCHEMAS '.length));
}

const FROM_SECRET = Symbol('from a Secret');
const FROM_OPTIONAL_SECRET = Symbol('from an optional Secret key');

/** Variables of each Deployment's first container, by process: value, '' or a FROM_* marker. */
function k8sProvided(docs, processOf) {
  const configMaps = new Map(
    docs.filter((d) => d?.kind === 'ConfigMap').map((d) => [d.metadata.name, d.data ?? {}]),
  );
  const out = {};
  for (const d of docs.filter((doc) => doc?.kind === 'Deployment')) {
    const container = d.spec.template.spec.containers[0];
    const vars = new Map();
    for (const from of container.envFrom ?? []) {
      // A secretRef's keys cannot be known from here: they count as not given.
      const data = from.configMapRef && configMaps.get(from.configMapRef.name);
      for (const [key, value] of Object.entries(data ?? {}))
        vars.set(`${from.prefix ?? ''}${key}`, String(value ?? ''));
    }
    for (const e of container.env ?? []) {
      const cm = e.valueFrom?.configMapKeyRef;
      const secret = e.valueFrom?.secretKeyRef;
      if (cm) {
        const value = configMaps.get(cm.name)?.[cm.key];
        if (value === undefined) vars.delete(e.name);
        else vars.set(e.name, String(value));
      } else if (secret) vars.set(e.name, secret.optional ? FROM_OPTIONAL_SECRET : FROM_SECRET);
      else if (!e.valueFrom) vars.set(e.name, String(e.value ?? ''));
    }
    out[processOf(d)] = vars;
  }
  return out;
}

/** Variables of each compose service: its environment, plus what its entrypoint exports. */
function composeProvided(project) {
  const out = {};
  for (const [name, svc] of Object.entries(project.services ?? {})) {
    const vars = new Map();
    for (const [key, value] of Object.entries(svc.environment ?? {}))
      if (value !== null) vars.set(key, String(value));
    const script = [...(svc.entrypoint ?? []), ...(svc.command ?? [])].join('\n');
    for (const m of script.matchAll(/\bexport ([A-Z_][A-Z0-9_]*)=/g)) vars.set(m[1], FROM_SECRET);
    out[name] = vars;
  }
  return out;
}

function checkCoverage(label, schemas, provided) {
  const missing = [];
  const empty = [];
  for (const [proc, vars] of Object.entries(schemas)) {
    const have = provided[proc];
    if (!have) {
      missing.push(`${proc}: not deployed`);
      continue;
    }
    for (const { key, required } of vars) {
      if (!required) continue;
      const value = have.get(key);
      if (value === undefined || value === FROM_OPTIONAL_SECRET) missing.push(`${proc} ${key}`);
      else if (value === '') empty.push(`${proc} ${key}`);
    }
  }
  const count = Object.values(schemas).reduce((n, v) => n + v.filter((x) => x.required).length, 0);
  const detail = `${count} required variables of ${Object.keys(schemas).length} processes${
    empty.length ? `; left empty for the operator: ${empty.join(', ')}` : ''
  }`;
  if (missing.length) {
    report('fail', `env coverage: ${label}`, detail);
    console.log(indent(`required but not given:\n${missing.join('\n')}`));
  } else report('ok', `env coverage: ${label}`, detail);
}

function asJson(label, args, input) {
  const r = run(path.join(BIN, 'manifest-json'), args, { input });
  if (r.ok) {
    try {
      return JSON.parse(r.stdout);
    } catch {
      /* reported below */
    }
  }
  report('fail', `env coverage: ${label}`, 'could not read the rendered files');
  console.log(indent(r.output));
  return null;
}

const schemas = readEnvSchemas();
if (schemas && ensureGoProgram('manifest-json')) {
  if (have.helm) {
    const r = run(helm, [
      'template',
      'check',
      CHART,
      '--kube-version',
      KUBE_VERSION,
      ...CHART_VALUES,
    ]);
    if (!r.ok) report('fail', `env coverage: helm template ${CHART}`, 'the chart does not render');
    const docs = r.ok ? asJson('helm template', ['yaml', '-'], r.stdout) : null;
    if (docs)
      checkCoverage(
        `helm template ${CHART}`,
        schemas,
        k8sProvided(docs, (d) => d.metadata.labels['app.kubernetes.io/component']),
      );
  }
  if (have.kustomize) {
    const overlays = readdirSync(path.join(ROOT, 'k8s/overlays'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    for (const overlay of overlays) {
      const r = run(kustomize, ['build', `k8s/overlays/${overlay}`]);
      if (!r.ok)
        report('fail', `env coverage: k8s/overlays/${overlay}`, 'the overlay does not build');
      const docs = r.ok ? asJson(`k8s/overlays/${overlay}`, ['yaml', '-'], r.stdout) : null;
      if (docs)
        checkCoverage(
          `kustomize build k8s/overlays/${overlay}`,
          schemas,
          k8sProvided(docs, (d) => d.metadata.name),
        );
    }
  }
  const project = asJson('docker-compose.yml', ['compose', 'docker-compose.yml']);
  if (project) checkCoverage('docker-compose.yml', schemas, composeProvided(project));
}

// ---- Kubernetes JSON schemas and network policies ---------------------------------------------
// Every object the chart (defaults, production values, every option on) and each overlay render
// is validated, strictly (no unknown fields), against the JSON schemas of the oldest Kubernetes
// the chart claims (Chart.yaml's kubeVersion) and the newest one there are schemas for. The
// schemas come from the PyPI package kubernetes-validate (1.25 to 1.37 in 1.37.0), installed into
// a virtualenv in the cache like the Go tools. Custom resources (KafkaTopic, ServiceMonitor) have
// no schema there and are named as not checked.
const KUBERNETES_VALIDATE = { package: 'kubernetes-validate', version: '1.37.0' };
const VALIDATOR_DIR = path.join(
  CACHE_HOME,
  'challenge-platform',
  `kubernetes-validate-${KUBERNETES_VALIDATE.version}`,
);
const validatorPython = path.join(VALIDATOR_DIR, 'bin', 'python');

async function ensureKubernetesValidate() {
  const name = `${KUBERNETES_VALIDATE.package} ${KUBERNETES_VALIDATE.version}`;
  const probe = () =>
    run(validatorPython, ['-c', 'import kubernetes_validate.version as v; print(v.__version__)']);
  if (existsSync(validatorPython) && probe().output.trim() === KUBERNETES_VALIDATE.version) {
    report('ok', `${name} present`);
    return true;
  }
  const start = performance.now();
  let venv = run('python3', ['-m', 'venv', '--clear', VALIDATOR_DIR]);
  if (!venv.ok) {
    // Debian ships venv apart from python3: installed from apt as the stack installs its tools.
    const { aptInstall } = await import('./lib/stack/helpers.mjs');
    await aptInstall(['python3-venv']).catch(() => {});
    venv = run('python3', ['-m', 'venv', '--clear', VALIDATOR_DIR]);
  }
  const install = venv.ok
    ? run(
        path.join(VALIDATOR_DIR, 'bin', 'pip'),
        [
          'install',
          '--quiet',
          '--disable-pip-version-check',
          `${KUBERNETES_VALIDATE.package}==${KUBERNETES_VALIDATE.version}`,
        ],
        { timeout: 10 * 60_000 },
      )
    : venv;
  if (!install.ok || probe().output.trim() !== KUBERNETES_VALIDATE.version) {
    report('fail', `${name} install (python3 -m venv, pip install from PyPI)`, seconds(start));
    console.log(
      indent(
        install.output || 'python3 with venv is needed (Debian: apt-get install python3-venv)',
      ),
    );
    return false;
  }
  report('ok', `${name} installed with pip`, seconds(start));
  return true;
}

// Reads {versions, docs} on stdin; prints {checked, custom: [kind...], errors: [...]}. The schema
// files are cached across objects (the package reads them again for every object).
const VALIDATOR = `
import functools, json, sys
import kubernetes_validate.utils as utils
utils.schema_contents = functools.lru_cache(maxsize=None)(utils.schema_contents)
request = json.load(sys.stdin)
out = {"checked": 0, "custom": [], "errors": []}
for version in request["versions"]:
    for doc in request["docs"]:
        name = "%s %s/%s" % (version, doc.get("kind"), doc.get("metadata", {}).get("name"))
        try:
            utils.validate(doc, version, strict=True)
            out["checked"] += 1
        except utils.SchemaNotFoundError:
            out["custom"].append(doc.get("kind"))
        except utils.ValidationError as e:
            out["errors"].append("%s: %s: %s" % (name, ".".join(str(p) for p in e.path), e.message))
print(json.dumps(out))
`;

function claimedKubeVersions() {
  const chart = readFileSync(path.join(ROOT, CHART, 'Chart.yaml'), 'utf8');
  const oldest = /^kubeVersion:\s*'?>=\s*(\d+\.\d+)/m.exec(chart)?.[1];
  const newest = run(validatorPython, [
    '-c',
    'import kubernetes_validate.utils as u; print(u.latest_version())',
  ]).output.trim();
  return [oldest, /^\d+\.\d+/.exec(newest)?.[0]].filter(Boolean);
}

function validateSchemas(label, docs, versions) {
  const start = performance.now();
  const r = run(validatorPython, ['-c', VALIDATOR], {
    input: JSON.stringify({ versions, docs }),
  });
  let result;
  try {
    result = JSON.parse(r.stdout);
  } catch {
    report('fail', `schemas: ${label}`, seconds(start));
    console.log(indent(r.output));
    return;
  }
  const custom = [...new Set(result.custom)].sort();
  const detail = `${result.checked / versions.length} objects against Kubernetes ${versions.join(' and ')}${
    custom.length ? `; custom resources not checked: ${custom.join(', ')}` : ''
  }, ${seconds(start)}`;
  if (result.errors.length) {
    report('fail', `schemas: ${label}`, detail);
    console.log(indent(result.errors.join('\n')));
  } else report('ok', `schemas: ${label}`, detail);
}

const matches = (selector, labels) =>
  Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value);

/**
 * Network policies of one render: every pod of a Deployment or Job is selected by an ingress
 * policy (default deny), and every in-cluster URL a process is given (the gateway's subgraph
 * URLs, the *_INTERNAL_URL of service-to-service calls) is admitted by the policies of the pods
 * behind that Service, from that process's pods, on that port.
 */
function checkNetworkPolicies(label, docs, processOf) {
  const policies = docs.filter(
    (d) => d?.kind === 'NetworkPolicy' && (d.spec.policyTypes ?? ['Ingress']).includes('Ingress'),
  );
  const services = new Map(
    docs.filter((d) => d?.kind === 'Service').map((d) => [d.metadata.name, d]),
  );
  const workloads = docs.filter((d) => d?.kind === 'Deployment' || d?.kind === 'Job');
  const podLabels = (w) => w.spec.template.metadata?.labels ?? {};
  const problems = [];
  for (const w of workloads)
    if (!policies.some((p) => matches(p.spec.podSelector?.matchLabels, podLabels(w))))
      problems.push(
        `${w.kind} ${w.metadata.name}: no NetworkPolicy selects its pods (open to every pod)`,
      );
  const provided = k8sProvided(docs, processOf);
  const deployments = docs.filter((d) => d?.kind === 'Deployment');
  let calls = 0;
  for (const caller of deployments) {
    for (const [key, value] of provided[processOf(caller)] ?? []) {
      if (typeof value !== 'string' || !key.endsWith('_URL')) continue;
      let url;
      try {
        url = new URL(value);
      } catch {
        continue;
      }
      const service = services.get(url.hostname.split('.')[0]);
      if (!service) continue; // outside the render: Kafka, S3, the collector, ...
      calls += 1;
      const port = Number(url.port || 80);
      const servicePort = service.spec.ports.find((p) => p.port === port);
      const targets = deployments.filter((d) => matches(service.spec.selector, podLabels(d)));
      for (const target of targets) {
        const container = target.spec.template.spec.containers[0];
        const targetPort =
          typeof servicePort?.targetPort === 'number'
            ? servicePort.targetPort
            : ((container.ports ?? []).find((p) => p.name === (servicePort?.targetPort ?? ''))
                ?.containerPort ?? port);
        const selecting = policies.filter((p) =>
          matches(p.spec.podSelector?.matchLabels, podLabels(target)),
        );
        const admitted = selecting.some((p) =>
          (p.spec.ingress ?? []).some(
            (rule) =>
              (!rule.ports || rule.ports.some((p2) => p2.port === targetPort)) &&
              (!rule.from ||
                rule.from.some(
                  (peer) =>
                    peer.podSelector &&
                    !peer.namespaceSelector &&
                    matches(peer.podSelector.matchLabels, podLabels(caller)),
                )),
          ),
        );
        if (selecting.length && !admitted)
          problems.push(
            `${processOf(caller)} calls ${key}=${value}, but no NetworkPolicy of ${target.metadata.name} admits its pods on port ${targetPort}`,
          );
      }
    }
  }
  if (problems.length) {
    report('fail', `network policies: ${label}`);
    console.log(indent(problems.join('\n')));
  } else
    report(
      'ok',
      `network policies: ${label}`,
      `${workloads.length} workloads denied by default, ${calls} in-cluster calls admitted`,
    );
}

if (ensureGoProgram('manifest-json')) {
  const validator = await ensureKubernetesValidate();
  const versions = validator ? claimedKubeVersions() : [];
  const renders = [];
  if (have.helm) {
    const valueSets = [
      ['defaults', CHART_VALUES],
      ['production values', ['-f', `${CHART}/ci/production-values.yaml`]],
      ['all options on', [...CHART_VALUES, ...ALL_OPTIONS]],
    ];
    for (const [what, values] of valueSets)
      for (const version of versions.length ? versions : [KUBE_VERSION.replace(/\.0$/, '')]) {
        const r = run(helm, [
          'template',
          'check',
          CHART,
          '--kube-version',
          `${version}.0`,
          ...values,
        ]);
        if (!r.ok) {
          report('fail', `helm template ${CHART} (${what}, Kubernetes ${version})`);
          console.log(indent(r.output));
          continue;
        }
        renders.push({
          label: `helm template (${what})`,
          version,
          docs: asJson(`helm template (${what})`, ['yaml', '-'], r.stdout),
          processOf: (d) => d.metadata.labels?.['app.kubernetes.io/component'],
        });
      }
  }
  if (have.kustomize)
    for (const overlay of readdirSync(path.join(ROOT, 'k8s/overlays')).sort()) {
      const r = run(kustomize, ['build', `k8s/overlays/${overlay}`]);
      if (r.ok)
        for (const version of versions.length ? versions : [KUBE_VERSION.replace(/\.0$/, '')])
          renders.push({
            label: `kustomize build k8s/overlays/${overlay}`,
            version,
            docs: asJson(`k8s/overlays/${overlay}`, ['yaml', '-'], r.stdout),
            processOf: (d) => d.metadata.name,
          });
    }
  // Schemas: each render against the version it was rendered for.
  if (validator)
    for (const { label, version, docs } of renders)
      if (docs) validateSchemas(`${label}, Kubernetes ${version}`, docs, [version]);
  const policiesChecked = new Set();
  for (const { label, docs, processOf } of renders) {
    if (!docs || policiesChecked.has(label)) continue;
    policiesChecked.add(label);
    checkNetworkPolicies(label, docs, processOf);
  }
}

// ---- summary --------------------------------------------------------------------------------
const failed = results.filter((s) => s === 'fail').length;
const skipped = results.filter((s) => s === 'skip').length;
console.log(`${results.length - failed - skipped} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
