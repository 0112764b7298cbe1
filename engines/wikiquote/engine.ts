/**
 * Wikiquote full-text search through the MediaWiki action API
 * (<baseUrl>/w/api.php?action=query&list=search); see engines/_mediawiki/.
 */
import { mediaWikiEngine } from '../_mediawiki/mediawiki.js';

export default mediaWikiEngine({ id: 'wikiquote', domain: 'wikiquote.org' });
