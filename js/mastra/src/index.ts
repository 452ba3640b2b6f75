/**
 * Mastra 1.x: a summarization scorer built with `createScorer` from `@mastra/core/evals`, scored by
 * `summscore serve`. Attach it to an Agent's `scorers`, `new Mastra({ scorers })` or `runEvals`,
 * like Mastra's own `createSummarizationScorer` from `@mastra/evals/scorers/prebuilt`, whose result
 * shape it keeps: `score`, `reason`, `preprocessStepResult` (`alignment`: claim, supported, reason;
 * `questions`) and `analyzeStepResult` (`coverage`: question, answered, reason).
 */
import { createScorer } from '@mastra/core/evals';
import { type ScoreOptions, type ScoreRequest, type ServiceOptions, type SummaryResult, scoreSummary, serviceUrl } from './client.js';
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

/**
 * The prompt columns of a Mastra scorer row. summscore's judge prompts are rendered inside the
 * service, so these carry what this scorer sent and what the service's judge was given:
 * `preprocessPrompt` the request sent to `summscore serve` (method, URL and JSON body; never the
 * token), `analyzePrompt` the summary and the questions its judge answered from it, and
 * `generateReasonPrompt` the score and the evidence its judge explained. When nothing was sent
 * (an empty summary or source, scored 0 here) each says so.
 */
export interface SummarizationPrompts {
  preprocessPrompt: string;
  analyzePrompt: string;
  generateReasonPrompt: string;
}

/** The prompt columns of one run: what was sent for it (see {@link SummarizationPrompts}). */
export function toStepPrompts(url: string, request: ScoreRequest | undefined, result: SummaryResult): SummarizationPrompts {
  if (request === undefined) {
    const skipped = `(nothing sent: ${result.reason ?? 'the run was scored without summscore serve'})`;
    return { preprocessPrompt: skipped, analyzePrompt: skipped, generateReasonPrompt: skipped };
  }
  const json = (value: unknown): string => JSON.stringify(value, null, 2);
  const unsupported = result.claims.filter((c) => !c.supported).map((c) => c.claim);
  const missed = result.assessment.filter((a) => !a.covered).map((a) => a.question);
  return {
    preprocessPrompt: `POST ${url}/v1/score\n${json(request)}`,
    analyzePrompt: json({
      task: 'answer each question from the summary alone',
      judge: result.judge,
      summary: request.summary,
      questions: result.assessment.map((a) => a.question),
    }),
    generateReasonPrompt:
      result.reason === null
        ? '(nothing sent: the service was asked for no reason)'
        : json({
            task: 'explain the score from its evidence',
            judge: result.judge,
            preset: result.preset,
            score: result.score,
            alignment_score: result.alignment_score,
            coverage_score: result.coverage_score,
            unsupported_claims: unsupported,
            missed_questions: missed,
          }),
  };
}

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
  // One service call per run, made in the preprocess step; the later steps read it back, and
  // run() (wrapped below) adds the prompt columns before it forgets the run.
  const pending = new Map<string, { result: SummaryResult; prompts: SummarizationPrompts }>();

  const sourceOf = (input: unknown, output: unknown): string =>
    options.sourceExtractor ? options.sourceExtractor(input, output) : (options.source ?? userMessage(input) ?? '');

  const resultOf = (runId: string | undefined): SummaryResult => {
    const found = runId === undefined ? undefined : pending.get(runId);
    if (!found) throw new Error('summscore: the preprocess step did not run for this run');
    return found.result;
  };

  const scorer = createScorer({
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
      let request: ScoreRequest | undefined;
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
        request = {
          source,
          summary,
          id: runId,
          ...(Object.keys(requestOptions).length > 0 ? { options: requestOptions } : {}),
        };
        try {
          result = await scoreSummary(options, request);
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
      pending.set(runId, { result, prompts: toStepPrompts(serviceUrl(options), request, result) });
      return toStepResults(result).preprocess;
    })
    .analyze(({ run }): SummarizationAnalyzeResult => toStepResults(resultOf(run.runId ?? '')).analyze)
    .generateScore(({ run }) => resultOf(run.runId ?? '').score ?? 0)
    .generateReason(({ run }) => resultOf(run.runId ?? '').reason ?? '');

  // Mastra fills the prompt columns from prompt steps only; these steps are functions (the
  // service asks the judge), so run() adds what was sent, read back by the run's id.
  const run = scorer.run.bind(scorer);
  scorer.run = async (input) => {
    const result = await run(input);
    const found = pending.get(result.runId ?? '');
    pending.delete(result.runId ?? '');
    return found ? { ...result, ...found.prompts } : result;
  };
  return scorer;
}
