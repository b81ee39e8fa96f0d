/** Debian's Chromium driven by playwright-core, logged in to a real n8n as its owner; screenshots checked against the page's text. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, selectors } from 'playwright-core';
import type { BrowserContext, Locator, Page } from 'playwright-core';

import { OWNER } from '../../../dev/n8n/owner.cts';

const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/** One browser for the test file (beforeAll), logged in to n8n at `url()`. */
export function useBrowser(url: () => string): () => Page {
	let context: BrowserContext | undefined;
	let page: Page | undefined;
	const profile = mkdtempSync(join(tmpdir(), 'chat-completions-chromium-'));
	beforeAll(async () => {
		selectors.setTestIdAttribute('data-test-id');
		context = await chromium.launchPersistentContext(profile, {
			executablePath: '/usr/bin/chromium',
			headless: true,
			args: CHROMIUM_ARGS,
			viewport: { width: 1440, height: 900 },
		});
		page = context.pages()[0] ?? (await context.newPage());
		const login = await page.request.post(`${url()}/rest/login`, {
			data: { emailOrLdapLoginId: OWNER.email, password: OWNER.password },
		});
		if (!login.ok()) throw new Error(`Login failed: ${login.status()} ${await login.text()}`);
	});
	afterAll(async () => {
		await context?.close();
		rmSync(profile, { recursive: true, force: true });
	});
	return () => {
		if (page === undefined) throw new Error('useBrowser(): the browser starts in beforeAll');
		return page;
	};
}

/** Writes `<folder>/<name>.png` and returns the text `shown` displayed at that moment (to check the screenshot). */
export async function screenshot(
	page: Page,
	folder: string,
	name: string,
	shown: Locator,
): Promise<string> {
	mkdirSync(folder, { recursive: true });
	const text = await shown.innerText();
	await page.screenshot({ path: join(folder, `${name}.png`) });
	return text;
}
