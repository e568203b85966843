// The discussion engine: plans the next step from the record alone and runs it through any provider.
// This file is the public facade; the work lives in src/core/engine/, one job per module.
export type { EngineEnv, Step, StepResult } from './engine/types.js';
export { latestComputed, planStep } from './engine/plan.js';
export { learningRequest, phaseRequests, reflectionRequest } from './engine/requests.js';
export { Builder } from './engine/builder.js';
export { reanalyse } from './engine/phases.js';
export { decideStep, recordOrder, type DecideInput } from './engine/decide.js';
export { applyStep, mergeable, mergeSteps, runStep } from './engine/run.js';
export { agentObjections, needsReview } from './engine/review-marks.js';
export type { AgentObjection } from './rules/review.js';
