// The Settings rows of the learning lifecycle: promotion, merging, status reports, milestones.
import { settingDef as s } from '../setting-def.js';

export const LEARNING_SETTINGS = [
  {
    ...s(
      'learning.auto_promote_count',
      10,
      'integer',
      'An individual learning with this many successful uses is proposed for shared (an Inbox proposal), or promoted at once when automatic promotion is on',
    ),
    // The row's name before its rename: a workbook that set it keeps its value.
    formerly: 'learning.promote_after_successes',
  },
  s(
    'learning.auto_promote',
    false,
    'boolean',
    'Promote an individual learning to shared without asking a person (by default a person confirms it first)',
  ),
  s(
    'learning.merge_similarity',
    0.85,
    'number',
    'A new learning at least this similar (cosine) to an active one of the same agent strengthens it instead of adding a row',
  ),
  s(
    'inbox.status_report_days',
    7,
    'integer',
    'Days between status reports in the Inbox (decisions, verdict rates, flips, budget); 0 sends none',
  ),
  s(
    'inbox.milestone_accuracy',
    0.7,
    'number',
    'An agent whose share of right calls in reviewed decisions rises to this is named in an Inbox milestone',
  ),
  s(
    'inbox.milestone_min_verdicts',
    10,
    'integer',
    'Reviewed calls an agent needs before its accuracy can make a milestone',
  ),
  s(
    'learning.inconclusive_step',
    0.02,
    'number',
    'Confidence added when a decision that used the learning is inconclusive',
  ),
  s('learning.confidence_cap', 0.95, 'number', 'The highest confidence a learning can reach'),
  s('learning.confidence_floor', 0.05, 'number', 'The lowest confidence a rejected use can bring a learning to'),
  s('learning.max_injected', 20, 'integer', 'Learnings given to an agent at most, the most relevant first'),
  s(
    'confidence.record_min_opinions',
    0,
    'integer',
    'A specialist is shown how often it was right in each band of stated confidence (0.7–0.8, say) that holds at least this many scored opinions, and asked to state its confidence in line with it; 0 (the default: in the simulation it put the confidence of fewer agents in order) shows none',
  ),
  s(
    'learning.max_injected_tokens',
    1500,
    'integer',
    'Tokens the learnings may take in an agent prompt; the least relevant are left out to stay under it',
  ),
  s(
    'outcome.recheck_days',
    7,
    'integer',
    'An inconclusive decision is reviewed once more when KPI for its window arrives within this many days; 0 never',
  ),
  s(
    'learning.prompt_suggest_drop',
    2,
    'number',
    'An agent whose last three self-scores fell (each no higher than the one before, by at least this much in all) while it raised the same point to improve again proposes a line for its prompt (an Inbox proposal a coordinator accepts); 0 proposes none',
  ),
];
