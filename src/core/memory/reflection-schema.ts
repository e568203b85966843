// What an agent's own model fills after a reviewed outcome: its reflection and the lesson it keeps.
import { z } from '../zod.js';
import { chars } from '../chars.js';
import { lazy } from '../lazy.js';

// A reflection's three steps (a self score with its reasoning; went well, to improve, next actions) and the
// individual learning: one sentence the agent keeps for itself, under a category it names.
export const reflectionSchema = lazy(() =>
  z.object({
    self_score: z.number().int().min(1).max(10).describe('Your own score for your part in this decision, 1 to 10'),
    score_reasoning: chars(1, 600).describe('Why that score, against the verdict and the measured figures'),
    what_went_well: z.array(chars(1, 300)).min(1).max(3),
    what_to_improve: z.array(chars(1, 300)).min(1).max(3),
    next_actions: z.array(chars(1, 200)).min(1).max(3).describe('What you will do differently next time'),
    lesson: chars(1, 400).describe('One factual sentence you keep as your own learning'),
    category: chars(1, 80).describe('What the lesson is about: an action type or a topic'),
  }),
);
export type ReflectionAnswer = z.infer<ReturnType<typeof reflectionSchema>>;
