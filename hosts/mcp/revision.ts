/**
 * The MCP revision Quarry serves statelessly over HTTP (per-request _meta,
 * no handshake). The SDK's LATEST_PROTOCOL_VERSION names the newest
 * handshake revision (2025-11-25), so this one is spelled here, once.
 */
export const MODERN_REVISION = '2026-07-28';
