// Copies the non-TypeScript files the built package needs (plugin manifests, services' and areas' data files) into
// dist/.
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOTS = ['engines', 'plugins'];
const ASSET = /^(plugin\.json|traits\.json)$/;

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      // Data an area ships (plugins/<area>/…/data/*), e.g. verify's bundled credibility ratings.
      if (name === 'data' && path.startsWith('plugins')) cpSync(path, join('dist', path), { recursive: true });
      else if (name !== 'fixtures' && name !== 'node_modules') walk(path);
    } else if (ASSET.test(name)) {
      const target = join('dist', path);
      mkdirSync(dirname(target), { recursive: true });
      cpSync(path, target);
    }
  }
}

for (const root of ROOTS) if (existsSync(root)) walk(root);

// Data a service ships (services/<name>/data/*), e.g. the bundled credibility ratings.
if (existsSync('services')) {
  for (const service of readdirSync('services')) {
    const data = join('services', service, 'data');
    if (existsSync(data) && statSync(data).isDirectory()) cpSync(data, join('dist', data), { recursive: true });
  }
}
