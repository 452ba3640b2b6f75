/**
 * Mastra 0.x: `SummarizationMetric` extending `Metric` from `@mastra/core/eval`, scored by
 * `summscore serve` with the 0.x rule (version "0.x": 5 questions by default):
 * `measure(input, output)` -> `{ score, info: { reason, alignmentScore, coverageScore } }`.
 */
/// <reference path="./mastra-core-eval.d.ts" />
import { Metric, type MetricResult } from '@mastra/core/eval';
import { type ScoreOptions, type ServiceOptions, type SummaryResult, scoreSummary } from './client.js';
import { asMastraError } from './errors.js';

export * from './client.js';

export interface SummarizationMetricOptions extends ServiceOptions {
  /** Multiplies each component (default 1). */
  scale?: number;
  /** Questions drawn from the source (default 5, as Mastra 0.x's prompt example). */
  maxQuestions?: number;
  /** The summscore preset the service must run (default "mastra"). */
  preset?: 'mastra' | 'ragas' | 'deepeval';
}

export interface SummarizationMetricResult extends MetricResult {
  info: { reason: string; alignmentScore: number; coverageScore: number; summscore?: SummaryResult };
}

export class SummarizationMetric extends Metric {
  readonly options: SummarizationMetricOptions;
  readonly scale: number;

  constructor(options: SummarizationMetricOptions = {}) {
    super();
    this.options = options;
    this.scale = options.scale ?? 1;
  }

  async measure(input: string, output: string): Promise<SummarizationMetricResult> {
    if (typeof output === 'string' && !output.trim()) return this.empty('summary');
    if (typeof input === 'string' && !input.trim()) return this.empty('source');
    const requestOptions: ScoreOptions = { version: '0.x' };
    if (this.options.scale !== undefined) requestOptions.scale = this.options.scale;
    if (this.options.maxQuestions !== undefined) requestOptions.maxQuestions = this.options.maxQuestions;
    let result: SummaryResult;
    try {
      result = await scoreSummary(this.options, { source: input, summary: output, options: requestOptions });
    } catch (error) {
      throw asMastraError(error, 'EVAL', 'SUMMARIZATION_METRIC');
    }
    const preset = this.options.preset ?? 'mastra';
    if (result.preset !== preset) {
      throw asMastraError(
        new Error(`summscore serve scores with the ${result.preset} preset, this metric expects ${preset}`),
        'EVAL',
        'PRESET_MISMATCH',
      );
    }
    if (result.error !== null || result.score === null) {
      throw asMastraError(new Error(`summscore could not score this case: ${result.error}`), 'EVAL', 'JUDGE_FAILED');
    }
    return {
      score: result.score,
      info: {
        reason: result.reason ?? '',
        alignmentScore: result.alignment_score ?? 0,
        coverageScore: result.coverage_score ?? 0,
        summscore: result,
      },
    };
  }

  private empty(what: string): SummarizationMetricResult {
    return {
      score: 0,
      info: {
        reason: `The score is 0 because the ${what} is empty, so there is nothing to judge.`,
        alignmentScore: 0,
        coverageScore: 0,
      },
    };
  }
}
