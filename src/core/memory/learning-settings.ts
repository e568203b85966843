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
];
