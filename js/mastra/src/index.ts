/**
 * Mastra 1.x: a summarization scorer built with `createScorer` from `@mastra/core/evals`, scored by
 * `summscore serve`. Attach it to an Agent's `scorers`, `new Mastra({ scorers })` or `runEvals`,
 * like Mastra's own `createSummarizationScorer` from `@mastra/evals/scorers/prebuilt`, whose result
 * shape it keeps: `score`, `reason`, `preprocessStepResult` (`alignment`: claim, supported, reason;
 * `questions`) and `analyzeStepResult` (`coverage`: question, answered, reason).
 */
import { createScorer } from '@mastra/core/evals';
import { type ScoreOptions, type ServiceOptions, type SummaryResult, scoreSummary } from './client.js';
import { asMastraError } from './errors.js';
import { assistantMessage, userMessage } from './runs.js';

export * from './client.js';
export { asMastraError } from './errors.js';
export { assistantMessage, textOf, userMessage } from './runs.js';

export interface SummarizationScorerOptions extends ServiceOptions {
  /** Multiplies the score (default: the service's, 1). */
  scale?: number;
  /** Upper bound on the coverage questions drawn from the source (default: the service's, 10). */
  maxQuestions?: number;
  /** The summscore preset the service must run (default "mastra"); another is an error. */
  preset?: 'mastra' | 'ragas' | 'deepeval';
  /** Text the summary is judged against. Defaults to the first user message of the run input. */
  source?: string;
  /** Derives the source text from the run; takes precedence over `source`. */
  sourceExtractor?: (input: any, output: any) => string;
  /** Scorer id (default "summscore-summarization-scorer"). */
  id?: string;
}

export interface AlignmentVerdict {
  claim: string;
  supported: boolean;
  reason: string;
}

export interface CoverageVerdict {
  question: string;
  answered: boolean;
  reason: string;
}

export interface SummarizationPreprocessResult {
  alignment: AlignmentVerdict[];
  questions: string[];
}

export interface SummarizationAnalyzeResult {
  coverage: CoverageVerdict[];
}

const EMPTY_REASON = (what: string): string => `The score is 0 because the ${what} is empty, so there is nothing to judge.`;

/** The Mastra step results of one service result. */
export function toStepResults(result: SummaryResult): {
  preprocess: SummarizationPreprocessResult;
  analyze: SummarizationAnalyzeResult;
} {
  return {
    preprocess: {
      alignment: result.claims.map((c) => ({ claim: c.claim, supported: c.supported, reason: c.reason ?? '' })),
      questions: result.assessment.map((a) => a.question),
    },
    analyze: {
      coverage: result.assessment.map((a) => ({ question: a.question, answered: a.covered, reason: a.summary_answer })),
    },
  };
}

/**
 * `createSummarizationScorer` with Mastra 1.x's rule and result shape, judged by summscore:
 * score = round2(min(alignment, coverage) x scale), 0 without claims or questions.
 */
export function createSummarizationScorer(options: SummarizationScorerOptions = {}) {
  if (options.maxQuestions !== undefined && options.maxQuestions < 1) {
    throw new Error('maxQuestions must be at least 1 for Summarization scoring');
  }
  const preset = options.preset ?? 'mastra';
  const requestOptions: ScoreOptions = {};
  if (options.scale !== undefined) requestOptions.scale = options.scale;
  if (options.maxQuestions !== undefined) requestOptions.maxQuestions = options.maxQuestions;
  // One service call per run, made in the preprocess step; the later steps read it back.
  const pending = new Map<string, SummaryResult>();

  const sourceOf = (input: unknown, output: unknown): string =>
    options.sourceExtractor ? options.sourceExtractor(input, output) : (options.source ?? userMessage(input) ?? '');

  const resultOf = (runId: string | undefined): SummaryResult => {
    const found = runId === undefined ? undefined : pending.get(runId);
    if (!found) throw new Error('summscore: the preprocess step did not run for this run');
    return found;
  };

  return createScorer({
    id: options.id ?? 'summscore-summarization-scorer',
    name: 'Summarization Scorer (summscore)',
    description:
      'Evaluates whether a summary stays faithful to its source text and preserves the information the source states, scored by summscore serve',
    type: 'agent',
  })
    .preprocess(async ({ run }): Promise<SummarizationPreprocessResult> => {
      const source = sourceOf(run.input, run.output);
      const summary = assistantMessage(run.output) ?? '';
      const runId = run.runId ?? '';
      let result: SummaryResult;
      const blank = !summary.trim() ? 'summary' : !source.trim() ? 'source' : undefined;
      if (blank) {
        // Mastra scores an empty summary (or source) 0; the service rejects blank text.
        result = {
          score: 0,
          preset,
          prompt_set: '',
          judge: '',
          alignment_score: 0,
          coverage_score: 0,
          claims: [],
          assessment: [],
          reason: EMPTY_REASON(blank),
          error: null,
          warnings: [],
          usage: {},
        };
      } else {
        try {
          result = await scoreSummary(options, {
            source,
            summary,
            id: runId,
            ...(Object.keys(requestOptions).length > 0 ? { options: requestOptions } : {}),
          });
        } catch (error) {
          throw asMastraError(error, 'SCORER', 'SUMMARIZATION');
        }
        if (result.preset !== preset) {
          throw asMastraError(
            new Error(
              `summscore serve scores with the ${result.preset} preset, this scorer expects ${preset}: start it with --preset ${preset} or pass preset: '${result.preset}'`,
            ),
            'SCORER',
            'PRESET_MISMATCH',
          );
        }
        if (result.error !== null || result.score === null) {
          throw asMastraError(new Error(`summscore could not score this run: ${result.error}`), 'SCORER', 'JUDGE_FAILED');
        }
      }
      if (pending.size > 1000) pending.delete(pending.keys().next().value as string);
      pending.set(runId, result);
      return toStepResults(result).preprocess;
    })
    .analyze(({ run }): SummarizationAnalyzeResult => toStepResults(resultOf(run.runId ?? '')).analyze)
    .generateScore(({ run }) => resultOf(run.runId ?? '').score ?? 0)
    .generateReason(({ run }) => {
      const result = resultOf(run.runId ?? '');
      pending.delete(run.runId ?? '');
      return result.reason ?? '';
    });
}
