// GET /trigger-types: the kinds of trigger a discussion may be started for, with their labels in one language.
import { LANGUAGES } from '../../../core/discussion/vocab.js';
import { ALL_ROLES } from '../../../core/api/api.js';
import type { Lang } from '../../../core/i18n.js';
import { z } from '../../../core/zod.js';
import { apiCouncil } from '../../api/api-env.js';
import { triggerTypes } from '../../discussions/trigger-door.js';
import { defineOperation } from '../route.js';

const LANGS = LANGUAGES;

const triggerTypesAnswer = () =>
  z.object({
    locale: z.enum(LANGS).describe('The language of the labels: the one asked for, or the Settings locale'),
    trigger_types: z.array(
      z.object({
        type: z.string().describe('The value start_discussion takes as type'),
        label: z.string(),
        description: z.string().optional().describe('When Settings triggers.types gives one in that language'),
      }),
    ),
  });

export const listTriggerTypesOp = defineOperation({
  name: 'list_trigger_types',
  description:
    'Lists the trigger types a discussion may be started for (Settings triggers.types, in its order): type (start_discussion’s type), its label in the locale asked for (ja or en; the sheet’s by default) and its description when Settings gives one.',
  mutates: false,
  tool: true,
  http: { method: 'GET', path: '/trigger-types' },
  roles: ALL_ROLES,
  input: () =>
    z.object({ locale: z.enum(LANGS).optional().describe('ja or en (default: the Settings locale)') }).strict(),
  output: triggerTypesAnswer,
  example: { locale: 'en' },
  handler: (input) => {
    const council = apiCouncil();
    const lang: Lang = input.locale ?? (council.settings().raw('locale') === 'en' ? 'en' : 'ja');
    return {
      locale: lang,
      trigger_types: triggerTypes(council).map((t) => {
        const description = lang === 'ja' ? t.description_ja : t.description_en;
        return {
          type: t.type,
          label: (lang === 'ja' ? t.label_ja : t.label_en) || t.type,
          ...(description ? { description } : {}),
        };
      }),
    };
  },
});
