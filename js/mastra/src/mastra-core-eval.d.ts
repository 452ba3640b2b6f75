/**
 * `@mastra/core/eval` exists in @mastra/core 0.x only (Metric, MetricResult, as 0.24 declares
 * them); this declaration lets the 0.x entry point compile in the 1.x workspace. At run time the
 * installed @mastra/core 0.x provides the module.
 */
declare module '@mastra/core/eval' {
  export interface MetricResult {
    score: number;
    info?: Record<string, any>;
  }
  export abstract class Metric {
    abstract measure(input: string, output: string): Promise<MetricResult>;
  }
}
