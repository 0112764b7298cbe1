// Empties dist/ before a build, so a file removed or renamed in the source (an engine, a plugin)
// never lingers in the built package and gets loaded.
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
