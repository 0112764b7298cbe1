/**
 * What the container image and the npm package are made from, checked without building them
 * (.ci/container-smoke.sh and .ci/pack-smoke.sh build and run both): the Dockerfile passes the
 * offline linter and keeps its promises (a base users can swap, a non-root user, a health check,
 * a data volume); the compose files avoid what podman-compose 1.0.3 reads wrongly; the package's
 * bin and files hold what `quarry serve` reads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../core/paths.js';

const read = (file: string) => readFileSync(join(PACKAGE_ROOT, file), 'utf8');
const dockerfile = read('Dockerfile');
/** The last stage: what the image runs. */
const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));

describe('Dockerfile', () => {
  it('passes the offline linter', () => {
    expect(validate(dockerfile).map((problem) => `line ${problem.range.start.line + 1}: ${problem.message}`)).toEqual(
      [],
    );
  });

  it('builds on a base named by ARG BASE, the official Node 24 image by default, in every stage', () => {
    expect(dockerfile).toMatch(/^ARG BASE=docker\.io\/library\/node:24-bookworm-slim$/m);
    const stages = dockerfile.match(/^FROM .*$/gm) ?? [];
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) expect(stage).toMatch(/^FROM \$\{BASE\}/);
  });

  it('runs as a user other than root, with a health check on /healthz and its data in a volume', () => {
    expect(runtimeStage).toMatch(/^USER node$/m);
    expect(runtimeStage).toMatch(/^HEALTHCHECK [\s\S]*\/healthz/m);
    expect(runtimeStage).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(runtimeStage).toMatch(/QUARRY_DATA_DIR=\/data/);
    expect(runtimeStage).toMatch(/QUARRY_HOST=0\.0\.0\.0/);
    expect(runtimeStage).toMatch(/apt-get install [^\n]*chromium/);
  });
});

describe('compose files', () => {
  for (const file of ['compose.yaml', 'compose.single.yaml', '.ci/smoke/compose.smoke.yaml']) {
    it(`${file}: no empty \${VAR:-} defaults (podman-compose 1.0.3 leaves them unreplaced) and nothing that blocks --scale`, () => {
      const text = read(file);
      expect(text).not.toMatch(/\$\{[A-Za-z_][A-Za-z0-9_]*:?-\}/);
      expect(text).not.toMatch(/^\s*container_name:/m);
    });
  }
});

describe('the npm package', () => {
  const manifest = JSON.parse(read('package.json')) as {
    bin: Record<string, string>;
    files: string[];
    scripts: Record<string, string>;
  };

  it('has a quarry bin compiled from an executable script', () => {
    const target = manifest.bin.quarry!;
    expect(target).toMatch(/^dist\/.+\.js$/);
    const source = target.replace(/^dist\//, '').replace(/\.js$/, '.ts');
    expect(read(source).startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('builds dist/ before packing and ships the files the server reads at run time', () => {
    expect(manifest.scripts.prepack).toBe('npm run build');
    for (const needed of [
      'dist',
      'plugin.schema.json',
      'services/entities/model',
      'scripts/build-embedded-model.mjs',
    ]) {
      expect(manifest.files).toContain(needed);
      expect(existsSync(join(PACKAGE_ROOT, needed === 'dist' ? 'tsconfig.build.json' : needed))).toBe(true);
    }
    // The postinstall builds the embedded model with the script the package ships.
    expect(manifest.scripts.postinstall).toContain('scripts/build-embedded-model.mjs');
  });
});
