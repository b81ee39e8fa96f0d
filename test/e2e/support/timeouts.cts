/** Real n8n boots in 15-20 s and each CLI command in 5-11 s: hooks and tests get minutes, not seconds. */
jest.setTimeout(180_000);
