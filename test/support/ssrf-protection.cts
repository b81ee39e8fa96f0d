/**
 * Turns on n8n's SSRF protection for a test file: imported first, before n8n-core reads its configuration
 * (when the first run needs it). The local service on 127.0.0.1 is then a restricted address.
 */
process.env.N8N_SSRF_PROTECTION_ENABLED = 'true';
