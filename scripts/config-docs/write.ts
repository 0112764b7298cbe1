/** `npm run docs:config`: writes docs/configuration.md from the configuration schema (reference.ts). */
import { writeFileSync } from 'node:fs';
import { CONFIGURATION_DOC, configSettings, configurationReference } from './reference.js';

const settings = configSettings();
writeFileSync(CONFIGURATION_DOC, configurationReference(settings));
const undescribed = settings.filter((s) => !s.meaning).map((s) => s.path);
process.stdout.write(
  `${settings.length} settings written to ${CONFIGURATION_DOC}${undescribed.length ? `; without a doc comment: ${undescribed.join(', ')}` : ''}\n`,
);
