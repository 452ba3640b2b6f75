/**
 * Starts test/harness.py (the compat judge and `summscore serve` on loopback, plus the Python
 * faces' numbers) and stops it by closing its stdin.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import type { SummaryResult } from '@summscore/mastra/client';

export interface PythonCase {
  id: string;
  source: string;
  summary: string;
  python: {
    SummarizationMetric: { score: number; info: { reason: string; alignmentScore: number; coverageScore: number } };
    createSummarizationScorer: {
      score: number;
      reason: string;
      preprocessStepResult: { alignment: { claim: string; supported: boolean; reason: string }[]; questions: string[] };
      analyzeStepResult: { coverage: { question: string; answered: boolean; reason: string }[] };
    };
  };
}

/** The offline service (`--judge lexical --preset deepeval`) and the Python core's result of one case. */
export interface OfflineCase {
  serviceUrl: string;
  source: string;
  summary: string;
  python: SummaryResult;
}

export interface Harness {
  judgeUrl: string;
  serviceUrl: string;
  token: string;
  model: string;
  version: string;
  cases: PythonCase[];
  offline: OfflineCase;
  stop(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));

export async function startHarness(version: '1.x' | '0.x'): Promise<Harness> {
  const repo = process.env.SUMMSCORE_REPO ?? resolve(here, '../../..');
  const python = process.env.SUMMSCORE_PYTHON ?? resolve(repo, '.venv/bin/python');
  const script = process.env.SUMMSCORE_HARNESS ?? resolve(here, 'harness.py');
  const child: ChildProcess = spawn(python, [script, '--version', version], {
    cwd: repo,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const lines = createInterface({ input: child.stdout! });
  const first = await new Promise<string>((done, fail) => {
    lines.once('line', done);
    child.once('exit', (code) => fail(new Error(`test/harness.py exited with ${code} before it was ready`)));
  });
  const ready = JSON.parse(first) as Omit<Harness, 'stop'>;
  return {
    ...ready,
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
}
