/**
 * @summscore/mastra/legacy with real Mastra 0.x (@mastra/core 0.24 from the npm registry):
 * SummarizationMetric extends Mastra's Metric, measure() and Mastra's evaluate() score through
 * `summscore serve` (compat judge behind it, test harness on loopback) with the 0.x rule, and the
 * numbers equal the Python faces' numbers. .ci/steps/mastra.sh installs the packed package
 * (`npm install <tarball>`, as a Mastra 0.x user does) before running this file.
 */
import assert from 'node:assert/strict';
import { realpathSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Agent } from '@mastra/core/agent';
import { MastraError } from '@mastra/core/error';
import { evaluate, Metric } from '@mastra/core/eval';
import { SummarizationMetric } from '@summscore/mastra/legacy';

import { type Harness, startHarness } from '../mastra/test/harness.ts';

let harness: Harness;

before(async () => {
  harness = await startHarness('0.x');
});

after(async () => {
  await harness?.stop();
});

const metric = (options: ConstructorParameters<typeof SummarizationMetric>[0] = {}) =>
  new SummarizationMetric({ url: harness.serviceUrl, token: harness.token, ...options });

describe('Mastra 0.x', () => {
  test('the package is installed here, not linked to the repository (whose @mastra/core is 1.x)', () => {
    const here = realpathSync(dirname(fileURLToPath(import.meta.url)));
    const installed = realpathSync(fileURLToPath(import.meta.resolve('@summscore/mastra/legacy')));
    assert.ok(installed.startsWith(`${here}/node_modules/@summscore/mastra/`), installed);
  });

  test('measure() gives the Python faces numbers in Mastra 0.x shape', async () => {
    const m = metric();
    assert.ok(m instanceof Metric);
    for (const c of harness.cases) {
      const result = await m.measure(c.source, c.summary);
      const python = c.python.SummarizationMetric;
      assert.equal(result.score, python.score, c.id);
      assert.equal(result.score, c.python.createSummarizationScorer.score, `${c.id}: both Python faces`);
      assert.equal(result.info.alignmentScore, python.info.alignmentScore, c.id);
      assert.equal(result.info.coverageScore, python.info.coverageScore, c.id);
      assert.equal(result.score, Math.min(result.info.alignmentScore, result.info.coverageScore));
      assert.ok(result.info.reason.startsWith('The score is'), result.info.reason);
      assert.ok(result.info.summscore!.assessment.length <= 5, `${c.id}: 0.x asks at most 5 questions`);
    }
  });

  test("Mastra's evaluate() runs the metric, as an agent's evals do", async () => {
    const c = harness.cases.find((x) => x.id === 'news-fitness')!;
    const m = metric();
    // An agent takes the metric among its evals (Mastra 0.x runs them after each generate()).
    const agent = new Agent({
      name: 'summariser',
      instructions: 'Summarise.',
      model: { specificationVersion: 'v1', provider: 'stub', modelId: 'stub' } as any,
      evals: { summarization: m },
    });
    assert.equal(agent.evals.summarization, m);
    const evaluation = await evaluate({
      agentName: 'summariser',
      input: c.source,
      metric: m,
      output: c.summary,
      globalRunId: 'run-0x',
      instructions: 'Summarise.',
    });
    assert.equal(evaluation.score, c.python.SummarizationMetric.score);
  });

  test('scale multiplies each component, as in Mastra 0.x', async () => {
    const c = harness.cases.find((x) => x.id === 'news-fitness')!;
    const result = await metric({ scale: 10 }).measure(c.source, c.summary);
    const python = c.python.SummarizationMetric.info;
    assert.equal(result.info.alignmentScore, Math.round((python.alignmentScore * 10 + Number.EPSILON) * 100) / 100);
    assert.equal(result.score, Math.min(result.info.alignmentScore, result.info.coverageScore));
  });

  test('an empty summary scores 0; service errors are MastraErrors', async () => {
    assert.equal((await metric({ url: 'http://127.0.0.1:9' }).measure('Some text.', '  ')).score, 0);
    await assert.rejects(metric({ token: 'wrong' }).measure('Some text.', 'Text.'), (error: unknown) => {
      assert.ok(error instanceof MastraError);
      assert.equal(error.id, 'SUMMSCORE_SUMMARIZATION_METRIC_UNAUTHORIZED');
      assert.equal(error.domain, 'EVAL');
      assert.equal(error.category, 'USER');
      assert.equal(error.details?.status, 401);
      return true;
    });
    await assert.rejects(metric({ url: 'http://127.0.0.1:9' }).measure('Some text.', 'Text.'), /not reachable/);
  });

  test('a request that outlives timeoutMs is a timeout MastraError', async () => {
    const silent = createServer(() => {});
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      await assert.rejects(metric({ url, timeoutMs: 300 }).measure('Some text.', 'Text.'), (error: unknown) => {
        assert.ok(error instanceof MastraError);
        assert.equal(error.id, 'SUMMSCORE_SUMMARIZATION_METRIC_TIMEOUT');
        assert.equal(error.category, 'THIRD_PARTY');
        assert.match(error.message, /did not answer within 300 ms/);
        return true;
      });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((done) => silent.close(() => done()));
    }
  });
});
