// summscore's promptfoo assertion through `summscore serve` (its POST /v1/promptfoo route): one
// server, one judge and one reply cache for every test, and promptfoo gets the server's whole
// grading result, the components and evidence as `metadata` included (promptfoo's own
// `type: webhook` assertion keeps only pass, score and reason, gives up after 5 s and retries).
// `python -m summscore.promptfoo --webhook` prints this file's reference.
//
//   assert:
//     - type: javascript
//       value: file:///.../summscore/promptfoo_webhook.cjs
//       config: {url: "http://127.0.0.1:8000/v1/promptfoo", source_var: article, threshold: 0.7}
//
// config (every key optional):
//   url         the route (default: SUMMSCORE_URL, else http://127.0.0.1:8000/v1/promptfoo)
//   source_var  the test variable holding the source (default "source")
//   threshold   the pass mark (default: the server's preset's own)
//   timeout     seconds to wait for the server's answer (default 600: a slow judge is waited for)
//   token_env   the environment variable holding the server's bearer token (--token-env)
'use strict';

const DEFAULT_URL = 'http://127.0.0.1:8000/v1/promptfoo';

function failed(reason) {
  return { pass: false, score: 0, reason: `summscore could not score this output: ${reason}` };
}

async function problemOf(response) {
  const text = await response.text();
  try {
    const body = JSON.parse(text);
    if (body && body.error && body.error.message) return body.error.message;
  } catch (err) {
    // not JSON: a proxy's page, say
  }
  return text.slice(0, 300);
}

module.exports = async function summscoreWebhook(output, context) {
  const config = (context && context.config) || {};
  let url;
  try {
    url = new URL(config.url || process.env.SUMMSCORE_URL || DEFAULT_URL);
  } catch (err) {
    return failed(`config.url: ${err.message}`);
  }
  if (config.source_var !== undefined) url.searchParams.set('source_var', String(config.source_var));
  if (config.threshold !== undefined) url.searchParams.set('threshold', String(config.threshold));
  const timeout = config.timeout === undefined ? 600 : Number(config.timeout);
  if (!(timeout > 0)) return failed(`config.timeout must be a positive number of seconds, got ${config.timeout}`);
  const headers = { 'Content-Type': 'application/json' };
  if (config.token_env) {
    const token = process.env[config.token_env];
    if (!token) return failed(`config.token_env: the environment variable ${config.token_env} is not set`);
    headers.Authorization = `Bearer ${token}`;
  }
  const where = `${url.origin}${url.pathname}`; // never the token, which is not in the URL anyway
  let response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ output, context: { prompt: context.prompt, vars: context.vars || {} } }),
      signal: AbortSignal.timeout(timeout * 1000),
    });
  } catch (err) {
    const why = err && err.name === 'TimeoutError' ? `no answer within ${timeout} s (config.timeout)` : String((err && err.cause) || err);
    return failed(`summscore serve at ${where}: ${why}`);
  }
  if (!response.ok) return failed(`summscore serve at ${where} answered ${response.status}: ${await problemOf(response)}`);
  const grade = await response.json();
  if (typeof grade !== 'object' || grade === null || typeof grade.pass !== 'boolean') {
    return failed(`${where} is not summscore's promptfoo route (no "pass" in its answer)`);
  }
  return grade;
};
