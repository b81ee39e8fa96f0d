/**
 * Import first, before anything that loads n8n-core: n8n reads its log level from the environment
 * when it first builds its settings, and the engine harness otherwise silences it.
 */
process.env.N8N_LOG_LEVEL = 'debug';
