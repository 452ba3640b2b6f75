/**
 * @summscore/mastra with real Mastra 1.x (@mastra/core, @mastra/evals from the npm registry),
 * `summscore serve` and the compat judge on loopback (test/harness.py). Mastra's own
 * `createSummarizationScorer` runs on the same judge, in the same runEvals.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';

import { Agent } from '@mastra/core/agent';
import { MastraError } from '@mastra/core/error';
import { runEvals } from '@mastra/core/evals';
import { Mastra } from '@mastra/core/mastra';
import { InMemoryStore } from '@mastra/core/storage';
import { createMockModel } from '@mastra/core/test-utils/llm-mock';
import { createSummarizationScorer as createMastraSummarizationScorer } from '@mastra/evals/scorers/prebuilt';
import { type ClaimVerdict, createSummarizationScorer, scoreSummary, SummscoreServiceError } from '@summscore/mastra';

import { type Harness, startHarness } from './harness.ts';

let harness: Harness;

before(async () => {
  harness = await startHarness('1.x');
});

after(async () => {
  await harness?.stop();
});

function ours(options: Parameters<typeof createSummarizationScorer>[0] = {}) {
  return createSummarizationScorer({ url: harness.serviceUrl, token: harness.token, ...options });
}

function mastras(options: { scale?: number; maxQuestions?: number } = {}) {
  const model = { id: `compat/${harness.model}` as const, url: harness.judgeUrl, apiKey: 'not-needed' };
  return createMastraSummarizationScorer({ model, options });
}

/** An agent whose model answers every prompt with `summary`. */
function summariser(summary: string): Agent {
  return new Agent({
    id: 'summariser',
    name: 'summariser',
    instructions: 'Summarise the text you are given.',
    model: createMockModel({ mockText: summary, version: 'v2' }),
  });
}

/** A run shaped like the ones an agent hands its scorers. */
function agentRun(source: string, summary: string) {
  const now = new Date();
  return {
    input: {
      inputMessages: [{ id: 'u1', role: 'user', content: { format: 2, parts: [{ type: 'text', text: source }] }, createdAt: now }],
      rememberedMessages: [],
      systemMessages: [],
      taggedSystemMessages: {},
    },
    output: [{ id: 'a1', role: 'assistant', content: { format: 2, parts: [{ type: 'text', text: summary }] }, createdAt: now }],
  } as any;
}

const keys = (value: object | undefined): string[] => Object.keys(value ?? {}).sort();

describe('Mastra 1.x', () => {
  test('inside runEvals the scorer gives the Python faces numbers and Mastra own scorer gives the same', async () => {
    const scorer = ours();
    const theirs = mastras();
    for (const c of harness.cases) {
      const results: Record<string, any>[] = [];
      const summary = await runEvals({
        target: summariser(c.summary),
        data: [{ input: c.source }],
        scorers: [scorer, theirs],
        onItemComplete: ({ scorerResults }) => {
          results.push(scorerResults);
        },
      });
      assert.equal(summary.summary.totalItems, 1);
      const got = results[0]![scorer.id];
      const mastra = results[0]![theirs.id];
      const python = c.python.createSummarizationScorer;
      assert.equal(got.score, python.score, `${c.id}: summscore serve vs Python faces`);
      assert.equal(got.score, c.python.SummarizationMetric.score, `${c.id}: both Python faces`);
      assert.equal(mastra.score, got.score, `${c.id}: Mastra's own scorer on the same judge`);
      // Same rule, same evidence: the claims, their verdicts, the questions and the answers.
      assert.deepEqual(got.preprocessStepResult, python.preprocessStepResult, c.id);
      assert.deepEqual(got.analyzeStepResult, python.analyzeStepResult, c.id);
      assert.deepEqual(
        got.preprocessStepResult.alignment.map((a: any) => [a.claim, a.supported]),
        mastra.preprocessStepResult.alignment.map((a: any) => [a.claim, a.supported]),
        c.id,
      );
      assert.deepEqual(got.preprocessStepResult.questions, mastra.preprocessStepResult.questions, c.id);
      assert.deepEqual(
        got.analyzeStepResult.coverage.map((a: any) => a.answered),
        mastra.analyzeStepResult.coverage.map((a: any) => a.answered),
        c.id,
      );
      // Same result shape.
      assert.deepEqual(keys(got.preprocessStepResult), keys(mastra.preprocessStepResult));
      assert.deepEqual(keys(got.analyzeStepResult), keys(mastra.analyzeStepResult));
      for (const [mine, theirs_] of [
        [got.preprocessStepResult.alignment[0], mastra.preprocessStepResult.alignment[0]],
        [got.analyzeStepResult.coverage[0], mastra.analyzeStepResult.coverage[0]],
      ]) {
        if (mine && theirs_) assert.deepEqual(keys(mine), keys(theirs_));
      }
      assert.equal(typeof got.reason, 'string');
      assert.ok(got.reason.startsWith('The score is'), got.reason);
    }
    const scored = harness.cases.map((c) => c.python.createSummarizationScorer.score);
    assert.ok(new Set(scored).size >= 3, `the cases should not all score alike: ${scored}`);
  });

  test('scorer.run on an agent-shaped run matches Mastra own scorer with scale and maxQuestions', async () => {
    const c = harness.cases.find((x) => x.id === 'news-fitness')!;
    const options = { scale: 10, maxQuestions: 2 };
    const got = await ours(options).run(agentRun(c.source, c.summary));
    const mastra = await mastras(options).run(agentRun(c.source, c.summary));
    assert.equal(got.score, mastra.score);
    assert.equal(got.preprocessStepResult!.questions.length, 2);
    assert.deepEqual(got.preprocessStepResult!.questions, mastra.preprocessStepResult!.questions);
    assert.ok(got.score! > 1 && got.score! <= 10);
  });

  test('the scorer registers with new Mastra({ scorers }) and attaches to an agent', () => {
    const scorer = ours();
    const mastra = new Mastra({ scorers: { summarization: scorer } });
    assert.equal(mastra.getScorer('summarization').id, 'summscore-summarization-scorer');
    const agent = new Agent({
      id: 'attached',
      name: 'attached',
      instructions: 'Summarise.',
      model: createMockModel({ mockText: 'x', version: 'v2' }),
      scorers: { summarization: { scorer, sampling: { type: 'ratio', rate: 1 } } },
    });
    assert.ok(agent);
  });

  test('an empty summary scores 0 as in Mastra, without asking the service', async () => {
    const result = await ours({ url: 'http://127.0.0.1:9' }).run(agentRun('The plant closed in 1987.', '   '));
    assert.equal(result.score, 0);
    assert.deepEqual(result.preprocessStepResult, { alignment: [], questions: [] });
  });

  test('the offline judge results carry each claim support, typed, as the Python core gives it', async () => {
    const { serviceUrl, source, summary, python } = harness.offline;
    const result = await scoreSummary({ url: serviceUrl, token: harness.token }, { source, summary });
    assert.equal(result.judge, 'lexical');
    const support = (claim: ClaimVerdict): number | null | undefined => claim.support;
    const graded = result.claims.map(support);
    assert.ok(graded.length > 0);
    assert.ok(graded.every((value) => typeof value === 'number' && value >= 0 && value <= 1), String(graded));
    assert.ok(graded.some((value) => value !== 1), 'a wrong number lowers its claim support');
    assert.deepEqual(graded, python.claims.map(support));
    assert.equal(result.alignment_score, python.alignment_score);
    // An LLM judge gives no support: absent or null, and the type allows both.
    const llm: ClaimVerdict = { claim: 'c', verdict: 'yes', reason: null, supported: true };
    assert.equal(support(llm), undefined);
  });

  test('service errors fail the run as Mastra scorer errors do, naming the cause', async () => {
    const run = agentRun('The plant closed in 1987.', 'The plant closed.');
    const expectFailure = (code: RegExp, category: string, message: RegExp) => (error: unknown) => {
      // Mastra wraps a failed step in its ScorerRunError (a MastraError); our MastraError, as
      // serialised by Mastra's workflow engine, is in its cause chain.
      assert.ok(error instanceof MastraError, String(error));
      assert.equal((error as any).failedStep, 'preprocess');
      assert.match(error.message, message);
      const ours_ = findCause(error);
      assert.match(String(ours_?.code ?? ours_?.id), code);
      assert.equal(ours_?.domain, 'SCORER');
      assert.equal(ours_?.category, category);
      return true;
    };
    await assert.rejects(
      ours({ token: 'wrong' }).run(run),
      expectFailure(/^SUMMSCORE_SUMMARIZATION_UNAUTHORIZED$/, 'USER', /summscore serve answered 401/),
    );
    await assert.rejects(
      ours({ url: 'http://127.0.0.1:9' }).run(run),
      expectFailure(/_UNREACHABLE$/, 'THIRD_PARTY', /not reachable at http:\/\/127\.0\.0\.1:9\/v1\/score/),
    );
    await assert.rejects(
      ours({ maxQuestions: 100_000 }).run(run),
      expectFailure(/^SUMMSCORE_SUMMARIZATION_/, 'USER', /summscore serve answered 422/),
    );
    await assert.rejects(ours({ preset: 'ragas' }).run(run), /scores with the mastra preset/);
    assert.throws(() => ours({ maxQuestions: 0 }), /maxQuestions must be at least 1/);
    // Outside Mastra's runner the client's own error carries status, type and field.
    const { scoreSummary } = await import('@summscore/mastra');
    await assert.rejects(
      scoreSummary({ url: harness.serviceUrl, token: harness.token }, { source: 'Some text.', summary: ' ' }),
      (error: unknown) => {
        assert.ok(error instanceof SummscoreServiceError);
        assert.equal(error.status, 422);
        assert.equal(error.field, 'summary');
        return true;
      },
    );
  });
});

describe('Mastra 1.x, what a run leaves behind', () => {
  test('a stored score row carries the prompt columns Mastra own rows carry, filled with what was sent', async () => {
    const c = harness.cases.find((x) => x.id === 'news-tesla-misattributed')!;
    const scorer = ours();
    const theirs = mastras();
    const mastra = new Mastra({
      agents: { summariser: summariser(c.summary) },
      scorers: { summarization: scorer, mastraSummarization: theirs },
      storage: new InMemoryStore(),
      logger: false,
    });
    await runEvals({ target: mastra.getAgent('summariser'), data: [{ input: c.source }], scorers: [scorer, theirs] });
    const scores = (await mastra.getStorage()!.getStore('scores'))!;
    const stored = async (scorerId: string): Promise<Record<string, any>> => {
      const { scores: rows } = await scores.listScoresByScorerId({ scorerId, pagination: { page: 0, perPage: 10 } });
      assert.equal(rows.length, 1, scorerId);
      return rows[0] as Record<string, any>;
    };
    const row = await stored(scorer.id);
    const mastraRow = await stored(theirs.id);
    for (const column of ['preprocessPrompt', 'analyzePrompt', 'generateReasonPrompt']) {
      assert.equal(typeof mastraRow[column], 'string', `Mastra's own row has ${column}`);
      assert.equal(typeof row[column], 'string', `our row has ${column}`);
    }
    // preprocess: the request sent to summscore serve, with the run's source and summary.
    const [requestLine, ...body] = (row.preprocessPrompt as string).split('\n');
    assert.equal(requestLine, `POST ${harness.serviceUrl}/v1/score`);
    const sent = JSON.parse(body.join('\n'));
    assert.equal(sent.source, c.source);
    assert.equal(sent.summary, c.summary);
    assert.ok(!(row.preprocessPrompt as string).includes(harness.token), 'the token is never stored');
    // analyze: the questions the service's judge answered from the summary alone.
    const analyze = JSON.parse(row.analyzePrompt);
    assert.equal(analyze.summary, c.summary);
    assert.deepEqual(analyze.questions, row.preprocessStepResult.questions);
    // reason: the score and the evidence the service's judge explained.
    const reason = JSON.parse(row.generateReasonPrompt);
    assert.equal(reason.score, row.score);
    const unsupported = row.preprocessStepResult.alignment.filter((a: any) => !a.supported).map((a: any) => a.claim);
    assert.deepEqual(reason.unsupported_claims, unsupported);
    assert.ok(unsupported.length > 0, 'the misattributed founder is an unsupported claim');
  });

  test('scorer.run returns the prompt columns; an empty summary says nothing was sent', async () => {
    const c = harness.cases.find((x) => x.id === 'news-fitness')!;
    const result = await ours().run(agentRun(c.source, c.summary));
    assert.match(result.preprocessPrompt ?? '', /^POST http:\/\/127\.0\.0\.1:\d+\/v1\/score\n\{/);
    const empty = await ours({ url: 'http://127.0.0.1:9' }).run(agentRun(c.source, ' '));
    assert.match(empty.preprocessPrompt ?? '', /^\(nothing sent: The score is 0 because the summary is empty/);
  });

  test('a request that outlives timeoutMs is reported as a timeout, not as an unreachable service', async () => {
    // A service that accepts the connection and never answers.
    const silent: Server = createServer(() => {});
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    try {
      await assert.rejects(ours({ url, timeoutMs: 300 }).run(agentRun('The plant closed in 1987.', 'It closed.')), (error: unknown) => {
        assert.ok(error instanceof MastraError, String(error));
        assert.match(error.message, /did not answer within 300 ms \(timeoutMs\)/);
        const cause = findCause(error);
        assert.match(String(cause?.code ?? cause?.id), /^SUMMSCORE_SUMMARIZATION_TIMEOUT$/);
        assert.equal(cause?.category, 'THIRD_PARTY');
        return true;
      });
      await assert.rejects(scoreSummary({ url, timeoutMs: 200 }, { source: 'Some text.', summary: 'Text.' }), (error: unknown) => {
        assert.ok(error instanceof SummscoreServiceError);
        assert.equal(error.type, 'timeout');
        assert.doesNotMatch(error.message, /not reachable/);
        return true;
      });
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((done) => silent.close(() => done()));
    }
  });
});

/** Our error (a MastraError, or its serialised form) in the cause chain of what Mastra threw. */
function findCause(error: unknown): any {
  let current: any = error;
  for (let i = 0; i < 6 && current; i++) {
    if (String(current.code ?? current.id ?? '').startsWith('SUMMSCORE_')) return current;
    current = current.cause;
  }
  return undefined;
}
