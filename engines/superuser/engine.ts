/** superuser questions through the StackExchange API (see ../_shared/stackexchange.ts). */
import { stackExchangeEngine } from '../_shared/stackexchange.js';

export default stackExchangeEngine('superuser');
