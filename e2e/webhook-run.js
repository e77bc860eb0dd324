#!/usr/bin/env node
'use strict';
/**
 * Runs e2e/lib/webhook.js (checkWebhookTrigger) alone against the real n8n from the e2e cache (e2e/lib/alone.js).
 *
 *   npm run build && node e2e/webhook-run.js [--keep]
 */
const { runAlone } = require('./lib/alone');
const { checkWebhookTrigger } = require('./lib/webhook');

runAlone('webhook', /error|webhook|AccessPoint/i, ({ rest, server, emulator, log, restart }) =>
	checkWebhookTrigger({ rest, baseUrl: server.base, emulator, log, restart }),
);
