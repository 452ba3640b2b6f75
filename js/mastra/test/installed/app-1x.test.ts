/**
 * @summscore/mastra as a Mastra 1.x user installs it: .ci/steps/mastra.sh packs the package
 * (`npm pack`), installs the tarball beside @mastra/core 1.x in a fresh project outside the
 * repository, copies this file there and runs it. The package must resolve from that project's
 * node_modules (not a link into the repository, whose own @mastra/core would answer instead) and
 * score through `summscore serve` with the Python faces' numbers. The harness is the repository's
 * (SUMMSCORE_HARNESS_TS).
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';

import { createSummarizationScorer } from '@summscore/mastra';

type HarnessModule = typeof import('../harness.ts');
type Harness = Awaited<ReturnType<HarnessModule['startHarness']>>;

const project = realpathSync(process.cwd());
let harness: Harness;

before(async () => {
  const { startHarness } = (await import(process.env.SUMMSCORE_HARNESS_TS!)) as HarnessModule;
  harness = await startHarness('1.x');
});

after(async () => {
  await harness?.stop();
});

test('the installed package and its @mastra/core both come from this project', () => {
  for (const name of ['@summscore/mastra', '@mastra/core/evals']) {
    const file = realpathSync(fileURLToPath(import.meta.resolve(name)));
    assert.ok(file.startsWith(`${project}/node_modules/`), `${name} resolved to ${file}`);
  }
});

test('the installed scorer scores through summscore serve with the Python faces numbers', async () => {
  const scorer = createSummarizationScorer({ url: harness.serviceUrl, token: harness.token });
  for (const c of harness.cases.slice(0, 3)) {
    const result = await scorer.run({ input: c.source, output: c.summary } as any);
    assert.equal(result.score, c.python.createSummarizationScorer.score, c.id);
    assert.match(result.preprocessPrompt ?? '', /^POST /);
  }
});
